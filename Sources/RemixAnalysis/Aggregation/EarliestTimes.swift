/// The earliest few distinct times of one event type per unit, so that the first event at or
/// after a unit's first exposure can be found however the log was split: the exposure may be read
/// after the events, in another part. Memory is one time and one index per unit, plus a block of
/// ``kept`` − 1 times for units with more than one distinct time. Two tallies merge exactly (the
/// earliest ``kept`` of a union are among the earliest ``kept`` of each side).
struct EarliestTimes {
    /// How many distinct times are kept per unit.
    static let kept = 8
    private static let blockSize = kept
    private static let overflowFlag: Int64 = 1 << 32

    /// Per unit: its earliest time (`.max` when none).
    private var earliest: [Int64] = []
    /// Per unit: where its block starts in `pool`, -1 when it has none.
    private var blocks: [Int32] = []
    /// Blocks of `blockSize` slots: a header (count | overflow flag), then sorted later times.
    private var pool: [Int64] = []

    /// What is known of a unit's first event at or after a time.
    enum Lookup: Equatable {
        case none
        case time(Int64)
        /// ``kept`` or more distinct times came before it: the exact one was not kept.
        case unknown
    }

    mutating func add(unit: Int, time: Int64) {
        LogTally.ensure(&earliest, unit, .max)
        let first = earliest[unit]
        if first == .max {
            earliest[unit] = time
            return
        }
        guard time != first else { return }
        if time < first { earliest[unit] = time }
        insertLater(unit: unit, time: max(time, first))
    }

    /// Adds `other`'s times, with its unit ids mapped through `unitMap`.
    mutating func merge(_ other: EarliestTimes, unitMap: [Int]) {
        for (unit, first) in other.earliest.enumerated() where first != .max {
            let mine = unitMap[unit]
            add(unit: mine, time: first)
            guard unit < other.blocks.count, other.blocks[unit] >= 0 else { continue }
            let start = Int(other.blocks[unit])
            let header = other.pool[start]
            for slot in 0..<Int(header & 0xFF) { add(unit: mine, time: other.pool[start + 1 + slot]) }
            if header & Self.overflowFlag != 0 { pool[block(of: mine)] |= Self.overflowFlag }
        }
    }

    /// The unit's first time at or after `time`.
    func firstTime(unit: Int, atOrAfter time: Int64) -> Lookup {
        guard unit < earliest.count, earliest[unit] != .max else { return .none }
        if earliest[unit] >= time { return .time(earliest[unit]) }
        guard unit < blocks.count, blocks[unit] >= 0 else { return .none }
        let start = Int(blocks[unit])
        let header = pool[start]
        for slot in 0..<Int(header & 0xFF) where pool[start + 1 + slot] >= time { return .time(pool[start + 1 + slot]) }
        return header & Self.overflowFlag != 0 ? .unknown : .none
    }

    /// Inserts a time later than the unit's earliest into its sorted block, dropping the latest
    /// (and flagging the overflow) when the block is full.
    private mutating func insertLater(unit: Int, time: Int64) {
        let start = block(of: unit)
        var count = Int(pool[start] & 0xFF)
        var slot = 0
        while slot < count, pool[start + 1 + slot] < time { slot += 1 }
        if slot < count, pool[start + 1 + slot] == time { return }
        let capacity = Self.blockSize - 1
        if count == capacity {
            pool[start] |= Self.overflowFlag
            guard slot < count else { return }
            count -= 1
        }
        var index = count
        while index > slot {
            pool[start + 1 + index] = pool[start + index]
            index -= 1
        }
        pool[start + 1 + slot] = time
        pool[start] = (pool[start] & Self.overflowFlag) | Int64(count + 1)
    }

    /// The start of the unit's block, made if it has none.
    private mutating func block(of unit: Int) -> Int {
        LogTally.ensure(&blocks, unit, -1)
        if blocks[unit] < 0 {
            blocks[unit] = Int32(pool.count)
            pool.append(contentsOf: repeatElement(0, count: Self.blockSize))
        }
        return Int(blocks[unit])
    }
}
