/// What an aggregating source reports under one name besides whole experiments: a phase's own
/// exposures (`--phase`), a dimension's slice (`--dimension`) and the events before a cut (`--by`),
/// named after the experiment (or scope) they narrow. Names start with a unit separator (U+001F), which experiment keys do not
/// use, so they never meet a logged experiment's key.
package enum AggregateScope: String, Sendable {
    case phase, slice, cut

    /// The separator before and after the kind and the value.
    package static let separator = "\u{1F}"

    /// The name of `value`'s scope of `inner` (an experiment key or another scope's name).
    package func name(_ value: String, of inner: String) -> String {
        Self.separator + rawValue + Self.separator + value + Self.separator + inner
    }

    /// Whether `name` is a scope's name rather than an experiment's key.
    package static func isScope(_ name: String) -> Bool { name.hasPrefix(separator) }

    /// The cut (`cut`'s name of an empty inner name) whose events `name` counts; "" for all events.
    package static func cut(of name: String) -> String {
        let marker = separator + AggregateScope.cut.rawValue + separator
        guard let start = name.range(of: marker) else { return "" }
        guard let end = name[start.upperBound...].range(of: separator) else { return "" }
        return String(name[start.lowerBound..<end.upperBound])
    }

    /// The phase numbers `experiments` (names as a source reports them) hold of `key`.
    static func phases(of key: String, in names: some Sequence<String>) -> [Int] {
        let prefix = separator + AggregateScope.phase.rawValue + separator
        let suffix = separator + key
        return names.compactMap { name in
            guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
            let middle = name.dropFirst(prefix.count).dropLast(suffix.count)
            return Int(middle)
        }.sorted()
    }
}
