/// GrowthBook's `paddedVersionString`, which makes version strings comparable as plain text:
/// drop a leading `v` and any `+build` suffix, split on `-` and `.`, add a `~` part to a bare
/// `x.y.z` (so a release sorts after its pre-releases), left-pad numeric parts with spaces to
/// five characters, and join the parts with `-`.
///
/// The padded text is produced one code unit at a time, so a comparison stops at the first
/// difference and allocates nothing.
enum PaddedVersion {
    /// Which version operator is being evaluated.
    enum Comparison: Sendable {
        case equal, notEqual, greater, greaterOrEqual, less, lessOrEqual

        func holds(ordering: Int) -> Bool {
            switch self {
            case .equal: return ordering == 0
            case .notEqual: return ordering != 0
            case .greater: return ordering > 0
            case .greaterOrEqual: return ordering >= 0
            case .less: return ordering < 0
            case .lessOrEqual: return ordering <= 0
            }
        }
    }

    /// The padded form of `value` as UTF-16 code units.
    static func units(of value: AttributeValue) -> [UInt16] {
        var units: [UInt16] = []
        forEachUnit(of: sourceUnits(of: value)) { unit in
            units.append(unit)
            return true
        }
        return units
    }

    /// Compares the padded form of `value` with the precomputed padded `expected`, by code
    /// units: negative, zero or positive like `strcmp`.
    static func compare(_ value: AttributeValue, to expected: UnsafeBufferPointer<UInt16>) -> Int {
        if case .string(let text) = value, !text.isEmpty {
            // ASCII text (nearly every version string) is read straight from its UTF-8 bytes.
            let ascii = unsafe text.utf8.withContiguousStorageIfAvailable { unsafe asciiOrder($0, expected) }
            if let known = ascii ?? nil { return known }
        }
        return unsafe order(sourceUnits(of: value), expected)
    }

    /// `order` of `bytes` when they are all ASCII, else nil.
    private static func asciiOrder(_ bytes: UnsafeBufferPointer<UInt8>, _ expected: UnsafeBufferPointer<UInt16>) -> Int? {
        for unsafe byte in unsafe bytes where byte >= 0x80 { return nil }
        return unsafe order(bytes, expected)
    }

    /// `compare` for the UTF-8 bytes of a non-empty ASCII string.
    static func compare(
        ascii source: UnsafeBufferPointer<UInt8>, to expected: UnsafeBufferPointer<UInt16>
    ) -> Int {
        unsafe order(source, expected)
    }

    private static func order<Source: RandomAccessCollection>(
        _ source: Source, _ expected: UnsafeBufferPointer<UInt16>
    ) -> Int where Source.Element: BinaryInteger, Source.Index == Int {
        var position = 0
        var ordering = 0
        forEachUnit(of: source) { unit in
            guard position < expected.count else {
                ordering = 1
                return false
            }
            let other = unsafe expected[position]
            if unit != other {
                ordering = unit < other ? -1 : 1
                return false
            }
            position += 1
            return true
        }
        if ordering != 0 { return ordering }
        return position == expected.count ? 0 : -1
    }

    /// `String(value)` for numbers, the text of a non-empty string, and `"0"` for anything else.
    private static func sourceUnits(of value: AttributeValue) -> [UInt16] {
        switch value {
        case .number(let number):
            return Array(JavaScriptNumber.string(number).utf16)
        case .string(let text) where !text.isEmpty:
            return Array(text.utf16)
        default:
            return [0x30]
        }
    }

    /// Calls `emit` with each code unit of the padded form of `source` until it returns false.
    @inline(__always)
    private static func forEachUnit<Source: RandomAccessCollection>(
        of source: Source, _ emit: (UInt16) -> Bool
    ) where Source.Element: BinaryInteger, Source.Index == Int {
        let (start, end, partCount) = layout(source)
        var partStart = start
        while true {
            var partEnd = partStart
            var numeric = true
            while partEnd < end, !isSeparator(source[partEnd]) {
                if source[partEnd] < 0x30 || source[partEnd] > 0x39 { numeric = false }
                partEnd += 1
            }
            if partStart > start, !emit(0x2D) { return }
            let length = partEnd - partStart
            if numeric, length > 0, length < 5 {
                for _ in length..<5 where !emit(0x20) { return }
            }
            for index in partStart..<partEnd where !emit(UInt16(truncatingIfNeeded: source[index])) {
                return
            }
            if partEnd >= end { break }
            partStart = partEnd + 1
        }
        if partCount == 3, emit(0x2D) {
            _ = emit(0x7E)
        }
    }

    /// Where the version proper starts and ends after removing `^v` and `\+.*$`, and how many
    /// `-`/`.`-separated parts it has. The `+` that starts a build suffix must not be followed
    /// by a line terminator, since `.` does not match one.
    @inline(__always)
    private static func layout<Source: RandomAccessCollection>(
        _ source: Source
    ) -> (start: Int, end: Int, partCount: Int) where Source.Element: BinaryInteger, Source.Index == Int {
        let start = source.first == 0x76 ? 1 : 0
        var plus = -1
        var separators = 0
        var separatorsBeforePlus = 0
        for index in source.indices {
            let unit = source[index]
            if unit == 0x0A || unit == 0x0D || unit == 0x2028 || unit == 0x2029 {
                plus = -1
            } else if unit == 0x2B {
                if plus < 0, index >= start {
                    plus = index
                    separatorsBeforePlus = separators
                }
            } else if isSeparator(unit) {
                separators += 1
            }
        }
        guard plus >= 0 else { return (start, source.count, separators + 1) }
        return (start, plus, separatorsBeforePlus + 1)
    }

    @inline(__always)
    private static func isSeparator<Unit: BinaryInteger>(_ unit: Unit) -> Bool {
        unit == 0x2D || unit == 0x2E
    }
}
