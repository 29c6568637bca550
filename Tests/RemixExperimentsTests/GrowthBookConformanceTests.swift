import RemixExperiments
import RemixTestSupport
import Testing

/// GrowthBook's conformance suite (`../shared/conformance/growthbook-cases.json`), one test per
/// section, one expectation per case.
@Suite("GrowthBook conformance",
       .enabled(if: ConformanceSuite.isAvailable || RequiredUnderCI.holds(), ConformanceSuite.skipReason))
struct GrowthBookConformanceTests {
    private static func floored(_ x: Double) -> Double { (x * 1e8).rounded(.down) / 1e8 }
    private static func rounded(_ x: Double) -> Double { (x * 1e8).rounded() / 1e8 }

    @Test("hash")
    func hash() throws {
        var tally = CaseTally("hash")
        for tuple in try ConformanceSuite.section("hash") {
            guard tuple.count == 4, let seed = tuple[0].stringValue, let value = tuple[1].stringValue,
                  let version = tuple[2].numberValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            let name = "hash(\(tuple[0].rendered), \(tuple[1].rendered), \(Int(version)))"
            let actual = GrowthBookHash.hash(seed: seed, value: value, version: Int(version))
            tally.check(actual == tuple[3].numberValue, "\(name): got \(String(describing: actual)), expected \(tuple[3].rendered)")
        }
        tally.report()
    }

    @Test("getBucketRange")
    func getBucketRange() throws {
        var tally = CaseTally("getBucketRange")
        for tuple in try ConformanceSuite.section("getBucketRange") {
            guard tuple.count == 3, let name = tuple[0].stringValue, let args = tuple[1].arrayValue, args.count == 3,
                  let count = args[0].numberValue, let coverage = args[1].numberValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            let weights = args[2].isNull ? nil : try GrowthBookFixtures.numbers(args[2])
            let expected = try GrowthBookFixtures.ranges(tuple[2])
            let actual = GrowthBookHash.bucketRanges(count: Int(count), coverage: coverage, weights: weights)
            let same = actual.count == expected.count && zip(actual, expected).allSatisfy { got, want in
                Self.floored(got.start) == Self.floored(want.start) && Self.floored(got.end) == Self.floored(want.end)
            }
            tally.check(same, "\(name): got \(actual), expected \(expected)")
        }
        tally.report()
    }

    @Test("chooseVariation")
    func chooseVariation() throws {
        var tally = CaseTally("chooseVariation")
        for tuple in try ConformanceSuite.section("chooseVariation") {
            guard tuple.count == 4, let name = tuple[0].stringValue, let n = tuple[1].numberValue,
                  let expected = tuple[3].numberValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            let actual = GrowthBookHash.chooseVariation(n, ranges: try GrowthBookFixtures.ranges(tuple[2]))
            tally.check(actual == Int(expected), "\(name): got \(actual), expected \(Int(expected))")
        }
        tally.report()
    }

    @Test("inNamespace")
    func inNamespace() throws {
        var tally = CaseTally("inNamespace")
        for tuple in try ConformanceSuite.section("inNamespace") {
            guard tuple.count == 4, let name = tuple[0].stringValue, let hashValue = tuple[1].stringValue,
                  let expected = tuple[3].boolValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            let namespace = try GrowthBookFixtures.namespace(tuple[2])
            let actual = GrowthBookHash.inNamespace(hashValue: hashValue, namespace: namespace)
            tally.check(actual == expected, "\(name): got \(actual), expected \(expected)")
            // An experiment in the namespace checks it with its seed prepared once.
            var experiment = Experiment(key: "k", variations: [0, 1])
            experiment.namespace = namespace
            let prepared = experiment.inNamespace(hashValue: hashValue)
            tally.check(prepared == expected, "\(name) (prepared seed): got \(prepared), expected \(expected)")
        }
        tally.report()
    }

    @Test("getEqualWeights")
    func getEqualWeights() throws {
        var tally = CaseTally("getEqualWeights")
        for tuple in try ConformanceSuite.section("getEqualWeights") {
            guard tuple.count == 2, let n = tuple[0].numberValue else {
                tally.check(false, "malformed case \(tuple)")
                continue
            }
            let expected = try GrowthBookFixtures.numbers(tuple[1]).map(Self.rounded)
            let actual = GrowthBookHash.equalWeights(Int(n)).map(Self.rounded)
            tally.check(actual == expected, "getEqualWeights(\(Int(n))): got \(actual), expected \(expected)")
        }
        tally.report()
    }

    @Test("evalCondition")
    func evalCondition() throws {
        var tally = CaseTally("evalCondition")
        for tuple in try ConformanceSuite.section("evalCondition") {
            guard tuple.count >= 4, let name = tuple[0].stringValue, let attributes = tuple[2].objectValue,
                  let expected = tuple[3].boolValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            let savedGroups = tuple.count > 4 ? tuple[4].objectValue ?? [:] : [:]
            let condition = Condition(parsing: tuple[1])
            // Both ways in: a plain attributes dictionary, and a context's indexed attributes.
            let viaDictionary = condition.evaluate(attributes, savedGroups: savedGroups)
            let viaContext = condition.evaluate(in: AssignmentContext(attributes: attributes, savedGroups: savedGroups))
            tally.check(
                viaDictionary == expected && viaContext == expected,
                "\(name): got \(viaDictionary) (dictionary) and \(viaContext) (context), expected \(expected); "
                    + "condition \(tuple[1].rendered)"
            )
        }
        tally.report()
    }

    @Test("getQueryStringOverride")
    func getQueryStringOverride() throws {
        var tally = CaseTally("getQueryStringOverride")
        for tuple in try ConformanceSuite.section("getQueryStringOverride") {
            guard tuple.count == 5, let name = tuple[0].stringValue, let key = tuple[1].stringValue,
                  let url = tuple[2].stringValue, let count = tuple[3].numberValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            let expected = tuple[4].numberValue.map { Int($0) }
            let actual = QueryStringOverride.variation(forExperiment: key, url: url, variationCount: Int(count))
            tally.check(actual == expected, "\(name): got \(String(describing: actual)), expected \(String(describing: expected))")
        }
        tally.report()
    }

    @Test("run")
    func run() throws {
        var tally = CaseTally("run")
        let engine = AssignmentEngine()
        for tuple in try ConformanceSuite.section("run") {
            guard tuple.count == 6, let name = tuple[0].stringValue,
                  let inExperiment = tuple[4].boolValue, let hashUsed = tuple[5].boolValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            do {
                let context = try GrowthBookFixtures.context(tuple[1])
                let experiment = try GrowthBookFixtures.experiment(tuple[2])
                let result = engine.run(experiment, context: context)
                let ok = result.value == tuple[3] && result.inExperiment == inExperiment && result.hashUsed == hashUsed
                tally.check(ok, """
                    \(name): got value \(result.value.rendered), inExperiment \(result.inExperiment), \
                    hashUsed \(result.hashUsed) (\(result.reason)); expected \(tuple[3].rendered), \
                    \(inExperiment), \(hashUsed)
                    """)
            } catch {
                tally.check(false, "\(name): \(error)")
            }
        }
        tally.report()
    }

    @Test("feature", arguments: ["feature", "contextualBandit"])
    func feature(section: String) throws {
        var tally = CaseTally(section)
        for tuple in try ConformanceSuite.section(section) {
            guard tuple.count == 4, let name = tuple[0].stringValue, let key = tuple[2].stringValue,
                  let expected = tuple[3].objectValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            do {
                let (evaluator, context) = try GrowthBookFeatureFixtures.evaluation(tuple[1])
                let result = evaluator.evaluate(key, context: context)
                let mismatches = GrowthBookFeatureFixtures.mismatches(result, featureKey: key, expected: expected)
                tally.check(mismatches.isEmpty, "\(name): " + mismatches.joined(separator: "; "))
            } catch {
                tally.check(false, "\(name): \(error)")
            }
        }
        tally.report()
    }

    /// Each case's documents go into an in-memory store; the user's are read for the hash and
    /// fallback attributes of the features (as an SDK derives its sticky-bucket identifiers),
    /// the feature is evaluated, and the user's documents afterwards are compared.
    @Test("stickyBucket")
    func stickyBucket() async throws {
        var tally = CaseTally("stickyBucket")
        for tuple in try ConformanceSuite.section("stickyBucket") {
            guard tuple.count == 6, let name = tuple[0].stringValue, let stored = tuple[2].arrayValue,
                  let key = tuple[3].stringValue, let expectedDocuments = tuple[5].objectValue
            else { tally.check(false, "malformed case \(tuple)"); continue }
            do {
                let (evaluator, context) = try GrowthBookFeatureFixtures.evaluation(tuple[1])
                let inContext = try (tuple[1]["stickyBucketAssignmentDocs"]?.objectValue ?? [:]).values
                    .map(GrowthBookFeatureFixtures.document)
                let store = InMemoryStickyBucketStore(try stored.map(GrowthBookFeatureFixtures.document) + inContext)
                let identifiers = context.stickyBucketIdentifiers(
                    attributeNames: evaluator.features.keys.sorted().flatMap { evaluator.features[$0]?.stickyBucketAttributes ?? [] })
                var sticky: StickyBuckets? = StickyBuckets(await store.documents(for: identifiers))
                let result = evaluator.evaluate(key, context: context, stickyBuckets: &sticky)
                var mismatches = GrowthBookFeatureFixtures.resultMismatches(result.experimentResult, featureKey: key,
                                                                             expected: tuple[4])
                let expected = try expectedDocuments.mapValues(GrowthBookFeatureFixtures.document)
                if sticky?.documents != expected {
                    mismatches.append("documents \(sticky?.documents.values.map(\.key).sorted() ?? []): "
                                      + "\(String(describing: sticky?.documents)), expected \(expected)")
                }
                tally.check(mismatches.isEmpty, "\(name): " + mismatches.joined(separator: "; "))
            } catch {
                tally.check(false, "\(name): \(error)")
            }
        }
        tally.report()
    }
}
