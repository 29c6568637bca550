import Foundation
import RemixKit
@testable import RemixSimulation
import RemixTestSupport
import Testing

/// What the population format says beyond uniform ranges, for fitted populations: skewed
/// (log-normal) times written `{median, p90}` and visits per user written `{COUNT: WEIGHT}` —
/// read with positioned problems, drawn as written, and absent from the logs of files without them.
@Suite struct PopulationTimeFormatTests {
    /// The shipped population with the decisive seller's `key:` line replaced by `line` (or added).
    static func population(replacing key: String, with line: String) throws -> String {
        let text = try String(contentsOfFile: Fixture.populationPath, encoding: .utf8)
        let persona = try #require(text.range(of: "  - name: decisive seller"))
        let personaEnd = try #require(text[persona.upperBound...].firstIndex(of: "\n"))
        if let old = text.range(of: "    \(key): ", range: personaEnd..<text.endIndex),
           let end = text[old.upperBound...].firstIndex(of: "\n") {
            return String(text[..<old.lowerBound]) + "    \(line)" + String(text[end...])
        }
        return String(text[...personaEnd]) + "    \(line)\n" + String(text[text.index(after: personaEnd)...])
    }

    @Test func aLogNormalTimeIsDrawnWithItsMedianAndNinetiethPercentile() {
        let time = Population.Seconds(median: 2, p90: 5, limit: 3600)
        var random = SeededGenerator(seed: 3)
        let drawn: [Double] = (0..<20_000).map { (_: Int) -> Double in Double(time.sampleMilliseconds(&random)) / 1000 }
        let samples: [Double] = drawn.sorted()
        #expect(abs(samples[10_000] - 2) < 0.06, "median \(samples[10_000])")
        #expect(abs(samples[18_000] - 5) < 0.2, "90th percentile \(samples[18_000])")
        #expect(samples.first! >= 0 && samples.last! <= time.max)
        // Skewed: the mean lies above the median, as people's times do.
        let mean: Double = samples.reduce(0, +) / Double(samples.count)
        #expect(mean > 2.3)
    }

    @Test func skewedTimesAndWeightedVisitsAreRead() throws {
        let think = try Self.population(replacing: "thinkSeconds", with: "thinkSeconds: {median: 1.5, p90: 4}")
        let (population, problems) = PopulationFile.parse(think, file: "p.yaml")
        #expect(problems.isEmpty, "\(problems)")
        let persona = try #require(population?.personas.first)
        #expect(persona.think.shape == .logNormal(median: 1.5, p90: 4))

        let visits = try Self.population(replacing: "visits", with: "visits: {1: 0.5, 3: 0.5}")
        let (weighted, visitProblems) = PopulationFile.parse(visits, file: "p.yaml")
        #expect(visitProblems.isEmpty, "\(visitProblems)")
        let seller = try #require(weighted?.personas.first)
        #expect(seller.visits == 1...3 && seller.visitWeights == [0.5, 0, 0.5])
    }

    @Test(arguments: [
        ("thinkSeconds", "thinkSeconds: {median: 5, p90: 2}", "needs 0 < median < p90"),
        ("thinkSeconds", "thinkSeconds: {median: 0, p90: 2}", "needs 0 < median < p90"),
        ("thinkSeconds", "thinkSeconds: {median: 1, p95: 2}", "p95"),
        ("typingSecondsPerCharacter", "typingSecondsPerCharacter: {median: 0.2}", "p90"),
        ("visits", "visits: {0: 1}", "is not a count from 1 to"),
        ("visits", "visits: {2: -1}", "weight of 2 visits"),
        ("visits", "visits: {1: 0, 2: 0}", "needs a count with a weight above 0"),
    ])
    func badTimesAndVisitsArePositionedAndSayWhatIsExpected(key: String, line: String, message: String) throws {
        let yaml = try Self.population(replacing: key, with: line)
        let (population, problems) = PopulationFile.parse(yaml, file: "p.yaml")
        #expect(population == nil)
        let at = try #require(yaml.range(of: "    \(line)\n"))
        let lineNumber = yaml[..<at.lowerBound].filter { $0 == "\n" }.count + 1
        let text = problems.map(\.description)
        #expect(text.contains { $0.hasPrefix("p.yaml:\(lineNumber):") && $0.contains(message) }, "\(line): \(text)")
    }

    /// Sessions per user follow the weights: with `{1: 0.5, 3: 0.5}` no decisive seller has two
    /// sessions, and about half have three.
    @Test func weightedVisitsAreDrawnAsWritten() throws {
        let folder = try TemporaryFolder()
        let text = try Self.population(replacing: "visits", with: "visits: {1: 0.5, 3: 0.5}")
        try Fixture.run(sessions: 1200, population: try Fixture.population(yaml: text), to: folder.path("log.jsonl"))
        var sessions: [String: Int] = [:]
        for line in try readLog(folder.path("log.jsonl")) where line.type == "session_started" && line.string("persona") == "decisive seller" {
            sessions[line.string("user") ?? "", default: 0] += 1
        }
        let counts = Dictionary(grouping: sessions.values, by: { $0 }).mapValues(\.count)
        #expect(Set(counts.keys) == [1, 3], "\(counts)")
        let share = Double(counts[3] ?? 0) / Double(sessions.count)
        #expect(abs(share - 0.5) < 0.08, "\(counts)")
    }
}
