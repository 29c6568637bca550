import Marketplace
import RemixKit

/// The wizard's first step: the advert's title, and a note when it is missing.
public struct WizardTitleViewData: Equatable, Sendable {
    /// The step's heading (e.g. "Step 1 of 3: Title").
    public var heading: String
    /// The title field: its label and text, as Marketplace's title step shows them.
    public var field: TextEntryStepViewData
    /// A problem to show (e.g. no title typed), if any.
    public var message: String?

    /// Makes view data.
    public init(heading: String, field: TextEntryStepViewData, message: String? = nil) {
        self.heading = heading
        self.field = field
        self.message = message
    }
}

/// The wizard's title step. It reports like Marketplace's text entry step — Next and back, each with
/// the text being typed — so it takes that step's delegate.
public protocol WizardTitleView: View {
    /// Receives the user's actions.
    var delegate: (any TextEntryStepViewDelegate)? { get set }
    /// What the step shows.
    var viewData: WizardTitleViewData { get set }
}

/// The headless title step: the note (if any) as body, the `text` field (purpose `title`) and a
/// Next button (role `primary`).
public final class HeadlessWizardTitleView: WizardTitleView {
    /// The screen's name in screen descriptions and navigation states.
    public static let screenName = "wizard-title"
    public weak var delegate: (any TextEntryStepViewDelegate)?
    /// Setting view data also resets the text being edited to the data's title.
    public var viewData = WizardTitleViewData(heading: "", field: TextEntryStepViewData(title: "", value: "")) {
        didSet { text = viewData.field.value }
    }
    private var text = ""

    /// Makes an empty step.
    public init() {}

    public var screen: ScreenContent {
        ScreenContent(
            name: Self.screenName, title: viewData.heading, body: [viewData.message].compactMap { $0 },
            fields: [ScreenTextField(id: "text", label: viewData.field.title, value: text, purpose: .title)],
            buttons: [ScreenButton(id: "next", title: "Next", role: .primary)])
    }

    public var screenID: ScreenID { ScreenID(name: Self.screenName) }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .edit("text", let newText): text = newText
        case .press("next"): delegate?.didTapNext(withText: text)
        default: throw UserInputError(screen: Self.screenName, input: input)
        }
    }

    public func navigationDidGoBack() {
        delegate?.didGoBack(withText: text)
    }
}
