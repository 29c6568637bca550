import ArgumentParser
import Foundation
import RemixFit
import RemixHost

/// `remix fit`: learns a population file from event logs (docs/simulation.md#fitting-a-population).
struct FitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fit",
        abstract: "Learn a population file (who the users are and how they behave) from event logs.",
        discussion: """
            Reads the logs twice (they must be regular files): first for the intents users come with \
            and the screens they step on, then for each user's counts and times. Personas are fitted \
            as a mixture of classes (--personas K, or auto: the count with the lowest BIC). The file \
            written runs as it is with 'remix simulate --population'; beside each value it says what \
            the value comes from, and at the top what the log cannot show.
            """)

    @Argument(help: "Event logs (JSON Lines files).")
    var logs: [String]

    @Option(help: "The app the logs are of (see 'remix features').")
    var app: String = "marketplace"

    @Option(help: "Where to write the population file.")
    var output: String = "fitted.population.yaml"

    @Option(help: "How many personas: a number, or auto (the lowest BIC).")
    var personas: String = "auto"

    @Option(parsing: .unconditional, help: "The seed of the mixture's random starts and of the resamples.")
    var seed: UInt64 = 1

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Also fit this many bootstrap resamples of the users, written to OUTPUT's .replicates folder, for 'remix predict'.",
        valueName: "R"))
    var replicates: Int = 0

    func validate() throws {
        guard (0...1000).contains(replicates) else { throw ValidationError("--replicates must be 0 to 1000 (got \(replicates))") }
    }

    @OptionGroup var plugins: PluginOptions

    func run() throws {
        let count: PopulationFit.PersonaCount
        if personas == "auto" {
            count = .automatic
        } else if let number = Int(personas), (1...20).contains(number) {
            count = .fixed(number)
        } else {
            throw ValidationError("--personas is a number from 1 to 20 or auto (got '\(personas)')")
        }
        try refuseOutputsOverInputs(inputs: logs.map { .init("the log", $0) } + pluginInputs(plugins.paths),
                                    outputs: [.init("the population file", output)])
        let registry = try loadRegistry(plugins: plugins.paths)
        let fitted = try PopulationFit.fit(paths: logs, registry: registry,
                                           options: .init(app: app, personas: count, seed: seed, replicates: replicates))
        let population = fitted.population
        try FittedPopulationWriter.text(population).write(toFile: output, atomically: true, encoding: .utf8)
        if replicates > 0 {
            let folder = FittedPopulationWriter.replicatesFolder(of: output)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (index, replicate) in fitted.replicates.enumerated() {
                try FittedPopulationWriter.text(replicate).write(
                    toFile: (folder as NSString).appendingPathComponent("\(index + 1).population.yaml"), atomically: true, encoding: .utf8)
            }
        }
        for note in population.unknowns { printError("note: \(note)") }
        print("fitted \(population.personas.count) personas from \(population.users) users, \(population.sessions) sessions "
              + "(\(population.bytesPerUser) bytes a user); wrote \(output)")
    }
}
