import Foundation
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixKit
import RemixSimulation
import RemixTestSupport
import Testing

/// One simulated user drives every app from population data: no app knowledge in its code, and
/// what the population says (typos, retries, abandon chances per screen) really moves the results.
@Suite struct GenericAgentTests {
    /// Words only an app knows: app, module, feature and screen names, and the events features
    /// declare. None may appear in a string literal of RemixSimulation's sources.
    static func appWords() throws -> Set<String> {
        let registry = try BuiltInModules.registry()
        var words = Set(registry.apps.map(\.name) + registry.modules.map(\.name) + registry.features.map(\.name))
        words.formUnion(registry.features.flatMap(\.events).map(\.name))
        words.formUnion(["adverts", "groups", "title", "toast", "sum", "expression", "prime", "search", "quick", "filters", "new"])
        return Set(words.map { $0.lowercased() })
    }

    @Test func theSimulatorsCodeNamesNoAppScreenFieldOrEvent() throws {
        let folder = Fixture.root.appendingPathComponent("Sources/RemixSimulation")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(files.count >= 8)
        let words = try Self.appWords()
        let literal = #/"(?:[^"\\\n]|\\.)*"/#
        var found: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            for match in text.matches(of: literal) {
                let tokens = match.output.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "_" }.map(String.init)
                found += tokens.filter(words.contains).map { "\(file): \($0) in \(match.output)" }
            }
            for module in ["Marketplace", "Calculator", "GroupBrowser", "Classifieds", "RemixFeatures"] {
                if text.contains("import \(module)") { found.append("\(file) imports \(module)") }
            }
        }
        #expect(found.isEmpty, "app knowledge in RemixSimulation: \(found)")
    }

    static func calculator(typos: Double, retry: Double, abandonSum: Double = 0, abandonExpression: Double = 0) -> String {
        """
        app: calculator
        intents:
          add:
            success: sum_analysed
            values:
              - {number: ["12", "30"], expression: "12 + 30"}
              - {number: ["7", "4"], expression: "7 + 4"}
        personas:
          - name: p
            intents: {add: 1}
            abandon: {sum: \(abandonSum), expression: \(abandonExpression)}
            typos: \(typos)
            retryAfterError: \(retry)
        """
    }

    static func run(_ yaml: String, users: Int = 300, seed: UInt64 = 5) throws -> SimulationSummary {
        let folder = try TemporaryFolder()
        return try Fixture.run(sessions: users, seed: seed, jobs: 2, population: try Fixture.population(yaml: yaml),
                               to: folder.path("events.jsonl"))
    }

    static func achieved(_ summary: SimulationSummary, _ experiment: String, _ variation: String) -> (Int, Int) {
        let count = summary.variations[experiment]?[variation]
        return (count?.achieved ?? 0, count?.exposed ?? 0)
    }

    @Test func slipsDecideBetweenTwoNumberFieldsAndOneExpression() throws {
        let careful = try Self.run(Self.calculator(typos: 0, retry: 0))
        for variation in ["two-fields", "expression"] {
            let (achieved, exposed) = Self.achieved(careful, "calculator-entry", variation)
            #expect(exposed > 100 && achieved == exposed, "\(variation): \(achieved)/\(exposed)")
        }
        // Every typed text has a stray letter: a number field reads it as 0 and still adds up, an
        // expression is rejected — and with no retries the sum is never analysed.
        let sloppy = try Self.run(Self.calculator(typos: 1, retry: 0))
        let (twoFields, twoFieldsExposed) = Self.achieved(sloppy, "calculator-entry", "two-fields")
        #expect(twoFields == twoFieldsExposed)
        #expect(Self.achieved(sloppy, "calculator-entry", "expression").0 == 0)
        #expect(sloppy.intents["add"]?.screens[.error] == ["expression": Self.achieved(sloppy, "calculator-entry", "expression").1])
        // Retrying wins some back: each retry types again, with the same chance of a slip.
        let retrying = try Self.run(Self.calculator(typos: 0.5, retry: 1))
        let (expression, expressionExposed) = Self.achieved(retrying, "calculator-entry", "expression")
        #expect(expression > expressionExposed * 9 / 10, "\(expression)/\(expressionExposed)")
    }

    @Test func abandonChancesCountOnlyOnTheScreenTheyName() throws {
        let leavesSum = try Self.run(Self.calculator(typos: 0, retry: 1, abandonSum: 1))
        #expect(Self.achieved(leavesSum, "calculator-entry", "two-fields").0 == 0)
        let (expression, exposed) = Self.achieved(leavesSum, "calculator-entry", "expression")
        #expect(expression == exposed && exposed > 100)
        #expect(leavesSum.intents["add"]?.screens[.abandoned]?.keys.sorted() == ["sum"])
    }

    @Test func groupBrowserSearchersAndTreeWalkersDependOnTheirAbandonChances() throws {
        func population(groups: Double, search: Double) -> String {
            """
            app: groupbrowser
            intents:
              read:
                success: group_viewed
                values:
                  - {query: "mountain", path: [Bicycles, Off road bikes, Mountain bikes]}
                  - {query: "cars", path: [Cars]}
            personas:
              - {name: p, intents: {read: 1}, abandon: {groups: \(groups), search: \(search)}}
            """
        }
        let treeAverse = try Self.run(population(groups: 0.5, search: 0))
        let searchAverse = try Self.run(population(groups: 0, search: 0.5))
        let rate = { (summary: SimulationSummary, variation: String) -> Double in
            let (achieved, exposed) = Self.achieved(summary, "groupbrowser-navigation", variation)
            return Double(achieved) / Double(max(exposed, 1))
        }
        #expect(rate(treeAverse, "search") == 1 && rate(searchAverse, "tree") == 1)
        #expect(rate(treeAverse, "tree") < 0.6 && rate(searchAverse, "search") < 0.7)
    }

    @Test func anIntentTheAppCannotServeShowsWhereSessionsGotStuck() throws {
        let yaml = """
            app: marketplace
            intents:
              share: {start: {press: share}, success: advert_shared}
            personas:
              - {name: p, intents: {share: 1}}
            """
        let population = try Fixture.population(yaml: yaml)
        let summary = try Self.run(yaml, users: 50)
        #expect(summary.stuckScreens == ["adverts": 50])
        #expect(summary.intents["share"]?.outcomes[.stuck] == 50)
        #expect(summary.text(variationOrder: [:], intentOrder: population.intents.map(\.name))
            .contains("stuck      on screen adverts: 50 sessions"))
    }
}
