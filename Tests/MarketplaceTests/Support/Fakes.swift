import Classifieds
import Marketplace
import RemixKit

/// The sample tree and adverts of the Marketplace catalog, for component-level tests: the tree as
/// the bundled catalog file has it (empty if the file cannot be read, which fails the tests that
/// use it), the adverts in code.
enum SampleData {
    static let groups: [Group] = MarketplaceModule.bundledCatalog.flatMap { try? Catalog.load(contentsOf: $0).groups } ?? []

    static let adverts = [
        Advert(advertID: "1", title: "Specialized", description: "A tired old mountain bike.", groupID: "4"),
        Advert(advertID: "2", title: "Cervelo R2", description: "A fast racing bike.", groupID: "5"),
        Advert(advertID: "3", title: "Fiat 500", description: "A small Italian city car.", groupID: "10"),
        Advert(advertID: "4", title: "Apollo Jewel", description: "A light mountain bike.", groupID: "4"),
    ]

    /// The Marketplace keyword table: mountain→4, racing→5, bike→3, car→10, truck→10; default 10.
    static let recommendations = RecommendationTable(
        rules: [
            .init(keyword: "mountain", groupID: "4"), .init(keyword: "racing", groupID: "5"),
            .init(keyword: "bike", groupID: "3"), .init(keyword: "car", groupID: "10"),
            .init(keyword: "truck", groupID: "10"),
        ],
        defaultGroupID: "10")
}

/// Makes advert ids "new-1", "new-2", … for published adverts.
final class IDSequence {
    private var next = 0
    func make() -> AdvertID {
        next += 1
        return "new-\(next)"
    }
}

/// In-memory services over the sample data (or other data), as the seed's mocks.
struct Services {
    let adverts: InMemoryAdvertService
    let groups: InMemoryGroupService

    init(groups: [Group] = SampleData.groups, adverts: [Advert] = SampleData.adverts) {
        let ids = IDSequence()
        self.adverts = InMemoryAdvertService(adverts: adverts) { ids.make() }
        self.groups = InMemoryGroupService(groups: groups)
    }
}

/// A headless window whose root is a navigation stack holding a stand-in for the host's screen
/// (as the list is under a phone flow), with a checkpoint at it, as Discovery sets before a sub-flow.
struct HostStack {
    let clock = VirtualClock()
    let window: Window
    let navigation: any NavigationWireframe

    init(hostScreen: String = "host") {
        window = Window(clock: clock)
        navigation = window.makeNavigation()
        window.setRoot(navigation)
        navigation.push(StaticView(name: hostScreen))
        navigation.setPopCheckpoint()
    }

    var state: String { window.state.description }

    /// The group list on top of the stack.
    var groupList: (any GroupSelectionView)? { navigation.topView as? any GroupSelectionView }

    /// The text entry step on top of the stack.
    var textStep: (any TextEntryStepView)? { navigation.topView as? any TextEntryStepView }
}

/// A display-only view standing for a screen the test does not drive.
final class StaticView: View {
    let name: String
    init(name: String) { self.name = name }
    var screen: ScreenContent { ScreenContent(name: name, title: name) }
    func receive(_ input: UserInput) throws { throw UserInputError(screen: name, input: input) }
}

/// Records how a flow ended, as a host coordinator would receive it.
final class FlowDelegateSpy: FlowCoordinatorDelegate {
    private(set) var outcomes: [FlowOutcome] = []

    func flowCoordinator(_ coordinator: any FlowCoordinator, didFinishWith outcome: FlowOutcome) {
        outcomes.append(outcome)
    }
}

/// The seed's AdvertListViewSpy: keeps view data and delegate.
final class AdvertListViewSpy: AdvertListView {
    weak var delegate: (any AdvertListViewDelegate)?
    var viewData = AdvertListViewData(items: [])
    var screen: ScreenContent { ScreenContent(name: "adverts", title: "Adverts") }
    func receive(_ input: UserInput) throws { throw UserInputError(screen: "adverts", input: input) }
}

/// The seed's ItemDetailViewSpy: keeps view data.
final class ItemDetailViewSpy: ItemDetailView {
    var viewData = ItemDetailViewData(title: "", detail: "")
    var screen: ScreenContent { ScreenContent(name: "item", context: viewData.title, title: viewData.title) }
    func receive(_ input: UserInput) throws { throw UserInputError(screen: "item", input: input) }
}

/// Records what an advert list coordinator passes up.
final class AdvertListDelegateSpy: AdvertListCoordinatorDelegate {
    private(set) var selected: [AdvertID] = []
    private(set) var newAdvertTaps = 0
    private(set) var filterTaps = 0
    func didSelect(advertID: AdvertID) { selected.append(advertID) }
    func didSelectNewAdvertAction() { newAdvertTaps += 1 }
    func didSelectFiltersAction() { filterTaps += 1 }
}

extension AdvertListViewData {
    /// The rows as `title | group`.
    var rows: [String] { items.map { "\($0.title) | \($0.group)" } }
}
