import RemixKit
import RemixYAML

/// Hash ranges and hash versions as experiment files (`filters`) and slot rules files (`range`,
/// `hashVersion`, `filters`) write them. GrowthBook lets a session in when its hash falls in
/// [start, end), so a range that is not a number, empty, inverted or outside [0, 1] lets nobody in,
/// and a hash version it does not have hashes nobody: each is an error where it is written.
enum HashFields {
    /// The range `value` writes as `[start, end]` with 0 ≤ start < end ≤ 1; `shape` is the error
    /// for anything but two numbers.
    static func range(_ value: YAMLValue, shape: String) throws(Diagnostic) -> BucketRange {
        let bounds = try value.sequence("a range")
        guard bounds.count == 2 else { throw Diagnostic(value.location, .error, shape) }
        let start = try bounds[0].double("a range start"), end = try bounds[1].double("a range end")
        guard 0 <= start, start < end, end <= 1 else {
            throw Diagnostic(value.location, .error, "a range needs 0 ≤ start < end ≤ 1, not [\(number(start)), \(number(end))]")
        }
        return BucketRange(start: start, end: end)
    }

    /// A hash version GrowthBook has: 1 or 2.
    static func version(_ value: YAMLValue) throws(Diagnostic) -> Int {
        let number = try value.int("hashVersion")
        guard [1, 2].contains(number) else { throw Diagnostic(value.location, .error, "hashVersion must be 1 or 2, not \(number)") }
        return number
    }

    /// `value` as written in a message: whole numbers without a fraction, `nan` and `inf` as such.
    private static func number(_ value: Double) -> String {
        value.isFinite && value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
