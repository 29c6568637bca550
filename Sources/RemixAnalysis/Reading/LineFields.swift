/// A byte range inside the line being scanned.
struct ByteSlice: Equatable {
    var start: Int
    var count: Int

    static let empty = ByteSlice(start: 0, count: 0)
    var isEmpty: Bool { count == 0 }
}

/// The fields of one log line that the analysis needs, as byte ranges into the line (strings are
/// raw JSON string contents without quotes; `hasEscapes` says whether any needed string contains
/// a backslash escape and must be decoded).
struct LineFields {
    var type = ByteSlice.empty
    var user = ByteSlice.empty
    /// The raw `ts` string; parsed only for lines that are counted.
    var timestamp = ByteSlice.empty
    var experiment = ByteSlice.empty
    var variation = ByteSlice.empty
    var variationID = -1
    var inExperiment = false
    var hashUsed = false
    var screen = ByteSlice.empty
    var feature = ByteSlice.empty
    var hasEscapes = false

    mutating func reset() {
        self = LineFields()
    }
}
