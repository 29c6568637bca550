import RemixKit

/// The wizard's last step: what will be published, and a note when publishing failed.
public struct WizardReviewViewData: Equatable, Sendable {
    /// The step's heading (e.g. "Step 3 of 3: Review").
    public var heading: String
    /// The line showing the advert's title (e.g. "Title: Mountain bike").
    public var titleLine: String
    /// The line showing the advert's group with its ancestors (e.g. "Group: Bicycles › Racers").
    public var groupLine: String
    /// A problem to show (e.g. a failed publish), if any.
    public var message: String?

    /// Makes view data.
    public init(heading: String, titleLine: String, groupLine: String, message: String? = nil) {
        self.heading = heading
        self.titleLine = titleLine
        self.groupLine = groupLine
        self.message = message
    }
}

/// Reports what the user does on the review step.
public protocol WizardReviewViewDelegate: AnyObject {
    /// "Publish" was tapped.
    func didTapPublish()
    /// The back button popped the step.
    func didGoBackFromReview()
}

/// The wizard's review step.
public protocol WizardReviewView: View {
    /// Receives the user's actions.
    var delegate: (any WizardReviewViewDelegate)? { get set }
    /// What the step shows.
    var viewData: WizardReviewViewData { get set }
}

/// The headless review step: the note (if any), the title and the group as body, and a Publish
/// button (role `submit`).
public final class HeadlessWizardReviewView: WizardReviewView {
    /// The screen's name in screen descriptions and navigation states.
    public static let screenName = "wizard-review"
    public weak var delegate: (any WizardReviewViewDelegate)?
    public var viewData = WizardReviewViewData(heading: "", titleLine: "", groupLine: "")

    /// Makes an empty step.
    public init() {}

    public var screen: ScreenContent {
        ScreenContent(
            name: Self.screenName, title: viewData.heading,
            body: [viewData.message, viewData.titleLine, viewData.groupLine].compactMap { $0 },
            buttons: [ScreenButton(id: "publish", title: "Publish", role: .submit)])
    }

    public var screenID: ScreenID { ScreenID(name: Self.screenName) }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .press("publish"): delegate?.didTapPublish()
        default: throw UserInputError(screen: Self.screenName, input: input)
        }
    }

    public func navigationDidGoBack() {
        delegate?.didGoBackFromReview()
    }
}
