import RemixExperiments

/// Builds feature evaluations from the conformance suite's `feature` and `stickyBucket` cases,
/// rejecting fields it does not understand so that no case passes by silently ignoring input.
enum GrowthBookFeatureFixtures {
    typealias Unsupported = GrowthBookFixtures.Unsupported

    static let contextFields: Set<String> = [
        "attributes", "features", "forcedVariations", "savedGroups", "stickyBucketAssignmentDocs", "enabled", "qaMode", "url",
        "contextualBandits",
    ]

    /// Rule fields the evaluator reads, and fields GrowthBook's SDKs ignore that cases carry to
    /// check they are ignored (`type`, a stray `banditVersion`, `foo`).
    static let ruleFields: Set<String> = [
        "id", "condition", "parentConditions", "filters", "force", "seed", "hashAttribute", "fallbackAttribute", "range",
        "coverage", "hashVersion", "key", "variations", "weights", "namespace", "meta", "ranges", "name", "phase",
        "bucketVersion", "minBucketVersion", "disableStickyBucketing", "tracks", "type", "banditVersion", "foo",
        "contextualVariations", "contextualBanditRef",
    ]

    /// The evaluator and the context of a case.
    static func evaluation(_ json: AttributeValue) throws -> (FeatureEvaluator, AssignmentContext) {
        guard let fields = json.objectValue else { throw Unsupported(description: "context is not an object") }
        let unknown = Set(fields.keys).subtracting(contextFields)
        guard unknown.isEmpty else {
            throw Unsupported(description: "context fields not supported: \(unknown.sorted().joined(separator: ", "))")
        }
        for (key, feature) in fields["features"]?.objectValue ?? [:] {
            for rule in feature["rules"]?.arrayValue ?? [] {
                let unknownRule = Set(rule.objectValue?.keys.map { $0 } ?? []).subtracting(ruleFields)
                guard unknownRule.isEmpty else {
                    throw Unsupported(description: "feature \(key): rule fields not supported: \(unknownRule.sorted())")
                }
            }
        }
        let evaluator = FeatureEvaluator(features: Feature.features(json: fields["features"] ?? .object([:])),
                                         contextualBandits: ContextualBandit.bandits(json: fields["contextualBandits"] ?? .object([:])))
        let context = AssignmentContext(
            attributes: fields["attributes"]?.objectValue ?? [:],
            enabled: fields["enabled"]?.boolValue ?? true,
            qaMode: fields["qaMode"]?.boolValue ?? false,
            forcedVariations: (fields["forcedVariations"]?.objectValue ?? [:]).compactMapValues { $0.numberValue.map { Int($0) } },
            savedGroups: fields["savedGroups"]?.objectValue ?? [:],
            url: fields["url"]?.stringValue)
        return (evaluator, context)
    }

    /// A sticky-bucket document from its JSON object.
    static func document(_ json: AttributeValue) throws -> StickyBucketDocument {
        guard let name = json["attributeName"]?.stringValue, let value = json["attributeValue"]?.stringValue,
              let assignments = json["assignments"]?.objectValue
        else { throw Unsupported(description: "sticky bucket document \(json.rendered) is malformed") }
        return StickyBucketDocument(attributeName: name, attributeValue: value,
                                    assignments: assignments.compactMapValues(\.stringValue))
    }

    /// The differences between a feature result and the expected one.
    static func mismatches(_ result: FeatureResult, featureKey: String, expected: [String: AttributeValue]) -> [String] {
        var found: [String] = []
        func compare(_ field: String, _ actual: AttributeValue) {
            let want = expected[field] ?? .null
            if actual != want { found.append("\(field) \(actual.rendered), expected \(want.rendered)") }
        }
        compare("value", result.value)
        compare("on", .bool(result.on))
        compare("off", .bool(result.off))
        compare("source", .string(result.source.rawValue))
        compare("ruleId", .string(result.ruleId))
        if let experiment = expected["experiment"] {
            if result.experiment?.key != experiment["key"]?.stringValue
                || result.experiment?.variations != experiment["variations"]?.arrayValue {
                found.append("experiment \(result.experiment?.key ?? "none"), expected \(experiment.rendered)")
            }
        } else if let experiment = result.experiment {
            found.append("experiment \(experiment.key), expected none")
        }
        found += resultMismatches(result.experimentResult, featureKey: featureKey, expected: expected["experimentResult"],
                                  contextualBandit: result.contextualBandit)
        return found
    }

    /// The differences between an experiment result and the expected one (`nil` or JSON null: none).
    static func resultMismatches(_ result: AssignmentResult?, featureKey: String, expected: AttributeValue?,
                                 contextualBandit: ContextualBanditChoice? = nil) -> [String] {
        guard let expected, !expected.isNull else {
            return result.map { ["experimentResult for \($0.experimentKey), expected none"] } ?? []
        }
        guard let result else { return ["no experimentResult, expected \(expected.rendered)"] }
        var actual: [String: AttributeValue] = [
            "featureId": .string(featureKey), "value": result.value, "variationId": .number(Double(result.variationId)),
            "inExperiment": .bool(result.inExperiment), "hashUsed": .bool(result.hashUsed),
            "hashAttribute": .string(result.hashAttribute), "hashValue": .string(result.hashValue), "key": .string(result.key),
            "stickyBucketUsed": .bool(result.stickyBucketUsed),
        ]
        if let bucket = result.bucket { actual["bucket"] = .number(bucket) }
        if let name = result.name { actual["name"] = .string(name) }
        if let choice = contextualBandit {
            actual["leafId"] = .number(Double(choice.leafId))
            actual["variationWeights"] = .array(choice.variationWeights.map(AttributeValue.number))
            if let version = choice.banditVersion { actual["banditVersion"] = .number(Double(version)) }
        }
        var want = expected.objectValue ?? [:]
        // JavaScript reports a numeric attribute's own value; its text is what was hashed.
        if let number = want["hashValue"]?.numberValue, number == number.rounded() { want["hashValue"] = .string(String(Int(number))) }
        return Set(actual.keys).union(want.keys).sorted().compactMap { field in
            let got = actual[field] ?? .null
            let wanted = want[field] ?? .null
            if field == "bucket", let g = got.numberValue, let w = wanted.numberValue, abs(g - w) < 1e-9 { return nil }
            return got == wanted ? nil : "experimentResult.\(field) \(got.rendered), expected \(wanted.rendered)"
        }
    }
}
