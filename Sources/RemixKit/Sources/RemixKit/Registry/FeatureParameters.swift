/// The type of a feature parameter.
public enum ParameterType: String, Sendable, CustomStringConvertible {
    case bool, int, double, string

    public var description: String { rawValue }

    /// "a bool", "an int", …
    public var withArticle: String { self == .int ? "an int" : "a \(rawValue)" }
}

/// A parameter value, as given by an experiment variation or a default.
public enum ParameterValue: Equatable, Hashable, Sendable, CustomStringConvertible {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    /// The value's type.
    public var type: ParameterType {
        switch self {
        case .bool: .bool
        case .int: .int
        case .double: .double
        case .string: .string
        }
    }

    public var description: String {
        switch self {
        case .bool(let value): String(value)
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): "\"\(value)\""
        }
    }
}

/// A parameter a feature declares: its name, type, default and meaning.
public struct ParameterSpec: Sendable, Equatable {
    /// The name used in experiment files.
    public let name: String
    /// The default, which also fixes the type.
    public let defaultValue: ParameterValue
    /// What the parameter changes.
    public let summary: String

    /// Declares a parameter.
    public init(_ name: String, default defaultValue: ParameterValue, summary: String) {
        self.name = name
        self.defaultValue = defaultValue
        self.summary = summary
    }

    /// The parameter's type.
    public var type: ParameterType { defaultValue.type }
}

/// A problem with the parameters given to a feature.
public enum ParameterError: Error, Equatable, CustomStringConvertible {
    /// The feature declares no parameter of that name.
    case unknown(feature: String, name: String, known: [String])
    /// The value has the wrong type.
    case wrongType(feature: String, name: String, expected: ParameterType, got: ParameterType)

    public var description: String {
        switch self {
        case .unknown(let feature, let name, let known):
            let hint = NameSuggestion.hint(for: name, among: known, noun: "parameter")
            return "feature '\(feature)' has no parameter '\(name)'\(hint)"
        case .wrongType(let feature, let name, let expected, let got):
            return "parameter '\(name)' of feature '\(feature)' takes \(expected.withArticle), not \(got.withArticle)"
        }
    }
}

/// The checked parameter values a feature is made with: every declared parameter has a value.
/// Kept as a list in the order of the specs: a feature declares a few, and every session makes
/// its features, so comparing a few names costs less than hashing them into a table.
public struct FeatureParameters: Sendable, Equatable {
    private let values: [(name: String, value: ParameterValue)]

    /// Checks `given` against `specs`, filling in defaults. An int is accepted where a double is declared.
    public init(feature: String, specs: [ParameterSpec], given: [String: ParameterValue] = [:]) throws(ParameterError) {
        if specs.isEmpty && given.isEmpty {
            self.values = []
            return
        }
        var values: [(name: String, value: ParameterValue)] = []
        values.reserveCapacity(specs.count)
        for spec in specs {
            // Of specs with one name, the last one's default counts.
            if let index = values.firstIndex(where: { $0.name == spec.name }) {
                values[index].value = spec.defaultValue
            } else {
                values.append((spec.name, spec.defaultValue))
            }
        }
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let spec = specs.first(where: { $0.name == name }),
                  let index = values.firstIndex(where: { $0.name == name }) else {
                throw .unknown(feature: feature, name: name, known: specs.map(\.name))
            }
            switch (spec.type, value) {
            case (.double, .int(let int)): values[index].value = .double(Double(int))
            case _ where spec.type == value.type: values[index].value = value
            default: throw .wrongType(feature: feature, name: name, expected: spec.type, got: value.type)
            }
        }
        self.values = values
    }

    /// No parameters.
    public static let none = FeatureParameters(checked: [])

    private init(checked: [(name: String, value: ParameterValue)]) {
        values = checked
    }

    /// The value of a declared parameter.
    public subscript(name: String) -> ParameterValue? {
        values.first { $0.name == name }?.value
    }

    /// Parameters are equal when they hold the same values by name, in whatever order.
    public static func == (lhs: FeatureParameters, rhs: FeatureParameters) -> Bool {
        lhs.values.count == rhs.values.count && lhs.values.allSatisfy { rhs[$0.name] == $0.value }
    }

    /// A declared bool parameter, or `fallback`.
    public func bool(_ name: String, or fallback: Bool) -> Bool {
        if case .bool(let value) = self[name] { return value }
        return fallback
    }

    /// A declared double parameter, or `fallback`.
    public func double(_ name: String, or fallback: Double) -> Double {
        if case .double(let value) = self[name] { return value }
        return fallback
    }

    /// A declared int parameter, or `fallback`.
    public func int(_ name: String, or fallback: Int) -> Int {
        if case .int(let value) = self[name] { return value }
        return fallback
    }

    /// A declared string parameter, or `fallback`.
    public func string(_ name: String, or fallback: String) -> String {
        if case .string(let value) = self[name] { return value }
        return fallback
    }
}
