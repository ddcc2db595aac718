#!/usr/bin/env python3
"""No SQL text outside the storage code.

Scans the string literals of src/**/*.cpp and src/**/*.hpp for SQL ("select ",
"insert into", "delete from", "update <name> set", " where ", "order by", "on conflict",
case-insensitive) and fails listing every literal found outside the places SQL belongs:
src/store/**, src/<service>/<area>/store.cpp (or store_<topic>.cpp, an area's storage split
by topic), src/demo/** (and db/migrations, which is not under src/). Usage: no_sql_outside_store.py <project root>
"""
import pathlib
import re
import sys

SQL = re.compile(
    r"select\s|insert\s+into\b|delete\s+from\b|update\s+[\w.\"]+\s+set\b|\swhere\s|order\s+by\b|on\s+conflict\b",
    re.IGNORECASE,
)

# One C++ token that matters here: a comment, a raw string, a string or a character literal.
TOKEN = re.compile(
    r"""//[^\n]*                                   # line comment
      | /\*.*?\*/                                  # block comment
      | (?:u8|u|U|L)?R"(?P<d>[^()\\\s]{0,16})\((?P<raw>.*?)\)(?P=d)"   # raw string
      | (?:u8|u|U|L)?"(?P<str>(?:[^"\\\n]|\\.)*)"  # string
      | '(?:[^'\\\n]|\\.)*'                         # character
    """,
    re.DOTALL | re.VERBOSE,
)


def allowed(rel: pathlib.PurePosixPath) -> bool:
    parts = rel.parts  # ("src", ...)
    if len(parts) >= 2 and parts[1] in ("store", "demo"):
        return True
    # src/<service>/<area>/store.cpp or store_<topic>.cpp
    return len(parts) == 4 and re.fullmatch(r"store(_\w+)?\.cpp", parts[3]) is not None


def literals(text: str):
    """(line, text) of every string literal, adjacent literals joined as the compiler does."""
    out = []
    last_end = None
    for m in TOKEN.finditer(text):
        s = m.group("raw") if m.group("raw") is not None else m.group("str")
        if s is None:
            last_end = None
            continue
        line = text.count("\n", 0, m.start()) + 1
        if last_end is not None and text[last_end:m.start()].strip() == "" and out:
            out[-1] = (out[-1][0], out[-1][1] + s)
        else:
            out.append((line, s))
        last_end = m.end()
    return out


def main() -> int:
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    offenders = []
    for path in sorted((root / "src").rglob("*")):
        if path.suffix not in (".cpp", ".hpp") or not path.is_file():
            continue
        rel = pathlib.PurePosixPath(path.relative_to(root).as_posix())
        if allowed(rel):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for line, s in literals(text):
            m = SQL.search(s)
            if m:
                snippet = " ".join(s.split())
                if len(snippet) > 90:
                    snippet = snippet[:87] + "..."
                offenders.append(f"{rel}:{line}: {snippet}")
    if offenders:
        files = sorted({o.split(":", 1)[0] for o in offenders})
        print(f"SQL outside src/store, src/*/*/store.cpp and src/demo: {len(offenders)} literal(s) in {len(files)} file(s)")
        for o in offenders:
            print("  " + o)
        print("by file:")
        for f in files:
            print(f"  {sum(1 for o in offenders if o.startswith(f + ':')):4d}  {f}")
        return 1
    print("no SQL outside the storage code")
    return 0


if __name__ == "__main__":
    sys.exit(main())
