#!/usr/bin/env python3
"""End-to-end check of quantile, CUPED and percentile-capped metrics against gbstats: recomputes the
per-unit (or per-event) values of the metrics below straight from a simulated log in plain Python,
builds gbstats 0.8.0 statistics from them (quantile bounds as GrowthBook's SQL makes them), runs
TwoSidedTTest and compares with `remix analyze --format json`.

The experiment must start after the users' first visits so that CUPED has a pre-exposure window:
    mkdir ex && cp experiments/calculator.population.yaml ex/
    sed 's/^status: running/status: running\\nschedule:\\n  start: 2026-11-27/' \\
        experiments/calculator-entry.yaml > ex/calculator-entry.yaml
    (metrics.yaml in ex/ as METRICS below, in YAML)
    remix simulate --app calculator --experiments ex --users 4000 --log q.jsonl --no-report
    remix analyze q.jsonl --experiments ex --experiment calculator-entry --metric sums-cuped \\
        --metric session-p90 --metric session-p90-events --metric session-time-capped --format json > q.json
    /tmp/gbstats-venv/bin/python Tests/RemixAnalysisTests/Vectors/check_quantile_cuped_log.py q.jsonl q.json

Not run by `swift test` (it needs a simulated log and gbstats).
"""
import json, math, sys, datetime
from collections import defaultdict
from gbstats.models.statistics import (SampleMeanStatistic, QuantileStatistic, QuantileClusteredStatistic,
                                       RegressionAdjustedStatistic)
from gbstats.frequentist.tests import TwoSidedTTest, FrequentistConfig

EXPERIMENT = 'calculator-entry'
METRICS = {  # key: (kind, event, value field or None, options)
    'sums-cuped': ('cuped-mean', 'sum_analysed', None, {'preWindowHours': 336}),
    'session-p90': ('quantile', 'session_ended', 'durationMs', {'nu': 0.9}),
    'session-p90-events': ('event-quantile', 'session_ended', 'durationMs', {'nu': 0.9}),
    'session-time-capped': ('mean', 'session_ended', 'durationMs', {'capPercentile': 0.99}),
}
N_STAR = [100 * 2 ** k for k in range(20)]
Z = 1.959963984540054


def ms(ts):
    return datetime.datetime.fromisoformat(ts.replace('Z', '+00:00')).timestamp() * 1000


def percentile_cont(ordered, q):
    position = (len(ordered) - 1) * q
    below = math.floor(position)
    g = position - below
    a, b = ordered[below], ordered[min(below + 1, len(ordered) - 1)]
    return b - (b - a) * (1 - g) if g >= 0.5 else a + (b - a) * g


def quantile_statistic(values, nu, cls=QuantileStatistic, **extra):
    ordered = sorted(values)
    n = len(ordered)
    n_star = max([s for s in N_STAR if s < n] or [N_STAR[0]])
    se = math.sqrt(nu * (1 - nu) / n_star)
    return cls(n=n, n_star=n_star, nu=nu, quantile_hat=percentile_cont(ordered, nu),
               quantile_lower=percentile_cont(ordered, max(nu - Z * se, 1e-8)),
               quantile_upper=percentile_cont(ordered, min(nu + Z * se, 0.99999999)), **extra)


exposures = {}
events = defaultdict(list)  # user -> [(ms, type, event)]
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e['type'] == 'exposure' and e.get('experiment') == EXPERIMENT and e.get('inExperiment') and e.get('hashUsed'):
        u, t = e['user'], ms(e['ts'])
        v, f = exposures.get(u, (e['variation'], t))
        exposures[u] = (v if v == e['variation'] else None, min(f, t))
    elif e['type'] in ('sum_analysed', 'session_ended'):
        events[e['user']].append((ms(e['ts']), e['type'], e))
units = {u: v for u, v in exposures.items() if v[0] is not None}
variations = sorted({v for v, _ in units.values()})


def unit_value(u, event, field, pre=None):
    first = units[u][1]
    total = 0.0
    for t, kind, e in events.get(u, []):
        if kind != event:
            continue
        inside = (t < first and first - t <= pre * 3600000) if pre else t >= first
        if inside:
            total += e[field] if field else 1
    return total


stats = {v: {} for v in variations}
for key, (kind, event, field, options) in METRICS.items():
    if kind == 'mean' and 'capPercentile' in options:
        cap = percentile_cont(sorted(unit_value(u, event, field) for u in units), options['capPercentile'])
    for v in variations:
        members = [u for u, (x, _) in units.items() if x == v]
        n = len(members)
        if kind == 'cuped-mean':
            post = [unit_value(u, event, field) for u in members]
            pre = [unit_value(u, event, field, pre=options['preWindowHours']) for u in members]
            stats[v][key] = lambda post=post, pre=pre, n=n: RegressionAdjustedStatistic(
                n=n, post_statistic=SampleMeanStatistic(n=n, sum=sum(post), sum_squares=sum(x * x for x in post)),
                pre_statistic=SampleMeanStatistic(n=n, sum=sum(pre), sum_squares=sum(x * x for x in pre)),
                post_pre_sum_of_products=sum(a * b for a, b in zip(post, pre)), theta=0)
        elif kind == 'quantile':
            values = [unit_value(u, event, field) for u in members]
            stats[v][key] = lambda values=values, nu=options['nu']: quantile_statistic(values, nu)
        elif kind == 'event-quantile':
            per_unit = [[e[field] for t, k, e in events.get(u, []) if k == event and t >= units[u][1]] for u in members]
            per_unit = [x for x in per_unit if x]
            flat = [x for xs in per_unit for x in xs]
            q = quantile_statistic(flat, options['nu']).quantile_hat
            below = [float(sum(1 for x in xs if x <= q)) for xs in per_unit]
            count = [float(len(xs)) for xs in per_unit]
            extra = dict(main_sum=sum(below), main_sum_squares=sum(b * b for b in below), denominator_sum=sum(count),
                         denominator_sum_squares=sum(c * c for c in count),
                         main_denominator_sum_product=sum(b * c for b, c in zip(below, count)), n_clusters=len(per_unit))
            stats[v][key] = lambda flat=flat, extra=extra, nu=options['nu']: quantile_statistic(
                flat, nu, QuantileClusteredStatistic, **extra)
        else:
            values = [min(unit_value(u, event, field), cap) for u in members]
            stats[v][key] = lambda values=values, n=n: SampleMeanStatistic(
                n=n, sum=sum(values), sum_squares=sum(x * x for x in values))

report = next(x for x in json.load(open(sys.argv[2]))['experiments'] if x['key'] == EXPERIMENT)
worst = 0
for c in report['comparisons']:
    a, b = stats[c['baseline']][c['metric']](), stats[c['variation']][c['metric']]()
    f = TwoSidedTTest(a, b, FrequentistConfig()).compute_result()
    for ours, theirs in [(c['expected'], f.expected), (c['pValue'], f.p_value), (c['ci'][0], f.ci[0]), (c['ci'][1], f.ci[1])]:
        worst = max(worst, abs(ours - theirs) / max(abs(theirs), 1e-12))
    print(c['variation'], c['metric'], 'ours', c['expected'], c['ci'], c['pValue'], 'gbstats', f.expected, f.ci, f.p_value)
for var in report['variations']:
    for k, m in var['metrics'].items():
        s = stats[var['key']][k]()
        theirs = s.post_statistic.mean if isinstance(s, RegressionAdjustedStatistic) else s.mean
        worst = max(worst, abs(m['value'] - theirs) / max(abs(theirs), 1e-12))
        print(var['key'], k, 'value', m['value'], theirs)
print('units', {v['key']: v['units'] for v in report['variations']}, 'worst relative difference', worst)
