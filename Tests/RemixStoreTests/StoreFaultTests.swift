import Foundation
import RemixSystem
import RemixTestSupport
import Testing
@testable import RemixStore

/// The server crashes mid-run and comes back: `simulate` reconnects, retries the block it was
/// writing and ends with exactly the events of the run. It stops the shared server, so it runs on
/// its own (`.ci/run`: `.ci/with-postgres env REMIX_TEST_POSTGRES_FAULTS=1 swift test --filter
/// StoreFaultTests`), never beside the other database tests.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["REMIX_TEST_POSTGRES_FAULTS"] == "1",
                "fault tests restart the server: run them alone, as .ci/run does"))
struct StoreFaultTests {
    @Test func aServerRestartMidRunLosesAndDuplicatesNothing() async throws {
        let url = try StoreServer.urlText()
        let restart = try #require(ProcessInfo.processInfo.environment["REMIX_TEST_POSTGRES_RESTART"],
                                   "run inside .ci/with-postgres, which provides the restart script")
        let folder = try TemporaryFolder()
        let seed = StoreSimulationTests.uniqueSeed()
        let common = ["simulate", "--users", "6000", "--seed", seed, "--no-report", "--jobs", "2"]
        let process = Process()
        process.executableURL = RemixProcess.remix
        process.arguments = common + ["--log", url]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Once the first blocks are stored (progress is reported after each write), crash the server.
        var seen = Data()
        while !String(decoding: seen, as: UTF8.self).contains("progress: ") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen.append(chunk)
        }
        #expect(Self.runScript(restart) == 0)
        seen.append(errors.fileHandleForReading.readDataToEndOfFile())
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let stderr = String(decoding: seen, as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stderr.contains("warning: lost the event store"), "the restart happened mid-run: \(stderr)")
        let run = try #require(StoreSimulationTests.runID(stdout))
        let file = folder.path("events.jsonl")
        #expect(try RemixProcess.run(common + ["--log", file]).status == 0)
        #expect(try await StoreSimulationTests.storedTypes(run) == StoreSimulationTests.fileTypes(file))
    }

    /// Runs a script and waits for it with posix_spawn/waitpid (Foundation's Process did not notice
    /// this child's exit while another of its processes was running); its exit status, or -1.
    static func runScript(_ path: String) -> Int32 {
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
        defer { argv.forEach { free($0) } }
        guard posix_spawn(&pid, path, nil, nil, argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { return -1 }
        }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : -1
    }
}
