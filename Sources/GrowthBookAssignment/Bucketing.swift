/// What `run` needs for hashing, bucketing and reporting, worked out when the experiment
/// changes rather than per user. A class, so copying an experiment copies one reference.
///
/// Invariant (why `@safe`): `unmanagedReports[i]` is `reports[i]` unretained, and `reports` is a
/// `let` of the same object, so every handle it gives out refers to a live report for as long as
/// this object lives; a result that outlives it keeps its report alive itself (`AssignmentResult`).
@safe final class Bucketing: Sendable {
    let seed: PreparedSeed
    let hashVersion: Int
    /// The attribute to hash (`id` unless the experiment names another).
    let hashAttribute: AttributeKey
    /// What a result reports for each variation index (at least one entry, for index 0).
    let reports: [VariationReport]
    /// The same reports, read without counting references (`reports` keeps them alive).
    private let unmanagedReports: [Unmanaged<VariationReport>]
    /// Whether every report is interned (the usual case).
    private let allReportsInterned: Bool
    /// How many bucket units make the unit interval: 1000 for version 1, 10000 for version 2.
    let scale: Int
    /// For each range, the first bucket unit inside it and the first unit past it: a bucket is
    /// in a range exactly when its units lie between the two, so choosing a variation compares
    /// integers and needs no division.
    let unitBounds: [Int]

    init(
        key: String, seed: String?, hashVersion: Int?, hashAttribute: String?, variations: [AttributeValue],
        coverage: Double?, weights: [Double]?, ranges: [BucketRange]?, meta: [Experiment.VariationMeta]?
    ) {
        let chosenSeed = seed.flatMap { $0.isEmpty ? nil : $0 } ?? key
        self.seed = PreparedSeed(chosenSeed)
        self.hashVersion = hashVersion.flatMap { $0 == 0 ? nil : $0 } ?? 1
        self.hashAttribute = AttributeKey(hashAttribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id")
        let ranges = ranges ?? GrowthBookHash.bucketRanges(
            count: variations.count, coverage: coverage, weights: weights
        )
        let scale = self.hashVersion == 1 ? 1000 : 10000
        self.scale = scale
        unitBounds = ranges.flatMap { range in
            [Self.firstUnit(scale) { Double($0) / Double(scale) >= range.start },
             Self.firstUnit(scale) { !(Double($0) / Double(scale) < range.end) }]
        }
        let hashAttributeName = self.hashAttribute.name
        reports = (0..<max(variations.count, 1)).map { index in
            VariationReport.make(index: index, experimentKey: key, hashAttribute: hashAttributeName,
                                 variations: variations, meta: meta)
        }
        unsafe unmanagedReports = unsafe reports.map { unsafe Unmanaged.passUnretained($0) }
        allReportsInterned = reports.allSatisfy(\.isInterned)
    }

    /// Whether the report of variation `index` is interned (alive as long as the process).
    @inline(__always)
    func reportIsInterned(_ index: Int) -> Bool {
        allReportsInterned || reports[index].isInterned
    }

    /// What a result reports for variation `index` (in `reports`), without counting a reference:
    /// the result holds it only when it is not interned.
    @inline(__always)
    func report(_ index: Int) -> Unmanaged<VariationReport> {
        unsafe unmanagedReports.withUnsafeBufferPointer { unsafe $0[index] }
    }

    /// The first unit in `0 ..< scale` for which `holds` (which must stay true once it is), or
    /// `scale` when there is none.
    private static func firstUnit(_ scale: Int, where holds: (Int) -> Bool) -> Int {
        var low = 0
        var high = scale
        while low < high {
            let middle = (low + high) / 2
            if holds(middle) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }

    /// The index of the first range containing the bucket of `units`, or -1 when none does.
    /// Without branches, as the outcome is as random as the hash.
    @inline(__always)
    func chooseVariation(units: Int) -> Int {
        unsafe unitBounds.withUnsafeBufferPointer { bounds in
            var chosen = -1
            var index = bounds.count / 2
            while index > 0 {
                index -= 1
                let outside = unsafe (units &- bounds[2 &* index]) | (bounds[2 &* index &+ 1] &- 1 &- units)
                chosen = outside < 0 ? chosen : index
            }
            return chosen
        }
    }

    /// The user's bucket for the hashed attribute's text, in units of 1/`scale`; `nil` for an
    /// unknown hash version.
    @inline(__always)
    func hash(_ hashValue: HashText) -> Int? {
        seed.bucketUnits(value: hashValue, version: hashVersion)
    }
}
