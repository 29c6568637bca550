import Foundation
import RemixFormats
import RemixKit
import RemixSimulation
import RemixYAML

/// Writes a ``FittedPopulation`` as a population file (docs/simulation.md) that `remix simulate`
/// runs as it is, saying beside each fitted value how many sessions or steps it comes from and its
/// standard error, and at the top what the log could not show.
package enum FittedPopulationWriter {
    /// Where the replicates of the population at `path` are written: `fitted.population.yaml` →
    /// `fitted.population.replicates/`.
    package static func replicatesFolder(of path: String) -> String {
        let trimmed = path.hasSuffix(".yaml") ? String(path.dropLast(5)) : path
        return trimmed + ".replicates"
    }

    /// Whether `name`, a file of a replicates' folder, is one `remix fit` writes there (`K.population.yaml`).
    @Sendable package static func isReplicateName(_ name: String) -> Bool {
        guard name.hasSuffix(".population.yaml") else { return false }
        let number = name.dropLast(".population.yaml".count)
        return !number.isEmpty && number.allSatisfy(\.isASCII) && number.allSatisfy(\.isNumber)
    }

    /// What names a fit's text in its replicates' headers: the FNV-1a 64 hash of its bytes.
    package static func fitHash(_ text: String) -> String {
        "fnv1a64:" + FNV1a<UInt64>.hex(text.utf8)
    }

    /// The file's text; a replicate of the fit whose text hashes to `fit` (``fitHash(_:)``) says
    /// so in its header.
    package static func text(_ population: FittedPopulation, replicating fit: String? = nil) -> String {
        var lines: [String] = []
        lines.append("# Fitted by `remix fit` from \(population.sources.joined(separator: ", ")): "
                     + "\(grouped(population.users)) users, \(grouped(population.sessions)) sessions.")
        lines.append("# Personas: \(population.personaChoice).")
        if let fit { lines.append("# \(replicateMark) \(fit).") }
        lines.append("# Beside each value: what it comes from, and ± its standard error.")
        if !population.unknowns.isEmpty {
            lines.append("# What the log cannot show:")
            lines += population.unknowns.map { "#   - \($0)" }
        }
        lines.append("app: \(YAMLText.quoted(population.app))")
        lines.append("start: \(timestamp(population.startMilliseconds))")
        lines.append("sessionGapSeconds: \(number(population.sessionGapSeconds))")
        lines.append("")
        lines += attributes(population)
        lines.append("")
        if !population.services.isEmpty {
            lines.append("services:")
            for service in population.services {
                lines.append("  \(YAMLText.quoted(service.name)): \(service.text)   # \(service.note)")
            }
            lines.append("")
        }
        lines += intents(population)
        lines.append("")
        lines.append("personas:")
        for persona in population.personas { lines += self.persona(persona, population) }
        return lines.joined(separator: "\n") + "\n"
    }

    private static let replicateMark = "Refitted on a bootstrap resample of the users of the fit"

    /// Why the replicate `text` is not a replicate of the fit whose text is `fitText`; nil when it
    /// is: its first line must be the fit's, and its header must name the fit's text by its hash.
    package static func replicateProblem(_ text: String, fitText: String) -> String? {
        let lines = text.split(separator: "\n", maxSplits: 3, omittingEmptySubsequences: false)
        guard lines.first.map(String.init) == String(fitText.prefix { $0 != "\n" }) else {
            return "it was fitted from other logs (its first line: \(lines.first.map { String($0.prefix(200)) } ?? ""))"
        }
        guard lines.count > 2, lines[2] == "# \(replicateMark) \(fitHash(fitText))." else {
            return "it is a replicate of another fit, or the fit was changed since"
        }
        return nil
    }

    /// Why the replicate `text` is not replicate `number` of `count`; nil when it is.
    package static func replicateNumberProblem(_ text: String, number: Int, of count: Int) -> String? {
        let lines = text.split(separator: "\n", maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count > 1, lines[1].hasSuffix("(replicate \(number) of \(count)).") else {
            return "the folder holds \(count) replicates, and this is not replicate \(number) of \(count) "
                + "(its header: \(lines.count > 1 ? String(lines[1].prefix(200)) : "none"))"
        }
        return nil
    }

    private static func attributes(_ population: FittedPopulation) -> [String] {
        guard !population.attributes.isEmpty else { return [] }
        var lines = ["attributes:                     # by users' first sessions"]
        for (name, values) in population.attributes {
            let total = values.reduce(0) { $0 + $1.users }
            let pairs = values.map { "\(YAMLText.quoted($0.value)): \(number(Double($0.users) / Double(max(total, 1))))" }
            lines.append("  \(YAMLText.quoted(name)): {\(pairs.joined(separator: ", "))}   # \(grouped(total)) users")
        }
        return lines
    }

    private static func intents(_ population: FittedPopulation) -> [String] {
        var lines = ["intents:"]
        for intent in population.intents {
            let rate = intent.attempts > 0 ? Double(intent.successes) / Double(intent.attempts) : 0
            lines.append("  \(YAMLText.quoted(intent.name)):"
                         + "   # \(grouped(intent.attempts)) attempts" + (intent.success == nil ? "" : ", \(percent(rate)) succeeded"))
            if let start = intent.start { lines.append("    start: \(startText(start))") }
            if let success = intent.success { lines.append("    success: \(YAMLText.quoted(success))") }
            guard !intent.values.isEmpty else { continue }
            lines.append("    values:                     # weighed by how often users meant each (successes ÷ the chance of the steps taken)")
            for value in intent.values {
                var parts = value.texts.keys.sorted().map { purpose -> String in
                    let texts = value.texts[purpose] ?? []
                    let text = texts.count == 1 ? YAMLText.quoted(texts[0]) : "[" + texts.map(YAMLText.quoted).joined(separator: ", ") + "]"
                    return "\(YAMLText.quoted(purpose)): \(text)"
                }
                if !value.path.isEmpty { parts.append("path: [" + value.path.map(YAMLText.quoted).joined(separator: ", ") + "]") }
                parts.append("weight: \(number(value.weight))")
                lines.append("      - {\(parts.joined(separator: ", "))}   # \(number(value.successes)) successes")
            }
        }
        return lines
    }

    private static func persona(_ persona: FittedPopulation.Persona, _ population: FittedPopulation) -> [String] {
        var lines = ["  - name: \(YAMLText.quoted(persona.name))   # \(grouped(Int(persona.users.rounded()))) users"]
        lines.append("    weight: \(number(persona.weight))")
        lines.append("    intents: {" + persona.intents.map { "\(YAMLText.quoted($0.name)): \(number($0.chance))" }.joined(separator: ", ")
                     + "}   # ± " + persona.intents.map { number($0.standardError) }.joined(separator: ", "))
        let unstepped = population.shownScreens.filter { screen in !persona.abandon.contains { $0.screen == screen } }
        lines.append("    abandon: {" + (persona.abandon.map { "\(YAMLText.quoted($0.screen)): \(number($0.chance))" }
                                          + unstepped.map { "\(YAMLText.quoted($0)): 0" }).joined(separator: ", ")
                     + ", default: \(number(persona.defaultAbandon))}   # per step (0: no steps seen; default: screens the log never showed); " + persona.abandon.map {
                         "\($0.screen) ± \(number($0.standardError)) (\(grouped(Int($0.steps.rounded()))) steps)"
                     }.joined(separator: ", "))
        lines.append("    thinkSeconds: \(time(persona.think))")
        if let typing = persona.typing { lines.append("    typingSecondsPerCharacter: \(range(typing))") }
        lines.append("    typos: \(number(persona.typos))")
        lines.append("    retryAfterError: \(number(persona.retryAfterError))")
        lines.append("    visits: \(visits(persona.visits))")
        if persona.visits.dropFirst().contains(where: { $0 >= 0.001 }) {
            lines.append("    daysBetweenVisits: \(range(persona.daysBetweenVisits))")
        }
        return lines
    }

    private static func startText(_ start: Population.StartAction) -> String {
        switch start {
        case .press(let target): "{press: \(YAMLText.quoted(target.description))}"
        case .select(let kind): "{select: \(kind?.rawValue ?? "any")}"
        }
    }

    /// Sessions per user: `1` when (nearly) every user came once, else each count's chance.
    private static func visits(_ chances: [Double]) -> String {
        let kept = chances.enumerated().filter { $0.element >= 0.001 }
        guard kept.count > 1 || kept.first?.offset != 0 else { return "1" }
        return "{" + kept.map { "\($0.offset + 1): \(number($0.element))" }.joined(separator: ", ") + "}"
    }

    private static func time(_ time: FittedPopulation.Time) -> String {
        switch time {
        case .uniform(let range): self.range(range)
        case .logNormal(let median, let p90): "{median: \(number(median)), p90: \(number(p90))}"
        }
    }

    private static func range(_ range: FittedPopulation.Range) -> String {
        "[\(number(range.min)), \(number(range.max))]"
    }

    /// Four significant digits: what a fit can claim.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e9 { return String(Int(value)) }
        return String(format: "%.4g", value)
    }

    private static func percent(_ value: Double) -> String { String(format: "%.1f %%", value * 100) }

    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        guard digits.count > 3 else { return digits }
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(" ") }
            out.append(character)
        }
        return out
    }

    private static func timestamp(_ milliseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
