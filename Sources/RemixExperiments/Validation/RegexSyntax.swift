/// Says, for a pattern that does not compile, what is most likely wrong with it.
enum RegexSyntax {
    /// A short reason, such as "a '(' is never closed".
    static func problem(in pattern: String) -> String {
        let scalars = Array(pattern.unicodeScalars)
        var open = 0
        var inClass = false
        /// What the last token was: something a quantifier can repeat, a quantifier, or neither.
        enum Last { case atom, quantifier, none }
        var last = Last.none
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            if scalar == "\\" {
                guard index < scalars.count else { return "it ends with a lone backslash" }
                index += 1
                if !inClass { last = .atom }
                continue
            }
            if inClass {
                if scalar == "]" { inClass = false }
                continue
            }
            switch scalar {
            case "[":
                inClass = true
                last = .atom
            case "(":
                open += 1
                last = .none
                // `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`: the `?` opens the group.
                if index < scalars.count, scalars[index] == "?" { index += 1 }
            case ")":
                guard open > 0 else { return "a ')' has no matching '('" }
                open -= 1
                last = .atom
            case "|":
                last = .none
            case "*", "+", "?":
                if scalar == "?", last == .quantifier {
                    last = .none  // lazy: `a*?`
                } else if last != .atom {
                    return "'\(scalar)' has nothing before it to repeat"
                } else {
                    last = .quantifier
                }
            default:
                last = .atom
            }
        }
        if inClass { return "a '[' is never closed" }
        if open > 0 { return open == 1 ? "a '(' is never closed" : "\(open) '(' are never closed" }
        return "check its brackets, parentheses, quantifiers and escapes"
    }
}
