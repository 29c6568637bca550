/// A node of a parsed YAML document that remembers where it came from, so every type or shape
/// problem can be reported at its line and column.
/// Unchecked `Sendable`: Yams' `Node` is not marked `Sendable`, but a parsed node is never
/// mutated (only read through `let`s), so sharing it between threads is safe.
public struct YAMLValue: @unchecked Sendable {
    /// The underlying Yams node.
    public let node: Node
    /// Where the node starts.
    public let location: SourceLocation

    init(node: Node, file: String) {
        self.node = node
        self.location = SourceLocation(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1)
    }

    /// Parses a whole document; an empty document is an empty mapping at 1:1. A document that
    /// breaks one of ``YAMLLimits`` (size, nesting, alias expansion) is an error, never built.
    public static func parse(_ text: String, file: String) throws(Diagnostic) -> YAMLValue {
        try YAMLLimits.checkSize(text.utf8.count, file: file)
        try DocumentShape.check(text, file: file)
        do {
            let node = try Yams.compose(yaml: text) ?? Node.mapping(Node.Mapping([]))
            return YAMLValue(node: node, file: file)
        } catch let error as YamlError {
            throw diagnostic(for: error, file: file, text: text)
        } catch {
            throw Diagnostic(SourceLocation(file: file, line: 1, column: 1), .error, "cannot read YAML: \(error)")
        }
    }

    private static func diagnostic(for error: YamlError, file: String, text: String) -> Diagnostic {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _),
             let .composer(context, problem, mark, _):
            if problem.hasPrefix("Maximum nesting level") {  // libyaml's own bound, past ours
                return Diagnostic(SourceLocation(file: file, line: mark.line, column: mark.column), .error,
                                  DocumentShape.tooDeepMessage(alias: nil))
            }
            let what = context.map { "\(problem) (\($0.text) at line \($0.mark.line))" } ?? problem
            return Diagnostic(SourceLocation(file: file, line: mark.line, column: mark.column), .error,
                              "malformed YAML: \(what)")
        case let .duplicatedKeysInMapping(duplicates, context):
            // Yams marks the first occurrence; point at the repeat, where the user must act.
            let key = duplicates.first ?? ""
            let repeated = repeatedKey(key, after: context.mark, in: text)
            return Diagnostic(SourceLocation(file: file, line: repeated?.line ?? context.mark.line,
                                             column: repeated?.column ?? context.mark.column),
                              .error, "duplicate key '\(key)' (first at line \(context.mark.line))")
        default:
            return Diagnostic(SourceLocation(file: file, line: 1, column: 1), .error, "malformed YAML: \(error)")
        }
    }

    /// The next line after `mark` holding `key:` at the same column, as (line, column).
    private static func repeatedKey(_ key: String, after mark: Mark, in text: String) -> (line: Int, column: Int)? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard mark.line >= 1, mark.line <= lines.count else { return nil }
        for index in mark.line..<lines.count {
            let line = lines[index]
            let indent = line.prefix { $0 == " " }.count
            if indent == mark.column - 1, line.dropFirst(indent).hasPrefix(key + ":") {
                return (index + 1, mark.column)
            }
        }
        return nil
    }

    private func fail(_ message: String) -> Diagnostic { Diagnostic(location, .error, message) }

    /// A short description of the node's kind, for messages.
    public var kind: String {
        switch node {
        case .scalar: "a scalar"
        case .mapping: "a mapping"
        case .sequence: "a list"
        case .alias: "an alias"
        }
    }

    /// Whether the node is YAML null (`~`, `null` or empty).
    public var isNull: Bool { node.null != nil && node.scalar?.style == .plain }

    /// The node as a mapping.
    public func mapping(_ what: String = "value") throws(Diagnostic) -> YAMLMapping {
        guard case .mapping(let mapping) = node else { throw fail("\(what) must be a mapping, not \(kind)") }
        var entries: [YAMLMapping.Entry] = []
        var firstLines: [String: Int] = [:]
        for (key, value) in mapping {
            let keyValue = YAMLValue(node: key, file: location.file)
            guard let name = key.scalar?.string else { throw keyValue.fail("mapping keys must be plain names") }
            if let first = firstLines.updateValue(keyValue.location.line, forKey: name) {
                throw keyValue.fail("duplicate key '\(name)' (first at line \(first))")
            }
            entries.append(YAMLMapping.Entry(key: name, keyLocation: keyValue.location,
                                             value: YAMLValue(node: value, file: location.file)))
        }
        return YAMLMapping(location: location, entries: entries)
    }

    /// The node as a list.
    public func sequence(_ what: String = "value") throws(Diagnostic) -> [YAMLValue] {
        guard case .sequence(let sequence) = node else { throw fail("\(what) must be a list, not \(kind)") }
        return sequence.map { YAMLValue(node: $0, file: location.file) }
    }

    /// The node as a string; plain numbers and booleans are taken as their text.
    public func string(_ what: String = "value") throws(Diagnostic) -> String {
        guard let scalar = node.scalar else { throw fail("\(what) must be text, not \(kind)") }
        return scalar.string
    }

    /// The node as an integer.
    public func int(_ what: String = "value") throws(Diagnostic) -> Int {
        guard let scalar = node.scalar, let value = Int(scalar.string) else {
            throw fail("\(what) must be a whole number, not \(describe)")
        }
        return value
    }

    /// The node as a floating-point number.
    public func double(_ what: String = "value") throws(Diagnostic) -> Double {
        guard let scalar = node.scalar, scalar.style == .plain, let value = node.float ?? node.int.map(Double.init) else {
            throw fail("\(what) must be a number, not \(describe)")
        }
        return value
    }

    /// The node as a boolean (`true`/`false`).
    public func bool(_ what: String = "value") throws(Diagnostic) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else {
            throw fail("\(what) must be true or false, not \(describe)")
        }
        switch scalar.string {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: throw fail("\(what) must be true or false, not \(describe)")
        }
    }

    /// The node quoted for a message: its text for scalars, its kind otherwise.
    public var describe: String {
        if let scalar = node.scalar { return "'\(scalar.string)'" }
        return kind
    }
}

/// A YAML mapping with positions for its keys and values.
public struct YAMLMapping: Sendable {
    /// One key and its value.
    public struct Entry: Sendable {
        /// The key.
        public let key: String
        /// Where the key is.
        public let keyLocation: SourceLocation
        /// The value.
        public let value: YAMLValue
    }

    /// Where the mapping starts.
    public let location: SourceLocation
    /// The entries in file order.
    public let entries: [Entry]

    /// The value of `key`, or nil.
    public subscript(key: String) -> YAMLValue? { entries.first { $0.key == key }?.value }

    /// The value of `key`; its absence is an error at the mapping.
    public func required(_ key: String, in what: String) throws(Diagnostic) -> YAMLValue {
        guard let value = self[key] else {
            throw Diagnostic(location, .error, "\(what) needs '\(key)'")
        }
        return value
    }

    /// Diagnostics for keys not in `allowed`, each suggesting the key `nearest` finds.
    public func unknownKeys(
        allowed: [String], in what: String, severity: Severity = .error,
        nearest: (String, [String]) -> String?
    ) -> [Diagnostic] {
        entries.filter { !allowed.contains($0.key) }.map { entry in
            let near = nearest(entry.key, allowed)
            let hint = near.map { "; did you mean '\($0)'?" } ?? "; known keys: \(allowed.joined(separator: ", "))"
            return Diagnostic(entry.keyLocation, severity, "unknown key '\(entry.key)' in \(what)\(hint)")
        }
    }
}
