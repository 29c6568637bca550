import Foundation
import RemixExperiments
import RemixKit
import RemixYAML
import Testing

/// Reading experiment files: every key maps to its field, defaults apply, and every problem is a
/// positioned diagnostic.
@Suite struct ExperimentFileTests {
    static let full = """
        # Every key an experiment file may have.
        key: full-test
        description: Everything at once
        app: marketplace
        slot: insertion
        variations:
          - key: manual
            feature: ManualGroupInsertion
          - key: friendly
            feature: AutoGroupInsertion
            params: {loadingMessage: "Hold on", errorToastSeconds: 3}
        weights: [0.25, 0.75]
        coverage: 0.8
        seed: salt-1
        hashVersion: 2
        hashAttribute: deviceId
        fallbackAttribute: id
        condition:
          $or:
            - platform: tablet
            - appVersion: {$vgte: "2.0"}
          country: {$in: [GB, IE]}
        namespace: [insertion, 0.2, 0.7]
        filters:
          - seed: split
            ranges: [[0, 0.5], [0.75, 1]]
            hashVersion: 1
            attribute: deviceId
        force: 1
        status: stopped
        active: false
        schedule:
          start: 2026-12-01
          end: 2027-01-01T12:30:00Z
        metrics:
          primary: advert_published
          guardrails: [insertion_cancelled, publish_failed]
        """

    @Test func fullFileMapsEveryKey() throws {
        let d = try Fixture.definition(Self.full, file: "dir/full-test.yaml")
        #expect(d.key == "full-test" && d.file == "dir/full-test.yaml" && d.summary == "Everything at once")
        #expect(d.app == "marketplace" && d.slot == "insertion")
        #expect(d.variations.map(\.key) == ["manual", "friendly"])
        #expect(d.variations.map(\.feature) == ["ManualGroupInsertion", "AutoGroupInsertion"])
        #expect(d.variations[0].parameters.isEmpty)
        #expect(d.variations[1].parameters == ["loadingMessage": .string("Hold on"), "errorToastSeconds": .int(3)])
        #expect(d.variations[1].location == SourceLocation(file: "dir/full-test.yaml", line: 9, column: 5))
        #expect(d.variations[1].featureLocation.line == 10 && d.variations[1].featureLocation.column == 14)
        #expect(d.variations[1].parameterLocations["errorToastSeconds"]?.line == 11)
        let e = d.experiment
        #expect(e.key == "full-test" && e.variations == [.string("manual"), .string("friendly")])
        #expect(e.meta?.map(\.key) == ["manual", "friendly"])
        #expect(e.weights == [0.25, 0.75] && e.coverage == 0.8 && e.seed == "salt-1" && e.hashVersion == 2)
        #expect(e.hashAttribute == "deviceId" && e.fallbackAttribute == "id")
        #expect(e.condition?.source == [
            "$or": [["platform": "tablet"], ["appVersion": ["$vgte": "2.0"]]], "country": ["$in": ["GB", "IE"]],
        ])
        #expect(e.namespace == Namespace(id: "insertion", start: 0.2, end: 0.7))
        #expect(e.filters == [Experiment.Filter(seed: "split", ranges: [BucketRange(start: 0, end: 0.5),
                                                                         BucketRange(start: 0.75, end: 1)],
                                                hashVersion: 1, attribute: "deviceId")])
        #expect(e.force == 1 && e.status == .stopped && e.active == false && !d.isLive)
        #expect(d.schedule?.start == DateParsing.parse("2026-12-01T00:00:00Z"))
        #expect(d.schedule?.end == Date(timeIntervalSince1970: 1_798_806_600))  // 2027-01-01T12:30:00Z
        #expect(d.metrics.primary == "advert_published")
        #expect(d.metrics.all == ["advert_published", "insertion_cancelled", "publish_failed"])
        #expect(d.location(of: "coverage") == SourceLocation(file: "dir/full-test.yaml", line: 13, column: 11))
        #expect(d.location(of: "nothing") == SourceLocation(file: "dir/full-test.yaml", line: 1, column: 1))
    }

    @Test func nestedConditionOperatorsEvaluate() throws {
        let condition = try #require(try Fixture.definition(Self.full).experiment.condition)
        #expect(condition.evaluate(["platform": "tablet", "country": "GB"]))
        #expect(condition.evaluate(["platform": "phone", "appVersion": "2.1", "country": "IE"]))
        #expect(!condition.evaluate(["platform": "phone", "appVersion": "1.9", "country": "GB"]))
        #expect(!condition.evaluate(["platform": "tablet", "country": "FR"]))
    }

    @Test func plainScalarsAreTypedQuotedOnesStayText() throws {
        let text = Fixture.experiment("typed", variations: [
            "{key: manual, feature: ManualGroupInsertion}",
            "{key: auto, feature: AutoGroupInsertion, params: {a: true, b: 3, c: 2.5, d: \"3\", e: hello}}",
        ], """
        condition: {appVersion: 2.0, quoted: "2.0", beta: true, count: 3, name: ~, tags: [a, 1]}
        seed: 42
        """)
        let d = try Fixture.definition(text, file: "typed.yaml")
        #expect(d.variations[1].parameters == ["a": .bool(true), "b": .int(3), "c": .double(2.5), "d": .string("3"),
                                               "e": .string("hello")])
        #expect(d.experiment.condition?.source == [
            "appVersion": .number(2), "quoted": .string("2.0"), "beta": .bool(true), "count": .number(3),
            "name": .null, "tags": [.string("a"), .number(1)],
        ])
        #expect(d.experiment.seed == "42")
    }

    /// YAML 1.2 (and GrowthBook's JSON) read `NO` as text; a country list must keep Norway.
    @Test
    func countryCodeNoStaysText() throws {
        let d = try Fixture.definition(Fixture.experiment("norway", "condition: {country: {$in: [GB, NO]}}"))
        #expect(d.experiment.condition?.source == ["country": ["$in": ["GB", "NO"]]])
        #expect(d.experiment.condition?.evaluate(["country": "NO"]) == true)
    }

    @Test func defaultsApplyWhenKeysAreMissing() throws {
        let d = try Fixture.definition("""
            key: plain
            app: marketplace
            slot: insertion
            variations: [{key: a, feature: ManualGroupInsertion}, {key: b, feature: AutoGroupInsertion}]
            """)
        let e = d.experiment
        #expect(e.status == .running && e.active && d.isLive)
        #expect(e.seed == nil && e.weights == nil && e.coverage == nil && e.hashVersion == nil && e.force == nil)
        #expect(e.namespace == nil && e.filters == nil && e.condition == nil && d.conditionNode == nil)
        #expect(d.schedule == nil && d.summary == nil && d.metrics.all.isEmpty)
        // Without a seed the key seeds the hash (hashVersion defaults to 1).
        let decision = ExperimentEvaluator().decide(d, attributes: ["id": "u1"], now: Date())
        #expect(decision.bucket == GrowthBookHash.hash(seed: "plain", value: "u1", version: 1))
        let seeded = try Fixture.definition(Fixture.experiment("seeded", "seed: other-seed"))
        #expect(ExperimentEvaluator().decide(seeded, attributes: ["id": "u1"], now: Date()).bucket
                == GrowthBookHash.hash(seed: "other-seed", value: "u1", version: 2))
    }

    @Test func malformedYAMLIsOneDiagnosticAtItsPosition() {
        let (definition, problems) = ExperimentFileParser.parse("key: x\napp: marketplace\nslot: insertion: oops\n",
                                                                file: "bad.yaml")
        #expect(definition == nil)
        #expect(problems.map(\.description)
                == ["bad.yaml:3:16: error: malformed YAML: mapping values are not allowed in this context"])
        let (_, list) = ExperimentFileParser.parse("- just\n- a list\n", file: "list.yaml")
        #expect(list.map(\.description) == ["list.yaml:1:1: error: an experiment file must be a mapping, not a list"])
        let (twice, duplicate) = ExperimentFileParser.parse(Fixture.experiment("k", "coverage: 1\ncoverage: 0.5"), file: "k.yaml")
        #expect(twice == nil && duplicate.count == 1)
        #expect(duplicate.first?.description.hasPrefix("k.yaml:9:1: error: duplicate key 'coverage' (first at line 8)") == true)
    }

    @Test func missingRequiredKeysAreReportedAtTheMapping() {
        let (definition, problems) = ExperimentFileParser.parse("# nothing useful\ndescription: nothing\n", file: "m.yaml")
        #expect(definition == nil)
        #expect(problems.map(\.description) == ["key", "app", "slot", "variations"].map {
            "m.yaml:2:1: error: an experiment needs '\($0)'"
        })
    }

    @Test func unknownTopLevelKeySuggestsTheNearest() {
        let (definition, problems) = ExperimentFileParser.parse(Fixture.experiment("k", "wieghts: [0.5, 0.5]\nzzzzzz: 1"),
                                                                file: "k.yaml")
        #expect(definition != nil)
        expectDiagnostic(problems, at: "k.yaml:8:1", "unknown key 'wieghts' in an experiment; did you mean 'weights'?")
        expectDiagnostic(problems, at: "k.yaml:9:1", "unknown key 'zzzzzz' in an experiment; known keys: key, description")
        #expect(problems.count == 2)
    }

    @Test(arguments: [
        ("coverage: half", "8:11", "coverage must be a number, not 'half'"),
        ("coverage: \"0.5\"", "8:11", "coverage must be a number, not '0.5'"),
        ("weights: 0.5", "8:10", "weights must be a list, not a scalar"),
        ("weights: [0.5, lots]", "8:16", "a weight must be a number, not 'lots'"),
        ("active: maybe", "8:9", "active must be true or false, not 'maybe'"),
        ("active: \"true\"", "8:9", "active must be true or false, not 'true'"),
        ("hashVersion2: 2", "8:1", "did you mean 'hashVersion'?"),
        ("force: first", "8:8", "force must be a whole number, not 'first'"),
        ("status: paused", "8:9", "status must be draft, running or stopped, not 'paused'"),
        ("namespace: [insertion, 0.5]", "8:12", "namespace must be [id, start, end], e.g. [insertion, 0, 0.5]"),
        ("namespace: {id: insertion}", "8:12", "namespace must be a list, not a mapping"),
        ("namespace: [insertion, low, 1]", "8:24", "the namespace start must be a number, not 'low'"),
        ("filters: [{seed: s, ranges: [[0, 0.5, 1]]}]", "8:30", "a range must be [start, end]"),
        ("filters: [{seed: s, ranges: [[0, half]]}]", "8:34", "a range end must be a number, not 'half'"),
        ("filters: [{ranges: [[0, 1]]}]", "8:11", "a filter needs 'seed'"),
        ("schedule: {start: 2026-12-01, end: next week}", "8:36", "'next week' is not a date; write 2026-12-01"),
        ("schedule: {start: 2026-13-45}", "8:19", "'2026-13-45' is not a date"),
        ("schedule: {start: 2027-01-01, end: 2026-12-01}", "8:11", "the schedule ends before it starts"),
        ("schedule: {start: 2026-12-01, end: 2026-12-01}", "8:11", "the schedule ends before it starts"),
        ("schedule: {begin: 2026-12-01}", "8:12", "unknown key 'begin' in schedule"),
        ("metrics: {primary: a, guardrail: [b]}", "8:23", "did you mean 'guardrails'?"),
        ("condition: [platform, tablet]", "8:12", "condition must be a mapping, not a list"),
    ])
    func wrongValuesAreDiagnosedWhereTheyAre(line: String, position: String, message: String) {
        let (_, problems) = ExperimentFileParser.parse(Fixture.experiment("k", line), file: "k.yaml")
        expectDiagnostic(problems, at: "k.yaml:\(position)", message)
        #expect(problems.count == 1, "\(problems)")
    }

    @Test func variationProblemsArePositioned() {
        let duplicate = Fixture.experiment("k", variations: [
            "{key: manual, feature: ManualGroupInsertion}", "{key: manual, feature: AutoGroupInsertion}",
        ])
        let (d1, p1) = ExperimentFileParser.parse(duplicate, file: "k.yaml")
        #expect(d1 == nil)
        #expect(p1.map(\.description) == ["k.yaml:7:5: error: variation key 'manual' is used twice (first at line 6)"])
        let unknown = Fixture.experiment("k", variations: [
            "{key: manual, feature: ManualGroupInsertion}", "{key: auto, featur: AutoGroupInsertion}",
        ])
        let (_, p2) = ExperimentFileParser.parse(unknown, file: "k.yaml")
        #expect(p2.map(\.description) == ["k.yaml:7:17: error: unknown key 'featur' in a variation; did you mean 'feature'?"])
        let (_, p3) = ExperimentFileParser.parse(Fixture.experiment("k", variations: ["{key: manual}"]), file: "k.yaml")
        #expect(p3.map(\.description) == ["k.yaml:6:5: error: a variation needs 'feature'"])
        let (_, p4) = ExperimentFileParser.parse(Fixture.experiment("k", variations: ["{key: a, feature: F, params: [1]}"]),
                                                 file: "k.yaml")
        #expect(p4.map(\.description) == ["k.yaml:6:34: error: params must be a mapping, not a list"])
    }

    @Test func everyProblemOfAFileIsReportedInOneRun() {
        let text = """
            key: many
            app: marketplace
            slot: insertion
            variations:
              - {key: a, feature: ManualGroupInsertion}
              - {key: a, feature: AutoGroupInsertion}
            wieghts: [0.5, 0.5]
            coverage: lots
            status: paused
            active: 1
            schedule: {start: 2027-01-01, end: 2026-01-01}
            """
        let (definition, problems) = ExperimentFileParser.parse(text, file: "many.yaml")
        #expect(definition == nil)
        #expect(problems.map(\.location.line).sorted() == [6, 7, 8, 9, 10, 11])
        #expect(problems.allSatisfy { $0.severity == .error && $0.location.file == "many.yaml" })
    }

    @Test func folderLoadReadsSavedGroupsAndSortsByKey() throws {
        let folder = try ExperimentFolder()
        try folder.write("b.yaml", Fixture.experiment("b-exp"))
        try folder.write("a.yml", Fixture.experiment("z-exp"))
        try folder.write("notes.txt", "not an experiment")
        try folder.write("population.yaml", "app: marketplace\npersonas: []\n")  // for `remix simulate`
        try folder.write(ExperimentSet.savedGroupsFile, "testers: [u1, 2, \"3\"]\n")
        let (set, problems) = folder.load()
        #expect(problems.isEmpty)
        #expect(set.definitions.map(\.key) == ["b-exp", "z-exp"])
        #expect(set.savedGroups == ["testers": ["u1", 2, "3"]])
        #expect(set.definition(key: "z-exp")?.file == folder.url.appendingPathComponent("a.yml").path)
        // A file named alone still sees the saved groups beside it.
        let (single, _) = ExperimentSet.load(paths: [folder.url.appendingPathComponent("b.yaml").path])
        #expect(single.definitions.map(\.key) == ["b-exp"] && single.savedGroups["testers"] != nil)
    }

    @Test func brokenFilesAreLeftOutAndReported() throws {
        let folder = try ExperimentFolder()
        try folder.write("good.yaml", Fixture.experiment("good"))
        try folder.write("bad.yaml", "key: [\n")
        try folder.write(ExperimentSet.savedGroupsFile, "testers: u1\n")
        let (set, problems) = folder.load()
        #expect(set.definitions.map(\.key) == ["good"] && set.savedGroups.isEmpty)
        let lines = folder.rendered(problems)
        #expect(lines.count == 2)
        #expect(lines.contains { $0.hasPrefix("bad.yaml:2:1: error: malformed YAML") })
        #expect(lines.contains("saved-groups.yaml:1:10: error: saved group 'testers' must be a list, not a scalar"))
        let (_, missing) = ExperimentSet.load(paths: [folder.url.appendingPathComponent("nope").path])
        #expect(missing.map(\.message) == ["no such file or folder; give the experiments folder (default: experiments) "
                                           + "or an experiment file"])
    }
}
