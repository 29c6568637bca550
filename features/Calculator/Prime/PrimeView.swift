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

/// Decides primality by trial division over 6k ± 1.
public enum PrimeInteractor {
    /// Whether `n` is prime (numbers up to 1 are not).
    public static func isPrime(_ n: Int) -> Bool {
        if n <= 1 { return false }
        if n <= 3 { return true }
        if n % 2 == 0 || n % 3 == 0 { return false }
        var i = 5
        while i <= n / i {
            if n % i == 0 || n % (i + 2) == 0 { return false }
            i += 6
        }
        return true
    }
}

/// Turns a verdict into the prime screen's text.
public enum PrimeFormatter {
    /// "7 is prime\n🤓" or "8 is not prime\n😔".
    public static func prepare(number: Int, isPrime: Bool) -> PrimeViewData {
        PrimeViewData(text: isPrime ? "\(number) is prime\n🤓" : "\(number) is not prime\n😔")
    }
}
