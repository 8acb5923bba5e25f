"""SlurmLauncher: every job one task of one Slurm array (sbatch --array=0-(n-1)%j).

Task i runs <tmp>/<i>.cmd through <tmp>/task.sh, which writes <i>.out, <i>.host, <i>.secs and,
last, <i>.rc. tmp is in the waves directory and the commands name the build directory: both must
be on a filesystem the nodes share, at the same path. No accounting store is assumed (sacct):
the states come from `scontrol show job` while slurmctld keeps the tasks (MinJobAge) and from
the task's own files. A task that did not run to its end (CANCELLED, TIMEOUT, NODE_FAIL, never
started, ...) is an ERROR row with its state; Ctrl-C cancels the array (kill)."""
import os
import shlex
import shutil
import subprocess
import sys
import time
from typing import Dict, List, Optional

from pinet_dv.job import Job
from pinet_dv.launcher import Launcher, LauncherError, progress_of

TASK = """#!/usr/bin/env bash
# One run x seed of a pinet verify.sh regression on a Slurm node: runs $d/<task id>.cmd.
d={tmp}
i=$SLURM_ARRAY_TASK_ID
echo "${{SLURMD_NODENAME:-$HOSTNAME}}" >"$d/$i.host"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
start=$EPOCHREALTIME rc=0
bash "$d/$i.cmd" >"$d/$i.out" 2>&1 || rc=$?
awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {{ printf "%.1f", b - a }}' >"$d/$i.secs"
echo $rc >"$d/$i.rc.part" && mv "$d/$i.rc.part" "$d/$i.rc"
exit $rc
"""

# Slurm is not done with a task in these states.
UNFINISHED = {"PENDING", "RUNNING", "COMPLETING", "CONFIGURING", "SUSPENDED", "REQUEUED",
              "REQUEUE_FED", "REQUEUE_HOLD", "RESIZING", "SIGNALING", "STAGE_OUT", "STOPPED"}
ORDINARY_WAIT = {"None", "Priority", "Resources", "JobArrayTaskLimit"}


def array_states(job_id: str) -> Dict[int, tuple]:
    """task -> (state, reason) of the array tasks slurmctld still knows (pending ranges such as
    '2-7%2', '3,5' or '1-9:2' expanded)."""
    r = subprocess.run(["scontrol", "-o", "show", "job", job_id], capture_output=True, text=True)
    states = {}
    for line in r.stdout.splitlines():
        f = dict(w.split("=", 1) for w in line.split() if "=" in w)
        t, s, why = f.get("ArrayTaskId", ""), f.get("JobState", ""), f.get("Reason", "None")
        if not t or not s:
            continue
        for part in t.split("%")[0].split(","):
            step = 1
            if ":" in part:
                part, st = part.split(":", 1)
                step = int(st)
            if "-" in part:
                a, b = part.split("-", 1)
                for x in range(int(a), int(b) + 1, step):
                    states[x] = (s, why)
            elif part.isdigit():
                states[int(part)] = (s, why)
    return states


class SlurmLauncher(Launcher):
    name = "slurm"
    extra_column = "slurm task"

    @classmethod
    def check(cls) -> None:
        for b in ("sbatch", "scontrol", "scancel", "squeue"):
            if shutil.which(b) is None:
                raise LauncherError(f"--farm slurm: '{b}' not found (install slurm-client: "
                                    "bash scripts/deps.sh)", 2)

    def __init__(self, opts):
        super().__init__(opts)
        self.tmp = opts.tmp
        self.submitted: List[str] = []
        self.active: Dict[int, Job] = {}       # index -> job, not yet ended
        self.array_job = ""
        self.grace = 0
        self.reasons: set = set()
        self.states: Dict[int, tuple] = {}
        self.all_jobs: List[Job] = []

    # -- submission -----------------------------------------------------------------------------
    def _prepare(self, jobs: List[Job]) -> None:
        with open(os.path.join(self.tmp, "task.sh"), "w") as f:
            f.write(TASK.format(tmp=self.tmp))
        for job in jobs:
            with open(os.path.join(self.tmp, f"{job.index}.cmd"), "w") as f:
                f.write(job.shell_command() + "\n")

    def _submit(self, array: str) -> str:
        o = self.opts
        cmd = ["sbatch", "--parsable", f"--array={array}", f"--job-name=pinet-{self.flow}",
               f"--chdir={o.root}", f"--output={self.tmp}/slurm-%a.log"]
        if o.partition:
            cmd.append(f"--partition={o.partition}")
        if o.time_limit:
            cmd.append(f"--time={o.time_limit}")
        cmd += shlex.split(o.sbatch_args) if o.sbatch_args else []
        cmd.append(os.path.join(self.tmp, "task.sh"))
        r = subprocess.run(cmd, capture_output=True, text=True)
        out = (r.stdout + r.stderr).strip()
        if r.returncode != 0:
            raise LauncherError(f"{self.flow}: sbatch failed: {out}", 3)
        self.array_job = r.stdout.strip().split(";")[0]
        self.submitted.append(self.array_job)
        return self.array_job

    def begin(self, jobs: List[Job]) -> List[Job]:
        self._prepare(jobs)
        self._submit(f"0-{len(jobs) - 1}%{self.max_parallel}")
        self.active = {j.index: j for j in jobs}
        self.all_jobs = list(jobs)
        part = f", partition {self.opts.partition}" if self.opts.partition else ""
        print(f"{self.flow}: {len(jobs)} {self.noun} on Slurm: job {self.array_job} (array 0-{len(jobs) - 1}, "
              f"{self.max_parallel} at a time{part})", flush=True)
        return []

    def can_launch(self) -> bool:
        return False

    def running(self) -> List[Job]:
        return list(self.active.values())

    # -- state ------------------------------------------------------------------------------------
    def _file(self, job: Job, ext: str) -> str:
        return os.path.join(self.tmp, f"{job.index}.{ext}")

    def _read(self, job: Job, ext: str) -> Optional[str]:
        try:
            with open(self._file(job, ext)) as f:
                return f.read().strip()
        except OSError:
            return None

    def _ran(self, job: Job) -> bool:
        return job.farm.get("state") in ("COMPLETED", "FAILED") and os.path.exists(self._file(job, "rc"))

    def state_text(self, job: Job) -> str:
        s = job.farm.get("state", "")
        if s in ("COMPLETED", "FAILED") and not os.path.exists(self._file(job, "rc")):
            s += f" (its files are not in {self.tmp}: do the nodes share this directory?)"
        elif not job.farm.get("host") and s != "NOT_STARTED":
            s += " (never started)"
        return s

    def _end(self, job: Job, state: str) -> None:
        job.farm.update(state=state, id=f"{self.array_job}_{job.index}",
                        host=self._read(job, "host") or "")
        if not os.path.exists(job.out_path):
            open(job.out_path, "w").close()
        secs = self._read(job, "secs")
        job.secs = float(secs) if secs else 0.0
        job.ran = self._ran(job)
        job.rc = self._read(job, "rc")
        self.finish(job)

    def poll(self) -> List[Job]:
        self.states = array_states(self.array_job)
        self.reasons = {why for s, why in self.states.values()
                        if s == "PENDING" and why not in ORDINARY_WAIT}
        done = []
        for i, job in list(self.active.items()):
            s = self.states.get(i, ("", ""))[0]
            if s and s not in UNFINISHED:
                # A task that completed may take a moment to show its files on a network
                # filesystem: wait up to 10 polls for them.
                if s in ("COMPLETED", "FAILED") and not os.path.exists(self._file(job, "rc")) \
                        and self.grace < 10:
                    self.grace += 1
                    continue
            elif s:
                continue
            if not s:
                # slurmctld forgot it (a pending task cancelled, or older than MinJobAge)
                if os.path.exists(self._file(job, "rc")):
                    s = "COMPLETED"
                elif os.path.exists(self._file(job, "host")):
                    s = "UNKNOWN"
                else:
                    s = "NOT_STARTED"
            del self.active[i]
            self._end(job, s)
            done.append(job)
        return done

    # -- what the outputs show --------------------------------------------------------------------
    def done_line(self, job: Job) -> str:
        if job.ran:
            return (f"{self.flow}: {job.name:<22} {job.result_line or ''} ({job.secs:.1f}s, "
                    f"slurm {job.farm['id']})")
        return f"{self.flow}: {job.name:<22} Slurm task {job.farm['id']} {self.state_text(job)}"

    def tick_line(self, minutes: int, ndone: int, njobs: int) -> str:
        nrun = sum(1 for i in self.active if self.states.get(i, ("", ""))[0] not in ("PENDING",))
        npend = len(self.active) - nrun
        nfail = 0  # the jobs ended so far that did not pass
        for job in self.ended:
            nfail += job.kind != "PASS"
        line = (f"{self.flow}: {minutes} min: {ndone} of {njobs} {self.noun} done, {nrun} running, {npend} "
                f"pending, {nfail} failed so far")
        if self.reasons:
            line += f"; pending because: {','.join(sorted(self.reasons))}"
        for i, job in sorted(self.active.items()):
            if self.states.get(i, ("", ""))[0] == "RUNNING" and job.run.kind != "default":
                line += f"; {job.name} {progress_of(job) or 'started'}"
        return line

    @property
    def ended(self) -> List[Job]:
        return [j for j in self.all_jobs if j.index not in self.active]

    def row_suffix(self, job: Job) -> str:
        s = f"  {job.farm.get('id', '')}"
        if not job.ran:
            s += f" {self.state_text(job)}"
        return s

    def why(self, job: Job) -> str:
        host = job.farm.get("host")
        line = (f"{self.flow}: {job.name}: Slurm task {job.farm.get('id')} {self.state_text(job)}"
                f"{' on node ' + host if host else ''}, no result:")
        try:
            with open(os.path.join(self.tmp, f"slurm-{job.index}.log"), errors="replace") as f:
                tail = f.read().splitlines()[-2:]
        except OSError:
            tail = []
        return "\n".join([line] + tail)

    # -- the re-run alone, and Ctrl-C -------------------------------------------------------------
    def rerun(self, job: Job, env: Dict[str, str]) -> None:
        """A one-task array of the same index (the environment's extra variables go into its
        command); the summary's row keeps the first task's id, state and node."""
        first = dict(job.farm)
        for ext in ("rc", "secs", "host"):
            try:
                os.remove(self._file(job, ext))
            except OSError:
                pass
        extra = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        with open(os.path.join(self.tmp, f"{job.index}.cmd"), "w") as f:
            f.write(job.shell_command().replace("exec env ", f"exec env {extra} ", 1) + "\n")
        self._submit(str(job.index))
        self.active = {job.index: job}
        self.grace = 0
        while self.active:
            time.sleep(float(os.environ.get("PINET_VERIFY_POLL", "2")))
            self.poll()
        if not job.ran:
            job.rc = f"{job.rc or '-'} (Slurm task {job.farm['id']} {job.farm['state']})"
        job.farm = first

    def kill(self) -> None:
        if not self.submitted:
            return
        subprocess.run(["scancel"] + self.submitted, capture_output=True)
        ids = ",".join(self.submitted)
        for _ in range(100):
            r = subprocess.run(["squeue", "-h", "-j", ids, "-o", "%i"], capture_output=True, text=True)
            if not r.stdout.strip():
                break
            time.sleep(0.3)
        print(f"{self.flow}: interrupted: cancelled Slurm job(s) {' '.join(self.submitted)}",
              file=sys.stderr, flush=True)
