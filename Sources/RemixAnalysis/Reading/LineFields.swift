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
    var timestamp: Int64?
    var experiment = ByteSlice.empty
    var variation = ByteSlice.empty
    var variationID = -1
    var inExperiment = false
    var hashUsed = false
    var screen = ByteSlice.empty
    var hasEscapes = false

    mutating func reset() {
        self = LineFields()
    }
}

/// Field names the scanner recognises, as bytes.
enum FieldName {
    static let ts = Array("ts".utf8)
    static let type = Array("type".utf8)
    static let user = Array("user".utf8)
    static let experiment = Array("experiment".utf8)
    static let variation = Array("variation".utf8)
    static let variationId = Array("variationId".utf8)
    static let inExperiment = Array("inExperiment".utf8)
    static let hashUsed = Array("hashUsed".utf8)
    static let screen = Array("screen".utf8)
    static let exposure = Array("exposure".utf8)
    static let screenType = Array("screen".utf8)
}
