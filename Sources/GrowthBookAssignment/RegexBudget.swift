import Synchronization

/// The bound on `$regex` / `$regexi` tests. A test that needs more than ``maxSteps`` backtracking
/// steps gives up: its condition does not match (the session is not in the experiment) and the
/// pattern is recorded, so a command can print one warning per pattern when it finishes.
package enum RegexBudget {
    /// The most backtracking steps (ICU's saved states) one test may take: about 20 ms.
    package static let maxSteps = 1_000_000
    /// ICU reports progress every this many steps.
    static let stepsPerReport = 10_000

    /// A pattern that gave up, how often, and the first text it gave up on.
    package struct Overrun: Sendable, Equatable {
        package let pattern: String
        package let caseInsensitive: Bool
        package var count: Int
        package let example: String
    }

    private static let overruns = Mutex<[Overrun]>([])

    /// Records that `pattern` gave up on `text`.
    static func noteGivingUp(_ pattern: String, caseInsensitive: Bool, on text: String) {
        overruns.withLock { overruns in
            if let index = overruns.firstIndex(where: { $0.pattern == pattern && $0.caseInsensitive == caseInsensitive }) {
                overruns[index].count += 1
            } else {
                overruns.append(Overrun(pattern: pattern, caseInsensitive: caseInsensitive, count: 1, example: text))
            }
        }
    }

    /// The patterns that gave up since the last call, in the order they first did.
    package static func takeOverruns() -> [Overrun] {
        overruns.withLock { overruns in
            defer { overruns = [] }
            return overruns
        }
    }

    /// One warning per pattern that gave up since the last call, e.g. for a command to print
    /// once at its end.
    package static func takeWarnings() -> [String] {
        takeOverruns().map { overrun in
            let name = overrun.caseInsensitive ? "$regexi" : "$regex"
            let times = overrun.count == 1 ? "once" : "\(overrun.count) times"
            let example = overrun.example.count > 40 ? "\(overrun.example.prefix(40))… (\(overrun.example.count) characters)"
                : overrun.example
            return "warning: \(name) '\(overrun.pattern)' gave up after \(maxSteps) backtracking steps \(times) "
                + "(first on '\(example)'); its condition did not match, so those sessions are not in the "
                + "experiment. Simplify the pattern: nested quantifiers such as (a+)+ backtrack exponentially"
        }
    }
}
