import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Streams event logs through the byte scanner into tallies: files in parallel parts split at
/// line boundaries, standard input (`-`) in one stream. Memory is bounded by the read buffers and
/// the distinct units, never by the number of events.
enum LogReader {
    /// How much is read at a time, and the smallest file split across threads.
    struct Sizes {
        var chunk = 4 << 20
        var parallelMinimum = 16 << 20
    }

    /// Tallies every log in `paths` (`-` is standard input) with up to `jobs` threads.
    static func tally(paths: [String], tracked: [String], jobs: Int, sizes: Sizes = Sizes()) throws(AnalysisError) -> LogTally {
        var total = LogTally(tracked: tracked)
        for path in paths {
            let parts = try tallyFile(path, tracked: tracked, jobs: jobs, sizes: sizes)
            for part in parts {
                total.merge(part, lineOffset: total.lines)
            }
        }
        return total
    }

    private static func tallyFile(_ path: String, tracked: [String], jobs: Int, sizes: Sizes) throws(AnalysisError) -> [LogTally] {
        let descriptor = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        defer { if descriptor != STDIN_FILENO { close(descriptor) } }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
        let isRegular = (info.st_mode & S_IFMT) == S_IFREG
        if (info.st_mode & S_IFMT) == S_IFDIR { throw .cannotRead(path: path, reason: "it is a folder") }
        let size = Int(info.st_size)
        guard isRegular, jobs > 1, size > sizes.parallelMinimum else {
            var tally = LogTally(tracked: tracked)
            try scan(descriptor, from: 0, to: isRegular ? size : nil, chunk: sizes.chunk, into: &tally, path: path)
            return [tally]
        }
        let bounds = try boundaries(descriptor, size: size, parts: jobs, path: path)
        let results = PartResults(count: bounds.count - 1)
        DispatchQueue.concurrentPerform(iterations: bounds.count - 1) { part in
            var tally = LogTally(tracked: tracked)
            do throws(AnalysisError) {
                try scan(descriptor, from: bounds[part], to: bounds[part + 1], chunk: sizes.chunk, into: &tally, path: path)
                results.store(part, .success(tally))
            } catch {
                results.store(part, .failure(error))
            }
        }
        return try results.all()
    }

    /// Offsets that split the file into `parts` ranges, each starting at a line start.
    private static func boundaries(_ descriptor: Int32, size: Int, parts: Int, path: String) throws(AnalysisError) -> [Int] {
        var bounds = [0]
        var probe = [UInt8](repeating: 0, count: 64 << 10)
        for part in 1..<parts {
            var offset = max(size * part / parts, bounds.last ?? 0)
            searching: while offset < size {
                let read = probe.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
                guard read > 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
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

    /// Scans bytes `[start, end)` (to end of input when `end` is nil) line by line.
    private static func scan(_ descriptor: Int32, from start: Int, to end: Int?, chunk: Int, into tally: inout LogTally,
                             path: String) throws(AnalysisError) {
        var buffer = [UInt8](repeating: 0, count: max(chunk, 1))
        var kept = 0
        var offset = start
        var lineNumber = 0
        var fields = LineFields()
        while true {
            if kept == buffer.count { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
            let wanted = min(buffer.count - kept, end.map { $0 - offset } ?? Int.max)
            var read = 0
            if wanted > 0 {
                read = buffer.withUnsafeMutableBytes { raw in
                    let target = raw.baseAddress! + kept
                    return end == nil ? Glibc.read(descriptor, target, wanted) : pread(descriptor, target, wanted, off_t(offset))
                }
                guard read >= 0 else { throw .cannotRead(path: path, reason: String(cString: strerror(errno))) }
            }
            offset += read
            let available = kept + read
            let atEnd = read == 0
            var lineStart = 0
            buffer.withUnsafeBufferPointer { all in
                guard let base = all.baseAddress else { return }
                while lineStart < available {
                    guard let found = memchr(base + lineStart, 0x0A, available - lineStart) else { break }
                    let newline = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    lineNumber += 1
                    process(UnsafeBufferPointer(rebasing: all[lineStart..<newline]), number: lineNumber,
                            fields: &fields, tally: &tally, final: false)
                    lineStart = newline + 1
                }
                if atEnd, lineStart < available {
                    lineNumber += 1
                    process(UnsafeBufferPointer(rebasing: all[lineStart..<available]), number: lineNumber,
                            fields: &fields, tally: &tally, final: true)
                    lineStart = available
                }
            }
            // Outside the read access above, so the buffer is never copied to make room.
            kept = available - lineStart
            if kept > 0, lineStart > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    raw.baseAddress!.copyMemory(from: raw.baseAddress! + lineStart, byteCount: kept)
                }
            }
            if atEnd { return }
        }
    }

    private static func process(_ line: UnsafeBufferPointer<UInt8>, number: Int, fields: inout LineFields,
                                tally: inout LogTally, final: Bool) {
        tally.lines += 1
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return }
        var scanner = LineScanner(line)
        if scanner.scan(into: &fields), !fields.hasEscapes {
            tally.add(fields, in: line)
        } else if !FallbackParser.add(line, to: &tally) {
            if final { tally.tornFinalLine = true }
            tally.noteBadLine(number)
        }
    }
}

/// Per-part results of a parallel scan.
private final class PartResults: @unchecked Sendable {
    private var results: [Result<LogTally, AnalysisError>?]
    private let lock = NSLock()

    init(count: Int) {
        results = Array(repeating: nil, count: count)
    }

    func store(_ part: Int, _ result: Result<LogTally, AnalysisError>) {
        lock.withLock { results[part] = result }
    }

    func all() throws(AnalysisError) -> [LogTally] {
        var tallies: [LogTally] = []
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
