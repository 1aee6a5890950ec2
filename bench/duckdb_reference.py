"""bench/duckdb_reference.py: DuckDB as the bench's reference engine, with the data of one workload.

Fills one table in an in-memory DuckDB database (duckdb.connect(), SET threads = 2), timing the
load once, then times each query given as NAME|SQL the way the bench scripts time PostgreSQL: one
warm-up run, then the median of 3.  %s in SQL is the table; only its last statement runs (the
ones before it set PostgreSQL planner options).  Prints one line per measurement:
NAME<TAB>milliseconds<TAB>same, where same compares the result with PostgreSQL's psql -At output
in DIR/<n>.txt for the n-th query (--expect DIR): "yes" when the rows and fields match, numbers
to 1e-9 relative (DuckDB's avg is a double, PostgreSQL's a numeric), "differs" otherwise, "-"
without a file.

  duckdb_reference.py seed000 --rows N [--expect DIR] NAME|SQL...
      t5 filled with bench/run.sh's rows 1..N (c1 BIGINT, c2 INTEGER, c3 DECIMAL(18,2),
      c4 VARCHAR, c5 DATE)
  duckdb_reference.py tpch --file PATH --columns DEFS [--expect DIR] NAME|SQL...
      lineitem (DEFS: PostgreSQL's column definitions, which DuckDB reads as the same types)
      loaded from tpchgen-cli's CSV file PATH (with header)

Run by bench/run.sh and bench/tpch.sh in the venv they set up; never by CI.
"""
import argparse
import math
import os
import sys
import time

import duckdb


def timed(con, sql):
    start = time.perf_counter()
    rows = con.execute(sql).fetchall()
    return (time.perf_counter() - start) * 1000, rows


def psql_text(rows):
    """rows as psql -At prints them: fields joined by |, NULL empty, booleans t/f"""
    def field(v):
        if v is None:
            return ""
        if isinstance(v, bool):
            return "t" if v else "f"
        return str(v)
    return ["|".join(field(v) for v in row) for row in rows]


def same_field(a, b):
    if a == b:
        return True
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9)
    except ValueError:
        return False


def same_result(duck_lines, pg_lines):
    if len(duck_lines) != len(pg_lines):
        return False
    for d, p in zip(duck_lines, pg_lines):
        df, pf = d.split("|"), p.split("|")
        if len(df) != len(pf) or not all(same_field(x, y) for x, y in zip(df, pf)):
            return False
    return True


def main():
    parser = argparse.ArgumentParser(description="DuckDB reference timings for the bench scripts")
    sub = parser.add_subparsers(dest="workload", required=True)
    seed = sub.add_parser("seed000")
    seed.add_argument("--rows", type=int, required=True)
    tpch = sub.add_parser("tpch")
    tpch.add_argument("--file", required=True)
    tpch.add_argument("--columns", required=True)
    for p in (seed, tpch):
        p.add_argument("--expect", metavar="DIR")
        p.add_argument("queries", nargs="*", metavar="NAME|SQL")
    args = parser.parse_args()

    con = duckdb.connect()
    con.execute("SET threads = 2")
    print(f"== DuckDB {duckdb.__version__}: load", file=sys.stderr)
    if args.workload == "seed000":
        table = "t5"
        load = f"""CREATE TABLE t5 AS
            SELECT i AS c1, 1::INTEGER AS c2, ((i % 10000) / 100.0)::DECIMAL(18,2) AS c3,
                   'v' || (i % 1000) AS c4, DATE '2020-01-01' + (i % 1000)::INTEGER AS c5
            FROM range(1, {args.rows} + 1) r(i)"""
    else:
        table = "lineitem"
        con.execute(f"CREATE TABLE lineitem ({args.columns})")
        path = args.file.replace("'", "''")
        load = f"COPY lineitem FROM '{path}' (FORMAT csv, HEADER true)"
    print(f"load\t{timed(con, load)[0]:.3f}\t-")

    for n, query in enumerate(args.queries, 1):
        name, sql = query.split("|", 1)
        sql = [s for s in sql.replace("%s", table).split(";") if s.strip()][-1]
        print(f"== DuckDB: {name}", file=sys.stderr)
        timed(con, sql)
        runs = [timed(con, sql) for _ in range(3)]
        same = "-"
        expect = args.expect and os.path.join(args.expect, f"{n}.txt")
        if expect and os.path.exists(expect):
            with open(expect) as f:
                pg_lines = f.read().splitlines()
            same = "yes" if same_result(psql_text(runs[0][1]), pg_lines) else "differs"
        print(f"{name}\t{sorted(r[0] for r in runs)[1]:.3f}\t{same}")


if __name__ == "__main__":
    main()
