/// A value a user gave, quoted in a message by at most its first characters: a value of any length
/// (a 100 kB option) keeps the message one readable line, and its length says how much was left out.
package enum Excerpt {
    /// `text` in single quotes when it has at most `limit` characters; else its first `limit`,
    /// an ellipsis and how many characters it has: `'{"id":"xxx…', 100,007 characters`.
    package static func quoted(_ text: String, limit: Int = 60) -> String {
        guard text.count > limit else { return "'\(text)'" }
        return "'\(text.prefix(limit))…', \(CountText.grouped(text.count)) characters"
    }
}
