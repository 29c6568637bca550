import RemixExperiments
import Testing

/// The engine's buckets against GrowthBook's hash written out from its definition, for ids of
/// every length (short, past 16 bytes, non-ASCII) and inner hashes of every usual digit count.
@Suite("Assignment hashing")
struct AssignmentHashTests {
    /// FNV-1a 32 over UTF-16 code units, written out plainly as the reference.
    static func fnv(_ text: String, from start: UInt32 = 0x811c_9dc5) -> UInt32 {
        text.utf16.reduce(start) { ($0 ^ UInt32($1)) &* 0x0100_0193 }
    }

    /// GrowthBook's `hash(seed, value, version)` from its definition: version 1 hashes
    /// `value + seed`, version 2 the decimal text of `fnv(seed + value)`.
    static func reference(seed: String, value: String, version: Int) -> Double {
        version == 1
            ? Double(fnv(value + seed) % 1000) / 1000
            : Double(fnv(String(fnv(seed + value))) % 10000) / 10000
    }

    static let ids: [String] = {
        var ids = (0..<20000).map { "user-\($0)" }
        ids += ["a", "12345678", "123456789012345", "1234567890123456", "12345678901234567", "a-much-longer-user-id-of-40-bytes-xxxxxx"]
        ids += ["é", "user-ü-1", "ユーザー", "emoji-😀", "tab\tid"]
        return ids
    }()

    @Test("buckets equal GrowthBook's for short, long and non-ASCII ids, hash versions 1 and 2", arguments: [1, 2])
    func bucketsMatchTheDefinition(version: Int) throws {
        let engine = AssignmentEngine()
        let experiment = Experiment(key: "bench-tablet", variations: ["control", "treatment"], hashVersion: version)
        for id in Self.ids {
            let result = engine.run(experiment, context: AssignmentContext(attributes: ["id": .string(id)]))
            let bucket = try #require(result.bucket, "no bucket for \(id)")
            #expect(bucket == Self.reference(seed: "bench-tablet", value: id, version: version), "id \(id)")
            #expect(bucket == GrowthBookHash.hash(seed: "bench-tablet", value: id, version: version))
            #expect(result.hashValue == id)
        }
        // Version 2 writes the inner hash in decimal: these ids give inner hashes of 7 to 10 digits.
        let lengths = Set(Self.ids.map { String(Self.fnv("bench-tablet" + $0)).count })
        #expect(lengths.isSuperset(of: [7, 8, 9, 10]), "digit counts covered: \(lengths.sorted())")
    }

    @Test("namespaces take the users GrowthBook's definition puts in the slice, short ids and long")
    func namespacesMatchTheDefinition() {
        let engine = AssignmentEngine()
        let namespace = Namespace(id: "checkout", start: 0.2, end: 0.55)
        let experiment = Experiment(key: "ns", variations: ["a", "b"], namespace: namespace, hashVersion: 2)
        var inside = 0
        for id in Self.ids {
            let n = Double(Self.fnv(id + "__checkout") % 1000) / 1000
            let result = engine.run(experiment, context: AssignmentContext(attributes: ["id": .string(id)]))
            #expect(result.inExperiment == (n >= 0.2 && n < 0.55), "id \(id)")
            #expect(result.reason == (result.inExperiment ? .assigned : .namespace))
            #expect(result.hashValue == id)
            inside += result.inExperiment ? 1 : 0
        }
        #expect(inside > Self.ids.count / 4 && inside < Self.ids.count / 2)
    }
}
