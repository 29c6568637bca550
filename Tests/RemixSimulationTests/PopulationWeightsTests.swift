import Foundation
import RemixKit
@testable import RemixSimulation
import RemixTestSupport
import Testing

/// Weights are relative however large or small they are written: three of 10³⁰⁸ split evenly (their
/// sum overflowed, and every draw went to the last), subnormal ones too (they split unevenly).
@Suite struct PopulationWeightsTests {
    /// How often each index of `weights` is drawn in `draws` draws.
    static func counts(_ weights: [Double], draws: Int = 3000) -> [Int] {
        var random = SeededGenerator(seed: 7)
        var counts = Array(repeating: 0, count: weights.count)
        let draw = WeightedDraw(weights)
        for _ in 0..<draws { counts[draw.pick(&random)] += 1 }
        return counts
    }

    // Subnormals written exactly (0x1p-1060 ≈ 1e-319), so the literals lose nothing.
    @Test(arguments: [[1e308, 1e308, 1e308], [0x1p-1060, 0x1p-1060, 0x1p-1060], [1, 1, 1],
                      Array(repeating: Double.leastNonzeroMagnitude, count: 3), Array(repeating: Double.greatestFiniteMagnitude, count: 3)])
    func equalWeightsAreDrawnEquallyAtAnyScale(weights: [Double]) {
        let counts = Self.counts(weights)
        #expect(counts.allSatisfy { (900...1100).contains($0) }, "\(weights): \(counts)")
    }

    /// A distribution whose weights change draws by the new ones (its prepared draw follows them).
    @Test func aDistributionDrawsByItsWeightsAsTheyAre() {
        var distribution = Population.Distribution(values: ["a", "b"], weights: [1, 0])
        var random = SeededGenerator(seed: 3)
        #expect((0..<200).allSatisfy { _ in distribution.sample(&random) == "a" })
        distribution.weights = [0, 2]
        #expect((0..<200).allSatisfy { _ in distribution.sample(&random) == "b" })
        #expect(distribution == Population.Distribution(values: ["a", "b"], weights: [0, 2]))
    }

    /// Scaling by a power of two changes no draw: the same seed picks the same indices as before
    /// for weights as population files write them, at any power-of-two scale.
    @Test func drawsAreTheSameAsUnscaledWeightsGave() {
        let weights = [0.45, 0.3, 0.25, 0, 1e-9]
        var random = SeededGenerator(seed: 11)
        var unscaled: [Int] = []
        for _ in 0..<2000 {
            let total = weights.reduce(0, +)
            var point = Double(random.next() >> 11) * 0x1.0p-53 * total
            var chosen = weights.count - 1
            for (index, weight) in weights.enumerated() {
                if point < weight { chosen = index; break }
                point -= weight
            }
            unscaled.append(chosen)
        }
        for scale in [1.0, 0x1p-1000, 0x1p1000] {
            var random = SeededGenerator(seed: 11)
            let draw = WeightedDraw(weights.map { $0 * scale })
            let picks = (0..<2000).map { _ in draw.pick(&random) }
            #expect(picks == unscaled, "scale \(scale)")
        }
    }

    /// End to end: personas and attribute values of weight 10³⁰⁸ share the users.
    @Test func hugePersonaAndAttributeWeightsShareTheUsers() throws {
        var text = try String(contentsOfFile: Fixture.populationPath, encoding: .utf8)
        for weight in ["0.45", "0.3", "0.25"] {
            text = text.replacingOccurrences(of: "    weight: \(weight)\n", with: "    weight: 1e308\n")
        }
        text = text.replacingOccurrences(of: "  country: {GB: 0.3, IE: 0.05, DE: 0.25, FR: 0.2, US: 0.2}",
                                         with: "  country: {GB: 1e308, IE: 1e308, DE: 1e308, FR: 1e308, US: 1e308}")
        #expect(text.components(separatedBy: "weight: 1e308").count == 4 && text.contains("GB: 1e308"))
        let folder = try TemporaryFolder()
        let log = folder.path("events.jsonl")
        try Fixture.run(sessions: 600, seed: 3, jobs: 2, population: try Fixture.population(yaml: text), to: log)
        let starts = try readLog(log).filter { $0.type == "session_started" }
        let personas = Dictionary(grouping: starts, by: { $0.string("persona") ?? "" }).mapValues(\.count)
        let countries = Dictionary(grouping: starts, by: { ($0["attributes"] as? [String: Any])?["country"] as? String ?? "" })
            .mapValues(\.count)
        #expect(personas.count == 3 && personas.values.allSatisfy { $0 > starts.count / 5 }, "\(personas)")
        #expect(countries.count == 5 && countries.values.allSatisfy { $0 > starts.count / 10 }, "\(countries)")
    }
}
