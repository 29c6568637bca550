import RemixLogReader

/// What a first pass over a log reads for an analysis with `options`: the metrics tracked and
/// resolved, the plain-proportion events tallied per unit, the primary metrics timed, and the
/// value columns whose events the pass keeps (``KeptEvents``).
struct LogReading {
    let tracked: [String]
    let resolved: [MetricDefinition]
    let events: [String]
    let timed: Set<String>
    let columns: [ValueTally.Column]
    /// The value metrics' event types and the numeric fields the scanner reads for them.
    let keptTypes: [[UInt8]]
    let fieldNames: [[UInt8]]

    init(_ options: AnalysisOptions) throws(AnalysisError) {
        tracked = Analyzer.trackedMetrics(options)
        resolved = tracked.map(options.catalog.resolve)
        events = Analyzer.unique(resolved.filter(\.isSimpleProportion).compactMap(\.event))
        timed = Analyzer.timedMetrics(options, tracked: tracked)
        columns = Analyzer.valueColumns(resolved, catalog: options.catalog)
        let reads = ValueTally.reads(columns)
        guard reads.numericNames.count <= LineFields.numericLimit else {
            throw .tooManyValueFields(limit: LineFields.numericLimit, metrics: resolved.filter { !$0.isSimpleProportion }.map(\.key))
        }
        keptTypes = reads.events
        fieldNames = reads.numericNames
    }

    /// The kept events of a pass within `limitBytes` (nil when no metric needs values); `.max` keeps them all.
    func makeKept(limitBytes: Int) -> KeptEvents? {
        columns.isEmpty ? nil : KeptEvents(types: keptTypes, fieldCount: fieldNames.count,
                                           limit: limitBytes / KeptEvents.bytes(fields: fieldNames.count))
    }
}
