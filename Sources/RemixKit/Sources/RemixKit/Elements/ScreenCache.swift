/// A view's screen made once for its current view data. Drivers and simulated users read a view's
/// `screen` at every step, and building the `ScreenContent` of a list of many rows each time would
/// be most of a step's work; a view keeps its screen here and resets it when its data changes.
///
/// ```swift
/// public var viewData = MyViewData() { didSet { cache.reset() } }
/// private var cache = ScreenCache()
/// public var screen: ScreenContent { cache.screen { ScreenContent(name: "mine", title: viewData.title) } }
/// ```
public struct ScreenCache {
    @usableFromInline var content: ScreenContent?

    /// An empty cache: the first request makes the screen.
    public init() {}

    /// The screen made by `make` on the first request since the last ``reset()``.
    @inlinable
    public mutating func screen(_ make: () -> ScreenContent) -> ScreenContent {
        if let content { return content }
        let made = make()
        content = made
        return made
    }

    /// Forgets the screen, so that the next request makes it again from the view's data.
    @inlinable
    public mutating func reset() {
        content = nil
    }
}
