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

/// Every user's feature vector, in one flat array (users in first-seen order).
struct UserFeatureTable {
    let layout: FeatureLayout
    private(set) var values: [Float] = []
    private(set) var users: [String: Int32] = [:]
    /// Each user's latest session start (ms), for the gaps between visits.
    private var lastStart: [Int64] = []

    init(layout: FeatureLayout) {
        self.layout = layout
    }

    var count: Int { lastStart.count }

    /// The row of `user`, added when new.
    mutating func row(of user: String) -> Int {
        if let row = users[user] { return Int(row) }
        let row = lastStart.count
        users[user] = Int32(row)
        lastStart.append(.min)
        values.append(contentsOf: repeatElement(0, count: layout.width))
        return row
    }

    subscript(row: Int, column: Int) -> Float {
        get { values[row * layout.width + column] }
        set { values[row * layout.width + column] = newValue }
    }

    /// Adds a sample to the (count, sum, sum of squares) triple at `column`.
    mutating func addSample(_ value: Double, row: Int, at column: Int) {
        self[row, column] += 1
        self[row, column + 1] += Float(value)
        self[row, column + 2] += Float(value * value)
    }

    /// Adds a positive sample to the (count, sum, sum of squares, sum of logs, sum of squared logs) at `column`.
    mutating func addTimeSample(_ value: Double, row: Int, at column: Int) {
        addSample(value, row: row, at: column)
        let logarithm = log(value)
        self[row, column + 3] += Float(logarithm)
        self[row, column + 4] += Float(logarithm * logarithm)
    }

    /// Counts a session of the user starting at `start` (ms), with the gap since their previous one.
    mutating func addSession(row: Int, start: Int64) {
        self[row, layout.sessions] += 1
        if lastStart[row] != .min { addSample(Double(abs(start - lastStart[row])) / 86_400_000, row: row, at: layout.gaps) }
        lastStart[row] = start
    }

    /// The user's vector.
    func vector(_ row: Int) -> ArraySlice<Float> {
        values[(row * layout.width)..<((row + 1) * layout.width)]
    }

    /// Bytes held per user (the vector, the id's table entry, the last start).
    var bytesPerUser: Int { layout.width * 4 + 8 + 24 }
}
