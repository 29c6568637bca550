import RemixKit

/// A title and a paragraph of detail.
public struct ItemDetailViewData: Equatable, Sendable {
    public var title: String
    public var detail: String

    /// Makes view data.
    public init(title: String, detail: String) {
        self.title = title
        self.detail = detail
    }
}

/// Shows one item's details; display only.
public protocol ItemDetailView: View {
    var viewData: ItemDetailViewData { get set }
}

/// The headless detail screen.
public final class HeadlessItemDetailView: ItemDetailView {
    /// Swapped in when set, so that the old data goes after the change: then no access to it
    /// overlaps another, and its exclusive access is checked when compiling, not at run time.
    public var viewData: ItemDetailViewData {
        get { data }
        set {
            var replaced = newValue
            swap(&replaced, &data)
            cache.reset()
        }
    }
    private var data = ItemDetailViewData(title: "", detail: "")
    /// The screen for the current view data, made on first request (drivers read it every step).
    private var cache = ScreenCache()

    /// Makes an empty detail view.
    public init() {}

    public var screen: ScreenContent {
        if let screen = cache.kept { return screen }
        let screen = ScreenContent(name: "item", context: viewData.title, title: viewData.title,
                      body: viewData.detail.isEmpty ? [] : [viewData.detail])
        cache.keep(screen)
        return screen
    }

    public var screenID: ScreenID { ScreenID(name: "item", context: viewData.title) }

    public func receive(_ input: UserInput) throws {
        throw UserInputError(screen: "item", input: input)
    }
}
