/// Which slices of each namespace the experiments take, and which are free: what a person adding
/// an experiment needs to know to find room (`remix validate --namespaces`, and the overlap error).
package struct NamespaceMap: Sendable, Equatable {
    /// A slice `[start, end)` of a namespace, taken by an experiment or free.
    package struct Slice: Sendable, Equatable {
        package var start: Double
        package var end: Double
        /// The experiment that takes it, or nil when it is free.
        package var experiment: String?
        /// Whether that experiment is live (running and active); only live ones can collide.
        package var isLive: Bool
    }

    /// Namespace id → its slices in order, covering [0, 1) (taken slices may overlap each other).
    package let namespaces: [(id: String, slices: [Slice])]

    package static func == (a: NamespaceMap, b: NamespaceMap) -> Bool {
        a.namespaces.map(\.id) == b.namespaces.map(\.id) && a.namespaces.map(\.slices) == b.namespaces.map(\.slices)
    }

    /// The map of the namespaces `definitions` use.
    package init(_ definitions: [ExperimentDefinition]) {
        var taken: [String: [Slice]] = [:]
        for definition in definitions {
            guard let namespace = definition.experiment.namespace else { continue }
            taken[namespace.id, default: []].append(Slice(start: namespace.start, end: namespace.end,
                                                          experiment: definition.key, isLive: definition.isLive))
        }
        namespaces = taken.keys.sorted().map { id in
            let used = (taken[id] ?? []).sorted { ($0.start, $0.end, $0.experiment ?? "") < ($1.start, $1.end, $1.experiment ?? "") }
            return (id, Self.withGaps(used))
        }
    }

    /// The free slices of namespace `id` (all of [0, 1) for a namespace nobody uses).
    package func free(in id: String) -> [Slice] {
        guard let slices = namespaces.first(where: { $0.id == id })?.slices else {
            return [Slice(start: 0, end: 1, experiment: nil, isLive: false)]
        }
        return slices.filter { $0.experiment == nil }
    }

    /// One line per namespace: `insertion: [0, 0.5) insertion-flow, [0.5, 0.6) free, …`.
    package var lines: [String] {
        namespaces.map { id, slices in "\(id): " + slices.map(\.description).joined(separator: ", ") }
    }

    /// `taken` with the uncovered parts of [0, 1) inserted as free slices.
    private static func withGaps(_ taken: [Slice]) -> [Slice] {
        var slices: [Slice] = []
        var covered = 0.0
        for slice in taken {
            if slice.start > covered { slices.append(Slice(start: covered, end: slice.start, experiment: nil, isLive: false)) }
            slices.append(slice)
            covered = max(covered, slice.end)
        }
        if covered < 1 { slices.append(Slice(start: covered, end: 1, experiment: nil, isLive: false)) }
        return slices
    }
}

extension NamespaceMap.Slice: CustomStringConvertible {
    package var description: String {
        let range = "[\(Self.number(start)), \(Self.number(end)))"
        guard let experiment else { return "\(range) free" }
        return "\(range) \(experiment)" + (isLive ? "" : " (not live)")
    }

    /// `0.6`, `1`: the shortest form of a bound.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
