import RemixKit
import RemixYAML

/// Two live experiments on the same app slot must never both assign one session: they need one
/// namespace with disjoint ranges, hash filters with disjoint ranges, or schedules that do not
/// overlap — unless the slot's rules file lists both, which says which comes first (the first that
/// includes a session fills the slot, as in GrowthBook).
package struct SlotOverlapCheck {
    /// A check of every pair of live experiments on a slot.
    package init() {}

    func problems(in set: ExperimentSet) -> [Diagnostic] {
        let definitions = set.definitions
        let live = definitions.filter(\.isLive).sorted { $0.key < $1.key }
        var problems: [Diagnostic] = []
        for (index, later) in live.enumerated() {
            for earlier in live[..<index] where earlier.app == later.app && earlier.slot == later.slot {
                let ordered = set.rules(app: later.app, slot: later.slot).map {
                    $0.experimentKeys.contains(earlier.key) && $0.experimentKeys.contains(later.key)
                } ?? false
                if !ordered, !exclusive(earlier, later) {
                    problems.append(Diagnostic(later.location(of: "slot"), .error, """
                        experiments '\(earlier.key)' (\(earlier.file)) and '\(later.key)' both fill \
                        \(later.app)/\(later.slot) and can assign the same session; give both the same \
                        namespace with non-overlapping ranges (or disjoint filters or schedules), or list both \
                        in a rules file of the slot to say which comes first
                        """ + room(for: later, or: earlier, among: definitions)))
                }
            }
        }
        return problems
    }

    /// Where there is room for `a`: the slices the other experiments take in the namespace `a` (or
    /// else `b`) uses, and what they leave free.
    private func room(for a: ExperimentDefinition, or b: ExperimentDefinition, among definitions: [ExperimentDefinition]) -> String {
        let map = NamespaceMap(definitions.filter { $0.key != a.key })
        guard let id = a.experiment.namespace?.id ?? b.experiment.namespace?.id,
              let slices = map.namespaces.first(where: { $0.id == id })?.slices else { return "" }
        let free = map.free(in: id)
        return "; in namespace '\(id)' the others take " + slices.filter { $0.experiment != nil }.map(\.description)
            .joined(separator: ", ")
            + (free.isEmpty ? " and leave no free range: narrow one of them to make room"
                            : "; free: " + free.map { "[\(NamespaceMap.Slice.number($0.start)), \(NamespaceMap.Slice.number($0.end)))" }
                                .joined(separator: ", "))
    }

    /// Whether `a` and `b` can never both include one session.
    package func exclusive(_ a: ExperimentDefinition, _ b: ExperimentDefinition) -> Bool {
        // The engine ignores the namespace when filters are set, and hashes each experiment's own
        // hash attribute into the namespace, so only like-for-like namespaces separate.
        if a.experiment.filters == nil, b.experiment.filters == nil,
           hashAttribute(a) == hashAttribute(b),
           let x = a.experiment.namespace, let y = b.experiment.namespace, x.id == y.id,
           x.end <= y.start || y.end <= x.start {
            return true
        }
        if filtersExclusive(a, b) { return true }
        if let aEnd = a.schedule?.end, let bStart = b.schedule?.start, aEnd <= bStart { return true }
        if let bEnd = b.schedule?.end, let aStart = a.schedule?.start, bEnd <= aStart { return true }
        return false
    }

    private func filtersExclusive(_ a: ExperimentDefinition, _ b: ExperimentDefinition) -> Bool {
        for x in a.experiment.filters ?? [] {
            for y in b.experiment.filters ?? [] {
                // A filter hashes `id` unless it names its attribute (GrowthBook's rule).
                let sameHash = x.seed == y.seed && (x.hashVersion ?? 2) == (y.hashVersion ?? 2)
                    && nonEmpty(x.attribute) ?? "id" == nonEmpty(y.attribute) ?? "id"
                let disjoint = x.ranges.allSatisfy { r in
                    y.ranges.allSatisfy { s in r.end <= s.start || s.end <= r.start }
                }
                if sameHash && disjoint { return true }
            }
        }
        return false
    }

    private func hashAttribute(_ definition: ExperimentDefinition) -> String {
        nonEmpty(definition.experiment.hashAttribute) ?? "id"
    }

    private func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }
}
