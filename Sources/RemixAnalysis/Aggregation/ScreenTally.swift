import RemixLogReader

/// When each unit was last shown each screen, for the funnel, in bounded memory: at most
/// ``limit`` screen names get a column (one time per unit); screens met once the columns are taken
/// share one "other screens" column. So memory grows with units, never with units × screens.
///
/// A tally that had to put a screen under "other" is `overflowed`: it may have seen any screen it
/// has no column for. Merging therefore folds a screen into "other" unless every tally that could
/// have seen it has its column, so the screens that keep a column always have exact counts.
package struct ScreenTally {
    /// The most screen names the funnel follows.
    package static let limit = 32
    /// The funnel step of the screens without a column (`(` cannot start a logged screen name).
    package static let otherName = "(other screens)"

    private(set) var names = ByteStringTable(capacity: 64)
    /// Per screen column, per unit: last time shown (`.min` when never).
    private(set) var lastShown: [[Int64]] = []
    /// Screen events per column.
    private(set) var events: [Int] = []
    /// Per unit: the last time any screen without a column was shown.
    private(set) var otherLastShown: [Int64] = []
    private(set) var otherEvents = 0
    private(set) var overflowed = false

    /// Notes that `unit` was shown screen `name` at `time`.
    mutating func add(_ name: Span<UInt8>, unit: Int, time: Int64) {
        // Once a name went to "other", no later one gets a column: none may have been missed.
        guard let screen = names.intern(name, limit: overflowed ? names.count : Self.limit) else {
            overflowed = true
            otherEvents += 1
            LogTally.ensure(&otherLastShown, unit, .min)
            otherLastShown[unit] = max(otherLastShown[unit], time)
            return
        }
        if screen == lastShown.count {
            lastShown.append([])
            events.append(0)
        }
        events[screen] += 1
        LogTally.ensure(&lastShown[screen], unit, .min)
        lastShown[screen][unit] = max(lastShown[screen][unit], time)
    }

    /// Adds `other` (units mapped through `unitMap`, those from `fresh` on new here with
    /// consecutive ids), folding into "other screens" every screen that either side may have
    /// counted there.
    mutating func merge(_ other: ScreenTally, unitMap: [Int], fresh: Int) {
        var kept: [Int] = []
        for screen in 0..<names.count {
            let present = names.withBytes(screen) { other.names.find($0) } != nil
            if present || !other.overflowed { kept.append(screen) } else { fold(lastShown[screen], events[screen], nil) }
        }
        rebuild(keeping: kept)
        for screen in 0..<other.names.count {
            let mine: Int? = other.names.withBytes(screen) { name in
                if let found = names.find(name) { return found }
                guard !overflowed, names.count < Self.limit else { return nil }
                return names.intern(name)
            }
            guard let mine else {
                fold(other.lastShown[screen], other.events[screen], unitMap)
                continue
            }
            if mine == lastShown.count {
                lastShown.append([])
                events.append(0)
            }
            events[mine] += other.events[screen]
            LogTally.mergeLatest(&lastShown[mine], other.lastShown[screen], unitMap: unitMap, fresh: fresh)
        }
        if other.overflowed { fold(other.otherLastShown, other.otherEvents, unitMap) }
    }

    /// Adds a column (this tally's units when `unitMap` is nil) to "other screens".
    private mutating func fold(_ column: [Int64], _ count: Int, _ unitMap: [Int]?) {
        overflowed = true
        otherEvents += count
        for (unit, time) in column.enumerated() where time != .min {
            let mine = unitMap?[unit] ?? unit
            LogTally.ensure(&otherLastShown, mine, .min)
            otherLastShown[mine] = max(otherLastShown[mine], time)
        }
    }

    /// Keeps only the columns `kept` (in order), renumbered from 0.
    private mutating func rebuild(keeping kept: [Int]) {
        guard kept.count < names.count else { return }
        var table = ByteStringTable(capacity: 64)
        for screen in kept { _ = names.withBytes(screen) { table.intern($0) } }
        names = table
        lastShown = kept.map { lastShown[$0] }
        events = kept.map { events[$0] }
    }
}
