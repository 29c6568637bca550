import Foundation
import RemixFormats
import RemixKit
import RemixSystem

/// Checks a path before a run writes its event log there, so that a slip of the `--log` option
/// never destroys a file that is not a log: a run that replaces a log only replaces something that
/// is one (empty, or starting like a JSON line). That the log is none of the run's inputs is
/// checked with every other output (`RemixFiles.OutputCheck`).
package enum LogTarget {
    /// What a file at a log's path holds, as far as replacing it goes.
    package enum Contents: Equatable, Sendable {
        /// No file, an empty one, or no regular file (opening it says what is wrong): nothing to lose.
        case nothing
        /// The log of an earlier `remix simulate` run: its first line is that run's record.
        case simulatedLog
        /// Events `remix simulate` did not write first: from `remix run`, another tool, by hand.
        case otherEvents
        /// No event log: its first line is not a JSON object.
        case notALog
    }

    /// Why the log cannot be written at `path`, or nil. `replacing` says the run empties the file
    /// first (no `--append`); a run that appends to a file that is not a log is refused too.
    package static func problem(path: String, replacing: Bool) -> String? {
        guard contents(of: path) == .notALog else { return nil }
        return "refusing to \(replacing ? "replace" : "append to") \(path): \(notALog); "
            + (replacing ? "remove it first or choose another --log" : "choose another --log")
    }

    /// Why a file that is not a log is refused.
    package static let notALog = "it does not look like an event log (its first line is not a JSON object)"

    /// The most of a file read to find its first line.
    private static let firstLineLimit = 1 << 16

    /// What the file at `path` holds, judged by its first line that is not blank.
    package static func contents(of path: String) -> Contents {
        var status = stat()
        guard unsafe stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG, status.st_size > 0,
              let line = firstLine(path) else { return .nothing }
        guard line.first == UInt8(ascii: "{") else { return .notALog }
        return isSimulateRecord(Array(line)) ? .simulatedLog : .otherEvents
    }

    /// Whether `line` is the record `remix simulate` writes first: a `run` line with the user
    /// indices it simulated and no `mode` (`remix run` and `remix log copy` write theirs with one).
    private static func isSimulateRecord(_ line: [UInt8]) -> Bool {
        guard case .object(let fields)? = try? JSONReader<EventValue>.parse(line) else { return false }
        let names = Set(fields.map(\.name))
        return fields.contains { $0.name == "type" && $0.value == .string("run") } && names.contains("userIndices")
            && !names.contains("mode")
    }

    /// The file's first line that is not blank, without its newline (cut at 64 KiB); nil when the
    /// file cannot be read or is blank.
    private static func firstLine(_ path: String) -> ArraySlice<UInt8>? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let isVisible = { (byte: UInt8) in ![0x20, 0x09, 0x0A, 0x0D].contains(byte) }
        var bytes: [UInt8] = []
        while bytes.count < firstLineLimit, let chunk = try? handle.read(upToCount: 4096), !chunk.isEmpty {
            bytes += chunk
            if let start = bytes.firstIndex(where: isVisible), bytes[start...].contains(0x0A) { break }
        }
        guard let start = bytes.firstIndex(where: isVisible) else { return nil }
        return bytes[start..<(bytes[start...].firstIndex(of: 0x0A) ?? bytes.endIndex)]
    }
}
