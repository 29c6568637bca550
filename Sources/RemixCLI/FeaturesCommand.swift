import ArgumentParser
import RemixHost
import RemixKit

/// `remix features`: the loaded modules, their features and their apps with slots and defaults.
struct FeaturesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "List the loaded feature modules, their features, and the apps with their slots.")

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let registry = try loadRegistry(plugins: plugins.paths)
        print(FeatureListing(registry: registry).text, terminator: "")
    }
}
