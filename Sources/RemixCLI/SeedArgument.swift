import ArgumentParser

/// A `--seed` value: a whole number from 0 to 2⁶⁴ − 1. Read with `parsing: .unconditional`, as
/// every numeric option is, so that `--seed -1` reaches this and is refused saying what a seed is,
/// rather than taken for an option and reported as a missing value.
enum SeedArgument {
    static func parse(_ text: String) throws -> UInt64 {
        guard let seed = UInt64(text) else {
            throw ValidationError("a seed is a whole number from 0 to \(UInt64.max)")
        }
        return seed
    }
}
