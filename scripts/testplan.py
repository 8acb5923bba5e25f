#!/usr/bin/env python3
"""The block testplans (docs/testplans/<block>.json): loading, validation, and the check that they
name only registered runs and CTest tests and together cover every registered run.

    python3 scripts/testplan.py check [--plans DIR] --runs BUILD/cosim_runs.list
                                      [--ctest BUILD | --tests FILE]

A plan (one per block; format in docs/verification.md, "Testplans"):
    {"block": "rta_ring", "description": "...",
     "testpoints": [{"name": "ring_sizes", "description": "...", "milestone": "V1",
                     "runs": ["^rta_ring_n[0-9]+$", "rta_ring_n16_soak"],
                     "tests": ["^cosim_rta_ring_n[0-9]+$", "tb_rta_ring_icarus"],
                     "bins": ["bitmap_srta", "bitmap_arta"],
                     "unreachable": {"bitmap_arta": "why no stimulus can hit it"}}]}
A testpoint with "long": true is about the long runs (verify.sh --long): its run entries may name
runs that a build without PINET_LONG_TESTS plans but does not register (cosim_runs_planned.txt
beside the run list), and its bins are judged only when the long runs ran (fcov_check.py --long).
A run or test entry that starts with '^' is a regular expression (re.search), any other an exact
name. `unreachable` maps bins of the testpoint that no stimulus can hit to the reason (the functional
coverage check, scripts/fcov_check.py, accepts them as holes). Every entry must match at least one registered run (cosim_runs.list) or CTest test; every
registered run must be matched by some testpoint. Exit status: 0 the plans pass, 1 a plan fails a
check (one line per problem: "testplan: <file>: <what>"), 2 usage, 4 a file that cannot be read.
"""
import json
import os
import re
import subprocess
import sys

from pinet_quote import quote

NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
PLAN_KEYS = {"block", "description", "testpoints"}
POINT_KEYS = {"name", "description", "milestone", "runs", "tests", "bins", "unreachable", "long"}


class PlanError(Exception):
    """A problem with a plan, reported as one line."""


def is_pattern(entry):
    return entry.startswith("^")


def matches(entry, name):
    """Whether the run or test `name` is one the plan's `entry` names."""
    return re.search(entry, name) is not None if is_pattern(entry) else entry == name


def _strings(value, what, allow_empty=True):
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise PlanError(f"{what} must be a list of non-empty strings")
    if not allow_empty and not value:
        raise PlanError(f"{what} is empty")
    return value


def validate(plan, stem):
    """Checks one plan's structure (not its names against a build). Raises PlanError."""
    if not isinstance(plan, dict):
        raise PlanError("not a JSON object")
    extra = set(plan) - PLAN_KEYS
    if extra:
        raise PlanError(f"unknown key(s) {', '.join(sorted(extra))}")
    for key in sorted(PLAN_KEYS - set(plan)):
        raise PlanError(f"missing '{quote(key)}'")
    if plan["block"] != stem:
        raise PlanError(f"block '{quote(plan['block'])}' is not the file's name '{quote(stem)}'")
    if not isinstance(plan["description"], str) or not plan["description"].strip():
        raise PlanError("empty description")
    points = plan["testpoints"]
    if not isinstance(points, list) or not points:
        raise PlanError("'testpoints' must be a non-empty list")
    seen = set()
    for k, tp in enumerate(points):
        if not isinstance(tp, dict):
            raise PlanError(f"testpoint {k + 1} is not an object")
        name = tp.get("name")
        if not isinstance(name, str) or not NAME.match(name):
            raise PlanError(f"testpoint {k + 1}: name {name!r} is not an identifier")
        where = f"testpoint '{name}'"
        if name in seen:
            raise PlanError(f"{where} appears twice")
        seen.add(name)
        extra = set(tp) - POINT_KEYS
        if extra:
            raise PlanError(f"{where}: unknown key(s) {', '.join(sorted(extra))}")
        if not isinstance(tp.get("description"), str) or not tp["description"].strip():
            raise PlanError(f"{where}: missing or empty description")
        if "milestone" in tp and not isinstance(tp["milestone"], str):
            raise PlanError(f"{where}: milestone must be a string")
        if "long" in tp and not isinstance(tp["long"], bool):
            raise PlanError(f"{where}: long must be true or false")
        runs = _strings(tp.get("runs", []), f"{where}: 'runs'")
        tests = _strings(tp.get("tests", []), f"{where}: 'tests'")
        if not runs and not tests:
            raise PlanError(f"{where}: names no run and no test")
        for entry in runs + tests:
            if is_pattern(entry):
                try:
                    re.compile(entry)
                except re.error as e:
                    raise PlanError(f"{where}: bad regular expression '{quote(entry)}': {e}") from None
        bins = _strings(tp.get("bins", []), f"{where}: 'bins'")
        for b in bins:
            if not NAME.match(b):
                raise PlanError(f"{where}: bin '{quote(b)}' is not an identifier")
        if len(set(bins)) != len(bins):
            raise PlanError(f"{where}: a bin appears twice")
        unreachable = tp.get("unreachable", {})
        if not isinstance(unreachable, dict):
            raise PlanError(f"{where}: 'unreachable' must be an object {{bin: reason}}")
        for b, why in unreachable.items():
            if b not in bins:
                raise PlanError(f"{where}: unreachable bin '{quote(b)}' is not one of its bins")
            if not isinstance(why, str) or not why.strip():
                raise PlanError(f"{where}: unreachable bin '{quote(b)}' has no reason")
    return plan


def load_plans(directory):
    """Returns [(file, plan)] of every *.json in `directory`, sorted, each validated. Raises
    PlanError("<file>: <what>") on the first bad plan, OSError if the directory cannot be read."""
    plans = []
    for fn in sorted(os.listdir(directory)):
        if not fn.endswith(".json"):
            continue
        path = os.path.join(directory, fn)
        try:
            with open(path, encoding="utf-8") as f:
                plan = json.load(f)
            plans.append((path, validate(plan, fn[:-5])))
        except (ValueError, PlanError) as e:
            raise PlanError(f"{path}: {e}") from None
    return plans


def read_runs(path):
    """The run names of a cosim_runs.list (name|executable|arguments|kind), in order."""
    with open(path, encoding="utf-8") as f:
        return [l.split("|", 1)[0] for l in f.read().splitlines() if l.strip() and not l.startswith("#")]


def ctest_names(build):
    """The CTest tests of a build directory (ctest -N)."""
    out = subprocess.run(["ctest", "--test-dir", build, "-N"], capture_output=True, text=True,
                         check=True).stdout
    return [m.group(1) for m in re.finditer(r"^\s*Test\s+#\d+: (\S+)", out, re.M)]


def read_planned(runs_path):
    """The runs of the size tables a build left out (kind 'unbuilt' in cosim_runs_planned.txt,
    beside the run list), or an empty set when there is no such file."""
    path = os.path.join(os.path.dirname(runs_path) or ".", "cosim_runs_planned.txt")
    if not os.path.exists(path):
        return set()
    with open(path, encoding="utf-8") as f:
        return {l.split("|")[0] for l in f.read().splitlines()
                if l.strip() and not l.startswith("#") and l.split("|")[1:2] == ["unbuilt"]}


def check(plans, runs, tests, unbuilt=frozenset()):
    """Problems of the plans against the registered runs and (unless None) the CTest tests; a long
    testpoint's run entry may match a run of `unbuilt` instead (read_planned)."""
    problems = []
    blocks = {}
    for path, plan in plans:
        if plan["block"] in blocks:
            problems.append(f"{path}: block '{quote(plan['block'])}' also has {blocks[plan['block']]}")
        blocks[plan["block"]] = path
        for tp in plan["testpoints"]:
            names = list(runs) + (sorted(unbuilt) if tp.get("long") else [])
            for entry in tp.get("runs", []):
                if not any(matches(entry, r) for r in names):
                    problems.append(f"{path}: testpoint '{quote(tp['name'])}': run '{quote(entry)}' "
                                    "matches no registered run")
            for entry in tp.get("tests", []) if tests is not None else []:
                if not any(matches(entry, t) for t in tests):
                    problems.append(f"{path}: testpoint '{quote(tp['name'])}': test '{quote(entry)}' "
                                    "matches no CTest test")
    for r in runs:
        if not any(matches(e, r) for _, p in plans for tp in p["testpoints"] for e in tp.get("runs", [])):
            problems.append(f"run '{quote(r)}' is in no testplan's testpoint")
    return problems


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(prog="testplan.py", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("check", help="check the plans against a build")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    c.add_argument("--plans", default=os.path.join(root, "docs", "testplans"))
    c.add_argument("--runs", required=True, help="the build's cosim_runs.list")
    g = c.add_mutually_exclusive_group()
    g.add_argument("--ctest", metavar="BUILD", help="check test names against this build's CTest")
    g.add_argument("--tests", metavar="FILE", help="check test names against this list (one a line)")
    args = ap.parse_args(argv)
    try:
        plans = load_plans(args.plans)
        runs = read_runs(args.runs)
        tests = None
        if args.ctest:
            tests = ctest_names(args.ctest)
        elif args.tests:
            with open(args.tests, encoding="utf-8") as f:
                tests = [l.strip() for l in f if l.strip()]
    except PlanError as e:
        print(f"testplan: {e}", file=sys.stderr)
        return 1
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"testplan: cannot read: {e}", file=sys.stderr)
        return 4
    if not plans:
        print(f"testplan: {args.plans}: no *.json plan", file=sys.stderr)
        return 1
    problems = check(plans, runs, tests, read_planned(args.runs))
    for p in problems:
        print(f"testplan: {p}", file=sys.stderr)
    if problems:
        print(f"testplan: FAIL {len(problems)} problem(s)", file=sys.stderr)
        return 1
    npoints = sum(len(p["testpoints"]) for _, p in plans)
    print(f"testplan: OK {len(plans)} plans, {npoints} testpoints, {len(runs)} registered runs covered"
          + ("" if tests is None else f", test names checked against {len(tests)} CTest tests"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
