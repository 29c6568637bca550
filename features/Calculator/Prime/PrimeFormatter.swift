import RemixKit

/// Turns a verdict into the prime screen's text.
public enum PrimeFormatter {
    /// "7 is prime\n🤓" or "8 is not prime\n😔".
    public static func prepare(number: Int, isPrime: Bool) -> PrimeViewData {
        PrimeViewData(text: isPrime ? "\(number) is prime\n🤓" : "\(number) is not prime\n😔")
    }
}
