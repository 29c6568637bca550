import Foundation
import RemixSystem

/// Streams event logs through the byte scanner into tallies: regular files in parallel parts
/// split at line boundaries, FIFOs and standard input (`-`) in one stream. Memory is bounded by
/// the read buffers (a line longer than ``Sizes/maxLineLength`` is never buffered whole) and the
/// distinct units, never by the number of events.
///
/// Memory safety: the read buffer is an array that is not resized while a pointer to it is held;
/// a read writes at most its free bytes (`wanted <= buffer.count - kept`), and the sinks see its
/// lines as `Span`s that cannot outlive the scan of one chunk.
package enum LogReader {
    /// How much is read at a time, the smallest file split across threads, the longest line.
    package struct Sizes {
        package var chunk: Int
        package var parallelMinimum: Int
        /// Longer lines are bad lines, skipped up to the next newline without being kept.
        package var maxLineLength: Int

        package init(chunk: Int = 4 << 20, parallelMinimum: Int = 16 << 20, maxLineLength: Int = 1 << 20) {
            self.chunk = chunk
            self.parallelMinimum = parallelMinimum
            self.maxLineLength = maxLineLength
        }
    }

    /// How a log is named in messages.
    package static func displayName(_ path: String) -> String { path == "-" ? "stdin" : path }

    /// Whether `path` can be read a second time (a regular file, not standard input or a FIFO).
    package static func isRereadable(_ path: String) -> Bool {
        guard path != "-" else { return false }
        var info = stat()
        return unsafe stat(path, &info) == 0 && info.st_mode & 0o170000 == 0o100000
    }

    package static func read<Sink: ConcurrentLineSink>(_ path: String, jobs: Int, sizes: Sizes,
                                             _ make: @Sendable () -> Sink) throws(LogReadError) -> [Sink] {
        let (descriptor, kind) = try LogFile.open(path)
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        let size = kind.size
        guard kind.isRegular, jobs > 1, size > sizes.parallelMinimum else {
            var tally = make()
            let read = try scan(descriptor, from: 0, to: kind.isRegular ? size : nil, sizes: sizes, into: &tally,
                                path: path)
            if kind.isFIFO, read == 0 { throw .cannotRead(path: path, reason: LogFile.emptyFIFO) }
            return [tally]
        }
        let bounds = try boundaries(descriptor, size: size, parts: jobs, path: path)
        let results = PartResults<Sink>(count: bounds.count - 1)
        DispatchQueue.concurrentPerform(iterations: bounds.count - 1) { part in
            var tally = make()
            do throws(LogReadError) {
                _ = try scan(descriptor, from: bounds[part], to: bounds[part + 1], sizes: sizes, into: &tally, path: path)
                results.store(part, .success(tally))
            } catch {
                results.store(part, .failure(error))
            }
        }
        return try results.all()
    }

    /// Offsets that split the file into `parts` ranges, each starting at a line start.
    private static func boundaries(_ descriptor: Int32, size: Int, parts: Int, path: String) throws(LogReadError) -> [Int] {
        var bounds = [0]
        var probe = [UInt8](repeating: 0, count: 64 << 10)
        for part in 1..<parts {
            var offset = max(size * part / parts, bounds.last ?? 0)
            searching: while offset < size {
                let read = unsafe probe.withUnsafeMutableBytes { unsafe pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
                guard read > 0 else { throw unsafe .cannotRead(path: path, reason: String(cString: strerror(errno))) }
                if let newline = probe[..<read].firstIndex(of: 0x0A) {
                    offset += newline + 1
                    break searching
                }
                offset += read
            }
            bounds.append(min(offset, size))
        }
        bounds.append(size)
        return bounds
    }

    /// Scans bytes `[start, end)` (to end of input when `end` is nil) line by line; returns how
    /// many bytes were read.
    private static func scan<Sink: LineSink>(_ descriptor: Int32, from start: Int, to end: Int?, sizes: Sizes, into tally: inout Sink,
                             path: String) throws(LogReadError) -> Int {
        var buffer = [UInt8](repeating: 0, count: max(sizes.chunk, 1))
        var lines = LineSplitter(maxLineLength: sizes.maxLineLength, numericNames: tally.numericNames,
                                 needles: tally.needles)
        var kept = 0
        var offset = start
        while true {
            // A line longer than the buffer (but not than the limit) makes it grow, up to the limit.
            if kept == buffer.count {
                buffer.append(contentsOf: repeatElement(0, count: min(buffer.count, sizes.maxLineLength + 1 - buffer.count)))
            }
            let wanted = min(buffer.count - kept, end.map { $0 - offset } ?? Int.max)
            var read = 0
            if wanted > 0 {
                assert(kept + wanted <= buffer.count, "a read past the buffer")
                read = unsafe buffer.withUnsafeMutableBytes { raw in
                    let target = unsafe raw.baseAddress! + kept
                    while true {
                        let count = unsafe end == nil ? SystemCalls.read(descriptor, target, wanted) : pread(descriptor, target, wanted, off_t(offset))
                        if count >= 0 || errno != EINTR { return count }
                    }
                }
                guard read >= 0 else { throw unsafe .cannotRead(path: path, reason: String(cString: strerror(errno))) }
            }
            offset += read
            let available = kept + read
            let atEnd = read == 0
            let consumed = unsafe buffer.withUnsafeBufferPointer { all in
                unsafe lines.split(UnsafeBufferPointer(rebasing: all[..<available]), atEnd: atEnd, into: &tally)
            }
            // Outside the read access above, so the buffer is never copied to make room.
            kept = available - consumed
            if kept > 0, consumed > 0 {
                assert(consumed + kept <= buffer.count, "a move past the buffer")
                unsafe buffer.withUnsafeMutableBytes { raw in
                    unsafe raw.baseAddress!.copyMemory(from: raw.baseAddress! + consumed, byteCount: kept)
                }
            }
            if atEnd { return offset - start }
        }
    }
}

/// Cuts buffered bytes into lines and counts each one; remembers, across reads, the line number
/// and whether it is inside an over-long line being skipped.
///
/// Memory safety: the bytes split are the caller's for the duration of ``split(_:atEnd:into:)``;
/// every search (`memchr`, `memcmp`) and read stays below their `count` (asserted where read),
/// and each line goes to the sink as a `Span`.
package struct LineSplitter {
    let maxLineLength: Int
    private var lineNumber = 0
    private var skipping = false
    private var decoded: [UInt8] = []

    /// Top-level number fields to keep (see ``LineScanner/numericNames``).
    let numericNames: [[UInt8]]
    /// Whether `session` is one of them.
    private let sessionIsNumeric: Bool

    /// When not empty, a line that holds none of these byte strings and no backslash is skipped
    /// unread (a pass over a log the first pass has checked).
    let needles: [[UInt8]]

    package init(maxLineLength: Int, numericNames: [[UInt8]] = [], needles: [[UInt8]] = []) {
        self.maxLineLength = maxLineLength
        self.numericNames = numericNames
        sessionIsNumeric = LineScanner.sessionIsNumeric(numericNames)
        self.needles = needles
    }

    /// Counts the complete lines of `bytes` (and at the end of input the last, unterminated one);
    /// returns how many bytes were used — the rest is the start of a line, to be read on.
    package mutating func split<Sink: LineSink>(_ bytes: Span<UInt8>, atEnd: Bool, into tally: inout Sink) -> Int {
        unsafe bytes.withUnsafeBufferPointer { unsafe split($0, atEnd: atEnd, into: &tally) }
    }

    /// ``split(_:atEnd:into:)`` over the reader's buffer.
    mutating func split<Sink: LineSink>(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool, into tally: inout Sink) -> Int {
        guard let base = bytes.baseAddress else {
            if atEnd, skipping { tally.tornFiles.append("") }
            return 0
        }
        var lineStart = 0
        // With needles: where each needle (and a backslash) next occurs, searched once per chunk
        // front to back, so a line before the nearest one is skipped without being looked at.
        var hits = Array(repeating: -1, count: needles.count + 1)
        while lineStart < bytes.count {
            guard let found = unsafe memchr(base + lineStart, 0x0A, bytes.count - lineStart) else { break }
            let newline = unsafe base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            if skipping {
                skipping = false
            } else if !needles.isEmpty, unsafe Self.nearestHit(&hits, base, from: lineStart, count: bytes.count, needles) >= newline {
                lineNumber += 1
                tally.lines += 1
            } else {
                lineNumber += 1
                unsafe process(UnsafeBufferPointer(rebasing: bytes[lineStart..<newline]), final: false, tally: &tally)
            }
            lineStart = newline + 1
        }
        let rest = bytes.count - lineStart
        if atEnd {
            if skipping {
                tally.tornFiles.append("")
            } else if rest > 0 {
                lineNumber += 1
                unsafe process(UnsafeBufferPointer(rebasing: bytes[lineStart...]), final: true, tally: &tally)
            }
            return bytes.count
        }
        if skipping { return bytes.count }
        if rest > maxLineLength {
            // Too long to keep: count it now and drop bytes up to the next newline.
            lineNumber += 1
            tally.lines += 1
            tally.noteBadLine(lineNumber, .tooLong(limit: maxLineLength))
            skipping = true
            return bytes.count
        }
        return lineStart
    }

    private mutating func process<Sink: LineSink>(_ line: UnsafeBufferPointer<UInt8>, final: Bool, tally: inout Sink) {
        tally.lines += 1
        if unsafe line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        guard let reason = unsafe count(line, tally: &tally) else { return }
        // Torn: what a writer stopped mid-line leaves — the start of an event line, cut short.
        if final, unsafe line.first == UInt8(ascii: "{") { tally.tornFiles.append("") }
        tally.noteBadLine(lineNumber, reason)
    }

    /// Counts one line; why it is bad if it is.
    private mutating func count<Sink: LineSink>(_ line: UnsafeBufferPointer<UInt8>, tally: inout Sink) -> BadLineReason? {
        guard line.count <= maxLineLength else { return .tooLong(limit: maxLineLength) }
        if !needles.isEmpty, unsafe !Self.mayHold(line, needles) { return nil }
        // A scanner per line, borrowing the line and the names (no reference counted for either).
        var scanner = unsafe LineScanner(line.span, numericNames: numericNames.span, sessionIsNumeric: sessionIsNumeric)
        var fields = LineFields()
        guard scanner.scan(into: &fields) else { return scanner.failure ?? .syntax(byte: 1) }
        guard fields.hasEscapes else { return unsafe tally.add(fields, in: line.span, raw: line.span) }
        guard let plain = unsafe EscapeDecoder.relayout(fields, of: line.span, into: &decoded) else { return .loneSurrogate }
        return unsafe tally.add(plain, in: decoded.span, raw: line.span)
    }
}

/// A sink whose parts of a log are filled on several threads: the threads' closure captures its
/// type, which Swift 6.2 and later check (`SendableMetatype`); earlier compilers have no such check.
#if compiler(>=6.2)
package typealias ConcurrentLineSink = LineSink & SendableMetatype
#else
package typealias ConcurrentLineSink = LineSink
#endif

/// What a pass over a log fills: counts lines and bad lines, and takes each well-formed object.
package protocol LineSink {
    var lines: Int { get set }
    var tornFiles: [String] { get set }
    /// Top-level number fields the scanner keeps for ``add(_:in:)``.
    var numericNames: [[UInt8]] { get }
    /// Lines without one of these (nor a backslash) are skipped unread; empty reads every line.
    var needles: [[UInt8]] { get }
    mutating func noteBadLine(_ number: Int, _ reason: BadLineReason)
    /// Takes one well-formed JSON object; why it is not an event if it is not. The line is a view
    /// into the reader's buffer, valid only during the call.
    mutating func add(_ fields: LineFields, in line: Span<UInt8>) -> BadLineReason?
    /// The same, with the line as written (`line` holds the needed fields decoded when the line
    /// has escapes); for sinks that read more than ``LineFields``.
    mutating func add(_ fields: LineFields, in line: Span<UInt8>, raw: Span<UInt8>) -> BadLineReason?
}

extension LineSink {
    package mutating func add(_ fields: LineFields, in line: Span<UInt8>, raw: Span<UInt8>) -> BadLineReason? {
        add(fields, in: line)
    }
}

extension LineSplitter {
    /// The nearest position at or after `start` of a backslash or a needle (`count` if none);
    /// `hits` keeps each one's last found position, searched again only once passed.
    static func nearestHit(_ hits: inout [Int], _ base: UnsafePointer<UInt8>, from start: Int, count: Int,
                           _ needles: [[UInt8]]) -> Int {
        var nearest = count
        for index in hits.indices {
            if hits[index] < start {
                let found: UnsafeMutableRawPointer?
                if index == needles.count {
                    unsafe found = unsafe memchr(base + start, 0x5C, count - start)
                } else {
                    unsafe found = unsafe find(needles[index], in: base, from: start, count: count)
                }
                hits[index] = unsafe found.map { unsafe base.distance(to: $0.assumingMemoryBound(to: UInt8.self)) } ?? count
            }
            nearest = min(nearest, hits[index])
        }
        return nearest
    }

    /// The first occurrence of `needle` in `base[start..<count]`: `memchr` for its anchor byte —
    /// an underscore, which JSON keys in camelCase rarely hold, else its last byte — then a compare.
    static func find(_ needle: [UInt8], in base: UnsafePointer<UInt8>, from start: Int, count: Int) -> UnsafeMutableRawPointer? {
        guard !needle.isEmpty else { return nil }
        let anchor = needle.firstIndex(of: UInt8(ascii: "_")) ?? needle.count - 1
        var position = start + anchor
        while position < count, let found = unsafe memchr(base + position, Int32(needle[anchor]), count - position) {
            let at = unsafe base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - anchor
            assert(at >= start, "a needle before the search")
            if at + needle.count <= count, unsafe memcmp(base + at, needle, needle.count) == 0 {
                return unsafe UnsafeMutableRawPointer(mutating: base + at)
            }
            position = at + anchor + 1
        }
        return nil
    }

    /// Whether `line` holds one of `needles` (each starting with a quote) or a backslash (an
    /// escape could spell one).
    static func mayHold(_ line: UnsafeBufferPointer<UInt8>, _ needles: [[UInt8]]) -> Bool {
        guard let base = line.baseAddress else { return false }
        if unsafe memchr(base, 0x5C, line.count) != nil { return true }
        var position = 0
        while position < line.count, let found = unsafe memchr(base + position, 0x22, line.count - position) {
            let quote = unsafe base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            // Each needle starts with a quote and holds two bytes or more, all within the line.
            for needle in needles where unsafe needle.count <= line.count - quote && base[quote + 1] == needle[1] {
                assert(needle.count >= 2 && quote + needle.count <= line.count, "a needle past the line")
                var same = true
                for index in 2..<needle.count where unsafe base[quote + index] != needle[index] {
                    same = false
                    break
                }
                if same { return true }
            }
            position = quote + 1
        }
        return false
    }
}

/// Per-part results of a parallel scan.
/// Unchecked `Sendable`: `results` is read and written only under `lock`, each part by one worker.
private final class PartResults<Sink>: @unchecked Sendable {
    private var results: [Result<Sink, LogReadError>?]
    private let lock = NSLock()

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    func store(_ part: Int, _ result: Result<Sink, LogReadError>) {
        lock.withLock { results[part] = result }
    }

    func all() throws(LogReadError) -> [Sink] {
        var tallies: [Sink] = []
        for result in lock.withLock({ results }) {
            switch result {
            case .success(let tally)?: tallies.append(tally)
            case .failure(let error)?: throw error
            case nil: throw .cannotRead(path: "", reason: "a part of the log was not read")
            }
        }
        return tallies
    }
}
