import Foundation
import RemixApp
import RemixExperiments
import RemixInterop
import RemixKit
import RemixTestSupport
import Testing

/// The proof for sticky bucketing: over seeded random sequences of changes to an experiment
/// (weights, coverage, bucketVersion, minBucketVersion, the fallback attribute) and users who
/// come back (some anonymous, some logging in later), `remix assign --sticky FILE` answers every
/// user at every step as GrowthBook's Python SDK does with its InMemoryStickyBucketService fed the
/// same sequence (the SDK evaluates the payload `remix export growthbook` makes of each step).
///
/// Two kinds of sequence per seed. In the first the fallback attribute comes and goes, and users
/// are either always identified (`id`) or always anonymous (`deviceId` only). In the second some
/// anonymous users log in (gain an `id`), and the fallback attribute stays: once a user has both
/// documents, the Python SDK's lookup merges the fallback document's assignments into the hash
/// attribute's document in place (the dictionary it reads is the stored one), so dropping the
/// fallback afterwards leaves the Python SDK blocking or keeping on assignments the JavaScript SDK,
/// whose lookup merges into a new object, and Remix no longer see. Remix follows the JavaScript SDK.
@Suite(.serialized) struct StickyBucketSDKAgreementTests {
    static let userCount = 24
    static let stepCount = 14

    /// One step of the sequence: the experiment's sticky-relevant fields.
    struct Step {
        var weights: [Double]
        var coverage: Double
        var bucketVersion: Int
        var minBucketVersion: Int
        var fallback: Bool

        var yaml: String {
            """
            key: sticky-flow
            app: marketplace
            slot: insertion
            hashVersion: 2
            hashAttribute: id
            variations:
              - {key: manual, feature: ManualGroupInsertion}
              - {key: auto, feature: AutoGroupInsertion}
              - {key: alternating, feature: AlternatingInsertion}
            weights: [\(weights.map { String($0) }.joined(separator: ", "))]
            coverage: \(coverage)
            bucketVersion: \(bucketVersion)
            minBucketVersion: \(minBucketVersion)
            """ + (fallback ? "\nfallbackAttribute: deviceId\n" : "\n")
        }
    }

    /// The seeded sequence: each step changes one or two things (the fallback attribute only when
    /// `togglingFallback`).
    static func steps(seed: UInt64, togglingFallback: Bool) -> [Step] {
        var random = SeededGenerator(seed: seed)
        let splits: [[Double]] = [[0.34, 0.33, 0.33], [0.1, 0.1, 0.8], [0.5, 0.5, 0], [0.2, 0.6, 0.2]]
        var step = Step(weights: splits[0], coverage: 1, bucketVersion: 0, minBucketVersion: 0, fallback: true)
        var steps = [step]
        for _ in 1..<stepCount {
            for _ in 0...(random.next() % 2) {
                switch random.next() % 7 {
                case 0, 1, 2: step.weights = splits[Int(random.next() % UInt64(splits.count))]
                case 3: step.coverage = [1, 0.8, 0.5, 0.2][Int(random.next() % 4)]
                case 4: step.bucketVersion += 1
                case 5: step.minBucketVersion = step.bucketVersion
                default: if togglingFallback { step.fallback.toggle() }
                }
            }
            steps.append(step)
        }
        return steps
    }

    /// The users at each step: half from the start, then one more a step (new users keep coming, as
    /// they do while an experiment runs). Every third is anonymous (a deviceId only) — until it logs
    /// in at a step of its own when `logins`, for good otherwise; the rest have both.
    static func users(seed: UInt64, logins: Bool) -> [[[String: AttributeValue]]] {
        var random = SeededGenerator(seed: seed &+ 1)
        let loginStep = (0..<userCount).map { $0 % 3 == 0 ? (logins ? Int(random.next() % UInt64(stepCount + 2)) : stepCount) : 0 }
        return (0..<stepCount).map { step in
            (0..<userCount).filter { $0 < userCount / 2 || $0 - userCount / 2 < step }.map { user in
                var attributes: [String: AttributeValue] = ["deviceId": .string("device-\(user)")]
                if step >= loginStep[user] { attributes["id"] = .string("user-\(user)") }
                return attributes
            }
        }
    }

    @Test(.enabled(if: GrowthBookPython.shouldRun, GrowthBookPython.skipReason),
          arguments: [UInt64(3), 41, 2026], [false, true])
    func assignWithAStickyFileAnswersAsTheSDKDoes(seed: UInt64, logins: Bool) async throws {
        let registry = try Fixtures.registry()
        let folder = try TemporaryFolder()
        let stickyFile = folder.path("sticky.jsonl")
        let steps = Self.steps(seed: seed, togglingFallback: !logins)
        let users = Self.users(seed: seed, logins: logins)
        var payloads: [AttributeValue] = []
        var remix: [[(variation: Int?, inExperiment: Bool, sticky: Bool?)]] = []
        let context = AppContext(notify: { _ in })
        for (index, step) in steps.enumerated() {
            let file = try folder.write("step-\(index)/sticky-flow.yaml", step.yaml)
            let set = Fixtures.load([folder.path("step-\(index)")], registry: registry)
            payloads.append(try GrowthBookExport.make(set, registry: registry, at: Fixtures.november).payload)
            var answers: [(Int?, Bool, Bool?)] = []
            for attributes in users[index] {
                var assign = Assign(experiment: file)
                assign.session.json = PayloadJSON.compact(.object(attributes))
                assign.session.at = "2026-11-23T09:00:00Z"
                assign.sticky = stickyFile
                let decision = try await assign.run(context).decision
                answers.append((decision.variationId, decision.inExperiment, decision.stickyBucketUsed))
            }
            remix.append(answers)
        }
        let feature = GrowthBookExport.featureKey(app: "marketplace", slot: "insertion")
        let job: AttributeValue = .object([
            "feature": .string(feature),
            "steps": .array(zip(payloads, users).map { payload, people in
                .object(["payload": payload, "users": .array(people.map { .object($0) })])
            }),
        ])
        let output = try GrowthBookPython.run(script: Paths.stickyScript, job: job)
        let sdkSteps = try #require(output["steps"]?.arrayValue)
        var mismatches: [String] = []
        var stickyUsed = 0
        for (index, (ours, theirs)) in zip(remix, sdkSteps).enumerated() {
            for (user, (mine, sdk)) in zip(ours, theirs.arrayValue ?? []).enumerated() {
                let sdkIn = sdk["inExperiment"]?.boolValue ?? false
                let same = sdkIn
                    ? mine.inExperiment && mine.variation == sdk["variationId"]?.numberValue.map { Int($0) }
                        && mine.sticky == sdk["stickyBucketUsed"]?.boolValue
                    : !mine.inExperiment
                if mine.inExperiment && mine.sticky == true { stickyUsed += 1 }
                if !same {
                    mismatches.append("step \(index) (\(steps[index])), user \(user) \(users[index][user]): remix \(mine), SDK \(PayloadJSON.compact(sdk))")
                }
            }
        }
        #expect(sdkSteps.count == steps.count)
        if !logins {
            // Without logins no user has two documents, and the stores end up holding the same ones.
            let ours = try String(contentsOfFile: stickyFile, encoding: .utf8).split(separator: "\n").map { line in
                try AttributeValue.parse(json: String(line))
            }
            let lastByKey = Dictionary(ours.map { ("\($0["attributeName"]?.stringValue ?? "")||\($0["attributeValue"]?.stringValue ?? "")", $0) },
                                       uniquingKeysWith: { _, later in later })
            #expect(.object(lastByKey) == output["documents"], "the sticky file's documents differ from the SDK's store")
        }
        #expect(mismatches.isEmpty, Comment(rawValue: "\(mismatches.count) of \(users.joined().count) differ:\n"
                + mismatches.prefix(10).joined(separator: "\n")))
        // The sequence exercises what it is about: users kept their stored variation.
        #expect(stickyUsed >= Self.userCount / 2, "\(stickyUsed) sticky answers")
    }
}
