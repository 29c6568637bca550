import Foundation
import RemixCLITestSupport
import RemixExperiments
import RemixKit
import RemixTestSupport
import Testing

/// `remix validate`, `remix assign` and `remix run --experiments`, as a user runs them.
@Suite struct AssignCLITests {
    /// Runs `remix` in process from the repository root (the test process's folder), or the built
    /// `remix` in `directory`, for tests whose files are named relative to a folder of their own.
    static func remix(_ arguments: [String], in directory: URL? = nil, input: String = "") async throws -> ProcessResult {
        guard let directory else { return await RemixInProcess.run(arguments, input: input) }
        return try RemixProcess.run(arguments, in: directory, input: input)
    }

    static func shipped() throws -> ExperimentSet {
        let (set, problems) = ExperimentSet.load(paths: [Fixture.shippedExperiments])
        #expect(problems.isEmpty)
        return set
    }

    /// Ids the shipped insertion-flow experiment assigns, and one it leaves out by namespace.
    static func ids() throws -> (assigned: String, outside: String) {
        let flow = try #require(try shipped().definition(key: "insertion-flow"))
        let rule = { (id: String) in ExperimentEvaluator().decide(flow, attributes: ["id": .string(id)], now: Date()).rule }
        return (try Fixture.userID { rule($0) == "assigned" }, try Fixture.userID { rule($0) == "namespace" })
    }

    @Test func validateOnTheShippedFolderExitsZero() async throws {
        let result = try await Self.remix(["validate"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout == "5 experiments, 0 errors, 0 warnings\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func validateOnABrokenFolderPrintsPositionedErrorsAndExitsOne() async throws {
        let folder = try ExperimentFolder()
        try folder.write("bad.yaml", Fixture.experiment("bad", "wieghts: [0.5, 0.5]\ncoverage: lots"))
        try folder.write("other.yaml", Fixture.experiment("other", app: "marketplce"))
        let result = try await Self.remix(["validate", "."], in: folder.url)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n") == [
            "./bad.yaml:8:1: error: unknown key 'wieghts' in an experiment; did you mean 'weights'?",
            "./bad.yaml:9:11: error: coverage must be a number, not 'lots'",
            "./other.yaml:2:6: error: unknown app 'marketplce'; did you mean 'marketplace'? (known apps: calculator, groupbrowser, marketplace)",
        ])
        #expect(result.stdout == "2 experiments, 3 errors, 0 warnings\n")
        // Without arguments it reads ./experiments.
        let nothing = try await Self.remix(["validate"], in: folder.url)
        #expect(nothing.status == 1 && nothing.stderr.hasPrefix("experiments:1:1: error: no such file or folder"))
    }

    @Test func assignJSONMatchesTheEvaluator() async throws {
        let set = try Self.shipped()
        let flow = try #require(set.definition(key: "insertion-flow"))
        let (assigned, outside) = try Self.ids()
        for id in ["u1", assigned, outside] {
            let result = try await Self.remix(["assign", "insertion-flow", "--attributes", "{\"id\":\"\(id)\"}", "--json"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.split(separator: "\n").count == 1)
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            let expected = ExperimentEvaluator(savedGroups: set.savedGroups).decide(flow, attributes: ["id": .string(id)], now: Date())
            #expect(object["experiment"] as? String == "insertion-flow")
            #expect(object["inExperiment"] as? Bool == expected.inExperiment)
            #expect(object["hashUsed"] as? Bool == expected.hashUsed)
            #expect(object["rule"] as? String == expected.rule && object["reason"] as? String == expected.reason)
            #expect(object["hashValue"] as? String == id && object["hashAttribute"] as? String == "id")
            if expected.inExperiment {
                #expect(object["variationId"] as? Int == expected.variationId)
                #expect(object["variation"] as? String == expected.variation)
                #expect(object["feature"] as? String == expected.feature)
                #expect(object["bucket"] as? Double == expected.bucket)
            } else {
                for key in ["variationId", "variation", "feature", "bucket"] { #expect(object[key] is NSNull, "\(key)") }
            }
        }
    }

    @Test func forcingAVariationIsNotHashAssigned() async throws {
        let (_, outside) = try Self.ids()
        for force in ["auto", "1"] {
            let result = try await Self.remix(["assign", "insertion-flow", "--attributes", "{\"id\":\"\(outside)\"}",
                                               "--force", force, "--json"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(object["hashUsed"] as? Bool == false && object["inExperiment"] as? Bool == true)
            #expect(object["variation"] as? String == "auto" && object["variationId"] as? Int == 1)
            #expect(object["feature"] as? String == "AutoGroupInsertion" && object["bucket"] is NSNull)
            #expect(object["rule"] as? String == "forcedByContext")
        }
    }

    @Test func textOutputNamesTheRule() async throws {
        let (assigned, outside) = try Self.ids()
        let inResult = try await Self.remix(["assign", "insertion-flow", "--attributes", "{\"id\":\"\(assigned)\"}"])
        #expect(inResult.status == 0)
        #expect(inResult.stdout.contains("experiment    insertion-flow (experiments/insertion-flow.yaml)"))
        #expect(inResult.stdout.contains("decision      in experiment"))
        #expect(inResult.stdout.contains("rule          assigned: assigned to a variation by hash"))
        #expect(inResult.stdout.contains("hashUsed      true"))
        let outResult = try await Self.remix(["assign", "experiments/insertion-flow.yaml", "--attributes", "{\"id\":\"\(outside)\"}"])
        #expect(outResult.status == 0, "stderr: \(outResult.stderr)")
        #expect(outResult.stdout.contains("rule          namespace: not in experiment: outside the experiment's namespace slice"))
        #expect(!outResult.stdout.contains("variation "))
    }

    @Test func atSetsTheSessionTimeForSchedules() async throws {
        let uk = try #require(try Self.shipped().definition(key: "uk-manual-first"))
        let december = try #require(DateParsing.parse("2026-12-15"))
        let id = try Fixture.userID { id in
            ExperimentEvaluator().decide(uk, attributes: ["id": .string(id), "country": "GB"], now: december).inExperiment
        }
        let attributes = "{\"id\":\"\(id)\",\"country\":\"GB\"}"
        let before = try await Self.remix(["assign", "uk-manual-first", "--attributes", attributes, "--at", "2026-11-30"])
        #expect(before.status == 0, "stderr: \(before.stderr)")
        #expect(before.stdout.contains("decision      not in experiment"))
        #expect(before.stdout.contains("rule          schedule: not in experiment: the session's time is outside its schedule"))
        let during = try await Self.remix(["assign", "uk-manual-first", "--attributes", attributes, "--at", "2026-12-15T10:00:00Z"])
        #expect(during.stdout.contains("rule          assigned: assigned to a variation by hash"))
    }

    @Test(arguments: [
        (["--attributes", "{id: u1}"], "remix: --attributes must be a JSON object"),
        (["--attributes", "[\"u1\"]"], "remix: --attributes must be a JSON object"),
        (["--at", "yesterday"], "remix: --at must be a date like 2026-12-01"),
        (["--force", "atuo"], "remix: --force: experiment 'insertion-flow' has no variation 'atuo'; did you mean 'auto'?"),
        (["--force", "3"], "remix: --force: experiment 'insertion-flow' has no variation '3'"),
    ])
    func badOptionsGiveAClearMessageAndExitOne(options: [String], message: String) async throws {
        let result = try await Self.remix(["assign", "insertion-flow"] + options)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty && !result.stderr.contains("Fatal error"))
    }

    /// A value that is not a JSON object is quoted by its start and its length: a 100 kB value is
    /// not echoed whole into the terminal.
    @Test func aHugeBadAttributesValueIsQuotedAsAShortExcerpt() async throws {
        let value = "{\"id\":\"" + String(repeating: "x", count: 100_000)
        let result = try await Self.remix(["assign", "insertion-flow", "--attributes", value])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr == "remix: --attributes must be a JSON object, e.g. '{\"id\":\"u1\",\"country\":\"GB\"}' (got '{\"id\":\""
                + String(repeating: "x", count: 53) + "…', 100,007 characters)\n", "\(result.stderr.prefix(300))")
        let short = try await Self.remix(["assign", "insertion-flow", "--attributes", "[1]"])
        #expect(short.stderr == "remix: --attributes must be a JSON object, e.g. '{\"id\":\"u1\",\"country\":\"GB\"}' (got '[1]')\n")
    }

    @Test func unknownExperimentKeySuggestsTheNearest() async throws {
        let result = try await Self.remix(["assign", "insertion-flw"])
        #expect(result.status == 1)
        #expect(result.stderr == "remix: no experiment 'insertion-flw' in experiments/; did you mean 'insertion-flow'? "
                + "(known experiments: calculator-entry, groupbrowser-navigation, insertion-flow, tablet-auto-message, "
                + "uk-manual-first)\n")
    }

    @Test func assignRefusesExperimentsWithErrors() async throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", "coverage: 7"))
        let result = try await Self.remix(["assign", "k", "--experiments", folder.path])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderr.contains("k.yaml:8:11: error: coverage must be between 0 and 1, not 7.0"))
        #expect(result.stderr.contains("remix: the experiments have 1 error(s); fix them (see 'remix validate')"))
    }

    @Test func runWithExperimentsPrintsDecisionsAndTheExposure() async throws {
        let set = try Self.shipped()
        let (assigned, _) = try Self.ids()
        let flow = try #require(set.definition(key: "insertion-flow"))
        let decision = ExperimentEvaluator().decide(flow, attributes: ["id": .string(assigned)], now: Date())
        let variation = try #require(decision.variation), feature = try #require(decision.feature)
        let result = try await Self.remix(["run", "--experiments", "experiments", "--user", assigned], input: "5\nq\n")
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("experiment insertion-flow: variation \(variation) → \(feature) (assigned)"))
        // insertion-flow's slice of the shared namespace is outside the others' slices.
        #expect(result.stdout.contains("experiment tablet-auto-message: (namespace)"))
        #expect(result.stdout.contains("experiment uk-manual-first: (namespace)"))
        let lines: [String] = result.stdout.split(separator: "\n").map(String.init)
        let exposures: [String] = lines.filter { (line: String) -> Bool in line.contains("• exposure") }
        #expect(exposures.count == 3)
        let variationId: Int = decision.variationId ?? -1
        let bucket: Double = decision.bucket ?? -1
        let expectedExposure: String = "  • exposure experiment=\"insertion-flow\" variation=\"\(variation)\" "
            + "variationId=\(variationId) feature=\"\(feature)\" app=\"marketplace\" slot=\"insertion\" "
            + "bucket=\(bucket) hashUsed=true inExperiment=true"
        #expect(exposures.first == expectedExposure)
        // The decisions come before the first screen, the exposure only after "New advert".
        let decisionLine = try #require(result.stdout.range(of: "experiment insertion-flow:"))
        let firstScreen = try #require(result.stdout.range(of: "── adverts ──"))
        let exposureLine = try #require(result.stdout.range(of: "• exposure"))
        let started = try #require(result.stdout.range(of: "• insertion_started"))
        #expect(decisionLine.lowerBound < firstScreen.lowerBound && firstScreen.lowerBound < exposureLine.lowerBound)
        #expect(exposureLine.lowerBound < started.lowerBound)
    }
}
