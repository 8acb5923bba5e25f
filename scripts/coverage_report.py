#!/usr/bin/env python3
"""Verilator coverage summary: line (line + branch points) and toggle coverage, judged per RTL module.

usage: coverage_report.py DIR [--min PCT] [--rtl RTL_DIR]
Reads DIR/<run>.dat (written by the cosims built with PINET_COVERAGE=ON), prints one row per
run and writes annotated sources to DIR/<run>/ with verilator_coverage --annotate; then one row
per module, merged over every run and every instance (a point counts as hit when some
instance in some run hit it; the points of every parameterisation count), and with lcov's
genhtml an HTML report of all runs merged in DIR/html/.

Every RTL module (its points lie in a file of RTL_DIR, default <repo>/rtl) must reach PCT
(default 95) % line and toggle coverage; harness modules (cosim tops) and the assertion checkers
(rtl/assert/) are listed, not judged. A point's file relative to the directory Verilator ran in
(the cosims: cosim/<family>/) resolves against --base (default: those directories).
The regions of RTL_DIR excluded with `/* verilator coverage_off */ // <reason>` ...
`/* verilator coverage_on */` are listed with their reasons, so that an exclusion is visible
in the report and not only in the source. Exit status: 0 every RTL module passes, 1 a module
below PCT, a coverage_off without a reason or a coverage_on, or no .dat files; 2 usage.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
PRAGMA = re.compile(r"(?:/\*|//)\s*verilator\s+(coverage_off|coverage_on)\b")
# the one form that carries a reason: the block comment pragma, then a // comment on its line
REASON = re.compile(r"/\*\s*verilator\s+coverage_off\s*\*/\s*//\s*(\S.*?)\s*$")
RTL_SUFFIXES = (".sv", ".svh", ".v")


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


def inside(path, directory):
    """True when path (resolved) lies in directory (already resolved)."""
    return os.path.commonpath([os.path.realpath(path), directory]) == directory


def default_bases():
    """Where Verilator ran: the cosim models are verilated in cosim/<family>/ with source paths
    relative to it (clone-independent ccache hits), so a point's file is "../../rtl/x.sv"."""
    return sorted(glob.glob(os.path.join(REPO, "cosim", "*", ""))) + [os.path.join(REPO, "cosim"), REPO]


def resolver(bases):
    """A function: a point's file (absolute, or relative to the directory Verilator ran in) ->
    its real path; a relative one resolves against the first base where the file exists."""
    cache = {}

    def resolve(path):
        if path not in cache:
            found = path if os.path.isabs(path) else next(
                (c for c in (os.path.join(b, path) for b in bases) if os.path.exists(c)),
                os.path.join(bases[0], path))
            cache[path] = os.path.realpath(found)
        return cache[path]
    return resolve


def judged_kind(kinds, rtl_dir, checker_dirs, resolve):
    """"rtl" when any of a module's points lies in a file of rtl_dir (outside the checker
    directories): judged. "checker" for an assertion checker (rtl/assert/: verification code,
    its body excluded with coverage_off; its ports' toggles are listed, not judged), "harness" for
    a module with no point in rtl_dir (a cosim top). key[1] is the point's file."""
    files = {resolve(key[1]) for v in kinds.values() for key in v if key[1]}
    if any(inside(f, d) for f in files for d in checker_dirs):
        return "checker"
    return "rtl" if any(inside(f, rtl_dir) for f in files) else "harness"


def failures(kinds, minimum):
    """[(kind, percent)] of the kinds below minimum; a kind without points passes."""
    out = []
    for kind in ("line", "toggle"):
        hit, total = sum(kinds[kind].values()), len(kinds[kind])
        if total and 100.0 * hit < minimum * total:
            out.append((kind, 100.0 * hit / total))
    return out


def shown(path):
    """path relative to the repository when inside it (as the report's reader types it)."""
    return os.path.relpath(path, REPO) if inside(path, REPO) else path


def regions(path):
    """(regions, errors) of one source: regions [(first, last, reason)] from a coverage_off
    pragma's line to its coverage_on's; errors [(line, message)] for a coverage_off without
    a reason or without a following coverage_on (a second off before the on leaves the first
    one unmatched)."""
    found, errors, open_ = [], [], None
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            for m in PRAGMA.finditer(line):
                if m.group(1) == "coverage_off":
                    if open_:
                        errors.append((open_[0], "coverage_off without a matching coverage_on"))
                    reason = REASON.match(line, m.start())
                    open_ = (lineno, reason.group(1) if reason else None)
                elif open_:
                    if open_[1] is None:
                        errors.append((open_[0], "coverage_off without a reason"))
                    else:
                        found.append((open_[0], lineno, open_[1]))
                    open_ = None
    if open_:
        errors.append((open_[0], "coverage_off without a matching coverage_on"))
    return found, errors


def rtl_sources(rtl_dir):
    """Every Verilog/SystemVerilog source under rtl_dir, sorted."""
    return sorted(os.path.join(d, n) for d, _, names in os.walk(rtl_dir)
                  for n in names if n.endswith(RTL_SUFFIXES))


def report_exclusions(rtl_dir):
    """Print the excluded regions and the malformed pragmas; return the number of the latter."""
    listed, bad = [], []
    for path in rtl_sources(rtl_dir):
        found, errors = regions(path)
        listed += [(shown(path), first, last, reason) for first, last, reason in found]
        bad += [(shown(path), line, msg) for line, msg in errors]
    lines = sum(last - first + 1 for _, first, last, _ in listed)
    print(f"coverage: {len(listed)} region(s) excluded with coverage_off ({lines} lines)"
          + (":" if listed else ""))
    for path, first, last, reason in listed:
        print(f"  {path}:{first}-{last}  {reason}")
    for path, line, msg in sorted(bad):
        print(f"coverage: {path}:{line}: {msg}")
    return len(bad)


def report_modules(files, rtl_dir, minimum, resolve):
    """Print the merged per-module table with a verdict column and the verdict lines; return
    the number of failures. RTL modules first, then the checkers and the harness modules."""
    below = f"BELOW {minimum:g}%"
    table = merged(files)
    checker_dirs = {os.path.realpath(os.path.join(d, "assert")) for d in (rtl_dir, os.path.join(REPO, "rtl"))}
    kind_of = {m: judged_kind(k, rtl_dir, checker_dirs, resolve) for m, k in table.items()}
    failed = []
    width = max([22] + [len(m) for m in table])  # a long checker name keeps the columns aligned
    print(f"{'module (all runs)':{width}s} {'line coverage':24s} {'toggle coverage':24s} verdict")
    for module in sorted(table, key=lambda m: (kind_of[m] != "rtl", m)):
        kinds = table[module]
        row = [pct([sum(v.values()), len(v)]) for v in (kinds["line"], kinds["toggle"])]
        fails = failures(kinds, minimum) if kind_of[module] == "rtl" else []
        failed += [(module, kind, p) for kind, p in fails]
        verdict = (f"{kind_of[module]} (not judged)" if kind_of[module] != "rtl"
                   else below if fails else "ok")
        print(f"{module:{width}s} {row[0]:24s} {row[1]:24s} {verdict}")
    if not failed:
        print(f"coverage: every RTL module >= {minimum:g}% line and toggle")
    for module, kind, p in failed:
        print(f"coverage: FAIL {module} {kind} {p:.2f}% < {minimum:g}%")
    return len(failed)


def quiet(cmd):
    """Run cmd without output; False when it fails or its program is not installed."""
    return bool(shutil.which(cmd[0])) and subprocess.run(
        cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False).returncode == 0


def absolute_sources(info, resolve):
    """Rewrite an lcov .info file's SF: lines (the sources as the .dat files name them, relative
    to each model's Verilator directory) to real paths."""
    with open(info, encoding="latin-1") as f:
        lines = f.readlines()
    with open(info, "w", encoding="latin-1") as f:
        f.writelines("SF:" + resolve(l[3:].rstrip("\n")) + "\n" if l.startswith("SF:") else l
                     for l in lines)


def arguments():
    """Parsed options; argparse exits 2 on a usage error."""
    ap = argparse.ArgumentParser(prog="coverage_report.py",
                                 description="coverage per run and per module, judged per RTL module")
    ap.add_argument("dir", metavar="DIR", help="directory of the runs' <run>.dat files")
    ap.add_argument("--min", type=float, default=95.0, metavar="PCT",
                    help="line and toggle coverage every RTL module must reach (default 95)")
    ap.add_argument("--rtl", default=os.path.join(REPO, "rtl"), metavar="RTL_DIR",
                    help="the modules whose points lie here are judged (default <repo>/rtl)")
    ap.add_argument("--base", action="append", metavar="BASE_DIR",
                    help="a directory Verilator ran in: relative source paths resolve against "
                         "it (repeatable; default <repo>/cosim/*/, <repo>/cosim, <repo>)")
    args = ap.parse_args()
    for name, path in (("DIR", args.dir), ("RTL_DIR", args.rtl)):
        if not os.path.isdir(path):
            ap.error(f"{name} {path}: not a directory")
    return args


def main():
    args = arguments()
    rtl_dir = os.path.realpath(args.rtl)
    files = sorted(glob.glob(os.path.join(args.dir, "*.dat")))
    if not files:
        print("coverage: no .dat files (were the cosims built with PINET_COVERAGE=ON?)", file=sys.stderr)
        return 1
    print(f"{'run':22s} {'line coverage':24s} {'toggle coverage':24s} annotated sources")
    for path in files:
        run = os.path.splitext(os.path.basename(path))[0]
        kinds = parse(path)
        outdir = os.path.join(args.dir, run)
        quiet(["verilator_coverage", "--annotate", outdir, path])
        print(f"{run:22s} {pct(kinds['line']):24s} {pct(kinds['toggle']):24s} {outdir}/")
    print()
    resolve = resolver(args.base or default_bases())
    failed = report_modules(files, rtl_dir, args.min, resolve)
    failed += report_exclusions(rtl_dir)
    info = os.path.join(args.dir, "merged.info")
    html = os.path.join(args.dir, "html")
    if quiet(["verilator_coverage", "--write-info", info, *files]) and shutil.which("genhtml"):
        absolute_sources(info, resolve)  # genhtml reads each source by its SF: path
        ok = quiet(["genhtml", "--quiet", "--title", "pinet RTL (all cosim runs)",
                    "--output-directory", html, info])
        print(f"coverage: HTML report of all runs: {html}/index.html" if ok else
              "coverage: genhtml failed (the tables above stand)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
