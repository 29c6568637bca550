import Foundation
import RemixKit

/// Reads "a + b": exactly one `+` between two whole numbers, spaces allowed around each.
public enum ExpressionInteractor {
    /// The expression's meaning.
    public static func parse(_ text: String) -> ParsedExpression {
        if text.trimmingCharacters(in: .whitespaces).isEmpty { return .empty }
        let parts = text.split(separator: "+", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let left = Int(parts[0].trimmingCharacters(in: .whitespaces)),
              let right = Int(parts[1].trimmingCharacters(in: .whitespaces)) else { return .malformed }
        let (sum, overflow) = left.addingReportingOverflow(right)
        return overflow ? .tooLarge : .sum(sum)
    }
}
