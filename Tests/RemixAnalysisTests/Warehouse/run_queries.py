"""Runs `remix analyze --sql` queries over JSON Lines logs in DuckDB or Spark (one session for
all of them; each log is the table `events` for its queries) and writes each result as CSV with a
header row, as docs/scale.md describes. Times go to standard error; with --load WORK (bench/warehouse)
each log is first loaded as a warehouse keeps events — a DuckDB table, Spark's Parquet files in
WORK — and `start`, `load` and `query` seconds are printed on standard output.

usage: run_queries.py duckdb|spark [--load WORK] QUERY.sql=RESULT.csv=LOG ...
"""
import csv
import sys
import time


def report(step, started, timed):
    seconds = time.monotonic() - started
    if timed:
        print(f"{step} {seconds:.2f}", flush=True)
    return seconds


def duckdb_results(jobs, work):
    import duckdb
    connection = duckdb.connect()
    connection.execute("SET threads = 2")
    connection.execute("SET TimeZone = 'UTC'")
    current = None
    for query, result, log in jobs:
        if log != current:
            started = time.monotonic()
            path = log.replace("'", "''")
            kind = "TABLE" if work else "VIEW"
            connection.execute("DROP TABLE IF EXISTS events; DROP VIEW IF EXISTS events")
            connection.execute(f"CREATE {kind} events AS SELECT * FROM read_json('{path}', format = 'newline_delimited', sample_size = -1)")
            report("load", started, work)
            current = log
        started = time.monotonic()
        target = result.replace("'", "''")
        connection.execute(f"COPY ({open(query).read()}) TO '{target}' (FORMAT csv, HEADER)")
        print(f"duckdb {query}: {report('query', started, work):.3f} s", file=sys.stderr)


def spark_results(jobs, work):
    from pyspark.sql import SparkSession
    started = time.monotonic()
    builder = (SparkSession.builder.master("local[2]").appName("remix-warehouse")
               .config("spark.sql.session.timeZone", "UTC")
               .config("spark.sql.decimalOperations.allowPrecisionLoss", "false")
               .config("spark.sql.shuffle.partitions", "4" if work else "1")
               .config("spark.driver.memory", "8g" if work else "1g")
               .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false"))
    if not work:
        # The tests' data are small and their session's time is the JVM compiling Spark itself:
        # the quick compiler only, a serial collector, no adaptive re-planning and no whole-stage
        # code generation take the warehouse test's session (three queries) from ~93 to ~62 CPU
        # seconds on two cores (results identical). One partition per shuffle (above; the data fit in
        # one task) took the test's every-metric query from 32.8 to 24.9 CPU s (three runs each,
        # session included; the same rows). The bench (--load) keeps Spark's defaults.
        builder = (builder.config("spark.driver.extraJavaOptions", "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC")
                   .config("spark.sql.adaptive.enabled", "false").config("spark.sql.codegen.wholeStage", "false"))
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    report("start", started, work)
    current = None
    for query, result, log in jobs:
        if log != current:
            started = time.monotonic()
            frame = spark.read.json(log)
            if work:
                frame.write.mode("overwrite").parquet(work + "/events.parquet")
                frame = spark.read.parquet(work + "/events.parquet")
            frame.createOrReplaceTempView("events")
            report("load", started, work)
            current = log
        started = time.monotonic()
        frame = spark.sql(open(query).read())
        with open(result, "w", newline="") as out:
            writer = csv.writer(out, lineterminator="\n")
            writer.writerow(frame.columns)
            for row in frame.collect():
                writer.writerow(["" if value is None else value for value in row])
        print(f"spark {query}: {report('query', started, work):.3f} s", file=sys.stderr)
    spark.stop()


def main():
    engine, arguments, work = sys.argv[1], sys.argv[2:], None
    if arguments[:1] == ["--load"]:
        work, arguments = arguments[1], arguments[2:]
    jobs = [argument.split("=", 2) for argument in arguments]
    {"duckdb": duckdb_results, "spark": spark_results}[engine](jobs, work)


main()
