#!/usr/bin/env python3
"""The workspace's shape, checked: no source file over 900 lines in any crate's
`src/`, and, in the crates given (default: pool-audio), no function over 80 lines
outside tests and no circle of imports between a crate's top-level modules.
Prints every offender and exits 1 if there is one.

    python3 scripts/sizes.py                # CI's check
    python3 scripts/sizes.py pool-audio pool-core --list 40   # the longest functions

A function is counted from its `fn` line to the line that closes its body
(braces counted outside strings, chars and comments); `#[cfg(test)]` modules,
`tests.rs`/`test.rs` files and files under a `tests` folder are skipped.
"""
import glob
import re
import sys

MAX_FILE_LINES = 900
MAX_FN_LINES = 80

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(async\s+)?(unsafe\s+)?fn\s+(\w+)")


def code_only(line, in_block):
    """The line without comments, strings and char literals; and whether a
    block comment is still open at its end."""
    out, i = [], 0
    while i < len(line):
        if in_block:
            end = line.find("*/", i)
            if end < 0:
                return "".join(out), True
            i, in_block = end + 2, False
        elif line.startswith("//", i):
            break
        elif line.startswith("/*", i):
            in_block, i = True, i + 2
        elif line[i] == '"':
            i += 1
            while i < len(line) and line[i] != '"':
                i += 2 if line[i] == "\\" else 1
            i += 1
        elif line[i] == "'" and re.match(r"'(\\.|[^\\'])'", line[i:]):
            i += len(re.match(r"'(\\.|[^\\'])'", line[i:]).group(0))
        else:
            out.append(line[i])
            i += 1
    return "".join(out), in_block


def functions(path):
    """(name, first line, length) of every function outside tests in `path`."""
    lines = open(path).read().split("\n")
    found, in_block, i = [], False, 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]":
            # Skip the item that follows: a test module or function.
            depth, opened = 0, False
            i += 1
            while i < len(lines):
                code, in_block = code_only(lines[i], in_block)
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
                i += 1
                if opened and depth <= 0 or (not opened and code.strip().endswith(";")):
                    break
            continue
        match = FN.match(lines[i])
        if match:
            start, depth, opened, j = i, 0, False, i
            while j < len(lines):
                code, in_block = code_only(lines[j], in_block)
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
                if not opened and code.strip().endswith(";"):
                    break  # a declaration without a body
                if opened and depth <= 0:
                    found.append((match.group(6), start + 1, j - start + 1))
                    break
                j += 1
        i += 1
    return found


def circles(crate):
    """The circles of `use crate::…` between the top-level modules of `crate`."""
    imports = {}
    for path in glob.glob(f"{crate}/src/**/*.rs", recursive=True):
        module = path[len(f"{crate}/src/"):].split("/")[0].removesuffix(".rs")
        named = set(re.findall(r"crate::(\w+)", open(path).read()))
        imports.setdefault(module, set()).update(named - {module})
    index, low, stack, found, counter = {}, {}, [], [], [0]

    def visit(v):  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        for w in sorted(imports[v] & imports.keys()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(imports):
        if v not in index:
            visit(v)
    return found


def main(args):
    listing = 0
    if "--list" in args:
        at = args.index("--list")
        listing = int(args[at + 1])
        args = args[:at] + args[at + 2:]
    crates = args or ["pool-audio"]
    bad = False
    for path in sorted(glob.glob("*/src/**/*.rs", recursive=True)):
        length = sum(1 for _ in open(path))
        if length > MAX_FILE_LINES:
            print(f"{path}: {length} lines (at most {MAX_FILE_LINES})")
            bad = True
    rows = []
    for crate in crates:
        for path in sorted(glob.glob(f"{crate}/src/**/*.rs", recursive=True)):
            if path.endswith(("/tests.rs", "/test.rs")) or "/tests/" in path:
                continue
            rows += [(length, path, line, name) for name, line, length in functions(path)]
    for length, path, line, name in sorted(rows, reverse=True):
        if length > MAX_FN_LINES:
            print(f"{path}:{line}: fn {name} is {length} lines (at most {MAX_FN_LINES})")
            bad = True
    for crate in crates:
        for circle in circles(crate):
            print(f"{crate}: its modules {', '.join(circle)} import each other")
            bad = True
    for length, path, line, name in sorted(rows, reverse=True)[:listing]:
        print(f"{length:5} {path}:{line} {name}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
