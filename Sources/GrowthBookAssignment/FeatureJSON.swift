/// Features read from GrowthBook's JSON (an SDK payload's `features` object), as leniently as
/// the SDKs read it: a field of the wrong type counts as absent.
extension Feature {
    /// The feature `key` from its JSON object (`defaultValue`, `rules`).
    package init(key: String, json: AttributeValue) {
        self.init(key: key, defaultValue: json["defaultValue"] ?? .null,
                  rules: (json["rules"]?.arrayValue ?? []).map(FeatureRule.init(json:)))
    }

    /// Every feature of a payload's `features` object, by key.
    package static func features(json: AttributeValue) -> [Feature] {
        (json.objectValue ?? [:]).sorted { $0.key < $1.key }.map { Feature(key: $0.key, json: $0.value) }
    }
}

extension FeatureRule {
    /// A rule from its JSON object.
    package init(json: AttributeValue) {
        self.init()
        id = json["id"]?.stringValue ?? ""
        condition = json["condition"].flatMap { $0.isTruthy ? Condition(parsing: $0) : nil }
        parentConditions = json["parentConditions"]?.arrayValue?.compactMap { parent in
            parent["id"]?.stringValue.map {
                Experiment.ParentCondition(id: $0, condition: parent["condition"], gate: parent["gate"]?.boolValue ?? false)
            }
        }
        filters = json["filters"]?.arrayValue?.map(Self.filter)
        force = json["force"].flatMap { $0.isNull ? nil : $0 }
        seed = json["seed"]?.stringValue
        hashAttribute = json["hashAttribute"]?.stringValue
        fallbackAttribute = json["fallbackAttribute"]?.stringValue
        range = json["range"].flatMap(Self.range)
        coverage = json["coverage"]?.numberValue
        hashVersion = json["hashVersion"]?.numberValue.map(Self.integer)
        key = json["key"]?.stringValue
        variations = json["variations"]?.arrayValue
        weights = json["weights"]?.arrayValue.map { $0.compactMap(\.numberValue) }
        namespace = json["namespace"]?.arrayValue.flatMap { triple in
            guard triple.count == 3, let id = triple[0].stringValue, let start = triple[1].numberValue,
                  let end = triple[2].numberValue else { return nil }
            return Namespace(id: id, start: start, end: end)
        }
        meta = json["meta"]?.arrayValue?.map { item in
            Experiment.VariationMeta(key: item["key"]?.stringValue, name: item["name"]?.stringValue,
                                     passthrough: item["passthrough"]?.boolValue ?? false)
        }
        ranges = json["ranges"]?.arrayValue?.compactMap(Self.range)
        name = json["name"]?.stringValue
        phase = json["phase"]?.stringValue
        stickyBucketing = Experiment.StickyBucketing(
            bucketVersion: json["bucketVersion"]?.numberValue.map(Self.integer) ?? 0,
            minBucketVersion: json["minBucketVersion"]?.numberValue.map(Self.integer) ?? 0,
            disabled: json["disableStickyBucketing"]?.boolValue ?? false)
        tracks = json["tracks"]?.arrayValue ?? []
        contextualVariations = json["contextualVariations"]?.arrayValue
        contextualBanditRef = json["contextualBanditRef"]?.stringValue
    }

    private static func filter(_ json: AttributeValue) -> Experiment.Filter {
        Experiment.Filter(
            seed: json["seed"]?.stringValue ?? "", ranges: json["ranges"]?.arrayValue?.compactMap(range) ?? [],
            hashVersion: json["hashVersion"]?.numberValue.map(integer), attribute: json["attribute"]?.stringValue)
    }

    private static func range(_ json: AttributeValue) -> BucketRange? {
        guard let pair = json.arrayValue, pair.count == 2, let start = pair[0].numberValue, let end = pair[1].numberValue
        else { return nil }
        return BucketRange(start: start, end: end)
    }

    /// A JSON number as an integer; out of `Int`'s range (or not finite) it is -1, an invalid version.
    private static func integer(_ number: Double) -> Int {
        number.isFinite && abs(number) < 1e15 ? Int(number) : -1
    }
}
