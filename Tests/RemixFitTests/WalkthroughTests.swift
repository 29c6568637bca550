import Foundation
import RemixCLITestSupport
import RemixTestSupport
import Testing

/// docs/simulation.md's worked example of fitting, followed as written: every `remix` command of
/// its code blocks, in order, with the folders it names shipped under docs/examples/ — only
/// smaller (a thirtieth of the users, 3 replicates instead of 20) and with the files it writes in a
/// folder of the test's own.
@Suite struct WalkthroughTests {
    /// The commands of the section "A worked example", as written.
    static func commands() throws -> [[String]] {
        let text = try String(contentsOfFile: Repository.root.appendingPathComponent("docs/simulation.md").path, encoding: .utf8)
        let start = try #require(text.range(of: "### A worked example"))
        let end = try #require(text.range(of: "\n### ", range: start.upperBound..<text.endIndex))
        var inBlock = false
        var commands: [[String]] = []
        for line in text[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inBlock.toggle() } else if inBlock, line.hasPrefix("remix ") {
                commands.append(line.split(separator: " ").dropFirst().map(String.init))
            }
        }
        return commands
    }

    /// `arguments` made small, writing its files into `folder`.
    static func scaled(_ arguments: [String], into folder: TemporaryFolder) -> [String] {
        var scaled: [String] = []
        for (index, argument) in arguments.enumerated() {
            let option = index > 0 ? arguments[index - 1] : ""
            if option == "--users", let users = Int(argument) {
                scaled.append(String(users / 30))
            } else if option == "--replicates" {
                scaled.append("3")
            } else if !argument.hasPrefix("docs/"), argument.hasSuffix(".jsonl") || argument.hasSuffix(".yaml") {
                scaled.append(folder.path(argument))
            } else {
                scaled.append(argument)
            }
        }
        return scaled
    }

    @Test func theFittingWalkthroughRunsAsWritten() async throws {
        let commands = try Self.commands()
        #expect(commands.map(\.first) == ["simulate", "fit", "simulate", "simulate", "compare", "predict"], "\(commands)")
        let folder = try TemporaryFolder()
        var outputs: [String: String] = [:]
        for command in commands {
            let arguments = Self.scaled(command, into: folder)
            let result = await RemixInProcess.run(arguments)
            #expect(result.status == 0, "\(command.joined(separator: " ")): \(result.stderr)")
            outputs[command[0], default: ""] += result.stdout
        }
        #expect(outputs["fit"]?.contains("personas from 1000 users, 1000 sessions") == true, "\(outputs["fit"] ?? "")")
        #expect(outputs["compare"]?.contains("within tolerance") == true, "\(outputs["compare"] ?? "")")
        let prediction = outputs["predict"] ?? ""
        #expect(prediction.hasPrefix("predicted from the fit and 3 replicates"), "\(prediction)")
        for variation in ["manual", "auto", "alternating"] {
            #expect(prediction.contains("  \(variation): advert_published "), "\(prediction)")
        }
    }
}
