import RemixKit
import Testing

/// Checking parameter values against a feature's declared parameters.
@Suite struct FeatureParametersTests {
    private let specs = [
        ParameterSpec("delay", default: .double(2), summary: "seconds to wait"),
        ParameterSpec("retries", default: .int(3), summary: "attempts"),
        ParameterSpec("greeting", default: .string("hello"), summary: "first words"),
        ParameterSpec("verbose", default: .bool(false), summary: "say more"),
    ]

    @Test func missingValuesTakeTheirDefaults() throws {
        let parameters = try FeatureParameters(feature: "F", specs: specs)
        #expect(parameters["delay"] == .double(2))
        #expect(parameters.double("delay", or: -1) == 2)
        #expect(parameters.int("retries", or: -1) == 3)
        #expect(parameters.string("greeting", or: "") == "hello")
        #expect(parameters.bool("verbose", or: true) == false)
    }

    @Test func givenValuesReplaceDefaults() throws {
        let parameters = try FeatureParameters(
            feature: "F", specs: specs, given: ["retries": .int(5), "greeting": .string("hi"), "verbose": .bool(true)])
        #expect(parameters.int("retries", or: -1) == 5)
        #expect(parameters.string("greeting", or: "") == "hi")
        #expect(parameters.bool("verbose", or: false) == true)
        #expect(parameters.double("delay", or: -1) == 2)
    }

    @Test func parametersAreEqualByNameWhateverTheOrderOfTheirSpecs() throws {
        let given: [String: ParameterValue] = ["retries": .int(5)]
        let forward = try FeatureParameters(feature: "F", specs: specs, given: given)
        let backward = try FeatureParameters(feature: "F", specs: specs.reversed(), given: given)
        #expect(forward == backward)
        #expect(forward != (try FeatureParameters(feature: "F", specs: specs)))
        #expect(forward != (try FeatureParameters(feature: "F", specs: Array(specs.dropLast()), given: given)))
        #expect(FeatureParameters.none == (try FeatureParameters(feature: "F", specs: [])))
    }

    @Test func ofSpecsWithOneNameTheLastDefaultCounts() throws {
        let twice = specs + [ParameterSpec("retries", default: .int(9), summary: "attempts, again")]
        #expect(try FeatureParameters(feature: "F", specs: twice).int("retries", or: -1) == 9)
        #expect(try FeatureParameters(feature: "F", specs: twice, given: ["retries": .int(1)]).int("retries", or: -1) == 1)
    }

    @Test func anIntIsAcceptedForADouble() throws {
        let parameters = try FeatureParameters(feature: "F", specs: specs, given: ["delay": .int(4)])
        #expect(parameters["delay"] == .double(4))
        #expect(parameters.double("delay", or: -1) == 4)
    }

    @Test func aDoubleIsNotAcceptedForAnInt() {
        #expect(throws: ParameterError.wrongType(feature: "F", name: "retries", expected: .int, got: .double)) {
            try FeatureParameters(feature: "F", specs: specs, given: ["retries": .double(1.5)])
        }
    }

    @Test func wrongTypeIsAnErrorNamingBothTypes() {
        let error = #expect(throws: ParameterError.self) {
            try FeatureParameters(feature: "F", specs: specs, given: ["verbose": .string("yes")])
        }
        #expect(error == .wrongType(feature: "F", name: "verbose", expected: .bool, got: .string))
        #expect(error?.description == "parameter 'verbose' of feature 'F' takes a bool, not a string")
    }

    @Test func unknownParameterSuggestsTheNearest() {
        let error = #expect(throws: ParameterError.self) {
            try FeatureParameters(feature: "F", specs: specs, given: ["dealy": .double(1)])
        }
        #expect(error == .unknown(feature: "F", name: "dealy", known: ["delay", "retries", "greeting", "verbose"]))
        #expect(error?.description
            == "feature 'F' has no parameter 'dealy'; did you mean 'delay'? (known parameters: delay, greeting, retries, verbose)")
    }

    @Test func unknownParameterOfAFeatureWithoutParameters() {
        let error = #expect(throws: ParameterError.self) {
            try FeatureParameters(feature: "F", specs: [], given: ["delay": .double(1)])
        }
        #expect(error?.description == "feature 'F' has no parameter 'delay'; there are no parameters")
    }

    @Test func accessorsFallBackForUndeclaredOrOtherTypedNames() throws {
        let parameters = try FeatureParameters(feature: "F", specs: specs)
        #expect(parameters["nothing"] == nil)
        #expect(parameters.int("nothing", or: 9) == 9)
        #expect(parameters.int("greeting", or: 9) == 9)
        #expect(FeatureParameters.none["delay"] == nil)
    }

    @Test func specTypeComesFromTheDefault() {
        #expect(specs.map(\.type) == [.double, .int, .string, .bool])
        #expect(ParameterValue.string("x").description == "\"x\"")
    }

    @Test func descriptorMakeChecksParameters() throws {
        let registry = try insertionRegistry()
        let session = try SessionEnvironment(
            app: registry.app(named: "shop"), platform: "phone", registry: registry, clock: VirtualClock(),
            random: RandomSource(seed: 1), events: EventRecorder())
        let descriptor = try registry.feature(named: "AutoGroupInsertion")
        let feature = try #require(try descriptor.make(in: session, parameters: ["delay": .int(1)]) as? TestFeature)
        #expect(feature.name == "AutoGroupInsertion")
        #expect(feature.parameters.double("delay", or: -1) == 1)
        #expect(throws: ParameterError.self) { try descriptor.make(in: session, parameters: ["delay": .bool(true)]) }
    }
}
