import Foundation
import Calculator
import Testing

/// Adding the two terms.
@Suite struct SumInteractorTests {
    private func sum(_ left: String?, _ right: String?) -> (SumTerms, Int?) {
        let interactor = SumInteractor()
        if let left { interactor.update(left: left) }
        if let right { interactor.update(right: right) }
        return (interactor.terms, interactor.sum)
    }

    @Test func startsWithNoTermsAndSumZero() {
        let interactor = SumInteractor()
        #expect(interactor.terms == SumTerms())
        #expect(interactor.sum == 0)
    }

    @Test func parsesWholeNumbers() {
        #expect(sum("4", "2") == (SumTerms(left: 4, right: 2), 6))
        #expect(sum("-10", "3") == (SumTerms(left: -10, right: 3), -7))
        #expect(sum("+5", nil) == (SumTerms(left: 5), 5))
    }

    @Test func unparsableTermCountsAsZero() {
        #expect(sum("four", "2") == (SumTerms(left: nil, right: 2), 2))
        #expect(sum("4", "2.5") == (SumTerms(left: 4, right: nil), 4))
        #expect(sum(" 4", "") == (SumTerms(), 0))
    }

    @Test func laterTextReplacesATerm() {
        let interactor = SumInteractor()
        interactor.update(left: "4")
        interactor.update(left: "40")
        interactor.update(right: "2")
        #expect(interactor.sum == 42)
        interactor.update(left: "x")
        #expect(interactor.terms.left == nil)
        #expect(interactor.sum == 2)
    }

    @Test func overflowGivesNoSum() {
        #expect(sum(String(Int.max), "1").1 == nil)
        #expect(sum(String(Int.min), "-1").1 == nil)
        #expect(sum(String(Int.max), "0").1 == Int.max)
        #expect(sum(String(Int.max), String(Int.min)).1 == -1)
    }
}

/// The sum screen's view data.
@Suite struct SumFormatterTests {
    @Test func spellsTheSumOut() {
        #expect(SumFormatter.prepare(terms: SumTerms(left: 4, right: 2), sum: 6)
            == SumViewData(left: "4", right: "2", result: "six"))
    }

    @Test func initialStateIsZeroWithEmptyTerms() {
        #expect(SumFormatter.prepare(terms: SumTerms(), sum: 0) == SumViewData(left: "", right: "", result: "zero"))
    }

    @Test func termsAreEchoedAndMissingTermsAreEmpty() {
        let viewData = SumFormatter.prepare(terms: SumTerms(left: -3, right: nil), sum: -3)
        #expect(viewData.left == "-3")
        #expect(viewData.right == "")
    }

    @Test func largerNumbersAndNegativesInWords() {
        #expect(SumFormatter.spellOut(42) == "forty-two")
        #expect(SumFormatter.spellOut(100) == "one hundred")
        #expect(SumFormatter.spellOut(-3) == "minus three")
    }

    @Test func noSumSaysItIsTooLarge() {
        let viewData = SumFormatter.prepare(terms: SumTerms(left: Int.max, right: 1), sum: nil)
        #expect(viewData == SumViewData(left: String(Int.max), right: "1", result: "too large"))
    }
}

/// Primality by 6k ± 1 trial division.
@Suite struct PrimeInteractorTests {
    @Test(arguments: [Int.min, -7, -1, 0, 1])
    func numbersUpToOneAreNotPrime(_ n: Int) {
        #expect(!PrimeInteractor.isPrime(n))
    }

    @Test(arguments: [2, 3, 5, 7, 11, 13, 29, 97, 7919, 1_000_000_007])
    func primes(_ n: Int) {
        #expect(PrimeInteractor.isPrime(n))
    }

    @Test(arguments: [4, 6, 8, 9, 15, 25, 35, 49, 91, 121, 1_000_000_007 * 3, 1_000_003 * 1_000_033, 1_000_003 * 1_000_003])
    func composites(_ n: Int) {
        #expect(!PrimeInteractor.isPrime(n))
    }

    @Test func agreesWithASieveUpToAThousand() {
        var sieve = [Bool](repeating: true, count: 1001)
        sieve[0] = false
        sieve[1] = false
        for i in 2...31 where sieve[i] {
            for multiple in stride(from: i * i, through: 1000, by: i) { sieve[multiple] = false }
        }
        let mismatches = (0...1000).filter { PrimeInteractor.isPrime($0) != sieve[$0] }
        #expect(mismatches.isEmpty)
    }
}

/// The prime screen's text.
@Suite struct PrimeFormatterTests {
    @Test func primeText() {
        #expect(PrimeFormatter.prepare(number: 7, isPrime: true).text == "7 is prime\n🤓")
    }

    @Test func notPrimeText() {
        #expect(PrimeFormatter.prepare(number: 8, isPrime: false).text == "8 is not prime\n😔")
    }
}

/// Sums in words say what ICU's English spell-out says, for every sum a person could reach.
@Suite struct SpelledOutSumTests {
    static func icu(_ n: Int) -> String {
        let formatter = NumberFormatter()
        formatter.numberStyle = .spellOut
        formatter.locale = Locale(identifier: "en_US")
        return formatter.string(from: NSNumber(value: n)) ?? ""
    }

    @Test func wordsAreICUsEnglishSpellOut() {
        // SplitMix64 steps: the same spread of magnitudes on every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int(bitPattern: UInt(z ^ (z >> 31)))
        }
        var samples = Array(-1_200...2_100) + [Int.max, Int.min, Int.min + 1, 1_000_000, 1_000_001, 2_000_000_000, -1_000]
        samples += (0..<2_000).map { _ in next() }
        samples += (0..<2_000).map { _ in next() % 10_000_000 }
        let differing = samples.filter { SumFormatter.spellOut($0) != Self.icu($0) }
        #expect(differing.isEmpty, "\(differing.prefix(5).map { "\($0): \(SumFormatter.spellOut($0)) vs \(Self.icu($0))" })")
    }
}
