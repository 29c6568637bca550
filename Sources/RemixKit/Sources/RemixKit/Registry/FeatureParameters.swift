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
public struct FeatureParameters: Sendable, Equatable {
    private let values: [String: ParameterValue]

    /// Checks `given` against `specs`, filling in defaults. An int is accepted where a double is declared.
    public init(feature: String, specs: [ParameterSpec], given: [String: ParameterValue] = [:]) throws(ParameterError) {
        if specs.isEmpty && given.isEmpty {
            self.values = [:]
            return
        }
        var values: [String: ParameterValue] = [:]
        for spec in specs { values[spec.name] = spec.defaultValue }
        for (name, value) in given.sorted(by: { $0.key < $1.key }) {
            guard let spec = specs.first(where: { $0.name == name }) else {
                throw .unknown(feature: feature, name: name, known: specs.map(\.name))
            }
            switch (spec.type, value) {
            case (.double, .int(let int)): values[name] = .double(Double(int))
            case _ where spec.type == value.type: values[name] = value
            default: throw .wrongType(feature: feature, name: name, expected: spec.type, got: value.type)
            }
        }
        self.values = values
    }

    /// No parameters.
    public static let none = FeatureParameters(checked: [:])

    private init(checked: [String: ParameterValue]) {
        values = checked
    }

    /// The value of a declared parameter.
    public subscript(name: String) -> ParameterValue? { values[name] }

    /// A declared bool parameter, or `fallback`.
    public func bool(_ name: String, or fallback: Bool) -> Bool {
        if case .bool(let value) = values[name] { return value }
        return fallback
    }

    /// A declared double parameter, or `fallback`.
    public func double(_ name: String, or fallback: Double) -> Double {
        if case .double(let value) = values[name] { return value }
        return fallback
    }

    /// A declared int parameter, or `fallback`.
    public func int(_ name: String, or fallback: Int) -> Int {
        if case .int(let value) = values[name] { return value }
        return fallback
    }

    /// A declared string parameter, or `fallback`.
    public func string(_ name: String, or fallback: String) -> String {
        if case .string(let value) = values[name] { return value }
        return fallback
    }
}
