import Classifieds
import RemixKit

/// Insertion with the group chosen by the user first (leaf groups only), then the title.
public final class ManualGroupInsertionFeature: FlowFeature {
    private let groupSelection: GroupSelectionFeature
    private let advertService: any AdvertService
    private let events: any EventSink
    private let makeTitleView: () -> any TextEntryStepView

    /// Makes the feature.
    public init(groupSelection: GroupSelectionFeature, advertService: any AdvertService, events: any EventSink,
                makeTitleView: @escaping () -> any TextEntryStepView = {
                    HeadlessTextEntryStepView(screenName: "title", purpose: .title)
                }) {
        self.groupSelection = groupSelection
        self.advertService = advertService
        self.events = events
        self.makeTitleView = makeTitleView
    }

    public func makeCoordinator(navigation: any NavigationWireframe) -> any FlowCoordinator {
        ManualGroupInsertionCoordinator(
            navigation: navigation, groupSelection: groupSelection,
            interactor: InsertionInteractor(advertService: advertService, events: events),
            makeTitleView: makeTitleView)
    }
}

/// Group first, then title: Reset returns to the root group list, back on the root cancels,
/// and the title is remembered when the user goes back from the title step.
final class ManualGroupInsertionCoordinator: FlowCoordinator, GroupSelectionCoordinatorDelegate,
    TextEntryStepViewDelegate {
    var delegate: (any FlowCoordinatorDelegate)? {
        get { weakDelegate }
        set { weakDelegate = newValue }
    }
    /// Private, so that the compiler sees every access and checks their exclusive access when
    /// compiling (the protocol sets ``delegate`` in place otherwise).
    private weak var weakDelegate: (any FlowCoordinatorDelegate)?
    private let navigation: any NavigationWireframe
    private let groupSelection: GroupSelectionFeature
    private let interactor: InsertionInteractor
    private let makeTitleView: () -> any TextEntryStepView
    private var groupSelectionCoordinator: GroupSelectionCoordinator?

    init(navigation: any NavigationWireframe, groupSelection: GroupSelectionFeature,
         interactor: InsertionInteractor, makeTitleView: @escaping () -> any TextEntryStepView) {
        self.navigation = navigation
        self.groupSelection = groupSelection
        self.interactor = interactor
        self.makeTitleView = makeTitleView
    }

    func start() {
        let coordinator = groupSelection.makeCoordinator(navigation: navigation)
        coordinator.delegate = self
        groupSelectionCoordinator = coordinator
        coordinator.start()
        navigation.setPopCheckpoint()
    }

    func didSelect(groupID: GroupID?) {
        guard let groupID else {
            navigation.popToLastCheckpoint()
            navigation.setPopCheckpoint()
            return
        }
        interactor.update(groupID: groupID)
        let view = makeTitleView()
        view.delegate = self
        view.viewData = TitleStepFormatter.prepare(title: interactor.draft.title)
        navigation.push(view)
    }

    func didCancelSelection() {
        finish(.cancelled)
    }

    func didTapNext(withText text: String) {
        interactor.update(title: text)
        interactor.publish { result in
            if case .success(let advertID) = result { finish(.completed(result: advertID)) }
        }
    }

    func didGoBack(withText text: String) {
        interactor.update(title: text)
    }

    private func finish(_ outcome: FlowOutcome) {
        navigation.unsetPopCheckpoint()
        groupSelectionCoordinator = nil
        delegate?.flowCoordinator(self, didFinishWith: outcome)
    }
}
