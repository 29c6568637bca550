import Foundation
@testable import RemixAnalysis
@testable import RemixStatistics
import Testing

/// The statistics against gbstats 0.8.0 (and SciPy) on the vectors in Vectors/, made by
/// Vectors/generate.py. Each field's largest difference is printed; the tolerances say what is
/// achieved: `expected`, the standard error and the error messages are bit-exact or within an ulp,
/// chance to win, risks, SRM, p-values and CI bounds within about 1e-14.
@Suite struct StatisticsVectorTests {
    static var vectors: [String: Any] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Vectors/gbstats-vectors.json")
        guard let data = try? Data(contentsOf: url),
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return [:] }
        return object
    }

    static func cases(_ key: String) -> [[String: Any]] { vectors[key] as? [[String: Any]] ?? [] }

    /// A float written by generate.py as its repr string (read exactly by `Double.init`).
    static func number(_ value: Any?) throws -> Double {
        if let integer = value as? Int { return Double(integer) }
        return try #require((value as? String).flatMap(Double.init))
    }

    static func numbers(_ value: Any?) throws -> [Double] {
        try #require(value as? [Any]).map { try number($0) }
    }

    /// Largest differences seen per field: relative where the reference is above `floor`,
    /// absolute below it.
    struct Differences {
        var worst: [String: Double] = [:]
        let floor: Double

        init(floor: Double = 1e-3) { self.floor = floor }

        mutating func note(_ field: String, _ ours: Double, _ theirs: Double, floor: Double? = nil) -> Double {
            let difference = ours == theirs ? 0 : abs(ours - theirs) / max(abs(theirs), floor ?? self.floor)
            worst[field] = max(worst[field] ?? 0, difference)
            return difference
        }

        func report(_ title: String) {
            print("\(title): " + worst.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
    }

    @Test func theVectorsAreThere() {
        #expect(Self.cases("comparisons").count > 500)
        #expect(Self.vectors["gbstats"] as? String == "0.8.0")
    }

    @Test func frequentistAndBayesianResultsEqualGbstats() throws {
        var differences = Differences()
        for vector in Self.cases("comparisons") {
            let a = try #require(vector["control"] as? [Int]), b = try #require(vector["treatment"] as? [Int])
            let alpha = try Self.number(vector["alpha"])
            let control = ProportionSample(units: a[0], conversions: a[1])
            let treatment = ProportionSample(units: b[0], conversions: b[1])
            let f = FrequentistTest.twoSided(control: control, treatment: treatment, alpha: alpha)
            let y = BayesianTest.effect(control: control, treatment: treatment, alpha: alpha)
            let label = "\(a) vs \(b) at \(alpha)"
            #expect(f.error == vector["error"] as? String, "\(label)")
            #expect(y.error == vector["bayesianError"] as? String, "\(label)")
            #expect(f.expected == (try Self.number(vector["expected"])), "expected is bit-exact: \(label)")
            #expect(y.expected == (try Self.number(vector["bayesianExpected"])), "\(label)")
            let ci = try Self.numbers(vector["ci"]), risk = try Self.numbers(vector["risk"])
            // CI bounds are compared on the scale of their standard error, p-values above 1e-3
            // relatively and below it absolutely: gbstats (SciPy, Boost) and this code evaluate
            // the Student t distribution with different algorithms, which agree to ~1e-14.
            let stddev = try Self.number(vector["stddev"])
            let scale = stddev > 0 ? stddev : 1
            let fields: [(String, Double, Double, Double)] = [
                ("ci.lower/stddev", f.ci.lower / scale, ci[0] / scale, 1e-13),
                ("ci.upper/stddev", f.ci.upper / scale, ci[1] / scale, 1e-13),
                ("stddev", f.standardError, stddev, 1e-15),
                ("pValue", f.pValue, try Self.number(vector["pValue"]), 1e-13),
                ("chanceToWin", y.chanceToWin, try Self.number(vector["chanceToWin"]), 1e-14),
                ("risk.control", y.risk[0], risk[0], 1e-13), ("risk.treatment", y.risk[1], risk[1], 1e-13),
            ]
            for (field, ours, theirs, tolerance) in fields {
                let difference = differences.note(field, ours, theirs)
                #expect(difference <= tolerance, "\(field) \(ours) vs gbstats \(theirs): \(label)")
            }
        }
        differences.report("largest differences from gbstats")
    }

    /// One comparison of `control` and `treatment` against a vector: statistics' means and
    /// variances and the tests' results.
    static func check<S: TestStatistic>(_ control: S, _ treatment: S, _ vector: [String: Any], label: String,
                                        differences: inout Differences) throws {
        let alpha = try number(vector["alpha"])
        for (field, ours, theirs) in [("meanA", control.mean, vector["meanA"]), ("varianceA", control.variance, vector["varianceA"]),
                                      ("meanB", treatment.mean, vector["meanB"]), ("varianceB", treatment.variance, vector["varianceB"])] {
            let reference = try number(theirs)
            #expect(ours == reference, "\(field) \(ours) vs gbstats \(reference) is bit-exact: \(label)")
        }
        let f = FrequentistTest.twoSided(control: control, treatment: treatment, alpha: alpha)
        let y = BayesianTest.effect(control: control, treatment: treatment, alpha: alpha)
        #expect(f.error == vector["error"] as? String, "\(label)")
        #expect(y.error == vector["bayesianError"] as? String, "\(label)")
        #expect(f.expected == (try number(vector["expected"])), "expected is bit-exact: \(label)")
        #expect(y.expected == (try number(vector["bayesianExpected"])), "\(label)")
        let ci = try numbers(vector["ci"]), risk = try numbers(vector["risk"])
        let stddev = try number(vector["stddev"])
        let scale = stddev > 0 ? stddev : 1
        let fields: [(String, Double, Double, Double)] = [
            ("ci.lower/stddev", f.ci.lower / scale, ci[0] / scale, 1e-13),
            ("ci.upper/stddev", f.ci.upper / scale, ci[1] / scale, 1e-13),
            ("stddev", f.standardError, stddev, 1e-15),
            ("pValue", f.pValue, try number(vector["pValue"]), 1e-13),
            ("chanceToWin", y.chanceToWin, try number(vector["chanceToWin"]), 1e-14),
            ("risk.control", y.risk[0], risk[0], 1e-13), ("risk.treatment", y.risk[1], risk[1], 1e-13),
        ]
        for (field, ours, theirs, tolerance) in fields {
            // A CI bound near 0 on the scale of the standard error is compared absolutely.
            let difference = differences.note(field, ours, theirs, floor: field.hasPrefix("ci") ? 1 : nil)
            #expect(difference <= tolerance, "\(field) \(ours) vs gbstats \(theirs): \(label)")
        }
    }

    @Test func meanMetricsEqualGbstatsSampleMeanStatistic() throws {
        #expect(Self.cases("means").count > 300)
        var differences = Differences()
        for vector in Self.cases("means") {
            let a = try Self.numbers(vector["control"]), b = try Self.numbers(vector["treatment"])
            let control = MeanSample(units: Int(a[0]), sum: a[1], sumSquares: a[2])
            let treatment = MeanSample(units: Int(b[0]), sum: b[1], sumSquares: b[2])
            try Self.check(control, treatment, vector, label: "mean \(a) vs \(b)", differences: &differences)
        }
        differences.report("largest differences from gbstats (mean)")
    }

    /// A ratio arm [n, m_sum, m_squares, d_sum, d_squares, m_d_products] with parts "mean" or "proportion".
    static func ratio(_ arm: [Double], parts: String) -> RatioSample {
        let kinds = parts.split(separator: "/").map(String.init)
        func part(_ kind: String, _ sum: Double, _ squares: Double) -> RatioPart {
            kind == "proportion" ? RatioPart(ProportionSample(units: Int(arm[0]), conversions: Int(sum)))
                : RatioPart(MeanSample(units: Int(arm[0]), sum: sum, sumSquares: squares))
        }
        return RatioSample(units: Int(arm[0]), numerator: part(kinds[0], arm[1], arm[2]),
                           denominator: part(kinds[1], arm[3], arm[4]), sumOfProducts: arm[5])
    }

    @Test func ratioMetricsEqualGbstatsRatioStatistic() throws {
        #expect(Self.cases("ratios").count > 250)
        var differences = Differences()
        for vector in Self.cases("ratios") {
            let parts = try #require(vector["parts"] as? String)
            let a = try Self.numbers(vector["control"]), b = try Self.numbers(vector["treatment"])
            try Self.check(Self.ratio(a, parts: parts), Self.ratio(b, parts: parts), vector,
                           label: "ratio \(parts) \(a) vs \(b)", differences: &differences)
        }
        differences.report("largest differences from gbstats (ratio)")
    }

    @Test func sampleRatioEqualsGbstatsCheckSRM() throws {
        var differences = Differences(floor: 1e-12)
        for vector in Self.cases("srm") {
            let users = try #require(vector["users"] as? [Int]), weights = try Self.numbers(vector["weights"])
            let theirs = try Self.number(vector["pValue"])
            let ours = SampleRatio.pValue(observed: users, weights: weights)
            #expect(differences.note("srm", ours, theirs) <= 1e-12, "\(users) \(weights): \(ours) vs \(theirs)")
        }
        differences.report("largest SRM difference")
    }

    @Test func holmAndBenjaminiHochbergEqualTheReferences() throws {
        for vector in Self.cases("adjust") {
            let p = try Self.numbers(vector["p"])
            let holm = try Self.numbers(vector["holm"]), bh = try Self.numbers(vector["bh"])
            #expect(MultipleTesting.holm(p) == holm, "\(p)")
            for (ours, theirs) in zip(MultipleTesting.benjaminiHochberg(p), bh) {
                #expect(abs(ours - theirs) <= 1e-15 * max(1, theirs), "\(p)")
            }
        }
    }

    @Test func distributionsEqualSciPy() throws {
        let table = try #require(Self.vectors["distributions"] as? [String: [Any]])
        let distributions = try table.mapValues { try $0.map { try Self.numbers($0) } }
        var differences = Differences(floor: 1e-300)
        for row in distributions["tCDF"] ?? [] {
            #expect(differences.note("t.cdf", StudentT.cdf(row[0], row[1]), row[2]) <= 1e-14, "\(row)")
        }
        for row in distributions["tQuantile"] ?? [] {
            #expect(differences.note("t.ppf", StudentT.quantile(row[0], row[1]), row[2]) <= 1e-14, "\(row)")
        }
        for row in distributions["chi2SF"] ?? [] {
            let ours = IncompleteGamma.upper(row[1] / 2, row[0] / 2)
            #expect(differences.note("chi2.sf", ours, row[2]) <= 1e-13, "\(row)")
        }
        for row in distributions["normalQuantile"] ?? [] {
            #expect(differences.note("norm.ppf", Normal.quantile(row[0]), row[1]) <= 1e-14, "\(row)")
        }
        #expect(abs(Normal.quantile(0.975) - QuantileSample.multiplier) <= QuantileSample.multiplier.ulp)
        differences.report("largest differences from SciPy")
    }
}
