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

/// Runs the `remix` executable built beside the test bundle, from the repository root.
enum Remix {
    static var executable: URL { RemixProcess.remix }

    /// The repository root.
    static var root: URL { Repository.root }

    struct Result {
        let status: Int32
        let reason: Process.TerminationReason
        let stdout: String
        let stderr: String
    }

    /// A configured, not yet started process whose output goes to files in `folder`.
    static func process(_ arguments: [String], outputIn folder: TemporaryFolder, tag: String) throws -> Process {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = root
        let out = folder.path("\(tag).stdout"), err = folder.path("\(tag).stderr")
        _ = FileManager.default.createFile(atPath: out, contents: nil)
        _ = FileManager.default.createFile(atPath: err, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        return process
    }

    /// Waits for `process` and collects what it wrote.
    static func finish(_ process: Process, outputIn folder: TemporaryFolder, tag: String) -> Result {
        process.waitUntilExit()
        func read(_ name: String) -> String {
            String(decoding: FileManager.default.contents(atPath: folder.path(name)) ?? Data(), as: UTF8.self)
        }
        return Result(status: process.terminationStatus, reason: process.terminationReason,
                      stdout: read("\(tag).stdout"), stderr: read("\(tag).stderr"))
    }

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
