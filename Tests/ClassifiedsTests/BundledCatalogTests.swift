import Classifieds
import Foundation
import GroupBrowser
import Marketplace
import RemixYAML
import Testing

/// The catalogs shipped with Marketplace and GroupBrowser hold the seed apps' sample data.
@Suite struct BundledCatalogTests {
    private let seedTree: [(id: GroupID, parent: GroupID?, children: [GroupID], title: String)] = [
        ("1", nil, ["2", "5"], "Bicycles"),
        ("2", "1", ["3", "4"], "Off road bikes"),
        ("3", "2", [], "Trail bikes"),
        ("4", "2", [], "Mountain bikes"),
        ("5", "1", [], "Racers"),
        ("10", nil, [], "Cars"),
    ]

    private func expectSeedTree(_ groups: [Group]) {
        #expect(groups.count == 6)
        #expect(groups.map(\.groupID) == seedTree.map(\.id))
        #expect(groups.map(\.parent) == seedTree.map(\.parent))
        #expect(groups.map(\.children) == seedTree.map(\.children))
        #expect(groups.map(\.title) == seedTree.map(\.title))
    }

    @Test func marketplaceCatalogHasTheSeedGroupsAdvertsAndKeywordTable() throws {
        let url = try #require(MarketplaceModule.bundledCatalog)
        let catalog = try Catalog.load(contentsOf: url)
        expectSeedTree(catalog.groups)
        #expect(catalog.groups.allSatisfy { $0.description.isEmpty })

        #expect(catalog.adverts.count == 4)
        #expect(catalog.adverts.map(\.advertID) == ["1", "2", "3", "4"])
        #expect(catalog.adverts.map(\.title) == ["Specialized", "Cervelo R2", "Fiat 500", "Apollo Jewel"])
        #expect(catalog.adverts.map(\.groupID) == ["4", "5", "10", "4"])
        #expect(catalog.adverts.allSatisfy { !$0.description.isEmpty })

        let table = try #require(catalog.recommendations)
        #expect(table.rules.map(\.keyword) == ["mountain", "racing", "bike", "car", "truck"])
        #expect(table.rules.map(\.groupID) == ["4", "5", "3", "10", "10"])
        #expect(table.defaultGroupID == "10")
    }

    @Test func groupBrowserCatalogHasTheSeedTreeWithDescriptionsForLeavesAndCars() throws {
        let url = try #require(GroupBrowserModule.bundledCatalog)
        let catalog = try Catalog.load(contentsOf: url)
        expectSeedTree(catalog.groups)
        #expect(catalog.groups.map { !$0.description.isEmpty } == [false, false, true, true, true, true])
        #expect(catalog.adverts.isEmpty)
        #expect(catalog.recommendations == nil)
    }

    @Test func everyAdvertOfTheMarketplaceCatalogIsInALeafGroup() throws {
        let catalog = try Catalog.load(contentsOf: try #require(MarketplaceModule.bundledCatalog))
        let leaves = Set(catalog.groups.filter(\.children.isEmpty).map(\.groupID))
        #expect(catalog.adverts.allSatisfy { leaves.contains($0.groupID) })
    }

    @Test func aMissingFileIsADiagnosticAtItsPath() {
        let url = URL(fileURLWithPath: "/nonexistent/remix/catalog.yaml")
        let error = #expect(throws: Diagnostic.self) { try Catalog.load(contentsOf: url) }
        #expect(error?.location == SourceLocation(file: "/nonexistent/remix/catalog.yaml", line: 1, column: 1))
        #expect(error?.description.hasPrefix("/nonexistent/remix/catalog.yaml:1:1: error: cannot read the catalog file")
            == true)
    }

    @Test func aValidCatalogParsesGroupsAdvertsAndRecommendations() throws {
        let catalog = try Catalog.parse("""
            groups:
              - {id: "1", title: Vehicles, description: Things that move}
              - {id: "2", title: Pets, parent: ~}
            adverts:
              - {id: "100", title: Scrappy bike, group: "1"}
            recommendations:
              keywords: [{keyword: dog, group: "2"}]
              default: "1"
            """, file: "catalog.yaml")
        #expect(catalog == Catalog(
            groups: [Group(groupID: "1", title: "Vehicles", description: "Things that move"),
                     Group(groupID: "2", title: "Pets")],
            adverts: [Advert(advertID: "100", title: "Scrappy bike", description: "", groupID: "1")],
            recommendations: RecommendationTable(rules: [.init(keyword: "dog", groupID: "2")], defaultGroupID: "1")))
    }

    @Test func numericIDsAreReadAsText() throws {
        let catalog = try Catalog.parse("groups:\n  - {id: 7, title: Boats}\n", file: "c.yaml")
        #expect(catalog.groups.map(\.groupID) == ["7"])
    }
}
