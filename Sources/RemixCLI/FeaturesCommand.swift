import ArgumentParser
import RemixApp

/// `remix features`: the loaded modules, their features and their apps with slots and defaults.
struct FeaturesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "features",
        abstract: "List the loaded feature modules, their features, and the apps with their slots.")

    @OptionGroup var plugins: PluginOptions

    func run() async throws {
        var listing = ListFeatures()
        listing.plugins = plugins.paths
        writeOut(try await perform(listing.run))
    }
}
