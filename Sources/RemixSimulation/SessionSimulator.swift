import Foundation
import RemixEventLog
import RemixExperiments
import RemixHost
import RemixKit

/// Simulates the users of a plan: draws each user, runs their sessions through the app with the
/// experiments, and encodes the events. A user depends only on the plan and their index.
struct SessionSimulator: Sendable {
    let plan: SimulationPlan
    let registry: FeatureRegistry
    private let app: AppDefinition?
    /// The population's service behaviour over the app's declared parameters, resolved once.
    private let services: ServiceValues
    /// The population and each persona, shared by every session instead of copied into it.
    private let population: SharedPopulation
    private let personas: [SharedPersona]
    /// The personas' weights, prepared for the draw every user makes.
    private let personaDraw: WeightedDraw
    /// Whether some persona arrives through routes: then every `session_started` says `arrival`.
    private let hasArrivals: Bool
    /// What user and session ids start with (`u<seed>-`, `s<seed>-`), made once for every user.
    private let userPrefix: String
    private let sessionPrefix: String

    init(plan: SimulationPlan, registry: FeatureRegistry) {
        self.plan = plan
        self.registry = registry
        app = try? registry.app(named: plan.app)
        services = ServiceValues(
            specs: app?.serviceParameters ?? [],
            values: Dictionary(plan.population.services.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }))
        population = SharedPopulation(plan.population)
        personas = plan.population.personas.map(SharedPersona.init)
        personaDraw = WeightedDraw(plan.population.personas.map(\.weight))
        hasArrivals = plan.population.personas.contains { !$0.arrivals.isEmpty }
        userPrefix = "u" + String(plan.seed) + "-"
        sessionPrefix = "s" + String(plan.seed) + "-"
    }

    /// Simulates user `index` — every session they make, or with `window` those that start in it —
    /// appending the lines to `encoder` and counting into `summary`. Returns how many of the user's
    /// sessions start after the window. A user's visit times and session seeds come from their own
    /// random stream before any session runs, so a window changes which sessions run, never what
    /// happens in them.
    @discardableResult
    func simulate(_ index: Int, within window: Range<Int64>? = nil, into encoder: inout JSONLinesEncoder,
                  events: inout [LoggedEvent]?, summary: inout SessionTally) throws -> Int {
        var lists = SessionLists()
        return try simulate(index, within: window, into: &encoder, events: &events, summary: &summary, lists: &lists)
    }

    /// ``simulate(_:within:into:events:summary:)``, the sessions' lists taken from and handed back
    /// to `lists` (a block's sessions pass theirs on).
    @discardableResult
    func simulate(_ index: Int, within window: Range<Int64>? = nil, into encoder: inout JSONLinesEncoder,
                  events: inout [LoggedEvent]?, summary: inout SessionTally, lists: inout SessionLists) throws -> Int {
        // Concatenated rather than interpolated (interpolation formats each number through its
        // `description` as an existential), onto prefixes made once for the run.
        let indexText = String(index)
        let user = userPrefix + indexText
        // The attributes as a list, not a dictionary: the session's assignment context indexes
        // them itself, and the user's dictionary (hashing, then freeing a table) cost more than
        // anything read from it.
        // In the storage the block's users before this one used, handed back at the end.
        var attributes: [Attribute] = []
        swap(&attributes, &lists.attributes)
        defer {
            attributes.emptyKeepingStorage()
            swap(&attributes, &lists.attributes)
        }
        let drawn = draw(index, user: user, attributes: &attributes)
        var random = drawn.random
        let shared = drawn.persona
        var start = firstStart(of: index)
        if window == nil { summary.users += 1 }
        var later = 0
        // Sticky bucketing: the user's documents, carried from session to session.
        var sticky = plan.stickyBuckets.map { $0.buckets(for: AssignmentContext(attributeList: attributes)) }
        for visit in 1...drawn.visits {
            let seed = Self.nextVisit(visit, persona: shared.value, start: &start, random: &random)
            if let window {
                guard start < window.upperBound else { later += 1; continue }
                guard start >= window.lowerBound else { continue }
                if visit == 1 { summary.users += 1 }
            }
            let session = sessionPrefix + indexText
            let visitor = Visitor(user: user, session: visit == 1 ? session : session + "-" + String(visit),
                                  visit: visit, persona: shared, attributes: attributes,
                                  start: start)
            try simulate(visitor, seed: seed, into: &encoder, events: &events, summary: &summary, sticky: &sticky, lists: &lists)
        }
        if let sticky { summary.stickyDocuments += sticky.changedDocuments }
        return later
    }

    /// The start times (ms) of user `index`'s sessions, in visit order, drawn from the user's own
    /// random stream exactly as ``simulate(_:within:into:events:summary:lists:)`` draws them.
    func visitStarts(of index: Int, attributes: inout [Attribute]) -> [Int64] {
        let drawn = draw(index, user: userPrefix + String(index), attributes: &attributes)
        attributes.emptyKeepingStorage()
        var random = drawn.random
        var start = firstStart(of: index)
        return (1...drawn.visits).map { visit in
            _ = Self.nextVisit(visit, persona: drawn.persona.value, start: &start, random: &random)
            return start
        }
    }

    /// User `index`'s first draws: the persona, the attributes (appended to `attributes`, `id`
    /// first) and the number of visits, with the stream left where the visits' draws begin.
    private func draw(_ index: Int, user: String,
                      attributes: inout [Attribute]) -> (random: SeededGenerator, persona: SharedPersona, visits: Int) {
        let population = plan.population
        var random = SeededGenerator(seed: Self.mix(plan.seed, UInt64(index)))
        let shared = personas[personaDraw.pick(&random)]
        let persona = shared.value
        attributes.reserveCapacity(population.attributes.count + 1)
        attributes.append(Attribute("id", .string(user)))
        for (name, distribution) in population.attributes {
            attributes.append(Attribute(name, .string(distribution.sample(&random))))
        }
        let visits: Int
        if let draw = shared.visitDraw {
            visits = persona.visits.lowerBound + draw.pick(&random)
        } else {
            visits = persona.visits.lowerBound == persona.visits.upperBound ? persona.visits.lowerBound
                : persona.visits.lowerBound + Int(random.next() % UInt64(persona.visits.count))
        }
        return (random, shared, visits)
    }

    /// When user `index`'s first session starts.
    private func firstStart(of index: Int) -> Int64 {
        plan.population.startMilliseconds + Int64(index) * plan.population.sessionGapMilliseconds
    }

    /// Moves `start` to visit `visit`'s start (the first stays) and draws its session's seed.
    private static func nextVisit(_ visit: Int, persona: Population.Persona, start: inout Int64, random: inout SeededGenerator) -> UInt64 {
        if visit > 1 { start += persona.daysBetweenVisits.sampleMilliseconds(&random) * 86_400 }
        return random.next()
    }

    /// Who is visiting: the user, which of their sessions this is, and when it starts.
    private struct Visitor {
        let user: String
        let session: String
        let visit: Int
        let persona: SharedPersona
        /// Of attributes with one name, the last counts. All are strings (drawn from the
        /// population's distributions).
        let attributes: [Attribute]
        let start: Int64
    }

    private func simulate(_ visitor: Visitor, seed: UInt64, into encoder: inout JSONLinesEncoder,
                          events: inout [LoggedEvent]?, summary: inout SessionTally, sticky: inout StickyBuckets?,
                          lists: inout SessionLists) throws {
        var random = SeededGenerator(seed: seed)
        let clock = VirtualClock()
        // Move the buffer into the session's log (and back at the end) so it is never shared,
        // which would copy it on the next append.
        var owned = JSONLinesEncoder(capacity: 0)
        swap(&owned, &encoder)
        let log = SessionLog(encoder: consume owned, session: visitor.session, user: visitor.user, start: visitor.start,
                             capturing: events != nil, clock: clock, lists: &lists)
        defer {
            encoder = log.finish()
            if let captured = log.events { events?.append(contentsOf: captured) }
        }
        // Only a persona with arrivals draws one, and only a population with arrivals says where
        // each session arrived, so other logs stay as they were.
        let arrival = Self.arrival(visitor.persona.value.arrivals, &random)
        let attributes = visitor.attributes
        log.write("session_started") { field in
            field("app", .string(plan.app))
            field("persona", .string(visitor.persona.value.name))
            field("visit", .int(visitor.visit))
            // Every attribute here is a string (see `Visitor.attributes`).
            field.object("attributes", count: attributes.count) { index in
                guard case .string(let value) = attributes[index].value else { return (attributes[index].name, "") }
                return (attributes[index].name, value)
            }
            if hasArrivals { field("arrival", .string(arrival?.route.description ?? Self.startArrival)) }
        }
        guard let app else { _ = try registry.app(named: plan.app); return }
        let platform = visitor.attributes.last { $0.name == "platform" }?.value.stringValue
            .flatMap { app.platforms.contains($0) ? $0 : nil }
        let seeds = (session: random.next(), services: random.next())
        let (session, chooser) = try makeSession(app, for: visitor, platform: platform, clock: clock, seeds: seeds, events: log,
                                                 exposures: log, sticky: sticky)
        let stickyAtStart = sticky
        defer { sticky = chooser.stickyBuckets }
        session.window.addChangeObserver { log.record($0, screen: $1, in: $2) }
        let simulated = SimulatedUser(session: session, persona: visitor.persona, population: population, log: log,
                                      random: SeededGenerator(seed: random.next()), lists: &lists)
        var home: String?
        if let arrival {
            session.start()
            home = session.window.frontPanel?.content.name ?? ""
            do {
                // A twin of this session that logs nowhere, where a route's order may be tried first.
                let rehearsal = { [self] in
                    try makeSession(app, for: visitor, platform: platform, clock: VirtualClock(), seeds: seeds, events: EventRecorder(),
                                    sticky: stickyAtStart).session
                }
                try RouteOpener.open(arrival.route, in: session, rehearsal: rehearsal)
            } catch {
                throw ArrivalFailure(persona: visitor.persona.value.name, arrival: arrival, user: visitor.user, reason: error)
            }
        }
        let endScreen = simulated.run(arrivedFrom: home)
        let last = simulated.results.last
        let durationMs = Int(clock.now.wholeMilliseconds)
        log.write("session_ended") { field in
            field("outcome", .string(last?.outcome.rawValue ?? "none"))
            field("intent", last.map { .string($0.intent) } ?? .null)
            field("screen", .string(endScreen))
            field("durationMs", .int(durationMs))
            field("steps", .int(simulated.steps))
        }
        summary.count(session: simulated.results, endScreen: endScreen, screensSeen: simulated.screensSeen, exposures: log.exposures, events: log.count)
        // The lists back for the next session, emptied.
        simulated.takeLists(into: &lists)
        log.takeLists(into: &lists)
        lists.empty()
    }

    /// A session of the run's app for `visitor`, and its chooser: slots chosen by the experiments
    /// (exposures go to `exposures` if given, else to `events`; `sticky` documents, when given, used and updated), services set
    /// from the population's values with `seeds.services`.
    private func makeSession(_ app: AppDefinition, for visitor: Visitor, platform: String?, clock: VirtualClock,
                             seeds: (session: UInt64, services: UInt64), events: any EventSink,
                             exposures: (any ExposureSink)? = nil,
                             sticky: StickyBuckets?) throws -> (session: AppSession, chooser: ExperimentSlotChooser) {
        let chooser = ExperimentSlotChooser(
            experiments: plan.experiments, attributeList: visitor.attributes,
            now: Date(timeIntervalSince1970: Double(visitor.start) / 1000), events: events, exposures: exposures,
            stickyBuckets: sticky)
        let session = try AppSession(app: app, platform: platform, registry: registry, clock: clock,
                                     seed: seeds.session, events: events, chooser: chooser)
        app.configureServices(in: session.environment, ServiceSettings(services, random: RandomSource(seed: seeds.services)))
        return (session, chooser)
    }

    /// What `session_started`'s `arrival` says for a session that started at the first screen.
    static let startArrival = "start"

    /// The route a session arrives through, drawn by the arrivals' shares; nil for the first screen.
    static func arrival(_ arrivals: [Population.Arrival], _ random: inout SeededGenerator) -> Population.Arrival? {
        guard !arrivals.isEmpty else { return nil }
        var draw = Double(random.next() >> 11) / Double(1 << 53)
        for arrival in arrivals {
            if draw < arrival.share { return arrival }
            draw -= arrival.share
        }
        return nil
    }

    /// A well-mixed seed for user `index` of a run.
    static func mix(_ seed: UInt64, _ index: UInt64) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
        return generator.next()
    }
}

/// A population read by every session of a run, shared by reference: copying it (or a persona)
/// into each session retained every string, array and table in it.
final class SharedPopulation: Sendable {
    let value: Population
    /// Its intents, each shared too: every attempt of a simulated user reads one.
    let intents: [SharedIntent]

    init(_ value: Population) {
        self.value = value
        intents = value.intents.map(SharedIntent.init)
    }
}

/// An intent read by the attempts of every session, shared by reference (see ``SharedPopulation``).
final class SharedIntent: Sendable {
    let value: Population.Intent
    /// The weights of its values, prepared for the draw every attempt makes.
    let valueDraw: WeightedDraw

    init(_ value: Population.Intent) {
        self.value = value
        valueDraw = WeightedDraw(value.values.map(\.weight))
    }
}

/// A persona read by every session of a run, shared by reference (see ``SharedPopulation``).
final class SharedPersona: Sendable {
    let value: Population.Persona
    /// `value.abandon` as a list: a user reads its screen's chance at every step, and comparing a
    /// handful of short names costs less than hashing the name into the table.
    private let abandonList: [(screen: String, chance: Double)]

    /// `value.visitWeights` prepared for the draw every user of the persona makes.
    let visitDraw: WeightedDraw?

    init(_ value: Population.Persona) {
        self.value = value
        visitDraw = value.visitWeights.map(WeightedDraw.init)
        abandonList = value.abandon.map { ($0.key, $0.value) }
    }

    /// The chance to give up on each step of screen `name` (`abandonElsewhere` if none is given for it).
    func abandonChance(on name: String) -> Double {
        for entry in abandonList where entry.screen == name { return entry.chance }
        return value.abandonElsewhere
    }
}

/// A persona's arrival route that a session could not open.
struct ArrivalFailure: Error, CustomStringConvertible {
    let persona: String
    let arrival: Population.Arrival
    let user: String
    let reason: RouteError

    var description: String {
        "\(arrival.location): persona '\(persona)' arrives through '\(arrival.route)', which user \(user)'s session "
            + "could not open: \(reason); give a route the app shows on this platform (see docs/simulation.md)"
    }
}
