#!/usr/bin/env python3
"""Replaces the README's report tables with the ones of one report run.

    cargo run --release -p benches --bin report > /tmp/report.md
    python3 scripts/readme_numbers.py /tmp/report.md

Each table of the report replaces the README table under "## The numbers" with
the same header line. The prose around them quotes figures by hand: re-read it.
"""
import sys

report = open(sys.argv[1]).read()
readme_path = "README.md"
readme = open(readme_path).read()
head, numbers = readme.split("## The numbers", 1)

def tables(text):
    found = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].startswith("| ") and i + 1 < len(lines) and lines[i + 1].startswith("|---"):
            j = i
            while j < len(lines) and lines[j].startswith("|"):
                j += 1
            found.append((lines[i], "\n".join(lines[i:j])))
            i = j
        else:
            i += 1
    return found

replaced = 0
for header, table in tables(report):
    start = numbers.find(header + "\n")
    if start < 0:
        continue
    end = start
    rest = numbers[start:].split("\n")
    count = 0
    while count < len(rest) and rest[count].startswith("|"):
        count += 1
    old = "\n".join(rest[:count])
    numbers = numbers[:start] + table + numbers[start + len(old):]
    replaced += 1
open(readme_path, "w").write(head + "## The numbers" + numbers)
print(f"replaced {replaced} tables")
