import Foundation
import RemixCLITestSupport
import RemixExperiments
import RemixStickyBuckets
import RemixTestSupport
import Testing

/// Sticky bucketing: the engine keeps a stored variation through changes, versions re-bucket or
/// block, the file store's lines, the experiment file's keys, and `remix assign --sticky`.
@Suite struct StickyBucketingTests {
    static let meta = [Experiment.VariationMeta(key: "a"), Experiment.VariationMeta(key: "b")]

    static func experiment(_ key: String = "exp", weights: [Double], version: Int = 0, minimum: Int = 0, disabled: Bool = false,
                           fallback: String? = nil) -> Experiment {
        Experiment(key: key, variations: ["a", "b"], weights: weights, fallbackAttribute: fallback, hashVersion: 2, meta: meta,
                   stickyBucketing: .init(bucketVersion: version, minBucketVersion: minimum, disabled: disabled))
    }

    /// Ids whose hash puts them in variation `index` of experiment `key` at 50/50.
    static func ids(in index: Int, count: Int, key: String = "exp") -> [String] {
        let engine = AssignmentEngine()
        let even = experiment(key, weights: [0.5, 0.5])
        return (0..<500).map { "u\($0)" }.filter {
            engine.run(even, context: AssignmentContext(attributes: ["id": .string($0)])).variationId == index
        }.prefix(count).map { $0 }
    }

    @Test func aStoredVariationSurvivesAWeightChangeAndAVersionBumpReBuckets() {
        let engine = AssignmentEngine()
        for id in Self.ids(in: 0, count: 20) {
            let context = AssignmentContext(attributes: ["id": .string(id)])
            var buckets = StickyBuckets()
            let first = engine.run(Self.experiment(weights: [0.5, 0.5]), context: context, stickyBuckets: &buckets)
            #expect(first.key == "a" && !first.stickyBucketUsed && first.reason == .assigned)
            #expect(buckets.changedDocuments == [StickyBucketDocument(attributeName: "id", attributeValue: id, assignments: ["exp__0": "a"])])
            let kept = engine.run(Self.experiment(weights: [0, 1]), context: context, stickyBuckets: &buckets)
            #expect(kept.key == "a" && kept.stickyBucketUsed && kept.hashUsed && kept.reason == .stickyBucket)
            let rebucketed = engine.run(Self.experiment(weights: [0, 1], version: 1), context: context, stickyBuckets: &buckets)
            #expect(rebucketed.key == "b" && !rebucketed.stickyBucketUsed)
            #expect(buckets.documents["id||\(id)"]?.assignments == ["exp__0": "a", "exp__1": "b"])
            let blocked = engine.run(Self.experiment(weights: [1, 0], version: 2, minimum: 2), context: context, stickyBuckets: &buckets)
            #expect(!blocked.inExperiment && blocked.stickyBucketUsed && blocked.reason == .stickyBucketBlocked)
            let ignored = engine.run(Self.experiment(weights: [0, 1], disabled: true), context: context, stickyBuckets: &buckets)
            #expect(ignored.key == "b" && !ignored.stickyBucketUsed)
        }
    }

    @Test func theFallbackAttributeIsHashedOnlyWithStickyBucketing() {
        let engine = AssignmentEngine()
        let experiment = Self.experiment(weights: [0.5, 0.5], fallback: "deviceId")
        let context = AssignmentContext(attributes: ["deviceId": "d1"])
        #expect(engine.run(experiment, context: context).reason == .missingHashAttribute)
        var buckets = StickyBuckets()
        let result = engine.run(experiment, context: context, stickyBuckets: &buckets)
        #expect(result.inExperiment && result.hashAttribute == "deviceId" && result.hashValue == "d1")
        #expect(buckets.documents.keys.sorted() == ["deviceId||d1"])
        // Logged in: the device's document still decides, and the id gets one of its own.
        let loggedIn = AssignmentContext(attributes: ["id": "someone", "deviceId": "d1"])
        let again = engine.run(experiment, context: loggedIn, stickyBuckets: &buckets)
        #expect(again.key == result.key && again.stickyBucketUsed && again.hashAttribute == "id")
        #expect(buckets.documents.keys.sorted() == ["deviceId||d1", "id||someone"])
    }

    @Test func theFileStoreAppendsLinesAndTheLastLineForAKeyWins() async throws {
        let folder = try TemporaryFolder()
        let store = StickyBucketFile(path: folder.path("sticky.jsonl"))
        #expect(try store.documentsByKey().isEmpty)
        try await store.save([StickyBucketDocument(attributeName: "id", attributeValue: "u1", assignments: ["e__0": "a"])])
        try await store.save([StickyBucketDocument(attributeName: "id", attributeValue: "u1", assignments: ["e__0": "a", "f__0": "x"]),
                              StickyBucketDocument(attributeName: "id", attributeValue: "u2", assignments: ["e__0": "b"])])
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text == """
            {"assignments":{"e__0":"a"},"attributeName":"id","attributeValue":"u1"}
            {"assignments":{"e__0":"a","f__0":"x"},"attributeName":"id","attributeValue":"u1"}
            {"assignments":{"e__0":"b"},"attributeName":"id","attributeValue":"u2"}

            """)
        let found = try await store.documents(for: [.init(attributeName: "id", attributeValue: "u1"),
                                                    .init(attributeName: "id", attributeValue: "u3")])
        #expect(found.map(\.assignments) == [["e__0": "a", "f__0": "x"]])
        try (text + "{\"attributeName\": 3}\n").write(toFile: store.path, atomically: false, encoding: .utf8)
        #expect(throws: StickyBucketFileError.malformedLine(path: store.path, line: 4)) { try store.documentsByKey() }
        #expect(StickyBucketFileError.malformedLine(path: "s.jsonl", line: 4).description.hasPrefix("s.jsonl:4:1: error: "))
    }

    @Test func experimentFilesTakeGrowthBooksStickyKeysWithPositionedErrors() throws {
        let folder = try ExperimentFolder()
        try folder.write("good.yaml", Fixture.experiment("good", "bucketVersion: 3\nminBucketVersion: 2\ndisableStickyBucketing: true"))
        let (set, problems) = folder.load()
        #expect(problems.isEmpty)
        #expect(set.definition(key: "good")?.experiment.stickyBucketing == .init(bucketVersion: 3, minBucketVersion: 2, disabled: true))
        try folder.write("good.yaml", Fixture.experiment("good", "bucketVersion: -1\nminBucketVersion: 2"))
        let messages = folder.load().1.map(\.description)
        #expect(messages.contains { $0.contains("good.yaml:8:16: error: bucketVersion must be 0 or more, not -1") }, "\(messages)")
        #expect(messages.contains { $0.contains("good.yaml:9:19: error: minBucketVersion 2 is above bucketVersion 0") }, "\(messages)")
    }

    @Test func assignWithAStickyFileKeepsTheVariationAfterTheWeightsChange() async throws {
        let folder = try ExperimentFolder()
        let file = try folder.write("e.yaml", Fixture.experiment("e", "weights: [0.5, 0.5]"))
        let sticky = folder.url.appendingPathComponent("sticky.jsonl").path
        let id = Self.ids(in: 0, count: 1, key: "e").first ?? "u0"
        let arguments = ["assign", file, "--experiments", folder.path, "--attributes", "{\"id\":\"\(id)\"}", "--sticky", sticky, "--json"]
        let before = await RemixInProcess.run(arguments)
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.contains("\"stickyBucketUsed\":false"))
        try folder.write("e.yaml", Fixture.experiment("e", "weights: [0, 1]"))
        let after = await RemixInProcess.run(arguments)
        #expect(after.stdout.contains("\"stickyBucketUsed\":true") && after.stdout.contains("\"variation\":\"manual\""), "\(after.stdout)")
        let plain = await RemixInProcess.run(Array(arguments.dropLast(3)) + ["--json"])
        #expect(plain.stdout.contains("\"variation\":\"auto\"") && !plain.stdout.contains("stickyBucketUsed"), "\(plain.stdout)")
        let bad = await RemixInProcess.run(Array(arguments.dropLast(3)) + ["--sticky", "", "--json"])
        #expect(bad.status == 1 && bad.stderr.contains("--sticky is empty"))
    }

    @Test func runWithAStickyFileKeepsTheUsersVariationAndSaysSo() async throws {
        let folder = try ExperimentFolder()
        try folder.write("e.yaml", Fixture.experiment("e", "weights: [0.5, 0.5]"))
        let sticky = folder.url.appendingPathComponent("sticky.jsonl").path
        let id = Self.ids(in: 0, count: 1, key: "e").first ?? "u0"
        let arguments = ["run", "--experiments", folder.path, "--user", id, "--sticky", sticky]
        let first = await RemixInProcess.run(arguments, input: "5\nq\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("experiment e: variation manual → ManualGroupInsertion (assigned)"))
        #expect(first.stdout.contains("stickyBucketUsed=false"))
        try folder.write("e.yaml", Fixture.experiment("e", "weights: [0, 1]"))
        let again = await RemixInProcess.run(arguments, input: "5\nq\n")
        #expect(again.stdout.contains("experiment e: variation manual → ManualGroupInsertion (stickyBucket)"), "\(again.stdout)")
        #expect(again.stdout.contains("stickyBucketUsed=true"))
        let plain = await RemixInProcess.run(Array(arguments.dropLast(2)), input: "5\nq\n")
        #expect(plain.stdout.contains("experiment e: variation auto → AutoGroupInsertion (assigned)"))
        #expect(!plain.stdout.contains("stickyBucketUsed"))
    }
}
