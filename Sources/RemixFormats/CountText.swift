/// Counts as people read them, the same in every report: a comma between thousands.
package enum CountText {
    /// `value` with a comma between thousands: `9,228`, `10,625`, `-1,250`, `999`.
    package static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return (value < 0 ? "-" : "") + out
    }
}
