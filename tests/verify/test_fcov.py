#!/usr/bin/env python3
"""test_fcov.py SOURCE_DIR BUILD_DIR - functional coverage end to end, in seconds:
1. a real harness (cosim_rta_switch) with PINET_FCOV_FILE writes its planned bins in the
   '<block> <bin> <hits>' format; without the variable it writes nothing; a failing run
   (cosim_rta_ring --inject-fault) writes nothing; an unwritable path is exit 4 with one line;
2. scripts/fcov_check.py on synthetic data: --strict fails (exit 1) on a hole and names it,
   passes when every bin is hit or listed as unreachable, fails when an unreachable bin is hit,
   sums over files, reports a malformed line; without --strict a hole is printed, exit 0;
3. the real testplans judged on the real harness's file (rta_switch) pass, and the same file with
   one bin at 0 fails;
4. testplan.py rejects an unreachable bin that is not one of the testpoint's bins, or has no
   reason;
5. a testpoint marked long: its bins are judged with --long only (and are not "in no testplan"
   without it), its runs may be runs the build left out (unbuilt), only there; long is a bool."""
import json
import os
import subprocess
import sys
import tempfile

src, build = sys.argv[1], sys.argv[2]
check = os.path.join(src, "scripts", "fcov_check.py")
switch = os.path.join(build, "bin", "cosim_rta_switch")
fails = 0


def fail(msg):
    global fails
    print(f"FAIL: {msg}")
    fails += 1


def expect(cond, msg):
    if not cond:
        fail(msg)


def run(cmd, env=None):
    e = dict(os.environ)
    e.pop("PINET_FCOV_FILE", None)
    e.update(env or {})
    p = subprocess.run(cmd, capture_output=True, text=True, env=e)
    return p.returncode, p.stdout + p.stderr


def fcheck(plans, fcov, *extra):
    return run([sys.executable, check, "--plans", plans, "--fcov", fcov, *extra])


with tempfile.TemporaryDirectory() as tmp:
    # ---- 1. the harness side -----------------------------------------------------------------
    data = os.path.join(tmp, "fcov")
    os.mkdir(data)
    f1 = os.path.join(data, "rta_switch.txt")
    rc, out = run([switch, "--cycles", "200", "--quiet"], {"PINET_FCOV_FILE": f1})
    expect(rc == 0 and "PASS rta_switch" in out, f"cosim_rta_switch with PINET_FCOV_FILE: exit {rc}: {out}")
    lines = [l.split() for l in open(f1).read().splitlines() if l and not l.startswith("#")] \
        if os.path.exists(f1) else []
    bins = {l[1]: int(l[2]) for l in lines if len(l) == 3 and l[0] == "rta_switch"}
    expect(set(bins) == {"state_on", "state_off", "state_toggle"} and len(lines) == 3,
           f"the switch's bins: {lines}")
    expect(sum(bins.get(b, 0) for b in ("state_on", "state_off")) == 200, f"on + off cycles: {bins}")
    rc, _ = run([switch, "--cycles", "50", "--quiet"])
    expect(rc == 0 and sorted(os.listdir(data)) == ["rta_switch.txt"], "no variable: no file")
    f_fail = os.path.join(tmp, "failed.txt")
    ring = os.path.join(build, "bin", "cosim_rta_ring")
    rc, out = run([ring, "--pes", "4", "--cycles", "50", "--quiet", "--inject-fault", "10"],
                  {"PINET_FCOV_FILE": f_fail})
    expect(rc == 1 and not os.path.exists(f_fail), f"a failing run writes no coverage: exit {rc}")
    rc, out = run([switch, "--cycles", "50", "--quiet"], {"PINET_FCOV_FILE": tmp})
    expect(rc == 4 and "PINET_FCOV_FILE" in out and "is a directory" in out and
           "PASS" not in out and len(out.strip().splitlines()) == 1,
           f"an unwritable PINET_FCOV_FILE: exit {rc}: {out}")

    # ---- 2. the check on synthetic data ------------------------------------------------------
    plans = os.path.join(tmp, "plans")
    os.mkdir(plans)

    def plan(unreachable):
        tp = {"name": "tp", "description": "d", "runs": ["r"], "bins": ["a", "b", "c"]}
        if unreachable is not None:
            tp["unreachable"] = unreachable
        with open(os.path.join(plans, "blk.json"), "w") as f:
            json.dump({"block": "blk", "description": "d", "testpoints": [tp]}, f)

    def data_files(*texts):
        d = tempfile.mkdtemp(dir=tmp)
        for k, t in enumerate(texts):
            with open(os.path.join(d, f"run{k}.txt"), "w") as f:
                f.write(t)
        return d

    plan({"c": "no stimulus can reach it"})
    hole = data_files("# comment\nblk a 3\nblk b 0\n")
    rc, out = fcheck(plans, hole, "--strict")
    expect(rc == 1 and "fcov: blk 1/3 bins hit, 1 unreachable (justified), 1 holes: b" in out
           and "fcov: FAIL 1 holes" in out, f"a hole with --strict: exit {rc}: {out}")
    rc, out = fcheck(plans, hole)
    expect(rc == 0 and "holes: b" in out and "(reported only: verify.sh --coverage fails on it)" in out,
           f"a hole without --strict: exit {rc}: {out}")
    covered = data_files("blk a 3\n", "blk b 1\nother x 5\n")  # summed over two files
    rc, out = fcheck(plans, covered, "--strict")
    expect(rc == 0 and "fcov: PASS 1 blocks" in out and "0 holes" in out,
           f"covered or justified: exit {rc}: {out}")
    rc, out = fcheck(plans, data_files("blk a 1\nblk b 1\nblk c 2\n"), "--strict")
    expect(rc == 1 and "listed as unreachable (no stimulus can reach it) but hit 2 times" in out,
           f"an unreachable bin hit: exit {rc}: {out}")
    plan(None)
    rc, out = fcheck(plans, covered, "--strict")
    expect(rc == 1 and "holes: c" in out, f"c no longer justified: exit {rc}: {out}")
    rc, out = fcheck(plans, data_files("blk a 1\nblk b x\nblk c 1 2\n"), "--strict")
    expect(rc == 1 and out.count("not '<block> <bin> <hits>'") == 2 and "holes: b, c" in out,
           f"malformed lines: exit {rc}: {out}")
    rc, out = fcheck(plans, hole, "--strict", "--blocks", "other")
    expect(rc == 0 and "PASS 0 blocks" in out, f"a block not run is not judged: exit {rc}: {out}")

    # ---- 3. the real plans on the real file ---------------------------------------------------
    real = os.path.join(src, "docs", "testplans")
    rc, out = fcheck(real, data, "--strict", "--blocks", "rta_switch")
    expect(rc == 0 and "fcov: rta_switch 3/3 bins hit" in out, f"real rta_switch: exit {rc}: {out}")
    zero = data_files("".join(f"rta_switch {b} {0 if b == 'state_toggle' else n}\n"
                              for b, n in bins.items()))
    rc, out = fcheck(real, zero, "--strict", "--blocks", "rta_switch")
    expect(rc == 1 and "holes: state_toggle" in out, f"real plan, a bin at 0: exit {rc}: {out}")

    # ---- 4. the plan's unreachable map -------------------------------------------------------
    tool = os.path.join(src, "scripts", "testplan.py")
    runs = os.path.join(tmp, "runs.list")
    with open(runs, "w") as f:
        f.write("r|x||default\n")
    for bad, what in (({"z": "why"}, "is not one of its bins"), ({"a": " "}, "has no reason")):
        plan(bad)
        rc, out = run([sys.executable, tool, "check", "--plans", plans, "--runs", runs])
        expect(rc == 1 and what in out, f"unreachable {bad}: exit {rc}: {out}")
    plan({"a": "why"})
    rc, out = run([sys.executable, tool, "check", "--plans", plans, "--runs", runs])
    expect(rc == 0, f"a good unreachable map: exit {rc}: {out}")

    # ---- 5. a long testpoint: its bins only with --long; its runs may be unbuilt ---------------
    def long_plan(long=True):
        tps = [{"name": "tp", "description": "d", "runs": ["r"], "bins": ["a"]},
               {"name": "big", "description": "d", "runs": ["r_big"], "bins": ["a_big"]}]
        if long is not None:
            tps[1]["long"] = long
        with open(os.path.join(plans, "blk.json"), "w") as f:
            json.dump({"block": "blk", "description": "d", "testpoints": tps}, f)

    long_plan()
    short = data_files("blk a 1\n")
    rc, out = fcheck(plans, short, "--strict")
    expect(rc == 0 and "fcov: blk 1/1 bins hit" in out, f"a long bin without --long: exit {rc}: {out}")
    rc, out = fcheck(plans, short, "--strict", "--long")
    expect(rc == 1 and "holes: a_big" in out, f"a long bin not hit with --long: exit {rc}: {out}")
    both = data_files("blk a 1\nblk a_big 2\n")
    rc, out = fcheck(plans, both, "--strict")
    expect(rc == 0 and "in no testplan" not in out, f"a long bin hit without --long: exit {rc}: {out}")
    rc, out = fcheck(plans, both, "--strict", "--long")
    expect(rc == 0 and "fcov: blk 2/2 bins hit" in out, f"a long bin hit with --long: exit {rc}: {out}")
    long_plan(None)  # the same testpoint not marked long: its bin is a hole in every run
    rc, out = fcheck(plans, short, "--strict")
    expect(rc == 1 and "holes: a_big" in out, f"an unmarked testpoint: exit {rc}: {out}")
    # testplan.py: a long testpoint may name a run the build plans but left out (unbuilt)
    with open(os.path.join(tmp, "cosim_runs_planned.txt"), "w") as f:
        f.write("# run|kind\nr|default\nr_big|unbuilt\n")
    long_plan()
    rc, out = run([sys.executable, tool, "check", "--plans", plans, "--runs", runs])
    expect(rc == 0, f"a long testpoint naming an unbuilt run: exit {rc}: {out}")
    long_plan(False)
    rc, out = run([sys.executable, tool, "check", "--plans", plans, "--runs", runs])
    expect(rc == 1 and "'r_big' matches no registered run" in out,
           f"the same run in a testpoint that is not long: exit {rc}: {out}")
    long_plan("yes")
    rc, out = run([sys.executable, tool, "check", "--plans", plans, "--runs", runs])
    expect(rc == 1 and "long must be true or false" in out, f"long: 'yes': exit {rc}: {out}")

print(f"test_fcov: {'FAIL ' + str(fails) + ' check(s)' if fails else 'OK'}")
sys.exit(1 if fails else 0)
