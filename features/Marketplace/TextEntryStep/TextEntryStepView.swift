import RemixKit

/// A text entry step: a label and an editable text.
public struct TextEntryStepViewData: Equatable, Sendable {
    public var title: String
    public var value: String

    /// Makes view data.
    public init(title: String, value: String) {
        self.title = title
        self.value = value
    }
}

/// Reports what the user does on a text entry step.
public protocol TextEntryStepViewDelegate: AnyObject {
    /// "Next" was tapped with the current text.
    func didTapNext(withText text: String)
    /// The back button popped the step; carries the current text.
    func didGoBack(withText text: String)
}

/// One step of a flow that asks for a text.
public protocol TextEntryStepView: View {
    var delegate: (any TextEntryStepViewDelegate)? { get set }
    var viewData: TextEntryStepViewData { get set }
}

/// The headless text entry step: a text field and a Next button.
public final class HeadlessTextEntryStepView: TextEntryStepView {
    public var delegate: (any TextEntryStepViewDelegate)? {
        get { weakDelegate }
        set { weakDelegate = newValue }
    }
    /// Weak, so that a tap on a view outliving its delegate does nothing; private, so that the
    /// compiler sees every access and checks their exclusive access when compiling.
    private weak var weakDelegate: (any TextEntryStepViewDelegate)?
    /// Setting view data also resets the text being edited. Swapped in when set, so that the old
    /// data goes after the change (its exclusive access is then checked when compiling).
    public var viewData: TextEntryStepViewData {
        get { data }
        set {
            var replaced = newValue
            swap(&replaced, &data)
            text = data.value
            cache.reset()
        }
    }
    private var data = TextEntryStepViewData(title: "", value: "")
    private var text = "" { didSet { cache.reset() } }
    /// The screen for the current view data and text, made on first request (drivers read it every step).
    private var cache = ScreenCache()
    /// The step's one button, the same on every screen it makes.
    private static let buttons = [ScreenButton(id: "next", title: "Next", role: .primary)]
    private let screenName: String
    private let purpose: FieldPurpose

    /// Makes an empty step shown under `screenName` (e.g. `title`) whose text field asks for
    /// `purpose` (e.g. `.title`); its Next button is the screen's primary action.
    public init(screenName: String, purpose: FieldPurpose = .text) {
        self.screenName = screenName
        self.purpose = purpose
    }

    public var screen: ScreenContent {
        if let screen = cache.kept { return screen }
        let screen = ScreenContent(name: screenName, title: viewData.title,
                      fields: [ScreenTextField(id: "text", label: viewData.title, value: text, purpose: purpose)],
                      buttons: Self.buttons)
        cache.keep(screen)
        return screen
    }

    public var screenID: ScreenID { ScreenID(name: screenName) }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .edit("text", let newText): text = newText
        case .press("next"): delegate?.didTapNext(withText: text)
        default: throw UserInputError(screen: screenName, input: input)
        }
    }

    public func navigationDidGoBack() {
        delegate?.didGoBack(withText: text)
    }
}

/// Turns a draft into the title step's view data.
public enum TitleStepFormatter {
    /// Headed "Advert title", showing the draft's title or "".
    public static func prepare(title: String?) -> TextEntryStepViewData {
        TextEntryStepViewData(title: "Advert title", value: title ?? "")
    }
}
