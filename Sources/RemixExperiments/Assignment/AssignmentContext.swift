/// Everything about one user or session that assignment depends on.
public struct AssignmentContext: Sendable {
    /// The user's attributes (`id`, `platform`, `appVersion`, …).
    public var attributes: [String: AttributeValue]
    /// When false, nobody is in any experiment.
    public var enabled: Bool
    /// QA mode: nobody is bucketed; only forced variations apply.
    public var qaMode: Bool
    /// Variations forced per experiment key, for QA; they bypass targeting and hashing.
    public var forcedVariations: [String: Int]
    /// Saved groups for `$inGroup` / `$notInGroup`: group id to an array of member values.
    public var savedGroups: [String: AttributeValue]
    /// The current URL, if any: a query parameter named after an experiment's key
    /// (`?my-test=1`) forces that variation, as in GrowthBook's SDKs.
    public var url: String?
    /// Values of features that experiments name as prerequisites (`parentConditions`).
    /// A feature missing here evaluates to `null`, as GrowthBook treats an unknown feature.
    public var featureValues: [String: AttributeValue]

    /// A context with GrowthBook's defaults for every field not given.
    public init(
        attributes: [String: AttributeValue] = [:],
        enabled: Bool = true,
        qaMode: Bool = false,
        forcedVariations: [String: Int] = [:],
        savedGroups: [String: AttributeValue] = [:],
        url: String? = nil,
        featureValues: [String: AttributeValue] = [:]
    ) {
        self.attributes = attributes
        self.enabled = enabled
        self.qaMode = qaMode
        self.forcedVariations = forcedVariations
        self.savedGroups = savedGroups
        self.url = url
        self.featureValues = featureValues
    }

    /// Forces this session into `variation` of the experiment `experimentKey` (QA forcing).
    /// The result reports `hashUsed == false`; an index out of range puts the session in no
    /// variation.
    public mutating func forceVariation(_ variation: Int, forExperiment experimentKey: String) {
        forcedVariations[experimentKey] = variation
    }

    /// A copy of this context forced into `variation` of the experiment `experimentKey`.
    public func forcingVariation(_ variation: Int, forExperiment experimentKey: String) -> AssignmentContext {
        var copy = self
        copy.forceVariation(variation, forExperiment: experimentKey)
        return copy
    }

    /// GrowthBook's attribute lookup for hashing: the literal key first (so a key containing
    /// a dot still works), then the dotted path; `nil` when neither exists.
    func hashSource(_ attribute: String) -> AttributeValue? {
        if let literal = attributes[attribute] { return literal }
        guard attribute.utf8.contains(UInt8(ascii: ".")) else { return nil }
        let resolved = AttributePath(attribute).resolve(in: attributes)
        return resolved.isNull ? nil : resolved
    }
}
