import Foundation
import RemixKit
import RemixSimulation
import RemixYAML
import Testing

/// PopulationFile: the shipped files parse; every mistake is reported at its file:line:column.
@Suite struct PopulationFileTests {
    /// The descriptions of the problems found in `text`, read as `pop.yaml`.
    static func problems(_ text: String) -> [String] {
        let (population, problems) = PopulationFile.parse(text, file: "pop.yaml")
        #expect(population == nil, "a file with problems gives no population")
        return problems.map(\.description)
    }

    static let valid = """
        app: marketplace
        services: {publishFailureRate: 0.1}
        intents:
          publish: {start: {press: primary}, success: advert_published}
        personas:
          - name: a

        """

    @Test func theShippedPopulationParses() throws {
        let population = try Fixture.population()
        #expect(population.app == "marketplace")
        #expect(population.startMilliseconds == 1_795_424_400_000)
        #expect(population.sessionGapMilliseconds == 2000)
        #expect(population.attributes.map(\.name) == ["platform", "appVersion", "country"])
        #expect(population.attributes[0].distribution.values == ["phone", "tablet"])
        #expect(population.attributes[0].distribution.weights == [0.7, 0.3])
        #expect(population.intents.map(\.name) == ["browse", "filter", "publish"])
        #expect(population.personas.map(\.name) == ["decisive seller", "hesitant seller", "browser"])
        #expect(population.personas.map(\.weight) == [0.45, 0.3, 0.25])
        let decisive = population.personas[0]
        #expect(decisive.intents.map(\.intent) == [0, 1, 2] && decisive.intents.map(\.chance) == [0.1, 0.05, 0.95])
        #expect(decisive.abandon == ["groups": 0.04, "filter": 0.04, "title": 0.05, "item": 0.0])
        #expect(decisive.think == .init(min: 0.8, max: 2.5))
        #expect(decisive.typingPerCharacter == .init(min: 0.12, max: 0.25))
        #expect(decisive.retryAfterError == 0.85)
        #expect(decisive.visits == 1...1)
        let publish = population.intents[2]
        #expect(publish.start == .press(.role(.primary)))
        #expect(publish.success?.value == "advert_published")
        #expect(publish.check?.row == "title" && publish.check?.detail == "path")
        #expect(publish.check?.event.value == "advert_misfiled")
        #expect(publish.values.count == 14)
        #expect(publish.values.contains { $0.texts["title"] == ["Carbon road racer"] && $0.path == ["Bicycles", "Racers"] })
        #expect(population.intents[0].start == .select(.item) && population.intents[1].chooseAny)
        #expect(population.services.map(\.name) == ["publishFailureRate", "recommendationLatencySeconds"])
        #expect(population.services.map(\.value) == [0.04...0.04, 1.2...2.8])
        #expect(population.observedEvents == ["advert_misfiled"])
    }

    @Test(arguments: ["calculator", "groupbrowser"])
    func theShippedPopulationsOfTheOtherAppsParse(app: String) throws {
        let path = Fixture.root.appendingPathComponent("experiments/\(app).population.yaml").path
        let (population, problems) = PopulationFile.load(path: path)
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        #expect(population?.app == app)
    }

    @Test func defaultsFillWhatIsLeftOut() throws {
        let population = try Fixture.population(yaml: Self.valid)
        #expect(population.startMilliseconds == 1_795_424_400_000)
        #expect(population.sessionGapMilliseconds == 2000)
        #expect(population.attributes.isEmpty)
        let persona = population.personas[0]
        #expect(persona.weight == 1 && persona.intents.isEmpty && persona.abandon.isEmpty && persona.abandonElsewhere == 0)
        #expect(persona.think == .init(min: 1, max: 1) && persona.retryAfterError == 0.5 && persona.typos == 0)
        #expect(persona.visits == 1...1 && persona.daysBetweenVisits == .init(min: 1, max: 1) && persona.prefer.isEmpty)
        #expect(population.intents[0].values.isEmpty && !population.intents[0].chooseAny && population.intents[0].check == nil)
    }

    @Test func intentsAndPersonasReadEveryField() throws {
        let population = try Fixture.population(yaml: """
            app: calculator
            intents:
              add:
                values:
                  - {number: [12, "30"], expression: "12 + 30", weight: 3}
                  - {number: ["1", "2"], expression: "1 + 2"}
              open: {start: {select: drillDown}, choose: any}
            personas:
              - name: p
                intents: {open: 0.5, add: 1}
                abandon: {sum: 0.2, default: 0.1}
                typos: 0.05
                prefer: [submit, ok]
                visits: [1, 3]
                daysBetweenVisits: [0.5, 7]
            """)
        let add = population.intents[0]
        #expect(add.start == nil && add.success == nil)
        #expect(add.values[0].texts == ["number": ["12", "30"], "expression": ["12 + 30"]] && add.values[0].weight == 3)
        #expect(population.intents[1].start == .select(.drillDown))
        let persona = population.personas[0]
        #expect(persona.intents.map(\.intent) == [1, 0] && persona.intents.map(\.chance) == [0.5, 1])
        #expect(persona.abandon == ["sum": 0.2] && persona.abandonElsewhere == 0.1)
        #expect(persona.typos == 0.05 && persona.prefer == [.role(.submit), .id("ok")])
        #expect(persona.visits == 1...3 && persona.daysBetweenVisits == .init(min: 0.5, max: 7))
    }

    @Test func malformedYAMLIsReportedWhereItBreaks() {
        #expect(Self.problems("app: marketplace\nservices: {publishFailureRate: 0.1\npersonas: []\n")
            == ["pop.yaml:3:9: error: malformed YAML: did not find expected ',' or '}' (while parsing a flow mapping at line 2)"])
        #expect(Self.problems("app: marketplace\npersonas:\n  - name: a\n   weight: 1\n")
            == ["pop.yaml:4:4: error: malformed YAML: did not find expected '-' indicator (while parsing a block collection at line 3)"])
        #expect(Self.problems("app: marketplace\napp: other\n")
            .first == "pop.yaml:2:1: error: duplicate key 'app' (first at line 1)")
        #expect(Self.problems("- just\n- a list\n") == ["pop.yaml:1:1: error: a population file must be a mapping, not a list"])
    }

    @Test func unknownKeysSuggestTheNearestKnownKey() {
        #expect(Self.problems(Self.valid + "persona: []\n")
            == ["pop.yaml:7:1: error: unknown key 'persona' in a population file; did you mean 'personas'?"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - name: a\n    retryAfterEror: 1"))
            == ["pop.yaml:7:5: error: unknown key 'retryAfterEror' in a persona; did you mean 'retryAfterError'?"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "success: advert_published", with: "sucess: advert_published"))
            == ["pop.yaml:4:38: error: unknown key 'sucess' in an intent; did you mean 'success'?"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "intents: {}", with: "x").replacingOccurrences(
            of: "  - name: a", with: "  - {name: a, intents: {publsh: 1}}"))
            == ["pop.yaml:6:25: error: no intent 'publsh' is defined under intents; did you mean 'publish'? (known intents: publish)"])
        let far = Self.problems(Self.valid + "zzzzzz: 1\n")
        #expect(far == ["pop.yaml:7:1: error: unknown key 'zzzzzz' in a population file; known keys: app, start, "
                        + "sessionGapSeconds, attributes, services, intents, personas, effects"])
    }

    @Test func aFileOfTheFirstFormatIsToldToAddIntents() {
        let problems = Self.problems("app: marketplace\npersonas:\n  - {name: a}\n")
        #expect(problems == ["pop.yaml:1:1: error: a population file needs 'intents' (what users come to do; files of the "
                             + "first format need rewriting, see docs/simulation.md)"])
    }

    @Test(arguments: [
        ("    intents: {publish: 1.5}", "pop.yaml:7:24: error: the chance of intent 'publish' is a chance and must be between 0 and 1, not 1.5"),
        ("    retryAfterError: 2", "pop.yaml:7:22: error: retryAfterError is a chance and must be between 0 and 1, not 2.0"),
        ("    typos: -0.5", "pop.yaml:7:12: error: typos is a chance and must be between 0 and 1, not -0.5"),
        ("    abandon: {groups: 1.01}", "pop.yaml:7:23: error: abandon.groups is a chance and must be between 0 and 1, not 1.01"),
        ("    thinkSeconds: [5, 1]", "pop.yaml:7:19: error: thinkSeconds: min is above max"),
        ("    thinkSeconds: [1, 2, 3]", "pop.yaml:7:19: error: thinkSeconds must be a number or [min, max]"),
        ("    thinkSeconds: fast", "pop.yaml:7:19: error: thinkSeconds must be a number, not 'fast'"),
        ("    typingSecondsPerCharacter: [-1, 2]", "pop.yaml:7:33: error: typingSecondsPerCharacter must be 0 or more"),
        ("    weight: -1", "pop.yaml:7:13: error: weight must be 0 or more"),
        ("    visits: 0", "pop.yaml:7:13: error: visits is a whole number of sessions per user (1 or more), [min, max], or {COUNT: WEIGHT, …}"),
        ("    visits: [1, 2.5]", "pop.yaml:7:13: error: visits is a whole number of sessions per user (1 or more), [min, max], or {COUNT: WEIGHT, …}"),
        ("    visits: 101", "pop.yaml:7:13: error: visits must be at most 100, not 101.0"),
        ("    daysBetweenVisits: 400", "pop.yaml:7:24: error: daysBetweenVisits must be at most 366, not 400.0"),
    ])
    func badPersonaValuesArePositioned(line: String, expected: String) {
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - name: a\n" + line)) == [expected])
    }

    @Test(arguments: [
        ("{start: {press: primary, select: item}}", "pop.yaml:4:20: error: start is one action: {press: ROLE-OR-BUTTON-ID} or {select: ROW-KIND}"),
        ("{start: {tap: primary}}", "pop.yaml:4:21: error: start has no action 'tap'; known actions: press, select"),
        ("{start: {select: rows}}", "pop.yaml:4:29: error: no row kind 'rows'; known row kinds: any, choice, drillDown, item"),
        ("{choose: random}", "pop.yaml:4:21: error: choose is 'any' (rows the path does not name are picked by chance) or 'closest' (the default), not 'random'"),
        ("{values: [{path: []}]}", "pop.yaml:4:29: error: a path needs at least one step"),
        ("{values: [{title: T, weight: 0}]}", "pop.yaml:4:21: error: give at least one value set a weight above 0"),
        ("{check: {row: title, detail: path, otherwise: x}}", "pop.yaml:4:20: error: a check runs after success: give the intent a success event too"),
        ("{success: e, check: {row: title, otherwise: x}}", "pop.yaml:4:32: error: a check needs 'detail'"),
    ])
    func badIntentsArePositioned(intent: String, expected: String) {
        let text = Self.valid.replacingOccurrences(of: "{start: {press: primary}, success: advert_published}", with: intent)
        #expect(Self.problems(text).first == expected, "\(Self.problems(text))")
    }

    @Test func badValuesAtTheTopLevelArePositioned() {
        #expect(Self.problems("start: yesterday\nsessionGapSeconds: -2\n" + Self.valid)
            == ["pop.yaml:1:8: error: 'yesterday' is not a date (years 0001–9999, a day the month has); write e.g. 2026-11-23T09:00:00Z or 2026-11-23",
                "pop.yaml:2:20: error: sessionGapSeconds must be 0 or more"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "{publishFailureRate: 0.1}", with: "{recommendationLatencySeconds: [3, 2]}"))
            == ["pop.yaml:2:42: error: recommendationLatencySeconds: min is above max"])
    }

    @Test func missingOrEmptySections() {
        #expect(Self.problems("app: marketplace\nservices: {}\nintents: {a: {}}\n")
            == ["pop.yaml:1:1: error: a population file needs 'personas'"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "personas:\n  - name: a", with: "personas: []"))
            == ["pop.yaml:5:11: error: give at least one persona a weight above 0"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "intents:\n  publish: {start: {press: primary}, success: advert_published}",
                                                              with: "intents: {}"))
            .first?.hasPrefix("pop.yaml:3:10: error: list at least one intent") == true)
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - weight: 1"))
            == ["pop.yaml:6:5: error: a persona needs 'name'"])
        #expect(Self.problems("intents: {a: {}}") == ["app", "personas"].map { "pop.yaml:1:1: error: a population file needs '\($0)'" })
    }

    @Test func zeroWeightsAreRejected() {
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - {name: a, weight: 0}\n  - {name: b, weight: 0}"))
            == ["pop.yaml:6:3: error: give at least one persona a weight above 0"])
        #expect(Self.problems("attributes:\n  platform: {phone: 0, tablet: 0}\n" + Self.valid)
            == ["pop.yaml:2:13: error: attribute 'platform' needs a value with a weight above 0"])
        // One persona with weight 0 among others is fine.
        #expect(PopulationFile.parse(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - {name: a, weight: 0}\n  - {name: b}"),
                                     file: "pop.yaml").1.isEmpty)
    }

    @Test func theIdAttributeIsReserved() {
        #expect(Self.problems("attributes:\n  country: {GB: 1}\n  id: {u1: 1}\n" + Self.valid)
            == ["pop.yaml:3:3: error: 'id' is the simulated user's id and is set by the simulation"])
    }

    @Test func problemsInSeveralSectionsAreAllReported() {
        let problems = Self.problems("""
            app: marketplace
            start: never
            intents:
              publish: {start: {tap: x}}
            personas:
              - {name: a, typos: 2}
            extra: 1
            """)
        #expect(problems.count == 4, "\(problems)")
        for position in ["pop.yaml:2:8:", "pop.yaml:4:21:", "pop.yaml:6:22:", "pop.yaml:7:1:"] {
            #expect(problems.contains { $0.hasPrefix(position) }, "nothing at \(position): \(problems)")
        }
    }

    @Test func anIntentWithProblemsIsNotReportedAgainWhereAPersonaNamesIt() {
        let problems = Self.problems(Self.valid.replacingOccurrences(of: "{start: {press: primary}, success: advert_published}",
                                                                     with: "{start: {tap: x}}")
            .replacingOccurrences(of: "  - name: a", with: "  - {name: a, intents: {publish: 1}}"))
        #expect(problems.count == 1, "\(problems)")
    }

    @Test func everyBadPersonaIsReported() {
        let problems = Self.problems(Self.valid.replacingOccurrences(
            of: "  - name: a", with: "  - {name: a, typos: 2, wieght: 1}\n  - {name: b, thinkSeconds: [3, 1]}"))
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("'wieght'") && $0.contains("weight") }, "\(problems)")
        let lines = problems.compactMap { Int($0.split(separator: ":")[1]) }
        #expect(lines.count == 3 && lines == lines.sorted(), "in file order: \(problems)")
    }

    @Test func aMissingFileIsReportedWithItsPath() {
        let (population, problems) = PopulationFile.load(path: "/nonexistent/population.yaml")
        #expect(population == nil)
        #expect(problems.count == 1)
        #expect(problems.first?.description.hasPrefix("/nonexistent/population.yaml:1:1: error: cannot read the population file") == true)
    }
}
