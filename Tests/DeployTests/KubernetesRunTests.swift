import Foundation
import RemixTestSupport
import Testing

/// deploy/kubernetes/run stops at a failed Job and writes a report only from a pod that succeeded.
@Suite struct KubernetesRunTests {
    /// A fake `kubectl` whose Jobs are in the states given ("Complete", "Failed" or "" for running)
    /// and whose analysis pods succeeded or failed as `analysisPods` says.
    private func runner(simulate: String, analyze: String, analysisPods: String = "Succeeded") throws -> DeployScriptRunner {
        let runner = try DeployScriptRunner()
        try runner.fake("kubectl", """
            case "$1 $2" in
              "get secret") exit 0 ;;
              "delete job" | "apply -f") exit 0 ;;
              "get job/remix-simulate") case "$4" in *range*) echo "\(simulate) " ;; *) echo "an index used up its retries" ;; esac ;;
              "get job/remix-analyze") case "$4" in *range*) echo "\(analyze) " ;; *) echo "backoff limit reached" ;; esac ;;
              "get pods")
                case "$*" in
                  *remix-analyze*phase=\(analysisPods)*) echo pod/remix-analyze-b ;;
                  *remix-simulate*phase=Failed*) echo pod/remix-simulate-2-x ;;
                esac ;;
              "logs pod/remix-analyze-b") echo '{"experiments":[]}' ;;
              logs*) echo "remix: could not reach the store" ;;
              *) echo "unexpected kubectl $*" >&2; exit 3 ;;
            esac
            """)
        return runner
    }

    @Test func writesTheReportOfTheAnalysisPodThatSucceeded() throws {
        let runner = try runner(simulate: "Complete", analyze: "Complete")
        let result = try runner.run("kubernetes/run", ["out.json"], environment: ["REMIX_KUBE_POLL_SECONDS": "0"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOfFile: runner.folder.path("out.json"), encoding: .utf8) == "{\"experiments\":[]}\n")
    }

    @Test func aFailedSimulationStopsTheRunWithoutAnalysing() throws {
        let runner = try runner(simulate: "FailureTarget Failed", analyze: "")
        let result = try runner.run("kubernetes/run", ["out.json"], environment: ["REMIX_KUBE_POLL_SECONDS": "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("job remix-simulate failed: an index used up its retries"), "\(result.stderr)")
        #expect(result.stderr.contains("remix: could not reach the store"))
        #expect(!runner.calls.contains { $0.contains("analyze-job.yaml") })
        #expect(!FileManager.default.fileExists(atPath: runner.folder.path("out.json")))
    }

    @Test func aFailedAnalysisWritesNoReportAndKeepsTheOldOne() throws {
        let runner = try runner(simulate: "Complete", analyze: "Failed", analysisPods: "Failed")
        let earlier = try runner.folder.write("out.json", "earlier report\n")
        let result = try runner.run("kubernetes/run", ["out.json"], environment: ["REMIX_KUBE_POLL_SECONDS": "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("job remix-analyze failed"), "\(result.stderr)")
        #expect(try String(contentsOfFile: earlier, encoding: .utf8) == "earlier report\n")
    }

    @Test func aJobThatDoesNotEndInTimeStopsTheRun() throws {
        let runner = try runner(simulate: "", analyze: "")
        let result = try runner.run("kubernetes/run", ["out.json", "--timeout", "0"], environment: ["REMIX_KUBE_POLL_SECONDS": "0"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("job remix-simulate did not end within 0 s"), "\(result.stderr)")
    }

    @Test func badOptionsAreRefusedBeforeAnyJobStarts() throws {
        let runner = try runner(simulate: "Complete", analyze: "Complete")
        for arguments in [["--timeout", "soon"], ["--timeout", "1h30m"], ["nodir/out.json"]] {
            let result = try runner.run("kubernetes/run", arguments)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.stderr.hasPrefix("run: "), "\(result.stderr)")
        }
        #expect(runner.calls.isEmpty)
    }
}
