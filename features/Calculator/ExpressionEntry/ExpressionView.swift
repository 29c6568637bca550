import RemixKit

/// The expression screen: the sum as typed, and a line under it (the sum in words, or what is wrong).
public struct ExpressionViewData: Equatable, Sendable {
    /// The expression as typed, e.g. "4 + 2".
    public var expression: String
    /// The sum in words, a hint, or why the expression cannot be analysed.
    public var note: String

    /// Makes view data.
    public init(expression: String, note: String) {
        self.expression = expression
        self.note = note
    }
}

/// Reports what the user does on the expression screen.
public protocol ExpressionViewDelegate: AnyObject {
    /// The expression changed.
    func didChange(expression: String)
    /// "Analyse" was tapped.
    func didTapAnalyse()
}

/// One text field for "a + b" and an "Analyse" button.
public protocol ExpressionView: View {
    var delegate: (any ExpressionViewDelegate)? { get set }
    var viewData: ExpressionViewData { get set }
}

/// The headless expression screen: field `expression` (purpose `expression`), "Analyse" `primary`.
public final class HeadlessExpressionView: ExpressionView {
    public weak var delegate: (any ExpressionViewDelegate)?
    public var viewData = ExpressionViewData(expression: "", note: "")

    /// Makes an empty expression screen.
    public init() {}

    public var screen: ScreenContent {
        ScreenContent(
            name: "expression", title: "Sum", body: viewData.note.isEmpty ? [] : [viewData.note],
            fields: [ScreenTextField(id: "expression", label: "a + b", value: viewData.expression,
                                     purpose: ExpressionEntryFeature.expressionPurpose)],
            buttons: [ScreenButton(id: "analyse", title: "Analyse", role: .primary)])
    }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .edit("expression", let text): delegate?.didChange(expression: text)
        case .press("analyse"): delegate?.didTapAnalyse()
        default: throw UserInputError(screen: "expression", input: input)
        }
    }
}

extension HeadlessExpressionView: RouteOpening {
    /// The screen after a sum (`prime`): an expression typed first if there is none (`1 + 1`; a
    /// route names the screen, not the numbers), then "Analyse".
    public func input(toOpen next: ScreenID) -> UserInput? {
        viewData.expression.isEmpty ? .edit(fieldID: "expression", text: "1 + 1") : .press(buttonID: "analyse")
    }
}
