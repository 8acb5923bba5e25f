"""The outputs of a regression, written from the job objects: the summary table, the JUnit XML
and the rows scripts/verify_report.py turns into the sign-off table and the HTML report."""
import os
import time
import xml.etree.ElementTree as ET
from typing import List

from pinet_dv.job import Job
from pinet_dv.launcher import Launcher


def save_file_for(name: str, block: str) -> str:
    """The GTKWave save file of a run: waves/<run>.gtkw, else the longest prefix of the run's name
    cut at '_' that has one (ps_network_n64_m4224 -> ps_network_n64), else waves/<block>.gtkw."""
    stem = name
    while True:
        if os.path.isfile(f"waves/{stem}.gtkw"):
            return f"waves/{stem}.gtkw"
        if "_" not in stem:
            break
        stem = stem.rsplit("_", 1)[0]
    return f"waves/{block}.gtkw" if os.path.isfile(f"waves/{block}.gtkw") else "-"


def row(job: Job, launcher: Launcher) -> str:
    kind = job.kind
    wide = launcher.extra_column is not None
    save_fmt = "{:<24}" if wide else "{}"
    if kind == "ERROR":
        head = (f"{job.name:<22} {'?':<16} {'-':>12} {'-':>10} {job.seed_text:>8}  "
                f"{'ERROR':<8} ")
        if not wide:
            return head + job.wave
        return head + f"{job.wave:<34} " + save_fmt.format("-") + launcher.row_suffix(job)
    mism = 0 if kind == "PASS" else 1
    return (f"{job.name:<22} {job.block:<16} {job.cycles_text:>12} {mism:>10} {job.seed_text:>8}  "
            f"{kind:<8} {job.wave:<34} " + save_fmt.format(save_file_for(job.name, job.block))
            + launcher.row_suffix(job))


def summary(jobs: List[Job], launcher: Launcher) -> str:
    """The summary block (with its leading empty line), as printed and written to summary.txt."""
    lines = ["", f"RTL verification summary ({time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())})"]
    head = f"{'run':<22} {'block':<16} {'cycles':>12} {'mismatches':>10} {'seed':>8}  {'result':<8} {'wave':<34} "
    if launcher.extra_column:
        lines.append(head + f"{'save file':<24}  {launcher.extra_column}")
    else:
        lines.append(head + "save file")
    lines += [row(j, launcher) for j in jobs]
    cycles = sum(j.verdict.cycles for j in jobs if j.kind == "PASS")
    failed = sum(j.kind != "PASS" for j in jobs)
    lines.append(f"total: {len(jobs)} runs, {cycles} cycles compared, {failed} failed")
    return "\n".join(lines) + "\n"


def junit(jobs: List[Job], path: str, suite_name: str = "pinet.verify") -> None:
    """JUnit XML (the common schema: testsuites > testsuite > testcase, a failure or error element
    per failing case, system-out with the wave or trace as an attachment), written whole or not at
    all. A testcase's class, name, failure type, error message and attachment are the job's."""
    suite = ET.Element("testsuite", name=suite_name)
    fails = errors = 0
    total = 0.0
    for job in jobs:
        total += job.secs
        out = job.output()
        kind = job.kind
        case = ET.SubElement(suite, "testcase", classname=job.case_class, name=job.case_name,
                             time=f"{job.secs:.3f}")
        slurm, state, host = (job.farm.get(k, "") for k in ("id", "state", "host"))
        if kind == "FAIL":
            fails += 1
            ET.SubElement(case, "failure", message=job.result_line,
                          type=job.failure_type).text = out[-4000:]
        elif kind == "ERROR":
            errors += 1
            ET.SubElement(case, "error", message=job.error_message(), type="error").text = out[-4000:]
        attachment = job.attachment
        ET.SubElement(case, "system-out").text = (
            (job.result_line + "\n" if job.result_line else "")
            + (f"[[ATTACHMENT|{os.path.abspath(attachment)}]]\n" if attachment else "")
            + (f"Slurm task {slurm} {state} on {host or 'no node'}\n" if slurm else ""))
    n = len(jobs)
    suite.set("tests", str(n))
    suite.set("failures", str(fails))
    suite.set("errors", str(errors))
    suite.set("skipped", "0")
    suite.set("time", f"{total:.3f}")
    root = ET.Element("testsuites", name="pinet", tests=str(n), failures=str(fails),
                      errors=str(errors), time=f"{total:.3f}")
    root.append(suite)
    ET.ElementTree(root).write(path + ".part", encoding="utf-8", xml_declaration=True)
    os.replace(path + ".part", path)


def report_rows(jobs: List[Job], path: str) -> None:
    """scripts/verify_report.py's --jobs file: one tab-separated line per run and seed."""
    with open(path, "w") as f:
        for j in jobs:
            cycles = j.cycles_text
            f.write("\t".join([j.name, j.kind, j.block, j.seed_text, cycles, j.wave,
                               j.result_line or "", j.repro or "", j.alone or "",
                               j.window or "-", save_file_for(j.name, j.block)]) + "\n")
