#!/usr/bin/env python3
"""Verilator coverage summary: line (line + branch points) and toggle coverage.

usage: coverage_report.py DIR
Reads DIR/<run>.dat (written by the cosims built with PINET_COVERAGE=ON), prints one row per
run and writes annotated sources to DIR/<run>/ with verilator_coverage --annotate; then one row
per RTL module, merged over every run and every instance (a point counts as hit when some
instance in some run hit it; the points of every parameterisation count), and with lcov's
genhtml an HTML report of all runs merged in DIR/html/.
"""
import glob
import os
import shutil
import subprocess
import sys


def parse(path):
    """Return {kind: [hit, total]} for one coverage.dat (kind: line or toggle), every instance's
    points counted."""
    kinds = {"line": [0, 0], "toggle": [0, 0]}
    for _, kind, _, hit in points(path):
        kinds[kind][1] += 1
        kinds[kind][0] += hit
    return kinds


def points(path):
    """Yield (module, kind, key, hit) for each point of one coverage.dat; key leaves out the
    instance (h), so that every instance of a module shares its points."""
    with open(path, encoding="latin-1") as f:
        for raw in f:
            if not raw.startswith("C '"):
                continue
            key, _, count = raw.rstrip("\n").rpartition("' ")
            fields = dict(kv.split("\x02", 1) for kv in key[3:].split("\x01") if "\x02" in kv)
            page = fields.get("page", "")
            kind = "toggle" if page.startswith("v_toggle") else (
                "line" if page.startswith(("v_line", "v_branch")) else None)
            if kind is None:
                continue
            # v_line/rta_ring__N8: module rta_ring, parameterised (Verilator's suffix)
            module = (page.split("/", 1)[1] if "/" in page else "?").split("__", 1)[0]
            yield module, kind, (page.split("/", 1)[0], fields.get("f"), fields.get("l"),
                                 fields.get("n"), fields.get("o")), int(count) > 0


def merged(files):
    """{module: {kind: {key: hit}}} over every file."""
    out = {}
    for path in files:
        for module, kind, key, hit in points(path):
            k = out.setdefault(module, {"line": {}, "toggle": {}})[kind]
            k[key] = k.get(key, False) or hit
    return out


def pct(hit_total):
    hit, total = hit_total
    return f"{100.0 * hit / total:6.2f}% ({hit}/{total})" if total else "     n/a"


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        print("usage: coverage_report.py DIR", file=sys.stderr)
        return 2
    files = sorted(glob.glob(os.path.join(sys.argv[1], "*.dat")))
    if not files:
        print("coverage: no .dat files (were the cosims built with PINET_COVERAGE=ON?)", file=sys.stderr)
        return 1
    print(f"{'run':22s} {'line coverage':24s} {'toggle coverage':24s} annotated sources")
    for path in files:
        run = os.path.splitext(os.path.basename(path))[0]
        kinds = parse(path)
        outdir = os.path.join(sys.argv[1], run)
        subprocess.run(["verilator_coverage", "--annotate", outdir, path],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        print(f"{run:22s} {pct(kinds['line']):24s} {pct(kinds['toggle']):24s} {outdir}/")
    print()
    print(f"{'module (all runs)':22s} {'line coverage':24s} {'toggle coverage':24s}")
    for module, kinds in sorted(merged(files).items()):
        row = [pct([sum(v.values()), len(v)]) for v in (kinds["line"], kinds["toggle"])]
        print(f"{module:22s} {row[0]:24s} {row[1]:24s}")
    info = os.path.join(sys.argv[1], "merged.info")
    html = os.path.join(sys.argv[1], "html")
    ok = subprocess.run(["verilator_coverage", "--write-info", info, *files],
                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False).returncode == 0
    if ok and shutil.which("genhtml"):
        ok = subprocess.run(["genhtml", "--quiet", "--title", "pinet RTL (all cosim runs)",
                             "--output-directory", html, info],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False).returncode == 0
        print(f"coverage: HTML report of all runs: {html}/index.html" if ok else
              "coverage: genhtml failed (the tables above stand)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
