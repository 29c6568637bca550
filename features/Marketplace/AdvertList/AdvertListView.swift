import Classifieds
import RemixKit

/// The advert list as shown: one row per advert with its group's title.
public struct AdvertListViewData: Equatable, Sendable {
    /// One row.
    public struct Item: Equatable, Sendable {
        public var advertID: AdvertID
        public var title: String
        public var group: String

        /// Makes a row.
        public init(advertID: AdvertID, title: String, group: String) {
            self.advertID = advertID
            self.title = title
            self.group = group
        }
    }

    /// The rows in service order.
    public var items: [Item]
    /// The title of the group the list is filtered by, or nil when it shows everything.
    public var filterTitle: String?

    /// Makes view data.
    public init(items: [Item], filterTitle: String? = nil) {
        self.items = items
        self.filterTitle = filterTitle
    }
}

/// Reports what the user does on the advert list.
public protocol AdvertListViewDelegate: AnyObject {
    func didSelect(advertID: AdvertID)
    func didSelectNewAdvertAction()
    func didSelectFiltersAction()
}

/// The list of adverts with a "+" (new advert) and a filters button.
public protocol AdvertListView: View {
    var delegate: (any AdvertListViewDelegate)? { get set }
    var viewData: AdvertListViewData { get set }
}

/// The headless advert list.
public final class HeadlessAdvertListView: AdvertListView {
    public var delegate: (any AdvertListViewDelegate)? {
        get { weakDelegate }
        set { weakDelegate = newValue }
    }
    /// Weak, so that a tap on a view outliving its delegate does nothing; private, so that the
    /// compiler sees every access and checks their exclusive access when compiling.
    private weak var weakDelegate: (any AdvertListViewDelegate)?
    /// Swapped in when set, so that the old data goes after the change: then no access to it
    /// overlaps another, and its exclusive access is checked when compiling, not at run time.
    public var viewData: AdvertListViewData {
        get { data }
        set {
            var replaced = newValue
            swap(&replaced, &data)
            cache.reset()
        }
    }
    private var data = AdvertListViewData(items: [])
    /// The screen for the current view data, made on first request (drivers read it every step).
    private var cache = ScreenCache()
    /// The list's buttons, the same on every screen it makes.
    private static let buttons = [ScreenButton(id: "new", title: "New advert", role: .primary),
                                  ScreenButton(id: "filters", title: "Filters", role: .other)]

    /// Makes an empty list.
    public init() {}

    public var screen: ScreenContent {
        if let screen = cache.kept { return screen }
        let screen = ScreenContent(
            name: "adverts", context: viewData.filterTitle,
            title: viewData.filterTitle.map { "Adverts in \($0)" } ?? "Adverts",
            items: viewData.items.map {
                ScreenItem(id: $0.advertID, title: $0.title, detail: $0.group, kind: .item, value: $0.advertID)
            },
            buttons: Self.buttons)
        cache.keep(screen)
        return screen
    }

    public var screenID: ScreenID { ScreenID(name: "adverts", context: viewData.filterTitle) }

    public func receive(_ input: UserInput) throws {
        switch input {
        case .select(let id) where viewData.items.contains(where: { $0.advertID == id }):
            delegate?.didSelect(advertID: id)
        case .press("new"):
            delegate?.didSelectNewAdvertAction()
        case .press("filters"):
            delegate?.didSelectFiltersAction()
        default:
            throw UserInputError(screen: "adverts", input: input)
        }
    }
}

extension HeadlessAdvertListView: RouteOpening {
    /// An advert's page by its title, the list filtered by a group through the filter picker, and
    /// anything else through "New advert" — the insertion slot's flow, whatever screen its
    /// feature shows first.
    public func input(toOpen next: ScreenID) -> UserInput? {
        switch next.name {
        case "item":
            guard let title = next.context, let advert = viewData.items.first(where: { $0.title == title }) else { return nil }
            return .select(itemID: advert.advertID)
        case "adverts":
            return next.context != viewData.filterTitle ? .press(buttonID: "filters") : nil
        case MarketplaceScreens.filter:
            return .press(buttonID: "filters")
        default:
            return .press(buttonID: "new")
        }
    }
}
