import Marketplace
import RemixKit
import Testing

/// What Marketplace's screens declare beyond their text: button roles, field purposes, row kinds
/// and values, and the busy state (docs/architecture.md, "Screen semantics").
@Suite("Marketplace screen semantics")
struct MarketplaceScreenSemanticsTests {
    @Test func theAdvertListOffersItemRowsValuedByAdvertIDAndNewAdvertAsThePrimaryAction() throws {
        let app = try MarketplaceDriver()
        let content = try app.panel("adverts").content
        #expect(!content.items.isEmpty)
        #expect(content.items.allSatisfy { $0.kind == .item && !$0.isSelected })
        #expect(content.items.map(\.value) == content.items.map(\.id))
        #expect(content.buttons.map(\.role) == [.primary, .other])
        #expect(content.buttons.map(\.title) == ["New advert", "Filters"])
        #expect(!content.isBusy)
    }

    @Test func theGroupListsDrillDownToLeafChoicesValuedByTitleWithResetAsDestructive() throws {
        let app = try MarketplaceDriver(flow: InsertionFlow.manual)
        try app.startInsertion()
        let root = try app.panel("groups").content
        #expect(root.items.map(\.kind) == [.drillDown, .choice])
        #expect(root.items.map(\.value) == root.items.map(\.title))
        #expect(root.buttons.map(\.role) == [.destructive])
        try app.chooseGroups("Bicycles", "Off road bikes")
        let leaves = try app.panel("groups").content
        #expect(leaves.items.allSatisfy { $0.kind == .choice })
        #expect(leaves.items.map(\.value) == leaves.items.map(\.title))
    }

    @Test func theTitleStepAsksForATitleAndNextIsThePrimaryAction() throws {
        for flow in [InsertionFlow.manual, InsertionFlow.auto] {
            let app = try MarketplaceDriver(flow: flow)
            try app.startInsertion()
            if flow == InsertionFlow.manual { try app.chooseGroups("Cars") }
            let content = try app.panel("title").content
            #expect(content.fields.map(\.purpose) == [.title])
            #expect(content.buttons.map(\.role) == [.primary])
            #expect(content.buttons.map(\.title) == ["Next"])
        }
    }

    @Test func theRecommendationToastIsBusyAndTheErrorToastOnlyBlocks() throws {
        let app = try MarketplaceDriver(flow: InsertionFlow.auto)
        try app.advertService.failsPublish = { true }
        try app.startInsertion()
        try app.enterTitle("Racing car")
        let loading = try app.panel("toast").content
        #expect(loading.title == "Autoselecting group...")
        #expect(loading.isBusy)
        #expect(loading.blocksInput)
        app.clock.advance(by: .seconds(2))
        let error = try app.panel("toast").content
        #expect(error.title == "Could not publish advert")
        #expect(!error.isBusy)
        #expect(error.blocksInput)
    }

    @Test func theItemDetailIsDisplayOnly() throws {
        let app = try MarketplaceDriver()
        let first = try #require(try app.panel("adverts").content.items.first)
        try app.select(first.title, on: "adverts")
        let content = try app.panel("item").content
        #expect(content.items.isEmpty && content.fields.isEmpty && content.buttons.isEmpty)
        #expect(!content.isBusy)
    }

    @Test func alternatingInsertionDeclaresTheSemanticsOfEachSubflow() throws {
        let app = try MarketplaceDriver(flow: InsertionFlow.alternating)
        try app.startInsertion()
        #expect(try app.panel("groups").content.items.map(\.kind) == [.drillDown, .choice])
        try app.back()
        try app.startInsertion()
        #expect(try app.panel("title").content.fields.map(\.purpose) == [.title])
        #expect(try app.panel("title").content.buttons.map(\.role) == [.primary])
    }

    @Test func theTabletsModalCancelIsACancelButton() throws {
        let app = try MarketplaceDriver(platform: "tablet", flow: InsertionFlow.manual)
        try app.startInsertion()
        let buttons = try app.panel("groups").content.buttons
        #expect(buttons.map(\.title) == ["Cancel", "Reset"])
        #expect(buttons.map(\.role) == [.cancel, .destructive])
    }
}
