import Foundation
import RemixKit
import RemixYAML

extension ExperimentDefinition {
    /// One phase of an experiment (GrowthBook's phases, numbered from 0): from `start` until the
    /// next phase starts (the last until the schedule ends), sessions are assigned with this
    /// phase's coverage and weights, and only the variations it keeps running can be assigned.
    package struct Phase: Sendable {
        /// Its place in the file's list, from 0 (GrowthBook's phase index).
        package var number: Int
        /// When the phase starts.
        package var start: Date
        /// The coverage as the phase writes it (nil: the experiment's).
        package var coverage: Double?
        /// The weights as written, one per running variation in the order `variations` lists
        /// them (nil: the experiment's when every variation runs, else equal).
        package var writtenWeights: [Double]?
        /// The indices of the variations still running, in the order written.
        package var running: [Int]
        /// Why the phase started (free text).
        package var reason: String?
        /// The engine's form of the experiment in this phase: one weight per variation of the
        /// experiment, 0 for a dropped one, so that variation ids stay the experiment's.
        package var experiment: Experiment
        /// Where the phase and each of its keys' values are in the file.
        package var location: SourceLocation
        package var fieldLocations: [String: SourceLocation]

        /// One weight per variation of the experiment (0 for a dropped one), as assigned.
        package var weights: [Double] {
            experiment.weights ?? GrowthBookHash.equalWeights(experiment.variations.count)
        }

        /// Where `field` is written, or where the phase starts.
        package func location(of field: String) -> SourceLocation { fieldLocations[field] ?? location }
    }

    /// The index of the phase in force at `date`: the last one started by then; nil before the
    /// first starts (and for an experiment without phases).
    package func phaseIndex(at date: Date) -> Int? {
        phases.lastIndex { $0.start <= date }
    }
}

/// Reads an experiment file's `phases:` list.
enum PhaseParser {
    /// The keys a phase may have.
    static let knownKeys = ["start", "coverage", "weights", "variations", "reason"]

    /// The phases of `value` for `experiment` (whose variations are `variations`), and every
    /// problem found; a phase with a problem is left out.
    static func parse(_ value: YAMLValue, experiment: Experiment,
                      variations: [ExperimentDefinition.Variation]) -> ([ExperimentDefinition.Phase], [Diagnostic]) {
        let items: [YAMLValue]
        do {
            items = try value.sequence("phases")
        } catch {
            return ([], [error])
        }
        if items.isEmpty {
            return ([], [Diagnostic(value.location, .error, "phases is empty; give at least one phase or leave the key out")])
        }
        var phases: [ExperimentDefinition.Phase] = []
        var problems: [Diagnostic] = []
        for (number, item) in items.enumerated() {
            do {
                phases.append(try phase(item, number: number, experiment: experiment, variations: variations))
            } catch {
                problems.append(error)
            }
        }
        return (phases, problems)
    }

    private static func phase(_ item: YAMLValue, number: Int, experiment: Experiment,
                              variations: [ExperimentDefinition.Variation]) throws(Diagnostic) -> ExperimentDefinition.Phase {
        let fields = try item.mapping("a phase")
        if let problem = fields.unknownKeys(allowed: knownKeys, in: "a phase", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        let start = try ExperimentFileParser.parseDate(fields.required("start", in: "a phase"))
        let coverage = try fields["coverage"].map { v throws(Diagnostic) in try v.double("coverage") }
        let weights = try fields["weights"].map { v throws(Diagnostic) in
            try v.sequence("weights").map { item throws(Diagnostic) in try item.double("a weight") }
        }
        let reason = try fields["reason"].map { v throws(Diagnostic) in try v.string("reason") }
        var running = Array(variations.indices)
        if let list = fields["variations"] {
            running = []
            for entry in try list.sequence("the variations a phase runs") {
                let key = try entry.string("a variation key")
                guard let index = variations.firstIndex(where: { $0.key == key }) else {
                    let near = NameSuggestion.nearest(to: key, among: variations.map(\.key)).map { " (did you mean '\($0)'?)" } ?? ""
                    throw Diagnostic(entry.location, .error, "unknown variation '\(key)'\(near); a phase lists the keys "
                                     + "of the experiment's variations it keeps running: "
                                     + variations.map(\.key).joined(separator: ", "))
                }
                guard !running.contains(index) else {
                    throw Diagnostic(entry.location, .error, "variation '\(key)' is listed twice in this phase")
                }
                running.append(index)
            }
        }
        var engine = experiment
        engine.weights = fullWeights(written: weights, running: running, experiment: experiment)
        if let coverage { engine.coverage = coverage }
        var locations: [String: SourceLocation] = [:]
        for entry in fields.entries { locations[entry.key] = entry.value.location }
        return ExperimentDefinition.Phase(number: number, start: start, coverage: coverage, writtenWeights: weights, running: running,
                                          reason: reason, experiment: engine, location: item.location,
                                          fieldLocations: locations)
    }

    /// One weight per variation: the written ones for the running variations and 0 for the
    /// others; without written weights, the experiment's when all run, else equal among those running.
    /// Weights of the wrong count are passed on as written (``PhaseCheck`` reports them), and
    /// GrowthBook then splits equally.
    static func fullWeights(written: [Double]?, running: [Int], experiment: Experiment) -> [Double]? {
        let count = experiment.variations.count
        if written == nil, running == Array(0..<count) { return experiment.weights }
        let given = written ?? GrowthBookHash.equalWeights(running.count)
        guard given.count == running.count else { return given }
        var weights = Array(repeating: 0.0, count: count)
        for (index, variation) in running.enumerated() { weights[variation] = given[index] }
        return weights
    }
}
