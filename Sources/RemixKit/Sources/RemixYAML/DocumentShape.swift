internal import CYaml

/// Checks a document's nesting depth and alias expansion from libyaml's event stream, before Yams
/// builds (and hashes) any node: an alias costs the size of what it repeats, so "billion laughs"
/// documents are measured, never expanded. Syntax errors are left for Yams to report.
///
/// Invariant of its `unsafe` uses (libyaml's C API): the parser and each event live inside
/// `scan`, the text's bytes outlive the parser, and an event's strings are read before the event
/// is deleted.
struct DocumentShape {
    /// Nodes as written (an alias counts once) and with every alias expanded.
    private(set) var written = 0
    private(set) var expanded = 0

    /// Throws the first limit `text` breaks, at the position of the node or alias that breaks it.
    static func check(_ text: String, file: String) throws(Diagnostic) {
        var shape = DocumentShape()
        if let problem = shape.scan(text, file: file, budget: nil) { throw problem }
        let budget = YAMLLimits.expandedNodeBudget(written: shape.written)
        guard shape.expanded > budget else { return }
        // Again, knowing the budget, to find the alias where the expansion crosses it.
        var again = DocumentShape()
        again.writtenInAll = shape.written
        throw again.scan(text, file: file, budget: budget)
            ?? again.tooLarge(at: SourceLocation(file: file, line: 1, column: 1), alias: nil, budget: budget)
    }

    /// An anchored node's size with aliases expanded, and how many levels of nesting it holds.
    private struct Extent {
        var nodes = 1
        var height = 0
    }

    /// An open mapping or list.
    private struct Frame {
        var extent = Extent(nodes: 1, height: 1)
        var anchor: String?
    }

    /// The nodes written in the whole document, for the message of the second scan.
    private var writtenInAll = 0
    private var anchors: [String: Extent] = [:]
    private var lastAlias: (name: String, location: SourceLocation)?
    private var open: [Frame] = []

    /// Walks the events; returns a diagnostic for the first broken limit (the expansion budget only
    /// when `budget` is given), nil when the document keeps them or does not parse.
    private mutating func scan(_ text: String, file: String, budget: Int?) -> Diagnostic? {
        var parser = unsafe yaml_parser_t()
        guard unsafe yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { unsafe yaml_parser_delete(&parser) }
        var text = text
        return text.withUTF8 { bytes -> Diagnostic? in
            unsafe yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var event = unsafe yaml_event_t()
            while unsafe yaml_parser_parse(&parser, &event) == 1 {
                defer { unsafe yaml_event_delete(&event) }
                let type = unsafe event.type
                if type == YAML_STREAM_END_EVENT { return nil }
                let location = unsafe SourceLocation(file: file, line: Int(event.start_mark.line) + 1,
                                                     column: Int(event.start_mark.column) + 1)
                if let problem = unsafe step(event, at: location, budget: budget) { return problem }
            }
            return nil
        }
    }

    /// Takes one event; returns the diagnostic of a limit it breaks.
    private mutating func step(_ event: yaml_event_t, at location: SourceLocation, budget: Int?) -> Diagnostic? {
        switch unsafe event.type {
        case YAML_SCALAR_EVENT:
            unsafe add(Extent(), anchor: Self.name(event.data.scalar.anchor))
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let anchor = unsafe event.type == YAML_SEQUENCE_START_EVENT
                ? Self.name(event.data.sequence_start.anchor) : Self.name(event.data.mapping_start.anchor)
            written += 1
            expanded = Self.sum(expanded, 1)
            open.append(Frame(anchor: anchor))
            if open.count > YAMLLimits.maxDepth { return tooDeep(at: location, alias: nil) }
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = open.popLast() else { return nil }
            finish(frame.extent, anchor: frame.anchor)
        case YAML_ALIAS_EVENT:
            guard let name = unsafe Self.name(event.data.alias.anchor), let extent = anchors[name] else { return nil }
            written += 1
            expanded = Self.sum(expanded, extent.nodes)
            finish(extent, anchor: nil)
            lastAlias = (name, location)
            if open.count + extent.height > YAMLLimits.maxDepth { return tooDeep(at: location, alias: name) }
        default:
            return nil
        }
        if written > YAMLLimits.maxNodes { return tooMany(at: location) }
        // Past the budget: blame the alias that just expanded, or the last one before this node.
        if let budget, expanded > budget, let last = lastAlias {
            return tooLarge(at: last.location, alias: last.name, budget: budget)
        }
        return nil
    }

    /// A scalar: one node written and expanded.
    private mutating func add(_ extent: Extent, anchor: String?) {
        written += 1
        expanded = Self.sum(expanded, 1)
        finish(extent, anchor: anchor)
    }

    /// A complete node (or an alias's copy) joins the collection it sits in.
    private mutating func finish(_ extent: Extent, anchor: String?) {
        if let anchor { anchors[anchor] = extent }
        guard !open.isEmpty else { return }
        open[open.count - 1].extent.nodes = Self.sum(open[open.count - 1].extent.nodes, extent.nodes)
        open[open.count - 1].extent.height = max(open[open.count - 1].extent.height, extent.height + 1)
    }

    private func tooDeep(at location: SourceLocation, alias: String?) -> Diagnostic {
        Diagnostic(location, .error, Self.tooDeepMessage(alias: alias))
    }

    static func tooDeepMessage(alias: String?) -> String {
        let how = alias.map { "alias '*\($0)' repeats nodes that nest" } ?? "mappings and lists nest"
        return "\(how) more than \(YAMLLimits.maxDepth) levels deep, the most a YAML file may have; flatten the structure"
    }

    private func tooMany(at location: SourceLocation) -> Diagnostic {
        Diagnostic(location, .error, "the document has more than \(YAMLLimits.maxNodes) nodes (values, lists and "
                   + "mappings), the most a YAML file may have; split it into smaller files")
    }

    private func tooLarge(at location: SourceLocation, alias: String?, budget: Int) -> Diagnostic {
        Diagnostic(location, .error, """
            \(alias.map { "alias '*\($0)' makes" } ?? "aliases make") the document too large: with aliases expanded it has more than \(budget) \
            nodes (the limit is \(YAMLLimits.aliasFactor) times the \(writtenInAll) nodes written, at least \
            \(YAMLLimits.minExpandedNodes) and at most \(YAMLLimits.maxNodes)); write the values out or nest \
            fewer aliases
            """)
    }

    private static func name(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        unsafe pointer.map { unsafe String(cString: $0) }
    }

    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (result, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : result
    }
}
