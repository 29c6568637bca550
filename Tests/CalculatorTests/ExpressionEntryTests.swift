import Calculator
import RemixHost
import RemixKit
import Testing

/// Calculator with ExpressionEntry in its `entry` slot: type "a + b", analyse, retry a mistake.
@Suite struct ExpressionEntryTests {
    @Test func startsOnTheExpressionScreenWithAHint() throws {
        let app = try CalculatorDriver(entry: "ExpressionEntry")
        #expect(app.state == "expression")
        let content = try app.front.content
        #expect(content.title == "Sum")
        #expect(content.body == ["Type a sum, e.g. 4 + 2"])
        #expect(content.fields.map(\.id) == ["expression"])
        #expect(content.fields.map(\.purpose) == [ExpressionEntryFeature.expressionPurpose])
        #expect(content.buttons.map(\.id) == ["analyse"])
        #expect(content.buttons.map(\.role) == [.primary])
        #expect(!content.isBusy)
    }

    @Test func aValidExpressionIsSpelledOutAndAnalysed() throws {
        let app = try CalculatorDriver(entry: "ExpressionEntry")
        try app.type("3 + 4", into: "expression")
        #expect(try app.front.content.body == ["seven"])
        #expect(try app.front.content.fields.first?.value == "3 + 4")
        try app.press("analyse")
        #expect(app.state == "expression ^ prime")
        #expect(try app.front.content.body == ["7 is prime\n🤓"])
        #expect(app.events.events == [DomainEvent("sum_analysed", [EventField("sum", .int(7)),
                                                                   EventField("prime", .bool(true)),
                                                                   EventField("expression", .string("3 + 4"))])])
        try app.press("ok")
        #expect(app.state == "expression")
        #expect(app.transitions.map(\.kind).suffix(2) == [.present, .dismiss])
    }

    @Test func aMistypedExpressionIsExplainedRecordedAndCanBeRetried() throws {
        let app = try CalculatorDriver(entry: "ExpressionEntry")
        try app.type("4 plus 2", into: "expression")
        #expect(try app.front.content.body.isEmpty)
        try app.press("analyse")
        #expect(app.state == "expression")
        #expect(try app.front.content.body == ["Type two whole numbers joined by +, e.g. 4 + 2"])
        #expect(app.events.events == [DomainEvent("expression_rejected", [EventField("reason", .string("malformed"))])])
        try app.type("4 + 2", into: "expression")
        try app.press("analyse")
        #expect(app.state == "expression ^ prime")
        #expect(app.events.names == ["expression_rejected", "sum_analysed"])
    }

    @Test func analysingNothingIsRejectedAsEmpty() throws {
        let app = try CalculatorDriver(entry: "ExpressionEntry")
        try app.press("analyse")
        #expect(app.state == "expression")
        #expect(app.events.events.first?["reason"] == .string("empty"))
    }

    @Test func anOverflowingSumIsRejectedAsTooLarge() throws {
        let app = try CalculatorDriver(entry: "ExpressionEntry")
        try app.type("\(Int.max) + 1", into: "expression")
        #expect(try app.front.content.body == ["too large"])
        try app.press("analyse")
        #expect(try app.front.content.body == ["The sum is too large; try smaller numbers"])
        #expect(app.events.events.first?["reason"] == .string("tooLarge"))
    }

    @Test func fakeViewDrivesTheCoordinatorThroughItsDelegate() throws {
        let app = try CalculatorDriver(entry: "ExpressionEntry")
        let view = try #require(app.front.view as? HeadlessExpressionView)
        view.delegate?.didChange(expression: "-3+5")
        #expect(view.viewData == ExpressionViewData(expression: "-3+5", note: "two"))
        view.delegate?.didTapAnalyse()
        #expect(app.state == "expression ^ prime")
        #expect(app.events.events.first?["sum"] == .int(2))
    }

    @Test func theScreenRefusesInputItDoesNotHave() throws {
        let app = try CalculatorDriver(entry: "ExpressionEntry")
        #expect(throws: UserInputError.self) { try app.type("1", into: "left") }
        #expect(throws: UserInputError.self) { try app.press("ok") }
    }
}

/// Reading "a + b".
@Suite struct ExpressionInteractorTests {
    @Test(arguments: [("4 + 2", ParsedExpression.sum(6)), ("4+2", .sum(6)), (" -3 +  5 ", .sum(2)), ("0 + 0", .sum(0)),
                      ("", .empty), ("   ", .empty), ("4", .malformed), ("4 + ", .malformed), ("+ 2", .malformed),
                      ("4 + 2 + 1", .malformed), ("4 - 2", .malformed), ("four + 2", .malformed), ("4.5 + 1", .malformed),
                      ("\(Int.max) + 1", .tooLarge)])
    func parses(text: String, expected: ParsedExpression) {
        #expect(ExpressionInteractor.parse(text) == expected)
    }
}

/// Calculator's default `entry` filler.
@Suite struct TwoFieldEntryTests {
    @Test func twoFieldEntryIsTodaysSumScreen() throws {
        let app = try CalculatorDriver(entry: "TwoFieldEntry")
        #expect(app.state == "sum")
        try app.type("4", into: "left")
        try app.type("2", into: "right")
        try app.press("analyse")
        #expect(app.state == "sum ^ prime")
    }
}
