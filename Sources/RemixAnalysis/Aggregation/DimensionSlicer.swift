/// Splits an experiment's units by their dimension value: the most common values each get a
/// slice, the rest share one named ``DimensionSlicer/otherName``, and units without a value one
/// named ``DimensionSlicer/noneName``.
package enum DimensionSlicer {
    /// Values shown on their own; the rest are `other`.
    package static let shown = 10
    package static let otherName = "(other)"
    package static let noneName = "(none)"

    /// Whether `--dimension name` reads a top-level field of `session_started` (such as
    /// `persona`) rather than one of its `attributes`.
    package static func isTopLevelField(_ name: String) -> Bool { DimensionTally.topLevelFields.contains(name) }

    /// One slice per shown value (most units first, then by name), then `(other)`; `build` makes
    /// the experiment's report over the units it is given.
    static func slices(of experiment: LogTally.ExperimentTally, dimension: DimensionTally,
                       build: (@escaping (Int) -> Bool) -> AnalysisReport.Experiment) -> [AnalysisReport.DimensionSlice] {
        var unitsOf: [Int32: Int] = [:]
        experiment.exposures.forEach { unit, _, exposure in
            if exposure.variation >= 0 { unitsOf[id(dimension, unit), default: 0] += 1 }
        }
        let name = { (id: Int32) in id < 0 ? noneName : dimension.values.string(Int(id)) }
        let ranked = unitsOf.sorted { ($0.value, name($1.key)) > ($1.value, name($0.key)) }.map(\.key)
        let shownIDs = Array(ranked.prefix(shown))
        var slices = shownIDs.map { value in
            AnalysisReport.DimensionSlice(value: name(value), experiment: build { id(dimension, $0) == value })
        }
        if ranked.count > shown {
            let kept = Set(shownIDs)
            slices.append(AnalysisReport.DimensionSlice(value: otherName, experiment: build { !kept.contains(id(dimension, $0)) }))
        }
        return slices
    }

    private static func id(_ dimension: DimensionTally, _ unit: Int) -> Int32 {
        unit < dimension.valueOf.count ? dimension.valueOf[unit] : -1
    }
}
