import Foundation
@testable import RemixAnalysis
@testable import RemixStatistics
import Testing

/// Every statistic — proportion, mean, ratio, unit- and event-level quantile, CUPED — under the test
/// settings `remix analyze` offers (sequential testing, a proper prior, absolute differences),
/// against gbstats 0.8.0 on the "settings" vectors of Vectors/gbstats-vectors.json. Tolerances as
/// in ``StatisticsVectorTests``; the largest differences are printed per kind.
@Suite struct StatisticsSettingsVectorTests {
    typealias V = StatisticsVectorTests

    static func settings(_ vector: [String: Any]) throws -> TestSettings {
        let prior = try (vector["prior"] as? [Any]).map { try V.numbers($0) }
        return TestSettings(alpha: try V.number(vector["alpha"]),
                            difference: try #require(DifferenceType(rawValue: vector["difference"] as? String ?? "")),
                            sequentialTuning: try vector["tuning"].flatMap { $0 is NSNull ? nil : try V.number($0) },
                            prior: prior.map { BayesianPrior(mean: $0[0], standardDeviation: $0[1]) })
    }

    /// A side's statistic; a quantile given with its raw values is also rebuilt from them, as
    /// GrowthBook computes its bounds, and must equal the vector's summary exactly.
    static func statistic(_ vector: [String: Any], side: String) throws -> MetricStatistic {
        let kind = try #require(vector["kind"] as? String)
        let arm = try V.numbers(vector[side == "A" ? "control" : "treatment"])
        switch kind {
        case "proportion": return .proportion(ProportionSample(units: Int(arm[0]), conversions: Int(arm[1])))
        case "mean": return .mean(MeanSample(units: Int(arm[0]), sum: arm[1], sumSquares: arm[2]))
        case "ratio": return .ratio(V.ratio(arm, parts: try #require(vector["parts"] as? String)))
        case "quantile", "clustered":
            let level = try V.number(vector["nu"])
            let events = QuantileSample(count: Int(arm[0]), nStar: Int(arm[1]), level: level, quantile: arm[2],
                                        lower: arm[3], upper: arm[4])
            if kind == "quantile" {
                if let values = vector["values\(side)"] as? [Any] {
                    let rebuilt = QuantileSample(values: try V.numbers(values), level: level)
                    #expect(rebuilt == events, "GrowthBook's bounds: \(rebuilt) vs \(events)")
                }
                return .quantile(events)
            }
            let sample = ClusteredQuantileSample(events: events, mainSum: arm[5], mainSumSquares: arm[6], denominatorSum: arm[7],
                                                 denominatorSumSquares: arm[8], mainDenominatorProducts: arm[9],
                                                 units: Int(arm[10]))
            if let units = vector["events\(side)"] as? [Any] {
                let unitEvents = try units.map { try V.numbers($0) }
                #expect(ClusteredQuantileSample(unitEvents: unitEvents, level: level) == sample, "GrowthBook's sums")
            }
            return .clusteredQuantile(sample)
        case "cuped":
            let kinds = try #require(vector["parts"] as? String).split(separator: "/").map(String.init)
            func part(_ kind: String, _ sum: Double, _ squares: Double) -> CupedPart {
                kind == "proportion" ? .proportion(ProportionSample(units: Int(arm[0]), conversions: Int(sum)))
                    : .mean(MeanSample(units: Int(arm[0]), sum: sum, sumSquares: squares))
            }
            return .regressionAdjusted(RegressionAdjustedSample(units: Int(arm[0]), post: part(kinds[0], arm[1], arm[2]),
                                                                pre: part(kinds[1], arm[3], arm[4]), sumOfProducts: arm[5]))
        default:
            Issue.record("unknown kind \(kind)")
            return .mean(MeanSample(units: 0, sum: 0, sumSquares: 0))
        }
    }

    /// Mean and variance as the tests see them before θ is fitted.
    static func moments(_ statistic: MetricStatistic) -> (Double, Double) {
        switch statistic {
        case .proportion(let s): (s.mean, s.variance)
        case .mean(let s): (s.mean, s.variance)
        case .ratio(let s): (s.mean, s.variance)
        case .quantile(let s): (s.mean, s.variance)
        case .clusteredQuantile(let s): (s.mean, s.variance)
        case .regressionAdjusted(let s): (s.mean, s.variance)
        }
    }

    @Test func everyStatisticUnderEverySettingEqualsGbstats() throws {
        let vectors = V.cases("settings")
        #expect(vectors.count > 1500)
        var differences: [String: V.Differences] = [:]
        for vector in vectors {
            let kind = try #require(vector["kind"] as? String)
            let settings = try Self.settings(vector)
            let control = try Self.statistic(vector, side: "A"), treatment = try Self.statistic(vector, side: "B")
            let label = "\(kind) \(vector["parts"] ?? "") \(vector["control"]!) vs \(vector["treatment"]!) \(settings)"
            var seen = differences[kind] ?? V.Differences()
            defer { differences[kind] = seen }
            let (meanA, varianceA) = Self.moments(control), (meanB, varianceB) = Self.moments(treatment)
            for (field, ours, key) in [("meanA", meanA, "meanA"), ("varianceA", varianceA, "varianceA"),
                                       ("meanB", meanB, "meanB"), ("varianceB", varianceB, "varianceB")] {
                let theirs = try V.number(vector[key])
                #expect(ours == theirs, "\(field) \(ours) vs gbstats \(theirs) is bit-exact: \(label)")
            }
            if case let (.regressionAdjusted(a), .regressionAdjusted(b)) = (control, treatment) {
                let theta = RegressionAdjustedSample.theta(a, b), theirs = try V.number(vector["theta"])
                #expect(theta == theirs, "theta \(theta) vs gbstats \(theirs): \(label)")
            }
            let (f, y) = ComparisonBuilder.tests(control, treatment, settings: settings)
            #expect(vector["frequentistRaises"] == nil, "\(label)")
            #expect(f.error == vector["error"] as? String, "\(label)")
            let stddev = try V.number(vector["stddev"])
            let scale = stddev > 0 ? stddev : 1
            let ci = try V.numbers(vector["ci"])
            var fields: [(String, Double, Double, Double)] = [
                ("expected", f.expected, try V.number(vector["expected"]), 1e-15),
                ("ci.lower/stddev", f.ci.lower / scale, ci[0] / scale, 1e-13),
                ("ci.upper/stddev", f.ci.upper / scale, ci[1] / scale, 1e-13),
                ("stddev", f.standardError, stddev, 1e-15),
                ("pValue", f.pValue, try V.number(vector["pValue"]), 1e-13),
            ]
            if vector["bayesianRaises"] != nil {
                // gbstats divides by a zero prior variance: an absolute effect on a zero baseline.
                // A proper prior (relative) cannot be placed there; the flat prior still applies.
                if settings.prior != nil {
                    #expect(y.error == StatisticsMessage.baselineZero, "\(label)")
                } else {
                    #expect(y.error == nil && y.chanceToWin.isFinite && y.standardDeviation > 0, "\(label)")
                }
            } else {
                #expect(y.error == vector["bayesianError"] as? String, "\(label)")
                let sigma = try V.number(vector["bayesianStddev"]), risk = try V.numbers(vector["risk"])
                let interval = try V.numbers(vector["bayesianCi"])
                let spread = sigma > 0 ? sigma : 1
                fields += [
                    ("chanceToWin", y.chanceToWin, try V.number(vector["chanceToWin"]), 1e-14),
                    ("risk.control", y.risk[0], risk[0], 1e-13), ("risk.treatment", y.risk[1], risk[1], 1e-13),
                    ("bayesian.expected", y.expected, try V.number(vector["bayesianExpected"]), 1e-15),
                    ("bayesian.stddev", y.standardDeviation, sigma, 1e-15),
                    ("bayesian.ci.lower/stddev", y.ci.lower / spread, interval[0] / spread, 1e-13),
                    ("bayesian.ci.upper/stddev", y.ci.upper / spread, interval[1] / spread, 1e-13),
                ]
            }
            for (field, ours, theirs, tolerance) in fields {
                // A bound near 0 on the scale of its standard deviation is compared absolutely.
                let difference = seen.note(field, ours, theirs, floor: field.contains("ci.") ? 1 : nil)
                #expect(difference <= tolerance, "\(field) \(ours) vs gbstats \(theirs): \(label)")
            }
        }
        for (kind, seen) in differences.sorted(by: { $0.key < $1.key }) {
            seen.report("largest differences from gbstats under test settings (\(kind))")
        }
    }
}
