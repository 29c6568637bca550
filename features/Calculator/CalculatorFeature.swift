import RemixKit

/// The smallest demo: enter a sum (the `entry` slot's way), see it analysed, ask whether it is prime.
public final class CalculatorFeature: Feature {
    private let events: any EventSink
    private let entry: Slot
    private let makePrimeView: () -> any PrimeView

    /// Makes the feature; `entry` is the filled `entry` slot.
    public init(events: any EventSink, entry: Slot,
                makePrimeView: @escaping () -> any PrimeView = { HeadlessPrimeView() }) {
        self.events = events
        self.entry = entry
        self.makePrimeView = makePrimeView
    }

    /// The coordinator, with the entry screen as the window's root.
    public func makeCoordinator(window: Window) -> CalculatorCoordinator {
        CalculatorCoordinator(window: window, events: events, entry: entry, makePrimeView: makePrimeView)
    }
}

/// Shows the entry screen; each entered sum is analysed and its prime verdict presented modally,
/// "OK" dismisses it.
public final class CalculatorCoordinator: AppRoot, SumEntryCoordinatorDelegate, PrimeViewDelegate {
    private let window: Window
    private let events: any EventSink
    private let entry: Slot
    private var entering: (any SumEntryCoordinator)?
    private var root: (any Viewable)?
    private let makePrimeView: () -> any PrimeView

    init(window: Window, events: any EventSink, entry: Slot, makePrimeView: @escaping () -> any PrimeView) {
        self.window = window
        self.events = events
        self.entry = entry
        self.makePrimeView = makePrimeView
    }

    /// Shows the entry screen: the slot's first use, so the session's exposure.
    public func start() {
        guard let feature = entry.use(as: (any SumEntryFeature).self) else { return }
        let coordinator = feature.makeCoordinator()
        let root = window.makeViewable(coordinator.view)
        coordinator.delegate = self
        coordinator.start()
        entering = coordinator
        self.root = root
        window.setRoot(root)
    }

    public func didEnter(sum: Int, typed: [(purpose: String, texts: [String])]) {
        let prime = PrimeInteractor.isPrime(sum)
        // What was typed, under its fields' purpose: what an intent's values name (docs/simulation.md).
        let entered = typed.map { entry in
            EventField(entry.purpose, entry.texts.count == 1 ? .string(entry.texts[0]) : .array(entry.texts.map { .string($0) }))
        }
        events.record(DomainEvent("sum_analysed", [EventField("sum", .int(sum)), EventField("prime", .bool(prime))] + entered))
        let view = makePrimeView()
        view.delegate = self
        view.viewData = PrimeFormatter.prepare(number: sum, isPrime: prime)
        root?.present(window.makeViewable(view))
    }

    public func didTapOK() {
        root?.dismiss()
    }
}
