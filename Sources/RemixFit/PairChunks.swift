/// Users' packed (column, value) pairs in fixed-size chunks: no array ever doubles — at the end of
/// a million-user log that copy alone would briefly hold three times the pairs — and at most the
/// last chunk stands partly empty. A user's pairs never straddle two chunks.
struct PairChunks {
    /// Pairs a chunk holds (also the most a user may have: a layout is narrower than this).
    static let size = 1 << 16
    private var columns: [[UInt16]] = []
    private var values: [[Float]] = []
    /// Where the next pair goes, as chunk × size + offset.
    private(set) var end = 0
    /// Pairs stored (without the unused ends of full chunks).
    private(set) var stored = 0

    /// Pairs the chunks have room for (what they take in memory, 6 bytes each).
    var capacity: Int { columns.count * Self.size }

    /// Room for `count` pairs in one chunk; where they start.
    mutating func reserve(_ count: Int) -> Int {
        precondition(count <= Self.size, "a user's pairs fit in one chunk")
        if end + count > capacity || (end % Self.size) + count > Self.size {
            end = capacity
            columns.append([UInt16](repeating: 0, count: Self.size))
            values.append([Float](repeating: 0, count: Self.size))
        }
        let start = end
        end += count
        stored += count
        return start
    }

    /// Writes pair `index` (a position from ``reserve(_:)``).
    mutating func set(_ index: Int, column: UInt16, value: Float) {
        columns[index / Self.size][index % Self.size] = column
        values[index / Self.size][index % Self.size] = value
    }

    func column(_ index: Int) -> UInt16 { columns[index / Self.size][index % Self.size] }
    func value(_ index: Int) -> Float { values[index / Self.size][index % Self.size] }

    /// Calls `body` with the `count` pairs from `start`.
    func withPairs<Result>(from start: Int, count: Int, _ body: (Span<UInt16>, Span<Float>) -> Result) -> Result {
        guard count > 0 else {
            let noColumns: [UInt16] = [], noValues: [Float] = []
            return body(noColumns.span, noValues.span)
        }
        let chunk = start / Self.size, range = (start % Self.size)..<(start % Self.size + count)
        // The chunks held here (a reference each, not a copy) for as long as `body` reads them.
        let chunkColumns = columns[chunk], chunkValues = values[chunk]
        return body(chunkColumns.span.extracting(range), chunkValues.span.extracting(range))
    }
}
