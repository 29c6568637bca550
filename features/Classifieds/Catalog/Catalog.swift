import Foundation
import RemixKit
import RemixYAML

/// An app's sample data, read from a YAML resource file so it changes without recompiling:
/// the group tree, the adverts, and (for Marketplace) the group recommendation table.
public struct Catalog: Sendable, Equatable {
    /// Groups in service order.
    public var groups: [Group]
    /// Adverts in service order.
    public var adverts: [Advert]
    /// The keyword table for automatic group choice, if the app has one.
    public var recommendations: RecommendationTable?

    /// Makes a catalog.
    public init(groups: [Group], adverts: [Advert] = [], recommendations: RecommendationTable? = nil) {
        self.groups = groups
        self.adverts = adverts
        self.recommendations = recommendations
    }
}

/// Keyword rules tried in order: the first keyword found in a title picks the group.
public struct RecommendationTable: Sendable, Equatable {
    /// One rule: a keyword and the group it recommends.
    public struct Rule: Sendable, Equatable {
        public var keyword: String
        public var groupID: GroupID

        /// Makes a rule.
        public init(keyword: String, groupID: GroupID) {
            self.keyword = keyword
            self.groupID = groupID
        }
    }

    /// The rules in priority order.
    public var rules: [Rule]
    /// The group when no keyword matches.
    public var defaultGroupID: GroupID

    /// Makes a table.
    public init(rules: [Rule], defaultGroupID: GroupID) {
        self.rules = rules
        self.defaultGroupID = defaultGroupID
    }
}

extension Catalog {
    /// Reads a catalog file; every problem is a diagnostic naming file:line:column.
    public static func load(contentsOf url: URL) throws(Diagnostic) -> Catalog {
        let text: String
        do {
            text = try YAMLFile.read(url.path)
        } catch {
            throw Diagnostic(error.location, .error, "cannot read the catalog file: "
                             + error.message.replacingOccurrences(of: "cannot read this file: ", with: ""))
        }
        return try parse(text, file: url.path)
    }

    /// Parses catalog YAML text.
    public static func parse(_ text: String, file: String) throws(Diagnostic) -> Catalog {
        let root = try YAMLValue.parse(text, file: file).mapping("the catalog")
        if let problem = root.unknownKeys(allowed: ["groups", "adverts", "recommendations"], in: "the catalog",
                                          nearest: NameSuggestion.nearest).first {
            throw problem
        }
        var groups: [Group] = []
        var groupLocations: [GroupID: SourceLocation] = [:]
        for value in try root.required("groups", in: "the catalog").sequence("groups") {
            let (group, location) = try parseGroup(value)
            if let first = groupLocations[group.groupID] {
                throw Diagnostic(location, .error, "group id '\(group.groupID)' is used twice (first at line \(first.line))")
            }
            groupLocations[group.groupID] = location
            groups.append(group)
        }
        try checkReferences(groups, root: root)
        var adverts: [Advert] = []
        for value in try root["adverts"]?.sequence("adverts") ?? [] {
            let advert = try parseAdvert(value)
            guard groupLocations[advert.groupID] != nil else {
                throw Diagnostic(value.location, .error, "advert '\(advert.advertID)' is in unknown group '\(advert.groupID)'")
            }
            if adverts.contains(where: { $0.advertID == advert.advertID }) {
                throw Diagnostic(value.location, .error, "advert id '\(advert.advertID)' is used twice")
            }
            adverts.append(advert)
        }
        let recommendations = try root["recommendations"].map { value throws(Diagnostic) in
            try parseRecommendations(value)
        }
        return Catalog(groups: groups, adverts: adverts, recommendations: recommendations)
    }

    private static func parseGroup(_ value: YAMLValue) throws(Diagnostic) -> (Group, SourceLocation) {
        let fields = try value.mapping("a group")
        if let problem = fields.unknownKeys(allowed: ["id", "parent", "children", "title", "description"],
                                            in: "a group", nearest: NameSuggestion.nearest).first {
            throw problem
        }
        let children = try fields["children"]?.sequence("children").map { child throws(Diagnostic) in
            try child.string("a child group id")
        } ?? []
        let parent = try fields["parent"].flatMap { value throws(Diagnostic) in
            value.isNull ? nil : try value.string("parent")
        }
        let group = Group(
            groupID: try fields.required("id", in: "a group").string("id"),
            parent: parent, children: children,
            title: try fields.required("title", in: "a group").string("title"),
            description: try fields["description"]?.string("description") ?? "")
        return (group, value.location)
    }

    private static func checkReferences(_ groups: [Group], root: YAMLMapping) throws(Diagnostic) {
        let ids = Set(groups.map(\.groupID))
        let values = try root.required("groups", in: "the catalog").sequence()
        for (group, value) in zip(groups, values) {
            if let parent = group.parent, !ids.contains(parent) {
                throw Diagnostic(value.location, .error, "group '\(group.groupID)' has unknown parent '\(parent)'")
            }
            if let child = group.children.first(where: { !ids.contains($0) }) {
                throw Diagnostic(value.location, .error, "group '\(group.groupID)' lists unknown child '\(child)'")
            }
        }
    }

    private static func parseAdvert(_ value: YAMLValue) throws(Diagnostic) -> Advert {
        let fields = try value.mapping("an advert")
        if let problem = fields.unknownKeys(allowed: ["id", "title", "group", "description"], in: "an advert",
                                            nearest: NameSuggestion.nearest).first {
            throw problem
        }
        return Advert(
            advertID: try fields.required("id", in: "an advert").string("id"),
            title: try fields.required("title", in: "an advert").string("title"),
            description: try fields["description"]?.string("description") ?? "",
            groupID: try fields.required("group", in: "an advert").string("group"))
    }

    private static func parseRecommendations(_ value: YAMLValue) throws(Diagnostic) -> RecommendationTable {
        let fields = try value.mapping("recommendations")
        if let problem = fields.unknownKeys(allowed: ["keywords", "default"], in: "recommendations",
                                            nearest: NameSuggestion.nearest).first {
            throw problem
        }
        var rules: [RecommendationTable.Rule] = []
        for rule in try fields.required("keywords", in: "recommendations").sequence("keywords") {
            let entry = try rule.mapping("a keyword rule")
            rules.append(RecommendationTable.Rule(
                keyword: try entry.required("keyword", in: "a keyword rule").string("keyword"),
                groupID: try entry.required("group", in: "a keyword rule").string("group")))
        }
        let fallback = try fields.required("default", in: "recommendations").string("default")
        return RecommendationTable(rules: rules, defaultGroupID: fallback)
    }
}
