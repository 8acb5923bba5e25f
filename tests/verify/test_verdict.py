#!/usr/bin/env python3
"""test_verdict.py SOURCE_DIR - the cosim verdict line's one parser (scripts/pinet_dv/verdict.py):
every form cosim/common/cosim.h prints parses into its fields, near misses do not, the last verdict
line of an output is the one judged, the command line (last, fields, check, regex) answers with
the documented exit statuses, and the CMake expressions it generates accept and reject what the
parser does. Seconds, no build."""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done, src  # noqa: E402  (argv[1], scripts/ on the path)
from pinet_dv import verdict as V  # noqa: E402


# the forms of Scoreboard::finish
v = V.parse("PASS rta_ring matched 60000 cycles seed 2")
check(v and v.kind == "PASS" and v.block == "rta_ring" and v.cycles == 60000 and v.seed == 2, "PASS line")
v = V.parse("FAIL ps_network cycle 1234 ch[1]:0->1.data DUT 0x2a expected 0x2b seed 7")
check(v and v.kind == "FAIL" and v.cycles == 1234 and v.seed == 7 and v.signal == "ch[1]:0->1.data"
      and v.dut == "2a" and v.expected == "2b" and v.assertion is None, "FAIL mismatch line")
v = V.parse("FAIL rta_switch cycle 1 assertion rta_switch.off_pairs seed 1")
check(v and v.assertion == "rta_switch.off_pairs" and v.signal is None, "FAIL assertion line")
v = V.parse("FAIL recon_system cycle 99 image differs from the model seed 3")
check(v and v.kind == "FAIL" and v.detail == "image differs from the model " and v.signal is None,
      "FAIL message line")
check(V.format_pass("x", 10, 3) == "PASS x matched 10 cycles seed 3", "format_pass")
# near misses
for bad in ("PASS rta_ring matched 10 cycles", "PASS rta_ring matched ten cycles seed 1",
            "PASSED rta_ring matched 10 cycles seed 1", "FAIL rta_ring at cycle 3 x seed 1",
            "FAIL rta_ring cycle 3 x seed", " PASS rta_ring matched 10 cycles seed 1",
            "PASS rta ring matched 10 cycles seed 1", "PASS rta_ring matched 10 cycles seed 1 extra"):
    check(V.parse(bad) is None, f"not a verdict: {bad!r}")
# the last verdict line is the one judged
text = "cosim: 50% (5 of 10 cycles)\nPASS a matched 1 cycles seed 1\nnoise\nFAIL a cycle 2 x DUT 0x1 expected 0x0 seed 1\ntrailer\n"
check(V.last(text).kind == "FAIL", "last(): the last verdict line")
check(V.last("nothing\n") is None and V.last_line("nothing\n") is None, "last(): none")
check(V.last_line("PASS broken\n") == "PASS broken" and V.last("PASS broken\n") is None,
      "a malformed verdict line is found but not accepted")

# the command line
cli = [sys.executable, os.path.join(src, "scripts", "pinet_dv", "verdict.py")]


def run(args, stdin=""):
    r = subprocess.run(cli + args, input=stdin, capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


rc, out, _ = run(["last"], text)
check(rc == 0 and out.startswith("FAIL a cycle 2"), "cli last")
rc, out, _ = run(["last"], "no verdict\n")
check(rc == 1 and out == "", "cli last: none -> 1")
rc, out, _ = run(["first", "--kind", "FAIL"], "verify: x\nPASS a matched 1 cycles seed 1\n" + text)
check(rc == 0 and out == "FAIL a cycle 2 x DUT 0x1 expected 0x0 seed 1\n", f"cli first --kind FAIL: {out!r}")
check(run(["first", "--kind", "FAIL"], "PASS a matched 1 cycles seed 1\n")[0] == 1, "cli first: none -> 1")
rc, out, _ = run(["fields"], "FAIL b cycle 5 sig DUT 0x3 expected 0x2 seed 9\n")
check(rc == 0 and out == "FAIL\tb\t5\t9\tsig\t3\t2\t-\n", f"cli fields: {out!r}")
line = "FAIL m cycle 4 assertion m.p seed 1\n"
check(run(["check", "--kind", "FAIL", "--block", "m", "--assertion", "m.p", "--seed", "1", "--only"], line)[0] == 0,
      "cli check: an assertion FAIL")
check(run(["check", "--kind", "FAIL", "--assertion", "m.q"], line)[0] == 1, "cli check: the wrong assertion")
check(run(["check", "--kind", "PASS"], line)[0] == 1, "cli check: FAIL is not PASS")
check(run(["check", "--kind", "FAIL", "--only"], "other\n" + line)[0] == 1, "cli check --only: a second line")
check(run(["check", "--kind", "PASS", "--cycles", "10"], "PASS z matched 10 cycles seed 2\n")[0] == 0,
      "cli check: PASS cycles")
check(run(["check", "--kind", "FAIL", "--cycle", "4", "--signal", r"ch\[[0-9]+\].*"],
          "FAIL z cycle 4 ch[3]:1->2.data DUT 0x1 expected 0x0 seed 2\n")[0] == 0, "cli check: signal regex")
tb = "PASS ps_network matched 1800 cycles seed 7 (1731 memory writes)\n- tb.sv:379: Verilog $finish\n"
check(run(["check", "--kind", "PASS", "--seed", "7"], tb)[0] == 1, "a PASS line with a trailer: not without --trailer")
check(run(["check", "--kind", "PASS", "--seed", "7", "--trailer"], tb)[0] == 0, "a PASS line with a trailer: --trailer")
# formal-fail: the first formal FAIL line of a block (regex, then a space or "("), trace first
fl = ("PROVEN rta_ring route(N=8) (induction k=1)\n"
      "FAIL rta_bitmap_ctrl cover(Dim=1,Side=8) (not reached within 8 steps: x.y) trace none\n"
      "FAIL ps_router done(N=2,MemWords=4) (pdr: frame 3) trace /t/x.vcd (gtkwave /t/x.vcd /t/x.gtkw)\n")
rc, out, _ = run(["formal-fail", "ps_router done"], fl)
check(rc == 0 and out == "/t/x.vcd\tFAIL ps_router done(N=2,MemWords=4) (pdr: frame 3) trace /t/x.vcd "
      "(gtkwave /t/x.vcd /t/x.gtkw)\n", f"cli formal-fail: {out!r}")
check(run(["formal-fail", "ps_route"], fl)[0] == 1, "cli formal-fail: a prefix of a block is not the block")
check(run(["formal-fail", "rta_ring"], fl)[0] == 1, "cli formal-fail: a PROVEN line is no FAIL")
rc, out, _ = run(["formal-fail", "rta_bitmap_ctrl"], fl)
check(rc == 0 and out.startswith("none\tFAIL rta_bitmap_ctrl cover"), f"cli formal-fail: a cover's line: {out!r}")
# groups proven together: the undecided group's line (no trace) comes first, the failing one's wins
joint = ("FAIL ps_router links(N=4) (pdr undecided: proven together with checker, the run ended on a "
         "counterexample to checker) trace none\n"
         "FAIL ps_router checker(N=4) (pdr: reachable from reset, frame 4; together with links) trace /t/j.vcd "
         "(gtkwave /t/j.vcd /t/j.gtkw)\n")
rc, out, _ = run(["formal-fail", "ps_router (links|checker)"], joint)
check(rc == 0 and out.startswith("/t/j.vcd\tFAIL ps_router checker(N=4)"), f"cli formal-fail: trace first: {out!r}")
rc, out, _ = run(["formal-fail", "ps_router links"], joint)
check(rc == 0 and out.startswith("none\tFAIL ps_router links(N=4) (pdr undecided"), f"cli formal-fail: no trace: {out!r}")
for bad in (["nope"], ["check", "--kind", "MAYBE"], ["check", "--seed"], ["regex"], []):
    rc, out, err = run(bad)
    check(rc == 2 and len(err.strip().splitlines()) == 1, f"cli usage {bad}: exit {rc}, {err!r}")
rc, _, err = run(["last", "/no/such/file"])
check(rc == 2 and len(err.strip().splitlines()) == 1, "cli: a missing file -> 2, one line")

# the CMake expressions (ERE; Python's re agrees on these) accept what the parser accepts
p = run(["regex", "pass", "rta_ring"])[1].strip()
check(re.search(p, "PASS rta_ring matched 60000 cycles seed 2") is not None, "cmake pass regex matches")
check(re.search(p, "PASS rta_switch matched 60000 cycles seed 2") is None, "cmake pass regex: block")
f = run(["regex", "fail", "rta_ring"])[1].strip()
check(re.search(f, "FAIL rta_ring cycle 3 x DUT 0x1 expected 0x0 seed 1") is not None, "cmake fail regex")

# formal.sh's proof line, the other grammar of this module (the forms scripts/formal.sh prints)
for line, want in (
        ("PROVEN rta_switch spec(Width=32) (induction k=1)", ("PROVEN", "rta_switch", "spec(Width=32)", None)),
        ("PASSED rta_ring route(N=4,Width=1) (BMC depth 8)", ("PASSED", "rta_ring", "route(N=4,Width=1)", None)),
        ("COVERED rta_bitmap_ctrl cover(Dim=1,Side=8) (9 of 9 covers, step 6)",
         ("COVERED", "rta_bitmap_ctrl", "cover(Dim=1,Side=8)", None)),
        ("FAIL rta_ring route(N=8) (BMC depth 1, reachable from reset) trace /w/r.vcd (gtkwave /w/r.vcd /w/r.gtkw)",
         ("FAIL", "rta_ring", "route(N=8)", "/w/r.vcd")),
        ("FAIL ps_router words(N=4,Width=2,MemWords=4) (pdr undecided within 240 s: /w/p.pdr.log) trace none",
         ("FAIL", "ps_router", "words(N=4,Width=2,MemWords=4)", "none"))):
    v = V.parse_formal(line)
    check(v is not None and (v.kind, v.block, v.label, v.trace) == want and v.holds == (want[0] != "FAIL"),
          f"formal line {line!r}: {v}")
for bad in ("PROVEN rta_switch spec(Width=32)", "PROVEN rta_switch spec (induction k=1)",
            "PASS rta_switch spec(Width=32) (induction k=1)", "FAIL rta_ring cycle 3 x seed 1"):
    check(V.parse_formal(bad) is None, f"not a formal line: {bad!r}")
check(V.last_formal_line("PROVEN a b(c) (k)\nFAIL a d(e) (f) trace none\nmore\n") ==
      "FAIL a d(e) (f) trace none", "the last formal line")

done("test_verdict")
