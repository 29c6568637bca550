"""One engine's part of bench/warehouse: loads LOG into the table `events` and runs QUERY into
RESULT (CSV with a header row), printing `load SECONDS` and `query SECONDS` (and Spark's
`start SECONDS`) on standard output.

usage: engine.py duckdb|spark LOG QUERY RESULT [WORK]
"""
import csv
import sys
import time


def duckdb_run(log, query, result, work):
    import duckdb
    connection = duckdb.connect()
    connection.execute("SET threads = 2")
    connection.execute("SET TimeZone = 'UTC'")
    started = time.monotonic()
    path = log.replace("'", "''")
    connection.execute(f"CREATE TABLE events AS SELECT * FROM read_json('{path}', format = 'newline_delimited', sample_size = -1)")
    print(f"load {time.monotonic() - started:.2f}", flush=True)
    started = time.monotonic()
    target = result.replace("'", "''")
    connection.execute(f"COPY ({open(query).read()}) TO '{target}' (FORMAT csv, HEADER)")
    print(f"query {time.monotonic() - started:.2f}", flush=True)


def spark_run(log, query, result, work):
    from pyspark.sql import SparkSession
    started = time.monotonic()
    spark = (SparkSession.builder.master("local[2]").appName("remix-bench-warehouse")
             .config("spark.sql.session.timeZone", "UTC")
             .config("spark.sql.decimalOperations.allowPrecisionLoss", "false")
             .config("spark.sql.shuffle.partitions", "8").config("spark.driver.memory", "8g")
             .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    print(f"start {time.monotonic() - started:.2f}", flush=True)
    started = time.monotonic()
    # As a warehouse keeps events: columnar files (Parquet), written once from the log.
    spark.read.json(log).write.mode("overwrite").parquet(work + "/events.parquet")
    spark.read.parquet(work + "/events.parquet").createOrReplaceTempView("events")
    print(f"load {time.monotonic() - started:.2f}", flush=True)
    started = time.monotonic()
    frame = spark.sql(open(query).read())
    with open(result, "w", newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(frame.columns)
        for row in frame.collect():
            writer.writerow(["" if value is None else value for value in row])
    print(f"query {time.monotonic() - started:.2f}", flush=True)
    spark.stop()


engine, log, query, result = sys.argv[1:5]
{"duckdb": duckdb_run, "spark": spark_run}[engine](log, query, result, sys.argv[5] if len(sys.argv) > 5 else "/tmp")
