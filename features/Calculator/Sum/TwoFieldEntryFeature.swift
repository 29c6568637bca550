import RemixKit

/// Entering a sum as two terms in two fields, the sum spelled out as they change (the seed's
/// Calculator; the `entry` slot's default).
public final class TwoFieldEntryFeature: SumEntryFeature {
    private let makeView: () -> any SumView

    /// Makes the feature.
    public init(makeView: @escaping () -> any SumView = { HeadlessSumView() }) {
        self.makeView = makeView
    }

    public func makeCoordinator() -> any SumEntryCoordinator {
        TwoFieldEntryCoordinator(sumView: makeView())
    }
}

/// Keeps the sum up to date as terms change; "Analyse" reports it.
public final class TwoFieldEntryCoordinator: SumEntryCoordinator, SumViewDelegate {
    public weak var delegate: (any SumEntryCoordinatorDelegate)?
    private let sumView: any SumView
    private let interactor = SumInteractor()
    private var typed = (left: "", right: "")

    init(sumView: any SumView) {
        self.sumView = sumView
    }

    public var view: any View { sumView }

    public func start() {
        sumView.delegate = self
    }

    public func viewReady() { refresh() }

    public func didChange(left: String) {
        typed.left = left
        interactor.update(left: left)
        refresh()
    }

    public func didChange(right: String) {
        typed.right = right
        interactor.update(right: right)
        refresh()
    }

    public func didTapAnalyse() {
        guard let sum = interactor.sum else { return }
        delegate?.didEnter(sum: sum, typed: [("number", [typed.left, typed.right])])
    }

    private func refresh() {
        sumView.viewData = SumFormatter.prepare(terms: interactor.terms, sum: interactor.sum)
    }
}
