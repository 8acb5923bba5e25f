#!/usr/bin/env python3
"""test_testplans.py SOURCE_DIR BUILD_DIR - the testplans (docs/testplans/*.json) against this
build: every plan valid, every run and test it names registered, every registered run covered
(scripts/testplan.py check). Then the check must fail, with its one line, on broken copies of the
plans: a run that does not exist, a test that does not exist, a registered run no testpoint
covers, a bad regular expression, invalid JSON, an unknown key, a plan named after another block.
A few seconds."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

src, build = sys.argv[1], sys.argv[2]
tool = os.path.join(src, "scripts", "testplan.py")
plans = os.path.join(src, "docs", "testplans")
runs = os.path.join(build, "cosim_runs.list")
fails = 0


def fail(msg):
    global fails
    print(f"FAIL: {msg}")
    fails += 1


def run(plan_dir, *extra):
    p = subprocess.run([sys.executable, tool, "check", "--plans", plan_dir, "--runs", runs, *extra],
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


blocks = {"rta_switch", "rta_ring", "rta_torus2d", "rta_bitmap_ctrl", "rta_system", "ps_network",
          "ps_system", "recon_system"}
have = {f[:-5] for f in os.listdir(plans) if f.endswith(".json")}
if not blocks <= have:
    fail(f"blocks without a testplan: {sorted(blocks - have)}")

ctest = subprocess.run(["ctest", "--test-dir", build, "-N"], capture_output=True, text=True).stdout
tests_file = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
for line in ctest.splitlines():
    parts = line.split(": ", 1)
    if line.strip().startswith("Test") and len(parts) == 2:
        tests_file.write(parts[1].strip() + "\n")
tests_file.close()

rc, out = run(plans, "--tests", tests_file.name)
if rc != 0 or "testplan: OK" not in out:
    fail(f"the repository's plans: exit {rc}: {out.strip()}")
else:
    print(out.strip())


def broken(name, edit, expect, file="rta_ring.json"):
    """A copy of the plans with `edit(plan)` applied to `file` must fail naming `expect`."""
    with tempfile.TemporaryDirectory() as d:
        for f in os.listdir(plans):
            shutil.copy(os.path.join(plans, f), d)
        path = os.path.join(d, file)
        with open(path) as f:
            text = f.read()
        new = edit(json.loads(text)) if callable(edit) else edit
        with open(path, "w") as f:
            f.write(new if isinstance(new, str) else json.dumps(new))
        rc, out = run(d, "--tests", tests_file.name)
        if rc != 1 or expect not in out:
            fail(f"broken plan ({name}): exit {rc}, expected 1 and '{expect}': {out.strip()}")
        else:
            print(f"rejected as expected ({name}): {out.strip().splitlines()[0]}")


def add_run(p):
    p["testpoints"][0]["runs"].append("rta_ring_n12")
    return p


def add_test(p):
    p["testpoints"][0]["tests"].append("cosim_rta_ring_n12")
    return p


def drop_soak(p):
    p["testpoints"] = [tp for tp in p["testpoints"] if tp["name"] != "ring_soak"]
    return p


def bad_regex(p):
    p["testpoints"][0]["runs"] = ["^rta_ring_n[0-9+$"]
    return p


def unknown_key(p):
    p["testpoints"][0]["seeds"] = 4
    return p


broken("a run that is not registered", add_run, "run 'rta_ring_n12' matches no registered run")
broken("a test that does not exist", add_test, "test 'cosim_rta_ring_n12' matches no CTest test")
broken("a registered run no testpoint covers", drop_soak, "run 'rta_ring_n16_soak' is in no testplan")
broken("a bad regular expression", bad_regex, "bad regular expression")
broken("invalid JSON", '{"block": "rta_ring", ', "rta_ring.json")
broken("an unknown key", unknown_key, "unknown key(s) seeds")
broken("another block's name", lambda p: dict(p, block="rta_torus2d"), "is not the file's name")
os.unlink(tests_file.name)
if fails:
    print(f"test_testplans: {fails} check(s) failed")
    sys.exit(1)
print("test_testplans: all checks passed")
