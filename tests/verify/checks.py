"""checks.py - the shared preamble of the engine's Python tests (test_engine.py, test_verdict.py,
test_formal_flow.py): the source tree is argv[1], its scripts/ goes on sys.path (so that
`from pinet_dv import ...` imports the engine under test), check(cond, what) counts a check and
prints "FAIL: what" when it does not hold, and done(name) prints "<name>: N checks, F failed" and
exits 1 if any failed. Import it first: `from checks import check, done, src`."""
import os
import sys

if len(sys.argv) < 2:
    sys.exit(f"usage: {os.path.basename(sys.argv[0])} SOURCE_DIR ...")
src = sys.argv[1]
sys.path.insert(0, os.path.join(src, "scripts"))
_counts = {"checks": 0, "fails": 0}


def check(cond, what) -> bool:
    _counts["checks"] += 1
    if not cond:
        _counts["fails"] += 1
        print(f"FAIL: {what}", flush=True)
    return bool(cond)


def done(name: str) -> None:
    print(f"{name}: {_counts['checks']} checks, {_counts['fails']} failed")
    sys.exit(1 if _counts["fails"] else 0)
