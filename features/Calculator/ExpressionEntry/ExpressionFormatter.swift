import Foundation
import RemixKit

/// Turns an expression into expression view data.
public enum ExpressionFormatter {
    /// While typing: the sum in words when valid, a hint when empty, nothing while incomplete.
    public static func prepare(expression: String, parsed: ParsedExpression) -> ExpressionViewData {
        switch parsed {
        case .sum(let sum): ExpressionViewData(expression: expression, note: SumFormatter.spellOut(sum))
        case .empty: ExpressionViewData(expression: expression, note: "Type a sum, e.g. 4 + 2")
        case .malformed: ExpressionViewData(expression: expression, note: "")
        case .tooLarge: ExpressionViewData(expression: expression, note: "too large")
        }
    }

    /// After "Analyse" on an expression that is not a sum: what to type instead.
    public static func prepareRejection(expression: String, parsed: ParsedExpression) -> ExpressionViewData {
        let note = parsed == .tooLarge
            ? "The sum is too large; try smaller numbers"
            : "Type two whole numbers joined by +, e.g. 4 + 2"
        return ExpressionViewData(expression: expression, note: note)
    }
}
