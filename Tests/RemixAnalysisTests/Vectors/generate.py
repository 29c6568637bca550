#!/usr/bin/env python3
"""Writes gbstats-vectors.json: reference results from GrowthBook's stats engine (gbstats, which
uses SciPy) for the Swift statistics in Sources/RemixAnalysis/Statistics, read by
StatisticsVectorTests.swift: proportion, mean (SampleMeanStatistic) and ratio (RatioStatistic, with
mean or proportion parts) comparisons, ordinary and degenerate.

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
from gbstats.bayesian.tests import EffectBayesianABTest, EffectBayesianConfig
from gbstats.frequentist.tests import FrequentistConfig, TwoSidedTTest
from gbstats.models.statistics import ProportionStatistic, RatioStatistic, SampleMeanStatistic
from gbstats.utils import check_srm
from scipy.stats import chi2, false_discovery_control, t


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
    }
    out = {"gbstats": gbstats.__version__ if hasattr(gbstats, "__version__") else "0.8.0", "scipy": scipy.__version__,
           "comparisons": comparisons,
           "means": [mean_comparison(a, b, alpha) for a, b in mean_cases() for alpha in (0.05, 0.1)],
           "ratios": [ratio_comparison(parts, a, b, alpha) for parts, a, b in ratio_cases() for alpha in (0.05, 0.1)],
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
    print(f"wrote {len(comparisons)} proportion, {len(out['means'])} mean, {len(out['ratios'])} ratio comparisons, {len(srm)} SRM and {len(adjust)} adjustment cases to {path}")


if __name__ == "__main__":
    main()
