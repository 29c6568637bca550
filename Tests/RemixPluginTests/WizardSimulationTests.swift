import Foundation
import RemixTestSupport
import Testing

/// The second example plugin is simulated meaningfully with no change to the simulator: its
/// conversions follow the persona's abandon chances for its screens, as docs/simulation.md says.
@Suite struct WizardSimulationTests {
    /// A population whose one persona publishes, leaving each step of `screen` with `chance`.
    static func population(abandoning screen: String, chance: Double) -> String {
        """
        app: marketplace
        attributes: {platform: {phone: 0.5, tablet: 0.5}}
        intents:
          publish:
            start: {press: primary}
            success: advert_published
            values:
              - {title: "Mountain bike, 29 inch wheels", path: [Bicycles, Off road bikes, Mountain bikes]}
              - {title: "Racing bike, Shimano 105", path: [Bicycles, Racers]}
              - {title: "Toyota Yaris hybrid", path: [Cars]}
        personas:
          - {name: seller, intents: {publish: 1}, abandon: {\(screen): \(chance)}}
        """
    }

    /// Published share per variation of a run of the wizard experiment alone (no namespace, all users).
    static func run(_ population: String) async throws -> [String: Double] {
        let folder = try TemporaryFolder()
        let wizard = try String(contentsOf: Build.root.appendingPathComponent("experiments/plugins/wizard-insertion.yaml"), encoding: .utf8)
        try folder.write("experiments/wizard-insertion.yaml",
                         wizard.split(separator: "\n").filter { !$0.hasPrefix("namespace:") }.joined(separator: "\n"))
        let populationFile = try folder.write("population.yaml", population)
        let log = folder.path("events.jsonl")
        let result = await Remix.run(["simulate", "--plugins", Build.wizardPlugin, "--experiments", folder.path("experiments"),
                                      "--population", populationFile, "--users", "600", "--no-report", "--log", log])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let pattern = #/^  (manual|wizard): (\d+) exposed sessions, intent achieved in (\d+) /#
        var rates: [String: Double] = [:]
        for line in result.stdout.split(separator: "\n") {
            guard let match = try? pattern.prefixMatch(in: line), let exposed = Double(match.2), let achieved = Double(match.3) else { continue }
            rates[String(match.1)] = achieved / exposed
        }
        #expect(rates.count == 2, "\(result.stdout)")
        return rates
    }

    @Test func wizardConversionsFollowTheAbandonChanceOfItsScreens() async throws {
        let patient = try await Self.run(Self.population(abandoning: "wizard-group", chance: 0))
        #expect(patient["wizard"] == 1 && patient["manual"] == 1, "\(patient)")
        // Leaving each group level with chance 0.3: paths of one to three levels publish 0.7–0.34 of the time.
        let groupAverse = try await Self.run(Self.population(abandoning: "wizard-group", chance: 0.3))
        #expect(groupAverse["manual"] == 1)
        let wizard = try #require(groupAverse["wizard"])
        #expect(wizard > 0.35 && wizard < 0.75, "wizard \(wizard)")
        // The review step is one screen: leaving it with chance 0.5 halves the wizard's conversions.
        let reviewAverse = try await Self.run(Self.population(abandoning: "wizard-review", chance: 0.5))
        #expect(reviewAverse["manual"] == 1)
        let review = try #require(reviewAverse["wizard"])
        #expect(review > 0.38 && review < 0.62, "wizard \(review)")
    }
}
