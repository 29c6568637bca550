import RemixFormats

/// A half-open slice `[start, end)` of the unit interval that a hash must fall into.
package struct BucketRange: Sendable, Equatable, Hashable {
    /// The first bucket value inside the range.
    package var start: Double
    /// The first bucket value past the range.
    package var end: Double

    /// A range from `start` (inclusive) to `end` (exclusive).
    package init(start: Double, end: Double) {
        self.start = start
        self.end = end
    }

    /// Whether `n` lies in the range: `start <= n < end`.
    @inline(__always)
    package func contains(_ n: Double) -> Bool {
        n >= start && n < end
    }
}

/// A GrowthBook namespace: experiments sharing an id claim disjoint slices of the users.
package struct Namespace: Sendable, Equatable, Hashable {
    /// The namespace's id, which seeds its hash.
    package var id: String
    /// Where this experiment's slice starts (inclusive).
    package var start: Double
    /// Where this experiment's slice ends (exclusive).
    package var end: Double

    /// A slice `[start, end)` of the namespace `id`.
    package init(id: String, start: Double, end: Double) {
        self.id = id
        self.start = start
        self.end = end
    }
}

/// GrowthBook's bucketing primitives, bit-identical to its SDKs.
package enum GrowthBookHash {
    /// GrowthBook's `hash(seed, value, version)`: a number in [0, 1), or `nil` for an
    /// unknown version. Version 1 hashes `value + seed` to three decimals; version 2 hashes
    /// the decimal text of `fnv(seed + value)` to four decimals.
    package static func hash(seed: String, value: String, version: Int) -> Double? {
        switch version {
        case 1:
            var fnv = FNV1a<UInt32>()
            fnv.add(value)
            fnv.add(seed)
            return versionOneBucket(fnv.value)
        case 2:
            var fnv = FNV1a<UInt32>()
            fnv.add(seed)
            fnv.add(value)
            return versionTwoBucket(inner: fnv.value)
        default:
            return nil
        }
    }

    /// GrowthBook's `getBucketRanges`: one range per variation, each starting where the
    /// previous variation's weight ends and covering `coverage` of that weight.
    ///
    /// Coverage is clamped to [0, 1] (missing means 1); weights that are missing, of the wrong
    /// length, or that sum outside [0.99, 1.01] are replaced by equal weights.
    package static func bucketRanges(count: Int, coverage: Double?, weights: [Double]?) -> [BucketRange] {
        var clamped = coverage ?? 1
        if clamped < 0 {
            clamped = 0
        } else if clamped > 1 {
            clamped = 1
        }
        let equal = equalWeights(count)
        var chosen = weights ?? equal
        if chosen.count != count {
            chosen = equal
        }
        let total = chosen.reduce(0, +)
        if total < 0.99 || total > 1.01 {
            chosen = equal
        }
        var cumulative = 0.0
        return chosen.map { weight in
            let start = cumulative
            cumulative += weight
            return BucketRange(start: start, end: start + clamped * weight)
        }
    }

    /// `n` equal weights of `1 / n`; empty when `n <= 0`.
    package static func equalWeights(_ n: Int) -> [Double] {
        guard n > 0 else { return [] }
        return [Double](repeating: 1 / Double(n), count: n)
    }

    /// The index of the first range containing `n`, or -1 when none does.
    package static func chooseVariation(_ n: Double, ranges: [BucketRange]) -> Int {
        for index in ranges.indices where ranges[index].contains(n) {
            return index
        }
        return -1
    }

    /// Whether `hashValue` falls in the namespace's slice (hash version 1, seed `"__" + id`).
    /// One rule with experiments' prepared slices (``NamespaceSlice``), which this makes each time.
    package static func inNamespace(hashValue: String, namespace: Namespace) -> Bool {
        NamespaceSlice(namespace).contains(hashValue)
    }

    @inline(__always)
    static func versionOneBucket(_ state: UInt32) -> Double {
        Double(state % 1000) / 1000
    }

    @inline(__always)
    static func versionTwoBucket(inner: UInt32) -> Double {
        var outer = FNV1a<UInt32>()
        outer.addDecimalDigits(of: inner)
        return Double(outer.value % 10000) / 10000
    }
}

/// An experiment's hash seed with its UTF-16 units and FNV prefix worked out once, so that
/// hashing a user needs no string concatenation.
struct PreparedSeed: Sendable {
    let seed: String
    private let units: [UInt16]
    private let prefixState: UInt32

    init(_ seed: String) {
        self.seed = seed
        units = Array(seed.utf16)
        var fnv = FNV1a<UInt32>()
        fnv.add(contentsOf: units)
        prefixState = fnv.value
    }

    /// `GrowthBookHash.hash(seed: seed, value: value, version: version)` before its division: the
    /// bucket in units of 1/1000 (version 1) or 1/10000 (version 2); `nil` for an unknown version.
    @inline(__always)
    func bucketUnits(value: String, version: Int) -> Int? {
        bucketUnits(value: .text(value), version: version)
    }

    /// The same for a hashed attribute's text.
    @inline(__always)
    func bucketUnits(value: HashText, version: Int) -> Int? {
        switch version {
        case 1:
            var fnv = FNV1a<UInt32>()
            fnv.add(value)
            fnv.add(contentsOf: units)
            return Int(fnv.value % 1000)
        case 2:
            var fnv = FNV1a<UInt32>(continuing: prefixState)
            fnv.add(value)
            var outer = FNV1a<UInt32>()
            outer.addDecimalDigits(of: fnv.value)
            return Int(outer.value % 10000)
        default:
            return nil
        }
    }
}
