"""The formal flow behind scripts/formal.sh: one job per proof group, run through a launcher
(-j N on this machine, --farm slurm: one array task per group, --farm dryrun: the commands only).
A job is `bash scripts/formal.sh --one-group "<block> <group>(<parameters>)"`: the proofs and
their table stay in formal.sh, which selects the groups and then execs

    python3 scripts/pinet_dv formal --rtl DIR --work DIR -j N [--farm F] [--junit F]
        [--partition P] [--time-limit T] [--sbatch-args A] -- LABEL...

Each group's line (PROVEN/PASSED/COVERED/FAIL, pinet_dv.verdict's formal grammar) is printed as
the group ends; a group that ends without one (a crash, a Slurm task cancelled) gets a FAIL line
saying why, trace none. Then the JUnit XML (--junit: one testcase per group, named by its label)
and one result file per group, WORK/results/<label>.json, that scripts/verify_report.py shows as
a row per proof group. Exit status: formal.sh's (0 every group holds, 1 a FAIL), 3 a Slurm
submission error, 130/143 on SIGINT/SIGTERM (a farm's tasks cancelled)."""
import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Optional

from pinet_dv import job as J
from pinet_dv import outputs, scheduler
from pinet_dv import verdict as V
from pinet_dv.launcher import LauncherError, add_options, make_launcher
from pinet_dv.verify import quote

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass
class FormalJob(J.Job):
    """One proof group: its name is its label, "<block> <group>(<parameters>)"."""
    script: str = ""
    rtl: str = ""
    work: str = ""
    proof: Optional[V.FormalVerdict] = None

    @property
    def block(self) -> str:
        return self.name.split(" ", 1)[0]

    @property
    def group(self) -> str:
        return self.name.split(" ", 1)[1]

    def argv(self):
        return ["bash", self.script, "--one-group", self.name, "--rtl", self.rtl, "--work", self.work]

    def env(self) -> dict:
        return {}

    def judge(self) -> None:
        line = V.last_formal_line(self.output())
        v = V.parse_formal(line) if (self.ran and line) else None
        why = None
        if not self.ran:
            why = f"Slurm task {self.farm.get('id', '?')} {self.farm.get('state', '?')}, no result"
        elif v is None or f"{v.block} {v.label}" != self.name:
            v, why = None, f"no verdict line, exit {self.rc}"
        elif v.holds and self.rc != "0":
            v, why = None, f"{v.kind} but exit {self.rc}"
        self.proof = v
        self.result_line = v.line if v else f"FAIL {self.name} ({why}) trace none"

    @property
    def kind(self) -> str:
        if self.proof is None:
            return "ERROR"
        return "PASS" if self.proof.holds else "FAIL"

    @property
    def case_class(self) -> str:
        return f"pinet.formal.{self.block}"

    @property
    def case_name(self) -> str:
        return self.name

    failure_type = "proof"

    def error_message(self) -> str:
        return self.result_line or f"FAIL {self.name} (not run) trace none"

    @property
    def attachment(self) -> Optional[str]:
        t = self.proof.trace if self.proof else None
        return t if t not in (None, "none") else None

    def result(self, farm: str) -> dict:
        """The group's row of the report (scripts/verify_report.py)."""
        return {"block": self.block, "group": self.group,
                "verdict": self.proof.kind if self.proof else "FAIL",
                "holds": self.kind == "PASS", "line": self.result_line, "secs": self.secs,
                "rtl": self.rtl, "farm": farm, "task": self.farm.get("id", ""),
                "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def result_path(work: str, label: str) -> str:
    return os.path.join(work, "results", re.sub(r"[^A-Za-z0-9=]+", "_", label).strip("_") + ".json")


def write_result(job: FormalJob, farm: str) -> None:
    """WORK/results/<label>.json, whole or not at all (other formal.sh runs may share WORK: ctest
    runs one per block)."""
    path = result_path(job.work, job.name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".part", "w") as f:
        json.dump(job.result(farm), f, indent=1)
    os.replace(path + ".part", path)


def parser():
    ap = argparse.ArgumentParser(prog="formal", add_help=False)
    ap.add_argument("--rtl", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--junit", default="")
    ap.add_argument("labels", nargs="+")
    add_options(ap)
    return ap


def make_jobs(o, tmp: str):
    script = os.path.join(ROOT, "scripts", "formal.sh")
    return [FormalJob(i, J.Run(label, "bash", "", "default"), "", "-", None, "", tmp,
                      script=script, rtl=o.rtl, work=o.work) for i, label in enumerate(o.labels)]


def formal(argv) -> int:
    o = parser().parse_args(argv)
    o.flow, o.noun, o.root = "formal", "proof groups", ROOT
    # the jobs' scratch files: on a farm in the work directory, which the nodes share
    o.tmp = tempfile.mkdtemp(prefix=f".formal-{o.farm}.", dir=o.work if o.farm == "slurm" else None)
    try:
        return _formal(o)
    finally:
        shutil.rmtree(o.tmp, ignore_errors=True)


def _formal(o) -> int:
    jobs = make_jobs(o, o.tmp)
    try:
        launcher = make_launcher(o.farm, o)
    except LauncherError as e:
        print(str(e), file=sys.stderr)
        return e.status
    if launcher.dry:
        scheduler.run_all(launcher, jobs, tick=False)
        return 0
    status = scheduler.guarded(launcher, lambda: scheduler.run_all(
        launcher, jobs, tick=o.farm != "local", line_of=lambda j: j.result_line))
    if status is not None:
        return status
    for job in jobs:
        write_result(job, o.farm)
    if o.junit:
        try:
            outputs.junit(jobs, o.junit, "pinet.formal")
        except OSError:
            print(f"formal: cannot write --junit '{quote(o.junit)}'", file=sys.stderr)
            return 1
        print(f"formal: JUnit XML: {o.junit}", flush=True)
    return 0 if all(j.kind == "PASS" for j in jobs) else 1
