import Foundation

/// The standard normal distribution, computed as SciPy does (`ndtr`, `log_ndtr`, and
/// `truncnorm`'s log-mass cases), so results agree with gbstats to rounding.
package enum Normal {
    /// ln √(2π), rounded as SciPy rounds it.
    package static let logSqrtTwoPi = log((2 * Double.pi).squareRoot())

    /// P(Z ≤ x).
    package static func cdf(_ x: Double) -> Double {
        let scaled = x * 0.5.squareRoot()
        let magnitude = abs(scaled)
        if magnitude < 0.5.squareRoot() { return 0.5 + 0.5 * erf(scaled) }
        let tail = 0.5 * erfc(magnitude)
        return scaled > 0 ? 1 - tail : tail
    }

    /// log P(Z ≤ x), accurate far into both tails.
    package static func logCDF(_ x: Double) -> Double {
        if x > 6 { return -cdf(-x) }
        if x > -20 { return log(cdf(x)) }
        // Asymptotic series of the Mills ratio, term by term as SciPy sums it.
        let logLHS = -0.5 * x * x - log(-x) - 0.5 * log(2 * Double.pi)
        var lastTotal = 0.0, rightHandSide = 1.0, numerator = 1.0, denominatorFactor = 1.0
        let denominatorStep = 1 / (x * x)
        var sign = 1.0, i = 0.0
        while abs(lastTotal - rightHandSide) > .ulpOfOne {
            i += 1
            lastTotal = rightHandSide
            sign = -sign
            denominatorFactor *= denominatorStep
            numerator *= 2 * i - 1
            rightHandSide += sign * numerator * denominatorFactor
        }
        return logLHS + log(rightHandSide)
    }

    /// The x with P(Z ≤ x) = p, for 0 < p < 1 (SciPy's `ndtri` to rounding): a starting point
    /// refined by Halley steps on the tail nearer x, where the CDF is accurate.
    package static func quantile(_ p: Double) -> Double {
        guard p > 0 else { return -.infinity }
        guard p < 1 else { return .infinity }
        if p > 0.5 { return -lowerQuantile(1 - p) }
        return lowerQuantile(p)
    }

    private static func lowerQuantile(_ p: Double) -> Double {
        var x = -NormalQuantile.upper(p)
        for _ in 0..<3 where x != 0 {
            let u = (cdf(x) - p) * (2 * Double.pi).squareRoot() * exp(x * x / 2)
            x -= u / (1 + x * u / 2)
        }
        return x
    }

    /// log φ(x).
    package static func logPDF(_ x: Double) -> Double { -(x * x) / 2 - logSqrtTwoPi }

    /// log P(a ≤ Z ≤ b) for the half-infinite intervals the risk needs.
    private static func logMass(_ a: Double, _ b: Double) -> Double {
        if b <= 0 { return a == -.infinity ? logCDF(b) : log(cdf(b) - cdf(a)) }
        if a > 0 { return b == .infinity ? logCDF(-a) : log(cdf(-a) - cdf(-b)) }
        return log1p(-cdf(a) - cdf(-b))
    }

    /// The mean of N(mu, sigma²) truncated to [lower, upper] (either may be infinite).
    package static func truncatedMean(mu: Double, sigma: Double, lower: Double, upper: Double) -> Double {
        let a = (lower - mu) / sigma, b = (upper - mu) / sigma
        let mass = logMass(a, b)
        let densityA = a.isFinite ? exp(logPDF(a) - mass) : 0
        let densityB = b.isFinite ? exp(logPDF(b) - mass) : 0
        return (densityA - densityB) * sigma + mu
    }
}

/// Student's t distribution with real degrees of freedom, through the regularized incomplete
/// beta function — not a normal approximation.
package enum StudentT {
    /// P(T > t) for t ≥ 0.
    package static func upperTail(_ t: Double, _ dof: Double) -> Double {
        if t == 0 { return 0.5 }
        if t.isInfinite { return 0 }
        // With many degrees of freedom x is within a hair of 1, where the continued fraction
        // cancels digits away; integrate the density instead (it is smooth and light-tailed).
        if dof >= 200, t > 0.5 { return TailIntegral.upperTail(t, dof) }
        let t2 = t * t
        let a = dof / 2
        // I_x(a, 1/2) with x = dof / (dof + t²), 1 − x = t² / (dof + t²).
        let x = dof / (dof + t2), oneMinusX = t2 / (dof + t2)
        let logX = -log1p(t2 / dof), logOneMinusX = log(oneMinusX)
        return 0.5 * IncompleteBeta.regularized(a: a, b: 0.5, x: x, oneMinusX: oneMinusX, logX: logX,
                                                logOneMinusX: logOneMinusX)
    }

    /// P(T ≤ t).
    package static func cdf(_ t: Double, _ dof: Double) -> Double {
        let tail = upperTail(abs(t), dof)
        return t > 0 ? 1 - tail : tail
    }

    /// The density at t.
    package static func pdf(_ t: Double, _ dof: Double) -> Double {
        exp(IncompleteBeta.logGammaRatio(dof / 2) - 0.5 * log(dof * Double.pi) - (dof + 1) / 2 * log1p(t * t / dof))
    }

    /// The t with P(T ≤ t) = p, for 0.5 ≤ p < 1 (the quantiles a two-sided interval needs), by
    /// safeguarded Newton steps on the upper tail.
    package static func quantile(_ p: Double, _ dof: Double) -> Double {
        let target = 1 - p
        guard target > 0 else { return .infinity }
        guard target < 0.5 else { return 0 }
        var lower = 0.0, upper = 1.0
        while upperTail(upper, dof) > target { lower = upper; upper *= 2 }
        var t = min(max(NormalQuantile.upper(target) , lower), upper)
        for _ in 0..<100 {
            let difference = upperTail(t, dof) - target
            if difference > 0 { lower = t } else { upper = t }
            var next = t + difference / pdf(t, dof)
            if !(next > lower && next < upper) { next = (lower + upper) / 2 }
            if abs(next - t) <= 2 * .ulpOfOne * abs(t) { return next }
            t = next
        }
        return t
    }
}

/// ∫ₜ^∞ of the t density by composite Gauss–Legendre quadrature on panels of width ½, until
/// the panels stop contributing: full relative precision where the incomplete beta loses it.
package enum TailIntegral {
    package static let order = 20
    /// Nodes and weights on [-1, 1], by Newton's method on the Legendre polynomial.
    package static let rule: [(node: Double, weight: Double)] = {
        var rule: [(node: Double, weight: Double)] = []
        let n = Double(order)
        for i in 1...order / 2 {
            var z = cos(Double.pi * (Double(i) - 0.25) / (n + 0.5))
            var derivative = 0.0
            for _ in 0..<100 {
                var p1 = 1.0, p2 = 0.0
                for j in 1...order {
                    let p3 = p2
                    p2 = p1
                    p1 = ((2 * Double(j) - 1) * z * p2 - (Double(j) - 1) * p3) / Double(j)
                }
                derivative = n * (z * p1 - p2) / (z * z - 1)
                let previous = z
                z = previous - p1 / derivative
                if abs(z - previous) <= 1e-16 { break }
            }
            let weight = 2 / ((1 - z * z) * derivative * derivative)
            rule.append((z, weight))
            rule.append((-z, weight))
        }
        return rule
    }()

    package static func upperTail(_ t: Double, _ dof: Double) -> Double {
        let logScale = IncompleteBeta.logGammaRatio(dof / 2) - 0.5 * log(dof * Double.pi)
        let exponent = -(dof + 1) / 2
        let halfWidth = 0.25
        var total = 0.0
        var start = t
        for _ in 0..<400 {
            let middle = start + halfWidth
            var panel = 0.0
            for (node, weight) in rule {
                let x = middle + halfWidth * node
                panel += weight * exp(logScale + exponent * log1p(x * x / dof))
            }
            panel *= halfWidth
            total += panel
            if panel <= total * 1e-18 { break }
            start += 2 * halfWidth
        }
        return total
    }
}

/// A starting point for quantiles: the standard normal z with P(Z > z) = q (Acklam's rational
/// approximation, about 1e-9 relative), refined by the callers.
package enum NormalQuantile {
    package static func upper(_ q: Double) -> Double {
        let p = 1 - q
        let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02, 1.383577518672690e+02,
                 -3.066479806614716e+01, 2.506628277459239e+00]
        let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01,
                 -1.328068155288572e+01]
        let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00, -2.549732539343734e+00,
                 4.374664141464968e+00, 2.938163982698783e+00]
        let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00]
        let low = 0.02425
        if p < low || p > 1 - low {
            let s = sqrt(-2 * log(p < low ? p : q))
            let value = (((((c[0] * s + c[1]) * s + c[2]) * s + c[3]) * s + c[4]) * s + c[5])
                / ((((d[0] * s + d[1]) * s + d[2]) * s + d[3]) * s + 1)
            return p < low ? value : -value
        }
        let r = p - 0.5, s = r * r
        return (((((a[0] * s + a[1]) * s + a[2]) * s + a[3]) * s + a[4]) * s + a[5]) * r
            / (((((b[0] * s + b[1]) * s + b[2]) * s + b[3]) * s + b[4]) * s + 1)
    }
}

/// The regularized incomplete beta function I_x(a, b) by Lentz's continued fraction, with the
/// prefactor computed from logarithms the caller gives accurately.
package enum IncompleteBeta {
    package static let logSqrtPi = 0.572_364_942_924_700_087_07

    package static func regularized(a: Double, b: Double, x: Double, oneMinusX: Double, logX: Double,
                            logOneMinusX: Double) -> Double {
        if x <= 0 { return 0 }
        if oneMinusX <= 0 { return 1 }
        let logBeta = b == 0.5 ? logSqrtPi - logGammaRatio(a) : lgamma(a) + lgamma(b) - lgamma(a + b)
        let logPrefix = a * logX + b * logOneMinusX - logBeta
        if x < (a + 1) / (a + b + 2) {
            return exp(logPrefix) * continuedFraction(a: a, b: b, x: x) / a
        }
        return 1 - exp(logPrefix) * continuedFraction(a: b, b: a, x: oneMinusX) / b
    }

    /// ln(Γ(a + ½) / Γ(a)) without the cancellation of two large lgamma values.
    package static func logGammaRatio(_ a: Double) -> Double {
        var shift = 0.0
        var z = a
        while z < 16 {
            shift += log(z / (z + 0.5))
            z += 1
        }
        let inverse = 1 / z, inverse2 = inverse * inverse
        let series = inverse * (-1.0 / 8 + inverse2 * (1.0 / 192 + inverse2 * (-1.0 / 640 + inverse2
            * (17.0 / 14336 + inverse2 * (-31.0 / 18432)))))
        return 0.5 * log(z) + series + shift
    }

    private static func continuedFraction(a: Double, b: Double, x: Double) -> Double {
        let tiny = 1e-300
        let qab = a + b, qap = a + 1, qam = a - 1
        var c = 1.0
        var d = 1 - qab * x / qap
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        var m = 1.0
        while m < 100_000 {
            let m2 = 2 * m
            var aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            if abs(d) < tiny { d = tiny }
            c = 1 + aa / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) <= .ulpOfOne { break }
            m += 1
        }
        return h
    }
}

/// The regularized upper incomplete gamma function Q(s, x), for χ² tails.
package enum IncompleteGamma {
    package static func upper(_ s: Double, _ x: Double) -> Double {
        if x <= 0 { return 1 }
        if x.isInfinite { return 0 }
        let logPrefix = -x + s * log(x) - lgamma(s)
        if x < s + 1 {
            var term = 1 / s, sum = term, n = s
            while abs(term) > abs(sum) * .ulpOfOne {
                n += 1
                term *= x / n
                sum += term
            }
            return 1 - sum * exp(logPrefix)
        }
        let tiny = 1e-300
        var b = x + 1 - s, c = 1 / tiny, d = 1 / b, h = d
        var i = 1.0
        while i < 100_000 {
            let an = -i * (i - s)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) <= .ulpOfOne { break }
            i += 1
        }
        return exp(logPrefix) * h
    }
}
