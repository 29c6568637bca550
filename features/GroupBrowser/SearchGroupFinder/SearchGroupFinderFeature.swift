import Classifieds
import Foundation
import RemixKit

/// Finding a group by name: one screen with a query field over every leaf group (all of them while
/// the query is empty). Fewer taps than the tree for a person who knows the name; a mistyped name
/// finds nothing and records `group_search_missed`; a result picked records `group_found` with what
/// was typed.
public final class SearchGroupFinderFeature: GroupFinderFeature {
    private let groupService: any GroupService
    private let events: any EventSink
    private let makeView: () -> any GroupSearchView

    /// Makes the feature.
    public init(groupService: any GroupService, events: any EventSink,
                makeView: @escaping () -> any GroupSearchView = { HeadlessGroupSearchView() }) {
        self.groupService = groupService
        self.events = events
        self.makeView = makeView
    }

    public func makeCoordinator(navigation: any NavigationWireframe) -> any GroupFinderCoordinator {
        SearchGroupFinderCoordinator(navigation: navigation, interactor: GroupSearchInteractor(groupService: groupService),
                                     events: events, view: makeView())
    }
}

/// Keeps the results in step with the query and reports the chosen group.
public final class SearchGroupFinderCoordinator: GroupFinderCoordinator, GroupSearchViewDelegate {
    public weak var delegate: (any GroupSelectionCoordinatorDelegate)?
    private let navigation: any NavigationWireframe
    private let interactor: GroupSearchInteractor
    private let events: any EventSink
    private let view: any GroupSearchView
    /// What the person has typed, logged with the group they pick from its results.
    private var query = ""

    init(navigation: any NavigationWireframe, interactor: GroupSearchInteractor, events: any EventSink,
         view: any GroupSearchView) {
        self.navigation = navigation
        self.interactor = interactor
        self.events = events
        self.view = view
    }

    public func start() {
        view.delegate = self
        show(query: "")
        navigation.push(view)
    }

    public func didChange(query: String) {
        self.query = query
        let results = show(query: query)
        if results.isEmpty, !GroupSearchInteractor.isBlank(query) {
            events.record(DomainEvent("group_search_missed", [EventField("query", .string(query))]))
        }
    }

    public func didSelect(groupID: GroupID) {
        events.record(DomainEvent("group_found", [EventField("query", .string(query)), EventField("group", .string(groupID))]))
        delegate?.didSelect(groupID: groupID)
    }

    public func didTapClear() {
        query = ""
        show(query: "")
    }

    @discardableResult
    private func show(query: String) -> [Group] {
        let results = interactor.leafGroups(matching: query)
        view.viewData = GroupSearchFormatter.prepare(query: query, results: results)
        return results
    }
}
