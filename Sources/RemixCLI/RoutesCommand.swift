import ArgumentParser
import RemixApp
import RemixBuiltIns

/// `remix routes`: the navigation states an app can be opened at (`remix run --open`, population
/// arrivals), found by tapping from its first screen and each opened again directly.
struct RoutesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "routes",
        abstract: "List the navigation states an app can be opened at, with their routes.",
        discussion: """
            Taps every row and button from the app's first screen (empty text fields get an example \
            text first), breadth first up to --depth taps, and lists each navigation state reached \
            with its URL form; each is then opened again directly, as 'remix run --open' and population \
            arrivals do — a state that cannot be says why. A route names screens; the platform lays \
            them out (a split, a modal layer), and '*' stands for whichever screen the step before \
            leads to (e.g. 'adverts > *': the insertion slot's first screen, whichever feature fills it).
            """)

    @Option(help: "The app (see 'remix features').")
    var app: String = BuiltInModules.defaultApp

    @Option(help: "The platform: phone or tablet (default: the app's first platform).")
    var platform: String?

    @Option(name: .customLong("slot"), help: "Fill a slot with a feature, e.g. insertion=AutoGroupInsertion (repeatable).")
    var slots: [String] = []

    @Option(parsing: .unconditional, help: "How many taps deep to look.")
    var depth: Int = 4

    @Option(parsing: .unconditional, help: "At most this many states.")
    var limit: Int = 100

    @OptionGroup var plugins: PluginOptions

    /// The use case these options ask for.
    var routes: ListRoutes {
        var routes = ListRoutes()
        (routes.app, routes.platform, routes.slots, routes.depth, routes.limit, routes.plugins) = (app, platform, slots, depth, limit, plugins.paths)
        return routes
    }

    func validate() throws { try refuse(routes.optionProblem()) }

    func run() async throws {
        let listings = try await perform(routes.run)
        let width = min(listings.map(\.route.description.count).max() ?? 0, 70)
        var text = "routes of \(app)\(platform.map { " on \($0)" } ?? ""): \(listings.count) navigation states within \(depth) taps\n"
        for listing in listings {
            let route = listing.route.description
            let padded = route.count < width ? route + String(repeating: " ", count: width - route.count) : route
            text += "  \(padded)  " + (listing.problem.map { "cannot be opened: \($0)" } ?? listing.route.url(app: app)) + "\n"
        }
        writeOut(text)
        let unopened = listings.filter { $0.problem != nil }.count
        if unopened > 0 { printError("\(unopened) state(s) reached by taps cannot be opened directly") }
    }
}
