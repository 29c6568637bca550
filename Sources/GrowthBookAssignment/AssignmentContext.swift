/// Everything about one user or session that assignment depends on.
///
/// A value type whose fields share one immutable box, so passing or copying a context costs
/// one reference count rather than one per field.
package struct AssignmentContext: Sendable {
    /// The fields, immutable once boxed; a setter boxes a new set of fields (and re-indexes
    /// the attributes when they change).
    private final class Storage: Sendable {
        /// The attributes as given, when given as a dictionary (a list is kept in `index` only).
        let given: [String: AttributeValue]?
        /// The attributes indexed for fast lookups by compiled conditions and experiments.
        let index: AttributeIndex
        let enabled: Bool
        let qaMode: Bool
        let forcedVariations: [String: Int]
        let savedGroups: [String: AttributeValue]
        let url: String?
        let featureValues: [String: AttributeValue]

        init(
            given: [String: AttributeValue]?, index: AttributeIndex, enabled: Bool, qaMode: Bool,
            forcedVariations: [String: Int], savedGroups: [String: AttributeValue],
            url: String?, featureValues: [String: AttributeValue]
        ) {
            self.given = given
            self.index = index
            self.enabled = enabled
            self.qaMode = qaMode
            self.forcedVariations = forcedVariations
            self.savedGroups = savedGroups
            self.url = url
            self.featureValues = featureValues
        }
    }

    private var storage: Storage

    /// A context with GrowthBook's defaults for every field not given.
    package init(
        attributes: [String: AttributeValue] = [:],
        enabled: Bool = true,
        qaMode: Bool = false,
        forcedVariations: [String: Int] = [:],
        savedGroups: [String: AttributeValue] = [:],
        url: String? = nil,
        featureValues: [String: AttributeValue] = [:]
    ) {
        storage = Storage(
            given: attributes, index: AttributeIndex(attributes), enabled: enabled, qaMode: qaMode,
            forcedVariations: forcedVariations, savedGroups: savedGroups,
            url: url, featureValues: featureValues
        )
    }

    /// A context whose attributes are `attributeList` (of attributes with one name, the last
    /// counts), with GrowthBook's defaults for the rest. A list is indexed as it is, with no
    /// dictionary built: a simulation makes one context per session.
    package init(attributeList: [Attribute], savedGroups: [String: AttributeValue] = [:]) {
        storage = Storage(
            given: nil, index: AttributeIndex(attributeList), enabled: true, qaMode: false,
            forcedVariations: [:], savedGroups: savedGroups, url: nil, featureValues: [:]
        )
    }

    private mutating func rebox(
        attributes: [String: AttributeValue]? = nil, enabled: Bool? = nil, qaMode: Bool? = nil,
        forcedVariations: [String: Int]? = nil, savedGroups: [String: AttributeValue]? = nil,
        url: String?? = nil, featureValues: [String: AttributeValue]? = nil
    ) {
        storage = Storage(
            given: attributes ?? storage.given,
            index: attributes.map { AttributeIndex($0) } ?? storage.index,
            enabled: enabled ?? storage.enabled,
            qaMode: qaMode ?? storage.qaMode,
            forcedVariations: forcedVariations ?? storage.forcedVariations,
            savedGroups: savedGroups ?? storage.savedGroups,
            url: url ?? storage.url,
            featureValues: featureValues ?? storage.featureValues
        )
    }

    /// The user's attributes (`id`, `platform`, `appVersion`, …).
    package var attributes: [String: AttributeValue] {
        get { storage.given ?? storage.index.attributes }
        set { rebox(attributes: newValue) }
    }

    /// When false, nobody is in any experiment.
    package var enabled: Bool {
        get { storage.enabled }
        set { rebox(enabled: newValue) }
    }

    /// QA mode: nobody is bucketed; only forced variations apply.
    package var qaMode: Bool {
        get { storage.qaMode }
        set { rebox(qaMode: newValue) }
    }

    /// Variations forced per experiment key, for QA; they bypass targeting and hashing.
    package var forcedVariations: [String: Int] {
        get { storage.forcedVariations }
        set { rebox(forcedVariations: newValue) }
    }

    /// Saved groups for `$inGroup` / `$notInGroup`: group id to an array of member values.
    package var savedGroups: [String: AttributeValue] {
        get { storage.savedGroups }
        set { rebox(savedGroups: newValue) }
    }

    /// The current URL, if any: a query parameter named after an experiment's key
    /// (`?my-test=1`) forces that variation, as in GrowthBook's SDKs.
    package var url: String? {
        get { storage.url }
        set { rebox(url: newValue) }
    }

    /// Values of features that experiments name as prerequisites (`parentConditions`).
    /// A feature missing here evaluates to `null`, as GrowthBook treats an unknown feature.
    package var featureValues: [String: AttributeValue] {
        get { storage.featureValues }
        set { rebox(featureValues: newValue) }
    }

    /// Forces this session into `variation` of the experiment `experimentKey` (QA forcing).
    /// The result reports `hashUsed == false`; an index out of range puts the session in no
    /// variation.
    package mutating func forceVariation(_ variation: Int, forExperiment experimentKey: String) {
        var forced = storage.forcedVariations
        forced[experimentKey] = variation
        rebox(forcedVariations: forced)
    }

    /// A copy of this context forced into `variation` of the experiment `experimentKey`.
    package func forcingVariation(_ variation: Int, forExperiment experimentKey: String) -> AssignmentContext {
        var copy = self
        copy.forceVariation(variation, forExperiment: experimentKey)
        return copy
    }

    /// The variation forced for `experimentKey` by `forcedVariations`, if any.
    @inline(__always)
    func forcedVariation(forExperiment experimentKey: String) -> Int? {
        storage.forcedVariations.isEmpty ? nil : storage.forcedVariations[experimentKey]
    }

    /// The variation the URL's query string forces for `experimentKey`, if any.
    @inline(__always)
    func queryStringVariation(forExperiment experimentKey: String, variationCount: Int) -> Int? {
        guard let url = storage.url else { return nil }
        return QueryStringOverride.variation(
            forExperiment: experimentKey, url: url, variationCount: variationCount
        )
    }

    /// Whether the attributes satisfy `condition` (if any), with this context's saved groups.
    @inline(__always)
    func satisfies(_ condition: Condition?) -> Bool {
        condition?.evaluate(storage.index, savedGroups: storage.savedGroups) ?? true
    }

    /// GrowthBook's attribute lookup for hashing: the literal key first (so a key containing
    /// a dot still works), then the dotted path. Gives the value as JavaScript concatenates it
    /// (empty when missing or null) and whether it is truthy (false when missing).
    @inline(__always)
    func hashSource(_ attribute: AttributeKey) -> (text: String, isTruthy: Bool) {
        let (text, isTruthy) = hashText(attribute)
        return (text.string, isTruthy)
    }

    /// ``hashSource(_:)`` with the text inline when it is short ASCII, as ids usually are.
    @inline(__always)
    func hashText(_ attribute: AttributeKey) -> (text: HashText, isTruthy: Bool) {
        let index = storage.index
        let entry = index.entry(for: attribute)
        if entry >= 0, let text = index.shortText(at: entry), text.count <= HashText.shortLimit {
            return (.short(text), text.count > 0)
        }
        let (text, isTruthy) = entry >= 0 ? index.hashText(at: entry) : Self.dottedHashSource(attribute, index: index)
        return (.text(text), isTruthy)
    }

    private static func dottedHashSource(
        _ attribute: AttributeKey, index: AttributeIndex
    ) -> (text: String, isTruthy: Bool) {
        guard attribute.name.utf8.contains(UInt8(ascii: ".")) else { return ("", false) }
        let resolved = AttributePath(attribute.name).resolve(in: index)
        return resolved.isNull ? ("", false) : (resolved.javaScriptString, resolved.isTruthy)
    }
}
