#!/usr/bin/env python3
"""DuckDB computing what `remix analyze --metric published --metric time-in-sessions --metric
steps-per-session --metric session-time-p90` reports from an event log (experiments/metrics.yaml):
per experiment × variation, the units exposed (inExperiment and hashUsed, excluding units exposed to
several variations); the share with advert_published at or after their first exposure (proportion);
the mean per unit of session_ended durationMs after exposure capped at 7 200 000 (mean); Σ steps /
Σ sessions over units (ratio); and the 90th percentile of durationMs over those session_ended events
(event-level quantile).

Usage: duckdb_metrics.py LOG [THREADS]. Prints `duckdb: <seconds> s` and one line per
experiment/variation: `<experiment> <variation> <units> <published> <time-in-sessions> <steps-per-session> <p90>`.
"""
import sys
import time

import duckdb

QUERY = """
WITH ev AS (
  SELECT * FROM read_json(?, format='newline_delimited', columns={
    ts: 'TIMESTAMP', type: 'VARCHAR', "user": 'VARCHAR', experiment: 'VARCHAR',
    variation: 'VARCHAR', inExperiment: 'BOOLEAN', hashUsed: 'BOOLEAN', durationMs: 'DOUBLE', steps: 'DOUBLE'})),
exposed AS (
  SELECT experiment, "user", min(ts) AS first_ts, count(DISTINCT variation) AS variations,
         any_value(variation) AS variation
  FROM ev WHERE type = 'exposure' AND inExperiment AND hashUsed GROUP BY experiment, "user"),
units AS (SELECT * FROM exposed WHERE variations = 1),
published AS (SELECT "user", max(ts) AS last_ts FROM ev WHERE type = 'advert_published' GROUP BY "user"),
ended AS (SELECT "user", ts, durationMs, steps FROM ev WHERE type = 'session_ended'),
after AS (
  SELECT u.experiment, u.variation, u."user", e.durationMs, e.steps
  FROM units u JOIN ended e ON e."user" = u."user" AND e.ts >= u.first_ts),
per_unit AS (
  SELECT u.experiment, u.variation, u."user",
         (p.last_ts IS NOT NULL AND p.last_ts >= u.first_ts)::INTEGER AS converted,
         least(coalesce(a.duration, 0), 7200000) AS duration, coalesce(a.steps, 0) AS steps,
         coalesce(a.sessions, 0) AS sessions
  FROM units u LEFT JOIN published p USING ("user")
  LEFT JOIN (SELECT experiment, "user", sum(durationMs) AS duration, sum(steps) AS steps, count(*) AS sessions
             FROM after GROUP BY experiment, "user") a USING (experiment, "user")),
p90 AS (SELECT experiment, variation, quantile_cont(durationMs, 0.9) AS p90 FROM after GROUP BY experiment, variation)
SELECT experiment, variation, count(*) AS units, sum(converted) AS published, avg(duration) AS mean_duration,
       sum(steps) / sum(sessions) AS steps_per_session, any_value(p90.p90) AS p90
FROM per_unit LEFT JOIN p90 USING (experiment, variation)
GROUP BY experiment, variation ORDER BY experiment, variation
"""


def main():
    log = sys.argv[1]
    threads = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    start = time.perf_counter()
    rows = con.execute(QUERY, [log]).fetchall()
    elapsed = time.perf_counter() - start
    print(f"duckdb: {elapsed:.3f} s")
    for row in rows:
        print(" ".join(str(value) for value in row))


if __name__ == "__main__":
    main()
