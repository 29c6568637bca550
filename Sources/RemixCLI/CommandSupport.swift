import ArgumentParser
import Foundation
import RemixHost
import RemixKit
import RemixTerminal

/// Prints `message` to standard error as `remix: message`.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("remix: \(message)\n".utf8))
}

/// Loads the built-in modules; a broken module (e.g. its catalog file) is reported and exits 1.
func loadRegistry() throws -> FeatureRegistry {
    do {
        let registry = try BuiltInModules.registry()
        for problem in registry.problems() { printError("warning: \(problem)") }
        return registry
    } catch {
        printError(String(describing: error))
        throw ExitCode(1)
    }
}

/// Runs an app in the terminal on standard input and output.
func runInTerminal(
    app: String, platform: String?, registry: FeatureRegistry, seed: UInt64, chooser: (any SlotChooser)?
) throws -> TerminalOutcome {
    let write: (String) -> Void = { text in
        FileHandle.standardOutput.write(Data(text.utf8))
    }
    let session: AppSession
    do {
        session = try AppSession(app: app, platform: platform, registry: registry, seed: seed,
                                 events: TerminalEventEcho(write: write), chooser: chooser)
    } catch {
        printError(String(describing: error))
        throw ExitCode(1)
    }
    let outcome = TerminalDriver(session: session, readLine: { Swift.readLine() }, write: write).run()
    if !outcome.errors.isEmpty {
        printError("\(outcome.errors.count) input line(s) could not be acted on; the first: \(outcome.errors[0])")
    }
    return outcome
}
