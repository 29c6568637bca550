import Foundation
import RemixSimulation
import RemixYAML
import Testing

/// PopulationFile: the shipped file parses; every mistake is reported at its file:line:column.
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
        personas:
          - name: a
        adverts:
          - {title: T, group: [Cars]}

        """

    @Test func theShippedPopulationParses() throws {
        let population = try Fixture.population()
        #expect(population.app == "marketplace")
        #expect(population.startMilliseconds == 1_795_424_400_000)
        #expect(population.sessionGapMilliseconds == 2000)
        #expect(population.attributes.map(\.name) == ["platform", "appVersion", "country"])
        #expect(population.attributes[0].distribution.values == ["phone", "tablet"])
        #expect(population.attributes[0].distribution.weights == [0.7, 0.3])
        #expect(population.personas.map(\.name) == ["decisive seller", "hesitant seller", "browser"])
        #expect(population.personas.map(\.weight) == [0.45, 0.3, 0.25])
        let decisive = population.personas[0]
        #expect(decisive.startInsertion == 0.95 && decisive.browseFirst == 0.1 && decisive.filterFirst == 0.05)
        #expect(decisive.abandon == ["groups": 0.04, "title": 0.05, "item": 0.0])
        #expect(decisive.think == .init(min: 0.8, max: 2.5))
        #expect(decisive.typingPerCharacter == .init(min: 0.12, max: 0.25))
        #expect(decisive.retryAfterFailure == 0.85)
        #expect(population.adverts.count == 14)
        #expect(population.adverts.contains { $0.title == "Carbon road racer" && $0.groupPath == ["Bicycles", "Racers"] })
        #expect(population.services.publishFailureRate == 0.04)
        #expect(population.services.recommendationLatency == .init(min: 1.2, max: 2.8))
    }

    @Test func defaultsFillWhatIsLeftOut() throws {
        let population = try Fixture.population(yaml: Self.valid)
        #expect(population.startMilliseconds == 1_795_424_400_000)
        #expect(population.sessionGapMilliseconds == 2000)
        #expect(population.attributes.isEmpty)
        let persona = population.personas[0]
        #expect(persona.weight == 1 && persona.startInsertion == 1 && persona.browseFirst == 0)
        #expect(persona.think == .init(min: 1, max: 1) && persona.retryAfterFailure == 0.5)
        #expect(population.services.recommendationLatency == .init(min: 2, max: 2))
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
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - name: a\n    startInsertoin: 1"))
            == ["pop.yaml:5:5: error: unknown key 'startInsertoin' in a persona; did you mean 'startInsertion'?"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "{publishFailureRate: 0.1}", with: "{publishFailureRat: 0.1}"))
            == ["pop.yaml:2:12: error: unknown key 'publishFailureRat' in services; did you mean 'publishFailureRate'?"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "{title: T,", with: "{titel: T,"))
            .first?.hasPrefix("pop.yaml:6:6: error: unknown key 'titel' in an advert; did you mean 'title'?") == true)
        let far = Self.problems(Self.valid + "zzzzzz: 1\n")
        #expect(far == ["pop.yaml:7:1: error: unknown key 'zzzzzz' in a population file; known keys: app, start, "
                        + "sessionGapSeconds, attributes, services, personas, adverts"])
    }

    @Test(arguments: [
        ("    startInsertion: 1.5", "pop.yaml:5:21: error: startInsertion is a chance and must be between 0 and 1, not 1.5"),
        ("    browseFirst: -0.1", "pop.yaml:5:18: error: browseFirst is a chance and must be between 0 and 1, not -0.1"),
        ("    retryAfterFailure: 2", "pop.yaml:5:24: error: retryAfterFailure is a chance and must be between 0 and 1, not 2.0"),
        ("    abandon: {groups: 1.01}", "pop.yaml:5:23: error: abandon.groups is a chance and must be between 0 and 1, not 1.01"),
        ("    thinkSeconds: [5, 1]", "pop.yaml:5:19: error: thinkSeconds: min is above max"),
        ("    thinkSeconds: [1, 2, 3]", "pop.yaml:5:19: error: thinkSeconds must be a number or [min, max]"),
        ("    thinkSeconds: fast", "pop.yaml:5:19: error: thinkSeconds must be a number, not 'fast'"),
        ("    typingSecondsPerCharacter: [-1, 2]", "pop.yaml:5:33: error: typingSecondsPerCharacter must be 0 or more"),
        ("    weight: -1", "pop.yaml:5:13: error: weight must be 0 or more"),
    ])
    func badPersonaValuesArePositioned(line: String, expected: String) {
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - name: a\n" + line)) == [expected])
    }

    @Test func badServicesAndTopLevelValuesArePositioned() {
        func replacing(_ old: String, _ new: String) -> [String] {
            Self.problems(Self.valid.replacingOccurrences(of: old, with: new))
        }
        #expect(replacing("publishFailureRate: 0.1", "publishFailureRate: 1.5")
            == ["pop.yaml:2:32: error: publishFailureRate is a chance and must be between 0 and 1, not 1.5"])
        #expect(replacing("{publishFailureRate: 0.1}", "{recommendationLatencySeconds: [3, 2]}")
            == ["pop.yaml:2:42: error: recommendationLatencySeconds: min is above max"])
        #expect(Self.problems("start: yesterday\nsessionGapSeconds: -2\n" + Self.valid)
            == ["pop.yaml:1:8: error: 'yesterday' is not a date (years 0001–9999, a day the month has); write e.g. 2026-11-23T09:00:00Z or 2026-11-23",
                "pop.yaml:2:20: error: sessionGapSeconds must be 0 or more"])
    }

    @Test func missingOrEmptyPersonasAndAdverts() {
        #expect(Self.problems("app: marketplace\nservices: {}\n")
            == ["pop.yaml:1:1: error: a population file needs 'personas'", "pop.yaml:1:1: error: a population file needs 'adverts'"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "personas:\n  - name: a", with: "personas: []"))
            == ["pop.yaml:3:11: error: give at least one persona a weight above 0"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "adverts:\n  - {title: T, group: [Cars]}", with: "adverts: []"))
            == ["pop.yaml:5:10: error: list at least one advert users mean to publish"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "group: [Cars]", with: "group: []"))
            == ["pop.yaml:6:5: error: an advert's group path needs at least one title"])
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - weight: 1"))
            == ["pop.yaml:4:5: error: a persona needs 'name'"])
        #expect(Self.problems("") == ["app", "services", "personas", "adverts"].map { "pop.yaml:1:1: error: a population file needs '\($0)'" })
    }

    @Test func zeroWeightsAreRejected() {
        #expect(Self.problems(Self.valid.replacingOccurrences(of: "  - name: a", with: "  - {name: a, weight: 0}\n  - {name: b, weight: 0}"))
            == ["pop.yaml:4:3: error: give at least one persona a weight above 0"])
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
            services: {publishFailureRate: 3}
            personas:
              - {name: a, startInsertion: 2}
            adverts: []
            extra: 1
            """)
        #expect(problems.count == 5, "\(problems)")
        for position in ["pop.yaml:2:8:", "pop.yaml:3:32:", "pop.yaml:5:31:", "pop.yaml:6:10:", "pop.yaml:7:1:"] {
            #expect(problems.contains { $0.hasPrefix(position) }, "nothing at \(position): \(problems)")
        }
    }

    @Test func everyBadPersonaIsReported() {
        let problems = Self.problems(Self.valid.replacingOccurrences(
            of: "  - name: a", with: "  - {name: a, startInsertion: 2, wieght: 1}\n  - {name: b, thinkSeconds: [3, 1]}"))
        #expect(problems.count == 3, "\(problems)")
        #expect(problems.contains { $0.contains("'wieght'") && $0.contains("weight") }, "\(problems)")
        let lines = problems.compactMap { Int($0.split(separator: ":")[1]) }
        #expect(lines.count == 3 && lines == lines.sorted(), "in file order: \(problems)")
    }

    @Test func anUnknownAbandonScreenIsAWarningWithASuggestion() throws {
        let (population, problems) = PopulationFile.parse(
            Self.valid.replacingOccurrences(of: "  - name: a", with: "  - name: a\n    abandon: {titel: 0.1}"), file: "pop.yaml")
        #expect(population != nil, "a warning does not stop the run")
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.severity == .warning)
        #expect(problems.first?.message.contains("did you mean 'title'?") == true, "\(problems)")
    }

    @Test func aMissingFileIsReportedWithItsPath() {
        let (population, problems) = PopulationFile.load(path: "/nonexistent/population.yaml")
        #expect(population == nil)
        #expect(problems.count == 1)
        #expect(problems.first?.description.hasPrefix("/nonexistent/population.yaml:1:1: error: cannot read the population file") == true)
    }
}
