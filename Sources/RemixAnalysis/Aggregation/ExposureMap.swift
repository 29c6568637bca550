/// One experiment's exposures by unit id, in memory that grows with the units exposed to it, not
/// with every unit of the log (a log of 10 000 experiments of 4 units each holds 40 000 units).
/// While the ids exposed span at most ``density`` times their number, the exposures are a dense
/// array over that span, read and written by index — the common case, an experiment that reaches
/// a good share of the units; past it, a table of the exposed units only. Each exposed unit has
/// a slot, its place in that storage, by which the experiment's per-unit sums are kept
/// (``ValueTally``).
struct ExposureMap: Sendable {
    typealias Exposure = LogTally.Exposure

    /// A dense map stays dense while its span is at most this many times its units, plus
    /// ``minimumSpan``: an experiment that one unit in 16 reaches is still read by index.
    static let density = 16
    static let minimumSpan = 64

    /// Dense: the unit of slot 0.
    private var base = 0
    /// Dense: the exposure of unit `base + slot`, `.empty` for a unit not exposed; sparse: of `units[slot]`.
    private var entries: [Exposure] = []
    /// Sparse: each slot's unit, and each unit's slot.
    private var units: [Int32] = []
    private var slots: [Int32: Int32] = [:]
    private(set) var isSparse = false
    /// Distinct units exposed.
    private(set) var count = 0

    /// The slots in use: per-unit arrays of the experiment need this many.
    var slotCount: Int { entries.count }

    /// The exposure in `slot`.
    subscript(slot: Int) -> Exposure { entries[slot] }

    /// The slot and exposure of `unit`, nil when it was not exposed.
    @inline(__always)
    func exposure(of unit: Int) -> (slot: Int, exposure: Exposure)? {
        let slot: Int
        if isSparse {
            guard let found = slots[Int32(truncatingIfNeeded: unit)] else { return nil }
            slot = Int(found)
        } else {
            slot = unit &- base
            guard slot >= 0, slot < entries.count else { return nil }
        }
        let exposure = entries[slot]
        return exposure.variation == Exposure.none ? nil : (slot, exposure)
    }

    /// Records that `unit` saw `variation` (``Exposure/multiple`` for several) first at `first`:
    /// a second variation makes it a multiple-exposure unit, and the earliest time is kept.
    @inline(__always)
    mutating func add(unit: Int, variation: Int32, first: Int64) {
        let slot = slot(making: unit)
        let old = entries[slot]
        if old.variation == Exposure.none { count += 1 }
        let merged = old.variation == Exposure.none || old.variation == variation ? variation : Exposure.multiple
        entries[slot] = Exposure(variation: merged, first: min(old.first, first))
    }

    /// Calls `body` with each exposed unit, its slot and its exposure, in unit order (sums over
    /// units then add in the same order however the map is stored).
    func forEach(_ body: (_ unit: Int, _ slot: Int, _ exposure: Exposure) throws -> Void) rethrows {
        if isSparse {
            for slot in entries.indices.sorted(by: { units[$0] < units[$1] }) {
                try body(Int(units[slot]), slot, entries[slot])
            }
        } else {
            for slot in entries.indices where entries[slot].variation != Exposure.none {
                try body(base + slot, slot, entries[slot])
            }
        }
    }

    /// The slot of `unit`, made if it has none.
    @inline(__always)
    private mutating func slot(making unit: Int) -> Int {
        if !isSparse {
            let slot = unit &- base
            if slot >= 0, slot < entries.count { return slot }
            if let slot = growDense(toHold: unit) { return slot }
            makeSparse()
        }
        let key = Int32(truncatingIfNeeded: unit)
        if let slot = slots[key] { return Int(slot) }
        slots[key] = Int32(entries.count)
        units.append(key)
        entries.append(.empty)
        return entries.count - 1
    }

    /// Widens the dense span to hold `unit` and returns its slot, or nil when the span would pass
    /// the density limit.
    private mutating func growDense(toHold unit: Int) -> Int? {
        guard !entries.isEmpty else {
            base = unit
            entries.append(.empty)
            return 0
        }
        let limit = Self.density * (count + 1) + Self.minimumSpan
        let end = base + entries.count
        guard max(end, unit + 1) - min(base, unit) <= limit else { return nil }
        if unit >= end {
            entries.append(contentsOf: repeatElement(.empty, count: unit + 1 - end))
            return unit - base
        }
        // Below the base: move down with as much room again, so that ids met in falling order do
        // not move the array each time.
        let newBase = max(0, end - limit, unit - (end - unit))
        entries.insert(contentsOf: repeatElement(.empty, count: base - newBase), at: 0)
        base = newBase
        return unit - base
    }

    /// Keeps only the exposed units, in a table.
    private mutating func makeSparse() {
        var compact: [Exposure] = []
        compact.reserveCapacity(count)
        for slot in entries.indices where entries[slot].variation != Exposure.none {
            let unit = Int32(truncatingIfNeeded: base + slot)
            slots[unit] = Int32(compact.count)
            units.append(unit)
            compact.append(entries[slot])
        }
        entries = compact
        isSparse = true
    }
}
