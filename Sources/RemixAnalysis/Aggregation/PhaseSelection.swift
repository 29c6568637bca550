import RemixExperiments

/// Which phase of an experiment with phases a report covers (`remix analyze --phase`).
package enum PhaseSelection: Sendable, Equatable {
    /// The latest: the experiment file's last phase, else the highest phase of the log.
    case latest
    /// Every phase together.
    case all
    /// Phase N (from 0, as GrowthBook numbers them).
    case number(Int)

    /// `latest`, `all` or a phase number; nil for anything else.
    package init?(_ text: String) {
        switch text {
        case "latest": self = .latest
        case "all": self = .all
        default:
            guard let number = Int(text), PhaseKey.numbers.contains(number) else { return nil }
            self = .number(number)
        }
    }
}

/// What the report of an experiment with phases covers.
package enum PhaseScope: Sendable, Equatable, CustomStringConvertible {
    case number(Int)
    case all

    /// `0`, `1`, … or `all`, as reports write it.
    package var description: String {
        switch self {
        case .number(let number): String(number)
        case .all: "all"
        }
    }
}

extension AnalysisReport {
    /// One phase's units by variation and its split checked against its own weights.
    package struct PhaseSplit: Sendable, Equatable {
        /// The phase, from 0.
        package var phase: Int
        /// Units exposed in the phase (to one variation), by variation in report order.
        package var units: [Int]
        /// The phase's weights, by variation in report order (0 for a dropped one).
        package var weights: [Double]
        /// The sample ratio mismatch test's p-value (nil without units).
        package var srmPValue: Double?
    }
}

/// How a tally keeps each phase's exposures apart: under a name no logged experiment has (a
/// NUL and a 0xFF byte, which JSON text does not produce, then the phase and the key).
package enum PhaseKey {
    /// The phase numbers kept; a `phase` outside them is read as no phase.
    package static let numbers = 0...9_999
    private static let prefix: [UInt8] = [0x00, 0xFF]

    /// The tally name of `experiment`'s phase `phase`.
    static func name(phase: Int, experiment: Span<UInt8>) -> [UInt8] {
        prefix + Array(String(phase).utf8) + [0x00] + experiment.array
    }

    /// The tally name of `experiment`'s phase `phase`.
    static func name(phase: Int, experiment: String) -> [UInt8] {
        name(phase: phase, experiment: Array(experiment.utf8).span)
    }

    /// The phase and experiment key a tally name stands for; nil for a logged experiment's name.
    static func parse(_ bytes: Span<UInt8>) -> (phase: Int, key: String)? {
        guard bytes.count >= 2, bytes[0] == prefix[0], bytes[1] == prefix[1],
              let length = bytes.extracting(droppingFirst: 2).firstIndex(of: 0x00),
              let phase = Int(bytes.extracting(2..<(2 + length)).string) else { return nil }
        return (phase, bytes.extracting((3 + length)...).string)
    }
}

/// The phase part of an analysis: which tally entry reports an experiment, with which weights,
/// and each phase's split.
struct PhasePlan {
    /// Per experiment key with phases in the log: phase → tally index.
    private(set) var phaseIndices: [String: [Int: Int]] = [:]
    /// The logged experiments: tally index and key.
    private(set) var logged: [(offset: Int, element: String)] = []

    /// Sorts the tally's names into logged experiments and phase entries.
    init(tally: LogTally) {
        for index in 0..<tally.experimentNames.count {
            if let (phase, key) = tally.experimentNames.withBytes(index, PhaseKey.parse) {
                phaseIndices[key, default: [:]][phase] = index
            } else {
                logged.append((index, tally.experimentNames.string(index)))
            }
        }
    }

    /// The phase a report of `key` covers under `selection`, nil when the log has no phase of it;
    /// `whole`: see ``scope(of:selection:definition:logged:whole:)``.
    func scope(of key: String, selection: PhaseSelection, definition: ExperimentDefinition?,
               whole: Bool) throws(AnalysisError) -> PhaseScope? {
        try Self.scope(of: key, selection: selection, definition: definition, logged: phaseIndices[key].map { Array($0.keys) } ?? [],
                       whole: whole)
    }

    /// The phase a report of `key` covers under `selection` when the log (or store) holds its
    /// phases `logged`; nil when it holds none. In the report of the `whole` log, a phase number
    /// the experiment does not have — in its file, else in the log — is an error naming those it
    /// has, not a report of zeros; a cut of `--by` reports the whole report's phase, which it may
    /// not hold yet.
    static func scope(of key: String, selection: PhaseSelection, definition: ExperimentDefinition?,
                      logged: [Int], whole: Bool) throws(AnalysisError) -> PhaseScope? {
        guard let highest = logged.max() else { return nil }
        switch selection {
        case .all: return .all
        case .number(let number):
            let inFile = definition.map { !$0.phases.isEmpty } ?? false
            let phases = inFile ? definition?.phases.map(\.number) ?? [] : logged.sorted()
            if whole, !phases.contains(number) { throw .noSuchPhase(key: key, phase: number, phases: phases, inFile: inFile) }
            return .number(number)
        case .latest: return .number(definition?.phases.last?.number ?? highest)
        }
    }

    /// The tally index that reports `key` in `scope` (a phase the log lacks gets an empty entry).
    func index(of key: String, scope: PhaseScope?, logged index: Int, tally: inout LogTally) -> Int {
        guard case .number(let number) = scope else { return index }
        if let found = phaseIndices[key]?[number] { return found }
        return tally.experimentID(PhaseKey.name(phase: number, experiment: key).span)
    }

    /// The weights phase `number` of `definition` assigns with, normalised (nil when the file has no such phase).
    static func weights(of definition: ExperimentDefinition?, phase number: Int) -> [Double]? {
        guard let phase = definition?.phases.first(where: { $0.number == number }) else { return nil }
        let total = phase.weights.reduce(0, +)
        return total > 0 ? phase.weights.map { $0 / total } : nil
    }

    /// Each phase's units by variation (in the report's slot order) and SRM test.
    func splits(of key: String, tally: LogTally, definition: ExperimentDefinition?) -> [AnalysisReport.PhaseSplit] {
        guard let phases = phaseIndices[key] else { return [] }
        return phases.keys.sorted().compactMap { number in
            guard let index = phases[number] else { return nil }
            let experiment = tally.experiments[index]
            let order = Analyzer.slotOrder(definition, experiment)
            var slotOf: [Int: Int] = [:]
            for (slot, entry) in order.enumerated() { if let tallied = entry.tallyIndex { slotOf[tallied] = slot } }
            var units = Array(repeating: 0, count: order.count)
            experiment.exposures.forEach { _, _, exposure in
                if exposure.variation >= 0, let slot = slotOf[Int(exposure.variation)] { units[slot] += 1 }
            }
            let weights = Self.weights(of: definition, phase: number)
                ?? definition.map(Analyzer.normalizedWeights) ?? Array(repeating: 1 / Double(max(order.count, 1)), count: order.count)
            let srm = order.count >= 2 ? ComparisonBuilder.sampleRatio(units: units, weights: weights) : nil
            return AnalysisReport.PhaseSplit(phase: number, units: units, weights: weights, srmPValue: srm)
        }
    }

    /// The units of `key` exposed in more than one phase, and how many of them saw another
    /// variation in one phase than in another (a unit with several variations in one phase counts as switching).
    func crossings(of key: String, tally: LogTally) -> (units: Int, switching: Int) {
        guard let phases = phaseIndices[key], phases.count > 1 else { return (0, 0) }
        var seen: [Int: (phases: Int, variation: String?, switched: Bool)] = [:]
        for number in phases.keys.sorted() {
            guard let index = phases[number] else { continue }
            let experiment = tally.experiments[index]
            experiment.exposures.forEach { unit, _, exposure in
                let variation = exposure.variation >= 0 ? experiment.variations.string(Int(exposure.variation)) : nil
                var entry = seen[unit] ?? (0, variation, variation == nil)
                entry.phases += 1
                entry.switched = entry.switched || variation == nil || variation != entry.variation
                seen[unit] = entry
            }
        }
        let several = seen.values.filter { $0.phases > 1 }
        return (several.count, several.filter(\.switched).count)
    }

    /// Units of `key` by the phase of their first exposure (phases follow one another in time, so the
    /// lowest phase a unit was exposed in).
    func firstExposures(of key: String, tally: LogTally) -> [Int: Int] {
        guard let phases = phaseIndices[key] else { return [:] }
        var first: [Int: Int] = [:]
        for number in phases.keys.sorted() {
            guard let index = phases[number] else { continue }
            tally.experiments[index].exposures.forEach { unit, _, _ in
                if first[unit] == nil { first[unit] = number }
            }
        }
        var units: [Int: Int] = [:]
        for number in first.values { units[number, default: 0] += 1 }
        return units
    }

    /// The split all phases together are expected to have: each phase's weights, weighted by the
    /// units first exposed in it. A unit's variation is drawn at its first exposure — and kept
    /// there by sticky bucketing, so with it this is exactly the expected split; without it a
    /// returning unit may be re-randomised (and, if moved, is left out as exposed to several), and
    /// the test flags what that did.
    static func mixedWeights(_ splits: [AnalysisReport.PhaseSplit], firstExposed: [Int: Int]) -> [Double]? {
        let total = firstExposed.values.reduce(0, +)
        guard total > 0, let count = splits.first?.weights.count, splits.allSatisfy({ $0.weights.count == count }) else { return nil }
        var mixed = Array(repeating: 0.0, count: count)
        for split in splits {
            let share = Double(firstExposed[split.phase] ?? 0) / Double(total)
            for index in 0..<count { mixed[index] += share * split.weights[index] }
        }
        return mixed
    }
}
