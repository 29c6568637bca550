import Classifieds
import GroupBrowser
import RemixBuiltIns
import RemixHost
import RemixKit
import Testing

/// A running GroupBrowser session and the user's actions on it.
final class GroupBrowserDriver {
    let events = EventRecorder()
    let session: AppSession

    /// Starts GroupBrowser; `finder` fills the `navigation` slot (nil: its default, the tree).
    init(platform: String? = nil, finder: String? = nil) throws {
        let chooser = finder.map { FixedSlotChooser(fillers: [GroupBrowserModule.navigationSlot: $0]) }
        session = try AppSession(app: "groupbrowser", platform: platform, registry: BuiltInModules.registry(),
                                 events: events, chooser: chooser)
        session.start()
    }

    var window: Window { session.window }
    var state: String { window.state.description }

    /// The front panel (a navigation stack shows one).
    var front: Panel {
        get throws { try #require(window.panels.last) }
    }

    /// Titles of the rows on the front screen.
    var rows: [String] {
        get throws { try front.content.items.map(\.title) }
    }

    /// Taps the row with that title.
    func tap(_ title: String) throws {
        let panel = try front
        let item = try #require(panel.content.items.first { $0.title == title }, "no row '\(title)' in \(state)")
        try window.send(.select(itemID: item.id), to: panel)
    }

    /// Types `query` into the front screen's search field.
    func search(_ query: String) throws {
        try window.send(.edit(fieldID: "query", text: query), to: front)
    }

    /// Presses "Reset" on the front group list.
    func reset() throws {
        try window.send(.press(buttonID: "reset"), to: front)
    }
}
