import Foundation
import RemixKit

/// Random Marketplace populations to fit against — the truth a fit must recover: 2–4 personas with
/// random intent mixes, chances to give up per screen, think and typing ranges, retries, returning
/// users, and random service rates. The intents and their values are the shipped population's.
/// Used by the fit's tests and by `remix-fit-truths`.
package struct TruthPopulation: Sendable {
    package let seed: UInt64
    /// The population file's text.
    package let text: String

    package init(seed: UInt64) {
        self.seed = seed
        var random = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D | 1)
        func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * Double(random.next() >> 11) * 0x1.0p-53 }
        func number(_ value: Double) -> String { String(format: "%.3f", value) }
        var lines = [
            "app: marketplace", "start: 2026-11-23T09:00:00Z", "sessionGapSeconds: 2",
            "attributes:", "  platform: {phone: \(number(uniform(0.5, 0.8))), tablet: \(number(uniform(0.2, 0.5)))}",
            "services:", "  publishFailureRate: \(number(uniform(0, 0.08)))",
        ]
        let latency = uniform(0.5, 2)
        lines.append("  recommendationLatencySeconds: [\(number(latency)), \(number(latency + uniform(0.3, 2)))]")
        lines += Self.intents
        lines.append("personas:")
        let count = 2 + Int(random.next() % 3)
        for index in 0..<count {
            let think = uniform(0.5, 2), typing = uniform(0.08, 0.3)
            lines += [
                "  - name: truth \(index + 1)",
                "    weight: \(number(uniform(0.2, 1)))",
                "    intents: {browse: \(number(uniform(0.05, 0.7))), filter: \(number(uniform(0.02, 0.4))), "
                    + "publish: \(number(uniform(0.3, 0.95)))}",
                "    abandon: {groups: \(number(uniform(0, 0.3))), filter: \(number(uniform(0, 0.3))), "
                    + "title: \(number(uniform(0, 0.3))), item: \(number(uniform(0, 0.2)))}",
                "    thinkSeconds: [\(number(think)), \(number(think + uniform(0.5, 4)))]",
                "    typingSecondsPerCharacter: [\(number(typing)), \(number(typing + uniform(0.05, 0.25)))]",
                "    retryAfterError: \(number(uniform(0.2, 0.95)))",
            ]
            if random.next() % 2 == 0 {
                let days = uniform(0.5, 3)
                lines += ["    visits: [1, \(2 + random.next() % 3)]", "    daysBetweenVisits: [\(number(days)), \(number(days + uniform(1, 6)))]"]
            }
        }
        text = lines.joined(separator: "\n") + "\n"
    }

    /// The shipped population's intents: browse, filter, publish with its titles and paths.
    static let intents: [String] = {
        let shipped = (try? String(contentsOf: Repository.root.appendingPathComponent("experiments/population.yaml"), encoding: .utf8)) ?? ""
        let lines = shipped.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "intents:"), let end = lines.firstIndex(of: "personas:") else { return [] }
        return Array(lines[start..<end]).filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("#") }
    }()
}

/// The experiment files the fit's proofs use.
package enum TruthExperiment {
    /// The insertion flows by variation key.
    package static let flows = ["manual": "ManualGroupInsertion", "auto": "AutoGroupInsertion", "alternating": "AlternatingInsertion"]

    /// One experiment on Marketplace's insertion slot between `variations` (keys of ``flows``),
    /// equal weights, `advert_published` its primary metric.
    package static func insertionFlow(_ variations: [String]) -> String {
        let weights = variations.map { _ in String(format: "%.4f", 1 / Double(variations.count)) }
        return """
            key: insertion-flow
            app: marketplace
            slot: insertion
            status: running
            hashVersion: 2
            hashAttribute: id
            variations:
            \(variations.map { "  - {key: \($0), feature: \(flows[$0] ?? $0)}" }.joined(separator: "\n"))
            weights: [\(weights.joined(separator: ", "))]
            coverage: 1
            metrics:
              primary: advert_published

            """
    }
}
