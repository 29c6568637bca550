/// The bounds every YAML document read through RemixYAML must keep, so a small hostile or broken
/// file (a "billion laughs" of nested aliases, runaway nesting, a huge file) is a clear error at
/// its position instead of a hang or a crash. docs/experiments.md lists them for users.
public enum YAMLLimits {
    /// The largest file or text read: 16 MiB.
    public static let maxBytes = 16 * 1024 * 1024
    /// The deepest nesting of mappings and lists, counting what aliases repeat.
    public static let maxDepth = 100
    /// With aliases expanded a document may have this many times the nodes it has as written...
    public static let aliasFactor = 100
    /// ...and always at least this many...
    public static let minExpandedNodes = 10_000
    /// ...but never more than this many: the most nodes (scalars, lists and mappings) a document
    /// may have, as written or expanded.
    public static let maxNodes = 1_000_000

    /// The expanded-node budget of a document with `written` nodes as written.
    public static func expandedNodeBudget(written: Int) -> Int {
        let (scaled, overflow) = written.multipliedReportingOverflow(by: aliasFactor)
        return min(maxNodes, max(minExpandedNodes, overflow ? maxNodes : scaled))
    }

    /// The error for a text of `bytes` bytes, if it is too large.
    static func checkSize(_ bytes: Int, file: String) throws(Diagnostic) {
        guard bytes > maxBytes else { return }
        throw Diagnostic(SourceLocation(file: file, line: 1, column: 1), .error,
                         "the file has \(bytes) bytes; a YAML file may have at most \(maxBytes) "
                         + "(\(maxBytes / 1_048_576) MiB): split it into smaller files")
    }
}
