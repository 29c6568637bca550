@testable import RemixSimulation
import Testing

/// A block's tally counts sessions as the summary does, whether its lists stay short or are
/// folded into the summary on the way.
@Suite struct SessionTallyTests {
    /// Session `index` of a made-up run: `names` distinct intents, screens and variations, cycled.
    static func session(_ index: Int, names: Int) -> (results: [IntentResult], end: String, seen: [String],
                                                     exposures: [(experiment: String, variation: String)]) {
        let name = "n\(index % names)"
        let outcome = IntentOutcome.allCases[index % IntentOutcome.allCases.count]
        let results = index % 7 == 0 ? [] : [IntentResult(intent: "intent-" + name, outcome: outcome, screen: "screen-" + name),
                                               IntentResult(intent: "publish", outcome: .achieved, screen: "adverts")]
        return (results, "end-" + name, ["adverts", "screen-" + name],
                index % 3 == 0 ? [] : [("experiment-\(index % 2)", "variation-" + name)])
    }

    /// What the tally must give: every count worked out from the sessions directly.
    static func expected(_ sessions: Range<Int>, names: Int) -> SimulationSummary {
        var summary = SimulationSummary()
        for index in sessions {
            let session = session(index, names: names)
            summary.sessions += 1
            summary.events += index
            if session.results.isEmpty { summary.sessionsWithoutIntent += 1 }
            for result in session.results {
                summary.intents[result.intent, default: .init()].tried += 1
                summary.intents[result.intent, default: .init()].outcomes[result.outcome, default: 0] += 1
                if result.outcome != .achieved {
                    summary.intents[result.intent, default: .init()].screens[result.outcome, default: [:]][result.screen, default: 0] += 1
                }
            }
            summary.endScreens[session.end, default: 0] += 1
            summary.screensSeen.formUnion(session.seen)
            let achieved = session.results.last?.outcome == .achieved
            for exposure in session.exposures {
                summary.variations[exposure.experiment, default: [:]][exposure.variation, default: .init()].exposed += 1
                if achieved { summary.variations[exposure.experiment, default: [:]][exposure.variation, default: .init()].achieved += 1 }
            }
        }
        return summary
    }

    static func tally(_ sessions: Range<Int>, names: Int) -> SimulationSummary {
        var tally = SessionTally()
        for index in sessions {
            let session = session(index, names: names)
            tally.count(session: session.results, endScreen: session.end, screensSeen: session.seen,
                        exposures: session.exposures, events: index)
        }
        return tally.summary()
    }

    static func expectSame(_ found: SimulationSummary, _ expected: SimulationSummary) {
        #expect(found.sessions == expected.sessions)
        #expect(found.events == expected.events)
        #expect(found.sessionsWithoutIntent == expected.sessionsWithoutIntent)
        #expect(found.intents == expected.intents)
        #expect(found.endScreens == expected.endScreens)
        #expect(found.screensSeen == expected.screensSeen)
        #expect(found.variations == expected.variations)
    }

    @Test func aFewNamesStayInTheListsAndCountAsTheSummaryDoes() {
        Self.expectSame(Self.tally(0..<500, names: 5), Self.expected(0..<500, names: 5))
    }

    @Test func manyNamesAreFoldedOnTheWayAndStillCountTheSame() {
        let names = 3 * SessionTally.foldLimit
        let found = Self.tally(0..<2_000, names: names)
        Self.expectSame(found, Self.expected(0..<2_000, names: names))
        #expect(found.endScreens.count == names)
    }

    @Test func usersAndStickyDocumentsPassThrough() {
        var tally = SessionTally()
        tally.users = 3
        #expect(tally.summary().users == 3)
        #expect(tally.summary().sessions == 0)
    }
}
