import Foundation
import RemixCLITestSupport
import RemixHost
import RemixTestSupport
import Testing

/// Every command answers bad input one way: a message on standard error naming the value, and exit 1
/// — whether ArgumentParser or the command itself finds the problem. The commands run in process
/// (``RemixInProcess``); ``binaryExitsWithTheCommandsStatus()`` checks that the binary exits with
/// the status they return.
@Suite struct BadOptionTests {
    static let cases: [([String], String)] = [
        (["simulate", "--sessions", "-5"], "--sessions must be at least 1 (got -5)"),
        (["simulate", "--jobs", "-1"], "--jobs must be at least 1 (got -1)"),
        (["simulate", "--seed", "-1"], "'-1' is invalid for '--seed"),
        (["simulate", "--bogus"], "Unknown option '--bogus'"),
        (["analyze", "--alpha", "2"], "--alpha must be between 0 and 1 (got 2.0)"),
        (["analyze", "--alpha", "-0.5"], "--alpha must be between 0 and 1 (got -0.5)"),
        (["analyze", "--format", "xml"], "'xml' is invalid for '--format"),
        (["analyze", "--correction", "bonferroni"], "Please provide one of 'none', 'holm' or 'bh'"),
        (["analyze", "--jobs", "0"], "--jobs must be at least 1 (got 0)"),
        (["features", "--bogus"], "Unknown option '--bogus'"),
        (["validate", "--bogus"], "Unknown option '--bogus'"),
        (["assign"], "Missing expected argument"),
        (["run", "--attributes", "{bad"], "--attributes must be a JSON object"),
        (["run", "--at", "2026-02-31"], "--at must be a date"),
        (["export", "growthbook", "--bogus"], "Unknown option '--bogus'"),
        (["import", "growthbook"], "Missing expected argument"),
        (["frobnicate"], "remix: unknown command 'frobnicate'; known commands: analyze, assign, check, compare, export, features, "
            + "fit, import, log, plan, predict, routes, run, simulate, validate\n"),
        (["simulatee", "--users", "10"], "remix: unknown command 'simulatee'; did you mean 'simulate'? (known commands: analyze, "),
        (["log", "cpy", "a.jsonl", "b.jsonl"], "remix: unknown command 'log cpy'; did you mean 'log copy'? (known commands: log copy, log upgrade)\n"),
        (["check", "a"], "remix: unknown command 'check a'; did you mean 'check aa'?"),
        ([], "name a subcommand"),
        (["analyze", "x.jsonl", "--by", "day", "--dimension", "platform", "--format", "csv"], "CSV holds one"),
        (["log"], "name a subcommand: copy"),
        (["check"], "name a subcommand: aa"),
        (["export"], "name a subcommand: growthbook"),
        (["import"], "name a subcommand: growthbook"),
        (["plan", "--rate", "0.5", "--effect", "0.03", "--traffic", "1000", "--sequential", "--sequential-tuning", "1e308"],
         "--sequential-tuning must be from 1 to 10¹² (got 1e+308)"),
        (["plan", "--rate", "0.5", "--effect", "0.03", "--traffic", "1000", "--variations", "1000000000"],
         "--variations must be from 2 to 100"),
        (["plan", "--rate", "1.5"], "--rate must be between 0 and 1 (got 1.5)"),
        (["check", "aa", "--runs", "x"], "'x' is invalid for '--runs"),
        (["check", "aa", "--metric", "advert_publishd", "--runs", "10", "--users", "100"],
         "--metric 'advert_publishd' is not a key of experiments/metrics.yaml and not an event any registered feature emits; "
            + "did you mean 'advert_published'?"),
        (["routes", "--app", "nosuchapp"], "nosuchapp"),
        (["routes", "--depth", "x"], "'x' is invalid for '--depth"),
        (["log", "copy", "only-one.jsonl"], "Missing expected argument"),
        (["log", "copy", "no-such-log.jsonl", "other.jsonl"], "both are files"),
        (["simulate", "--html", "/no/such/folder/report.html", "--users", "10"], "the folder /no/such/folder does not exist"),
        (["run", "--log", "/no/such/folder/x.jsonl"], "the folder /no/such/folder does not exist"),
    ]

    /// A negative number reaches every numeric option (ArgumentParser took `-0.05` for an option and
    /// said "Missing value"), and is refused, where it means nothing, by a message naming the option.
    static let negativeNumbers: [([String], String)] = [
        (["check", "aa", "--runs", "-5"], "--runs must be at least 10 (got -5)"),
        (["check", "aa", "--users", "-5"], "--users must be at least 20 (got -5)"),
        (["check", "aa", "--alpha", "-0.5"], "--alpha must be between 0 and 1 (got -0.5)"),
        (["check", "aa", "--looks", "-1"], "--looks must be between 1 and 100 (got -1)"),
        (["check", "aa", "--jobs", "-1"], "--jobs must be at least 1 (got -1)"),
        (["check", "aa", "--seed", "-1"], "'-1' is invalid for '--seed <seed>': a seed is a whole number from 0 to 18446744073709551615"),
        (["plan", "--rate", "-0.5"], "--rate must be between 0 and 1 (got -0.5)"),
        (["plan", "--mean", "-5", "--stddev", "1"], "--mean must be above 0 (got -5.0)"),
        (["plan", "--mean", "5", "--stddev", "-1"], "--stddev must be above 0 (got -1.0)"),
        (["plan", "--rate", "0.5", "--traffic", "-5"], "--traffic must be above 0 units a day (got -5.0)"),
        (["plan", "--rate", "0.5", "--variations", "-2"], "--variations must be from 2 to 100, control included (got -2)"),
        (["plan", "--rate", "0.5", "--traffic", "5", "--days", "-7"], "--days must be above 0 (got -7.0)"),
        (["plan", "--rate", "0.5", "--power", "-0.8"], "--power must be between 0 and 1 (got -0.8)"),
        (["plan", "--rate", "0.5", "--alpha", "-0.05"], "--alpha must be between 0 and 1 (got -0.05)"),
        (["plan", "--rate", "0.5", "--sequential", "--sequential-tuning", "-5"], "--sequential-tuning must be from 1 to 10¹² (got -5.0)"),
        (["plan", "--rate", "0.5", "--effect", "-1.5"], "--effect must be above -1, a lift of −100 % (got -1.5)"),
        (["plan", "--simulate", "--experiment", "insertion-flow", "--sizes", "-500"], "--sizes is a comma-separated list"),
        (["plan", "--simulate", "--experiment", "insertion-flow", "--runs", "-1"], "--runs must be at least 10 (got -1)"),
        (["plan", "--seed", "-1"], "a seed is a whole number from 0 to 18446744073709551615"),
        (["run", "--seed", "-1"], "a seed is a whole number from 0 to 18446744073709551615"),
        (["simulate", "--shard", "-1/4"], "--shard must be I/N with 1 ≤ I ≤ N, e.g. 2/4 (got '-1/4')"),
        (["simulate", "--retry-seconds", "-5", "--log", "postgresql://localhost/remix"], "--retry-seconds must be 0 or more (got -5.0)"),
        (["routes", "--depth", "-1"], "--depth must be 0 to 12 (got -1)"),
        (["assign", "insertion-flow", "--force", "-1"], "--force: experiment 'insertion-flow' has no variation '-1'"),
    ]

    @Test(arguments: negativeNumbers)
    func negativeNumbersAreReadAndRefusedWhereTheyMeanNothing(arguments: [String], message: String) async throws {
        try await badInputExitsOneWithAMessage(arguments: arguments, message: message)
    }

    /// Where a negative number means something, it is taken: a fall to detect.
    @Test func aNegativeLiftIsPlannedFor() async throws {
        let result = await RemixInProcess.run(["plan", "--rate", "0.5", "--effect", "-0.05"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("to detect a lift of -5.00 %: 5,973 units per variation"), "\(result.stdout)")
    }

    @Test(arguments: cases)
    func badInputExitsOneWithAMessage(arguments: [String], message: String) async throws {
        let result = await RemixInProcess.run(arguments)
        #expect(result.status == 1, "exit \(result.status) for \(arguments): \(result.stderr)")
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error"))
    }

    /// The binary prints what the in-process runs print and exits with their status: 1 for an option
    /// ArgumentParser refuses and for a use case's error, 0 for `--version`.
    @Test func binaryExitsWithTheCommandsStatus() throws {
        let option = try RemixProcess.run(["simulate", "--bogus"])
        #expect(option.status == 1 && option.stderr.hasPrefix("remix: Unknown option '--bogus'"), "\(option.stderr)")
        let app = try RemixProcess.run(["run", "--app", "marketplce"])
        #expect(app.status == 1 && app.stderr.contains("remix: unknown app 'marketplce'; did you mean 'marketplace'?"), "\(app.stderr)")
        let version = try RemixProcess.run(["--version"])
        #expect(version.status == 0 && version.stdout == RemixVersion.number + "\n")
    }

    /// Counts past what an integer holds are printed, not converted (a crash before).
    @Test func planPrintsHugeCounts() async throws {
        let result = await RemixInProcess.run(["plan", "--rate", "0.5", "--effect", "0.03", "--traffic", "1e19"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("traffic 1e+19 units a day"), "\(result.stdout)")
    }

    @Test func versionAndHelpExitZero() async throws {
        let version = await RemixInProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout == RemixVersion.number + "\n")
        #expect(RemixVersion.text == "remix " + RemixVersion.number)
        let help = await RemixInProcess.run(["analyze", "--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--correction <correction>"))
        for command in ["simulate", "analyze"] {
            let help = await RemixInProcess.run([command, "--help"]).stdout
            let entry = try #require(help.components(separatedBy: "--jobs <jobs>").last?
                .components(separatedBy: "\n  -").first)
            #expect(entry.components(separatedBy: "default").count == 2, "one default for --jobs: \(entry)")
        }
    }
}
