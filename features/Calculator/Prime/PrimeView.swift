import RemixKit

/// Whether a number is prime, in a sentence.
public struct PrimeViewData: Equatable, Sendable {
    public var text: String

    /// Makes view data.
    public init(text: String) {
        self.text = text
    }
}

/// Reports what the user does on the prime screen.
public protocol PrimeViewDelegate: AnyObject {
    func didTapOK()
}

/// Shows the prime verdict with an "OK" button.
public protocol PrimeView: View {
    var delegate: (any PrimeViewDelegate)? { get set }
    var viewData: PrimeViewData { get set }
}

/// The headless prime screen.
public final class HeadlessPrimeView: PrimeView {
    public weak var delegate: (any PrimeViewDelegate)?
    public var viewData = PrimeViewData(text: "")

    /// Makes an empty prime screen.
    public init() {}

    public var screen: ScreenContent {
        ScreenContent(name: "prime", title: "Prime?", body: [viewData.text],
                      buttons: [ScreenButton(id: "ok", title: "OK", role: .primary)])
    }

    public func receive(_ input: UserInput) throws {
        guard input == .press(buttonID: "ok") else { throw UserInputError(screen: "prime", input: input) }
        delegate?.didTapOK()
    }
}
