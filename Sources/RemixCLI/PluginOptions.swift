import ArgumentParser
import RemixHost

/// `--plugins`: the run-time feature plugins a command loads besides the built-in modules.
struct PluginOptions: ParsableArguments {
    @Option(
        name: .customLong("plugins"),
        help: ArgumentHelp(
            "A feature plugin (.\(PluginLoader.libraryExtension)) or a folder of plugins to load (repeatable); "
                + "\(PluginLoader.environmentVariable) adds more, separated by colons.",
            valueName: "path"))
    var paths: [String] = []
}
