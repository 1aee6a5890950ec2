"""bench/duckdb_reference.py: DuckDB as the bench's reference engine, with the data of one workload.

Fills an in-memory DuckDB database (duckdb.connect(), SET threads = 2), timing the load once, then
times each query given as NAME|SQL the way the bench scripts time PostgreSQL: one warm-up run,
then the median of 3.  Only a query's last statement runs (the ones before it set PostgreSQL
planner options).  Prints one line per measurement: NAME<TAB>milliseconds<TAB>same, where same
compares the result with PostgreSQL's psql -At output in DIR/<n>.txt for the n-th query
(--expect DIR): "yes" when the rows and fields match, numbers to 1e-9 relative (DuckDB's avg is a
double, PostgreSQL's a numeric) and text without trailing blanks (PostgreSQL pads char(n), DuckDB
has no such type), "differs" otherwise, "-" without a file; "timeout" (milliseconds: the limit)
when a run hit --limit, "error" (milliseconds: 0) when DuckDB refused the query.

  duckdb_reference.py seed000 --rows N [--expect DIR] NAME|SQL...
      t5 filled with bench/run.sh's rows 1..N (c1 BIGINT, c2 INTEGER, c3 DECIMAL(18,2),
      c4 VARCHAR, c5 DATE); %s in SQL is the table
  duckdb_reference.py tpch --dir DIR --table NAME=DEFS... [--limit S] [--ties NAME=FIELDS[:LIMIT]]...
                      [--expect DIR] NAME|SQL...
      each table NAME (DEFS: PostgreSQL's column definitions, which DuckDB reads as the same
      types) loaded from tpchgen-cli's CSV file DIR/NAME.csv (with header); the load is all of
      them.  "_%E" in SQL (lineitem_%E: PostgreSQL's lineitem_heap, lineitem_colstore) is dropped.
      --limit: seconds a query may run (con.interrupt() then stops it; the warm-up hitting it
      skips the 3 timed runs).  --ties: the query's ORDER BY columns (1-based output fields) do
      not decide the order of all rows, so both results are compared with the rows of each run
      of equal ORDER BY values sorted, and, when LIMIT cut the result, the last run's rows
      reduced to their ORDER BY values (which of the tied rows LIMIT keeps is not defined).

Run by bench/run.sh and bench/tpch.sh in the venv they set up; never by CI.
"""
import argparse
import math
import os
import sys
import threading
import time

import duckdb


class Timeout(Exception):
    pass


def timed(con, sql, limit=None):
    """milliseconds and rows of one run; Timeout if it ran longer than limit seconds"""
    timer = threading.Timer(limit, con.interrupt) if limit else None
    start = time.perf_counter()
    if timer:
        timer.start()
    try:
        rows = con.execute(sql).fetchall()
    except duckdb.InterruptException:
        raise Timeout()
    finally:
        if timer:
            timer.cancel()
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


def sort_key(fields):
    def one(f):
        try:
            return (0, float(f), "")
        except ValueError:
            return (1, 0.0, f)
    return [one(f) for f in fields]


def untie(rows, keys, limit):
    """rows (lists of fields) with the rows of each run of equal ORDER BY fields (keys, 1-based)
    sorted; when LIMIT cut the result (limit rows), the last run's rows reduced to those fields"""
    runs = []
    for r in rows:
        k = [r[i - 1] if i <= len(r) else "" for i in keys]
        if runs and runs[-1][0] == k:
            runs[-1][1].append(r)
        else:
            runs.append((k, [r]))
    if limit and len(rows) == limit and runs:
        k, last = runs[-1]
        runs[-1] = (k, [k] * len(last))
    return [r for _, run in runs for r in sorted(run, key=sort_key)]


def same_result(duck_lines, pg_lines, ties=None):
    # PostgreSQL pads char(n) with blanks, DuckDB's CHAR is VARCHAR
    duck = [[f.rstrip(" ") for f in line.split("|")] for line in duck_lines]
    pg = [[f.rstrip(" ") for f in line.split("|")] for line in pg_lines]
    if ties:
        duck, pg = untie(duck, *ties), untie(pg, *ties)
    if len(duck) != len(pg):
        return False
    for df, pf in zip(duck, pg):
        if len(df) != len(pf) or not all(same_field(x, y) for x, y in zip(df, pf)):
            return False
    return True


def parse_ties(specs):
    ties = {}
    for spec in specs:
        name, fields = spec.split("=", 1)
        keys, _, limit = fields.partition(":")
        ties[name] = ([int(k) for k in keys.split(",")], int(limit) if limit else None)
    return ties


def main():
    parser = argparse.ArgumentParser(description="DuckDB reference timings for the bench scripts")
    sub = parser.add_subparsers(dest="workload", required=True)
    seed = sub.add_parser("seed000")
    seed.add_argument("--rows", type=int, required=True)
    tpch = sub.add_parser("tpch")
    tpch.add_argument("--dir", required=True)
    tpch.add_argument("--table", action="append", required=True, metavar="NAME=DEFS")
    tpch.add_argument("--limit", type=float)
    tpch.add_argument("--ties", action="append", default=[], metavar="NAME=FIELDS[:LIMIT]")
    for p in (seed, tpch):
        p.add_argument("--expect", metavar="DIR")
        p.add_argument("queries", nargs="*", metavar="NAME|SQL")
    args = parser.parse_args()
    limit = getattr(args, "limit", None)
    ties = parse_ties(getattr(args, "ties", []))

    con = duckdb.connect()
    con.execute("SET threads = 2")
    print(f"== DuckDB {duckdb.__version__}: load", file=sys.stderr)
    if args.workload == "seed000":
        load = [f"""CREATE TABLE t5 AS
            SELECT i AS c1, 1::INTEGER AS c2, ((i % 10000) / 100.0)::DECIMAL(18,2) AS c3,
                   'v' || (i % 1000) AS c4, DATE '2020-01-01' + (i % 1000)::INTEGER AS c5
            FROM range(1, {args.rows} + 1) r(i)"""]
        table = lambda sql: sql.replace("%s", "t5")
    else:
        load = []
        for t in args.table:
            name, defs = t.split("=", 1)
            path = os.path.join(args.dir, f"{name}.csv").replace("'", "''")
            load += [f"CREATE TABLE {name} ({defs})",
                     f"COPY {name} FROM '{path}' (FORMAT csv, HEADER true)"]
        table = lambda sql: sql.replace("_%E", "")
    print(f"load\t{sum(timed(con, sql)[0] for sql in load):.3f}\t-")

    for n, query in enumerate(args.queries, 1):
        name, sql = query.split("|", 1)
        sql = [s for s in table(sql).split(";") if s.strip()][-1]
        print(f"== DuckDB: {name}", file=sys.stderr)
        try:
            timed(con, sql, limit)
            runs = []
            for _ in range(3):
                try:
                    runs.append(timed(con, sql, limit))
                except Timeout:
                    runs.append((math.inf, None))
        except Timeout:
            print(f"{name}\t{limit * 1000:.3f}\ttimeout")
            continue
        except duckdb.Error as e:
            print(f"== DuckDB: {name}: {e}", file=sys.stderr)
            print(f"{name}\t0\terror")
            continue
        ms = sorted(r[0] for r in runs)[1]
        if ms == math.inf:
            print(f"{name}\t{limit * 1000:.3f}\ttimeout")
            continue
        rows = next(r[1] for r in runs if r[1] is not None)
        same = "-"
        expect = args.expect and os.path.join(args.expect, f"{n}.txt")
        if expect and os.path.exists(expect):
            with open(expect) as f:
                pg_lines = f.read().splitlines()
            ok = same_result(psql_text(rows), pg_lines, ties.get(name))
            same = "yes" if ok else "differs"
        print(f"{name}\t{ms:.3f}\t{same}")


if __name__ == "__main__":
    main()
