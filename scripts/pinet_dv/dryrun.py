"""DryRunLauncher: prints the command each job would run, runs nothing (--farm dryrun of the
engine's command line; verify.sh does not offer it). The whole of a new farm: one Launcher
subclass and its line in launcher.LAUNCHERS."""
from typing import Dict, List

from pinet_dv.job import Job
from pinet_dv.launcher import Launcher


class DryRunLauncher(Launcher):
    name = "dryrun"
    dry = True          # the flow stops after the launch: no verdicts, no outputs

    def __init__(self, opts):
        super().__init__(opts)
        self.ended: List[Job] = []

    def start_line(self, njobs: int):
        return f"{self.flow}: {njobs} {self.noun}, dry run: the commands only"

    def launch(self, job: Job) -> None:
        env = " ".join(f"{k}={v}" for k, v in job.env().items())
        print(f"{self.flow}: would run: {env} {' '.join(job.argv())}", flush=True)
        job.ran, job.rc, job.farm = False, None, {"state": "DRY-RUN"}
        self.ended.append(job)

    def poll(self) -> List[Job]:
        done, self.ended = self.ended, []
        return done

    def running(self) -> List[Job]:
        return []

    def done_line(self, job: Job) -> str:
        return f"{self.flow}: {job.name:<22} not run (dry run)"

    def rerun(self, job: Job, env: Dict[str, str]) -> None:
        raise RuntimeError("a dry run re-runs nothing")
