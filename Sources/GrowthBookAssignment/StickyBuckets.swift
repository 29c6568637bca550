/// GrowthBook's sticky-bucket assignment document: the variations one attribute value was
/// assigned, by `EXPERIMENTKEY__BUCKETVERSION`, as every GrowthBook SDK stores them.
package struct StickyBucketDocument: Sendable, Equatable, Hashable {
    /// The attribute that was hashed (`id`, or the experiment's fallback attribute).
    package var attributeName: String
    /// Its value as text.
    package var attributeValue: String
    /// Variation keys by `KEY__VERSION`.
    package var assignments: [String: String]

    /// A document for one attribute value.
    package init(attributeName: String, attributeValue: String, assignments: [String: String] = [:]) {
        self.attributeName = attributeName
        self.attributeValue = attributeValue
        self.assignments = assignments
    }

    /// GrowthBook's key for the document: `attributeName||attributeValue`.
    package var key: String { Self.key(attributeName: attributeName, attributeValue: attributeValue) }

    /// GrowthBook's key for the document of `attributeName` = `attributeValue`.
    package static func key(attributeName: String, attributeValue: String) -> String {
        attributeName + "||" + attributeValue
    }

    /// GrowthBook's assignment key: `experimentKey__bucketVersion`.
    package static func assignmentKey(experiment: String, bucketVersion: Int) -> String {
        experiment + "__" + String(bucketVersion)
    }
}

/// One user's sticky-bucket documents while experiments are evaluated, as an SDK holds them:
/// read from a store first, updated by ``AssignmentEngine/run(_:context:stickyBuckets:)``, and
/// the changed ones written back afterwards.
package struct StickyBuckets: Sendable, Equatable {
    /// The documents by ``StickyBucketDocument/key``.
    package private(set) var documents: [String: StickyBucketDocument]
    /// Keys of the documents evaluation changed, in the order they first changed.
    package private(set) var changedKeys: [String] = []

    /// The documents given (a later one with the same key replaces an earlier one).
    package init(_ documents: [StickyBucketDocument] = []) {
        self.documents = Dictionary(documents.map { ($0.key, $0) }, uniquingKeysWith: { _, later in later })
    }

    /// The changed documents, in the order they first changed.
    package var changedDocuments: [StickyBucketDocument] { changedKeys.compactMap { documents[$0] } }

    /// What a lookup found: a variation index (-1 for none) and whether an assignment older than
    /// the experiment's `minBucketVersion` blocks the user.
    struct Lookup {
        let variation: Int
        let blocked: Bool

        static let none = Lookup(variation: -1, blocked: false)
    }

    /// GrowthBook's `getStickyBucketVariation`: the assignments of the hash attribute's document
    /// merged over the fallback attribute's, checked against the versions, and the stored
    /// variation key found in the experiment's metadata.
    func lookup(
        experimentKey: String, settings: Experiment.StickyBucketing, meta: [Experiment.VariationMeta]?,
        primary: (name: String, value: String), fallback: (name: String, value: String)?
    ) -> Lookup {
        var assignments = documents[StickyBucketDocument.key(attributeName: primary.name, attributeValue: primary.value)]?
            .assignments ?? [:]
        if let fallback, let stored = documents[StickyBucketDocument.key(attributeName: fallback.name, attributeValue: fallback.value)] {
            assignments.merge(stored.assignments) { primary, _ in primary }
        }
        if settings.minBucketVersion > 0, (0..<settings.minBucketVersion).contains(where: {
            assignments[StickyBucketDocument.assignmentKey(experiment: experimentKey, bucketVersion: $0)] != nil
        }) {
            return Lookup(variation: -1, blocked: true)
        }
        let stored = assignments[StickyBucketDocument.assignmentKey(experiment: experimentKey, bucketVersion: settings.bucketVersion)]
        guard let stored, !stored.isEmpty, let variation = (meta ?? []).firstIndex(where: { $0.key == stored }) else {
            return .none
        }
        return Lookup(variation: variation, blocked: false)
    }

    /// Records that `attributeName` = `attributeValue` was assigned `variationKey` under
    /// `assignmentKey`; a document that already says so is left unchanged.
    mutating func record(attributeName: String, attributeValue: String, assignmentKey: String, variationKey: String) {
        let key = StickyBucketDocument.key(attributeName: attributeName, attributeValue: attributeValue)
        var document = documents[key] ?? StickyBucketDocument(attributeName: attributeName, attributeValue: attributeValue)
        guard document.assignments[assignmentKey] != variationKey else { return }
        document.assignments[assignmentKey] = variationKey
        documents[key] = document
        if !changedKeys.contains(key) { changedKeys.append(key) }
    }
}

/// An attribute value whose sticky-bucket document a user may have: `name||value`.
package struct StickyBucketIdentifier: Sendable, Hashable {
    /// The attribute's name and its value as text.
    package var attributeName: String
    package var attributeValue: String

    /// The identifier `attributeName` = `attributeValue`.
    package init(attributeName: String, attributeValue: String) {
        self.attributeName = attributeName
        self.attributeValue = attributeValue
    }
}

/// Where sticky-bucket documents are kept between evaluations (GrowthBook's sticky bucket service).
package protocol StickyBucketStore: Sendable {
    /// The stored documents for these identifiers (none for an identifier without one).
    func documents(for identifiers: [StickyBucketIdentifier]) async throws -> [StickyBucketDocument]
    /// Stores `documents`, each replacing the document with its key.
    func save(_ documents: [StickyBucketDocument]) async throws
    /// Every stored document (a simulation reads them once, at its start).
    func allDocuments() async throws -> [StickyBucketDocument]
}

/// A sticky-bucket store in memory, as GrowthBook's `InMemoryStickyBucketService`.
package actor InMemoryStickyBucketStore: StickyBucketStore {
    private var stored: [String: StickyBucketDocument] = [:]

    /// A store holding `documents` (a later one with the same key replaces an earlier one).
    package init(_ documents: [StickyBucketDocument] = []) {
        for document in documents { stored[document.key] = document }
    }

    package func documents(for identifiers: [StickyBucketIdentifier]) -> [StickyBucketDocument] {
        identifiers.compactMap { stored[StickyBucketDocument.key(attributeName: $0.attributeName, attributeValue: $0.attributeValue)] }
    }

    package func save(_ documents: [StickyBucketDocument]) {
        for document in documents { stored[document.key] = document }
    }

    package func allDocuments() -> [StickyBucketDocument] {
        stored.keys.sorted().compactMap { stored[$0] }
    }
}

extension AssignmentContext {
    /// The identifiers whose sticky-bucket documents this user may have: each of
    /// `attributeNames` (hash and fallback attributes of the experiments in play) the user has a
    /// non-empty value for, in the order given, without repeats.
    package func stickyBucketIdentifiers(attributeNames: [String]) -> [StickyBucketIdentifier] {
        var seen = Set<String>()
        return attributeNames.compactMap { name in
            guard seen.insert(name).inserted else { return nil }
            let source = hashSource(AttributeKey(name))
            return source.isTruthy ? StickyBucketIdentifier(attributeName: name, attributeValue: source.text) : nil
        }
    }
}

extension Feature {
    /// The hash and fallback attributes of the feature's rules (`id` for a rule without one):
    /// the attributes whose sticky-bucket documents evaluation may read.
    package var stickyBucketAttributes: [String] {
        rules.flatMap { rule in
            [rule.hashAttribute.flatMap { $0.isEmpty ? nil : $0 } ?? "id"] + (rule.fallbackAttribute.map { [$0] } ?? [])
        }
    }
}
