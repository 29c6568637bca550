import Foundation
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixKit
import RemixYAML
import Testing

/// Checking experiments against the registered features and against each other.
@Suite struct ExperimentValidationTests {
    /// Validates one file `name` holding `text` in a fresh folder.
    static func validate(_ text: String, name: String = "k.yaml") throws -> (ExperimentFolder, ExperimentValidation) {
        let folder = try ExperimentFolder()
        try folder.write(name, text)
        return (folder, try folder.validate())
    }

    @Test func shippedExperimentsValidateCleanly() throws {
        let report = ExperimentValidation.run(paths: [Fixture.shippedExperiments], registry: try BuiltInModules.registry())
        #expect(report.diagnostics.map(\.description) == [])
        #expect(report.errorCount == 0 && report.warningCount == 0)
        #expect(report.experiments.definitions.map(\.key) == ["calculator-entry", "groupbrowser-navigation", "insertion-flow", "tablet-auto-message", "uk-manual-first"])
        #expect(report.experiments.savedGroups["beta-testers"] == ["user-1", "user-2", "qa-tablet"])
        #expect(report.summary == "5 experiments, 0 errors, 0 warnings")
    }

    @Test func unknownAppSlotAndFeatureSuggestTheNearestName() throws {
        let (f1, app) = try Self.validate(Fixture.experiment("k", app: "marketplce"))
        expectDiagnostic(app.diagnostics, at: "k.yaml:2:6", "unknown app 'marketplce'; did you mean 'marketplace'?", in: f1)
        #expect(app.errorCount == 1)
        let (f2, slot) = try Self.validate(Fixture.experiment("k", slot: "insertoin"))
        expectDiagnostic(slot.diagnostics, at: "k.yaml:3:7", "app 'marketplace' has no slot 'insertoin'; did you mean 'insertion'?",
                         in: f2)
        #expect(slot.errorCount == 1)
        let (f3, feature) = try Self.validate(Fixture.experiment("k", variations: [
            "{key: manual, feature: ManualGroupInsertion}", "{key: auto, feature: AutoGroupInsertio}",
        ]))
        expectDiagnostic(feature.diagnostics, at: "k.yaml:7:26",
                         "unknown feature 'AutoGroupInsertio'; a plugin may provide it: load one with --plugins PATH or "
                            + "REMIX_PLUGIN_PATH=PATH (`remix features` lists what is loaded); did you mean 'AutoGroupInsertion'? "
                            + "(known marketplace/insertion features: AlternatingInsertion, AutoGroupInsertion, ManualGroupInsertion)",
                         in: f3)
        #expect(feature.errorCount == 1)
    }

    @Test func featureOfTheWrongRoleCannotFillTheSlot() throws {
        let (folder, report) = try Self.validate(Fixture.experiment("k", variations: [
            "{key: manual, feature: ManualGroupInsertion}", "{key: sum, feature: Calculator}",
        ]))
        #expect(folder.rendered(report.diagnostics) == [
            "k.yaml:7:25: error: feature 'Calculator' (role none) cannot fill slot 'insertion', which takes 'insertion' features",
        ])
    }

    @Test func parametersAreCheckedByNameAndType() throws {
        let (folder, report) = try Self.validate(Fixture.experiment("k", variations: [
            "{key: manual, feature: ManualGroupInsertion}",
            "key: auto\n    feature: AutoGroupInsertion\n    params:\n      loadingMesage: Wait\n"
                + "      errorToastSeconds: \"3\"\n      loadingMessage: 7",
        ]))
        #expect(folder.rendered(report.diagnostics) == [
            "k.yaml:10:7: error: feature 'AutoGroupInsertion' has no parameter 'loadingMesage'; did you mean 'loadingMessage'? "
                + "(known parameters: errorToastSeconds, loadingMessage)",
            "k.yaml:11:7: error: parameter 'errorToastSeconds' of feature 'AutoGroupInsertion' takes a double, not a string",
            "k.yaml:12:7: error: parameter 'loadingMessage' of feature 'AutoGroupInsertion' takes a string, not an int",
        ])
        // An int is accepted for a double parameter.
        let (_, fine) = try Self.validate(Fixture.experiment("k", variations: [
            "{key: a, feature: ManualGroupInsertion}", "{key: b, feature: AutoGroupInsertion, params: {errorToastSeconds: 3}}",
        ]))
        #expect(fine.diagnostics.isEmpty)
    }

    @Test(arguments: [
        ("weights: [1]", "8:10", Severity.error, "1 weights for 2 variations; give one weight per variation"),
        ("weights: [0.5, 0.6]", "8:10", .error, "the weights add up to 1.1, not 1"),
        ("weights: [0.3, 0.3]", "8:10", .error, "the weights add up to 0.6, not 1"),
        ("weights: [-0.5, 1.5]", "8:10", .error, "each weight must be between 0 and 1"),
        // GrowthBook's weights are shares of 1, so none can overflow a sum (a population's can).
        ("weights: [1e308, 1e308]", "8:10", .error, "each weight must be between 0 and 1"),
        ("coverage: 1.5", "8:11", .error, "coverage must be between 0 and 1, not 1.5"),
        ("coverage: -0.1", "8:11", .error, "coverage must be between 0 and 1, not -0.1"),
        ("namespace: [ns, 0.5, 0.5]", "8:12", .error, "a namespace range needs 0 ≤ start < end ≤ 1"),
        ("namespace: [ns, 0, 1.2]", "8:12", .error, "a namespace range needs 0 ≤ start < end ≤ 1"),
        ("force: 2", "8:8", .error, "force must be a variation index from 0 to 1"),
        ("force: -1", "8:8", .error, "force must be a variation index from 0 to 1"),
        ("condition: {url: {$regx: '^/x'}}", "8:19", .error, "unknown condition operator '$regx'; did you mean '$regex'?"),
        ("condition: {$or: [{a: 1}, {b: {$gtt: 2}}]}", "8:32", .error, "unknown condition operator '$gtt'"),
        ("condition: {id: {$type: strng}}", "8:25", .error, "$type must be one of string, number, boolean"),
        ("condition: {country: {$in: GB}}", "8:28", .error, "$in takes a list"),
        ("condition: {id: {$inGroup: beta-tester}}", "8:28", .error,
         "unknown saved group 'beta-tester'; did you mean 'beta-testers'?"),
        ("condition: {id: {$inGroup: [x]}}", "8:28", .error, "$inGroup takes the name of a saved group"),
        ("condition: {id: {$regex: \"(a+\"}}", "8:26", .error,
         "invalid regular expression '(a+' in $regex: a '(' is never closed; GrowthBook treats it as never true"),
        ("condition: {$or: [{id: {$not: {$regexi: \"[a-\"}}}]}", "8:41", .error,
         "invalid regular expression '[a-' in $regexi: a '[' is never closed"),
        ("condition: {id: {$elemMatch: {$regex: \"a)\"}}}", "8:39", .error, "a ')' has no matching '('"),
        ("condition: {id: {$regex: \"*a\"}}", "8:26", .error, "'*' has nothing before it to repeat"),
        ("condition: {id: {$regex: 12}}", "8:26", .error, "$regex takes a pattern as text"),
        // A filter that lets nobody in: a range that is not a number, empty or inverted; no range; an unknown hash.
        ("filters: [{seed: s, ranges: [[.nan, 0.5]]}]", "8:30", .error, "a range needs 0 ≤ start < end ≤ 1, not [nan, 0.5]"),
        ("filters: [{seed: s, ranges: [[0, .inf]]}]", "8:30", .error, "a range needs 0 ≤ start < end ≤ 1, not [0, inf]"),
        ("filters: [{seed: s, ranges: [[0.9, 0.1]]}]", "8:30", .error, "a range needs 0 ≤ start < end ≤ 1, not [0.9, 0.1]"),
        ("filters: [{seed: s, ranges: [[0.5, 0.5]]}]", "8:30", .error, "a range needs 0 ≤ start < end ≤ 1, not [0.5, 0.5]"),
        ("filters: [{seed: s, ranges: []}]", "8:29", .error, "a filter needs at least one range"),
        ("filters: [{seed: s, ranges: [[0, 0.5]], hashVersion: 9}]", "8:54", .error, "hashVersion must be 1 or 2, not 9"),
    ])
    func bucketingAndConditionProblems(line: String, position: String, severity: Severity, message: String) throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", line))
        try folder.write(ExperimentSet.savedGroupsFile, "beta-testers: [u1]\n")
        let report = try folder.validate()
        expectDiagnostic(report.diagnostics, at: "k.yaml:\(position)", severity, message, in: folder)
        #expect(report.diagnostics.count == 1, "\(folder.rendered(report.diagnostics))")
    }

    @Test func conditionsThatAreFineRaiseNothing() throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", """
            condition: {id: {$inGroup: testers}, v: {$vgte: "2.0", $type: string}, c: {$nin: [a]}, $not: {x: 1}}
            """))
        try folder.write(ExperimentSet.savedGroupsFile, "testers: [u1]\n")
        #expect(try folder.validate().diagnostics.isEmpty)
    }

    @Test func hashVersionThreeIsAnErrorOneOrMissingAWarning() throws {
        let (f3, three) = try Self.validate(Fixture.experiment("k").replacingOccurrences(of: "hashVersion: 2", with: "hashVersion: 3"))
        #expect(f3.rendered(three.diagnostics) == ["k.yaml:4:14: error: hashVersion must be 1 or 2, not 3"])
        let (f1, one) = try Self.validate(Fixture.experiment("k").replacingOccurrences(of: "hashVersion: 2", with: "hashVersion: 1"))
        #expect(f1.rendered(one.diagnostics) == [
            "k.yaml:4:14: warning: hashVersion 1 is kept for old experiments; write 2 in new files",
        ])
        let (f0, missing) = try Self.validate(Fixture.experiment("k").replacingOccurrences(of: "hashVersion: 2\n", with: ""))
        #expect(f0.rendered(missing.diagnostics) == [
            "k.yaml:1:6: warning: no hashVersion: GrowthBook's default is 1; write 'hashVersion: 2' in new files",
        ])
        #expect(missing.errorCount == 0 && missing.warningCount == 1)
    }

    @Test func duplicateKeysAcrossFilesAndFileNamesThatAreNotTheKey() throws {
        let folder = try ExperimentFolder()
        try folder.write("same.yaml", Fixture.experiment("same"))
        try folder.write("same-again.yml", Fixture.experiment("same", "status: draft"))
        try folder.write("ok.yml", Fixture.experiment("ok", "status: draft"))
        let report = try folder.validate()
        // Files are read in name order, so same-again.yml is the first with the key.
        #expect(folder.rendered(report.diagnostics) == [
            "same-again.yml:1:6: warning: the file name should be the key: rename the file to same.yaml",
            "same.yaml:1:6: error: experiment key 'same' is also used by same-again.yml",
        ])
        #expect(report.errorCount == 1 && report.warningCount == 1)
    }

    @Test func diagnosticsAreSortedByPositionAndSummarised() throws {
        let folder = try ExperimentFolder()
        try folder.write("b.yaml", Fixture.experiment("b", "coverage: 2\nforce: 9\nwieghts: [1]"))
        try folder.write("a.yaml", Fixture.experiment("wrong-name", "status: draft"))
        let report = try folder.validate()
        let sorted: [Diagnostic] = report.diagnostics.sorted { (a: Diagnostic, b: Diagnostic) -> Bool in a.location < b.location }
        #expect(report.diagnostics == sorted)
        let positions: [String] = folder.rendered(report.diagnostics).map { (line: String) -> String in
            String(line.prefix(while: { (c: Character) -> Bool in c != " " }))
        }
        #expect(positions == ["a.yaml:1:6:", "b.yaml:8:11:", "b.yaml:9:8:", "b.yaml:10:1:"])
        #expect(report.summary == "2 experiments, 3 errors, 1 warning")
        let (_, single) = try Self.validate(Fixture.experiment("k", "coverage: 3"), name: "other.yaml")
        #expect(single.summary == "1 experiment, 1 error, 1 warning")
    }

    // MARK: Overlapping experiments on one slot

    /// Validates experiments `a` and `b` (files a.yaml and b.yaml) on marketplace/insertion and
    /// returns the overlap errors.
    static func overlaps(_ a: String, _ b: String) throws -> [String] {
        let folder = try ExperimentFolder()
        try folder.write("a.yaml", Fixture.experiment("a", a))
        try folder.write("b.yaml", Fixture.experiment("b", b))
        let report = try folder.validate()
        #expect(report.warningCount == 0)
        return folder.rendered(report.diagnostics.filter { $0.severity == .error })
    }

    @Test func twoRunningExperimentsOnOneSlotWithoutANamespaceOverlap() throws {
        let errors = try Self.overlaps("", "")
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("b.yaml:3:7: error: experiments 'a' (") == true)
        #expect(errors.first?.contains("and 'b' both fill marketplace/insertion and can assign the same session") == true)
    }

    @Test func theErrorGoesToTheLaterExperimentByKeyNotByFile() throws {
        let folder = try ExperimentFolder()
        try folder.write("a.yaml", Fixture.experiment("zz", "status: running"))
        try folder.write("z.yaml", Fixture.experiment("aa"))
        let errors = folder.rendered(try folder.validate().diagnostics.filter { $0.severity == .error })
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("a.yaml:3:7: error: experiments 'aa' (z.yaml) and 'zz'") == true)
    }

    @Test(arguments: [
        ("namespace: [ns, 0, 0.6]", "namespace: [ns, 0.5, 1]", 1),  // same namespace, ranges overlap
        ("namespace: [ns, 0, 0.5]", "namespace: [other, 0.5, 1]", 1),  // different namespaces hash apart
        ("namespace: [ns, 0, 0.5]", "", 1),
        ("namespace: [ns, 0, 0.5]", "namespace: [ns, 0.5, 1]", 0),  // disjoint ranges
        ("filters: [{seed: s, ranges: [[0, 0.5]]}]", "filters: [{seed: s, ranges: [[0.5, 1]]}]", 0),
        ("filters: [{seed: s, ranges: [[0, 0.5]]}]", "filters: [{seed: t, ranges: [[0.5, 1]]}]", 1),
        ("filters: [{seed: s, ranges: [[0, 0.6]]}]", "filters: [{seed: s, ranges: [[0.5, 1]]}]", 1),
        ("schedule: {end: 2026-12-01}", "schedule: {start: 2026-12-01}", 0),
        ("schedule: {end: 2026-12-02}", "schedule: {start: 2026-12-01}", 1),
        ("", "status: draft", 0),
        ("", "status: stopped", 0),
        ("", "active: false", 0),
        ("status: draft", "active: false", 0),
    ])
    func overlapRules(a: String, b: String, errors: Int) throws {
        let found = try Self.overlaps(a, b)
        #expect(found.count == errors, "\(found)")
        #expect(found.allSatisfy { $0.hasPrefix("b.yaml:3:7: error: experiments 'a'") })
    }

    /// Many experiments in disjoint slices of one namespace (as an imported GrowthBook payload's
    /// rules are) pass, and the one pair whose slices overlap among them is the one error.
    @Test func oneOverlapAmongManySlicesIsTheOneError() throws {
        let folder = try ExperimentFolder()
        let count = 300
        for index in 0..<count {
            let start = Double(index) / Double(count), end = index == 120 ? 0.5 : Double(index + 1) / Double(count)
            try folder.write(String(format: "k%03d.yaml", index), Fixture.experiment(String(format: "k%03d", index), "namespace: [ns, \(start), \(end)]"))
        }
        let errors = folder.rendered(try folder.validate().diagnostics.filter { $0.severity == .error })
        #expect(errors.count == 29, "k120's slice reaches into k121…k149: \(errors.prefix(3))")
        #expect(errors.allSatisfy { $0.contains("experiments 'k120' (") }, "\(errors.prefix(3))")
    }

    /// Pairs the overlap check calls exclusive although the engine keeps them apart by nothing:
    /// a namespace ignored because `filters` is set, a namespace hashed on a different attribute,
    /// and filters that hash different attributes (a filter hashes `id` unless it names one).
    static let falselyExclusive = [
        ("namespace: [ns, 0, 0.5]\nfilters: [{seed: s, ranges: [[0, 1]]}]", "namespace: [ns, 0.5, 1]"),
        ("hashAttribute: deviceId\nnamespace: [ns, 0, 0.5]", "namespace: [ns, 0.5, 1]"),
        ("hashAttribute: deviceId\nfilters: [{seed: s, ranges: [[0, 0.5]]}]",
         "hashAttribute: deviceId\nfilters: [{seed: s, ranges: [[0.5, 1]], attribute: deviceId}]"),
    ]

    @Test(arguments: falselyExclusive)
    func separationsTheEngineDoesNotHonourAreOverlaps(a: String, b: String) throws {
        #expect(try Self.overlaps(a, b).count == 1)
    }

    @Test(arguments: falselyExclusive)
    func thoseExperimentsReallyAssignTheSameSession(a: String, b: String) throws {
        let folder = try ExperimentFolder()
        try folder.write("a.yaml", Fixture.experiment("a", a))
        try folder.write("b.yaml", Fixture.experiment("b", b))
        let (set, problems) = folder.load()
        #expect(problems.isEmpty && set.definitions.count == 2)
        let evaluator = ExperimentEvaluator()
        let sessions = (0..<40).lazy.flatMap { i in
            (0..<40).lazy.map { j -> [String: AttributeValue] in ["id": .string("user-\(i)"), "deviceId": .string("device-\(j)")] }
        }
        let shared = sessions.first { attributes in
            set.definitions.allSatisfy { evaluator.decide($0, attributes: attributes, now: Date()).inExperiment }
        }
        #expect(shared != nil)
    }

    @Test
    func notANumberWeightsAreAnError() throws {
        let (_, report) = try Self.validate(Fixture.experiment("k", "weights: [.nan, .nan]"))
        #expect(report.errorCount == 1)
    }
}
