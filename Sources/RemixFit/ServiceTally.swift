import RemixKit
import RemixSimulation

/// Learns the app's service parameters from its events, each the way its module declares
/// (``ServiceEstimate``): a share of events, or the wait before an event.
struct ServiceTally {
    private let specs: [ServiceParameterSpec]
    /// Per parameter: events counted (share: the event, all of them).
    private var shares: [(hits: Int, total: Int)]
    /// Per parameter: waits seen (count, sum, sum of squares, in seconds).
    private var waits: [(count: Int, sum: Double, squares: Double)]

    init(specs: [ServiceParameterSpec]) {
        self.specs = specs
        shares = Array(repeating: (0, 0), count: specs.count)
        waits = Array(repeating: (0, 0, 0), count: specs.count)
    }

    /// The events whose share some service parameter is: a service's failures.
    static func failureEvents(_ specs: [ServiceParameterSpec]) -> Set<String> {
        Set(specs.compactMap { spec in
            if case .share(let of, _)? = spec.estimate { return of }
            return nil
        })
    }

    mutating func add(_ trace: SessionTrace) {
        var lastScreenChange = trace.start
        for event in trace.events {
            switch event.kind {
            case .screen:
                lastScreenChange = event.time
            case .domain(let type, _):
                for (index, spec) in specs.enumerated() {
                    switch spec.estimate {
                    case .share(let of, let among)?:
                        if type == of { shares[index].hits += 1 }
                        if type == of || among.contains(type) { shares[index].total += 1 }
                    case .secondsBefore(let wanted)? where wanted == type:
                        let seconds = Double(event.time - lastScreenChange) / 1000
                        waits[index].count += 1
                        waits[index].sum += seconds
                        waits[index].squares += seconds * seconds
                    default:
                        break
                    }
                }
            }
        }
    }

    /// Each parameter's fitted value as a population file writes it, with what it comes from; a
    /// parameter the log cannot show (no estimate declared, or none of its events) is left out and said.
    func fitted() -> (services: [(name: String, text: String, note: String)], unknowns: [String]) {
        var services: [(name: String, text: String, note: String)] = []
        var unknowns: [String] = []
        for (index, spec) in specs.enumerated() {
            switch spec.estimate {
            case .share(let of, _)?:
                let (hits, total) = shares[index]
                guard total > 0 else {
                    unknowns.append("\(spec.name): no \(of) or the events it is counted among; left at its default \(spec.defaultText)")
                    continue
                }
                let p = Double(hits) / Double(total)
                let error = (p * (1 - p) / Double(total)).squareRoot()
                services.append((spec.name, FittedPopulationWriter.number(p),
                                 "\(hits) \(of) of \(total) events ± \(FittedPopulationWriter.number(error))"))
            case .secondsBefore(let event)?:
                let wait = waits[index]
                guard wait.count > 0 else {
                    unknowns.append("\(spec.name): no \(event) events; left at its default \(spec.defaultText)")
                    continue
                }
                let mean = wait.sum / Double(wait.count)
                let sd = max(wait.squares / Double(wait.count) - mean * mean, 0).squareRoot()
                var range = FittedPopulation.Range.uniform(mean: mean, sd: sd, floor: 0)
                if range.max > Population.maximumActionSeconds {
                    unknowns.append("\(spec.name): the waits before \(event) reach \(FittedPopulationWriter.number(range.max)) s, more than "
                                    + "a population file may say; kept at the limit, one day (86 400 s)")
                    range = FittedPopulation.Range(min: min(range.min, Population.maximumActionSeconds), max: Population.maximumActionSeconds)
                }
                let text = range.max - range.min < 0.001 ? FittedPopulationWriter.number(mean)
                    : "[\(FittedPopulationWriter.number(range.min)), \(FittedPopulationWriter.number(range.max))]"
                services.append((spec.name, text, "the wait before \(wait.count) \(event) events"))
            case nil:
                unknowns.append("\(spec.name): its module does not say how to learn it from events; left at its default \(spec.defaultText)")
            }
        }
        return (services, unknowns)
    }
}
