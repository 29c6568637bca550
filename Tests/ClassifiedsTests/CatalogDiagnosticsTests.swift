import Classifieds
import RemixYAML
import Testing

/// Broken catalogs are reported as `file:line:column: error: message` at the offending place.
@Suite struct CatalogDiagnosticsTests {
    private func diagnostic(_ yaml: String) -> Diagnostic? {
        #expect(throws: Diagnostic.self) { try Catalog.parse(yaml, file: "catalog.yaml") }
    }

    @Test func malformedYAMLPointsAtTheBadCharacter() throws {
        let error = try #require(diagnostic("""
            groups:
              - id: "1"
                title: @Bicycles
            """))
        #expect(error.location == SourceLocation(file: "catalog.yaml", line: 3, column: 12))
        #expect(error.severity == .error)
        #expect(error.description.hasPrefix("catalog.yaml:3:12: error: malformed YAML: "))
    }

    @Test func missingTitleIsReportedAtTheGroup() {
        let error = diagnostic("""
            groups:
              - id: "1"
                title: Bicycles
              - id: "2"
                parent: "1"
            """)
        #expect(error?.description == "catalog.yaml:4:5: error: a group needs 'title'")
    }

    @Test func aListWhereTextIsExpectedIsReportedAtTheValue() {
        let error = diagnostic("""
            groups:
              - id: "1"
                title: [Bicycles, Bikes]
            """)
        #expect(error?.description == "catalog.yaml:3:12: error: title must be text, not a list")
    }

    @Test func aMappingWhereTextIsExpectedIsReportedAtTheValue() {
        let error = diagnostic("""
            groups:
              - id: "1"
                title: Bicycles
                description:
                  text: Two wheels
            """)
        #expect(error?.description == "catalog.yaml:5:7: error: description must be text, not a mapping")
    }

    @Test func unknownKeySuggestsTheNearestKnownOne() {
        let error = diagnostic("""
            groups:
              - id: "1"
                titel: Bicycles
            """)
        #expect(error?.description == "catalog.yaml:3:5: error: unknown key 'titel' in a group; did you mean 'title'?")
    }

    @Test func unknownKeyFarFromEveryKnownOneListsThem() {
        let error = diagnostic("""
            groups:
              - {id: "1", title: Bicycles, colour: red}
            """)
        #expect(error?.description == "catalog.yaml:2:32: error: unknown key 'colour' in a group; "
            + "known keys: id, parent, children, title, description")
    }

    @Test func unknownTopLevelKeySuggestsTheNearest() {
        let error = diagnostic("""
            groups: []
            advert: []
            """)
        #expect(error?.description == "catalog.yaml:2:1: error: unknown key 'advert' in the catalog; did you mean 'adverts'?")
    }

    @Test func missingGroupsIsReportedAtTheDocument() {
        #expect(diagnostic("adverts: []\n")?.description == "catalog.yaml:1:1: error: the catalog needs 'groups'")
        #expect(diagnostic("")?.description == "catalog.yaml:1:1: error: the catalog needs 'groups'")
    }

    @Test func aListAsTheWholeCatalogIsRejected() {
        #expect(diagnostic("- a\n- b\n")?.description
            == "catalog.yaml:1:1: error: the catalog must be a mapping, not a list")
    }

    @Test func duplicateGroupIDIsReportedAtTheSecondGroup() {
        let error = diagnostic("""
            groups:
              - {id: "1", title: Bicycles}
              - {id: "2", title: Cars}
              - {id: "1", title: Boats}
            """)
        #expect(error?.description == "catalog.yaml:4:5: error: group id '1' is used twice (first at line 2)")
    }

    @Test func unknownParentIsReportedAtTheGroup() {
        let error = diagnostic("""
            groups:
              - {id: "1", title: Bicycles}
              - {id: "2", parent: "9", title: Racers}
            """)
        #expect(error?.description == "catalog.yaml:3:5: error: group '2' has unknown parent '9'")
    }

    @Test func unknownChildIsReportedAtTheGroup() {
        let error = diagnostic("""
            groups:
              - {id: "1", title: Bicycles, children: ["2", "7"]}
              - {id: "2", parent: "1", title: Racers}
            """)
        #expect(error?.description == "catalog.yaml:2:5: error: group '1' lists unknown child '7'")
    }

    @Test func advertInAnUnknownGroupIsReportedAtTheAdvert() {
        let error = diagnostic("""
            groups:
              - {id: "1", title: Bicycles}
            adverts:
              - id: "a"
                title: Bike
                group: "2"
            """)
        #expect(error?.description == "catalog.yaml:4:5: error: advert 'a' is in unknown group '2'")
    }

    @Test func duplicateAdvertIDIsReportedAtTheSecondAdvert() {
        let error = diagnostic("""
            groups: [{id: "1", title: Bicycles}]
            adverts:
              - {id: "a", title: Bike, group: "1"}
              - {id: "a", title: Trike, group: "1"}
            """)
        #expect(error?.description == "catalog.yaml:4:5: error: advert id 'a' is used twice")
    }

    @Test func advertWithoutGroupIsReportedAtTheAdvert() {
        let error = diagnostic("""
            groups: [{id: "1", title: Bicycles}]
            adverts:
              - {id: "a", title: Bike}
            """)
        #expect(error?.description == "catalog.yaml:3:5: error: an advert needs 'group'")
    }

    @Test func keywordRuleWithoutGroupIsReportedAtTheRule() {
        let error = diagnostic("""
            groups: [{id: "1", title: Bicycles}]
            recommendations:
              keywords:
                - {keyword: bike}
              default: "1"
            """)
        #expect(error?.description == "catalog.yaml:4:7: error: a keyword rule needs 'group'")
    }

    @Test func duplicateMappingKeyIsAnErrorNamingTheKey() throws {
        let error = try #require(diagnostic("""
            groups:
              - id: "1"
                title: Bicycles
                title: Bikes
            """))
        #expect(error.severity == .error)
        #expect(error.location.file == "catalog.yaml")
        #expect(error.message.contains("title"))
    }

    /// YAMLValue.mapping reports a repeated key at the repeat, naming the first's line, but Yams'
    /// composer rejects duplicates first and its error is positioned at the *first* occurrence.
    @Test
    func duplicateMappingKeyIsReportedAtTheRepeatedKey() {
        let error = diagnostic("""
            groups:
              - id: "1"
                title: Bicycles
                title: Bikes
            """)
        #expect(error?.description == "catalog.yaml:4:5: error: duplicate key 'title' (first at line 3)")
    }
}
