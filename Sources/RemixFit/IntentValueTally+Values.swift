extension IntentValueTally {
    /// One value of an intent, as a population file writes it.
    struct Value {
        var texts: Texts
        var path: [String]
        /// How often users meant it (successes over the chance of the steps they took).
        var weight: Double
        /// Successes it comes from (fractions where a success was shared out among the values it joins).
        var successes: Double
    }

    /// The intent's values, most frequent first. Each success counts `1 / survival(its steps)`.
    /// The parts each flow shows are joined: a path picked from a flat list (a search) takes the
    /// drilled paths that end at the same row; a success without a path takes the paths of
    /// successes with the same texts; texts of a purpose a success lacks come from successes ending
    /// at the same row, or — with nothing to join on — from all successes that have them, shared
    /// out by weight. Values seen in fewer than two successes are left out when others exist, and
    /// past ``mostValues`` the rarest are (`leftOut`: the successes they come from).
    func values(_ intent: Int, survival: (StepCount) -> Double) -> (values: [Value], leftOut: Double) {
        // In a fixed order (not the dictionaries'), so that the sums — and the file — are the same run to run.
        let observed = observations[intent].map { (key: Self.order($0.key.texts, $0.key.path), observation: $0.key, steps: $0.value) }
            .sorted { $0.key != $1.key ? $0.key < $1.key : !$0.observation.drilled && $1.observation.drilled }
        var parts: [Value] = observed.map { _, observation, steps in
            let weight = steps.sorted { $0.key.lexicographicallyPrecedes($1.key) }
                .reduce(0.0) { $0 + Double($1.value) / max(survival($1.key), 1e-6) }
            let successes = Double(steps.values.reduce(0, +))
            return Value(texts: observation.texts, path: observation.path, weight: weight, successes: successes)
        }
        parts = Self.withoutSlips(parts)
        // Joining pairs every part with others: past a thousand, only the most meant are joined.
        let kept = Self.mostMeant(parts, Self.mostValues)
        var leftOut = kept.leftOut
        parts = kept.values
        let drilled = observations[intent].keys.filter(\.drilled).map(\.path)
        parts = Self.share(parts) { part in
            guard let leaf = part.path.last, !drilled.contains(part.path) else { return nil }
            let full = parts.filter { drilled.contains($0.path) && $0.path.last == leaf && $0.path != part.path }
            return full.isEmpty ? nil : full.map { (Value(texts: part.texts, path: $0.path, weight: 0, successes: 0), $0.weight) }
        }
        parts = Self.share(parts) { part in
            guard part.path.isEmpty, !part.texts.isEmpty else { return nil }
            let same = parts.filter { $0.texts == part.texts && !$0.path.isEmpty }
            return same.isEmpty ? nil : same.map { (Value(texts: part.texts, path: $0.path, weight: 0, successes: 0), $0.weight) }
        }
        let purposes = Set(parts.flatMap(\.texts.keys))
        parts = Self.share(parts) { part in
            let missing = purposes.subtracting(part.texts.keys)
            guard !missing.isEmpty else { return nil }
            let byRow = parts.filter { other in missing.isSubset(of: other.texts.keys) && other.path.last == part.path.last && part.path.last != nil }
            let donors = byRow.isEmpty ? parts.filter { missing.isSubset(of: $0.texts.keys) } : byRow
            guard !donors.isEmpty else { return nil }
            return donors.map { donor in
                var texts = part.texts
                for purpose in missing { texts[purpose] = donor.texts[purpose] }
                return (Value(texts: texts, path: part.path.isEmpty ? donor.path : part.path, weight: 0, successes: 0), donor.weight)
            }
        }
        var merged: [String: Value] = [:]
        for part in parts {
            let key = Self.order(part.texts, part.path)
            if var existing = merged[key] {
                existing.weight += part.weight
                existing.successes += part.successes
                merged[key] = existing
            } else {
                merged[key] = part
            }
        }
        var result = Array(merged.values)
        if result.contains(where: { $0.successes >= 2 }) { result.removeAll { $0.successes < 2 } }
        let written = Self.mostMeant(result, Self.mostValues)
        leftOut += written.leftOut
        result = written.values
        result.sort { $0.weight != $1.weight ? $0.weight > $1.weight : Self.order($0.texts, $0.path) < Self.order($1.texts, $1.path) }
        return (result, leftOut)
    }

    /// The most values an intent keeps (and a fitted file writes): a log whose users type ever new
    /// texts would otherwise make joining them slow and the file too large to read.
    static let mostValues = 1_000

    /// The `most` values users meant most often (ties in a fixed order), in the order they were,
    /// and the successes of those left out.
    private static func mostMeant(_ values: [Value], _ most: Int) -> (values: [Value], leftOut: Double) {
        guard values.count > most else { return (values, 0) }
        let ranked = values.indices.sorted { a, b in
            values[a].weight != values[b].weight ? values[a].weight > values[b].weight
                : order(values[a].texts, values[a].path) < order(values[b].texts, values[b].path)
        }
        let kept = Set(ranked.prefix(most))
        return (values.indices.filter(kept.contains).map { values[$0] }, ranked.dropFirst(most).reduce(0) { $0 + values[$1].successes })
    }

    /// Counts a text that is a slip of a more frequent one (one stray letter in it, as the simulated
    /// user's `typos` make) as that one: the slip is the persona's, not what was meant.
    private static func withoutSlips(_ parts: [Value]) -> [Value] {
        var frequency: [String: Double] = [:]
        for part in parts {
            for (purpose, texts) in part.texts { for text in texts { frequency[purpose + "\u{0}" + text, default: 0] += part.weight } }
        }
        func meant(_ text: String, _ purpose: String) -> String {
            let characters = Array(text)
            guard characters.count > 1 else { return text }
            let own = frequency[purpose + "\u{0}" + text] ?? 0
            var best = (text, own)
            for index in characters.indices where characters[index].isLetter && characters[index].isLowercase {
                var shorter = characters
                shorter.remove(at: index)
                let candidate = String(shorter)
                if let weight = frequency[purpose + "\u{0}" + candidate], weight > best.1 { best = (candidate, weight) }
            }
            return best.0
        }
        return parts.map { part in
            var cleaned = part
            cleaned.texts = part.texts.mapValues { _ in [] }
            for (purpose, texts) in part.texts { cleaned.texts[purpose] = texts.map { meant($0, purpose) } }
            return cleaned
        }
    }

    /// Replaces each part for which `candidates` gives joined values by those values, sharing the
    /// part's weight and successes out in proportion to the candidates' weights.
    private static func share(_ parts: [Value], _ candidates: (Value) -> [(Value, Double)]?) -> [Value] {
        parts.flatMap { part -> [Value] in
            guard let joined = candidates(part) else { return [part] }
            let total = joined.reduce(0) { $0 + $1.1 }
            guard total > 0 else { return [part] }
            return joined.map { value, weight in
                var shared = value
                shared.weight = part.weight * weight / total
                shared.successes = part.successes * weight / total
                return shared
            }
        }
    }

    private static func order(_ texts: Texts, _ path: [String]) -> String {
        texts.keys.sorted().map { "\($0)=\(texts[$0] ?? [])" }.joined(separator: ";") + "|" + path.joined(separator: ">")
    }
}
