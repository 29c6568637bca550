import Foundation

/// The C library's `pow`, as gbstats' Python (`x ** 2`) computes it. This module's statistics
/// call `pow` unqualified and so call this one: an optimised build would otherwise turn
/// `pow(x, 2)` into `x * x`, which can differ from the C library's result in the last bit, and
/// the statistics are bit-exact with gbstats (StatisticsVectorTests) in debug and release builds.
/// Disfavoured, so that a `@testable` importer that also sees Foundation's `pow` takes that one.
@_disfavoredOverload @inline(never) @_optimize(none)
func pow(_ base: Double, _ exponent: Double) -> Double {
    Foundation.pow(base, exponent)
}
