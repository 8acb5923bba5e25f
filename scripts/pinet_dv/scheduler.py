"""The scheduler: the -j loop over a launcher, a line a minute, the failing runs re-run alone, and
the guard that stops a flow's jobs on Ctrl-C, SIGTERM or a farm's error."""
import os
import shutil
import signal
import sys
import time
from typing import Callable, List, Optional

from pinet_dv.job import Job
from pinet_dv.launcher import Launcher, LauncherError, progress_of


class Interrupted(Exception):
    def __init__(self, status):
        super().__init__(status)
        self.status = status


def _interrupt(signum, _frame):
    raise Interrupted(130 if signum == signal.SIGINT else 143)


def guarded(launcher: Launcher, body: Callable[[], None]) -> Optional[int]:
    """Runs BODY (the flow's part that runs jobs) with SIGINT and SIGTERM raising Interrupted: on
    either, or on a LauncherError (its message printed), every job the launcher started is killed
    (a farm's tasks cancelled) and the flow's exit status returned (130, 143, the error's status).
    None when BODY ran to its end."""
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        body()
    except Interrupted as e:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        launcher.kill()
        return e.status
    except LauncherError as e:
        print(str(e), file=sys.stderr)
        launcher.kill()
        return e.status
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    return None


def say(line: str) -> None:
    print(line, flush=True)


def run_all(launcher: Launcher, jobs: List[Job], *, tick: bool,
            line_of: Optional[Callable[[Job], str]] = None) -> None:
    """Runs every job through the launcher, printing each one's line as it ends (LINE_OF(job),
    default the launcher's done_line); with TICK a line every PINET_VERIFY_TICK seconds (default
    60) naming the runs done and each running run's last progress. Returns when every job has
    ended."""
    line = launcher.start_line(len(jobs))
    if line:
        say(line)
    pending = launcher.begin(jobs)
    ndone = 0
    period = float(os.environ.get("PINET_VERIFY_TICK", "60"))
    poll = float(os.environ.get("PINET_VERIFY_POLL", "0.05")) if launcher.name == "local" else \
        float(os.environ.get("PINET_VERIFY_POLL", "2"))
    t0 = time.monotonic()
    next_tick = t0 + period
    while True:
        while pending and launcher.can_launch():
            launcher.launch(pending.pop(0))
        for job in launcher.poll():
            ndone += 1
            say((line_of or launcher.done_line)(job))
        if ndone == len(jobs):
            return
        now = time.monotonic()
        if tick and now >= next_tick:
            say(launcher.tick_line(int((now - t0) // 60), ndone, len(jobs)))
            next_tick = now + period
        time.sleep(poll)


def rerun_failures(launcher: Launcher, jobs: List[Job], tmp: str) -> None:
    """Each failing (or erroring) job once more, alone: the command that reproduces it printed,
    its verdict alone kept (job.alone) and the values around its first mismatch
    (PINET_MISMATCH_JSON, cosim/common/mismatch_window.h) for the report. The job's first run
    stays its result."""
    for job in jobs:
        if job.kind == "PASS":
            continue
        job.repro = " ".join(job.argv())
        say(f"verify: re-running {job.name} alone: {job.repro}")
        first = job.out_path + ".first"
        shutil.copyfile(job.out_path, first)
        kept = (job.rc, job.verdict, job.result_line, job.ran, dict(job.farm))
        window = os.path.join(tmp, f"{job.index}.window.json")
        launcher.rerun(job, {"PINET_MISMATCH_JSON": window})
        job.alone = job.result_line or f"no PASS/FAIL line, exit {job.rc}"
        say(f"verify: alone: {job.alone}")
        if os.path.exists(window):
            job.window = window
        job.rc, job.verdict, job.result_line, job.ran, job.farm = kept
        os.replace(first, job.out_path)
