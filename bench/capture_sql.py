#!/usr/bin/env python3
"""Prints the SQL a server ran against one database between two markers, with the bound
parameters written in, ready for pgbench -f: the floor of a route is exactly the statements
its request ran, not a hand-written copy of them.

    capture_sql.py SERVER_LOG DATABASE BEGIN_MARKER END_MARKER > case.sql

The cluster must log with log_statement = 'all' and log_line_prefix = '@@%d@@ ' (the
bench sets both with ALTER SYSTEM while it captures), and the markers are statements
`select 'BEGIN_MARKER'` / `select 'END_MARKER'` run by psql on DATABASE around one request.
"""
import re
import sys

ENTRY = re.compile(r"^@@(?P<db>[^@]*)@@ (?P<level>[A-Z]+):\s+(?P<text>.*)$")
STATEMENT = re.compile(r"^(?:statement|execute [^:]*): (?P<sql>.*)$", re.S)
PARAM = re.compile(r"\$(\d+) = (NULL|'(?:[^']|'')*')")


def entries(path):
    """(database, level, text) of each log entry, continuation lines joined."""
    current = None
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = ENTRY.match(line)
            if m:
                if current:
                    yield current
                current = [m["db"], m["level"], m["text"]]
            elif current is not None:
                current[2] += "\n" + line.lstrip("\t")
    if current:
        yield current


def main():
    log, database, begin, end = sys.argv[1:5]
    inside, pending = False, None
    out = []

    def flush():
        nonlocal pending
        if pending is not None:
            out.append(pending.rstrip().rstrip(";") + ";")
            pending = None

    for db, level, text in entries(log):
        if db != database:
            continue
        if level == "LOG":
            m = STATEMENT.match(text)
            if not m:
                continue
            sql = m["sql"]
            if f"'{begin}'" in sql:
                inside = True
                continue
            if f"'{end}'" in sql:
                flush()
                break
            if inside:
                flush()
                # The driver's bookkeeping (a new connection's settings, SOCI freeing its
                # prepared statement) is the server's overhead, not the route's SQL.
                if re.match(r"(?i)(deallocate|set extra_float_digits)\b", sql):
                    continue
                pending = sql
        elif level == "DETAIL" and inside and pending is not None and text.startswith("parameters:"):
            values = {int(n): v for n, v in PARAM.findall(text)}
            # One pass, so a value that contains "$2" is not rewritten again.
            pending = re.sub(r"\$(\d+)", lambda m: values.get(int(m[1]), m[0]), pending)
    if not out:
        sys.exit(f"capture_sql.py: no statement of {database} between {begin} and {end} in {log}")
    print("\n".join(out))


if __name__ == "__main__":
    main()
