import RemixKit

/// A step of a route that names no screen of the app — the reason a route did not open when it is
/// a name rather than the way there, so that a mistyped `advert` is said to be unknown, with the
/// nearest name, instead of "showed adverts > groups > title instead".
package struct UnknownScreenError: Error, Equatable, CustomStringConvertible {
    /// The step (1-based) and the screen name it gives.
    package let step: Int
    package let screen: String
    /// The app the route is opened in.
    package let app: String
    /// The app's first screen, where every route starts.
    package let firstScreen: String
    /// The screen names the app shows within ``depth`` taps of its first screen.
    package let known: [String]
    package let depth: Int
    /// The command that lists the app's routes, e.g. `remix routes --app marketplace`.
    package let routesCommand: String

    package var description: String {
        let routes = " (`\(routesCommand)` lists the routes that open)"
        guard step > 1 else {
            guard known.contains(screen) else {
                return "step 1 of the route, '\(screen)', is no screen of \(app); did you mean '\(firstScreen)', its first screen, "
                    + "where every route starts?" + routes
            }
            return "step 1 of the route, '\(screen)', is not \(app)'s first screen, '\(firstScreen)', where every route starts" + routes
        }
        return "step \(step) of the route, '\(screen)', is no screen of \(app) (none it shows within \(depth) taps has that name)"
            + NameSuggestion.hint(for: screen, among: known, noun: "screen") + routes
    }

    /// The first step of `route` that names no screen the app shows within `depth` taps (at most
    /// `limit` states) of its first, or whose first step is not the first screen; nil when every
    /// step names one (`*` names any). `makeSession` makes a fresh, unstarted session that logs
    /// nowhere; `routesCommand` is said as the way to list the routes.
    package static func find(in route: Route, app: String, routesCommand: String, depth: Int = 4, limit: Int = 100,
                            session makeSession: () throws -> AppSession) -> UnknownScreenError? {
        guard let states = try? RouteExplorer.states(depth: depth, limit: limit, session: makeSession),
              let first = states.first?.screens.first?.name else { return nil }
        let known = Set(states.flatMap { $0.screens.map(\.name) }).sorted()
        for (index, step) in route.screens.enumerated() where step.name != Route.anyScreen {
            if index == 0 ? step.name != first : !known.contains(step.name) {
                return UnknownScreenError(step: index + 1, screen: step.name, app: app, firstScreen: first, known: known,
                                          depth: depth, routesCommand: routesCommand)
            }
        }
        return nil
    }
}
