#!/usr/bin/env python3
"""Hold the parameter-range table of docs/verification.md to the RTL's elaboration checks.

  check_param_ranges.py --src DIR --build DIR --verilator EXE [--ctest EXE] [--long]
                        [--table FILE] [--rtl DIR] [--only MODULE]

1. The table's (module, parameter, range) rows equal the range checks in the RTL (every
   "<module>: <parameter> outside its verified range: <range>" message).
2. Per row, Verilator refuses the values just outside the range (and a value that is not a power
   of two, where the range asks for one) with exactly one line of that module naming that
   parameter and range (or, where the value leaves a port zero or negative bits wide, refuses
   that port: Verilator's LITENDIAN comes first), and accepts both ends; an end covered only by long runs is elaborated
   only with --long (that run's own build accepts it).
3. Every covering item exists: a run in <build>/cosim_runs_planned.txt, a proof in
   `scripts/formal.sh --list --deep` whose parameters include the end's value, a test in CTest.
One line per problem, "param-ranges: ..."; exit 1 if any, 0 (with a summary) if none.
"""
import argparse
import os
import re
import subprocess
import sys

RANGE_RE = re.compile(r"^(a power of two in )?\[(\w+), (\d+)\]$")
CHECK_RE = re.compile(r'"(\w+): ([\w ()]+?) outside its verified range: ([^"]+)"')
ITEM_RE = re.compile(r"^(run|proof|test) `([^`]+)`$")


def parse_table(path):
    text = open(path, encoding="utf-8").read()
    m = re.search(r"<!-- param-ranges:.*?-->\n(.*?)<!-- end param-ranges -->", text, re.S)
    if not m:
        raise SystemExit(f"param-ranges: {path}: no table between the param-ranges markers")
    rows = []
    for line in m.group(1).splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 6 or cells[0] in ("module", "") or set(cells[0]) <= set("-"):
            continue
        module, param, with_, accepted, low, high = cells
        rows.append({"module": module, "param": param, "with": with_, "accepted": accepted,
                     "low": [i.strip() for i in low.split(";")],
                     "high": [i.strip() for i in high.split(";")]})
    return rows


def rtl_checks(rtl_dir):
    found = set()
    for name in sorted(os.listdir(rtl_dir)):
        if name.endswith(".sv"):
            for m in CHECK_RE.finditer(open(os.path.join(rtl_dir, name), encoding="utf-8").read()):
                found.add((m.group(1), m.group(2), m.group(3)))
    return found


def gparams(row, value):
    """-G arguments of a row at `value`: its `with` values plus the parameter itself."""
    env = dict(p.split("=") for p in row["with"].split()) if row["with"] else {}
    name = row["param"].split()[0]
    env[name] = str(value)
    return env, [f"-G{k}={v}" for k, v in env.items()]


def bounds(row):
    m = RANGE_RE.match(row["accepted"])
    if not m:
        return None
    env, _ = gparams(row, 0)
    lo = int(env["N"]) if m.group(2) == "N" else int(m.group(2))
    return bool(m.group(1)), lo, int(m.group(3))


def lint(args, sources, top, gargs):
    # The RTL's macro header (pinet_param.svh): from the checked directory if it has one, else ours.
    incdirs = dict.fromkeys([args.rtl or os.path.join(args.src, "rtl"), os.path.join(args.src, "rtl")])
    cmd = [args.verilator, "--lint-only", "-Wall", os.path.join(args.src, "lint", "verilator_waiver.vlt")]
    cmd += [f"+incdir+{d}" for d in incdirs]
    cmd += sources + ["--top-module", top] + gargs
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--src", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--verilator", default="verilator")
    ap.add_argument("--ctest", default="ctest")
    ap.add_argument("--table", default=None)
    ap.add_argument("--rtl", default=None, help="check this RTL directory instead of <src>/rtl")
    ap.add_argument("--long", action="store_true", help="also elaborate the ends long runs cover")
    ap.add_argument("--only", default=None, metavar="MODULE",
                    help="check the covering items and elaborations of MODULE's rows only "
                    "(the table and the RTL's checks are still compared whole)")
    args = ap.parse_args()
    table = args.table or os.path.join(args.src, "docs", "verification.md")
    rtl_dir = args.rtl or os.path.join(args.src, "rtl")
    problems = []
    rows = parse_table(table)

    # 1. The table and the RTL's checks name the same ranges.
    in_table = {(r["module"], r["param"], r["accepted"]) for r in rows}
    in_rtl = rtl_checks(rtl_dir)
    for c in sorted(in_rtl - in_table):
        problems.append(f"the RTL checks {c[0]} {c[1]} in {c[2]!r}, the table has no such row")
    for c in sorted(in_table - in_rtl):
        problems.append(f"the table says {c[0]} {c[1]} accepts {c[2]!r}, no RTL check says so")

    # 3. The covering items exist (read once).
    planned = {}  # run -> kind (default, long, soak, or unbuilt: a long run this build leaves out)
    for line in open(os.path.join(args.build, "cosim_runs_planned.txt"), encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            name, kind = line.strip().split("|")[:2]
            planned[name] = kind
    proofs = subprocess.run(["bash", os.path.join(args.src, "scripts", "formal.sh"), "--list", "--deep"],
                            stdout=subprocess.PIPE, text=True, check=True).stdout.split("\n")
    tests = set(re.findall(r"Test +#\d+: (\S+)", subprocess.run(
        [args.ctest, "--test-dir", args.build, "-N"], stdout=subprocess.PIPE, text=True,
        check=False).stdout))

    sources = []
    for line in open(os.path.join(args.src, "rtl", "pinet.f"), encoding="utf-8"):
        line = line.strip()
        if line and not line.startswith("//"):
            sources.append(os.path.join(rtl_dir, os.path.basename(line)) if args.rtl
                           else os.path.join(args.src, line))

    elaborated = 0
    degenerate = 0
    for row in rows:
        if args.only and row["module"] != args.only:
            continue
        where = f"{row['module']} {row['param']}"
        b = bounds(row)
        if b is None:
            problems.append(f"{where}: range {row['accepted']!r} is not '[lo, hi]' or "
                            "'a power of two in [lo, hi]'")
            continue
        pow2, lo, hi = b
        name = row["param"].split()[0]
        for end, value in (("low", lo), ("high", hi)):
            items = [ITEM_RE.match(i) for i in row[end]]
            before = len(problems)
            for item, m in zip(row[end], items):
                if not m:
                    problems.append(f"{where}: {end} end: {item!r} is not run/proof/test `name`")
                    continue
                kind, what = m.groups()
                if kind == "run" and what not in planned:
                    problems.append(f"{where}: {end} end: no run {what} in the size tables")
                elif kind == "test" and what not in tests:
                    problems.append(f"{where}: {end} end: no CTest test {what}")
                elif kind == "proof":
                    if what not in proofs:
                        problems.append(f"{where}: {end} end: no proof '{what}' in formal.sh --list --deep")
                    elif f"{name}={value}" not in re.split(r"[(),]", what):
                        problems.append(f"{where}: {end} end: proof '{what}' is not at {name}={value}")
            if len(problems) > before:
                continue  # this end already fails; elaborating it (128 x 128: 20 s) adds nothing
            only_long = all(m and m.group(1) == "run" and planned.get(m.group(2)) in ("long", "unbuilt")
                            for m in items)
            if only_long and not args.long:
                continue
            # 2a. Both ends elaborate cleanly.
            _, g = gparams(row, value)
            rc, out = lint(args, sources, row["module"], g)
            elaborated += 1
            if rc != 0:
                first = next((l for l in out.splitlines() if l.startswith("%")), out.strip()[:200])
                problems.append(f"{where}: the {end} end {value} is refused: {first}")

        # 2b. Just outside (and not a power of two) is one line naming the parameter and range.
        outside = [lo // 2 if pow2 else lo - 1, hi * 2 if pow2 else hi + 1]
        if pow2 and lo * 3 // 2 < hi:
            outside.append(lo * 3 // 2 if lo >= 2 else 3)
        line_re = re.compile(r"%Warning-USERERROR: .*?: " + re.escape(
            f"{row['module']}: {row['param']} outside its verified range: {row['accepted']}") + "$")
        for value in outside:
            if value < 0:
                continue
            _, g = gparams(row, value)
            rc, out = lint(args, sources, row["module"], g)
            elaborated += 1
            lines = out.splitlines()
            mine = [l for l in lines if line_re.match(l)]
            others = [l for l in lines if l.startswith("%Warning-USERERROR")
                      and "outside its verified range" not in l]
            if rc == 0:
                problems.append(f"{where}: {name}={value} is outside {row['accepted']} but elaborates")
            elif not mine and any(l.startswith("%Warning-LITENDIAN") for l in lines):
                # Below some ranges a port's width is zero or negative ([Width-1:0] at Width 0,
                # the bitmap at Side 2): Verilator refuses the port itself, naming it, before
                # any elaboration check can run.
                degenerate += 1
            elif len(mine) != 1 or others:
                first = next((l for l in lines if l.startswith("%")), "")
                problems.append(f"{where}: {name}={value}: expected one line naming "
                                f"{row['param']} and {row['accepted']}, got {len(mine)} ({first})")

    for p in problems:
        print(f"param-ranges: {p}")
    if problems:
        return 1
    print(f"param-ranges: {len(rows)} ranges match the RTL's checks; {elaborated} elaborations "
          f"({degenerate} below a range refused for a port of width <= 0); every covering run, "
          "proof and test exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
