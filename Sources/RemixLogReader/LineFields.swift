/// A byte range inside the line being scanned.
package struct ByteSlice: Equatable {
    package var start: Int
    package var count: Int

    package init(start: Int, count: Int) {
        self.start = start
        self.count = count
    }

    static let empty = ByteSlice(start: 0, count: 0)
    /// A field the line does not have (or has with a non-string value).
    static let absent = ByteSlice(start: -1, count: 0)
    package var isEmpty: Bool { count == 0 }
    package var isPresent: Bool { start >= 0 }
}

/// The fields of one log line that the analysis needs, as byte ranges into the line (strings are
/// raw JSON string contents without quotes; `hasEscapes` says whether any needed string contains
/// a backslash escape and must be decoded, see ``EscapeDecoder``).
package struct LineFields {
    package var type = ByteSlice.absent
    package var user = ByteSlice.absent
    /// The raw `ts` string.
    package var timestamp = ByteSlice.absent
    package var experiment = ByteSlice.absent
    package var variation = ByteSlice.absent
    package var variationID = -1
    /// An exposure's `phase` (experiments with phases), -1 when absent or null.
    package var phase = -1
    package var inExperiment = false
    package var hashUsed = false
    package var screen = ByteSlice.absent
    package var feature = ByteSlice.absent
    package var hasEscapes = false
    /// Top-level numbers named by the scanner's `numericNames`, by index (at most
    /// ``LineFields/numericLimit``): `numbers[i]` is valid when bit i of `numberMask` is set; bit
    /// i of `notNumberMask` says the field is there but not a finite number.
    package var numbers = SIMD8<Double>()
    package var numberMask: UInt8 = 0
    package var notNumberMask: UInt8 = 0
    package static let numericLimit = 8

    /// No fields yet.
    package init() {}
}
