import ArgumentParser

/// `remix-bench`: the benchmarks behind the project's performance numbers (release builds only).
@main
struct RemixBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "remix-bench",
        abstract: "Benchmarks for Remix; run through bench/ scripts, which also time the peers.",
        subcommands: [AssignBenchmark.self, EventLogBenchmark.self, SimulateBenchmark.self])
}
