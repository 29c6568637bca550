import Foundation

/// Numbers in messages as a person writes them.
package enum NumberText {
    /// `value` to at most 12 significant digits, in its shortest form: weights of 0.3, 0.3 and 0.3
    /// add up to 0.9, not 0.8999999999999999; `1`, `0.25`, `1e+20`.
    package static func short(_ value: Double) -> String {
        value.isFinite ? String(format: "%.12g", value) : String(value)
    }
}
