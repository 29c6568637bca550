import RemixExperiments

/// Builds engine inputs from the conformance suite's GrowthBook JSON, rejecting fields it
/// does not understand so that no case passes by silently ignoring part of its input.
enum GrowthBookFixtures {
    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    static let experimentFields: Set<String> = [
        "key", "variations", "weights", "coverage", "condition", "parentConditions", "namespace",
        "hashAttribute", "fallbackAttribute", "hashVersion", "seed", "filters", "ranges", "force",
        "active", "status", "meta",
    ]

    static let contextFields: Set<String> = [
        "attributes", "enabled", "qaMode", "forcedVariations", "savedGroups", "url", "features",
    ]

    static func experiment(_ json: AttributeValue) throws -> Experiment {
        guard let fields = json.objectValue else { throw Unsupported(description: "experiment is not an object") }
        try rejectUnknown(fields, allowed: experimentFields, what: "experiment")
        return Experiment(
            key: fields["key"]?.stringValue ?? "",
            variations: fields["variations"]?.arrayValue ?? [],
            weights: try fields["weights"].map(numbers),
            coverage: fields["coverage"]?.numberValue,
            condition: fields["condition"],
            parentConditions: try fields["parentConditions"]?.arrayValue.map { try $0.map(parentCondition) },
            namespace: try fields["namespace"].map(namespace),
            hashAttribute: fields["hashAttribute"]?.stringValue,
            fallbackAttribute: fields["fallbackAttribute"]?.stringValue,
            hashVersion: fields["hashVersion"]?.numberValue.map { Int($0) },
            seed: fields["seed"]?.stringValue,
            filters: try fields["filters"]?.arrayValue.map { try $0.map(filter) },
            ranges: try fields["ranges"].map(ranges),
            force: fields["force"]?.numberValue.map { Int($0) },
            active: fields["active"]?.boolValue ?? true,
            status: fields["status"]?.stringValue.flatMap(Experiment.Status.init(rawValue:)) ?? .running,
            meta: fields["meta"]?.arrayValue?.map(variationMeta)
        )
    }

    /// The context, or the reason it needs machinery this engine does not have.
    static func context(_ json: AttributeValue) throws -> AssignmentContext {
        guard let fields = json.objectValue else { throw Unsupported(description: "context is not an object") }
        try rejectUnknown(fields, allowed: contextFields, what: "context")
        var featureValues: [String: AttributeValue] = [:]
        for (id, feature) in fields["features"]?.objectValue ?? [:] {
            guard feature["rules"] == nil else {
                throw Unsupported(description: "feature \(id) has rules; feature evaluation is out of scope")
            }
            featureValues[id] = feature["defaultValue"] ?? .null
        }
        return AssignmentContext(
            attributes: fields["attributes"]?.objectValue ?? [:],
            enabled: fields["enabled"]?.boolValue ?? true,
            qaMode: fields["qaMode"]?.boolValue ?? false,
            forcedVariations: (fields["forcedVariations"]?.objectValue ?? [:]).compactMapValues {
                $0.numberValue.map { Int($0) }
            },
            savedGroups: fields["savedGroups"]?.objectValue ?? [:],
            url: fields["url"]?.stringValue,
            featureValues: featureValues
        )
    }

    static func bucketRange(_ json: AttributeValue) throws -> BucketRange {
        guard let pair = json.arrayValue, pair.count == 2,
              let start = pair[0].numberValue, let end = pair[1].numberValue
        else { throw Unsupported(description: "range \(json.rendered) is not [start, end]") }
        return BucketRange(start: start, end: end)
    }

    static func ranges(_ json: AttributeValue) throws -> [BucketRange] {
        guard let list = json.arrayValue else { throw Unsupported(description: "ranges is not an array") }
        return try list.map(bucketRange)
    }

    static func numbers(_ json: AttributeValue) throws -> [Double] {
        guard let list = json.arrayValue else { throw Unsupported(description: "\(json.rendered) is not an array") }
        return try list.map { element in
            guard let number = element.numberValue else {
                throw Unsupported(description: "\(element.rendered) is not a number")
            }
            return number
        }
    }

    static func namespace(_ json: AttributeValue) throws -> Namespace {
        guard let triple = json.arrayValue, triple.count == 3, let id = triple[0].stringValue,
              let start = triple[1].numberValue, let end = triple[2].numberValue
        else { throw Unsupported(description: "namespace \(json.rendered) is not [id, start, end]") }
        return Namespace(id: id, start: start, end: end)
    }

    private static func filter(_ json: AttributeValue) throws -> Experiment.Filter {
        Experiment.Filter(
            seed: json["seed"]?.stringValue ?? "",
            ranges: try json["ranges"].map(ranges) ?? [],
            hashVersion: json["hashVersion"]?.numberValue.map { Int($0) },
            attribute: json["attribute"]?.stringValue
        )
    }

    private static func parentCondition(_ json: AttributeValue) throws -> Experiment.ParentCondition {
        guard let id = json["id"]?.stringValue else {
            throw Unsupported(description: "parent condition \(json.rendered) has no id")
        }
        return Experiment.ParentCondition(id: id, condition: json["condition"], gate: json["gate"]?.boolValue ?? false)
    }

    private static func variationMeta(_ json: AttributeValue) -> Experiment.VariationMeta {
        Experiment.VariationMeta(
            key: json["key"]?.stringValue,
            name: json["name"]?.stringValue,
            passthrough: json["passthrough"]?.boolValue ?? false
        )
    }

    private static func rejectUnknown(_ fields: [String: AttributeValue], allowed: Set<String>, what: String) throws {
        let unknown = Set(fields.keys).subtracting(allowed)
        guard unknown.isEmpty else {
            throw Unsupported(description: "\(what) fields not supported: \(unknown.sorted().joined(separator: ", "))")
        }
    }
}
