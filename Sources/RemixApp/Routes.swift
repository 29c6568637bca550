import RemixBuiltIns
import RemixHost
import RemixKit

/// `remix routes`: the navigation states an app can be opened at, found by tapping from its first
/// screen, each opened again directly.
package struct ListRoutes {
    /// The app, its platform (nil: its first) and `SLOT=FEATURE` choices.
    package var app = BuiltInModules.defaultApp, platform: String?, slots: [String] = []
    /// How many taps deep to look, and at most how many states.
    package var depth = 4, limit = 100
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []

    /// The routes of the default app.
    package init() {}

    /// Why the options cannot be explored with, or nil.
    package func optionProblem() -> String? {
        guard (0...12).contains(depth) else { return "--depth must be 0 to 12 (got \(depth))" }
        guard limit >= 1 else { return "--limit must be at least 1 (got \(limit))" }
        return nil
    }

    /// The states reached, each with its route and why it cannot be opened directly, if it cannot.
    package func run(_ context: AppContext) async throws -> [RouteExplorer.Listing] {
        if let problem = optionProblem() { throw AppError(problem) }
        let registry = try Modules.load(plugins: plugins, context)
        let chooser = try FixedSlotChooser(specs: slots, app: app, registry: registry)
        _ = try AppSession(app: app, platform: platform, registry: registry, chooser: chooser)
        return try RouteExplorer.explore(depth: depth, limit: limit) { [app, platform] in
            try AppSession(app: app, platform: platform, registry: registry, chooser: chooser)
        }
    }
}

/// `remix features`: the loaded modules, their features and their apps with slots and defaults.
package struct ListFeatures {
    /// Plugins to load besides the built-in modules.
    package var plugins: [String] = []

    /// The listing of the built-in modules (and `REMIX_PLUGIN_PATH`'s).
    package init() {}

    /// The listing's text.
    package func run(_ context: AppContext) async throws -> String {
        FeatureListing(registry: try Modules.load(plugins: plugins, context)).text
    }
}
