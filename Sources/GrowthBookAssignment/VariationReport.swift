import Synchronization

/// The parts of a result fixed by the experiment and a variation index, worked out when the
/// experiment changes.
///
/// Reports are interned (``make(index:experimentKey:hashAttribute:variations:meta:)``): equal
/// reports are one object, kept for the life of the process, so that a result can refer to its
/// report without counting references. Past ``internLimit`` distinct reports (a process that
/// builds experiments from endless distinct inputs, such as a fuzzer), new reports are ordinary
/// objects that results hold strongly.
final class VariationReport: Sendable {
    /// What a report reports, and what identifies it.
    struct Fields: Hashable {
        let index: Int
        let experimentKey: String
        let hashAttribute: String
        let value: AttributeValue
        let key: String
        let name: String?
        let passthrough: Bool
    }

    let fields: Fields
    /// Whether the interning table holds this report (and so keeps it alive).
    let isInterned: Bool

    /// The most reports kept for the life of the process.
    static let internLimit = 65_536

    private static let interned = Mutex<[Fields: VariationReport]>([:])

    private init(_ fields: Fields, isInterned: Bool) {
        self.fields = fields
        self.isInterned = isInterned
    }

    /// GrowthBook's `getExperimentResult` fields for variation `index` (0 when out of range):
    /// the interned report when there is one (or room for one), else a new report.
    static func make(index: Int, experimentKey: String, hashAttribute: String, variations: [AttributeValue],
                     meta: [Experiment.VariationMeta]?) -> VariationReport {
        let variationMeta = meta.flatMap { $0.indices.contains(index) ? $0[index] : nil }
        let fields = Fields(
            index: index, experimentKey: experimentKey, hashAttribute: hashAttribute,
            value: variations.isEmpty ? .null : variations[index],
            key: variationMeta?.key.flatMap { $0.isEmpty ? nil : $0 } ?? String(index),
            name: variationMeta?.name, passthrough: variationMeta?.passthrough ?? false)
        return interned.withLock { table in
            if let known = table[fields] { return known }
            guard table.count < internLimit else { return VariationReport(fields, isInterned: false) }
            let report = VariationReport(fields, isInterned: true)
            table[fields] = report
            return report
        }
    }
}
