/// The ASCII bytes of JSON's grammar.
enum ASCII {
    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\"), colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ","), minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+")
    static let zero = UInt8(ascii: "0"), dot = UInt8(ascii: ".")
    static let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
    static let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
}
