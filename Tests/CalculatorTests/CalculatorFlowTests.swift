import Calculator
import RemixBuiltIns
import RemixHost
import RemixKit
import Testing

/// A running Calculator session and the user's actions on it.
final class CalculatorDriver {
    let events = EventRecorder()
    let session: AppSession
    private(set) var transitions: [NavigationTransition] = []

    /// Starts Calculator; `entry` fills the `entry` slot (nil: its default, the two fields).
    init(entry: String? = nil) throws {
        let chooser = entry.map { FixedSlotChooser(fillers: [CalculatorModule.entrySlot: $0]) }
        session = try AppSession(app: "calculator", registry: BuiltInModules.registry(), events: events, chooser: chooser)
        session.window.addTransitionObserver { [unowned self] in self.transitions.append($0) }
        session.start()
    }

    var window: Window { session.window }
    var state: String { window.state.description }

    var front: Panel {
        get throws { try #require(window.panels.last) }
    }

    func type(_ text: String, into field: String) throws {
        try window.send(.edit(fieldID: field, text: text), to: front)
    }

    func press(_ button: String) throws {
        try window.send(.press(buttonID: button), to: front)
    }
}

/// Calculator end to end: type terms, see the sum in words, analyse it, dismiss the verdict.
@Suite struct CalculatorFlowTests {
    @Test func startsOnTheSumScreenShowingZero() throws {
        let app = try CalculatorDriver()
        #expect(app.state == "sum")
        let view = try #require(app.front.view as? HeadlessSumView)
        #expect(view.viewData == SumViewData(left: "", right: "", result: "zero"))
        let content = try app.front.content
        #expect(content.body == ["zero"])
        #expect(content.fields.map(\.id) == ["left", "right"])
        #expect(content.fields.map(\.purpose) == [.number, .number])
        #expect(content.buttons.map(\.id) == ["analyse"])
        #expect(content.buttons.map(\.role) == [.primary])
        #expect(!content.isBusy)
    }

    @Test func typingTermsUpdatesTheSumInWords() throws {
        let app = try CalculatorDriver()
        try app.type("4", into: "left")
        #expect(try app.front.content.body == ["four"])
        try app.type("2", into: "right")
        let content = try app.front.content
        #expect(content.body == ["six"])
        #expect(content.fields.map(\.value) == ["4", "2"])
    }

    @Test func unparsableTermIsShownEmptyAndCountsAsZero() throws {
        let app = try CalculatorDriver()
        try app.type("4", into: "left")
        try app.type("two", into: "right")
        let content = try app.front.content
        #expect(content.body == ["four"])
        #expect(content.fields.map(\.value) == ["4", ""])
    }

    @Test func analysePresentsTheVerdictModallyAndOKDismissesIt() throws {
        let app = try CalculatorDriver()
        try app.type("4", into: "left")
        try app.type("2", into: "right")
        try app.press("analyse")
        #expect(app.state == "sum ^ prime")
        let verdict = try app.front
        #expect(verdict.content.body == ["6 is not prime\n😔"])
        #expect(verdict.content.buttons.map(\.id) == ["ok"])
        #expect(verdict.content.buttons.map(\.role) == [.primary])
        #expect(app.events.events == [DomainEvent("sum_analysed", [EventField("sum", .int(6)),
                                                                   EventField("prime", .bool(false)),
                                                                   EventField("number", .array([.string("4"), .string("2")]))])])
        try app.press("ok")
        #expect(app.state == "sum")
        #expect(try app.front.content.body == ["six"])
        #expect(app.transitions.map(\.kind).suffix(2) == [.present, .dismiss])
    }

    @Test func aPrimeSumIsCelebrated() throws {
        let app = try CalculatorDriver()
        try app.type("3", into: "left")
        try app.type("4", into: "right")
        try app.press("analyse")
        #expect(try app.front.content.body == ["7 is prime\n🤓"])
        #expect(app.events.events.first?["prime"] == .bool(true))
        #expect(app.events.events.first?["sum"] == .int(7))
    }

    @Test func analysingTheInitialSumSaysZeroIsNotPrime() throws {
        let app = try CalculatorDriver()
        try app.press("analyse")
        #expect(app.state == "sum ^ prime")
        #expect(try app.front.content.body == ["0 is not prime\n😔"])
    }

    @Test func canAnalyseAgainAfterDismissing() throws {
        let app = try CalculatorDriver()
        try app.type("5", into: "left")
        try app.press("analyse")
        try app.press("ok")
        try app.type("6", into: "right")
        try app.press("analyse")
        #expect(app.state == "sum ^ prime")
        #expect(try app.front.content.body == ["11 is prime\n🤓"])
        #expect(app.events.names == ["sum_analysed", "sum_analysed"])
    }

    @Test func anOverflowingSumCannotBeAnalysed() throws {
        let app = try CalculatorDriver()
        try app.type(String(Int.max), into: "left")
        try app.type("1", into: "right")
        #expect(try app.front.content.body == ["too large"])
        try app.press("analyse")
        #expect(app.state == "sum")
        #expect(app.events.events.isEmpty)
    }

    @Test func thereIsNoBackOnTheSumOrPrimeScreens() throws {
        let app = try CalculatorDriver()
        #expect(throws: NavigationError.cannotGoBack) { try app.window.goBack() }
        try app.press("analyse")
        #expect(throws: NavigationError.cannotGoBack) { try app.window.goBack() }
        #expect(app.state == "sum ^ prime")
    }

    @Test func screensRefuseInputTheyDoNotHave() throws {
        let app = try CalculatorDriver()
        #expect(throws: UserInputError.self) { try app.press("ok") }
        try app.press("analyse")
        #expect(throws: UserInputError.self) { try app.type("1", into: "left") }
    }
}
