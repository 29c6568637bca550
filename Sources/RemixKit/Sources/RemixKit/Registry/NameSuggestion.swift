/// Finds the known name nearest to a misspelt one, for "did you mean …?" messages.
public enum NameSuggestion {
    /// The nearest of `candidates` to `name` by edit distance (case-insensitive), if close enough
    /// to be a plausible typo.
    public static func nearest(to name: String, among candidates: [String]) -> String? {
        let lowered = Array(name.lowercased())
        var best: (name: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(lowered, Array(candidate.lowercased()))
            if distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        guard let best else { return nil }
        let limit = max(2, max(name.count, best.name.count) / 2)
        return best.distance <= limit ? best.name : nil
    }

    /// A message tail: "; did you mean 'x'? (known <noun>s: a, b, c)".
    public static func hint(for name: String, among candidates: [String], noun: String) -> String {
        let known = candidates.isEmpty
            ? "there are no \(noun)s"
            : "known \(noun)s: \(candidates.sorted().joined(separator: ", "))"
        guard let nearest = nearest(to: name, among: candidates) else { return "; \(known)" }
        return "; did you mean '\(nearest)'? (\(known))"
    }

    /// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the optimal string
    /// alignment distance, so a transposed pair ("titel") is one slip, as people make them.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
