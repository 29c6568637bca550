import Foundation

/// Where each number of a user's feature vector is: everything the persona mixture reads about one
/// user, as counts and sums (a few dozen 4-byte numbers per user, whatever the number of events).
struct FeatureLayout: Sendable {
    let intents: Int
    let screens: Int

    /// Sessions the user made.
    var sessions: Int { 0 }
    /// Days between consecutive sessions: count, sum, sum of squares.
    var gaps: Int { 1 }
    /// Thinking time per step, seconds: count, sum, sum of squares, sum of logarithms and of their
    /// squares (which tell a skewed time from an even one).
    var think: Int { 4 }
    /// Text screens (dwell d = one think + a typing time per character × c characters): count of
    /// stays, and the sums of d, d², c, c² and d·c — a regression of dwell on characters.
    var typing: Int { 9 }
    /// Typing on screens that refuse a slip: stays, and stays where the user had to type again.
    var slips: Int { 15 }
    /// Per intent: sessions that began it.
    func tried(_ intent: Int) -> Int { 17 + intent }
    /// Per intent: sessions that reached its turn and did not begin it.
    func skipped(_ intent: Int) -> Int { 17 + intents + intent }
    private var screenBase: Int { 17 + 2 * intents }
    /// Per screen: steps the user went on from, gave up on, retried after an error on, gave up after an error on.
    func survived(_ screen: Int) -> Int { screenBase + screen }
    func abandoned(_ screen: Int) -> Int { screenBase + screens + screen }
    func retried(_ screen: Int) -> Int { screenBase + 2 * screens + screen }
    func gaveUpAfterError(_ screen: Int) -> Int { screenBase + 3 * screens + screen }
    /// Sessions that ended right after the user left `screen` in intent `intent` (an intent without
    /// a success event): done, or gave up — the mixture weighs both.
    func leftThenEnded(intent: Int, screen: Int) -> Int { screenBase + 4 * screens + intent * screens + screen }
    /// Numbers per user.
    var width: Int { screenBase + 4 * screens + intents * screens }
}

/// Every user's feature vector (users in first-seen order). A vector is mostly zeros — a user sees
/// a few screens of the app — so it is dense only while the log is adding to it, in a bounded set
/// of open rows, and packed as (column, value) pairs once other users have taken its place. A user
/// who comes back later is unpacked again. Memory grows with the numbers users have, not with the
/// layout's width or the log's events.
struct UserFeatureTable {
    let layout: FeatureLayout
    private(set) var users: [String: Int32] = [:]
    /// Each user's latest session start (ms), for the gaps between visits.
    private var lastStart: [Int64] = []
    /// Each user's packed pairs: where they start in `pairs`, and how many.
    private var packedStart: [UInt32] = []
    private var packedCount: [UInt16] = []
    private var packed = PairChunks()
    /// Pairs left behind by users who were unpacked again; compacted away by ``packAll()``.
    private var abandonedPairs = 0
    /// The open rows: dense vectors, which user each holds (-1: free), and each open user's slot.
    private var open: [Float] = []
    private var openUser: [Int32] = []
    private var slotOfUser: [Int32: Int32] = [:]
    /// The next slot to give up when every one is taken (oldest first).
    private var nextEviction = 0
    private let openCapacity: Int

    init(layout: FeatureLayout, openCapacity: Int = 4096) {
        self.layout = layout
        self.openCapacity = max(openCapacity, 1)
    }

    var count: Int { lastStart.count }

    /// The row of `user`, added when new.
    mutating func row(of user: String) -> Int {
        if let row = users[user] { return Int(row) }
        let row = lastStart.count
        users[user] = Int32(row)
        lastStart.append(.min)
        packedStart.append(0)
        packedCount.append(0)
        return row
    }

    subscript(row: Int, column: Int) -> Float {
        get {
            if let slot = slotOfUser[Int32(row)] { return open[Int(slot) * layout.width + column] }
            let start = Int(packedStart[row])
            for index in start..<(start + Int(packedCount[row])) where Int(packed.column(index)) == column {
                return packed.value(index)
            }
            return 0
        }
        set {
            let slot = openSlot(row)
            open[slot * layout.width + column] = newValue
        }
    }

    /// Adds a sample to the (count, sum, sum of squares) triple at `column`.
    mutating func addSample(_ value: Double, row: Int, at column: Int) {
        let base = openSlot(row) * layout.width + column
        open[base] += 1
        open[base + 1] += Float(value)
        open[base + 2] += Float(value * value)
    }

    /// Adds a positive sample to the (count, sum, sum of squares, sum of logs, sum of squared logs) at `column`.
    mutating func addTimeSample(_ value: Double, row: Int, at column: Int) {
        addSample(value, row: row, at: column)
        let logarithm = log(value)
        let base = openSlot(row) * layout.width + column
        open[base + 3] += Float(logarithm)
        open[base + 4] += Float(logarithm * logarithm)
    }

    /// Counts a session of the user starting at `start` (ms), with the gap since their previous one.
    mutating func addSession(row: Int, start: Int64) {
        self[row, layout.sessions] += 1
        if lastStart[row] != .min { addSample(Double(abs(start - lastStart[row])) / 86_400_000, row: row, at: layout.gaps) }
        lastStart[row] = start
    }

    /// Packs every open row (and drops pairs left behind): the form the mixture reads.
    mutating func packAll() {
        for slot in openUser.indices where openUser[slot] >= 0 { pack(slot: slot) }
        slotOfUser.removeAll()
        open = []
        openUser = []
        nextEviction = 0
        guard abandonedPairs > 0 else { return }
        var compacted = PairChunks()
        for row in 0..<count {
            let start = Int(packedStart[row]), pairs = Int(packedCount[row])
            let to = compacted.reserve(pairs)
            for index in 0..<pairs { compacted.set(to + index, column: packed.column(start + index), value: packed.value(start + index)) }
            packedStart[row] = UInt32(to)
        }
        (packed, abandonedPairs) = (compacted, 0)
    }

    /// Calls `body` with the user's columns and values (after ``packAll()``).
    func withPairs<Result>(_ row: Int, _ body: (Span<UInt16>, Span<Float>) -> Result) -> Result {
        packed.withPairs(from: Int(packedStart[row]), count: Int(packedCount[row]), body)
    }

    /// The users at `rows` alone, packed (after ``packAll()``): a sample to choose personas on.
    func sample(_ rows: [Int]) -> UserFeatureTable {
        var table = UserFeatureTable(layout: layout)
        for row in rows {
            let start = Int(packedStart[row]), pairs = Int(packedCount[row])
            let to = table.packed.reserve(pairs)
            for index in 0..<pairs { table.packed.set(to + index, column: packed.column(start + index), value: packed.value(start + index)) }
            table.lastStart.append(.min)
            table.packedStart.append(UInt32(to))
            table.packedCount.append(UInt16(pairs))
        }
        return table
    }

    /// Bytes held per user once packed: the chunks of pairs, where each user's are, the id's table
    /// entry, the last start.
    var bytesPerUser: Int {
        Int((Double(packed.capacity * 6) / Double(max(count, 1))).rounded(.up)) + 4 + 2 + 8 + 24
    }

    /// The open slot holding `row`'s dense vector, opening one (and packing its oldest holder when
    /// all are taken) if the row is packed.
    private mutating func openSlot(_ row: Int) -> Int {
        if let slot = slotOfUser[Int32(row)] { return Int(slot) }
        let width = layout.width
        let slot: Int
        if openUser.count < openCapacity {
            slot = openUser.count
            openUser.append(-1)
            open.append(contentsOf: repeatElement(0, count: width))
        } else {
            slot = nextEviction
            nextEviction = (nextEviction + 1) % openCapacity
            pack(slot: slot)
        }
        let base = slot * width
        let start = Int(packedStart[row])
        for index in start..<(start + Int(packedCount[row])) {
            open[base + Int(packed.column(index))] = packed.value(index)
        }
        abandonedPairs += Int(packedCount[row])
        packedCount[row] = 0
        openUser[slot] = Int32(row)
        slotOfUser[Int32(row)] = Int32(slot)
        return slot
    }

    /// Packs the slot's non-zero numbers as its user's pairs and frees the slot.
    private mutating func pack(slot: Int) {
        let row = Int(openUser[slot])
        guard row >= 0 else { return }
        let base = slot * layout.width
        var pairs = 0
        for column in 0..<layout.width where open[base + column] != 0 { pairs += 1 }
        let start = packed.reserve(pairs)
        var index = start
        for column in 0..<layout.width where open[base + column] != 0 {
            packed.set(index, column: UInt16(column), value: open[base + column])
            open[base + column] = 0
            index += 1
        }
        packedStart[row] = UInt32(start)
        packedCount[row] = UInt16(pairs)
        slotOfUser[Int32(row)] = nil
        openUser[slot] = -1
    }
}
