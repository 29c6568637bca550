import RemixBuiltIns
import RemixEventLog
import RemixKit
@testable import RemixSimulation
import Testing

/// A session's events kept as values (for a store of rows) say what its lines say: the lines a
/// log writes straight from the decisions and the session (exposures, `session_started`,
/// `session_ended`) are the lines those values encode to.
@Suite struct CapturedEventsTests {
    @Test func capturedEventsEncodeToTheLinesWrittenStraight() throws {
        let registry = try BuiltInModules.registry()
        let population = try Fixture.population(yaml: try ArrivalTests.population(arrivals: #"[{route: "adverts > *", share: 0.4}]"#))
        let plan = SimulationPlan(
            app: population.app, users: 300, seed: 7, jobs: 1, shard: try #require(Shard(spec: "1/1")),
            population: population, experiments: try Fixture.experiments(registry: registry), sources: [])
        let simulator = SessionSimulator(plan: plan, registry: registry)
        var straight = JSONLinesEncoder(), fromValues = JSONLinesEncoder()
        var exposures = 0, arrivals = 0
        for index in 0..<plan.users {
            var none: [LoggedEvent]?
            var captured: [LoggedEvent]? = []
            var tally = SessionTally(), other = SessionTally()
            var scratch = JSONLinesEncoder()
            try simulator.simulate(index, into: &straight, events: &none, summary: &tally)
            try simulator.simulate(index, into: &scratch, events: &captured, summary: &other)
            for event in try #require(captured) {
                fromValues.encode(event)
                if event.type == "exposure" { exposures += 1 }
                if event.type == "session_started", event.fields.contains(where: { $0.name == "arrival" }) { arrivals += 1 }
            }
        }
        #expect(exposures > 100 && arrivals > 100, "exposures \(exposures), arrivals \(arrivals)")
        #expect(straight.lineCount == fromValues.lineCount)
        #expect(straight.bytes == fromValues.bytes)
    }

    /// A block's sessions hand their lists on (emptied, their room kept): the lines and the
    /// summary are those of sessions that each start with new lists.
    @Test func listsHandedFromSessionToSessionChangeNothing() throws {
        let registry = try BuiltInModules.registry()
        let population = try Fixture.population()
        let plan = SimulationPlan(
            app: population.app, users: 400, seed: 9, jobs: 1, shard: try #require(Shard(spec: "1/1")),
            population: population, experiments: try Fixture.experiments(registry: registry), sources: [])
        let simulator = SessionSimulator(plan: plan, registry: registry)
        var handedOn = JSONLinesEncoder(), fresh = JSONLinesEncoder()
        var none: [LoggedEvent]?
        var handedOnTally = SessionTally(), freshTally = SessionTally()
        var lists = SessionLists()
        for index in 0..<plan.users {
            try simulator.simulate(index, into: &handedOn, events: &none, summary: &handedOnTally, lists: &lists)
            try simulator.simulate(index, into: &fresh, events: &none, summary: &freshTally)
            #expect(lists.plan.isEmpty && lists.results.isEmpty && lists.screensSeen.isEmpty && lists.exposures.isEmpty
                    && lists.exposedFeatures.isEmpty)
        }
        #expect(lists.results.capacity > 0 && lists.screensSeen.capacity > 0, "the room is kept")
        #expect(handedOn.bytes == fresh.bytes)
        #expect(handedOnTally.summary().text(variationOrder: [:], intentOrder: []) == freshTally.summary().text(variationOrder: [:], intentOrder: []))
    }
}
