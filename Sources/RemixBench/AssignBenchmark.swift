import ArgumentParser
import RemixExperiments

/// `remix-bench assign`: assignments per second for an experiment with a targeting condition.
struct AssignBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assign",
        abstract: "Time the assignment engine on the inputs bench/growthbook_assign.py uses.")

    @Option(help: "How many assignments to time.")
    var runs: Int = 20_000_000

    @Flag(help: "Time a condition of operators the flat fast path does not take ($in, $ne, $exists), through the compiled matchers.")
    var operators = false

    func validate() throws {
        guard runs > 0 else { throw ValidationError("--runs must be positive") }
    }

    func run() throws {
        let users = BenchUsers.contexts
        let experiment = Experiment(
            key: "bench-tablet", variations: ["control", "treatment"], weights: [0.5, 0.5], coverage: 1,
            condition: operators
                ? ["platform": ["$in": ["tablet", "desktop"]], "appVersion": ["$vgte": "2.0", "$ne": "10.1.0"], "id": ["$exists": true]]
                : ["platform": "tablet", "appVersion": ["$vgte": "2.0"]],
            hashVersion: 2)
        let engine = AssignmentEngine()
        var inExperiment = 0
        var variationSum = 0
        for context in users {
            let result = engine.run(experiment, context: context)
            if result.inExperiment {
                inExperiment += 1
                variationSum += result.variationId
            }
        }
        var checksum = 0
        let runs = self.runs
        let seconds = BenchTimer.seconds {
            users.withUnsafeBufferPointer { buffer in
                for index in 0..<runs {
                    checksum &+= engine.run(experiment, context: buffer[index & (buffer.count - 1)]).variationId
                }
            }
        }
        print("remix assign: \(runs) runs in \(BenchTimer.format(seconds)) s = \(Int(Double(runs) / seconds)) assignments/s "
              + "(in experiment: \(inExperiment), variation sum: \(variationSum)) [checksum \(checksum)]")
    }
}

/// The benchmark's users: 16 384 ids with a platform and app version pattern shared with the
/// Python peer.
enum BenchUsers {
    static let count = 16_384
    static let contexts: [AssignmentContext] = {
        let platforms = ["tablet", "tablet", "tablet", "phone"]
        let versions = ["2.0", "2.3.1", "10.1.0", "1.9.9"]
        return (0..<count).map { index in
            AssignmentContext(attributes: [
                "id": .string("user-\(index)"),
                "platform": .string(platforms[index % 4]),
                "appVersion": .string(versions[(index / 4) % 4]),
            ])
        }
    }()
}

/// Wall-clock timing for benchmarks.
enum BenchTimer {
    /// Seconds `body` takes.
    static func seconds(_ body: () -> Void) -> Double {
        let elapsed = ContinuousClock().measure(body)
        return elapsed.seconds
    }

    /// Three decimals.
    static func format(_ seconds: Double) -> String {
        String((seconds * 1000).rounded() / 1000)
    }
}
