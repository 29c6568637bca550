import RemixExperiments
import Testing

/// The engine's decisions, reasons and reported fields beyond what the conformance suite checks.
@Suite("AssignmentEngine")
struct AssignmentEngineTests {
    let engine = AssignmentEngine()
    let user = AssignmentContext(attributes: ["id": "1", "platform": "tablet", "appVersion": "2.1.0"])

    private func experiment(_ key: String = "my-test") -> Experiment {
        Experiment(key: key, variations: ["control", "treatment"])
    }

    @Test("a hashed assignment reports its bucket, hash value and variation key")
    func assigned() throws {
        let result = engine.run(experiment(), context: user)
        #expect(result.reason == .assigned)
        #expect(result.inExperiment && result.hashUsed)
        #expect(result.variationId == 1 && result.value == "treatment" && result.key == "1")
        #expect(result.hashAttribute == "id" && result.hashValue == "1")
        let bucket = try #require(result.bucket)
        #expect(bucket == GrowthBookHash.hash(seed: "my-test", value: "1", version: 1))
        #expect(result.experimentKey == "my-test")
    }

    @Test("QA forcing through the context bypasses targeting and reports hashUsed == false")
    func forcedByContext() {
        var exp = experiment()
        exp.condition = Condition(parsing: ["platform": "phone"])
        exp.status = .draft
        let forced = user.forcingVariation(0, forExperiment: "my-test")
        let result = engine.run(exp, context: forced)
        #expect(result.reason == .forcedByContext)
        #expect(result.inExperiment && !result.hashUsed && result.variationId == 0 && result.bucket == nil)

        var outOfRange = user
        outOfRange.forceVariation(7, forExperiment: "my-test")
        let excluded = engine.run(exp, context: outOfRange)
        #expect(excluded.reason == .forcedByContext && !excluded.inExperiment && excluded.variationId == 0)
        #expect(user.forcedVariations.isEmpty, "forcingVariation leaves the original context alone")
    }

    @Test("each exclusion rule names itself")
    func reasons() {
        func reason(_ change: (inout Experiment) -> Void, context: AssignmentContext? = nil) -> AssignmentReason {
            var exp = experiment()
            change(&exp)
            let result = engine.run(exp, context: context ?? user)
            #expect(!result.inExperiment || result.reason == .assigned || result.reason == .forcedByExperiment)
            return result.reason
        }
        #expect(reason { $0.variations = ["only"] } == .fewerThanTwoVariations)
        #expect(reason({ _ in }, context: AssignmentContext(attributes: ["id": "1"], enabled: false)) == .contextDisabled)
        #expect(reason { $0.status = .draft } == .draft)
        #expect(reason { $0.active = false } == .inactive)
        #expect(reason { $0.hashAttribute = "deviceId" } == .missingHashAttribute)
        #expect(reason { $0.filters = [Experiment.Filter(seed: "s", ranges: [])] } == .filtered)
        #expect(reason { $0.namespace = Namespace(id: "ns", start: 0, end: 0) } == .namespace)
        #expect(reason { $0.condition = Condition(parsing: ["platform": "phone"]) } == .condition)
        #expect(reason { $0.parentConditions = [.init(id: "flag", condition: ["value": true])] } == .parentCondition)
        #expect(reason { $0.hashVersion = 3 } == .invalidHashVersion)
        #expect(reason { $0.coverage = 0 } == .coverage)
        #expect(reason { $0.force = 0 } == .forcedByExperiment)
        #expect(reason({ _ in }, context: AssignmentContext(attributes: ["id": "1"], qaMode: true)) == .qaMode)
        #expect(reason { $0.status = .stopped } == .stopped)
        for reason in AssignmentReason.allCases {
            #expect(!reason.description.isEmpty)
        }
    }

    @Test("a stopped experiment still honours forcing, like GrowthBook")
    func stoppedButForced() {
        var exp = experiment()
        exp.status = .stopped
        exp.force = 1
        let result = engine.run(exp, context: user)
        #expect(result.reason == .forcedByExperiment && result.inExperiment && !result.hashUsed)
    }

    @Test("prerequisites read feature values from the context; a missing feature is null")
    func prerequisites() {
        var exp = experiment()
        exp.parentConditions = [.init(id: "flag", condition: ["value": ["$exists": false]])]
        #expect(engine.run(exp, context: user).reason == .assigned)
        var withFlag = user
        withFlag.featureValues = ["flag": true]
        #expect(engine.run(exp, context: withFlag).reason == .parentCondition)
    }

    @Test("numeric and nested hash attributes hash their JavaScript string form")
    func hashAttributes() {
        var exp = experiment()
        exp.hashAttribute = "account.id"
        let nested = AssignmentContext(attributes: ["account": ["id": 123]])
        let flat = AssignmentContext(attributes: ["id": "123"])
        let nestedResult = engine.run(exp, context: nested)
        let flatResult = engine.run(experiment(), context: flat)
        #expect(nestedResult.hashValue == "123" && nestedResult.hashAttribute == "account.id")
        #expect(nestedResult.bucket == flatResult.bucket && nestedResult.variationId == flatResult.variationId)
        #expect(engine.run(experiment(), context: AssignmentContext(attributes: ["id": 0])).reason == .missingHashAttribute)
    }

    @Test("changing an experiment or a context takes effect on the next run")
    func mutation() {
        var exp = experiment()
        let before = engine.run(exp, context: user)
        exp.seed = "another-seed"
        exp.hashVersion = 2
        let after = engine.run(exp, context: user)
        #expect(after.bucket == GrowthBookHash.hash(seed: "another-seed", value: "1", version: 2))
        #expect(before.bucket == GrowthBookHash.hash(seed: "my-test", value: "1", version: 1))
        exp.meta = [.init(key: "a", name: "Control"), .init(key: "b", name: "Treatment")]
        exp.ranges = [BucketRange(start: 0, end: 1), BucketRange(start: 1, end: 1)]
        let keyed = engine.run(exp, context: user)
        #expect(keyed.variationId == 0 && keyed.key == "a" && keyed.name == "Control")

        var context = user
        exp.condition = Condition(parsing: ["platform": "phone"])
        #expect(engine.run(exp, context: context).reason == .condition)
        context.attributes["platform"] = "phone"
        #expect(engine.run(exp, context: context).reason == .assigned)
        #expect(user.attributes["platform"] == "tablet")
    }

    @Test("the engine, experiments and contexts can be shared across tasks")
    func concurrency() async {
        let exp = Experiment(key: "shared", variations: [0, 1, 2], condition: ["platform": "tablet"])
        let engine = self.engine
        let expected = (0..<64).map { index in
            engine.run(exp, context: AssignmentContext(attributes: ["id": .string("u\(index)"), "platform": "tablet"]))
        }
        let results = await withTaskGroup(of: (Int, AssignmentResult).self) { group in
            for index in 0..<64 {
                group.addTask {
                    let context = AssignmentContext(attributes: ["id": .string("u\(index)"), "platform": "tablet"])
                    return (index, engine.run(exp, context: context))
                }
            }
            var collected: [Int: AssignmentResult] = [:]
            for await (index, result) in group {
                collected[index] = result
            }
            return collected
        }
        for index in 0..<64 {
            #expect(results[index] == expected[index])
        }
    }
}
