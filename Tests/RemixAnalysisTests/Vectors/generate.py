#!/usr/bin/env python3
"""Writes gbstats-vectors.json: reference results from GrowthBook's stats engine (gbstats, which
uses SciPy) for the Swift statistics in Sources/RemixStatistics, read by
StatisticsVectorTests.swift: proportion, mean (SampleMeanStatistic) and ratio (RatioStatistic, with
mean or proportion parts) comparisons, ordinary and degenerate; and, under "settings", every statistic
(also QuantileStatistic, QuantileClusteredStatistic and RegressionAdjustedStatistic) under the test
settings `remix analyze` offers: SequentialTwoSidedTTest (--sequential, --sequential-tuning), a proper
prior in EffectBayesianABTest (--prior-mean, --prior-stddev) and absolute differences (--difference).

A quantile's confidence bounds are not gbstats' own: GrowthBook's SQL computes them (the sample
quantiles at nu -/+ z sqrt(nu (1 - nu) / n*) over a grid of n*, picking the largest n* below n);
growthbook_quantile() below restates that for the Swift constructor from raw values, with
PERCENTILE_CONT's (NumPy's "linear") interpolation, checked against numpy.quantile.

Regenerate (the committed file was made with gbstats 0.8.0 and SciPy 1.17.1):
    python3 -m venv /tmp/gbstats-venv && /tmp/gbstats-venv/bin/pip install gbstats==0.8.0 scipy
    /tmp/gbstats-venv/bin/python Tests/RemixAnalysisTests/Vectors/generate.py

Holm and Benjamini-Hochberg are not in gbstats: the Holm reference is the textbook step-down
written out below, and BH is SciPy's false_discovery_control. Every float is written as the
string of its shortest round-trip form (repr), so the Swift side reads it exactly: Foundation's
JSONSerialization on Linux does not round decimal numbers correctly.
"""
import json
import os
import random

import gbstats
import scipy
import math

import numpy
from gbstats.bayesian.tests import EffectBayesianABTest, EffectBayesianConfig, GaussianPrior
from gbstats.frequentist.tests import FrequentistConfig, SequentialConfig, SequentialTwoSidedTTest, TwoSidedTTest
from gbstats.models.statistics import (ProportionStatistic, QuantileClusteredStatistic, QuantileStatistic, RatioStatistic,
                                       RegressionAdjustedStatistic, SampleMeanStatistic, compute_theta)
from gbstats.utils import check_srm
from scipy.stats import chi2, false_discovery_control, norm, t


def proportion_cases():
    cases = [
        (1000, 100, 1000, 120), (1000, 100, 1000, 100), (50, 5, 48, 9), (2, 1, 2, 1), (3, 1, 2, 1),
        (10, 0, 10, 3), (10, 3, 10, 0), (10, 0, 10, 0), (10, 10, 10, 5), (10, 5, 10, 10), (0, 0, 10, 5),
        (10, 5, 0, 0), (1, 1, 1, 0), (1, 0, 1, 1), (1_000_000, 1000, 1_000_000, 1100),
        (1_000_000, 900_000, 1_000_000, 900_500), (14361, 10928, 13636, 12362), (14361, 10928, 13494, 10214),
        (100, 1, 100, 2), (5000, 4999, 5000, 4998), (200, 100, 200, 140),
    ]
    rng = random.Random(20261122)
    for _ in range(260):
        n_a = int(10 ** rng.uniform(1, 6))
        n_b = max(1, int(n_a * rng.uniform(0.8, 1.25)))
        rate = 10 ** rng.uniform(-3, -0.05)
        lift = rng.uniform(-0.3, 0.3)
        k_a = min(n_a, round(n_a * rate))
        k_b = min(n_b, max(0, round(n_b * rate * (1 + lift))))
        cases.append((n_a, k_a, n_b, k_b))
    return cases


def comparison(n_a, k_a, n_b, k_b, alpha):
    a, b = ProportionStatistic(n=n_a, sum=k_a), ProportionStatistic(n=n_b, sum=k_b)
    f = TwoSidedTTest(a, b, FrequentistConfig(alpha=alpha)).compute_result()
    y = EffectBayesianABTest(a, b, EffectBayesianConfig(alpha=alpha)).compute_result()
    return {
        "control": [n_a, k_a], "treatment": [n_b, k_b], "alpha": alpha,
        "expected": float(f.expected), "ci": [float(f.ci[0]), float(f.ci[1])], "pValue": float(f.p_value),
        "stddev": float(f.uplift.stddev), "error": f.error_message,
        "chanceToWin": float(y.chance_to_win), "risk": [float(y.risk[0]), float(y.risk[1])],
        "bayesianExpected": float(y.expected), "bayesianError": y.error_message,
    }


def results(a, b, alpha):
    f = TwoSidedTTest(a, b, FrequentistConfig(alpha=alpha)).compute_result()
    y = EffectBayesianABTest(a, b, EffectBayesianConfig(alpha=alpha)).compute_result()
    return {
        "expected": float(f.expected), "ci": [float(f.ci[0]), float(f.ci[1])], "pValue": float(f.p_value),
        "stddev": float(f.uplift.stddev), "error": f.error_message,
        "chanceToWin": float(y.chance_to_win), "risk": [float(y.risk[0]), float(y.risk[1])],
        "bayesianExpected": float(y.expected), "bayesianError": y.error_message,
        "meanA": float(a.mean), "varianceA": float(a.variance), "meanB": float(b.mean), "varianceB": float(b.variance),
    }


def sums(values):
    """n, sum and sum of squares of per-unit values, summed in order as floats."""
    total, squares = 0.0, 0.0
    for v in values:
        total += v
        squares += v * v
    return [len(values), total, squares]


def mean_cases():
    """[n, sum, sum_squares] per arm: fixed degenerate cases, then per-unit samples."""
    cases = [
        ([10, 20.0, 40.0], [10, 30.0, 90.0]),  # zero variance in both
        ([10, 20.0, 50.0], [10, 30.0, 90.0]),  # zero variance in the treatment
        ([1, 5.0, 25.0], [1, 7.0, 49.0]), ([2, 3.0, 5.0], [2, 4.0, 10.0]), ([0, 0.0, 0.0], [10, 5.0, 9.0]),
        ([10, 5.0, 9.0], [0, 0.0, 0.0]), ([10, 0.0, 0.0], [10, 4.0, 6.0]), ([10, 0.0, 3.0], [10, 4.0, 6.0]),
        ([10, -3.0, 7.0], [10, 4.0, 6.0]), ([5, 1e-50, 3e-100], [5, 2e-50, 9e-100]),
        ([1000, 123456.789, 98765432.1], [1000, 130000.5, 99999999.9]),
        ([1_000_000, 2_500_000.0, 1.2e7], [1_000_000, 2_510_000.0, 1.21e7]),
    ]
    rng = random.Random(20261123)
    for case in range(150):
        n_a = int(10 ** rng.uniform(0.3, 4.2))
        n_b = max(1, int(n_a * rng.uniform(0.8, 1.25)))
        kind = case % 3
        lift = rng.uniform(-0.2, 0.2)
        def draw(n, scale):
            if kind == 0:  # durations in ms, heavy-tailed
                return [rng.lognormvariate(10, 1.2) * scale for _ in range(n)]
            if kind == 1:  # counts with many zeros
                return [float(sum(1 for _ in range(rng.randint(0, 6)) if rng.random() < 0.3 * scale)) for _ in range(n)]
            return [rng.gauss(5, 2) * scale for _ in range(n)]
        cases.append((sums(draw(n_a, 1.0)), sums(draw(n_b, 1 + lift))))
    return cases


def mean_comparison(a, b, alpha):
    stat_a = SampleMeanStatistic(n=a[0], sum=a[1], sum_squares=a[2])
    stat_b = SampleMeanStatistic(n=b[0], sum=b[1], sum_squares=b[2])
    return {"control": a, "treatment": b, "alpha": alpha, **results(stat_a, stat_b, alpha)}


def ratio_cases():
    """{parts, control, treatment}; an arm is [n, m_sum, m_squares, d_sum, d_squares, m_d_products]."""
    cases = [
        ("mean/mean", [10, 5.0, 9.0, 0.0, 0.0, 0.0], [10, 6.0, 10.0, 4.0, 6.0, 5.0]),  # zero denominator
        ("mean/mean", [1, 2.0, 4.0, 3.0, 9.0, 6.0], [1, 3.0, 9.0, 3.0, 9.0, 9.0]),  # one unit
        ("mean/mean", [0, 0.0, 0.0, 0.0, 0.0, 0.0], [5, 3.0, 3.0, 5.0, 7.0, 4.0]),
        ("mean/mean", [4, 4.0, 4.0, 8.0, 16.0, 8.0], [4, 8.0, 16.0, 8.0, 16.0, 16.0]),  # m = d / 2 exactly
        ("mean/mean", [10, 0.0, 0.0, 12.0, 20.0, 0.0], [10, 3.0, 3.0, 12.0, 20.0, 5.0]),  # zero numerator
        ("proportion/mean", [100, 30.0, 30.0, 250.0, 900.0, 120.0], [100, 40.0, 40.0, 260.0, 950.0, 150.0]),
        ("mean/proportion", [100, 250.0, 900.0, 60.0, 60.0, 230.0], [100, 260.0, 950.0, 70.0, 70.0, 250.0]),
        ("proportion/proportion", [100, 30.0, 30.0, 60.0, 60.0, 30.0], [100, 35.0, 35.0, 62.0, 62.0, 35.0]),
    ]
    rng = random.Random(20261124)
    for case in range(120):
        parts = ["mean/mean", "proportion/mean", "mean/proportion"][case % 3]
        n_a = int(10 ** rng.uniform(0.3, 4.2))
        n_b = max(1, int(n_a * rng.uniform(0.8, 1.25)))
        rate = rng.uniform(0.05, 0.6)

        def arm(n, lift):
            rows = []
            for _ in range(n):
                d = float(rng.randint(0, 8))
                m = float(sum(1 for _ in range(int(d)) if rng.random() < rate * (1 + lift)))
                if parts.startswith("proportion"):
                    m = 1.0 if m > 0 else 0.0
                if parts.endswith("proportion"):
                    d = 1.0 if d > 0 else 0.0
                rows.append((m, d))
            m_sum, m_sq = sums([r[0] for r in rows])[1:]
            d_sum, d_sq = sums([r[1] for r in rows])[1:]
            products = 0.0
            for m, d in rows:
                products += m * d
            return [n, m_sum, m_sq, d_sum, d_sq, products]
        cases.append((parts, arm(n_a, 0.0), arm(n_b, rng.uniform(-0.2, 0.2))))
    return cases


def ratio_statistic(parts, arm):
    def part(kind, total, squares):
        if kind == "proportion":
            return ProportionStatistic(n=arm[0], sum=total)
        return SampleMeanStatistic(n=arm[0], sum=total, sum_squares=squares)
    m_kind, d_kind = parts.split("/")
    return RatioStatistic(n=arm[0], m_statistic=part(m_kind, arm[1], arm[2]), d_statistic=part(d_kind, arm[3], arm[4]),
                          m_d_sum_of_products=arm[5])


def ratio_comparison(parts, a, b, alpha):
    return {"parts": parts, "control": a, "treatment": b, "alpha": alpha,
            **results(ratio_statistic(parts, a), ratio_statistic(parts, b), alpha)}


# --- Test settings: sequential testing, proper priors, absolute differences; quantiles and CUPED ---

Z_975 = 1.959963984540054  # scipy.stats.norm.ppf(0.975), the multiplier GrowthBook and gbstats use
N_STAR_VALUES = [100 * 2 ** k for k in range(20)]  # GrowthBook's grid of n* (100 ... 52 428 800)


def percentile_cont(ordered, q):
    """PERCENTILE_CONT / numpy.quantile(method="linear"), with NumPy's two-sided lerp."""
    h = (len(ordered) - 1) * q
    lo = math.floor(h)
    hi = min(lo + 1, len(ordered) - 1)
    g = h - lo
    a, b = ordered[lo], ordered[hi]
    diff = b - a
    return b - diff * (1 - g) if g >= 0.5 else a + diff * g


def growthbook_quantile(values, nu):
    """[n, n_star, quantile, lower, upper] as GrowthBook's SQL and getQuantileBoundsFromQueryResponse make them."""
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return [0, 100, 0.0, 0.0, 0.0]
    n_star = max([s for s in N_STAR_VALUES if s < n] or [N_STAR_VALUES[0]])
    se = math.sqrt(nu * (1 - nu) / n_star)
    lower_level, upper_level = max(nu - Z_975 * se, 0.00000001), min(nu + Z_975 * se, 0.99999999)
    out = [n, n_star, percentile_cont(ordered, nu), percentile_cont(ordered, lower_level),
           percentile_cont(ordered, upper_level)]
    for level, value in zip((nu, lower_level, upper_level), out[2:]):
        assert value == float(numpy.quantile(numpy.array(ordered), level)), (level, value)
    return out


def clustered_sums(units, quantile):
    """main_sum ... n_clusters of QuantileClusteredStatistic from per-unit event values: per unit, the
    count of its events at or below the quantile (main) and of all its events (denominator)."""
    main, main_sq, den, den_sq, product = 0.0, 0.0, 0.0, 0.0, 0.0
    for events in units:
        below = float(sum(1 for v in events if v <= quantile))
        count = float(len(events))
        main += below
        main_sq += below * below
        den += count
        den_sq += count * count
        product += count * below
    return [main, main_sq, den, den_sq, product, len(units)]


def make_statistic(kind, arm, nu=None, parts=None):
    """A fresh gbstats statistic (tests mutate RegressionAdjustedStatistic.theta)."""
    if kind == "proportion":
        return ProportionStatistic(n=arm[0], sum=arm[1])
    if kind == "mean":
        return SampleMeanStatistic(n=arm[0], sum=arm[1], sum_squares=arm[2])
    if kind == "ratio":
        return ratio_statistic(parts, arm)
    if kind == "quantile":
        return QuantileStatistic(n=arm[0], n_star=arm[1], nu=nu, quantile_hat=arm[2], quantile_lower=arm[3],
                                 quantile_upper=arm[4])
    if kind == "clustered":
        return QuantileClusteredStatistic(n=arm[0], n_star=arm[1], nu=nu, quantile_hat=arm[2], quantile_lower=arm[3],
                                          quantile_upper=arm[4], main_sum=arm[5], main_sum_squares=arm[6],
                                          denominator_sum=arm[7], denominator_sum_squares=arm[8],
                                          main_denominator_sum_product=arm[9], n_clusters=arm[10])
    if kind == "cuped":  # [n, post_sum, post_squares, pre_sum, pre_squares, post_pre_products]
        post_kind, pre_kind = parts.split("/")

        def part(part_kind, total, squares):
            if part_kind == "proportion":
                return ProportionStatistic(n=arm[0], sum=total)
            return SampleMeanStatistic(n=arm[0], sum=total, sum_squares=squares)
        return RegressionAdjustedStatistic(n=arm[0], post_statistic=part(post_kind, arm[1], arm[2]),
                                           pre_statistic=part(pre_kind, arm[3], arm[4]),
                                           post_pre_sum_of_products=arm[5], theta=0)
    raise ValueError(kind)


def settings_results(case, alpha, difference, tuning, prior):
    """Both tests of one case under one setting; a test gbstats raises in is recorded as raising."""
    def fresh():
        return (make_statistic(case["kind"], case["control"], case.get("nu"), case.get("parts")),
                make_statistic(case["kind"], case["treatment"], case.get("nu"), case.get("parts")))
    out = {**case, "alpha": alpha, "difference": difference, "tuning": tuning, "prior": prior}
    a, b = fresh()
    out["meanA"], out["varianceA"] = float(a.mean), float(a.variance)
    out["meanB"], out["varianceB"] = float(b.mean), float(b.variance)
    if case["kind"] == "cuped":
        out["theta"] = float(compute_theta(*fresh()))
    a, b = fresh()
    try:
        if tuning is None:
            f = TwoSidedTTest(a, b, FrequentistConfig(alpha=alpha, difference_type=difference)).compute_result()
        else:
            f = SequentialTwoSidedTTest(a, b, SequentialConfig(alpha=alpha, difference_type=difference,
                                                               sequential_tuning_parameter=tuning)).compute_result()
        out.update({"expected": float(f.expected), "ci": [float(f.ci[0]), float(f.ci[1])], "pValue": float(f.p_value),
                    "stddev": float(f.uplift.stddev), "error": f.error_message})
    except ZeroDivisionError as error:
        out["frequentistRaises"] = f"ZeroDivisionError: {error}"
    a, b = fresh()
    config = EffectBayesianConfig(alpha=alpha, difference_type=difference, prior_type="relative")
    if prior is not None:
        config = EffectBayesianConfig(alpha=alpha, difference_type=difference, prior_type="relative",
                                      prior_effect=GaussianPrior(mean=prior[0], variance=pow(prior[1], 2), proper=True))
    try:
        y = EffectBayesianABTest(a, b, config).compute_result()
        out.update({"chanceToWin": float(y.chance_to_win), "risk": [float(y.risk[0]), float(y.risk[1])],
                    "bayesianExpected": float(y.expected), "bayesianCi": [float(y.ci[0]), float(y.ci[1])],
                    "bayesianStddev": float(y.uplift.stddev), "bayesianError": y.error_message})
    except ZeroDivisionError as error:
        out["bayesianRaises"] = f"ZeroDivisionError: {error}"
    return out


def quantile_cases(rng):
    """Unit- and event-level quantiles: from raw values (kept, for the Swift constructor) and from summaries."""
    cases = []

    def unit_values(n, scale):
        return [round(rng.lognormvariate(3, 1) * scale, 2) for _ in range(n)]

    for nu in (0.5, 0.9, 0.99, 0.1):
        for n_a, n_b, lift in [(150, 160, 0.1), (40, 45, 0.0), (300, 250, -0.1), (12, 12, 0.2), (1200, 1100, 0.05)]:
            a, b = unit_values(n_a, 1.0), unit_values(n_b, 1 + lift)
            cases.append({"kind": "quantile", "nu": nu, "valuesA": a, "valuesB": b,
                          "control": growthbook_quantile(a, nu), "treatment": growthbook_quantile(b, nu)})
    same = unit_values(200, 1.0)
    cases.append({"kind": "quantile", "nu": 0.9, "valuesA": same, "valuesB": same,
                  "control": growthbook_quantile(same, 0.9), "treatment": growthbook_quantile(same, 0.9)})
    for control in ([5.0] * 150, [0.0] * 120 + unit_values(30, 1.0)):  # zero-width bounds; a zero quantile
        treatment = unit_values(150, 1.0)
        cases.append({"kind": "quantile", "nu": 0.5, "valuesA": control, "valuesB": treatment,
                      "control": growthbook_quantile(control, 0.5), "treatment": growthbook_quantile(treatment, 0.5)})
    # Summaries as GrowthBook's query returns them: large n, zero-width bounds, negative quantiles.
    for _ in range(24):
        nu = rng.choice([0.5, 0.9, 0.95, 0.99])
        def arm(scale):
            n = int(10 ** rng.uniform(2, 6.5))
            n_star = max([s for s in N_STAR_VALUES if s < n] or [100])
            q = rng.uniform(-50, 500) * scale
            half = abs(q) * rng.uniform(0.001, 0.2) + 0.1
            return [n, n_star, q, q - half * rng.uniform(0.5, 1.5), q + half * rng.uniform(0.5, 1.5)]
        cases.append({"kind": "quantile", "nu": nu, "control": arm(1.0), "treatment": arm(rng.uniform(0.8, 1.2))})
    cases += [
        {"kind": "quantile", "nu": 0.9, "control": [500, 400, 10.0, 10.0, 10.0], "treatment": [500, 400, 12.0, 11.0, 13.0]},
        {"kind": "quantile", "nu": 0.9, "control": [5000, 3200, 10.0, 10.0, 10.0], "treatment": [5000, 3200, 12.0, 11.0, 13.0]},
        {"kind": "quantile", "nu": 0.99, "control": [300, 200, 10.0, 9.0, 11.0], "treatment": [300, 200, 12.0, 11.0, 13.0]},
        {"kind": "quantile", "nu": 0.5, "control": [1, 100, 10.0, 10.0, 10.0], "treatment": [1, 100, 12.0, 12.0, 12.0]},
        {"kind": "quantile", "nu": 0.5, "control": [0, 100, 0.0, 0.0, 0.0], "treatment": [100, 100, 12.0, 11.0, 13.0]},
        {"kind": "quantile", "nu": 0.5, "control": [200, 100, 0.0, -1.0, 1.0], "treatment": [200, 100, 2.0, 1.0, 3.0]},
        {"kind": "quantile", "nu": 0.5, "control": [200, 100, -4.0, -5.0, -3.0], "treatment": [200, 100, -3.0, -4.0, -2.0]},
        {"kind": "quantile", "nu": 0.5, "control": [2000, 1600, 8.0, 7.9999, 8.0001], "treatment": [2000, 1600, 8.5, 8.4999, 8.5001]},
    ]
    # Event level: per-unit event values, then the clustered sums.
    for nu in (0.5, 0.9):
        for units_a, units_b, lift in [(100, 110, 0.1), (30, 30, 0.0), (400, 380, -0.05), (3, 3, 0.1)]:
            def events(units, scale):
                return [[round(rng.lognormvariate(2, 1) * scale, 2) for _ in range(rng.randint(0, 6))] for _ in range(units)]
            ea, eb = events(units_a, 1.0), events(units_b, 1 + lift)
            arms = []
            for units in (ea, eb):
                summary = growthbook_quantile([v for u in units for v in u], nu)
                arms.append(summary + clustered_sums(units, summary[2]))
            cases.append({"kind": "clustered", "nu": nu, "eventsA": ea, "eventsB": eb, "control": arms[0], "treatment": arms[1]})
    for _ in range(12):
        nu = rng.choice([0.5, 0.9, 0.99])
        def clustered_arm():
            clusters = int(10 ** rng.uniform(1.5, 5))
            per = rng.uniform(1, 8)
            n = int(clusters * per)
            n_star = max([s for s in N_STAR_VALUES if s < n] or [100])
            q = rng.uniform(1, 300)
            half = q * rng.uniform(0.005, 0.1)
            main = n * nu * rng.uniform(0.95, 1.05)
            return [n, n_star, q, q - half, q + half, main, main * per * rng.uniform(1.1, 2), float(n),
                    n * per * rng.uniform(1.1, 2), main * per * rng.uniform(1.05, 1.5), clusters]
        cases.append({"kind": "clustered", "nu": nu, "control": clustered_arm(), "treatment": clustered_arm()})
    cases += [
        {"kind": "clustered", "nu": 0.5, "control": [200, 100, 5.0, 4.0, 6.0, 100.0, 300.0, 200.0, 900.0, 500.0, 1],
         "treatment": [200, 100, 6.0, 5.0, 7.0, 100.0, 300.0, 200.0, 900.0, 500.0, 50]},
        {"kind": "clustered", "nu": 0.5, "control": [200, 100, 5.0, 4.0, 6.0, 100.0, 300.0, 0.0, 0.0, 0.0, 40],
         "treatment": [200, 100, 6.0, 5.0, 7.0, 100.0, 300.0, 200.0, 900.0, 500.0, 50]},
    ]
    return cases


def cuped_cases(rng):
    """[n, post_sum, post_squares, pre_sum, pre_squares, post_pre_products] per arm, post/pre kinds."""
    cases = [
        ("mean/mean", [10, 20.0, 50.0, 10.0, 10.0, 20.0], [10, 25.0, 70.0, 10.0, 10.0, 25.0]),  # constant pre: theta 0
        ("mean/mean", [1, 5.0, 25.0, 3.0, 9.0, 15.0], [1, 7.0, 49.0, 2.0, 4.0, 14.0]),  # one unit
        ("mean/mean", [0, 0.0, 0.0, 0.0, 0.0, 0.0], [10, 25.0, 70.0, 12.0, 20.0, 30.0]),
        ("mean/mean", [10, 0.0, 0.0, 12.0, 20.0, 0.0], [10, 25.0, 70.0, 12.0, 20.0, 30.0]),  # zero post baseline
        ("mean/mean", [10, 20.0, 40.0, 10.0, 20.0, 20.0], [10, 20.0, 40.0, 10.0, 20.0, 20.0]),  # equal arms, post constant
        ("mean/mean", [10, 20.0, 48.0, 10.0, 14.0, 24.0], [10, 20.0, 48.0, 10.0, 14.0, 24.0]),  # equal arms
        ("mean/mean", [10, -20.0, 48.0, 10.0, 14.0, -24.0], [10, -15.0, 40.0, 10.0, 14.0, -20.0]),  # negative baseline
        ("proportion/proportion", [100, 30.0, 30.0, 25.0, 25.0, 20.0], [100, 36.0, 36.0, 26.0, 26.0, 24.0]),
        ("proportion/mean", [100, 30.0, 30.0, 250.0, 900.0, 100.0], [100, 36.0, 36.0, 260.0, 950.0, 120.0]),
        ("mean/proportion", [100, 250.0, 900.0, 30.0, 30.0, 100.0], [100, 260.0, 950.0, 31.0, 31.0, 110.0]),
    ]
    for case in range(60):
        parts = ["mean/mean", "proportion/proportion", "proportion/mean", "mean/proportion"][case % 4]
        n_a = int(10 ** rng.uniform(0.5, 4.3))
        n_b = max(2, int(n_a * rng.uniform(0.8, 1.25)))
        rho = rng.uniform(-0.3, 0.95)

        def arm(n, lift):
            rows = []
            for _ in range(n):
                pre = rng.gauss(0, 1)
                post = rho * pre + math.sqrt(1 - rho * rho) * rng.gauss(0, 1)
                pre_v = float(pre > 0.3) if parts.endswith("proportion") else round(math.exp(1 + 0.8 * pre), 3)
                post_v = (float(post > 0.3 - lift) if parts.startswith("proportion")
                          else round(math.exp(1 + 0.8 * post) * (1 + lift), 3))
                rows.append((post_v, pre_v))
            post_sum, post_sq = sums([r[0] for r in rows])[1:]
            pre_sum, pre_sq = sums([r[1] for r in rows])[1:]
            products = 0.0
            for post_v, pre_v in rows:
                products += post_v * pre_v
            return [n, post_sum, post_sq, pre_sum, pre_sq, products]
        cases.append((parts, arm(n_a, 0.0), arm(n_b, rng.uniform(-0.2, 0.2))))
    return cases


RAW_KEYS = ("valuesA", "valuesB", "eventsA", "eventsB")
SETTINGS = [  # (alpha, difference, sequential tuning, [prior mean, prior stddev])
    (0.05, "relative", None, None), (0.05, "absolute", None, None), (0.05, "relative", 5000.0, None),
    (0.1, "absolute", 5000.0, None), (0.05, "relative", 100.0, [0.0, 0.1]), (0.05, "absolute", 1.0, [0.05, 0.3]),
    (0.1, "relative", 1e6, [-0.1, 0.01]), (0.05, "absolute", None, [0.0, 0.1]),
]


def settings_cases():
    rng = random.Random(20261125)
    base = []
    for n_a, k_a, n_b, k_b in proportion_cases()[:21] + rng.sample(proportion_cases()[21:], 30):
        base.append({"kind": "proportion", "control": [n_a, k_a], "treatment": [n_b, k_b]})
    for a, b in mean_cases()[:12] + rng.sample(mean_cases()[12:], 24):
        base.append({"kind": "mean", "control": a, "treatment": b})
    for parts, a, b in ratio_cases()[:8] + rng.sample(ratio_cases()[8:], 20):
        base.append({"kind": "ratio", "parts": parts, "control": a, "treatment": b})
    base += quantile_cases(rng)
    base += [{"kind": "cuped", "parts": parts, "control": a, "treatment": b} for parts, a, b in cuped_cases(rng)]
    out = []
    for index, case in enumerate(base):
        # Every case under the default and two more settings; degenerate and quantile/CUPED cases under all.
        chosen = SETTINGS if case["kind"] in ("quantile", "clustered", "cuped") or index < 21 else \
            [SETTINGS[0]] + rng.sample(SETTINGS[1:], 3)
        for setting, (alpha, difference, tuning, prior) in enumerate(chosen):
            # Raw values (for the Swift constructors) once per case, with its first setting.
            kept = case if setting == 0 else {k: v for k, v in case.items() if k not in RAW_KEYS}
            out.append(settings_results(kept, alpha, difference, tuning, prior))
    return out


def exact(value):
    """Floats as repr strings, recursively."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, list):
        return [exact(v) for v in value]
    if isinstance(value, dict):
        return {k: exact(v) for k, v in value.items()}
    return value


def holm(p):
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        out[i] = running
    return out


def main():
    rng = random.Random(7)
    comparisons = [comparison(*case, alpha) for case in proportion_cases() for alpha in (0.05, 0.1)]
    srm = []
    for users, weights in [([5000, 5000], [0.5, 0.5]), ([5100, 4900], [0.5, 0.5]), ([0, 0], [0.5, 0.5]),
                           ([14361, 13636, 13494], [1, 1, 1]), ([1677, 1650], [0.5, 0.5]),
                           ([100, 300], [0.25, 0.75]), ([10, 30, 60, 0], [0.1, 0.3, 0.6, 0.0]),
                           ([1000, 1200, 900, 1100], [1, 1, 1, 1]), ([1, 0], [0.5, 0.5])]:
        srm.append({"users": users, "weights": weights, "pValue": float(check_srm(users, weights))})
    for _ in range(40):
        arms = rng.randint(2, 4)
        weights = [rng.uniform(0.1, 1) for _ in range(arms)]
        total = rng.randint(100, 200_000)
        users = [max(0, round(total * w / sum(weights) * rng.uniform(0.9, 1.1))) for w in weights]
        srm.append({"users": users, "weights": weights, "pValue": float(check_srm(users, weights))})
    adjust = []
    for p in [[0.01, 0.04, 0.03, 0.2], [0.05, 0.05, 0.05], [1.0, 0.5, 0.0001], [0.3], [0.02, 0.02, 0.9, 0.001, 0.5]]:
        adjust.append({"p": p, "holm": holm(p), "bh": [float(x) for x in false_discovery_control(p)]})
    for _ in range(30):
        p = [rng.random() ** 3 for _ in range(rng.randint(1, 9))]
        adjust.append({"p": p, "holm": holm(p), "bh": [float(x) for x in false_discovery_control(p)]})
    distributions = {
        "tCDF": [[x, df, float(t.cdf(x, df))] for x in (0.5, 1.0, 1.96, 2.5, 4.0, 8.0)
                 for df in (1.0, 2.5, 10.0, 57.3, 199.0, 201.0, 1000.0, 123456.7, 2e6, 3.7e7)],
        "tQuantile": [[p, df, float(t.ppf(p, df))] for p in (0.95, 0.975, 0.995)
                      for df in (1.0, 2.5, 10.0, 57.3, 199.0, 201.0, 1000.0, 123456.7, 2e6, 3.7e7)],
        "chi2SF": [[x, df, float(chi2.sf(x, df))] for x in (0.1, 1.0, 3.84, 10.0, 40.0) for df in (1, 2, 3)],
        "normalQuantile": [[p, float(norm.ppf(p))] for p in (1e-300, 1e-20, 1e-8, 0.0005, 0.005, 0.01, 0.02425, 0.025,
                                                           0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 0.95, 0.975, 0.995, 0.9999)],
    }
    out = {"gbstats": gbstats.__version__ if hasattr(gbstats, "__version__") else "0.8.0", "scipy": scipy.__version__,
           "comparisons": comparisons,
           "means": [mean_comparison(a, b, alpha) for a, b in mean_cases() for alpha in (0.05, 0.1)],
           "ratios": [ratio_comparison(parts, a, b, alpha) for parts, a, b in ratio_cases() for alpha in (0.05, 0.1)],
           "settings": settings_cases(),
           "srm": srm, "adjust": adjust, "distributions": distributions}
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gbstats-vectors.json")
    out = exact(out)
    with open(path, "w") as f:  # one case per line
        f.write("{\n")
        for index, (key, value) in enumerate(out.items()):
            f.write(f"{json.dumps(key)}: ")
            if isinstance(value, list):
                f.write("[\n" + ",\n".join(json.dumps(item) for item in value) + "\n]")
            elif isinstance(value, dict):
                f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in value.items()) + "\n}")
            else:
                f.write(json.dumps(value))
            f.write(",\n" if index < len(out) - 1 else "\n")
        f.write("}\n")
    kinds = {}
    for case in out["settings"]:
        kinds[case["kind"]] = kinds.get(case["kind"], 0) + 1
    print(f"wrote {len(comparisons)} proportion, {len(out['means'])} mean, {len(out['ratios'])} ratio comparisons, "
          f"{len(out['settings'])} under test settings {kinds}, {len(srm)} SRM and {len(adjust)} adjustment cases to {path}")


if __name__ == "__main__":
    main()
