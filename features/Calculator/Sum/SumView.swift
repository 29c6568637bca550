import RemixKit

/// The sum screen: two terms and their sum spelled out.
public struct SumViewData: Equatable, Sendable {
    public var left: String
    public var right: String
    public var result: String

    /// Makes view data.
    public init(left: String, right: String, result: String) {
        self.left = left
        self.right = right
        self.result = result
    }
}

/// Reports what the user does on the sum screen.
public protocol SumViewDelegate: AnyObject {
    func viewReady()
    func didChange(left: String)
    func didChange(right: String)
    func didTapAnalyse()
}

/// Two text fields, a result and an "Analyse" button.
public protocol SumView: View {
    var delegate: (any SumViewDelegate)? { get set }
    var viewData: SumViewData { get set }
}

/// The headless sum screen.
public final class HeadlessSumView: SumView {
    public weak var delegate: (any SumViewDelegate)? {
        didSet { delegate?.viewReady() }
    }
    public var viewData = SumViewData(left: "", right: "", result: "")

    /// Makes an empty sum screen.
    public init() {}

    public var screen: ScreenContent {
        ScreenContent(
            name: "sum", title: "Sum", body: [viewData.result],
            fields: [ScreenTextField(id: "left", label: "Left", value: viewData.left, purpose: .number),
                     ScreenTextField(id: "right", label: "Right", value: viewData.right, purpose: .number)],
            buttons: [ScreenButton(id: "analyse", title: "Analyse", role: .primary)])
    }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .edit("left", let text): delegate?.didChange(left: text)
        case .edit("right", let text): delegate?.didChange(right: text)
        case .press("analyse"): delegate?.didTapAnalyse()
        default: throw UserInputError(screen: "sum", input: input)
        }
    }
}
