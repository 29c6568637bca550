import Foundation
import RemixTestSupport

/// Runs the deployment scripts (deploy/) as a user would, with fake `sbatch` and `kubectl` first on
/// `PATH`: each fake appends its arguments to `calls.log` in the folder and answers from its script.
struct DeployScriptRunner {
    let folder: TemporaryFolder

    /// A runner whose fakes live in a new temporary folder.
    init() throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(atPath: folder.path("bin"), withIntermediateDirectories: true)
    }

    /// Installs a fake command NAME whose body is the shell script `body`, after a line that logs
    /// its arguments.
    func fake(_ name: String, _ body: String) throws {
        let path = folder.path("bin/\(name)")
        try "#!/bin/sh\necho \"\(name) $*\" >>\"\(folder.path("calls.log"))\"\n\(body)\n".write(toFile: path, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
    }

    /// The fakes' calls, one line each, in order.
    var calls: [String] {
        (try? String(contentsOfFile: folder.path("calls.log"), encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
    }

    /// Runs the repository's `script` (a path below deploy/) with `arguments` in `directory` (the
    /// temporary folder by default), the fakes first on PATH and `environment` added.
    func run(_ script: String, _ arguments: [String], in directory: String? = nil,
             environment: [String: String] = [:]) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Repository.root.appendingPathComponent("deploy/\(script)").path] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory ?? folder.location)
        var merged = ProcessInfo.processInfo.environment
        merged["PATH"] = folder.path("bin") + ":" + (merged["PATH"] ?? "/usr/bin:/bin")
        for (name, value) in environment { merged[name] = value }
        process.environment = merged
        let stdout = Pipe(), stderr = Pipe()
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        let errors = DrainedHandle(stderr.fileHandleForReading)
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let errorText = errors.text()
        process.waitUntilExit()
        return ProcessResult(status: process.terminationStatus, stdout: String(decoding: output, as: UTF8.self), stderr: errorText)
    }
}
