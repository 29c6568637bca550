import Foundation
@testable import RemixAnalysis
import RemixCLITestSupport
@testable import RemixStatistics
import RemixTestSupport
import Testing

/// `remix plan`'s formulas against textbook closed forms, against themselves (MDE ⇄ power ⇄ units)
/// and against the sequential test's own interval.
@Suite struct PowerAnalysisTests {
    /// The textbook sample size per arm for a relative lift Δ with the delta-method variance of equal
    /// arms: n = (z₁₋α/₂ + z_power)² (σ²/μ²) (1 + (1 + Δ)²) / Δ² (the far tail left out).
    static func textbookUnits(mean: Double, variance: Double, effect: Double, alpha: Double, power: Double) -> Double {
        pow(Normal.quantile(1 - alpha / 2) + Normal.quantile(power), 2) * variance / (mean * mean)
            * (1 + pow(1 + effect, 2)) / (effect * effect)
    }

    static let cases: [(mean: Double, variance: Double, effect: Double, alpha: Double, power: Double)] = [
        (0.1, 0.09, 0.10, 0.05, 0.8), (0.75, 0.1875, 0.03, 0.05, 0.8), (0.02, 0.0196, 0.2, 0.1, 0.9),
        (17_000, 9e7, 0.05, 0.05, 0.8), (5.6, 2.84, -0.02, 0.01, 0.95),
    ]

    @Test(arguments: cases) func unitsMatchTheTextbookFormula(
        mean: Double, variance: Double, effect: Double, alpha: Double, power: Double) throws {
        let settings = PowerSettings(mean: mean, variance: variance, alpha: alpha)
        let units = try #require(PowerAnalysis.unitsNeeded(effect: effect, power: power, settings))
        let textbook = Self.textbookUnits(mean: mean, variance: variance, effect: effect, alpha: alpha, power: power)
        // The far tail adds a hair of power, so the search can stop one unit below the formula.
        #expect(units == textbook.rounded(.up) || units == textbook.rounded(.up) - 1, "\(units) vs \(textbook)")
        #expect(PowerAnalysis.power(effect: effect, units: units, settings) >= power)
        #expect(PowerAnalysis.power(effect: effect, units: units - 1, settings) < power)
    }

    @Test(arguments: cases) func theMinimumDetectableEffectHasThePowerAskedFor(
        mean: Double, variance: Double, effect: Double, alpha: Double, power: Double) throws {
        for sequential in [nil, 5000.0] {
            let settings = PowerSettings(mean: mean, variance: variance, alpha: alpha, sequentialTuning: sequential)
            let units = 50_000.0
            guard let mde = PowerAnalysis.minimumDetectableEffect(power: power, units: units, settings) else { continue }
            // The quadratic ignores the far tail, which only adds: the power at the MDE is the target
            // or a hair above it.
            let reached = PowerAnalysis.power(effect: mde, units: units, settings)
            #expect(reached >= power - 1e-12 && reached - power < 1e-5, "\(mde): \(reached)")
        }
        // Too few units for the variance: no MDE (N ≤ σ²k²/μ²).
        #expect(PowerAnalysis.minimumDetectableEffect(power: 0.8, units: 10, PowerSettings(mean: 1, variance: 100)) == nil)
    }

    @Test func aHandWorkedCase() {
        // p = 0.1, N = 10 000 per arm, Δ = +10 %: var = 0.09/10⁴/0.01 + 0.09/10⁴ · 0.11²/10⁻⁴ = 0.001989.
        let power = PowerAnalysis.power(effect: 0.1, units: 10_000, .proportion(0.1))
        let ratio = 0.1 / 0.001989.squareRoot()
        #expect(abs(power - (1 - Normal.cdf(1.959963984540054 - ratio) + Normal.cdf(-1.959963984540054 - ratio))) < 1e-12)
        #expect(abs(power - 0.6112) < 5e-4)
    }

    /// The sequential widening equals the ratio of the sequential test's half width to z · SE.
    @Test func theSequentialFactorIsTheSequentialTestsWidening() {
        let control = ProportionSample(units: 20_000, conversions: 2_000)
        let treatment = ProportionSample(units: 20_000, conversions: 2_200)
        let result = FrequentistTest.run(control: control, treatment: treatment,
                                         settings: TestSettings(sequentialTuning: 5000))
        let widening = (result.ci.upper - result.expected) / (Normal.quantile(0.975) * result.standardError)
        let factor = PowerAnalysis.sequentialFactor(units: 20_000, PowerSettings(mean: 0.1, variance: 0.09, sequentialTuning: 5000))
        #expect(abs(widening - factor) < 1e-12)
        #expect(factor > 1)
    }

    @Test func theCommandAnswersBothQuestionsAndRefusesNonsense() async throws {
        let plan = await RemixInProcess.run(["plan", "--rate", "0.1", "--effect", "0.1", "--traffic", "2000"])
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(plan.stdout.contains("to detect a lift of +10.00 %: 15,612 units per variation — 15.6 days"), "\(plan.stdout)")
        let mde = await RemixInProcess.run(["plan", "--rate", "0.1", "--days", "14", "--traffic", "2000"])
        #expect(mde.stdout.contains("in 14 days (14,000 units per variation): lifts of +10.59 % or more"), "\(mde.stdout)")
        for (arguments, message) in [(["--rate", "1.5"], "--rate must be between 0 and 1"),
                                     (["--rate", "0.1", "--mean", "3"], "give the baseline one way"),
                                     (["--mean", "3"], "--mean needs --stddev"),
                                     (["--log", "x.jsonl"], "--log needs --experiment"),
                                     (["--rate", "0.1", "--alpha", "2"], "--alpha must be between 0 and 1")] {
            let result = await RemixInProcess.run(["plan"] + arguments)
            #expect(result.status != 0 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    /// A metric's unit does not change the plan: the same coefficient of variation at any scale
    /// needs the same units (σ²μ_B² and μ⁴ overflowed at 10⁷⁸ and underflowed at 10⁻¹⁵⁰, and the
    /// search then stopped at its first guess, 2).
    @Test(arguments: [1e-150, 1e-40, 1e-5, 1e5, 1e40, 1e78, 1e150])
    func theAnswerDoesNotDependOnTheMetricsScale(scale: Double) throws {
        let unit = try #require(PowerAnalysis.unitsNeeded(effect: 0.1, power: 0.8, PowerSettings(mean: 1, variance: 1)))
        let scaled = PowerSettings(mean: scale, variance: scale * scale)
        #expect(PowerAnalysis.unitsNeeded(effect: 0.1, power: 0.8, scaled) == unit, "scale \(scale)")
        let mde = try #require(PowerAnalysis.minimumDetectableEffect(power: 0.8, units: 5000, PowerSettings(mean: 1, variance: 1)))
        let scaledMDE = try #require(PowerAnalysis.minimumDetectableEffect(power: 0.8, units: 5000, scaled))
        #expect(abs(scaledMDE - mde) < 1e-12 * mde, "scale \(scale): \(scaledMDE) vs \(mde)")
    }

    /// At the edges the plan is right or refused, never a confident wrong number.
    @Test func extremesArePlannedOrRefused() async throws {
        let cases: [(arguments: [String], status: Int32, output: String)] = [
            (["--mean", "1e78", "--stddev", "1e78", "--effect", "0.1"], 0, "1,735 units per variation"),
            (["--mean", "1", "--stddev", "1", "--effect", "0.1"], 0, "1,735 units per variation"),
            (["--mean", "1e200", "--stddev", "1e200", "--effect", "0.1"], 0, "variance (1e+200)² per unit"),
            (["--mean", "1e-300", "--stddev", "1e-300", "--effect", "0.1"], 0, "1,735 units per variation"),
            (["--rate", "1e-150", "--effect", "0.03"], 1, "no sample size up to 10¹² units per variation"),
            (["--mean", "1", "--stddev", "1e-200", "--effect", "0.1"], 0, ": 2 units per variation"),
            (["--mean", "1", "--stddev", "1e200", "--effect", "0.1"], 1, "no sample size up to 10¹² units per variation"),
            (["--rate", "0.5", "--effect", "1e-300"], 1, "detects a lift of +1e-298 %"),
            (["--rate", "0.5", "--effect", "1e300"], 1, "a rate of 0.5 cannot rise by +1e+302 %"),
            // Δ/σ_Δ tends to √N/(σ/μ): √N ≥ z₀.₉₇₅ + z₀.₈ = 2.80 at N = 8.
            (["--mean", "1", "--stddev", "1", "--effect", "1e300"], 0, "lift of +1e+302 %: 8 units per variation"),
            (["--rate", "0.999", "--effect", "0.03"], 1, "a rate of 0.999 cannot rise by +3.00 %"),
            (["--rate", "0.999", "--effect=-0.03"], 0, "units per variation"),
            (["--rate", "0.5", "--effect=-1"], 1, "--effect must be above -1"),
            (["--mean=-5", "--stddev", "1", "--effect", "0.1"], 1, "--mean must be above 0"),
            (["--mean", "0", "--stddev", "1", "--effect", "0.1"], 1, "--mean must be above 0"),
            (["--rate", "0.5", "--effect", "0.1", "--power", "0.02"], 1, "--power must be above --alpha"),
            (["--rate", "0.5", "--traffic", "1e308", "--days", "1e308"], 1, "more units than a number holds"),
            // 1 − α/2 is 1 in a double for α below 10⁻¹⁶, so z is read from the lower tail: 8.574 and
            // 37.066, and the textbook formula (z + 0.8416)² · 2.21 / 0.01 gives 19,592.3 and 317,570.7.
            (["--rate", "0.5", "--effect", "0.1", "--alpha", "1e-17"], 0, ": 19,593 units per variation"),
            (["--rate", "0.5", "--effect", "0.1", "--alpha", "1e-300"], 0, ": 317,571 units per variation"),
            (["--rate", "0.5", "--effect", "0.1", "--alpha", "5e-324"], 1, "α = 5e-324 is too small"),
            (["--rate", "0.5", "--traffic", "1e300", "--days", "1e8", "--sequential"], 0,
             "in 1e+08 days (5e+307 units per variation): lifts of +7.61e-151 % or more"),
        ]
        for (arguments, status, output) in cases {
            let result = await RemixInProcess.run(["plan"] + arguments)
            #expect(result.status == status, "\(arguments): \(result.stdout) \(result.stderr)")
            #expect((result.stdout + result.stderr).contains(output), "\(arguments): \(result.stdout) \(result.stderr)")
        }
    }
}
