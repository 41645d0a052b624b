#!/usr/bin/env python3
"""Replaces the report tables of docs/benchmarks.md with the ones of a run.
From the workspace root:

    cargo run --release -p benches --bin report > /tmp/report.md
    cargo run --release -p benches --bin report -- --peers > /tmp/peers.md
    python3 scripts/readme_numbers.py /tmp/report.md /tmp/peers.md

Each table of the given outputs replaces the table of docs/benchmarks.md with
the same header line (the n-th table of a header the n-th one of that header,
in order). Tables no output has, and the prose around them, stay as they are:
the prose quotes figures by hand, so re-read it. The README quotes a few
headline ratios from that page: check them too.
"""
import sys
from collections import defaultdict

PAGE = "docs/benchmarks.md"


def tables(text):
    """(header line, start line, end line) of every Markdown table in `text`."""
    found = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            found.append((lines[i], i, j))
            i = j
        else:
            i += 1
    return found


if len(sys.argv) < 2:
    sys.exit(__doc__)

new = defaultdict(list)
for path in sys.argv[1:]:
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    for header, start, end in tables(text):
        new[header].append(lines[start:end])

page = open(PAGE, encoding="utf-8").read()
lines = page.split("\n")
seen = defaultdict(int)
out = []
last = 0
replaced = 0
for header, start, end in tables(page):
    index = seen[header]
    seen[header] += 1
    if index < len(new[header]):
        out.extend(lines[last:start])
        out.extend(new[header][index])
        last = end
        replaced += 1
out.extend(lines[last:])
open(PAGE, "w", encoding="utf-8").write("\n".join(out))

unused = [h for h, found in new.items() if len(found) > seen.get(h, 0)]
print(f"replaced {replaced} tables in {PAGE}")
for header in unused:
    print(f"not on the page (a new table? add it by hand): {header}")
