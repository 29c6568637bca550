import RemixKit

/// Decides primality by trial division over 6k ± 1.
public enum PrimeInteractor {
    /// Whether `n` is prime (numbers up to 1 are not).
    public static func isPrime(_ n: Int) -> Bool {
        if n <= 1 { return false }
        if n <= 3 { return true }
        if n % 2 == 0 || n % 3 == 0 { return false }
        var i = 5
        while i <= n / i {
            if n % i == 0 || n % (i + 2) == 0 { return false }
            i += 6
        }
        return true
    }
}
