/// A view's screen made once for its current view data. Drivers and simulated users read a view's
/// `screen` at every step, and building the `ScreenContent` of a list of many rows each time would
/// be most of a step's work; a view keeps its screen here and resets it when its data changes.
///
/// ```swift
/// public var viewData = MyViewData() { didSet { cache.reset() } }
/// private var cache = ScreenCache()
/// public var screen: ScreenContent {
///     if let screen = cache.kept { return screen }
///     let screen = ScreenContent(name: "mine", title: viewData.title)
///     cache.keep(screen)
///     return screen
/// }
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
        // Swapped in, as ``reset()`` swaps out: the screen dropped goes after the cache changed,
        // so no access to the view's cache overlaps another and the compiler checks it statically.
        var kept: ScreenContent? = made
        swap(&kept, &content)
        return made
    }

    /// The screen kept since the last ``reset()``, if any. With ``keep(_:)``, for a view that
    /// makes its screen outside the cache (`if let screen = cache.kept { return screen }`, then
    /// make it and `keep` it): the cache then changes with no other code running, which lets the
    /// compiler check its exclusive access when compiling instead of at every read.
    @inlinable
    public var kept: ScreenContent? { content }

    /// Keeps `screen` until the next ``reset()``.
    @inlinable
    public mutating func keep(_ screen: ScreenContent) {
        var kept: ScreenContent? = screen
        swap(&kept, &content)
    }

    /// Forgets the screen, so that the next request makes it again from the view's data.
    @inlinable
    public mutating func reset() {
        var dropped: ScreenContent?
        swap(&dropped, &content)
    }
}
