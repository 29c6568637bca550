import Classifieds
import Marketplace
import RemixKit

/// Insertion on one screen: type the title and pick a leaf group, then publish. It reuses
/// Marketplace's `InsertionInteractor` (the draft and publishing, with its domain events) and the
/// title step's formatter, so it behaves like the built-in flows where they overlap.
public final class QuickInsertionFeature: FlowFeature {
    private let groupService: any GroupService
    private let advertService: any AdvertService
    private let events: any EventSink
    private let makeView: () -> any QuickInsertionView

    /// Makes the feature.
    public init(groupService: any GroupService, advertService: any AdvertService, events: any EventSink,
                makeView: @escaping () -> any QuickInsertionView = { HeadlessQuickInsertionView() }) {
        self.groupService = groupService
        self.advertService = advertService
        self.events = events
        self.makeView = makeView
    }

    public func makeCoordinator(navigation: any NavigationWireframe) -> any FlowCoordinator {
        QuickInsertionCoordinator(
            navigation: navigation, groupService: groupService,
            interactor: InsertionInteractor(advertService: advertService, events: events), view: makeView())
    }
}

/// The one screen's logic: a row sets the draft's group, Publish publishes once the draft has a
/// title and a group (a failure stays on the screen with a message), back cancels.
final class QuickInsertionCoordinator: FlowCoordinator, QuickInsertionViewDelegate {
    /// Shown when Publish is tapped without a group.
    static let noGroupMessage = "Choose a group for your advert"
    /// Shown when Publish is tapped without a title.
    static let noTitleMessage = "Type a title for your advert"
    /// Shown when publishing fails.
    static let failedMessage = "Could not publish advert; try again"
    /// Shown when the groups cannot be read.
    static let noGroupsMessage = "Could not load the groups"

    weak var delegate: (any FlowCoordinatorDelegate)?
    private let navigation: any NavigationWireframe
    private let groupService: any GroupService
    private let interactor: InsertionInteractor
    private let view: any QuickInsertionView
    private var rows: [QuickInsertionViewData.GroupRow] = []
    private var finished = false

    init(navigation: any NavigationWireframe, groupService: any GroupService, interactor: InsertionInteractor,
         view: any QuickInsertionView) {
        self.navigation = navigation
        self.groupService = groupService
        self.interactor = interactor
        self.view = view
    }

    func start() {
        var message: String?
        groupService.fetchGroups { result in
            switch result {
            case .success(let groups): rows = QuickInsertionFormatter.leafRows(of: groups)
            case .error: message = Self.noGroupsMessage
            }
        }
        view.delegate = self
        show(message: message)
        navigation.push(view)
    }

    func didSelect(groupID: GroupID, withText text: String) {
        interactor.update(title: text)
        interactor.update(groupID: groupID)
        show(message: nil)
    }

    func didTapPublish(withText text: String) {
        interactor.update(title: text)
        guard interactor.draft.groupID != nil else { return show(message: Self.noGroupMessage) }
        guard !text.allSatisfy(\.isWhitespace) else { return show(message: Self.noTitleMessage) }
        interactor.publish { result in
            switch result {
            case .success(let advertID): finish(.completed(result: advertID))
            case .error: show(message: Self.failedMessage)
            }
        }
    }

    func didGoBack(withText text: String) {
        interactor.update(title: text)
        finish(.cancelled)
    }

    private func show(message: String?) {
        view.viewData = QuickInsertionFormatter.prepare(rows: rows, draft: interactor.draft, message: message)
    }

    private func finish(_ outcome: FlowOutcome) {
        guard !finished else { return }
        finished = true
        delegate?.flowCoordinator(self, didFinishWith: outcome)
    }
}
