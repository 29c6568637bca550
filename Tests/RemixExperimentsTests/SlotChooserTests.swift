import Foundation
import RemixBuiltIns
import RemixExperiments
import RemixHost
import RemixKit
import RemixYAML
import Testing

/// Deciding sessions at run time: the evaluator's rules, the slot chooser, exposures, and the
/// features the chosen variations really run.
@Suite struct SlotChooserTests {
    static let june = DateParsing.parse("2026-06-01")!
    static let variations = ["{key: manual, feature: ManualGroupInsertion}",
                             "{key: auto, feature: AutoGroupInsertion, params: {loadingMessage: Hang on}}"]

    static func definition(_ key: String = "k", _ extra: String = "") throws -> ExperimentDefinition {
        try Fixture.definition(Fixture.experiment(key, variations: variations, extra), file: "\(key).yaml")
    }

    static func decide(_ d: ExperimentDefinition, _ attributes: [String: AttributeValue], at now: Date = june,
                       forced: Int? = nil) -> ExperimentDecision {
        ExperimentEvaluator().decide(d, attributes: attributes, now: now, forcedVariation: forced)
    }

    // MARK: ExperimentEvaluator

    @Test(arguments: ["u1", "u2", "user-42", "qa-tablet", "🙂"])
    func assignedByHash(id: String) throws {
        let d = try Self.definition()
        let decision = Self.decide(d, ["id": .string(id)])
        let bucket = try #require(decision.bucket)
        #expect(bucket >= 0 && bucket < 1 && bucket == GrowthBookHash.hash(seed: "k", value: id, version: 2))
        let index = bucket < 0.5 ? 0 : 1
        #expect(decision.experiment == "k" && decision.app == "marketplace" && decision.slot == "insertion")
        #expect(decision.inExperiment && decision.hashUsed && decision.variationId == index)
        #expect(decision.variation == ["manual", "auto"][index] && decision.feature == d.variations[index].feature)
        #expect(decision.parameters == d.variations[index].parameters)
        #expect(decision.hashAttribute == "id" && decision.hashValue == id)
        #expect(decision.rule == "assigned" && decision.reason == "assigned to a variation by hash")
    }

    @Test(arguments: [
        ("condition: {platform: tablet}", "condition"),
        ("coverage: 0", "coverage"),
        ("status: draft", "draft"),
        ("status: stopped", "stopped"),
        ("active: false", "inactive"),
        ("hashAttribute: deviceId", "missingHashAttribute"),
        // A filter's attribute the session lacks filters it out (a range that lets nobody in is a file error).
        ("filters: [{seed: s, ranges: [[0, 0.5]], attribute: deviceId}]", "filtered"),
    ])
    func rulesThatKeepTheSessionOut(extra: String, rule: String) throws {
        let decision = Self.decide(try Self.definition("k", extra), ["id": "u1", "platform": "phone"])
        #expect(decision.rule == rule && decision.reason.hasPrefix("not in experiment: "))
        #expect(!decision.inExperiment && !decision.hashUsed)
        #expect(decision.variationId == nil && decision.variation == nil && decision.feature == nil)
        #expect(decision.parameters.isEmpty)
    }

    @Test func namespaceRuleUsesTheNamespaceHash() throws {
        let d = try Self.definition("k", "namespace: [ns, 0, 0.3]")
        let namespace = Namespace(id: "ns", start: 0, end: 0.3)
        let outside = try Fixture.userID { !GrowthBookHash.inNamespace(hashValue: $0, namespace: namespace) }
        let inside = try Fixture.userID { GrowthBookHash.inNamespace(hashValue: $0, namespace: namespace) }
        #expect(Self.decide(d, ["id": .string(outside)]).rule == "namespace")
        #expect(Self.decide(d, ["id": .string(inside)]).rule == "assigned")
    }

    @Test func scheduleIsHalfOpenAndReported() throws {
        let d = try Self.definition("k", "schedule: {start: 2026-12-01, end: 2027-01-01}")
        let before = Self.decide(d, ["id": "u1"], at: DateParsing.parse("2026-11-30T23:59:59Z")!)
        #expect(!before.inExperiment && before.rule == "schedule" && before.variation == nil && !before.hashUsed)
        #expect(before.reason == "not in experiment: the session's time is outside its schedule")
        #expect(Self.decide(d, ["id": "u1"], at: DateParsing.parse("2026-12-01")!).rule == "assigned")
        #expect(Self.decide(d, ["id": "u1"], at: DateParsing.parse("2027-01-01")!).rule == "schedule")
    }

    @Test func qaForcingBypassesTargetingAndSchedule() throws {
        let d = try Self.definition("k", "status: draft\ncondition: {platform: tablet}\nschedule: {end: 2020-01-01}")
        let forced = Self.decide(d, ["id": "u1"], forced: 1)
        #expect(forced.inExperiment && !forced.hashUsed && forced.bucket == nil)
        #expect(forced.variationId == 1 && forced.variation == "auto" && forced.feature == "AutoGroupInsertion")
        #expect(forced.parameters == ["loadingMessage": .string("Hang on")] && forced.rule == "forcedByContext")
        #expect(!Self.decide(d, ["id": "u1"], forced: 2).inExperiment)
        let byFile = Self.decide(try Self.definition("k", "force: 0"), ["id": "u1"])
        #expect(byFile.inExperiment && !byFile.hashUsed && byFile.variation == "manual" && byFile.rule == "forcedByExperiment")
    }

    // MARK: ExperimentSlotChooser

    /// Two experiments on the insertion slot that both assign everyone; the files are named in
    /// the opposite order to the keys.
    static func overlapping(_ firstExtra: String = "", _ secondExtra: String = "") throws -> ExperimentFolder {
        let folder = try ExperimentFolder()
        try folder.write("1.yaml", Fixture.experiment("b-second", variations: variations, "force: 0\n" + secondExtra))
        try folder.write("2.yaml", Fixture.experiment("a-first", variations: variations, "force: 1\n" + firstExtra))
        return folder
    }

    static func slot() throws -> (AppDefinition, SlotDefinition) {
        let app = try BuiltInModules.registry().app(named: "marketplace")
        return (app, try #require(app.slot(named: "insertion")))
    }

    @Test func firstExperimentByKeyWinsTheOthersAreOutranked() throws {
        let (set, _) = try Self.overlapping().load()
        let chooser = ExperimentSlotChooser(experiments: set, attributes: ["id": "u1"], now: Self.june, events: EventRecorder())
        let (app, slot) = try Self.slot()
        let assignment = try #require(chooser.choose(slot: slot, app: app))
        #expect(assignment.feature == "AutoGroupInsertion" && assignment.parameters == ["loadingMessage": .string("Hang on")])
        let decisions = try #require(chooser.decisions["insertion"])
        #expect(decisions.map(\.experiment) == ["a-first", "b-second"])
        #expect(decisions[0].inExperiment && decisions[0].variation == "auto" && decisions[0].rule == "forcedByExperiment")
        #expect(!decisions[1].inExperiment && decisions[1].rule == "slotTaken")
        #expect(decisions[1].variation == nil && decisions[1].variationId == nil && decisions[1].feature == nil)
        #expect(decisions[1].reason == "not in experiment: experiment 'a-first' already fills marketplace/insertion for this session")
    }

    @Test func aLaterExperimentWinsWhenTheFirstLeavesTheSessionOut() throws {
        let (set, _) = try Self.overlapping("condition: {platform: tablet}").load()
        let chooser = ExperimentSlotChooser(experiments: set, attributes: ["id": "u1"], now: Self.june, events: EventRecorder())
        let (app, slot) = try Self.slot()
        #expect(chooser.choose(slot: slot, app: app)?.feature == "ManualGroupInsertion")
        #expect(chooser.decisions["insertion"]?.map(\.rule) == ["condition", "forcedByExperiment"])
    }

    @Test
    func outrankedDecisionIsNotHashAssigned() throws {
        let folder = try ExperimentFolder()
        try folder.write("a.yaml", Fixture.experiment("a", variations: Self.variations))
        try folder.write("b.yaml", Fixture.experiment("b", variations: Self.variations))
        let chooser = ExperimentSlotChooser(experiments: folder.load().0, attributes: ["id": "u1"], now: Self.june,
                                            events: EventRecorder())
        let (app, slot) = try Self.slot()
        _ = chooser.choose(slot: slot, app: app)
        let outranked = try #require(chooser.decisions["insertion"]?.last)
        #expect(outranked.rule == "slotTaken" && outranked.hashUsed == false)
    }

    @Test func theSlotDefaultFillsItWhenNoExperimentAssigns() throws {
        let (set, _) = try Self.overlapping("status: draft", "active: false").load()
        let (app, slot) = try Self.slot()
        let chooser = ExperimentSlotChooser(experiments: set, attributes: ["id": "u1"], now: Self.june, events: EventRecorder())
        let assignment = try #require(chooser.choose(slot: slot, app: app))
        #expect(assignment.feature == slot.defaultFeature && assignment.feature == "AlternatingInsertion")
        #expect(assignment.parameters.isEmpty)
        #expect(chooser.decisions["insertion"]?.map(\.rule) == ["draft", "inactive"])
        let none = ExperimentSlotChooser(experiments: ExperimentSet(definitions: []), attributes: [:], now: Self.june,
                                         events: EventRecorder())
        #expect(none.choose(slot: slot, app: app) == nil)
    }

    // MARK: Sessions

    static func session(_ set: ExperimentSet, platform: String = "phone", attributes: [String: AttributeValue] = ["id": "u1"],
                        forced: [String: Int] = [:]) throws -> (AppSession, EventRecorder) {
        let recorder = EventRecorder()
        let chooser = ExperimentSlotChooser(experiments: set, attributes: attributes, now: june, events: recorder,
                                            forcedVariations: forced)
        let session = try AppSession(app: "marketplace", platform: platform, registry: try BuiltInModules.registry(),
                                     events: recorder, chooser: chooser)
        session.start()
        session.waitWhileBlocked()
        return (session, recorder)
    }

    /// Sends `input` to the front panel named `screen`.
    static func send(_ input: UserInput, to screen: String, in session: AppSession) throws {
        let panel = try #require(session.window.panels.first { $0.content.name == screen },
                                 "no \(screen) in \(session.window.panels.map(\.content.name))")
        try session.window.send(input, to: panel)
    }

    @Test func exposuresAreRecordedOncePerExperimentWhenTheSlotIsFirstUsed() throws {
        let (set, _) = try Self.overlapping().load()
        let (session, recorder) = try Self.session(set)
        #expect(recorder.exposures.isEmpty)
        try Self.send(.press(buttonID: "new"), to: "adverts", in: session)
        #expect(session.window.panels.map(\.content.name) == ["title"])
        try session.window.goBack()
        session.waitWhileBlocked()
        try Self.send(.press(buttonID: "new"), to: "adverts", in: session)
        let exposures = recorder.exposures
        #expect(exposures.count == 2)
        #expect(exposures.first?.fields.map(\.name) == ["experiment", "variation", "variationId", "feature", "app", "slot",
                                                         "bucket", "hashUsed", "inExperiment"])
        func values(_ field: String) -> [EventValue?] {
            exposures.map { (exposure: DomainEvent) -> EventValue? in exposure[field] }
        }
        let experiments: [EventValue?] = [.string("a-first"), .string("b-second")]
        #expect(values("experiment") == experiments)
        let variations: [EventValue?] = [.string("auto"), .null]
        #expect(values("variation") == variations)
        let variationIds: [EventValue?] = [.int(1), .null]
        #expect(values("variationId") == variationIds)
        let features: [EventValue?] = [.string("AutoGroupInsertion"), .string("AutoGroupInsertion")]
        #expect(values("feature") == features)
        let marketplace: EventValue = .string("marketplace"), insertion: EventValue = .string("insertion")
        #expect(exposures.allSatisfy { (exposure: DomainEvent) -> Bool in exposure["app"] == marketplace && exposure["slot"] == insertion })
        let inExperiment: [EventValue?] = [.bool(true), .bool(false)]
        #expect(values("inExperiment") == inExperiment)
        let first: DomainEvent? = exposures.first
        let hashUsed: EventValue? = first?["hashUsed"], bucket: EventValue? = first?["bucket"]
        #expect(hashUsed == .bool(false) && bucket == .null)
        let started: Int = recorder.names.filter { (name: String) -> Bool in name == "insertion_started" }.count
        #expect(started == 2)
    }

    @Test func hashAssignedExposureCarriesTheBucket() throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", variations: Self.variations))
        let (session, recorder) = try Self.session(folder.load().0, attributes: ["id": "u7"])
        try Self.send(.press(buttonID: "new"), to: "adverts", in: session)
        let exposure = try #require(recorder.exposures.first)
        let bucket = try #require(GrowthBookHash.hash(seed: "k", value: "u7", version: 2))
        #expect(recorder.exposures.count == 1)
        #expect(exposure["bucket"] == .double(bucket) && exposure["hashUsed"] == .bool(true))
        #expect(exposure["variationId"] == .int(bucket < 0.5 ? 0 : 1))
        #expect(session.window.panels.map(\.content.name) == [bucket < 0.5 ? "groups" : "title"])
    }

    @Test(arguments: [(0, "groups"), (1, "title")])
    func theSessionRunsTheChosenVariation(variation: Int, firstScreen: String) throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", variations: Self.variations))
        let (session, _) = try Self.session(folder.load().0, forced: ["k": variation])
        try Self.send(.press(buttonID: "new"), to: "adverts", in: session)
        #expect(session.window.panels.map(\.content.name) == [firstScreen])
    }

    @Test func parametersReachTheFeature() throws {
        let (set, problems) = ExperimentSet.load(paths: [Fixture.shippedExperiments])
        #expect(problems.isEmpty)
        let flow = try #require(set.definition(key: "insertion-flow"))
        let message = try #require(set.definition(key: "tablet-auto-message"))
        let attributes: (String) -> [String: AttributeValue] = { ["id": .string($0), "platform": "tablet", "appVersion": "2.1"] }
        let id = try Fixture.userID { id in
            !Self.decide(flow, attributes(id)).inExperiment && Self.decide(message, attributes(id)).variation == "friendly"
        }
        let (session, recorder) = try Self.session(set, platform: "tablet", attributes: attributes(id))
        try Self.send(.press(buttonID: "new"), to: "adverts", in: session)
        try Self.send(.edit(fieldID: "text", text: "Mountain bike"), to: "title", in: session)
        try Self.send(.press(buttonID: "next"), to: "title", in: session)
        #expect(session.window.panels.map(\.content.title) == ["Finding the best group for your advert..."])
        #expect(recorder.exposures.map { $0["variation"] } == [.null, .string("friendly"), .null])
        session.waitWhileBlocked()
        #expect(recorder.names.contains("advert_published"))
    }

    @Test func editingAFileChangesTheNextSessionWithoutARebuild() throws {
        let folder = try ExperimentFolder()
        try folder.write("k.yaml", Fixture.experiment("k", variations: Self.variations, "weights: [1, 0]"))
        let first = try #require(folder.load().0.definition(key: "k"))
        #expect(Self.decide(first, ["id": "u1"]).variation == "manual")
        try folder.write("k.yaml", Fixture.experiment("k", variations: Self.variations, "weights: [0, 1]"))
        let (set, _) = folder.load()
        #expect(Self.decide(try #require(set.definition(key: "k")), ["id": "u1"]).variation == "auto")
        let (session, _) = try Self.session(set)
        try Self.send(.press(buttonID: "new"), to: "adverts", in: session)
        #expect(session.window.panels.map(\.content.name) == ["title"])
        try folder.write("k.yaml", Fixture.experiment("k", variations: Self.variations, "weights: [0, 1]\nforce: 0"))
        let (forced, _) = try Self.session(folder.load().0)
        try Self.send(.press(buttonID: "new"), to: "adverts", in: forced)
        #expect(forced.window.panels.map(\.content.name) == ["groups"])
    }
}
