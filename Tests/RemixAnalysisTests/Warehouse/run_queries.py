"""Runs `remix analyze --sql` queries over a JSON Lines log in DuckDB or Spark (one session for
all of them) and writes each result as CSV with a header row, as docs/scale.md describes.

usage: run_queries.py duckdb|spark LOG QUERY.sql=RESULT.csv ...
"""
import csv
import sys
import time


def duckdb_results(log, jobs):
    import duckdb
    connection = duckdb.connect()
    connection.execute("SET TimeZone = 'UTC'")
    path = log.replace("'", "''")
    connection.execute(f"CREATE VIEW events AS SELECT * FROM read_json('{path}', format = 'newline_delimited', sample_size = -1)")
    for query, result in jobs:
        started = time.monotonic()
        target = result.replace("'", "''")
        connection.execute(f"COPY ({open(query).read()}) TO '{target}' (FORMAT csv, HEADER)")
        print(f"duckdb {query}: {time.monotonic() - started:.3f} s", file=sys.stderr)


def spark_results(log, jobs):
    from pyspark.sql import SparkSession
    spark = (SparkSession.builder.master("local[2]").appName("remix-warehouse-test")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.decimalOperations.allowPrecisionLoss", "false")
             .config("spark.sql.shuffle.partitions", "4")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    spark.read.json(log).createOrReplaceTempView("events")
    for query, result in jobs:
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
    engine, log = sys.argv[1], sys.argv[2]
    jobs = [argument.split("=", 1) for argument in sys.argv[3:]]
    {"duckdb": duckdb_results, "spark": spark_results}[engine](log, jobs)


main()
