import Foundation
import RemixApp
import RemixTestSupport
import Testing

/// Issue 52, item 4: a bandit's `exploreHours`/`updateHours` and a rollout's `stepHours` are at
/// least one minute and finite — in `remix validate` and in every command that loads experiments,
/// each at the value's file:line:column.
@Suite struct ControllerIntervalTests {
    static let message = "must be at least one minute (1/60 hour = 0.0167) and at most a year (8784 hours), not "

    @Test func validateRefusesABanditIntervalBelowAMinuteOrNotFinite() async throws {
        let tiny = try await BanditReportTests.problems("type: bandit\nbandit: {metric: published, exploreHours: 1, updateHours: 1e-300}\n")
        #expect(tiny == ["b.yaml:9:59: error: updateHours \(Self.message)1e-300"])
        let explore = try await BanditReportTests.problems("type: bandit\nbandit: {metric: published, exploreHours: 0.01, updateHours: 1}\n")
        #expect(explore == ["b.yaml:9:43: error: exploreHours \(Self.message)0.01"])
        let infinite = try await BanditReportTests.problems("type: bandit\nbandit: {metric: published, exploreHours: .inf, updateHours: 1}\n")
        #expect(infinite == ["b.yaml:9:43: error: exploreHours \(Self.message)inf"])
        let minute = try await BanditReportTests.problems(
            "type: bandit\nbandit: {metric: published, exploreHours: 0.016666666666666666, updateHours: 0.0167}\n")
        #expect(minute == [], "one minute is the floor, and allowed")
    }

    @Test func validateRefusesAStepBelowAMinute() async throws {
        let problems = try await RolloutValidationTests.problems(
            "rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 1]\n  stepHours: 1e-300\n  guardrails: [cancelled]\n")
        #expect(problems == ["auto-rollout.yaml:8:14: error: stepHours \(Self.message)1e-300"])
        let nan = try await RolloutValidationTests.problems(
            "rollout:\n  feature: AutoGroupInsertion\n  steps: [0.5, 1]\n  stepHours: .nan\n  guardrails: [cancelled]\n")
        #expect(nan == ["auto-rollout.yaml:8:14: error: stepHours \(Self.message)nan"])
    }

    /// A bandit updating every 1e-300 hours, as simulate, analyze and export load it.
    static let tinyBandit = BanditSimulationTests.bandit.replacingOccurrences(of: "updateHours: 0.25", with: "updateHours: 1e-300")

    @Test func simulateAndExportRefuseItAndAnalyzeLeavesItOutAtItsPosition() async throws {
        #expect(Self.tinyBandit.contains("updateHours: 1e-300"))
        let fixture = try RolloutFixture(rollout: Self.tinyBandit)
        defer { fixture.remove() }
        let expected = "auto-rollout.yaml:\(Self.line(of: "updateHours", in: Self.tinyBandit)):16: error: updateHours \(Self.message)1e-300"
        do {
            _ = try await fixture.simulate(users: 10)
            Issue.record("simulate loaded the bandit")
        } catch {
            #expect(String(describing: error).contains(expected), "\(error)")
        }
        try "{\"ts\":\"2026-11-23T09:00:00.000Z\",\"type\":\"session_started\",\"session\":\"s\",\"user\":\"u\"}\n"
            .write(toFile: fixture.log, atomically: true, encoding: .utf8)
        // Analyze leaves a file with an error out, saying so with the same message.
        var analyze = Analyze(logs: [fixture.log])
        analyze.experiments = fixture.folder.path
        let notices = NoticeLog()
        _ = try await analyze.run(notices.context())
        #expect(notices.text.contains(expected), "\(notices.text)")
        var export = ExportGrowthBook()
        export.folder = fixture.folder.path
        do {
            _ = try await export.run(NoticeLog().context())
            Issue.record("export loaded the bandit")
        } catch {
            #expect(String(describing: error).contains(expected), "\(error)")
        }
    }

    /// The 1-based line of `text` that starts with `key:` after its indentation.
    static func line(of key: String, in text: String) -> Int {
        (text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix(key + ":")
        } ?? -1) + 1
    }
}
