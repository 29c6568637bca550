/// A feature: the factory that wires one coordinator to its views, interactors, services and
/// formatters. It is the only place that knows how its parts fit together.
///
/// Concrete features add a `makeCoordinator(…)` method of their own; features that can fill an
/// app slot adopt ``FlowFeature`` so any host can start them as a sub-flow.
public protocol Feature: AnyObject {
    /// This feature as a ``FlowFeature``, or nil if it is none. Every feature has it from the
    /// extensions below (a flow feature's says `self`), so a host that runs whatever fills a slot
    /// gets the flow through a witness call instead of a cast to the protocol, which looks the
    /// conformance up in the runtime's tables (about a thousand instructions a session).
    var asFlowFeature: (any FlowFeature)? { get }
}

extension Feature {
    /// Nil: a feature that is not a ``FlowFeature``.
    public var asFlowFeature: (any FlowFeature)? { nil }
}

extension FlowFeature {
    /// The feature itself.
    public var asFlowFeature: (any FlowFeature)? { self }
}

/// A feature that runs as a self-contained flow on a navigation stack and ends with an outcome.
///
/// Slot fillers (e.g. the Marketplace insertion flows) are flow features, so a host coordinator can
/// run whichever one an experiment picked without knowing which it got.
public protocol FlowFeature: Feature {
    /// Makes a fresh coordinator for one run of the flow on `navigation`.
    func makeCoordinator(navigation: any NavigationWireframe) -> any FlowCoordinator
}

/// The coordinator of a ``FlowFeature``: all of the flow's logic.
public protocol FlowCoordinator: AnyObject {
    /// Receives the flow's outcome.
    var delegate: (any FlowCoordinatorDelegate)? { get set }
    /// Shows the flow's first screen.
    func start()
}

/// How a flow ended.
public enum FlowOutcome: Equatable, Sendable {
    /// The flow did its job; `result` identifies what it produced (e.g. the new advert's id).
    case completed(result: String?)
    /// The user left the flow without finishing it.
    case cancelled
}

/// Receives the outcome of a ``FlowCoordinator``.
public protocol FlowCoordinatorDelegate: AnyObject {
    /// The flow ended; the coordinator will not report again.
    func flowCoordinator(_ coordinator: any FlowCoordinator, didFinishWith outcome: FlowOutcome)
}

/// The result of an interactor or service call: success with a value, or an error without payload.
public enum AsyncResult<Value> {
    case success(Value)
    case error
}

extension AsyncResult: Sendable where Value: Sendable {}
extension AsyncResult: Equatable where Value: Equatable {}
