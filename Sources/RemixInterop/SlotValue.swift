import RemixExperiments
import RemixKit

/// The value of a slot's GrowthBook feature: the registered feature that fills the slot and its
/// parameters, as `{"feature": "AutoGroupInsertion", "params": {"loadingMessage": "…"}}`.
///
/// Import also accepts a plain string, the feature's name, as a GrowthBook string feature holds.
package struct SlotValue: Sendable, Equatable {
    /// The registered feature that fills the slot.
    package var feature: String
    /// Its parameters, as an experiment variation gives them.
    package var parameters: [String: ParameterValue]

    /// A value naming `feature` with `parameters`.
    package init(feature: String, parameters: [String: ParameterValue] = [:]) {
        self.feature = feature
        self.parameters = parameters
    }

    /// The JSON form the payload carries.
    package var json: AttributeValue {
        .object(["feature": .string(feature), "params": .object(parameters.mapValues(Self.json))])
    }

    /// A parameter value as JSON.
    static func json(_ value: ParameterValue) -> AttributeValue {
        switch value {
        case .bool(let flag): .bool(flag)
        case .int(let number): .number(Double(number))
        case .double(let number): .number(number)
        case .string(let text): .string(text)
        }
    }

    /// Reads a variation value: the feature's name, or an object with `feature` and optional
    /// `params`. Throws a sentence saying what is wrong.
    static func read(_ value: AttributeValue) throws(InteropProblem) -> (feature: String, params: [String: AttributeValue]) {
        if case .string(let name) = value { return (name, [:]) }
        guard case .object(let members) = value, case .string(let name)? = members["feature"] else {
            throw InteropProblem("its value \(PayloadJSON.compact(value)) names no feature: a slot's value is the "
                                 + "feature's name or {\"feature\": NAME, \"params\": {…}}")
        }
        if let extra = members.keys.sorted().first(where: { $0 != "feature" && $0 != "params" }) {
            throw InteropProblem("its value has '\(extra)' besides 'feature' and 'params'; Remix cannot keep it")
        }
        switch members["params"] {
        case nil, .null?: return (name, [:])
        case .object(let params)?: return (name, params)
        case let other?: throw InteropProblem("its 'params' must be an object, not \(PayloadJSON.compact(other))")
        }
    }

    /// The JSON `value` as a value of the parameter `spec` declares.
    static func parameter(_ value: AttributeValue, as spec: ParameterSpec) -> ParameterValue? {
        switch (spec.type, value) {
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.string, .string(let text)): return .string(text)
        case (.double, .number(let number)): return .double(number)
        case (.int, .number(let number)):
            guard number == number.rounded(), abs(number) < 9.0e15 else { return nil }
            return .int(Int(number))
        default: return nil
        }
    }
}

/// One problem with a payload or experiment, as a sentence.
package struct InteropProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what to do.
    package let message: String

    /// A problem described by `message`.
    package init(_ message: String) { self.message = message }

    package var description: String { message }
}

/// Why an export or import could not be done: every problem found, each a sentence saying what
/// to do, plus where they are.
package struct InteropError: Error, Sendable, CustomStringConvertible {
    /// The file the problems are in (the payload, or the experiments folder).
    package let file: String
    /// The problems.
    package let problems: [String]
    /// A closing line, e.g. that nothing was written.
    package let conclusion: String?

    /// An error for `file` with `problems`.
    package init(file: String, problems: [String], conclusion: String? = nil) {
        self.file = file
        self.problems = problems
        self.conclusion = conclusion
    }

    /// One line per problem, then the conclusion.
    package var lines: [String] { problems.map { "\(file): \($0)" } + (conclusion.map { [$0] } ?? []) }

    package var description: String { lines.joined(separator: "\n") }
}
