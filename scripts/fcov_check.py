#!/usr/bin/env python3
"""fcov_check.py - functional coverage against the testplans: the bins the cosim harnesses hit
(DIR/*.txt, written by cosim/common/fcov.h, "<block> <bin> <hits>" lines summed over the files)
against the bins the testplans plan (docs/testplans/<block>.json, each testpoint's "bins"; a bin
no stimulus can hit is listed in the testpoint's "unreachable" map with its reason).

    python3 scripts/fcov_check.py --fcov DIR [--plans DIR] [--blocks B1,B2,...] [--strict] [--long]

The bins of a testpoint marked "long" (the long runs' own sizes) are planned with --long only
(verify.sh --long); without it they are neither holes nor "in no testplan".
Judged: the blocks named by --blocks (verify.sh: the blocks of the runs it made), default every
block with bins in a plan. Prints one line per judged block with bins,
    fcov: <block> <hit>/<planned> bins hit, <u> unreachable (justified), <h> holes[: bin, ...]
then each unreachable bin that was hit after all (its reason is wrong: a failure), the bins hit
that no plan names (information), and a verdict line:
    fcov: PASS <n> blocks, every planned bin hit or justified
    fcov: FAIL <h> holes in <blocks>
Exit status: 0 no hole (or holes without --strict), 1 a hole or a hit unreachable bin with
--strict, 2 usage, 4 a plan or data file cannot be read.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import testplan  # noqa: E402
from pinet_quote import quote  # noqa: E402


def read_fcov(directory, problems):
    """{block: {bin: hits}} from DIR/*.txt; a malformed line goes to `problems` and is skipped."""
    hits = {}
    if not os.path.isdir(directory):
        return hits
    for fn in sorted(os.listdir(directory)):
        if not fn.endswith(".txt"):
            continue
        path = os.path.join(directory, fn)
        with open(path, encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                words = line.split("#", 1)[0].split()
                if not words:
                    continue
                if len(words) != 3 or not words[2].isdigit():
                    problems.append(f"{quote(path)}:{n}: not '<block> <bin> <hits>': {quote(line.strip())}")
                    continue
                block = hits.setdefault(words[0], {})
                block[words[1]] = block.get(words[1], 0) + int(words[2])
    return hits


def planned(plans, long=False):
    """{block: ([bins in plan order], {bin: reason})} over every testpoint of every plan (the long
    testpoints' only with long)."""
    out = {}
    for _, plan in plans:
        bins, why = out.setdefault(plan["block"], ([], {}))
        for tp in plan["testpoints"]:
            if tp.get("long") and not long:
                continue
            for b in tp.get("bins", []):
                if b not in bins:
                    bins.append(b)
            why.update(tp.get("unreachable", {}))
    return out


def holes_of(bins, why, got):
    """The one computation of holes: (hit, holes, justified, wrong) of the planned BINS against
    GOT ({bin: hits}), WHY ({bin: reason}) the bins listed as unreachable. hit: planned bins hit;
    holes: planned bins never hit and not justified; justified: unreachable bins not hit; wrong:
    unreachable bins hit after all. (scripts/verify_report.py's sign-off uses it per testpoint.)"""
    hit = [b for b in bins if got.get(b, 0) > 0]
    holes = [b for b in bins if got.get(b, 0) == 0 and b not in why]
    justified = [b for b in why if got.get(b, 0) == 0]
    wrong = [b for b in why if got.get(b, 0) > 0]
    return hit, holes, justified, wrong


def judge(plans, hits, blocks=None, strict=True, long=False):
    """(lines, holes, wrong): the report lines, the number of holes and of unreachable bins hit."""
    lines, nholes, nwrong, failing = [], 0, 0, []
    plan_bins = planned(plans, long)
    known = planned(plans, True)  # a long testpoint's bin hit in a run without --long is known
    judged = [b for b in plan_bins if plan_bins[b][0] and (blocks is None or b in blocks)]
    for block in judged:
        bins, why = plan_bins[block]
        got = hits.get(block, {})
        hit, holes, justified, wrong = holes_of(bins, why, got)
        line = (f"fcov: {block} {len(hit)}/{len(bins)} bins hit, {len(justified)} unreachable "
                f"(justified), {len(holes)} holes")
        lines.append(line + (": " + ", ".join(holes) if holes else ""))
        for b in wrong:
            lines.append(f"fcov: {block} {b}: listed as unreachable ({why[b]}) but hit "
                         f"{got[b]} times")
        extra = sorted(b for b in got if b not in known[block][0] and got[b] > 0)
        if extra:
            lines.append(f"fcov: {block} bins hit in no testplan ({len(extra)}): "
                         + ", ".join(extra[:12]) + (", ..." if len(extra) > 12 else ""))
        nholes += len(holes)
        nwrong += len(wrong)
        if holes or wrong:
            failing.append(block)
    if failing:
        lines.append(f"fcov: FAIL {nholes} holes, {nwrong} unreachable bins hit, in "
                     + ", ".join(failing)
                     + ("" if strict else " (reported only: verify.sh --coverage fails on it)"))
    else:
        lines.append(f"fcov: PASS {len(judged)} blocks, every planned bin hit or justified")
    return lines, nholes, nwrong


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(prog="fcov_check.py", description=__doc__.split("\n")[0])
    ap.add_argument("--fcov", required=True, help="directory of <run>.txt coverage files")
    ap.add_argument("--plans", default=os.path.join(root, "docs", "testplans"))
    ap.add_argument("--blocks", help="comma-separated blocks to judge (default: every block with bins)")
    ap.add_argument("--strict", action="store_true", help="exit 1 on a hole")
    ap.add_argument("--long", action="store_true",
                    help="the long runs ran: plan the bins of the long testpoints too")
    args = ap.parse_args(argv)
    problems = []
    try:
        plans = testplan.load_plans(args.plans)
        hits = read_fcov(args.fcov, problems)
    except testplan.PlanError as e:
        print(f"fcov: {e}", file=sys.stderr)
        return 4
    except OSError as e:
        print(f"fcov: cannot read: {e}", file=sys.stderr)
        return 4
    for p in problems:
        print(f"fcov: {p}", file=sys.stderr)
    blocks = None if args.blocks is None else {b for b in args.blocks.split(",") if b}
    lines, holes, wrong = judge(plans, hits, blocks, args.strict, args.long)
    print("Functional coverage against the testplans (docs/testplans)")
    for line in lines:
        print(line)
    return 1 if args.strict and (holes or wrong) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
