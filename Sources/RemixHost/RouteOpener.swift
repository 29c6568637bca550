import RemixKit

/// Opens a ``Route`` in a started session the way a user would reach it: from the app's first
/// screen, each next screen of the route is opened by the input its predecessor's view gives for it
/// (``RouteOpening``, else the screen's semantics, see ``RouteStepFinder``), sent through the window
/// like a tap — so the coordinators run, and every event (exposures included) is logged as if the
/// user had tapped there. No screen of any app is known here.
package enum RouteOpener {
    /// The most inputs one route may take (a guard against a screen that leads back to itself).
    static let stepLimit = 200

    /// Opens `route` in `session` (started, showing its first screen) until the window shows the
    /// route's screens in order, in the platform's own layout; throws the first step that could not
    /// be opened, or where the app went elsewhere.
    ///
    /// Screens open in the route's order. A split whose master screen has a context and whose
    /// detail shows a screen may have been reached the other way round — an advert opened, then the
    /// list filtered to a group without it — and a context once applied cannot be taken back. Given
    /// `rehearsal` (a fresh, unstarted session of the same app, platform and features, logging
    /// nowhere), such a route is first tried in order there and, if that fails, with the detail
    /// opened before its master's context (``detailFirst(_:)``); `session` then takes the order
    /// that worked.
    package static func open(_ route: Route, in session: AppSession,
                            rehearsal: (() throws -> AppSession)? = nil) throws(RouteError) {
        if let rehearsal, let detailFirst = Self.detailFirst(route),
           !Self.opens([route], in: rehearsal), Self.opens([detailFirst, route], in: rehearsal) {
            try openInOrder(detailFirst, in: session)
        }
        try openInOrder(route, in: session)
    }

    /// The state before a split's master context was applied: `route` up to the first layer that
    /// is a split whose master screen has a context and whose detail shows a screen, with that
    /// context left off (the layers above it open afterwards); nil when there is no such split.
    package static func detailFirst(_ route: Route) -> Route? {
        guard let index = route.layers.firstIndex(where: { $0.count == 2 && !$0[1].isEmpty && $0[0].last?.context != nil })
        else { return nil }
        var staged = route
        staged.layers = Array(route.layers[...index])
        let master = route.layers[index][0]
        staged.layers[index][0][master.count - 1] = ScreenID(name: master[master.count - 1].name)
        return staged
    }

    /// Whether `routes`, opened one after another in a fresh session from `rehearsal`, all open.
    private static func opens(_ routes: [Route], in rehearsal: () throws -> AppSession) -> Bool {
        guard let session = try? rehearsal() else { return false }
        session.start()
        do {
            for route in routes { try openInOrder(route, in: session) }
            return true
        } catch {
            return false
        }
    }

    /// Opens `route`'s screens in order from whatever `session` shows.
    private static func openInOrder(_ route: Route, in session: AppSession) throws(RouteError) {
        let target = route.screens
        var inputs = 0, retries = 0, attempts: [Int: Int] = [:]
        while true {
            // Reached before time passes: a route may end on a screen that goes by itself (a toast).
            if Self.shows(target, session) { return }
            session.waitWhileBlocked()
            let shown = Route(session.window.state)
            let current = shown.screens
            if Self.shows(target, session) { return }
            // The screens shown beyond the route's common part are a detour (a picker on the way,
            // say): the front view is asked for the route's next screen all the same.
            let matched = zip(current, target).prefix(while: Route.matches).count
            guard matched < target.count else {
                throw .wentElsewhere(step: target.count, screen: target[target.count - 1].description, shown: shown.description)
            }
            let next = target[matched], step = matched + 1
            let from = current.last?.description ?? "the app's start"
            // A detour (screens shown beyond the route's common part: a picker on the way, say) goes
            // on only where the front view itself declares the way (``RouteOpening``).
            let detour = matched < current.count
            let panel = session.window.frontPanel
            let candidates = panel.map { RouteStepFinder.inputs(on: $0.view, toOpen: next, declaredOnly: detour) } ?? []
            guard inputs < stepLimit, let panel, !candidates.isEmpty else {
                // A detour that leads nowhere is left as a user leaves it (back, then the layer's
                // Cancel) and the step asked for again, its view's next way first: a slot that
                // hands out its flows in turn shows another one the next time.
                if detour, inputs < stepLimit, retries < retryLimit, Self.backOut(of: session, to: matched) {
                    retries += 1
                    attempts[matched, default: 0] += 1
                    inputs += 1
                    continue
                }
                if detour || inputs >= stepLimit {
                    throw .wentElsewhere(step: step, screen: next.description, shown: shown.description)
                }
                throw .cannotOpen(step: step, screen: next.description, from: from,
                                  reason: "the screen offers no way there (no row for '\(next.context ?? next.name)', "
                                      + "no button '\(next.name)' and not one primary button)")
            }
            // After backing out of a detour, the step's next way (if its view offers several).
            let input = candidates[attempts[matched, default: 0] % candidates.count]
            do {
                try session.window.send(input, to: panel)
            } catch {
                throw .cannotOpen(step: step, screen: next.description, from: from, reason: "\(error)")
            }
            inputs += 1
            if Self.shows(target, session) { return }
            session.waitWhileBlocked()
            // Typing into a field shows no other screen; anything else must.
            if case .edit = input { continue }
            if Route(session.window.state).screens == current {
                throw .cannotOpen(step: step, screen: next.description, from: from, reason: "its input (\(input)) changed nothing")
            }
        }
    }

    /// How often one route may back out of a detour and ask again.
    static let retryLimit = 2

    /// Goes back, or presses the front layer's cancel button, until the window shows at most
    /// `count` screens; false when neither is offered on the way.
    private static func backOut(of session: AppSession, to count: Int) -> Bool {
        for _ in 0..<stepLimit {
            session.waitWhileBlocked()
            let window = session.window
            if Route(window.state).screens.count <= count { return true }
            if window.canGoBack {
                guard (try? window.goBack()) != nil else { return false }
            } else if let panel = window.frontPanel, let cancel = panel.content.buttons.first(where: { $0.role == .cancel }) {
                guard (try? window.send(.press(buttonID: cancel.id), to: panel)) != nil else { return false }
            } else {
                return false
            }
        }
        return false
    }

    /// Whether the window shows the route's screens in order. The screens decide; how they are laid
    /// out (a split, a modal layer) is the platform's, so a route written on a phone opens the same
    /// screens on a tablet.
    private static func shows(_ target: [ScreenID], _ session: AppSession) -> Bool {
        let current = Route(session.window.state).screens
        return current.count == target.count && zip(current, target).allSatisfy(Route.matches)
    }
}
