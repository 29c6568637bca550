/// How the window reads its layers' screens: for ``Window/describeState(_:)``, ``Window/state``
/// and the screen each transition reports.
extension Window {
    /// ``NavigationLayer/describe(_:)`` of `layer(of: viewable)`, after the layer separator
    /// unless `first` (``StateText``).
    static func describeLayer(of viewable: any Viewable, first: inout Bool, _ piece: (String) -> Void) {
        switch viewable {
        case let split as SplitContainer:
            if !first { piece(StateText.layerSeparator) }
            describeScreens(of: split.master, piece)
            piece(StateText.paneSeparator)
            describeScreens(of: split.detail, piece)
        case is NavigationStack, is ViewContainer:
            if !first { piece(StateText.layerSeparator) }
            describeScreens(of: viewable, piece)
        default:
            return
        }
        first = false
    }

    /// The screens of `viewable` (``forEachScreenID(of:_:)``), joined.
    static func describeScreens(of viewable: (any Viewable)?, _ piece: (String) -> Void) {
        guard let viewable else { return }
        var joined = StateText.Screens()
        forEachScreenID(of: viewable) { joined.write($0, piece) }
    }

    /// Calls `body` with each screen of `viewable` in display order: a stack's bottom first, a
    /// split's master then detail. ``layer(of:)`` and ``describeState(_:)`` read layers through it.
    static func forEachScreenID(of viewable: any Viewable, _ body: (ScreenID) -> Void) {
        switch viewable {
        case let stack as NavigationStack:
            stack.forEachScreenID(body)
        case let split as SplitContainer:
            if let master = split.master { forEachScreenID(of: master, body) }
            if let detail = split.detail { forEachScreenID(of: detail, body) }
        case let single as ViewContainer:
            body(single.view.screenID)
        default:
            return
        }
    }

    /// The screens of `viewable` (``forEachScreenID(of:_:)``), gathered.
    static func screens(of viewable: any Viewable) -> [ScreenID] {
        var screens: [ScreenID] = []
        forEachScreenID(of: viewable) { screens.append($0) }
        return screens
    }

    /// `layer(of: viewable)?.screens.last`, without gathering the screens.
    static func lastScreen(of viewable: any Viewable) -> ScreenID? {
        switch viewable {
        case let stack as NavigationStack:
            return stack.topView?.screenID
        case let split as SplitContainer:
            return split.detail.flatMap(lastScreen) ?? split.master.flatMap(lastScreen)
        case let single as ViewContainer:
            return single.view.screenID
        default:
            return nil
        }
    }

    static func layer(of viewable: any Viewable) -> NavigationLayer? {
        switch viewable {
        case is NavigationStack:
            return .stack(screens(of: viewable))
        case let split as SplitContainer:
            return .split(master: split.master.map(screens) ?? [], detail: split.detail.map(screens) ?? [])
        case let single as ViewContainer:
            return .single(single.view.screenID)
        default:
            return nil
        }
    }
}
