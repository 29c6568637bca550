/// A feature: the factory that wires one coordinator to its views, interactors, services and
/// formatters. It is the only place that knows how its parts fit together.
///
/// Concrete features add a `makeCoordinator(…)` method of their own; features that can fill an
/// app slot adopt ``FlowFeature`` so any host can start them as a sub-flow.
public protocol Feature: AnyObject {}

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
