import Classifieds
import Foundation
import Marketplace
import RemixEventLog
import RemixExperiments
import RemixHost
import RemixKit

/// Simulates single sessions of a plan: draws the user, runs the app with the experiments, and
/// encodes the session's events. Sessions depend only on the plan and their index.
struct SessionSimulator: Sendable {
    let plan: SimulationPlan
    let registry: FeatureRegistry

    /// Simulates session `index`, appending its lines to `encoder` and counting into `summary`.
    func simulate(_ index: Int, into encoder: inout JSONLinesEncoder, summary: inout SimulationSummary) throws {
        let population = plan.population
        var random = SeededGenerator(seed: Self.mix(plan.seed, UInt64(index)))
        let persona = pick(population.personas, &random)
        let advert = population.adverts[Int(random.next() % UInt64(population.adverts.count))]
        let user = "u\(plan.seed)-\(index)"
        var attributes: [String: AttributeValue] = ["id": .string(user)]
        var attributeFields = [EventField("id", .string(user))]
        for (name, distribution) in population.attributes {
            let value = distribution.sample(&random)
            attributes[name] = .string(value)
            attributeFields.append(EventField(name, .string(value)))
        }
        let start = population.startMilliseconds + Int64(index) * population.sessionGapMilliseconds
        let clock = VirtualClock()
        // Move the buffer into the session's log (and back at the end) so it is never shared,
        // which would copy it on the next append.
        var owned = JSONLinesEncoder(capacity: 0)
        swap(&owned, &encoder)
        let log = SessionLog(encoder: consume owned, session: "s\(plan.seed)-\(index)", user: user, start: start,
                             clock: { clock.now })
        defer { encoder = log.finish() }
        log.write("session_started", [
            EventField("app", .string(plan.app)), EventField("persona", .string(persona.name)),
            EventField("attributes", .object(attributeFields)),
        ])
        let app = try registry.app(named: plan.app)
        let platform = attributes["platform"]?.stringValue.flatMap { app.platforms.contains($0) ? $0 : nil }
        let chooser = ExperimentSlotChooser(
            experiments: plan.experiments, attributes: attributes,
            now: Date(timeIntervalSince1970: Double(start) / 1000), events: log)
        let session = try AppSession(app: plan.app, platform: platform, registry: registry, clock: clock,
                                     seed: random.next(), events: log, chooser: chooser)
        session.window.addTransitionObserver { log.record($0) }
        configureServices(session.environment.services, random: &random)
        let simulated = SimulatedUser(session: session, persona: persona, advert: advert, log: log,
                                      random: SeededGenerator(seed: random.next()))
        let outcome = simulated.run()
        log.write("session_ended", [
            EventField("outcome", .string(outcome.rawValue)),
            EventField("durationMs", .int(Int(clock.now.wholeMilliseconds))),
            EventField("steps", .int(simulated.steps)),
        ])
        summary.sessions += 1
        summary.events += log.count
        summary.outcomes[outcome, default: 0] += 1
        for (experiment, variation) in log.exposures {
            summary.variations[experiment, default: [:]][variation, default: .init()].exposed += 1
            if log.convertedAfterExposure {
                summary.variations[experiment, default: [:]][variation, default: .init()].converted += 1
            }
        }
    }

    /// Applies the population's service behaviour to the session's services, where the app has them.
    private func configureServices(_ services: ServiceContainer, random: inout SeededGenerator) {
        let behaviour = plan.population.services
        if let adverts = try? services.resolve(InMemoryAdvertService.self), behaviour.publishFailureRate > 0 {
            let failures = RandomSource(seed: random.next())
            adverts.failsPublish = { failures.unit() < behaviour.publishFailureRate }
        }
        if let recommendations = try? services.resolve(KeywordGroupRecommendationService.self) {
            recommendations.delay = .milliseconds(behaviour.recommendationLatency.sampleMilliseconds(&random))
        }
    }

    private func pick(_ personas: [Population.Persona], _ random: inout SeededGenerator) -> Population.Persona {
        let distribution = Population.Distribution(values: personas.indices.map(String.init), weights: personas.map(\.weight))
        return personas[Int(distribution.sample(&random)) ?? 0]
    }

    /// A well-mixed seed for session `index` of a run.
    static func mix(_ seed: UInt64, _ index: UInt64) -> UInt64 {
        var generator = SeededGenerator(seed: seed ^ (index &* 0x9E37_79B9_7F4A_7C15))
        return generator.next()
    }
}
