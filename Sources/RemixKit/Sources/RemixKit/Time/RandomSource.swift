/// A seeded, reproducible random number generator (SplitMix64). The same seed gives the same
/// sequence on every platform, which keeps simulations byte-identical.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Makes a generator from a seed.
    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z &>> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z &>> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z &>> 31)
    }
}

/// The session's source of randomness, shared by reference among its features.
public final class RandomSource {
    /// The underlying generator.
    public var generator: SeededGenerator {
        get { state }
        set { state = newValue }
    }
    /// The generator, private so that the compiler sees every access and checks their exclusive
    /// access when compiling, not at every draw.
    private var state: SeededGenerator

    /// Makes a source from a seed.
    public init(seed: UInt64) {
        state = SeededGenerator(seed: seed)
    }

    /// A uniformly distributed number in `0..<1`.
    public func unit() -> Double {
        Double(state.next() >> 11) * 0x1.0p-53
    }

    /// A uniformly distributed integer in `range`.
    public func int(in range: Range<Int>) -> Int {
        Int.random(in: range, using: &state)
    }

    /// A reproducible identifier in UUID format (version 4 layout).
    public func identifier() -> String {
        // Version 4 and the RFC 4122 variant, as a random UUID has them.
        let high = state.next() & 0xFFFF_FFFF_FFFF_0FFF | 0x0000_0000_0000_4000
        let low = state.next() & 0x3FFF_FFFF_FFFF_FFFF | 0x8000_0000_0000_0000
        // 8-4-4-4-12 upper-case hex digits.
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for nibble in 0..<32 {
            if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 { text.append(UInt8(ascii: "-")) }
            let word = nibble < 16 ? high : low
            let digit = UInt8(truncatingIfNeeded: word >> UInt64(60 - (nibble % 16) * 4)) & 0xF
            text.append(digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "A") + digit - 10)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
