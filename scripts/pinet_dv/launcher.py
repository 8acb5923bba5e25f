"""Launchers: where and how a job runs.

A Launcher starts jobs, polls them, kills them, and judges each finished job with one verdict
scan (`finish`, through pinet_dv.verdict). The scheduler (pinet_dv.scheduler) drives it:

    pending = launcher.begin(jobs)   the jobs the scheduler still launches one by one (a farm that
                                     submits them all at once, as a Slurm array, returns [])
    launcher.can_launch()            a slot is free for launch(job)
    launcher.launch(job)
    launcher.poll()                  the jobs that ended since the last poll (already judged)
    launcher.running()               the jobs launched and not yet ended
    launcher.rerun(job)              the job once more, alone, blocking (its output replaces the
                                     first one's files; the caller keeps what it needs)
    launcher.kill()                  stop everything launched (Ctrl-C)

and, for the outputs, `done_line(job)` (the line printed as a job ends), `row_suffix(job)` (what
follows its summary row), `why(job)` (why a job did not run to its end) and `header_columns`.
A new farm is one subclass registered in LAUNCHERS (see slurm.py)."""
import os
import subprocess
import time
from typing import Dict, List, Optional

from pinet_dv.job import Job


class LauncherError(Exception):
    """A launcher could not submit (exit 3) or is missing a tool (usage error, exit 2)."""
    def __init__(self, message: str, status: int):
        super().__init__(message)
        self.status = status


class Launcher:
    name = "base"
    dry = False    # a launcher that runs nothing (the flow then writes no outputs)
    # the summary's extra column after the save file: its header, or None
    extra_column: Optional[str] = None

    @classmethod
    def check(cls) -> None:
        """Raise LauncherError (status 2) when this farm's tools are missing here."""

    def __init__(self, opts):
        self.check()
        self.opts = opts          # the flow's options: jobs (-j), coverage, root, tmp, ...
        self.max_parallel = opts.jobs
        self.flow = getattr(opts, "flow", "verify")   # the prefix of the lines it prints
        self.noun = getattr(opts, "noun", "runs")      # what the flow's jobs are, in those lines

    # -- the scheduler's interface ------------------------------------------------------------
    def begin(self, jobs: List[Job]) -> List[Job]:
        return list(jobs)

    def can_launch(self) -> bool:
        return len(self.running()) < self.max_parallel

    def launch(self, job: Job) -> None:
        raise NotImplementedError

    def poll(self) -> List[Job]:
        raise NotImplementedError

    def running(self) -> List[Job]:
        raise NotImplementedError

    def rerun(self, job: Job, env: Dict[str, str]) -> None:
        raise NotImplementedError

    def kill(self) -> None:
        pass

    def start_line(self, njobs: int) -> Optional[str]:
        return None

    def tick_line(self, minutes: int, ndone: int, njobs: int) -> str:
        line = f"{self.flow}: {minutes} min: {ndone} of {njobs} {self.noun} done"
        for job in sorted(self.running(), key=lambda j: j.index):
            line += f"; {job.name} {progress_of(job) or 'started'}"
        return line

    # -- the one verdict scan -------------------------------------------------------------------
    def finish(self, job: Job) -> None:
        """Judge an ended job from its output and exit status (and the farm's word on it): the
        job's own verdict grammar (pinet_dv.verdict), cosim or formal."""
        job.judge()

    # -- what the outputs show ------------------------------------------------------------------
    def done_line(self, job: Job) -> str:
        return f"{self.flow}: {job.name:<22} {job.result_line or ''} ({job.secs:.1f}s)"

    def row_suffix(self, job: Job) -> str:
        return ""

    def why(self, job: Job) -> str:
        return f"{self.flow}: {job.name} exited {job.rc} without a PASS/FAIL line:"


def progress_of(job: Job) -> Optional[str]:
    """The last progress line's figures of a running job ('50% (5 of 10 cycles, ...)')."""
    import re
    found = re.findall(r"[0-9]*% \([0-9]* of [0-9]* cycles[^)]*\)", job.output())
    return found[-1] if found else None


class LocalLauncher(Launcher):
    """Runs the jobs on this machine, at most -j at a time."""
    name = "local"

    def __init__(self, opts):
        super().__init__(opts)
        self.procs: Dict[int, tuple] = {}    # job index -> (job, Popen, start, out file)

    def start_line(self, njobs: int) -> Optional[str]:
        if self.max_parallel > 1 and njobs > 1:
            return f"{self.flow}: {njobs} {self.noun}, {self.max_parallel} at a time"
        return None

    def _start(self, job: Job, extra_env: Dict[str, str]):
        env = dict(os.environ, **job.env(), **extra_env)
        out = open(job.out_path, "wb")
        try:
            p = subprocess.Popen(job.argv(), stdout=out, stderr=subprocess.STDOUT, env=env,
                                 stdin=subprocess.DEVNULL)
        except OSError as e:
            out.write(f"{self.flow}: cannot run {job.argv()[0]}: {e.strerror}\n".encode())
            out.close()
            return None, out
        return p, out

    def launch(self, job: Job) -> None:
        p, out = self._start(job, {})
        self.procs[job.index] = (job, p, time.monotonic(), out)

    def running(self) -> List[Job]:
        return [j for j, _, _, _ in self.procs.values()]

    def _ended(self, job, p, start, out) -> None:
        out.close()
        job.secs = round(time.monotonic() - start, 1)
        job.rc = str(p.returncode if p is not None else 127)
        self.finish(job)

    def poll(self) -> List[Job]:
        done = []
        for i, (job, p, start, out) in list(self.procs.items()):
            if p is None or p.poll() is not None:
                del self.procs[i]
                self._ended(job, p, start, out)
                done.append(job)
        return done

    def rerun(self, job: Job, env: Dict[str, str]) -> None:
        start = time.monotonic()
        p, out = self._start(job, env)
        if p is not None:
            p.wait()
        self._ended(job, p, start, out)

    def kill(self) -> None:
        for job, p, _, out in self.procs.values():
            if p is not None and p.poll() is None:
                p.kill()
                p.wait()
            out.close()
        self.procs.clear()


def _slurm():
    from pinet_dv.slurm import SlurmLauncher
    return SlurmLauncher


def _dryrun():
    from pinet_dv.dryrun import DryRunLauncher
    return DryRunLauncher


LAUNCHERS = {"local": lambda: LocalLauncher, "slurm": _slurm, "dryrun": _dryrun}


def add_options(ap) -> None:
    """The launchers' options on a flow's argument parser (verify, formal): -j, --farm and
    Slurm's --partition, --time-limit, --sbatch-args."""
    ap.add_argument("-j", dest="jobs", type=int, default=1)
    ap.add_argument("--farm", default="local")
    for name in ("--partition", "--time-limit", "--sbatch-args"):
        ap.add_argument(name, default="")


def make_launcher(farm: str, opts) -> Launcher:
    """The factory: the launcher class registered under FARM."""
    if farm not in LAUNCHERS:
        raise LauncherError(f"--farm must be {' or '.join(LAUNCHERS)} (got '{farm}')", 2)
    return LAUNCHERS[farm]()(opts)
