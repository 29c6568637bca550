import Foundation
import RemixExperiments
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

/// How experiment files map to the payload, field by field (docs/growthbook.md).
@Suite struct GrowthBookExportTests {
    static func rules(_ export: GrowthBookExport) -> [AttributeValue] {
        export.payload["features"]?["marketplace.insertion"]?["rules"]?.arrayValue ?? []
    }

    static func rule(_ export: GrowthBookExport, _ id: String) -> AttributeValue? {
        rules(export).first { $0["id"]?.stringValue == id }
    }

    @Test func theShippedExperimentsBecomeOneFeatureWithARulePerExperimentInKeyOrder() throws {
        let registry = try Fixtures.registry()
        let set = Fixtures.load([Paths.experiments], registry: registry)
        let export = try GrowthBookExport.make(set, registry: registry, at: Fixtures.december)
        let features = try #require(export.payload["features"]?.objectValue)
        #expect(features.keys.sorted() == ["calculator.entry", "groupbrowser.navigation", "marketplace.insertion"])
        #expect(features["marketplace.insertion"]?["defaultValue"] == ["feature": "AlternatingInsertion", "params": [:]])
        #expect(features["groupbrowser.navigation"]?["defaultValue"] == ["feature": "TreeGroupFinder", "params": [:]])
        #expect(features["calculator.entry"]?["defaultValue"] == ["feature": "TwoFieldEntry", "params": [:]])
        #expect(Self.rules(export).compactMap { $0["id"]?.stringValue } == ["insertion-flow", "tablet-auto-message", "uk-manual-first"])
        #expect(features["groupbrowser.navigation"]?["rules"]?.arrayValue?.compactMap { $0["id"]?.stringValue }
                == ["groupbrowser-navigation"])
        #expect(features["calculator.entry"]?["rules"]?.arrayValue?.compactMap { $0["id"]?.stringValue } == ["calculator-entry"])
        let flow = try #require(Self.rule(export, "insertion-flow"))
        #expect(flow == [
            "id": "insertion-flow", "key": "insertion-flow", "seed": "insertion-flow", "hashAttribute": "id",
            "hashVersion": 2, "coverage": 1, "weights": [0.34, 0.33, 0.33], "namespace": ["insertion", 0, 0.5],
            "name": "Manual vs automatic group choice vs alternation on Marketplace's insertion slot",
            "meta": [["key": "manual"], ["key": "auto"], ["key": "alternating"]],
            "variations": [["feature": "ManualGroupInsertion", "params": [:]], ["feature": "AutoGroupInsertion", "params": [:]],
                           ["feature": "AlternatingInsertion", "params": [:]]],
        ])
        let tablet = try #require(Self.rule(export, "tablet-auto-message"))
        #expect(tablet["condition"] == ["platform": "tablet", "appVersion": ["$vgte": "2.0"]])
        #expect(tablet["weights"] == [0.5, 0.5])
        #expect(tablet["variations"]?.arrayValue?.last == [
            "feature": "AutoGroupInsertion",
            "params": ["loadingMessage": "Finding the best group for your advert...", "errorToastSeconds": 3],
        ])
        #expect(export.payload["savedGroups"] == ["beta-testers": ["user-1", "user-2", "qa-tablet"]])
        #expect(export.notes.map(\.experiment) == ["uk-manual-first"])
        #expect(export.notes.first?.message.contains("runs on a schedule") == true)
    }

    @Test func anExperimentOutsideItsScheduleIsLeftOutAndItsSavedGroupsWithIt() throws {
        let registry = try Fixtures.registry()
        let set = Fixtures.load([Paths.experiments], registry: registry)
        let export = try GrowthBookExport.make(set, registry: registry, at: Fixtures.november)
        #expect(Self.rules(export).compactMap { $0["id"]?.stringValue } == ["insertion-flow", "tablet-auto-message"])
        #expect(export.payload["savedGroups"] == nil)
        #expect(export.notes.first?.description.contains("is left out: its schedule (2026-12-01T00:00:00Z to 2027-01-01T00:00:00Z) "
                                                         + "does not include 2026-11-23T09:00:00Z") == true)
    }

    @Test func statusAndForcingAreMappedAsGrowthBookExpressesThem() throws {
        let registry = try Fixtures.registry()
        let folder = try TrickyExperiments.folder()
        let set = Fixtures.load([folder.location], registry: registry)
        let export = try GrowthBookExport.make(set, registry: registry, at: Fixtures.november)
        #expect(Self.rules(export).compactMap { $0["id"]?.stringValue }
                == ["t1-coverage-v1", "t2-device-hash", "t3-forced", "t4-stopped-forced", "t8-groups"])
        let left = export.notes.filter { $0.message.hasPrefix("is left out") }.map(\.experiment)
        #expect(left == ["t5-draft", "t6-inactive", "t7-stopped", "t9-scheduled"])
        // A stopped experiment that forces a variation still assigns it, as GrowthBook's run() does:
        // a force rule whose filters are its namespace and its bucket ranges.
        #expect(Self.rule(export, "t4-stopped-forced") == [
            "id": "t4-stopped-forced",
            "condition": ["$or": [["platform": "tablet"], ["appVersion": ["$vgt": "2.0.1"]]]],
            "force": ["feature": "AlternatingInsertion", "params": ["flows": "AutoGroupInsertion,ManualGroupInsertion"]],
            "filters": [
                ["seed": "__tricky-ns", "ranges": [[0.1, 0.5]], "hashVersion": 1, "attribute": "id"],
                ["seed": "t4-stopped-forced", "ranges": [[0, 0.25], [0.5, 0.75]], "hashVersion": 1, "attribute": "id"],
            ],
        ])
        let forced = try #require(Self.rule(export, "t3-forced"))
        #expect(forced["filters"]?.arrayValue?.count == 2 && forced["variations"] == nil && forced["key"] == nil)
        let device = try #require(Self.rule(export, "t2-device-hash"))
        #expect(device["hashAttribute"] == "deviceId" && device["seed"] == "device-seed" && device["namespace"] == nil)
        #expect(device["filters"]?.arrayValue?.last == ["seed": "other", "attribute": "deviceId", "ranges": [[0, 0.7]], "hashVersion": 1])
        let v1 = try #require(Self.rule(export, "t1-coverage-v1"))
        #expect(v1["hashVersion"] == 1 && v1["coverage"] == 0.6 && v1["weights"] == [0.2, 0.8])
        #expect(v1["filters"] == [["seed": "tricky", "ranges": [[0, 0.2]]]])
        // Only the groups a condition uses.
        #expect(export.payload["savedGroups"] == ["beta-testers": ["user-1", "user-2", "qa-tablet"], "qa-countries": ["DE", "FR"]])
    }

    @Test func theSameExperimentsGiveTheSameBytes() throws {
        let registry = try Fixtures.registry()
        let folder = try TrickyExperiments.folder()
        let set = Fixtures.load([folder.location], registry: registry)
        let first = try GrowthBookExport.make(set, registry: registry, at: Fixtures.december).json
        let second = try GrowthBookExport.make(Fixtures.load([folder.location], registry: registry), registry: registry,
                                               at: Fixtures.december).json
        #expect(first == second)
        #expect(first.hasSuffix("}\n"))
        let parsed = try PayloadJSON.parse(Data(first.utf8), file: "x")
        let payload = try GrowthBookExport.make(set, registry: registry, at: Fixtures.december).payload
        #expect(parsed == payload)
    }

    @Test func emptyFiltersDropTheNamespaceAsTheEngineDoes() throws {
        let folder = try TemporaryFolder()
        try folder.write("e.yaml", """
            key: e
            app: marketplace
            slot: insertion
            hashVersion: 2
            namespace: [n, 0, 0.5]
            filters: []
            variations:
              - {key: a, feature: ManualGroupInsertion}
              - {key: b, feature: AutoGroupInsertion}
            """)
        let registry = try Fixtures.registry()
        let export = try GrowthBookExport.make(Fixtures.load([folder.location], registry: registry), registry: registry, at: Date())
        let rule = try #require(Self.rule(export, "e"))
        #expect(rule["filters"] == nil && rule["namespace"] == nil)
    }

    @Test func appSelectsTheFeaturesAndAnUnknownAppIsAClearError() throws {
        let registry = try Fixtures.registry()
        let set = Fixtures.load([Paths.experiments], registry: registry)
        let calculator = try GrowthBookExport.make(set, registry: registry, app: "calculator", at: Date())
        #expect(calculator.payload["features"]?.objectValue?.keys.sorted() == ["calculator.entry"])
        #expect(calculator.notes.isEmpty)
        #expect(throws: InteropError.self) { try GrowthBookExport.make(set, registry: registry, app: "marketplac", at: Date()) }
        do {
            _ = try GrowthBookExport.make(set, registry: registry, app: "marketplac", at: Date())
        } catch {
            #expect(error.description.hasPrefix("--app: unknown app 'marketplac'; did you mean 'marketplace'?"))
        }
    }

    @Test func jsonTextEscapesAndNumbersReadBack() throws {
        let value: AttributeValue = ["a\"b\n": ["x\u{1}", 1e-7, 0.1, -3, 1e21, true, .null, 0.8599999999999999, "é😀"],
                                     "e": [:], "f": []]
        let text = PayloadJSON.render(value)
        #expect(try PayloadJSON.parse(Data(text.utf8), file: "x") == value)
        #expect(text.contains("\"a\\\"b\\n\"") && text.contains("\\u0001"))
        #expect(try PayloadJSON.parse(Data(#"["\u00e9\ud83d\ude00", 1E2, -0.5e-1]"#.utf8), file: "x") == ["é😀", 100, -0.05])
        for bad in ["{\"a\": 01}", "[1,]", "{\"a\" 1}", "\"\\x\"", "tru", "[1] 2", "{\"a\": \"\n\"}"] {
            #expect(throws: PayloadJSON.ReadError.self, "\(bad)") { try PayloadJSON.parse(Data(bad.utf8), file: "x") }
        }
        do {
            _ = try PayloadJSON.parse(Data("{\n  \"features\": {,}\n}".utf8), file: "p.json")
        } catch {
            #expect(error.description.hasPrefix("p.json: not valid JSON (line 2, column 16: expected a member name"))
        }
    }
}
