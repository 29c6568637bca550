import RemixFormats

/// The text of a hashed attribute, as JavaScript concatenates it: inline when it is ASCII of at
/// most 15 bytes, as ids usually are, so that hashing it and keeping it in a result or a decision
/// count no references; any other text as a string. Equal when the texts are.
package enum HashText: Sendable, Equatable {
    /// ASCII of at most 15 bytes (what a small string holds, so ``string`` allocates nothing).
    case short(ShortBytes)
    case text(String)

    /// The most bytes kept inline.
    static let shortLimit = 15

    /// Any text, kept as a string.
    package init(_ text: String) {
        self = .text(text)
    }

    /// The text as a string: built when asked for, so a text that nobody reads costs nothing.
    package var string: String {
        switch self {
        case .short(let text):
            // At most 15 bytes of ASCII: the string is built in place as a small string, allocating nothing.
            return unsafe String(unsafeUninitializedCapacity: text.count) { buffer in
                unsafe text.withBytes { bytes in _ = unsafe buffer.initialize(from: bytes) }
                return text.count
            }
        case .text(let text):
            return text
        }
    }

    package static func == (left: HashText, right: HashText) -> Bool {
        if case .short(let leftText) = left, case .short(let rightText) = right {
            return leftText.prefixMatches(rightText)
        }
        return left.string == right.string
    }
}
