import Foundation
import RemixTestSupport
import Testing

/// The lines of a JSON Lines file, and whether its last line lacked a newline.
struct LogLines {
    var complete: [String]
    var torn: String?

    init(path: String) throws {
        let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
        var parts = text.components(separatedBy: "\n")
        let last = parts.removeLast()
        complete = parts
        torn = last.isEmpty ? nil : last
    }
}

/// Parses one line as a JSON object, or nil when it is not one.
func jsonObject(_ line: String) -> [String: Any]? {
    guard let data = line.data(using: .utf8) else { return nil }
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
}

/// Watching a `remix` run in the background (``BackgroundRemix``) from the repository root.
enum Remix {
    /// The repository root.
    static var root: URL { Repository.root }

    /// The size of the file at `path`, 0 when missing.
    static func size(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Polls until the file at `path` holds more than `bytes`, the process ended, or `limit` polls passed.
    /// Returns whether the file grew that far while the process was still running.
    static func waitForGrowth(_ path: String, beyond bytes: Int, of process: Process, limit: Int = 6000) -> Bool {
        for _ in 0..<limit {
            if !process.isRunning { return false }
            if size(path) > bytes { return true }
            usleep(5000)
        }
        return false
    }
}
