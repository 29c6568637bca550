import RemixKit

/// The routes of an app: the navigation states a user reaches from its first screen within a few
/// taps (each row, each button, fields filled with an example text first), found breadth first by
/// replaying taps in fresh sessions, and each opened again directly with ``RouteOpener`` — so the
/// list shows what the features' declarations can open, with an example of each state.
package enum RouteExplorer {
    /// One state reached by taps: its route, and why it cannot be opened directly (nil when it can).
    package struct Listing: Sendable {
        package var route: Route
        package var problem: RouteError?
    }

    /// The text typed into empty fields on the way.
    static let exampleText = "Example 1"

    /// Explores `app` on `platform` to `depth` taps and at most `limit` states. `session` makes a
    /// fresh, unstarted session (the same features each time).
    package static func explore(depth: Int, limit: Int, session makeSession: @escaping () throws -> AppSession) throws -> [Listing] {
        try states(depth: depth, limit: limit, session: makeSession).map { route in
            let session = try makeSession()
            session.start()
            return Listing(route: route, problem: Self.problem(opening: route, in: session, rehearsal: makeSession))
        }
    }

    /// The states reached by taps from the first screen, breadth first (the first screen's own
    /// state first), to `depth` taps and at most `limit` states.
    package static func states(depth: Int, limit: Int, session makeSession: () throws -> AppSession) throws -> [Route] {
        var seen: Set<String> = [], states: [Route] = []
        var frontier: [[UserInput]] = [[]]
        for _ in 0...depth where !frontier.isEmpty && states.count < limit {
            var next: [[UserInput]] = []
            for path in frontier where states.count < limit {
                let session = try makeSession()
                session.start()
                guard replay(path, in: session) else { continue }
                let route = Route(session.window.state)
                guard seen.insert(route.description).inserted else { continue }
                states.append(route)
                guard let panel = session.window.frontPanel else { continue }
                let fill = panel.content.fields.filter(\.value.isEmpty).map { UserInput.edit(fieldID: $0.id, text: exampleText) }
                for item in panel.content.items { next.append(path + [.select(itemID: item.id)]) }
                for button in panel.content.buttons { next.append(path + fill + [.press(buttonID: button.id)]) }
            }
            frontier = next
        }
        return states
    }

    /// Why `route` cannot be opened in `session`; nil when it opens.
    private static func problem(opening route: Route, in session: AppSession,
                                rehearsal: @escaping () throws -> AppSession) -> RouteError? {
        do {
            try RouteOpener.open(route, in: session, rehearsal: rehearsal)
            return nil
        } catch {
            return error
        }
    }

    /// Sends `inputs` to the front panel one by one; false when one cannot be taken.
    private static func replay(_ inputs: [UserInput], in session: AppSession) -> Bool {
        for input in inputs {
            session.waitWhileBlocked()
            guard let panel = session.window.frontPanel, (try? session.window.send(input, to: panel)) != nil else { return false }
        }
        session.waitWhileBlocked()
        return true
    }
}
