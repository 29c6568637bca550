/// GrowthBook's `paddedVersionString`, which makes version strings comparable as plain text:
/// drop a leading `v` and any `+build` suffix, split on `-` and `.`, add a `~` part to a bare
/// `x.y.z` (so a release sorts after its pre-releases), left-pad numeric parts with spaces to
/// five characters, and join the parts with `-`.
///
/// The comparison side works in a stack buffer so that evaluating `$vgte` and friends does
/// not allocate.
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
        let source = sourceUnits(of: value)
        return withPadded(source) { Array($0) }
    }

    /// Compares the padded forms of `value` and of the precomputed `expected` by code units:
    /// negative, zero or positive like `strcmp`.
    static func compare(_ value: AttributeValue, to expected: [UInt16]) -> Int {
        if case .string(let text) = value, !text.isEmpty {
            let ascii: Int?? = text.utf8.withContiguousStorageIfAvailable { bytes in
                for byte in bytes where byte >= 0x80 { return nil }
                return withPadded(bytes) { order($0, expected) }
            }
            if let known = ascii ?? nil { return known }
        }
        return withPadded(sourceUnits(of: value)) { order($0, expected) }
    }

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

    private static func order(_ left: UnsafeBufferPointer<UInt16>, _ right: [UInt16]) -> Int {
        let shared = min(left.count, right.count)
        var index = 0
        while index < shared {
            let a = left[index]
            let b = right[index]
            if a != b { return a < b ? -1 : 1 }
            index += 1
        }
        return left.count == right.count ? 0 : (left.count < right.count ? -1 : 1)
    }

    private static func withPadded<Source: RandomAccessCollection, Result>(
        _ source: Source,
        _ body: (UnsafeBufferPointer<UInt16>) -> Result
    ) -> Result where Source.Element: BinaryInteger, Source.Index == Int {
        // Each part grows to at most max(length, 5) and parts are at most count + 1, plus "-~".
        let capacity = 7 * source.count + 8
        return withUnsafeTemporaryAllocation(of: UInt16.self, capacity: capacity) { buffer in
            let length = writePadded(source, into: buffer)
            return body(UnsafeBufferPointer(rebasing: buffer[..<length]))
        }
    }

    private static func writePadded<Source: RandomAccessCollection>(
        _ source: Source,
        into buffer: UnsafeMutableBufferPointer<UInt16>
    ) -> Int where Source.Element: BinaryInteger, Source.Index == Int {
        let (start, end) = trimmedBounds(source)
        var partCount = 1
        var index = start
        while index < end {
            if isSeparator(source[index]) { partCount += 1 }
            index += 1
        }
        var written = 0
        var partStart = start
        while partStart <= end {
            var partEnd = partStart
            var numeric = true
            while partEnd < end, !isSeparator(source[partEnd]) {
                let unit = source[partEnd]
                if unit < 0x30 || unit > 0x39 { numeric = false }
                partEnd += 1
            }
            let length = partEnd - partStart
            if partStart > start {
                buffer[written] = 0x2D
                written += 1
            }
            if numeric, length > 0, length < 5 {
                for _ in length..<5 {
                    buffer[written] = 0x20
                    written += 1
                }
            }
            var cursor = partStart
            while cursor < partEnd {
                buffer[written] = UInt16(truncatingIfNeeded: source[cursor])
                written += 1
                cursor += 1
            }
            partStart = partEnd + 1
        }
        if partCount == 3 {
            buffer[written] = 0x2D
            buffer[written + 1] = 0x7E
            written += 2
        }
        return written
    }

    /// Bounds left after removing `^v` and `\+.*$` (the `+` must not be followed by a line
    /// terminator, since `.` does not match one).
    private static func trimmedBounds<Source: RandomAccessCollection>(
        _ source: Source
    ) -> (Int, Int) where Source.Element: BinaryInteger, Source.Index == Int {
        let start = source.first.map { $0 == 0x76 } == true ? 1 : 0
        var lastLineBreak = -1
        for index in 0..<source.count where isLineTerminator(source[index]) {
            lastLineBreak = index
        }
        var end = source.count
        var index = max(start, lastLineBreak + 1)
        while index < source.count {
            if source[index] == 0x2B {
                end = index
                break
            }
            index += 1
        }
        return (start, end)
    }

    @inline(__always)
    private static func isSeparator<Unit: BinaryInteger>(_ unit: Unit) -> Bool {
        unit == 0x2D || unit == 0x2E
    }

    @inline(__always)
    private static func isLineTerminator<Unit: BinaryInteger>(_ unit: Unit) -> Bool {
        unit == 0x0A || unit == 0x0D || unit == 0x2028 || unit == 0x2029
    }
}
