import Foundation

/// The two terms of the sum, each a whole number or nothing.
public struct SumTerms: Equatable, Sendable {
    public var left: Int?
    public var right: Int?

    /// Makes terms.
    public init(left: Int? = nil, right: Int? = nil) {
        self.left = left
        self.right = right
    }
}

/// Parses terms and adds them; a term that is not a whole number counts as zero.
public final class SumInteractor {
    /// The current terms.
    public private(set) var terms = SumTerms()

    /// Makes an interactor with no terms.
    public init() {}

    /// Sets the left term from text.
    public func update(left text: String) { terms.left = Int(text) }

    /// Sets the right term from text.
    public func update(right text: String) { terms.right = Int(text) }

    /// The sum, or nil when it does not fit in an Int.
    public var sum: Int? {
        let (value, overflow) = (terms.left ?? 0).addingReportingOverflow(terms.right ?? 0)
        return overflow ? nil : value
    }
}
