import Foundation
import RemixExperiments
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

/// Payload rules → experiment files, and import → export stability.
@Suite struct GrowthBookImportTests {
    static func options(_ folder: TemporaryFolder, out: String = "experiments", overwrite: Bool = false,
                        skipUnsupported: Bool = false) -> GrowthBookImport.Options {
        .init(payloadFile: "payload.json", app: "marketplace", slot: "insertion",
              outputFolder: folder.path(out), overwrite: overwrite, skipUnsupported: skipUnsupported)
    }

    /// Imports `payload` into `folder/experiments`, writes it, and requires the folder to validate.
    @discardableResult
    static func importAndValidate(_ payload: AttributeValue, into folder: TemporaryFolder, registry: FeatureRegistry,
                                  sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> GrowthBookImport {
        let plan = try GrowthBookImport.plan(payload, options: options(folder), registry: registry)
        try plan.write()
        let validation = ExperimentValidation.run(paths: [folder.path("experiments")], registry: registry)
        #expect(validation.errorCount == 0, "\(validation.diagnostics)", sourceLocation: sourceLocation)
        return plan
    }

    /// Expects the import to fail with a problem containing each of `fragments`.
    static func expectFailure(_ payload: AttributeValue, _ fragments: String..., overwrite: Bool = false,
                              in folder: TemporaryFolder? = nil,
                              sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let folder = try folder ?? TemporaryFolder()
        do {
            let plan = try GrowthBookImport.plan(payload, options: options(folder, overwrite: overwrite),
                                                 registry: try Fixtures.registry())
            Issue.record("imported \(plan.experiments.map(\.key)) instead of failing", sourceLocation: sourceLocation)
        } catch {
            for fragment in fragments {
                #expect(String(describing: error).contains(fragment), "\(error)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test(arguments: [("shipped", false), ("plugins", true), ("tricky", false)])
    func importThenExportGivesTheSamePayload(folderName: String, plugin: Bool) throws {
        let registry = try Fixtures.registry(withPlugin: plugin)
        let tricky = try TrickyExperiments.folder(excluding: TrickyExperiments.forced)
        let source = ["shipped": Paths.experiments, "plugins": Paths.pluginExperiments][folderName] ?? tricky.location
        let set = Fixtures.load([source], registry: registry)
        for date in [Fixtures.november, Fixtures.december] {
            // The import takes one app's slot (Marketplace's insertion), so the round trip is that app's.
            let exported = try GrowthBookExport.make(set, registry: registry, app: "marketplace", at: date)
            let folder = try TemporaryFolder()
            let plan = try Self.importAndValidate(exported.payload, into: folder, registry: registry)
            #expect(plan.notes.allSatisfy { $0.contains("warning: hashVersion 1 is kept for old experiments") }, "\(plan.notes)")
            let again = try GrowthBookExport.make(Fixtures.load([folder.path("experiments")], registry: registry),
                                                  registry: registry, app: "marketplace", at: date)
            #expect(again.json == exported.json)
        }
    }

    /// A payload as GrowthBook's back end writes it: rule ids, phases, string values naming the
    /// feature, variation names, sticky bucketing fields, no seed, saved groups in the typed form.
    static let growthBookShaped: AttributeValue = [
        "status": 200,
        "features": [
            "marketplace.insertion": [
                "defaultValue": "AlternatingInsertion",
                "rules": [
                    [
                        "id": "fr_40gs8", "key": "gb-flow", "name": "GrowthBook flow test", "phase": "0",
                        "condition": ["country": ["$in": ["GB", "IE"]], "id": ["$notInGroup": "grp_staff"]],
                        "coverage": 0.9, "hashAttribute": "id", "hashVersion": 2, "bucketVersion": 1,
                        "namespace": ["ns_insertion", 0, 0.5],
                        "variations": ["ManualGroupInsertion", ["feature": "AutoGroupInsertion", "params": ["errorToastSeconds": 4]]],
                        "weights": [0.4, 0.6],
                        "meta": [["key": "0", "name": "Control"], ["key": "1", "name": "Auto"]],
                    ],
                    [
                        "id": "fr_40gs9", "key": "gb-v1", "seed": "7f3c", "phase": "1",
                        "namespace": ["ns_insertion", 0.5, 1],
                        "variations": ["ManualGroupInsertion", "AutoGroupInsertion", "AlternatingInsertion"],
                    ],
                ],
            ],
        ],
        "savedGroups": ["grp_staff": ["type": "list", "attributeKey": "id", "values": ["staff-1", "staff-2"]]],
    ]

    @Test func aGrowthBookShapedPayloadImportsAndReExportsTheSameRules() throws {
        let registry = try Fixtures.registry()
        let folder = try TemporaryFolder()
        let plan = try Self.importAndValidate(Self.growthBookShaped, into: folder, registry: registry)
        #expect(plan.experiments.map(\.key) == ["gb-flow", "gb-v1"])
        #expect(!plan.notes.contains { $0.contains("bucketVersion") })
        #expect(plan.notes.contains { $0.contains("drops variation 0's name") })
        let flow = try String(contentsOfFile: folder.path("experiments/gb-flow.yaml"), encoding: .utf8)
        #expect(flow.contains("\nbucketVersion: 1\n"))
        #expect(flow.contains("\n  - {key: \"1\", feature: AutoGroupInsertion, params: {errorToastSeconds: 4.0}}\n"))
        let v1 = try String(contentsOfFile: folder.path("experiments/gb-v1.yaml"), encoding: .utf8)
        #expect(v1.contains("\nhashVersion: 1\n") && v1.contains("\nseed: 7f3c\n") == false && v1.contains("\nseed: \"7f3c\"\n"))
        let groups = try String(contentsOfFile: folder.path("experiments/saved-groups.yaml"), encoding: .utf8)
        #expect(groups.hasSuffix("grp_staff: [staff-1, staff-2]\n"))

        let exported = try GrowthBookExport.make(Fixtures.load([folder.path("experiments")], registry: registry),
                                                 registry: registry, at: Date())
        let rules = try #require(exported.payload["features"]?["marketplace.insertion"]?["rules"]?.arrayValue)
        let given = try #require(Self.growthBookShaped["features"]?["marketplace.insertion"]?["rules"]?.arrayValue)
        // Every field an SDK evaluates is the same, with GrowthBook's defaults written out.
        for field in ["key", "condition", "coverage", "namespace", "filters", "weights", "name"] {
            #expect(rules[0][field] == given[0][field], "\(field)")
        }
        #expect(rules[1]["hashVersion"] == 1 && rules[1]["seed"] == "7f3c" && rules[1]["namespace"] == given[1]["namespace"])
        #expect(rules[1]["weights"] == .array(GrowthBookHash.equalWeights(3).map { .number($0) }))
        #expect(rules[0]["variations"] == [["feature": "ManualGroupInsertion", "params": [:]],
                                           ["feature": "AutoGroupInsertion", "params": ["errorToastSeconds": 4]]])
        #expect(exported.payload["savedGroups"] == ["grp_staff": ["staff-1", "staff-2"]])
        // …and from then on the round trip is exact.
        #expect(try Self.reimported(exported.payload, registry: registry).json == exported.json)
    }

    /// `payload` imported into a new folder and exported again: a round trip's second half.
    static func reimported(_ payload: AttributeValue, registry: FeatureRegistry,
                           sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> GrowthBookExport {
        let folder = try TemporaryFolder()
        try importAndValidate(payload, into: folder, registry: registry, sourceLocation: sourceLocation)
        return try GrowthBookExport.make(Fixtures.load([folder.path("experiments")], registry: registry), registry: registry,
                                         at: Date())
    }

    /// Characters YAML reads as line breaks inside a quoted string (NEL, U+2028, U+2029) or refuses
    /// raw (DEL, C1 controls, U+FEFF, U+FFFF), and controls, come back from the written file as they
    /// were, so export → import → export stays byte-exact.
    @Test func stringsYAMLWouldReadOtherwiseComeBackAsTheyWere() throws {
        let odd = "a\u{2028}b\u{2029}c\u{85}d \u{2028} e\u{7F}\u{9F}\u{FEFF}\u{FFFF}\u{0}z\t!\u{1F600}"
        let registry = try Fixtures.registry()
        let payload = Self.payload(rule: Self.rule(extra: ["name": .string(odd), "seed": .string("s" + odd),
                                                           "condition": ["country": .string(odd)]]))
        // Export reads the written files, so the strings it writes are those the files hold.
        let exported = try Self.reimported(payload, registry: registry)
        let rules = try #require(exported.payload["features"]?["marketplace.insertion"]?["rules"]?.arrayValue)
        #expect(rules.first?["name"] == .string(odd) && rules.first?["seed"] == .string("s" + odd))
        #expect(rules.first?["condition"] == ["country": .string(odd)])
        #expect(try Self.reimported(exported.payload, registry: registry).json == exported.json)
    }

    /// JSON's `\ud800` alone is no character: kept as U+FFFD it would hash unlike GrowthBook's
    /// JavaScript SDK, so the payload is refused at its place; a whole pair is one character.
    @Test func aLoneSurrogateIsRefusedWhereItIs() throws {
        let cases = [(#"{"seed": "\ud800"}"#, "line 1, column 11: \\ud800 is half of a UTF-16 surrogate pair without its other half"),
                     (#"{"a": 1,"# + "\n" + #" "seed": "x\udc00y"}"#, "line 2, column 12: \\udc00 is half"),
                     (#"{"seed": "\ud800\u0041"}"#, "line 1, column 11: \\ud800 is half")]
        for (json, message) in cases {
            #expect(throws: PayloadJSON.ReadError.self) { try PayloadJSON.parse(Data(json.utf8), file: "p.json") }
            do {
                _ = try PayloadJSON.parse(Data(json.utf8), file: "p.json")
            } catch {
                #expect(error.description.hasPrefix("p.json: " + message), "\(error)")
                #expect(error.description.hasSuffix("remove it, or write the whole pair") && !error.description.contains("not valid JSON"))
            }
        }
        #expect(try PayloadJSON.parse(Data(#"{"seed": "\ud83d\ude00"}"#.utf8), file: "p.json") == ["seed": "\u{1F600}"])
    }

    static func payload(rule: AttributeValue, feature: String = "marketplace.insertion") -> AttributeValue {
        ["features": [feature: ["defaultValue": "AlternatingInsertion", "rules": [rule]]]]
    }

    static func rule(_ variations: AttributeValue = ["ManualGroupInsertion", "AutoGroupInsertion"],
                     extra: [String: AttributeValue] = [:]) -> AttributeValue {
        var fields: [String: AttributeValue] = ["key": "r", "hashVersion": 2, "variations": variations]
        fields.merge(extra) { _, new in new }
        return .object(fields)
    }

    @Test func aValueThatNamesNoFeatureSuggestsTheNearest() throws {
        try Self.expectFailure(Self.payload(rule: Self.rule(["ManualGroupInsertion", ["feature": "AutoGroupInsrtion"]])),
                               "payload.json: feature 'marketplace.insertion' rule 1 ('r') variation 1 ('1'): unknown feature "
                               + "'AutoGroupInsrtion'; a plugin may provide it: load one with --plugins PATH or REMIX_PLUGIN_PATH=PATH "
                               + "(`remix features` lists what is loaded); did you mean 'AutoGroupInsertion'? (known "
                               + "marketplace/insertion features: AlternatingInsertion, AutoGroupInsertion, ManualGroupInsertion); "
                               + "or fix the value in GrowthBook",
                               "nothing was written")
        try Self.expectFailure(Self.payload(rule: Self.rule(["control", "treatment"])), "unknown feature 'control'",
                               "unknown feature 'treatment'")
        try Self.expectFailure(Self.payload(rule: Self.rule(["ManualGroupInsertion", "GroupSelection"])),
                               "feature 'GroupSelection' (role none) cannot fill slot 'insertion'")
        try Self.expectFailure(Self.payload(rule: Self.rule(["ManualGroupInsertion", true])), "its value true names no feature")
    }

    @Test func parametersAreCheckedAgainstTheFeature() throws {
        try Self.expectFailure(Self.payload(rule: Self.rule(["ManualGroupInsertion", ["feature": "AutoGroupInsertion",
                                                                                        "params": ["loadingMesage": "x"]]])),
                               "AutoGroupInsertion has no parameter 'loadingMesage'; did you mean 'loadingMessage'?")
        try Self.expectFailure(Self.payload(rule: Self.rule(["ManualGroupInsertion", ["feature": "AutoGroupInsertion",
                                                                                        "params": ["errorToastSeconds": "2"]]])),
                               "parameter 'errorToastSeconds' of AutoGroupInsertion must be a double, not \"2\"")
    }

    @Test func malformedPayloadsAreClearErrors() throws {
        for (data, fragment) in [("", "the file is empty"), ("{\"features\": ", "not valid JSON"), ("[1]", "[1]")] {
            do {
                _ = try PayloadJSON.parse(Data(data.utf8), file: "p.json")
                if data == "[1]" {
                    try Self.expectFailure([1], "is [1], not a GrowthBook SDK payload")
                } else {
                    Issue.record("parsed \(data)")
                }
            } catch {
                #expect("\(error)".hasPrefix("p.json: ") && "\(error)".contains(fragment), "\(error)")
            }
        }
        try Self.expectFailure(["status": 200], "has no 'features' object, so it is not a GrowthBook SDK payload")
        try Self.expectFailure(["encryptedFeatures": "abc"], "holds encrypted features")
        try Self.expectFailure(["features": ["other": [:], "another": [:]]],
                               "has no feature 'marketplace.insertion'; known features: another, other; choose one with --feature")
        try Self.expectFailure(["features": ["marketplace.insertion": ["rules": 3]]], "has rules that are not a list: 3")
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["weights": [0.5], "coverage": "all", "hashVersion": 3,
                                                                   "namespace": ["n", 0], "condition": "x"])),
                               "has 1 weights for 2 variations", "has a 'coverage' that is not a number: \"all\"",
                               "hashVersion 3", "namespace that is not [id, start, end]", "condition that is not an object")
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["key": "../escape"])), "cannot name an experiment file")
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["key": "saved-groups"])), "cannot name an experiment file")
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["meta": [["key": "a", "passthrough": true], ["key": "a"]]])),
                               "passthrough", "two variations keyed 'a'")
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["parentConditions": [["id": "f", "condition": [:]]]])),
                               "prerequisites")
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["ranges": [[0, 0.1], [0.5, 0.6]]])), "explicit 'ranges'")
    }

    @Test func contextualBanditsFailUnlessSkipped() throws {
        let payload: AttributeValue = ["features": ["marketplace.insertion": ["rules": [
            ["id": "cb_1", "contextualBanditRef": "cb", "variations": ["ManualGroupInsertion", "AutoGroupInsertion"]],
            Self.rule(),
        ]]]]
        try Self.expectFailure(payload, "rule 1 is a contextual bandit", "leave it out with --skip-unsupported")
        let folder = try TemporaryFolder()
        let plan = try GrowthBookImport.plan(payload, options: Self.options(folder, skipUnsupported: true),
                                             registry: try Fixtures.registry())
        #expect(plan.experiments.map(\.key) == ["r"] && plan.rules.isEmpty)
        #expect(plan.notes.contains { $0.hasPrefix("feature 'marketplace.insertion' rule 1 is left out: it is a contextual bandit") })
    }

    @Test func existingFilesAreKeptUnlessOverwriteIsGiven() throws {
        let folder = try TemporaryFolder()
        let registry = try Fixtures.registry()
        try Self.importAndValidate(Self.payload(rule: Self.rule()), into: folder, registry: registry)
        try Self.expectFailure(Self.payload(rule: Self.rule()), "r.yaml already exists; pass --overwrite to replace it", in: folder)
        let plan = try GrowthBookImport.plan(Self.payload(rule: Self.rule(extra: ["coverage": 0.5])),
                                             options: Self.options(folder, overwrite: true), registry: registry)
        #expect(plan.files.map(\.replaces) == [true])
        // A key defined in another file is never replaced.
        try folder.write("experiments/other-name.yaml", Fixture.text(key: "q"))
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["key": "q"])), "experiment 'q' is already defined in",
                               overwrite: true, in: folder)
    }

    @Test func rulesOverlappingAFoldersExperimentAndDisagreeingSavedGroupsAreRefused() throws {
        // The folder's own experiment is not in the payload's order, so it must exclude the imported ones.
        let existing = try TemporaryFolder()
        try existing.write("experiments/mine.yaml", Fixture.text(key: "mine").replacingOccurrences(of: "status: draft", with: "status: running"))
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["key": "a"])), "would not validate", "experiments 'a'",
                               "first rule that includes a session win", "list the folder's experiments in the slot's rules file",
                               "nothing was written", in: existing)
        let folder = try TemporaryFolder()
        try folder.write("experiments/saved-groups.yaml", "# staff\ngrp_staff: [someone-else]\n")
        try Self.expectFailure(Self.growthBookShaped, "the saved group 'grp_staff'", "holds other values", in: folder)
        try Self.expectFailure(Self.payload(rule: Self.rule(extra: ["condition": ["id": ["$inGroup": "missing"]]])),
                               "uses the saved group 'missing', which the payload's savedGroups do not hold")
    }

    @Test func newSavedGroupsAreAppendedKeepingTheFile() throws {
        let folder = try TemporaryFolder()
        try folder.write("experiments/saved-groups.yaml", "# ours\nbeta: [u1]")
        let plan = try Self.importAndValidate(Self.growthBookShaped, into: folder, registry: try Fixtures.registry())
        let groups = try #require(plan.files.last)
        #expect(groups.replaces && groups.text.hasPrefix("# ours\nbeta: [u1]\n# Imported from payload.json"))
    }
}

enum Fixture {
    /// A minimal valid experiment file with `key`.
    static func text(key: String) -> String {
        """
        key: \(key)
        app: marketplace
        slot: insertion
        hashVersion: 2
        status: draft
        variations:
          - {key: a, feature: ManualGroupInsertion}
          - {key: b, feature: AutoGroupInsertion}

        """
    }
}
