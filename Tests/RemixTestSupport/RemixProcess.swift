import Foundation
import RemixSystem
import Testing

/// What a child process printed and how it ended.
package struct ProcessResult: Sendable {
    package let status: Int32
    package let stdout: String
    package let stderr: String
    /// Ended by a signal (`status` is then the signal's number).
    package var signalled = false

    /// The result of a command that exited with `status` after writing `stdout` and `stderr`.
    package init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// `stderr` with each message whole (``unwrapped(_:)``).
    package var messages: String { Self.unwrapped(stderr) }

    /// `text` with each wrapped line whole: `remix` wraps long lines at the width, continuing them
    /// on indented lines; each line break followed by spaces becomes one space.
    package static func unwrapped(_ text: String) -> String {
        text.replacing(/\n +/, with: " ")
    }
}

/// A `remix` started in the background with its output going to files, for tests that race,
/// signal or kill it while it runs.
package final class BackgroundRemix {
    package let process = Process()
    private let output: String, errors: String

    /// Starts `remix arguments` in `directory`, its standard output and error going to
    /// `folder/tag.stdout` and `folder/tag.stderr`; `environment` sets variables.
    package init(_ arguments: [String], in directory: URL, outputIn folder: String, tag: String,
                environment: [String: String] = [:]) throws {
        output = folder + "/\(tag).stdout"
        errors = folder + "/\(tag).stderr"
        process.executableURL = RemixProcess.remix
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try Self.withStopSignalsOpen { try process.run() }
    }

    /// Runs `body` (which starts a child) with SIGINT and SIGTERM unblocked on this thread: a child
    /// inherits the starting thread's signal mask, the test runner's threads block them, and a
    /// user's shell starts `remix` with them open — so a test's signal reaches the child as a
    /// user's would, and a child that does not handle it ends as it would for the user.
    static func withStopSignalsOpen<T>(_ body: () throws -> T) rethrows -> T {
        var stops = sigset_t()
        sigemptyset(&stops)
        sigaddset(&stops, SIGINT)
        sigaddset(&stops, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &stops, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Sends `signal` once `ready` holds (checked every millisecond while the process runs, for a
    /// minute at most), then waits for the process; `wasReady` says whether `ready` held by then.
    package func stop(with signal: Int32, when ready: () -> Bool) -> (wasReady: Bool, result: ProcessResult) {
        var wasReady = false
        for _ in 0..<60_000 where process.isRunning {
            if ready() {
                wasReady = true
                break
            }
            usleep(1000)
        }
        kill(process.processIdentifier, signal)
        return (wasReady, finish())
    }

    /// Waits for the process and collects what it wrote.
    package func finish() -> ProcessResult {
        process.waitUntilExit()
        func read(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        var result = ProcessResult(status: process.terminationStatus, stdout: read(output), stderr: read(errors))
        result.signalled = process.terminationReason == .uncaughtSignal
        return result
    }
}

/// Runs the `remix` built with the tests as a user would: arguments, a working folder, changes to
/// the environment and piped input, with both outputs read to the end at once so a chatty child
/// never blocks on a full pipe.
package enum RemixProcess {
    /// The folder holding the test bundle and what was built with it (`remix`, plugins):
    /// `REMIX_BUILD_FOLDER` when it is set (the sanitizer runs point it at the debug build), else
    /// where the running test executable is (Linux: `/proc/self/exe`), else the folder of the loaded
    /// `.xctest` bundle (macOS), else the main bundle's folder.
    package static var buildFolder: URL {
        if let given = ProcessInfo.processInfo.environment["REMIX_BUILD_FOLDER"] { return URL(fileURLWithPath: given) }
        let proc = URL(fileURLWithPath: "/proc/self/exe")
        if FileManager.default.fileExists(atPath: proc.path) { return proc.resolvingSymlinksInPath().deletingLastPathComponent() }
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    /// The `remix` executable beside the test bundle. Every test that starts it gets it here, so
    /// that with `REMIX_SPAWN_LOG=FILE` each such test is written to FILE, a line per start: how the
    /// tests that spawn the binary are counted (docs/architecture.md#tests).
    package static var remix: URL {
        if spawnLog >= 0, let test = Test.current {
            let line = Array("\(test.id)\n".utf8)
            _ = line.withUnsafeBytes { write(spawnLog, $0.baseAddress, $0.count) }  // one append a line: lines never mix
        }
        return buildFolder.appendingPathComponent("remix")
    }

    /// `REMIX_SPAWN_LOG`, opened once for appending (a test run opening it per start ran out of
    /// file descriptors and lost lines), or -1.
    private static let spawnLog: Int32 = ProcessInfo.processInfo.environment["REMIX_SPAWN_LOG"].map {
        open($0, O_WRONLY | O_APPEND | O_CREAT, 0o644)
    } ?? -1

    /// Runs `remix arguments` in `directory`; `environment` sets variables (nil removes one);
    /// `input` is written to standard input, which is empty when nil; `outputFile` (e.g.
    /// `/dev/full`) receives standard output instead of the result's `stdout`, `errorFile`
    /// standard error instead of the result's `stderr`; with
    /// `addressSpaceKB`, remix runs under that address-space limit (`ulimit -v`), so that using
    /// more memory fails it.
    package static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String?] = [:],
                           input: String? = nil, outputFile: String? = nil, errorFile: String? = nil,
                           addressSpaceKB: Int? = nil) throws -> ProcessResult {
        let process = Process()
        if let addressSpaceKB {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", #"ulimit -v \#(addressSpaceKB) && exec "$0" "$@""#, remix.path] + arguments
        } else {
            process.executableURL = remix
            process.arguments = arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            var merged = ProcessInfo.processInfo.environment
            for (name, value) in environment { merged[name] = value }
            process.environment = merged
        }
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        let outputHandle = try outputFile.map { path in
            guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
            return handle
        }
        let errorHandle = try errorFile.map { path in
            guard let handle = FileHandle(forWritingAtPath: path) else { throw CocoaError(.fileWriteNoPermission) }
            return handle
        }
        process.standardOutput = outputHandle ?? stdout
        process.standardError = errorHandle ?? stderr
        try process.run()
        if let input {
            // A child that ends without reading it all (refusing a plugin at once) closes the pipe:
            // the write fails with EPIPE, which must not end the test run (`write(_:)` trapped).
            try? stdin.fileHandleForWriting.write(contentsOf: Data(input.utf8))
            try? stdin.fileHandleForWriting.close()
        }
        let errors = DrainedHandle(stderr.fileHandleForReading)
        if outputHandle != nil { try stdout.fileHandleForWriting.close() }
        if errorHandle != nil { try stderr.fileHandleForWriting.close() }
        let out = stdout.fileHandleForReading.readDataToEndOfFile()
        let err = errors.wait()
        process.waitUntilExit()
        var result = ProcessResult(status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
                                   stderr: String(decoding: err, as: UTF8.self))
        result.signalled = process.terminationReason == .uncaughtSignal
        return result
    }

}

/// Reads a file handle to its end on a thread of its own, so that a process writing to two pipes
/// never blocks on the one not being read.
/// Unchecked `Sendable`: `data` is written once, by the reading thread, before `done` is signalled,
/// and read only after waiting for that signal.
package final class DrainedHandle: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var data = Data()

    /// Starts reading `handle`.
    package init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            data = handle.readDataToEndOfFile()
            done.signal()
        }
    }

    /// Everything read, once the handle reached its end.
    package func wait() -> Data {
        done.wait()
        return data
    }

    /// Everything read, as UTF-8 text.
    package func text() -> String { String(decoding: wait(), as: UTF8.self) }
}
