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
        for (earlierIndex, index) in NamespaceSlices(live, check: self).unseparatedPairs() {
            let earlier = live[earlierIndex], later = live[index]
            if earlier.app == later.app, earlier.slot == later.slot {
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
        if let x = separable(a), let y = separable(b), x.group == y.group,
           x.slice.end <= y.slice.start || y.slice.end <= x.slice.start {
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

    /// The namespace slice that can separate `definition` from another, and the group of slices it
    /// can be separated from: the engine ignores the namespace when filters are set, and hashes each
    /// experiment's own hash attribute into the namespace, so only like-for-like namespaces separate.
    func separable(_ definition: ExperimentDefinition) -> (group: [String], slice: Namespace)? {
        guard definition.experiment.filters == nil, let namespace = definition.experiment.namespace else { return nil }
        return ([namespace.id, hashAttribute(definition)], namespace)
    }

    private func hashAttribute(_ definition: ExperimentDefinition) -> String {
        nonEmpty(definition.experiment.hashAttribute) ?? "id"
    }

    private func nonEmpty(_ text: String?) -> String? {
        text.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// The experiments of a list that disjoint slices of one namespace separate, found once for the
/// list so that a check of every pair need not look at them (a GrowthBook payload may put thousands
/// of rules in one namespace): a sweep of each namespace's slices by their start.
package struct NamespaceSlices {
    /// Each definition's group of comparable slices (nil: no slice can separate it), and its slice.
    private let groups: [Int?]
    private let slices: [Namespace?]

    /// The slices of `definitions`, in their order.
    package init(_ definitions: [ExperimentDefinition], check: SlotOverlapCheck) {
        var ids: [[String]: Int] = [:]
        var groups: [Int?] = []
        var slices: [Namespace?] = []
        for definition in definitions {
            guard let (group, slice) = check.separable(definition) else {
                groups.append(nil)
                slices.append(nil)
                continue
            }
            if ids[group] == nil { ids[group] = ids.count }
            groups.append(ids[group])
            slices.append(slice)
        }
        self.groups = groups
        self.slices = slices
    }

    /// Every pair of indices `(a, b)`, `a < b`, whose definitions do not take disjoint slices of one
    /// namespace — those for which ``SlotOverlapCheck/exclusive(_:_:)`` must look further — ordered
    /// by `b`, then `a`.
    package func unseparatedPairs() -> [(Int, Int)] {
        var pairs: [(Int, Int)] = []
        var members: [Int: [Int]] = [:]
        for (index, group) in groups.enumerated() {
            if let group { members[group, default: []].append(index) }
        }
        // No slice separates a definition without one: it is paired with every other (two such once).
        for a in groups.indices where groups[a] == nil {
            for b in groups.indices where b != a && (groups[b] != nil || b > a) { pairs.append((min(a, b), max(a, b))) }
        }
        let grouped = members.keys.sorted()
        for (position, group) in grouped.enumerated() {
            let inGroup = members[group] ?? []
            // Across groups, nothing separates them.
            for other in grouped[(position + 1)...] {
                for a in inGroup { pairs += (members[other] ?? []).map { (min(a, $0), max(a, $0)) } }
            }
            // Within one, sorted by start: each slice meets only the slices that start before it ends.
            let byStart = inGroup.sorted { slice($0).start < slice($1).start }
            for (rank, a) in byStart.enumerated() {
                for b in byStart[(rank + 1)...] {
                    guard slice(b).start < slice(a).end else { break }
                    pairs.append((min(a, b), max(a, b)))
                }
            }
        }
        return pairs.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }

    private func slice(_ index: Int) -> Namespace {
        slices[index] ?? Namespace(id: "", start: 0, end: 0)
    }
}
