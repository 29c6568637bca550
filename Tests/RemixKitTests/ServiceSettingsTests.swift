import RemixKit
import Testing

/// Service parameters an app declares, as a simulated session sees them.
@Suite struct ServiceSettingsTests {
    static let specs: [ServiceParameterSpec] = [
        .chance("failureRate", default: 0.1, summary: "s"),
        .seconds("latency", default: 1...3, summary: "s"),
    ]

    @Test func givenValuesOverrideTheDeclaredDefaults() {
        let defaults = ServiceSettings(specs: Self.specs, values: [:], random: RandomSource(seed: 1))
        #expect(defaults.chance("failureRate") == 0.1)
        #expect(defaults.range("latency") == 1...3)
        let given = ServiceSettings(specs: Self.specs, values: ["failureRate": 0.5...0.5, "latency": 2...2],
                                    random: RandomSource(seed: 1))
        #expect(given.chance("failureRate") == 0.5)
        #expect(given.drawDuration("latency") == .seconds(2))
    }

    @Test func valuesResolvedOnceServeEverySession() {
        let values = ServiceValues(specs: Self.specs, values: ["latency": 2...2, "other": 9...9])
        for seed in UInt64(1)...3 {
            let settings = ServiceSettings(values, random: RandomSource(seed: seed))
            #expect(settings.chance("failureRate") == 0.1 && settings.drawDuration("latency") == .seconds(2))
            #expect(settings.range("other") == nil)
        }
    }

    @Test func undeclaredNamesAreNothing() {
        let settings = ServiceSettings(specs: Self.specs, values: ["other": 9...9], random: RandomSource(seed: 1))
        #expect(settings.range("other") == nil && settings.chance("other") == 0 && settings.draw("other") == 0)
    }

    @Test func drawsStayInTheRangeAndFollowTheSeed() {
        let first = ServiceSettings(specs: Self.specs, values: [:], random: RandomSource(seed: 7))
        let second = ServiceSettings(specs: Self.specs, values: [:], random: RandomSource(seed: 7))
        let draws = (0..<200).map { _ in first.draw("latency") }
        #expect(draws.allSatisfy { (1...3).contains($0) })
        #expect(Set(draws).count > 100)
        #expect(draws == (0..<200).map { _ in second.draw("latency") })
    }

    @Test func defaultsAreWrittenAsAPopulationFileWouldHoldThem() {
        #expect(Self.specs.map(\.defaultText) == ["0.1", "[1, 3]"])
        #expect(ServiceParameterSpec.seconds("x", default: 2...2, summary: "").defaultText == "2")
    }
}
