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
        delegate?.didEnter(sum: sum)
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

/// Reads "a + b": exactly one `+` between two whole numbers, spaces allowed around each.
public enum ExpressionInteractor {
    /// The expression's meaning.
    public static func parse(_ text: String) -> ParsedExpression {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return .empty }
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let left = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let right = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return .malformed }
        let (sum, overflow) = left.addingReportingOverflow(right)
        return overflow ? .tooLarge : .sum(sum)
    }
}

/// Turns an expression into expression view data.
public enum ExpressionFormatter {
    /// While typing: the sum in words when valid, a hint when empty, nothing while incomplete.
    public static func prepare(expression: String, parsed: ParsedExpression) -> ExpressionViewData {
        switch parsed {
        case .sum(let sum): ExpressionViewData(expression: expression, note: SumFormatter.spellOut(sum))
        case .empty: ExpressionViewData(expression: expression, note: "Type a sum, e.g. 4 + 2")
        case .malformed: ExpressionViewData(expression: expression, note: "")
        case .tooLarge: ExpressionViewData(expression: expression, note: "too large")
        }
    }

    /// After "Analyse" on an expression that is not a sum: what to type instead.
    public static func prepareRejection(expression: String, parsed: ParsedExpression) -> ExpressionViewData {
        let note = parsed == .tooLarge
            ? "The sum is too large; try smaller numbers"
            : "Type two whole numbers joined by +, e.g. 4 + 2"
        return ExpressionViewData(expression: expression, note: note)
    }
}
