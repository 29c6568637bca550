import ArgumentParser
import RemixFiles
import RemixHost
import RemixStore

/// Refuses to run a command, before it writes anything, when one of its `outputs` is one of its
/// `inputs` or another of its outputs (`OutputCheck`): the message, exit 1. Every command that
/// writes files calls this with what it reads and what it writes; store URLs and standard
/// input/output (`-`) name no file and are left out.
func refuseOutputsOverInputs(inputs: [OutputCheck.Input], outputs: [OutputCheck.Output]) throws {
    let files = outputs.filter { !StoreURL.isStoreURL($0.path) && $0.path != "-" }
    let read = inputs.filter { !StoreURL.isStoreURL($0.path) && $0.path != "-" }
    if let problem = OutputCheck(inputs: read, outputs: files).problem() {
        printError(problem)
        throw ExitCode(1)
    }
}

/// The plugin files a command loads (`REMIX_PLUGIN_PATH` and `--plugins`), as inputs: no output
/// may replace one.
func pluginInputs(_ options: [String]) -> [OutputCheck.Input] {
    let files = (try? PluginLoader.pluginFiles(in: PluginLoader.requestedPaths(options: options))) ?? []
    return files.map { OutputCheck.Input("the plugin", $0) }
}
