#!/usr/bin/env python3
"""test_signoff.py SOURCE_DIR - scripts/verify_report.py's sign-off table and report on synthetic
runs (no build, under a second): passed/total per testpoint over runs x seeds, the status, a
block with no run left out, the functional coverage column '–' without data and hits/total with
a waves/fcov/*.txt file (a malformed line reported and skipped), the holes in the report, a run
in no testplan and a run of another block named, the code coverage text and lcov link, a long
testpoint without its runs shown as LONG."""
import os
import subprocess
import sys
import tempfile

src = sys.argv[1]
tool = os.path.join(src, "scripts", "verify_report.py")
fails = 0


def check(cond, msg):
    global fails
    if not cond:
        print(f"FAIL: {msg}")
        fails += 1


with tempfile.TemporaryDirectory() as d:
    plans = os.path.join(d, "plans")
    os.mkdir(plans)
    with open(os.path.join(plans, "blk.json"), "w") as f:
        f.write('{"block": "blk", "description": "a block", "testpoints": ['
                '{"name": "tp_a", "description": "a", "runs": ["^blk_n[0-9]+$"], "bins": ["b1", "b2", "b3"]},'
                '{"name": "tp_b", "description": "b", "runs": ["blk_soak"], "tests": ["t"]},'
                '{"name": "tp_c", "description": "c", "runs": ["blk_other"], "bins": ["c1"]},'
                '{"name": "tp_d", "description": "d", "runs": [], "tests": ["lint_blk"]},'
                '{"name": "tp_e", "description": "e", "long": true, "runs": ["blk_big"], "bins": ["e1"]}]}')
    with open(os.path.join(plans, "idle.json"), "w") as f:
        f.write('{"block": "idle", "description": "no run", "testpoints": ['
                '{"name": "tp", "description": "d", "runs": ["idle_run"]}]}')
    jobs = os.path.join(d, "jobs.tsv")
    rows = [("blk_n4", "PASS", "blk", "1", "10"), ("blk_n4", "FAIL", "blk", "2", "7"),
            ("blk_n8", "PASS", "blk", "1", "10"), ("blk_n8", "PASS", "blk", "2", "10"),
            ("blk_other", "PASS", "zzz", "1", "10"), ("stray", "PASS", "s", "1", "10")]
    with open(jobs, "w") as f:
        for r in rows:
            line = f"FAIL blk cycle 7 x DUT 0x1 expected 0x0 seed {r[3]}" if r[1] == "FAIL" else ""
            f.write("\t".join(list(r) + ["-", line, "cmd", "", "-", "-"]) + "\n")
    waves = os.path.join(d, "w")
    os.mkdir(waves)

    covtext = os.path.join(d, "coverage.txt")

    def run():
        p = subprocess.run([sys.executable, tool, "--jobs", jobs, "--waves", waves, "--plans", plans,
                            "--report", os.path.join(waves, "report"), "--wavedrom", "",
                            "--coverage-text", covtext],
                           capture_output=True, text=True)
        return p.returncode, p.stdout, p.stderr

    rc, out, err = run()
    check(rc == 0, f"exit {rc}: {err}")
    lines = {l.split()[0]: l for l in out.splitlines() if l.startswith("  blk.")}
    check(lines.get("blk.tp_a", "").split()[1:4] == ["FAIL", "3/4", "2"], f"tp_a: {lines.get('blk.tp_a')}")
    check(" – " in lines.get("blk.tp_a", ""), "tp_a: functional coverage not '–' without data")
    check(lines.get("blk.tp_b", "").split()[1:5] == ["NOT", "RUN", "0/0", "0"], f"tp_b: {lines.get('blk.tp_b')}")
    check("idle." not in out and "not shown: idle" in out, "the block without a run")
    check("runs in no testplan: stray" in out, "the stray run")
    check("blk_other (block zzz) in the blk testplan" in out, "the run of another block")
    check(lines.get("blk.tp_d", "").split()[1:3] == ["CTEST", "0/0"], f"tp_d: {lines.get('blk.tp_d')}")
    check(lines.get("blk.tp_e", "").split()[1:3] == ["LONG", "0/0"], f"tp_e: {lines.get('blk.tp_e')}")
    check("1 passed in every seed, 1 failing, 2 not run (1 of them the long runs': verify.sh --long), "
          "1 covered by CTest tests only" in out,
          f"the sign-off line: {[l for l in out.splitlines() if 'testpoints:' in l]}")

    with open(os.path.join(waves, "report", "index.html")) as f:
        check("Not measured in this run" in f.read(), "code coverage: no data, not said")
    with open(covtext, "w") as f:
        f.write("coverage: FAIL ps_router toggle 92.62% < 95%\n")
    os.makedirs(os.path.join(waves, "coverage", "html"))
    open(os.path.join(waves, "coverage", "html", "index.html"), "w").close()
    os.mkdir(os.path.join(waves, "fcov"))
    with open(os.path.join(waves, "fcov", "r1.txt"), "w") as f:
        f.write("# block bin hits\nblk b1 3\nblk b2 0\nblk b3\n")
    with open(os.path.join(waves, "fcov", "r2.txt"), "w") as f:
        f.write("blk b2 1\nother x 5\n")
    rc, out, err = run()
    lines = {l.split()[0]: l for l in out.splitlines() if l.startswith("  blk.")}
    check(" 2/3 " in lines.get("blk.tp_a", ""), f"tp_a with data: {lines.get('blk.tp_a')}")
    check(" 0/1 " in lines.get("blk.tp_c", ""), f"tp_c with data: {lines.get('blk.tp_c')}")
    check("r1.txt:4: not '<block> <bin> <hits>'" in err, f"the malformed line: {err}")
    with open(os.path.join(waves, "report", "index.html")) as f:
        page = f.read()
    check("<td class='bad'>b3</td>" in page, "the hole b3 in the report")
    check("FAIL blk cycle 7 x DUT 0x1 expected 0x0 seed 2" in page, "the FAIL line in the report")
    check("WaveDrom not found" in err, "no WaveDrom: said")
    check("coverage: FAIL ps_router toggle 92.62% &lt; 95%" in page, "code coverage text in the report")
    check("href='../coverage/html/index.html'" in page, "the lcov report's link")

if fails:
    print(f"test_signoff: {fails} check(s) failed")
    sys.exit(1)
print("test_signoff: all checks passed")
