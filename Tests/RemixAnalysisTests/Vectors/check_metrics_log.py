#!/usr/bin/env python3
"""End-to-end check of mean, ratio and windowed metrics against gbstats: recomputes per-unit values
of three shipped metrics (steps-per-session ratio, time-in-sessions mean capped at 2 h,
published-first-day proportion with a 24 h window) straight from a simulated log in plain Python,
runs gbstats' TwoSidedTTest on them and compares with `remix analyze --format json`.

    remix simulate --sessions 5000 --log small.jsonl --no-report
    remix analyze small.jsonl --experiment insertion-flow --metric steps-per-session \
        --metric time-in-sessions --metric published-first-day --format json > r.json
    /tmp/gbstats-venv/bin/python Tests/RemixAnalysisTests/Vectors/check_metrics_log.py small.jsonl r.json

Not run by `swift test` (it needs a simulated log and gbstats); on 5000 sessions the largest
relative difference was 4e-16.
"""
import json, sys, datetime
from collections import defaultdict
from gbstats.models.statistics import SampleMeanStatistic, RatioStatistic, ProportionStatistic
from gbstats.frequentist.tests import TwoSidedTTest, FrequentistConfig
def ms(ts): return datetime.datetime.fromisoformat(ts.replace('Z','+00:00')).timestamp()*1000
exp = {}; events = []
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get('type') == 'exposure' and e.get('experiment') == 'insertion-flow' and e.get('inExperiment') and e.get('hashUsed'):
        u = e['user']; t = ms(e['ts'])
        v, f = exp.get(u, (e['variation'], t))
        exp[u] = (v if v == e['variation'] else None, min(f, t))
    elif e.get('type') in ('session_ended', 'advert_published'):
        events.append(e)
per = defaultdict(lambda: [0.0, 0.0, 0.0, 0])  # steps, sessions, duration(capped later), published in 24h
for e in events:
    u = e['user']
    if u not in exp or exp[u][0] is None: continue
    t = ms(e['ts']); first = exp[u][1]
    if t < first: continue
    p = per[u]
    if e['type'] == 'session_ended':
        p[0] += e['steps']; p[1] += 1; p[2] += e['durationMs']
    elif t - first < 24 * 3600 * 1000: p[3] = 1
stats = {}
for v in ['manual', 'auto', 'alternating']:
    units = [u for u, (x, _) in exp.items() if x == v]
    n = len(units)
    vals = [per[u] if u in per else [0, 0, 0, 0] for u in units]
    m = SampleMeanStatistic(n=n, sum=sum(x[0] for x in vals), sum_squares=sum(x[0]**2 for x in vals))
    d = SampleMeanStatistic(n=n, sum=sum(x[1] for x in vals), sum_squares=sum(x[1]**2 for x in vals))
    r = RatioStatistic(n=n, m_statistic=m, d_statistic=d, m_d_sum_of_products=sum(x[0]*x[1] for x in vals))
    cap = [min(x[2], 7200000) for x in vals]
    t = SampleMeanStatistic(n=n, sum=sum(cap), sum_squares=sum(c*c for c in cap))
    p = ProportionStatistic(n=n, sum=sum(x[3] for x in vals))
    stats[v] = {'steps-per-session': r, 'time-in-sessions': t, 'published-first-day': p}
report = json.load(open(sys.argv[2]))['experiments'][0]
worst = 0
for c in report['comparisons']:
    a, b = stats[c['baseline']][c['metric']], stats[c['variation']][c['metric']]
    f = TwoSidedTTest(a, b, FrequentistConfig()).compute_result()
    for ours, theirs in [(c['expected'], f.expected), (c['pValue'], f.p_value), (c['ci'][0], f.ci[0]), (c['ci'][1], f.ci[1])]:
        worst = max(worst, abs(ours - theirs) / max(abs(theirs), 1e-12))
    print(c['variation'], c['metric'], c['expected'], f.expected, c['pValue'], f.p_value)
for var in report['variations']:
    for k, m in var['metrics'].items():
        print(var['key'], k, m['value'], stats[var['key']][k].mean)
print('units', {v['key']: v['units'] for v in report['variations']}, 'worst relative difference', worst)
