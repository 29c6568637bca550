import RemixExperiments
import RemixKit

/// Reads one rule of a GrowthBook feature as an experiment on an app slot, collecting every
/// problem rather than stopping at the first.
struct GrowthBookRuleReader {
    /// What became of a rule.
    enum Outcome {
        case experiment(ImportedExperiment)
        /// A force rule (an override or a rollout), which a slot rules file holds.
        case force(ImportedForceRule)
        /// A rule Remix has no form for (a contextual bandit, …): why.
        case unsupported(String)
        case problems([String])
    }

    let registry: FeatureRegistry
    let app: AppDefinition
    let slot: SlotDefinition
    let featureKey: String

    /// The longest file name file systems take, in bytes (NAME_MAX on Linux and macOS).
    static let longestFileName = 255
    /// Fields a rule may have that import ignores without a word: GrowthBook bookkeeping.
    static let quietlyIgnored: Set<String> = ["id", "phase", "tracks", "range"]
    /// Fields an experiment rule is read from.
    static let read: Set<String> = [
        "key", "name", "condition", "variations", "weights", "coverage", "hashAttribute", "fallbackAttribute",
        "hashVersion", "seed", "namespace", "filters", "meta", "ranges", "parentConditions",
        "bucketVersion", "minBucketVersion", "disableStickyBucketing",
    ]

    /// Reads `rule`; `notes` gets what was dropped on the way.
    func read(_ rule: AttributeValue, notes: inout [String]) -> Outcome {
        guard case .object(let fields) = rule else {
            return .problems(["is \(PayloadJSON.compact(rule)), not an object"])
        }
        if fields["force"] != nil { return readForce(fields, notes: &notes) }
        if fields["contextualBanditRef"] != nil || fields["contextualVariations"] != nil {
            // Its leaves and weights are in the payload; the metric and update times a bandit file needs are not.
            return .unsupported("is a contextual bandit, whose metric and update times the payload does not hold "
                                + "(a bandit file needs them, docs/bandits.md)")
        }
        guard case .array(let values)? = fields["variations"] else {
            return .unsupported("has neither 'variations' nor 'force', so GrowthBook's SDKs skip it")
        }
        var problems: [String] = []
        if case .array(let parents)? = fields["parentConditions"], !parents.isEmpty {
            problems.append("has prerequisites ('parentConditions'), which experiment files cannot express; "
                            + "remove them in GrowthBook or leave this rule out")
        }
        let unknown = fields.keys.filter { !Self.read.contains($0) && !Self.quietlyIgnored.contains($0) }.sorted()
        if !unknown.isEmpty { notes.append("ignores unknown field(s) \(unknown.joined(separator: ", "))") }

        let key = string(fields["key"], "key", &problems).flatMap { $0.isEmpty ? nil : $0 } ?? featureKey
        let fileName = "\(key).yaml"
        if key.contains("/") || key.hasPrefix(".") || key.contains("\0") || fileName == ExperimentSet.savedGroupsFile
            || fileName == ExperimentSet.metricsFile || fileName.hasSuffix(ExperimentSet.populationSuffix) {
            problems.append("has the key '\(key)', which cannot name an experiment file (\(fileName)); change the tracking key")
        } else if fileName.utf8.count > Self.longestFileName {
            problems.append("has a key of \(key.utf8.count) bytes ('\(key.prefix(20))…'), too long to name an experiment file "
                            + "(at most \(Self.longestFileName - 5) bytes, as \(fileName.suffix(5)) follows it); change the tracking key")
        }
        let metaKeys = variationKeys(fields["meta"], count: values.count, &problems, notes: &notes)
        var variations: [ImportedExperiment.Variation] = []
        for (index, value) in values.enumerated() {
            if let variation = variation(value, index: index, key: metaKeys[index], &problems) { variations.append(variation) }
        }
        if values.isEmpty { problems.append("has no variations") }
        let weights = numbers(fields["weights"], "weights", &problems)
        if let weights, weights.count != values.count {
            problems.append("has \(weights.count) weights for \(values.count) variations")
        }
        let coverage = number(fields["coverage"], "coverage", &problems) ?? 1
        let hashVersion = number(fields["hashVersion"], "hashVersion", &problems).map { Int(exactly: $0) ?? -1 } ?? 1
        if ![1, 2].contains(hashVersion) { problems.append("has hashVersion \(PayloadJSON.compact(fields["hashVersion"] ?? .null)); Remix knows 1 and 2") }
        let condition = fields["condition"].flatMap { $0.isNull ? nil : $0 }
        if let condition, condition.objectValue == nil {
            problems.append("has a condition that is not an object: \(PayloadJSON.compact(condition))")
        }
        if let ranges = fields["ranges"], !ranges.isNull {
            let expected = GrowthBookHash.bucketRanges(count: values.count, coverage: coverage, weights: weights)
            if rangeList(ranges) != expected {
                problems.append("has explicit 'ranges' that differ from the ones its weights and coverage give; "
                                + "experiment files describe the split by weights and coverage only")
            }
        }
        let seed = string(fields["seed"], "seed", &problems)
        let imported = ImportedExperiment(
            key: key, description: string(fields["name"], "name", &problems).flatMap { $0.isEmpty ? nil : $0 },
            app: app.name, slot: slot.name, hashVersion: hashVersion,
            hashAttribute: string(fields["hashAttribute"], "hashAttribute", &problems).flatMap { $0.isEmpty ? nil : $0 } ?? "id",
            fallbackAttribute: string(fields["fallbackAttribute"], "fallbackAttribute", &problems).flatMap { $0.isEmpty ? nil : $0 },
            seed: seed == nil || seed == "" || seed == key ? nil : seed,
            namespace: namespace(fields["namespace"], &problems), filters: filters(fields["filters"], &problems),
            coverage: coverage,
            weights: weights == GrowthBookHash.equalWeights(values.count) ? nil : weights,
            condition: condition, variations: variations, stickyBucketing: stickyBucketing(fields, &problems))
        return problems.isEmpty ? .experiment(imported) : .problems(problems)
    }

    /// `bucketVersion`, `minBucketVersion` (whole numbers from 0) and `disableStickyBucketing`.
    private func stickyBucketing(_ fields: [String: AttributeValue], _ problems: inout [String]) -> Experiment.StickyBucketing {
        func version(_ name: String) -> Int {
            guard let number = number(fields[name], name, &problems) else { return 0 }
            guard let whole = Int(exactly: number), whole >= 0 else {
                problems.append("has \(name) \(PayloadJSON.compact(fields[name] ?? .null)), not a whole number from 0")
                return 0
            }
            return whole
        }
        let disabled = fields["disableStickyBucketing"].flatMap { $0.isNull ? nil : $0 }
        if let disabled, disabled.boolValue == nil {
            problems.append("has disableStickyBucketing \(PayloadJSON.compact(disabled)), not true or false")
        }
        return Experiment.StickyBucketing(bucketVersion: version("bucketVersion"), minBucketVersion: version("minBucketVersion"),
                                          disabled: disabled?.boolValue ?? false)
    }

    private func variation(_ value: AttributeValue, index: Int, key: String,
                           _ problems: inout [String]) -> ImportedExperiment.Variation? {
        slotValue(value, label: "variation \(index) ('\(key)')", &problems).map {
            .init(key: key, feature: $0.feature, parameters: $0.parameters)
        }
    }

    /// A value that fills the slot: a registered feature that can fill it, with parameters of the
    /// types it declares; nil with problems (each starting with `label`) otherwise.
    func slotValue(_ value: AttributeValue, label: String,
                   _ problems: inout [String]) -> (feature: String, parameters: [String: ParameterValue])? {
        let read: (feature: String, params: [String: AttributeValue])
        do {
            read = try SlotValue.read(value)
        } catch {
            problems.append("\(label): \(error.message)")
            return nil
        }
        let feature: FeatureDescriptor
        do {
            feature = try registry.filler(named: read.feature, for: slot, of: app.name)
        } catch {
            problems.append("\(label): \(error)" + (error is UnknownFillerError ? "; or fix the value in GrowthBook" : ""))
            return nil
        }
        var parameters: [String: ParameterValue] = [:]
        for name in read.params.keys.sorted() {
            let given = read.params[name] ?? .null
            guard let spec = feature.parameters.first(where: { $0.name == name }) else {
                problems.append("\(label): \(feature.name) has no parameter '\(name)'"
                                + NameSuggestion.hint(for: name, among: feature.parameters.map(\.name), noun: "parameter"))
                continue
            }
            guard let value = SlotValue.parameter(given, as: spec) else {
                problems.append("\(label): parameter '\(name)' of \(feature.name) must be \(spec.type.withArticle), "
                                + "not \(PayloadJSON.compact(given))")
                continue
            }
            parameters[name] = value
        }
        return (feature.name, parameters)
    }

    /// Each variation's key: its `meta` key, else its index, as GrowthBook reports it.
    private func variationKeys(_ value: AttributeValue?, count: Int, _ problems: inout [String],
                               notes: inout [String]) -> [String] {
        let meta = value?.arrayValue ?? []
        var keys: [String] = []
        for index in 0..<count {
            let entry = index < meta.count ? meta[index] : .null
            if entry["passthrough"]?.boolValue == true {
                problems.append("variation \(index) is a passthrough, which Remix cannot express")
            }
            if entry["name"]?.stringValue != nil { notes.append("drops variation \(index)'s name (experiment files keep keys only)") }
            let key = entry["key"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? String(index)
            if keys.contains(key) { problems.append("has two variations keyed '\(key)'; variation keys must differ") }
            keys.append(key)
        }
        return keys
    }

    private func namespace(_ value: AttributeValue?, _ problems: inout [String]) -> Namespace? {
        guard let value, !value.isNull else { return nil }
        guard let items = value.arrayValue, items.count == 3, let id = items[0].stringValue,
              let start = items[1].numberValue, let end = items[2].numberValue else {
            problems.append("has a namespace that is not [id, start, end]: \(PayloadJSON.compact(value))")
            return nil
        }
        return Namespace(id: id, start: start, end: end)
    }

    func filters(_ value: AttributeValue?, _ problems: inout [String]) -> [Experiment.Filter]? {
        guard let value, !value.isNull else { return nil }
        guard let items = value.arrayValue else {
            problems.append("has filters that are not a list: \(PayloadJSON.compact(value))")
            return nil
        }
        var filters: [Experiment.Filter] = []
        for item in items {
            guard let ranges = item["ranges"].flatMap(rangeList),
                  item["seed"] == nil || item["seed"]?.stringValue != nil,
                  item["attribute"] == nil || item["attribute"]?.stringValue != nil,
                  item["hashVersion"] == nil || item["hashVersion"]?.numberValue.flatMap({ Int(exactly: $0) }) != nil
            else {
                problems.append("has a filter that is not {seed, ranges: [[start, end], …], hashVersion, attribute}: "
                                + PayloadJSON.compact(item))
                continue
            }
            filters.append(Experiment.Filter(
                seed: item["seed"]?.stringValue ?? "", ranges: ranges,
                hashVersion: item["hashVersion"]?.numberValue.flatMap { Int(exactly: $0) },
                attribute: item["attribute"]?.stringValue))
        }
        return filters
    }

    private func rangeList(_ value: AttributeValue) -> [BucketRange]? {
        guard let items = value.arrayValue else { return nil }
        var ranges: [BucketRange] = []
        for item in items {
            guard let pair = item.arrayValue, pair.count == 2, let start = pair[0].numberValue,
                  let end = pair[1].numberValue else { return nil }
            ranges.append(BucketRange(start: start, end: end))
        }
        return ranges
    }

    func string(_ value: AttributeValue?, _ name: String, _ problems: inout [String]) -> String? {
        guard let value, !value.isNull else { return nil }
        guard let text = value.stringValue else {
            problems.append("has a '\(name)' that is not text: \(PayloadJSON.compact(value))")
            return nil
        }
        return text
    }

    func number(_ value: AttributeValue?, _ name: String, _ problems: inout [String]) -> Double? {
        guard let value, !value.isNull else { return nil }
        guard let number = value.numberValue else {
            problems.append("has a '\(name)' that is not a number: \(PayloadJSON.compact(value))")
            return nil
        }
        return number
    }

    private func numbers(_ value: AttributeValue?, _ name: String, _ problems: inout [String]) -> [Double]? {
        guard let value, !value.isNull else { return nil }
        guard let items = value.arrayValue, items.allSatisfy({ $0.numberValue != nil }) else {
            problems.append("has '\(name)' that are not a list of numbers: \(PayloadJSON.compact(value))")
            return nil
        }
        return items.compactMap(\.numberValue)
    }
}
