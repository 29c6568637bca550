import RemixKit
import Testing

/// Chooses a fixed feature for every slot and counts first uses.
final class TestChooser: SlotChooser {
    let feature: String?
    let parameters: [String: ParameterValue]
    private(set) var firstUses = 0
    private(set) var asked: [String] = []

    init(feature: String?, parameters: [String: ParameterValue] = [:]) {
        self.feature = feature
        self.parameters = parameters
    }

    func choose(slot: SlotDefinition, app: AppDefinition) -> SlotAssignment? {
        asked.append("\(app.name).\(slot.name)")
        return feature.map { SlotAssignment(feature: $0, parameters: parameters) { [weak self] in self?.firstUses += 1 } }
    }
}

protocol Greeter: AnyObject {}
final class TestGreeter: Greeter {}

/// Slots, services and platforms of one session.
@Suite struct SessionEnvironmentTests {
    private func makeSession(chooser: (any SlotChooser)? = nil, platform: String = "phone",
                             withFlow: Bool = false) throws -> SessionEnvironment {
        let flow = FeatureDescriptor(name: "FlowInsertion", summary: "a flow", role: "insertion") { context in
            TestFlowFeature(name: context.feature)
        }
        let registry = try insertionRegistry(extraFeatures: withFlow ? [flow] : [])
        return try SessionEnvironment(
            app: registry.app(named: "shop"), platform: platform, registry: registry, clock: VirtualClock(),
            random: RandomSource(seed: 1), events: EventRecorder(), chooser: chooser)
    }

    @Test func withoutChooserASlotGetsItsDefaultFiller() throws {
        let session = try makeSession()
        let slot = try session.slot("insertion")
        #expect(slot.name == "insertion")
        #expect(slot.featureName == "ManualGroupInsertion")
        #expect(slot.use(as: TestFeature.self)?.name == "ManualGroupInsertion")
    }

    @Test func chooserReturningNilLeavesTheDefault() throws {
        let chooser = TestChooser(feature: nil)
        let session = try makeSession(chooser: chooser)
        #expect(try session.slot("insertion").featureName == "ManualGroupInsertion")
        #expect(chooser.asked == ["shop.insertion"])
    }

    @Test func chooserPicksTheFillerAndItsParameters() throws {
        let chooser = TestChooser(feature: "AutoGroupInsertion", parameters: ["delay": .double(0.5)])
        let session = try makeSession(chooser: chooser)
        let slot = try session.slot("insertion")
        #expect(slot.featureName == "AutoGroupInsertion")
        let feature = try #require(slot.use(as: TestFeature.self))
        #expect(feature.name == "AutoGroupInsertion")
        #expect(feature.parameters.double("delay", or: -1) == 0.5)
    }

    @Test func slotIsMadeOnceAndKeptForTheSession() throws {
        let chooser = TestChooser(feature: "AlternatingInsertion")
        let session = try makeSession(chooser: chooser)
        let first = try session.slot("insertion"), second = try session.slot("insertion")
        #expect(first === second)
        #expect(chooser.asked.count == 1)
    }

    @Test func onFirstUseFiresOnceOnTheFirstUse() throws {
        let chooser = TestChooser(feature: "AutoGroupInsertion")
        let session = try makeSession(chooser: chooser)
        let slot = try session.slot("insertion")
        #expect(chooser.firstUses == 0)
        #expect(slot.use(as: TestFeature.self) != nil)
        #expect(chooser.firstUses == 1)
        #expect(slot.use(as: TestFeature.self) != nil)
        #expect(try session.slot("insertion").use(as: (any Feature).self) != nil)
        #expect(chooser.firstUses == 1)
    }

    @Test func useAsTheWrongTypeIsNilAndDoesNotCountAsUse() throws {
        let chooser = TestChooser(feature: "AutoGroupInsertion")
        let slot = try makeSession(chooser: chooser).slot("insertion")
        #expect(slot.use(as: (any FlowFeature).self) == nil)
        #expect(chooser.firstUses == 0)
        #expect(slot.use(as: TestFeature.self) != nil)
        #expect(chooser.firstUses == 1)
    }

    @Test func aFlowFeatureIsItselfAsAFlowAndAnyOtherFeatureIsNone() throws {
        let flow = TestFlowFeature(name: "flow")
        #expect(flow.asFlowFeature === flow)
        #expect((flow as any Feature).asFlowFeature === flow)
        #expect(TestFeature(name: "plain", parameters: try FeatureParameters(feature: "plain", specs: [])).asFlowFeature == nil)
    }

    @Test func useFlowFeatureGivesTheFlowAndCountsItsFirstUseOnce() throws {
        let chooser = TestChooser(feature: "FlowInsertion")
        let slot = try makeSession(chooser: chooser, withFlow: true).slot("insertion")
        #expect((slot.useFlowFeature() as? TestFlowFeature)?.name == "FlowInsertion")
        #expect(slot.useFlowFeature() != nil)
        #expect(chooser.firstUses == 1)
        let other = TestChooser(feature: "AutoGroupInsertion")
        #expect(try makeSession(chooser: other).slot("insertion").useFlowFeature() == nil)
        #expect(other.firstUses == 0)
    }

    @Test func makeFlowFeatureMakesAFlowThatCanFillTheSlot() throws {
        let session = try makeSession(withFlow: true)
        #expect((try session.makeFlowFeature(named: "FlowInsertion", filling: "insertion") as? TestFlowFeature)?.name
            == "FlowInsertion")
        #expect(throws: RegistryError.featureKind(feature: "AutoGroupInsertion", expected: "FlowFeature")) {
            try session.makeFlowFeature(named: "AutoGroupInsertion", filling: "insertion")
        }
        #expect(throws: RegistryError.self) { try session.makeFlowFeature(named: "GroupFilter", filling: "insertion") }
        #expect(throws: RegistryError.unknownSlot(app: "shop", slot: "filter", known: ["insertion"])) {
            try session.makeFlowFeature(named: "FlowInsertion", filling: "filter")
        }
    }

    @Test func chosenFeatureOfTheWrongRoleIsRejected() throws {
        let session = try makeSession(chooser: TestChooser(feature: "GroupFilter"))
        #expect(throws: RegistryError.wrongRole(feature: "GroupFilter", role: "filter", slot: "insertion",
                                                expected: "insertion")) {
            try session.slot("insertion")
        }
    }

    @Test func unknownSlotIsAnError() throws {
        let session = try makeSession()
        #expect(throws: RegistryError.unknownSlot(app: "shop", slot: "filter", known: ["insertion"])) {
            try session.slot("filter")
        }
    }

    @Test func unsupportedPlatformIsAnErrorSuggestingAKnownOne() throws {
        let error = #expect(throws: RegistryError.self) { try makeSession(platform: "tablte") }
        #expect(error == .unsupportedPlatform(app: "shop", platform: "tablte", known: ["phone", "tablet"]))
        #expect(error?.description
            == "app 'shop' does not run on 'tablte'; did you mean 'tablet'? (known platforms: phone, tablet)")
    }

    @Test func sessionKeepsItsPlatformAndUsesItsClockForTheWindow() throws {
        let session = try makeSession(platform: "tablet")
        #expect(session.platform == "tablet")
        #expect(session.window.clock === session.clock)
    }

    @Test func makeFeatureChecksTheKind() throws {
        let session = try makeSession()
        #expect(try session.makeFeature(named: "Plain", as: TestFeature.self).name == "Plain")
        #expect(throws: RegistryError.featureKind(feature: "Plain", expected: "FlowFeature")) {
            try session.makeFeature(named: "Plain", as: (any FlowFeature).self)
        }
    }

    @Test func serviceContainerReturnsTheRegisteredService() throws {
        let services = ServiceContainer()
        let greeter = TestGreeter()
        services.register(greeter, as: (any Greeter).self)
        #expect(try services.resolve((any Greeter).self) === greeter)
    }

    @Test func serviceContainerKeepsOneServicePerTypeTheLastRegistered() throws {
        let services = ServiceContainer()
        let first = TestGreeter(), second = TestGreeter()
        services.register(first, as: (any Greeter).self)
        services.register(first, as: TestGreeter.self)
        services.register(second, as: (any Greeter).self)
        #expect(try services.resolve((any Greeter).self) === second)
        #expect(try services.resolve(TestGreeter.self) === first)
    }

    @Test func serviceContainerReportsAMissingService() throws {
        let services = ServiceContainer()
        services.register(TestGreeter(), as: TestGreeter.self)
        let error = #expect(throws: ServiceError.self) { try services.resolve((any Greeter).self) }
        #expect(error == .missing("Greeter"))
        #expect(error?.description
            == "no service Greeter is registered for this session; the app's root must register it")
    }
}
