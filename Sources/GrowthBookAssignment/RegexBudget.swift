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

    /// A `$regex` (or, `caseInsensitive`, `$regexi`) pattern as a condition writes it.
    package struct Pattern: Sendable, Hashable {
        package let pattern: String
        package let caseInsensitive: Bool

        package init(_ pattern: String, caseInsensitive: Bool) {
            self.pattern = pattern
            self.caseInsensitive = caseInsensitive
        }
    }

    /// The `$regex` and `$regexi` patterns written anywhere in `condition` (a condition's JSON form).
    package static func patterns(in condition: AttributeValue) -> Set<Pattern> {
        var found = Set<Pattern>()
        func walk(_ value: AttributeValue) {
            if let object = value.objectValue {
                for (key, item) in object {
                    if key == "$regex" || key == "$regexi", let pattern = item.stringValue {
                        found.insert(Pattern(pattern, caseInsensitive: key == "$regexi"))
                    }
                    walk(item)
                }
            } else if let array = value.arrayValue {
                array.forEach(walk)
            }
        }
        walk(condition)
        return found
    }

    /// The overruns of `patterns` since they were last taken, in the order they first gave up.
    /// Only those are taken: a command asks for its own experiments' patterns, so that commands run
    /// side by side in one process (the tests) never take each other's.
    package static func takeOverruns(of patterns: Set<Pattern>) -> [Overrun] {
        overruns.withLock { overruns in
            let (taken, kept) = overruns.reduce(into: ([Overrun](), [Overrun]())) { parts, overrun in
                if patterns.contains(Pattern(overrun.pattern, caseInsensitive: overrun.caseInsensitive)) {
                    parts.0.append(overrun)
                } else {
                    parts.1.append(overrun)
                }
            }
            overruns = kept
            return taken
        }
    }

    /// One warning per pattern of `patterns` that gave up since they were last taken, e.g. for a
    /// command to print once at its end.
    package static func takeWarnings(of patterns: Set<Pattern>) -> [String] {
        takeOverruns(of: patterns).map { overrun in
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
