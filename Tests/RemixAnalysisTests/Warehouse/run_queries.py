"""Runs `remix analyze --sql` queries over JSON Lines logs in DuckDB or Spark (one session for
all of them; each log is the table `events` for its queries) and writes each result as CSV with a
header row, as docs/scale.md describes.

usage: run_queries.py duckdb|spark QUERY.sql=RESULT.csv=LOG ...
"""
import csv
import sys
import time


def duckdb_results(jobs):
    import duckdb
    connection = duckdb.connect()
    connection.execute("SET TimeZone = 'UTC'")
    current = None
    for query, result, log in jobs:
        if log != current:
            path = log.replace("'", "''")
            connection.execute(f"CREATE OR REPLACE VIEW events AS SELECT * FROM read_json('{path}', format = 'newline_delimited', sample_size = -1)")
            current = log
        started = time.monotonic()
        target = result.replace("'", "''")
        connection.execute(f"COPY ({open(query).read()}) TO '{target}' (FORMAT csv, HEADER)")
        print(f"duckdb {query}: {time.monotonic() - started:.3f} s", file=sys.stderr)


def spark_results(jobs):
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").appName("remix-warehouse-test")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.decimalOperations.allowPrecisionLoss", "false")
             .config("spark.sql.shuffle.partitions", "4")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    current = None
    for query, result, log in jobs:
        if log != current:
            spark.read.json(log).createOrReplaceTempView("events")
            current = log
        started = time.monotonic()
        frame = spark.sql(open(query).read())
        with open(result, "w", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(frame.columns)
            for row in frame.collect():
                writer.writerow(["" if value is None else value for value in row])
        print(f"spark {query}: {time.monotonic() - started:.3f} s", file=sys.stderr)
    spark.stop()


def main():
    engine = sys.argv[1]
    jobs = [argument.split("=", 2) for argument in sys.argv[2:]]
    {"duckdb": duckdb_results, "spark": spark_results}[engine](jobs)


main()
