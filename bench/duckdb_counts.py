#!/usr/bin/env python3
"""DuckDB's reading of an event log: per experiment × variation, the units exposed (inExperiment and
hashUsed, excluding units exposed to several variations) and the units with METRIC at or after their
first exposure — the same counts `remix analyze` reports.

Usage: duckdb_counts.py LOG [METRIC] [THREADS]. Prints `duckdb: <seconds> s` and one line per
experiment/variation: `<experiment> <variation> <units> <conversions>`.
"""
import sys
import time

import duckdb

QUERY = """
WITH ev AS (
  SELECT * FROM read_json(?, format='newline_delimited', columns={
    ts: 'TIMESTAMP', type: 'VARCHAR', "user": 'VARCHAR', experiment: 'VARCHAR',
    variation: 'VARCHAR', inExperiment: 'BOOLEAN', hashUsed: 'BOOLEAN'})),
exposed AS (
  SELECT experiment, "user", min(ts) AS first_ts, count(DISTINCT variation) AS variations,
         any_value(variation) AS variation
  FROM ev WHERE type = 'exposure' AND inExperiment AND hashUsed GROUP BY experiment, "user"),
converted AS (SELECT "user", max(ts) AS last_ts FROM ev WHERE type = ? GROUP BY "user")
SELECT experiment, variation, count(*) AS units,
       count(*) FILTER (WHERE converted.last_ts >= exposed.first_ts) AS conversions
FROM exposed LEFT JOIN converted USING ("user")
WHERE variations = 1 GROUP BY experiment, variation ORDER BY experiment, variation
"""


def main():
    log = sys.argv[1]
    metric = sys.argv[2] if len(sys.argv) > 2 else "advert_published"
    threads = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    con = duckdb.connect()
    con.execute(f"SET threads = {threads}")
    start = time.perf_counter()
    rows = con.execute(QUERY, [log, metric]).fetchall()
    elapsed = time.perf_counter() - start
    print(f"duckdb: {elapsed:.3f} s")
    for experiment, variation, units, conversions in rows:
        print(f"{experiment} {variation} {units} {conversions}")


if __name__ == "__main__":
    main()
