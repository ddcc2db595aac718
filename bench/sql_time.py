#!/usr/bin/env python3
"""Prints, in seconds, how long PostgreSQL spent on one database's statements between two
markers: the sum of the durations it logged (parse, bind and execute of each statement, or
the simple query's one line). For a route that runs for seconds and changes the data, this
is the floor of one request: the time of its own statements, server side, without a replay.

    sql_time.py SERVER_LOG DATABASE BEGIN_MARKER END_MARKER

The cluster must log with log_min_duration_statement = 0 and log_line_prefix = '@@%d@@ '
(the bench sets both with ALTER SYSTEM), and the markers are statements
`select 'BEGIN_MARKER'` / `select 'END_MARKER'` run by psql on DATABASE around one request.
The markers' own durations are not counted.
"""
import re
import sys

LINE = re.compile(r"^@@(?P<db>[^@]*)@@ LOG:\s+duration: (?P<ms>[0-9.]+) ms\s+(?P<rest>.*)$")


def main():
    log, database, begin, end = sys.argv[1:5]
    inside, total, seen = False, 0.0, 0
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = LINE.match(line.rstrip("\n"))
            if not m or m["db"] != database:
                continue
            if f"'{begin}'" in m["rest"]:
                inside = True
                continue
            if f"'{end}'" in m["rest"]:
                break
            if inside:
                total += float(m["ms"])
                seen += 1
    if seen == 0:
        sys.exit(f"sql_time.py: no statement of {database} between {begin} and {end} in {log}")
    print(f"{total / 1000:.3f}")


if __name__ == "__main__":
    main()
