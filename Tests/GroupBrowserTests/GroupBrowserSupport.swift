import Classifieds
import RemixHost
import RemixKit
import Testing

/// A running GroupBrowser session and the user's actions on it.
final class GroupBrowserDriver {
    let events = EventRecorder()
    let session: AppSession

    init(platform: String? = nil) throws {
        session = try AppSession(app: "groupbrowser", platform: platform, registry: BuiltInModules.registry(),
                                 events: events)
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

    /// Presses "Reset" on the front group list.
    func reset() throws {
        try window.send(.press(buttonID: "reset"), to: front)
    }
}
