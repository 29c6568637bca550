import RemixKit

/// The smallest demo: add two numbers, see the sum in words, ask whether it is prime.
public final class CalculatorFeature: Feature {
    private let events: any EventSink
    private let makeSumView: () -> any SumView
    private let makePrimeView: () -> any PrimeView

    /// Makes the feature.
    public init(events: any EventSink, makeSumView: @escaping () -> any SumView = { HeadlessSumView() },
                makePrimeView: @escaping () -> any PrimeView = { HeadlessPrimeView() }) {
        self.events = events
        self.makeSumView = makeSumView
        self.makePrimeView = makePrimeView
    }

    /// The coordinator, with the sum screen as the window's root.
    public func makeCoordinator(window: Window) -> CalculatorCoordinator {
        CalculatorCoordinator(window: window, events: events, sumView: makeSumView(), makePrimeView: makePrimeView)
    }
}

/// Keeps the sum up to date as terms change; "Analyse" presents the prime verdict modally and
/// "OK" dismisses it.
public final class CalculatorCoordinator: AppRoot, SumViewDelegate, PrimeViewDelegate {
    private let window: Window
    private let events: any EventSink
    private let sumView: any SumView
    private let root: any Viewable
    private let makePrimeView: () -> any PrimeView
    private let interactor = SumInteractor()

    init(window: Window, events: any EventSink, sumView: any SumView, makePrimeView: @escaping () -> any PrimeView) {
        self.window = window
        self.events = events
        self.sumView = sumView
        self.root = window.makeViewable(sumView)
        self.makePrimeView = makePrimeView
    }

    public func start() {
        sumView.delegate = self
        window.setRoot(root)
    }

    public func viewReady() { refresh() }

    public func didChange(left: String) {
        interactor.update(left: left)
        refresh()
    }

    public func didChange(right: String) {
        interactor.update(right: right)
        refresh()
    }

    public func didTapAnalyse() {
        guard let sum = interactor.sum else { return }
        let prime = PrimeInteractor.isPrime(sum)
        events.record(DomainEvent("sum_analysed", [EventField("sum", .int(sum)), EventField("prime", .bool(prime))]))
        let view = makePrimeView()
        view.delegate = self
        view.viewData = PrimeFormatter.prepare(number: sum, isPrime: prime)
        root.present(window.makeViewable(view))
    }

    public func didTapOK() {
        root.dismiss()
    }

    private func refresh() {
        sumView.viewData = SumFormatter.prepare(terms: interactor.terms, sum: interactor.sum)
    }
}
