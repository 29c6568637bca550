import Classifieds
import Marketplace
import RemixKit

/// The wizard's logic. Next needs a title; a parent group pushes its children, a leaf sets the
/// draft's group and pushes the review; Publish publishes (a failure stays on the review with a
/// note). Back goes one screen back — a level up, or a step back — and back from the title step
/// cancels.
final class WizardInsertionCoordinator: FlowCoordinator, TextEntryStepViewDelegate, WizardGroupViewDelegate,
    WizardReviewViewDelegate {
    /// Shown when Next is tapped without a title.
    static let noTitleMessage = "Type a title for your advert"
    /// Shown when publishing fails.
    static let failedMessage = "Could not publish advert; try again"
    /// Shown when a level's groups cannot be read.
    static let noGroupsMessage = "Could not load the groups"
    /// Shown when a chosen group no longer exists.
    static let missingGroupMessage = "That group no longer exists; choose another"

    /// One level of the group step on the stack.
    private struct Level {
        let view: any WizardGroupView
        let parentTitle: String?
        var groups: [Group] = []
    }

    weak var delegate: (any FlowCoordinatorDelegate)?
    private let navigation: any NavigationWireframe
    private let groups: GroupSelectionInteractor
    private let interactor: InsertionInteractor
    private let views: WizardInsertionFeature.Views
    private let titleView: any WizardTitleView
    /// The group step's levels on the stack, root first; empty on the title step.
    private var levels: [Level] = []
    private var review: (view: any WizardReviewView, groupPath: [String])?
    private var finished = false

    init(navigation: any NavigationWireframe, groups: GroupSelectionInteractor, interactor: InsertionInteractor,
         views: WizardInsertionFeature.Views) {
        self.navigation = navigation
        self.groups = groups
        self.interactor = interactor
        self.views = views
        self.titleView = views.makeTitleView()
    }

    func start() {
        titleView.delegate = self
        titleView.viewData = WizardInsertionFormatter.titleStep(draft: interactor.draft)
        navigation.push(titleView)
    }

    // MARK: Title step

    func didTapNext(withText text: String) {
        interactor.update(title: text)
        guard !text.allSatisfy(\.isWhitespace) else {
            titleView.viewData = WizardInsertionFormatter.titleStep(draft: interactor.draft, message: Self.noTitleMessage)
            return
        }
        titleView.viewData = WizardInsertionFormatter.titleStep(draft: interactor.draft)
        pushLevel(parent: nil)
    }

    func didGoBack(withText text: String) {
        interactor.update(title: text)
        finish(.cancelled)
    }

    // MARK: Group step

    func didSelect(groupID: GroupID) {
        groups.findSelectionType(for: groupID) { result in
            switch result {
            case .success(.parent): pushLevel(parent: groupID)
            case .success(.leaf):
                interactor.update(groupID: groupID)
                showLevel(at: levels.count - 1)
                pushReview(groupPath: levels.compactMap(\.parentTitle) + [groups.title(of: groupID) ?? groupID])
            case .error: showLevel(at: levels.count - 1, message: Self.missingGroupMessage)
            }
        }
    }

    func didGoBack(from view: any WizardGroupView) {
        levels.removeAll { $0.view === view }
    }

    private func pushLevel(parent: GroupID?) {
        let view = views.makeGroupView()
        view.delegate = self
        var level = Level(view: view, parentTitle: parent.flatMap(groups.title(of:)))
        var message: String?
        groups.fetchGroups(parentGroupID: parent) { result in
            switch result {
            case .success(let children): level.groups = children
            case .error: message = Self.noGroupsMessage
            }
        }
        levels.append(level)
        showLevel(at: levels.count - 1, message: message)
        navigation.push(view)
    }

    private func showLevel(at index: Int, message: String? = nil) {
        guard levels.indices.contains(index) else { return }
        let level = levels[index]
        level.view.viewData = WizardInsertionFormatter.groupStep(
            groups: level.groups, parentTitle: level.parentTitle, draft: interactor.draft, message: message)
    }

    // MARK: Review step

    private func pushReview(groupPath: [String]) {
        let view = views.makeReviewView()
        view.delegate = self
        view.viewData = WizardInsertionFormatter.reviewStep(draft: interactor.draft, groupPath: groupPath)
        review = (view, groupPath)
        navigation.push(view)
    }

    func didTapPublish() {
        guard let review, !finished else { return }
        interactor.publish { result in
            switch result {
            case .success(let advertID): finish(.completed(result: advertID))
            case .error:
                review.view.viewData = WizardInsertionFormatter.reviewStep(
                    draft: interactor.draft, groupPath: review.groupPath, message: Self.failedMessage)
            }
        }
    }

    func didGoBackFromReview() {
        review = nil
    }

    private func finish(_ outcome: FlowOutcome) {
        guard !finished else { return }
        finished = true
        delegate?.flowCoordinator(self, didFinishWith: outcome)
    }
}
