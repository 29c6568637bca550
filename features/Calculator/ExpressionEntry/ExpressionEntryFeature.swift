import Foundation
import RemixKit

/// Entering a sum as one expression, "a + b": one field instead of two, but one a person can
/// mistype — "Analyse" then explains the form, records `expression_rejected` and waits for a retry.
public final class ExpressionEntryFeature: SumEntryFeature {
    /// The purpose of the expression field: a sum of two whole numbers written "a + b".
    public static let expressionPurpose: FieldPurpose = "expression"
    private let events: any EventSink
    private let makeView: () -> any ExpressionView

    /// Makes the feature.
    public init(events: any EventSink, makeView: @escaping () -> any ExpressionView = { HeadlessExpressionView() }) {
        self.events = events
        self.makeView = makeView
    }

    public func makeCoordinator() -> any SumEntryCoordinator {
        ExpressionEntryCoordinator(events: events, expressionView: makeView())
    }
}

/// Spells out the sum while the expression is valid; "Analyse" reports it or explains the mistake.
public final class ExpressionEntryCoordinator: SumEntryCoordinator, ExpressionViewDelegate {
    public weak var delegate: (any SumEntryCoordinatorDelegate)?
    private let events: any EventSink
    private let expressionView: any ExpressionView
    private var expression = ""

    init(events: any EventSink, expressionView: any ExpressionView) {
        self.events = events
        self.expressionView = expressionView
    }

    public var view: any View { expressionView }

    public func start() {
        expressionView.delegate = self
        show(ExpressionFormatter.prepare(expression: "", parsed: ExpressionInteractor.parse("")))
    }

    public func didChange(expression: String) {
        self.expression = expression
        show(ExpressionFormatter.prepare(expression: expression, parsed: ExpressionInteractor.parse(expression)))
    }

    public func didTapAnalyse() {
        let parsed = ExpressionInteractor.parse(expression)
        guard case .sum(let sum) = parsed else {
            events.record(DomainEvent("expression_rejected", [EventField("reason", .string(parsed.reason))]))
            show(ExpressionFormatter.prepareRejection(expression: expression, parsed: parsed))
            return
        }
        delegate?.didEnter(sum: sum, typed: [("expression", [expression])])
    }

    private func show(_ data: ExpressionViewData) {
        expressionView.viewData = data
    }
}

/// What an expression means.
public enum ParsedExpression: Equatable, Sendable {
    /// Two whole numbers and their sum.
    case sum(Int)
    /// Nothing typed yet.
    case empty
    /// Not of the form "a + b" with whole numbers.
    case malformed
    /// A valid form whose sum does not fit in an Int.
    case tooLarge

    /// A short name for the event log: `empty`, `malformed` or `tooLarge` (`none` for a sum).
    public var reason: String {
        switch self {
        case .sum: "none"
        case .empty: "empty"
        case .malformed: "malformed"
        case .tooLarge: "tooLarge"
        }
    }
}
