/// A behaviour of an app's services that a simulation may set, e.g. Marketplace's
/// `publishFailureRate`. The app that owns the service declares it (``AppDefinition``); population
/// files set it under `services:` by name, so the simulator never needs to know it.
public struct ServiceParameterSpec: Sendable, Equatable {
    /// What kind of value the parameter takes.
    public enum Kind: String, Sendable, Equatable, CaseIterable {
        /// A probability between 0 and 1.
        case chance
        /// A time in seconds, a number or `[min, max]` drawn uniformly per session.
        case seconds
        /// Any finite number 0 or more, a number or `[min, max]` drawn uniformly per session.
        case number
    }

    /// The name population files use.
    public let name: String
    /// What kind of value it takes.
    public let kind: Kind
    /// The value when a population file does not set it (`lower == upper` for a single value).
    public let defaultValue: ClosedRange<Double>
    /// What it changes.
    public let summary: String
    /// How `remix fit` learns it from the app's own events; nil: it cannot, and a fitted
    /// population leaves it at its default.
    public let estimate: ServiceEstimate?

    /// Declares a parameter.
    public init(_ name: String, kind: Kind, default defaultValue: ClosedRange<Double>, summary: String,
                estimate: ServiceEstimate? = nil) {
        self.name = name
        self.kind = kind
        self.defaultValue = defaultValue
        self.summary = summary
        self.estimate = estimate
    }

    /// A chance, 0–1.
    public static func chance(_ name: String, default value: Double, summary: String, estimate: ServiceEstimate? = nil) -> Self {
        Self(name, kind: .chance, default: value...value, summary: summary, estimate: estimate)
    }

    /// A time in seconds, drawn from `range` per session.
    public static func seconds(_ name: String, default range: ClosedRange<Double>, summary: String,
                               estimate: ServiceEstimate? = nil) -> Self {
        Self(name, kind: .seconds, default: range, summary: summary, estimate: estimate)
    }

    /// The default as written in a population file: `0.04` or `[1.2, 2.8]`.
    public var defaultText: String {
        func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        }
        return defaultValue.lowerBound == defaultValue.upperBound
            ? text(defaultValue.lowerBound) : "[\(text(defaultValue.lowerBound)), \(text(defaultValue.upperBound))]"
    }
}

/// How a service parameter is learned from the events its app logs, so that `remix fit` names no
/// app's events in its own code: the module that owns the service says.
public enum ServiceEstimate: Sendable, Equatable {
    /// A chance: how often `event` is logged among `event` and the `alternatives` (the other ways
    /// the same attempt ends), e.g. `publish_failed` among `publish_failed` and `advert_published`.
    case share(of: String, among: [String])
    /// Seconds drawn per session: the time from the screen change before each `event` to the
    /// event (a wait the user sits through, e.g. the loading toast before `group_recommended`).
    case secondsBefore(event: String)
}

/// Each declared service parameter's range — the given values over the specs' defaults —
/// resolved once for all the sessions of a run.
public struct ServiceValues: Sendable {
    fileprivate let ranges: [(name: String, range: ClosedRange<Double>)]

    /// `values` (by parameter name) over the specs' defaults; values of undeclared names are ignored.
    public init(specs: [ServiceParameterSpec], values: [String: ClosedRange<Double>]) {
        ranges = specs.map { ($0.name, values[$0.name] ?? $0.defaultValue) }
    }
}

/// The service behaviour one simulated session runs with: a value or range per declared
/// parameter, and the randomness to draw from them.
public struct ServiceSettings {
    private let values: ServiceValues
    /// Randomness for the services' own draws (e.g. whether one publish fails).
    public let random: RandomSource

    /// Settings with `values` (by parameter name) over the specs' defaults.
    public init(specs: [ServiceParameterSpec], values: [String: ClosedRange<Double>], random: RandomSource) {
        self.init(ServiceValues(specs: specs, values: values), random: random)
    }

    /// Settings with values resolved beforehand (no lookups by name per session).
    public init(_ values: ServiceValues, random: RandomSource) {
        self.values = values
        self.random = random
    }

    /// The parameter's range (a single value has `lower == upper`); nil when it is not declared.
    public func range(_ name: String) -> ClosedRange<Double>? {
        values.ranges.first { $0.name == name }?.range
    }

    /// A chance parameter's value, or 0 when it is not declared.
    public func chance(_ name: String) -> Double { range(name)?.lowerBound ?? 0 }

    /// A draw of a number parameter, uniform in its range; 0 when it is not declared.
    public func draw(_ name: String) -> Double {
        guard let range = range(name) else { return 0 }
        if range.lowerBound == range.upperBound { return range.lowerBound }
        return range.lowerBound + (range.upperBound - range.lowerBound) * random.unit()
    }

    /// A draw of a seconds parameter, whole milliseconds.
    public func drawDuration(_ name: String) -> Duration {
        .milliseconds(Int64((draw(name) * 1000).rounded()))
    }
}
