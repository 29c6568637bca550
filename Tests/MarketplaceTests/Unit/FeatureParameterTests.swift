import Classifieds
import Marketplace
import RemixBuiltIns
import RemixHost
import RemixKit
import Testing

/// Feature parameters of the insertion fillers: AlternatingInsertion's `flows`, and
/// AutoGroupInsertion's `loadingMessage` and `errorToastSeconds`.
@Suite("Insertion feature parameters")
struct FeatureParameterTests {
    /// A session (not started) whose window root is a bare navigation stack for one flow.
    struct FlowHarness {
        let session: AppSession
        let registry: FeatureRegistry
        let navigation: any NavigationWireframe
        let outcome = FlowDelegateSpy()

        init() throws {
            registry = try BuiltInModules.registry()
            session = try AppSession(app: "marketplace", registry: registry)
            navigation = session.window.makeNavigation()
            session.window.setRoot(navigation)
        }

        var state: String { session.window.state.description }

        /// Makes `feature` with `parameters` in the session and starts one run of it.
        func start(_ feature: String, _ parameters: [String: ParameterValue]) throws -> any FlowCoordinator {
            let made = try registry.feature(named: feature).make(in: session.environment, parameters: parameters)
            let flow = try #require(made as? any FlowFeature)
            let coordinator = flow.makeCoordinator(navigation: navigation)
            coordinator.delegate = outcome
            coordinator.start()
            return coordinator
        }

        func makeFeature(_ feature: String, _ parameters: [String: ParameterValue]) throws -> any Feature {
            try registry.feature(named: feature).make(in: session.environment, parameters: parameters)
        }

        func typeAndNext(_ text: String) throws {
            let panel = try #require(session.window.panels.first)
            try session.window.send(.edit(fieldID: "text", text: text), to: panel)
            try session.window.send(.press(buttonID: "next"), to: panel)
        }
    }

    // MARK: AutoGroupInsertion

    @Test func loadingMessageChangesTheToastText() throws {
        let harness = try FlowHarness()
        let coordinator = try harness.start(InsertionFlow.auto, ["loadingMessage": .string("Thinking hard...")])
        try harness.typeAndNext("sofa")
        #expect(harness.state == "title ^ toast(Thinking hard...)")
        harness.session.waitWhileBlocked()
        #expect(harness.outcome.outcomes.count == 1)
        withExtendedLifetime(coordinator) {}
    }

    @Test func errorToastSecondsChangesHowLongTheErrorToastStays() throws {
        let harness = try FlowHarness()
        try harness.session.environment.services.resolve(InMemoryAdvertService.self).failsPublish = { true }
        let coordinator = try harness.start(InsertionFlow.auto, ["errorToastSeconds": .double(5)])
        try harness.typeAndNext("sofa")
        harness.session.clock.advance(by: .seconds(2))
        #expect(harness.state == "title ^ toast(Could not publish advert)")
        harness.session.clock.advance(by: .milliseconds(4999))
        #expect(harness.state == "title ^ toast(Could not publish advert)")
        harness.session.clock.advance(by: .milliseconds(1))
        #expect(harness.state == "title")
        #expect(harness.outcome.outcomes.isEmpty)
        withExtendedLifetime(coordinator) {}
    }

    @Test func errorToastSecondsAcceptsAWholeNumber() throws {
        let harness = try FlowHarness()
        try harness.session.environment.services.resolve(InMemoryAdvertService.self).failsPublish = { true }
        let coordinator = try harness.start(InsertionFlow.auto, ["errorToastSeconds": .int(1)])
        try harness.typeAndNext("sofa")
        harness.session.clock.advance(by: .seconds(2))
        #expect(harness.session.waitWhileBlocked() == .seconds(1))
        #expect(harness.state == "title")
        withExtendedLifetime(coordinator) {}
    }

    @Test func autoDefaultsAreTheSeedsMessageAndTwoSeconds() throws {
        let spec = try BuiltInModules.registry().feature(named: InsertionFlow.auto).parameters
        #expect(spec.map(\.name) == ["loadingMessage", "errorToastSeconds"])
        #expect(spec.map(\.defaultValue) == [.string("Autoselecting group..."), .double(2)])
    }

    @Test func autoRejectsUnknownAndMistypedParameters() throws {
        let harness = try FlowHarness()
        #expect(throws: ParameterError.unknown(feature: InsertionFlow.auto, name: "delay",
                                               known: ["loadingMessage", "errorToastSeconds"])) {
            try harness.makeFeature(InsertionFlow.auto, ["delay": .double(1)])
        }
        #expect(throws: ParameterError.wrongType(feature: InsertionFlow.auto, name: "loadingMessage",
                                                 expected: .string, got: .int)) {
            try harness.makeFeature(InsertionFlow.auto, ["loadingMessage": .int(3)])
        }
    }

    @Test func autoParametersReachTheAppThroughTheSlotAssignment() throws {
        let app = try MarketplaceDriver(flow: InsertionFlow.auto, parameters: ["loadingMessage": .string("Hmm...")])
        try app.startInsertion()
        try app.enterTitle("Racing car")
        #expect(app.state == "adverts > title ^ toast(Hmm...)")
    }

    // MARK: AlternatingInsertion

    @Test func customFlowsOrderStartsWithTheFirstNamedFlow() throws {
        let harness = try FlowHarness()
        let feature = try #require(
            try harness.makeFeature(InsertionFlow.alternating, ["flows": .string("AutoGroupInsertion,ManualGroupInsertion")])
                as? any FlowFeature)
        var states: [String] = []
        for _ in 0..<3 {
            let navigation = harness.session.window.makeNavigation()
            harness.session.window.setRoot(navigation)
            let coordinator = feature.makeCoordinator(navigation: navigation)
            defer { withExtendedLifetime(coordinator) {} }
            coordinator.start()
            states.append(harness.state)
        }
        #expect(states == ["title", "groups", "title"])
    }

    @Test(arguments: ["", " , ", "AlternatingInsertion", "ManualGroupInsertion,AlternatingInsertion"])
    func emptyOrSelfReferencingFlowsAreAnError(flows: String) throws {
        let harness = try FlowHarness()
        let error = #expect(throws: (any Error).self) {
            try harness.makeFeature(InsertionFlow.alternating, ["flows": .string(flows)])
        }
        let message = error.map { String(describing: $0) } ?? ""
        #expect(message.contains("AlternatingInsertion needs at least one other insertion feature"))
    }

    @Test func flowsNamingAnUnknownFeatureOrOneOfAnotherRoleAreAnError() throws {
        let harness = try FlowHarness()
        let unknown = #expect(throws: RegistryError.self) {
            try harness.makeFeature(InsertionFlow.alternating, ["flows": .string("ManualGroupInsertion,Telepathy")])
        }
        if case .unknownFeature(let name, _)? = unknown {
            #expect(name == "Telepathy")
        } else {
            Issue.record("expected unknownFeature, got \(String(describing: unknown))")
        }
        let wrongRole = #expect(throws: RegistryError.self) {
            try harness.makeFeature(InsertionFlow.alternating, ["flows": .string("AdvertList")])
        }
        if case .wrongRole(let feature, _, _, _)? = wrongRole {
            #expect(feature == "AdvertList")
        } else {
            Issue.record("expected wrongRole, got \(String(describing: wrongRole))")
        }
    }

    @Test func badFlowsInTheSlotAssignmentFailTheSession() throws {
        #expect(throws: (any Error).self) {
            try MarketplaceDriver(flow: InsertionFlow.alternating, parameters: ["flows": .string("AlternatingInsertion")])
        }
    }
}
