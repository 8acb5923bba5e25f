#!/usr/bin/env python3
"""test_formal_flow.py SOURCE_DIR - scripts/formal.sh as a flow of the engine (pinet_dv/formal.py),
on the quick groups (the switch's and the router memory's, seconds each):
  - the dry-run launcher prints one `formal.sh --one-group "<label>"` command per group that
    `formal.sh --list` selects, in its order, and proves and writes nothing;
  - `-j 2 --junit F` gives the serial run's verdicts and group names (the details in parentheses
    aside), the serial run prints them in --list's order, the JUnit file has one testcase per
    group named by its label;
  - on a copy of rtl/ with a deliberate bug (the switch's terminal 4 takes terminal 1's word) the
    same run exits 1, each FAIL line printed is its testcase's failure message, with its trace,
    and the result files make the report (scripts/verify_report.py) show FAIL rows;
  - a group that ends without a line is a FAIL line saying so (an ERROR testcase), and the
    comparison used above tells different verdicts apart.
Seconds; needs yosys, yosys-smtbmc, yosys-abc and z3 (label formal)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done, src  # noqa: E402  (argv[1], scripts/ on the path)
from pinet_dv import formal as F  # noqa: E402
from pinet_dv import job as J  # noqa: E402

FORMAL = ["bash", os.path.join(src, "scripts", "formal.sh")]
ONLY = "^(rta_switch|ps_router_mem) "
LINE = re.compile(r"^(PROVEN|PASSED|COVERED|FAIL) (\S+) (\S+\([^()]*\)) \(")


def run(args, **kw):
    r = subprocess.run(args, capture_output=True, text=True, **kw)
    return r.returncode, r.stdout, r.stderr


def verdicts(text):
    """(kind, "<block> <group>(<params>)") of each verdict line, details aside."""
    return [(m.group(1), f"{m.group(2)} {m.group(3)}") for m in map(LINE.match, text.splitlines()) if m]


def cases(path):
    return {c.get("name"): c for c in ET.parse(path).getroot().iter("testcase")}


rc, listed, err = run(FORMAL + ["--list", "--only", ONLY])
labels = listed.split("\n")[:-1]
check(rc == 0 and len(labels) == 4, f"--list --only {ONLY}: exit {rc}, {labels} {err}")

with tempfile.TemporaryDirectory() as work:
    # 1. the dry run
    w0 = os.path.join(work, "dry")
    os.mkdir(w0)
    rc, out, err = run([sys.executable, os.path.join(src, "scripts", "pinet_dv"), "formal", "--farm",
                        "dryrun", "--rtl", os.path.join(src, "rtl"), "--work", w0, "--"] + labels)
    would = [ln for ln in out.splitlines() if ln.startswith("formal: would run: ")]
    want = [f"bash {os.path.join(os.path.abspath(src), 'scripts', 'formal.sh')} --one-group {label} --rtl "
            f"{os.path.join(src, 'rtl')} --work {w0}" for label in labels]
    check(rc == 0 and [ln[len("formal: would run: "):].strip() for ln in would] == want,
          f"dry run: exit {rc}: {out}{err}")
    check(os.listdir(w0) == [], f"dry run: wrote {os.listdir(w0)}")

    # 2. serial against -j 2 with --junit
    rc1, serial, err1 = run(FORMAL + ["--only", ONLY, "--work", os.path.join(work, "s")])
    xml = os.path.join(work, "j2.xml")
    rc2, par, err2 = run(FORMAL + ["--only", ONLY, "--work", os.path.join(work, "p"), "-j", "2",
                                   "--junit", xml])
    check(rc1 == 0 and rc2 == 0, f"exit {rc1} serial, {rc2} -j 2: {err1}{err2}")
    check([name for _, name in verdicts(serial)] == labels,
          f"serial: not one line per group in --list's order: {serial}")
    check(all(k == "PROVEN" for k, _ in verdicts(serial)), f"serial: not all proven: {serial}")
    check(sorted(verdicts(par)) == sorted(verdicts(serial)), f"-j 2 differs from serial:\n{par}\n{serial}")
    check(serial.strip() == "\n".join(ln for ln in serial.splitlines() if LINE.match(ln)),
          f"serial: lines other than verdicts: {serial}")
    got = cases(xml) if os.path.exists(xml) else {}
    check(sorted(got) == sorted(labels), f"JUnit testcases {sorted(got)}, not {labels}")
    check(all(c.get("classname") == "pinet.formal." + n.split()[0] and len(c) == 1
              for n, c in got.items()), "JUnit: a class other than pinet.formal.<block> or a failure")
    results = os.listdir(os.path.join(work, "p", "results"))
    check(len(results) == 4, f"result files: {results}")

    # 3. a deliberate bug: FAIL lines, the JUnit failures' messages, the report's rows
    copy = os.path.join(work, "rtl")
    shutil.copytree(os.path.join(src, "rtl"), copy)
    sw = os.path.join(copy, "rta_switch.sv")
    text = open(sw).read()
    bugged = text.replace("assign t4_o = (t3_i & on_m) | (t2_i & off_m);",
                          "assign t4_o = (t3_i & on_m) | (t1_i & off_m);")
    check(bugged != text, "the bug's replacement changed nothing in rta_switch.sv")
    with open(sw, "w") as f:
        f.write(bugged)
    xml = os.path.join(work, "bug.xml")
    wb = os.path.join(work, "b")
    rc, out, err = run(FORMAL + ["--rtl", copy, "--only", ONLY, "--work", wb, "-j", "2", "--junit", xml])
    fails = [ln for ln in out.splitlines() if (m := LINE.match(ln)) and m.group(1) == "FAIL"]
    check(rc == 1 and len(fails) == 2, f"with the bug: exit {rc}, FAIL lines {fails}: {err}")
    got = cases(xml) if os.path.exists(xml) else {}
    for ln in fails:
        name = " ".join(ln.split()[1:3])
        f = got.get(name, ET.Element("x")).find("failure")
        check(f is not None and f.get("message") == ln, f"{name}: the failure's message is not its line")
        trace = re.search(r" trace (\S+\.vcd) ", ln)
        check(trace and os.path.getsize(trace.group(1)) > 0, f"{name}: no trace: {ln}")
    check(sum(c.find("failure") is None for c in got.values()) == 2, "the memory's testcases failed too")
    jobs = os.path.join(work, "jobs.tsv")
    open(jobs, "w").close()
    rc, out, err = run([sys.executable, os.path.join(src, "scripts", "verify_report.py"), "--jobs", jobs,
                        "--waves", work, "--report", os.path.join(work, "report"), "--wavedrom", "",
                        "--formal", wb])
    page = open(os.path.join(work, "report", "index.html")).read() if rc == 0 else ""
    check("Formal proofs (4 groups" in page and page.count("<td class='FAIL'>FAIL</td>") == 2
          and page.count("<td class='PASS'>PROVEN</td>") == 2,
          f"the report's formal rows (exit {rc}): {err}")
    check(all(ln.replace("&", "&amp;") in page for ln in fails), "the report lacks a FAIL line")
    os.remove(os.path.join(work, "report", "index.html"))
    rc, _, _ = run([sys.executable, os.path.join(src, "scripts", "verify_report.py"), "--jobs", jobs,
                    "--waves", work, "--report", os.path.join(work, "report"), "--wavedrom", "",
                    "--formal", os.path.join(work, "none")])
    page = open(os.path.join(work, "report", "index.html")).read()
    check(rc == 0 and "Formal proofs" not in page, "a report without formal results shows proofs")

    # 4. a group without a line, and the comparison itself
    job = F.FormalJob(0, J.Run(labels[0], "bash", "", "default"), "", "-", None, "", work)
    with open(job.out_path, "w") as f:
        f.write("yosys: something went wrong\nPROVEN elsewhere x(y) (induction k=1)\n")
    job.rc = "1"
    job.judge()
    check(job.kind == "ERROR" and job.result_line == f"FAIL {labels[0]} (no verdict line, exit 1) trace none",
          f"a group without its line: {job.kind} {job.result_line}")
    check(sorted(verdicts(serial.replace("PROVEN rta_switch", "FAIL rta_switch", 1)))
          != sorted(verdicts(serial)), "the comparison does not see a FAIL for a PROVEN")
done("test_formal_flow")
