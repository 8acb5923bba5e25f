"""One job per run x seed: what to run and, once run, what it gave.

A job's files live in the engine's scratch directory (tmp): <i>.out (its output), and on a farm
whatever the launcher needs; its results are attributes, not files."""
import os
import re
import shlex
from dataclasses import dataclass, field
from typing import List, Optional

from pinet_dv import verdict as V


@dataclass
class Run:
    """One line of the build's cosim_runs.list: name|executable|arguments|kind."""
    name: str
    exe: str
    args: str
    kind: str     # default, long, soak (or anything else: run with --long only)


def read_runs(path: str) -> List[Run]:
    runs = []
    with open(path) as f:
        for line in f:
            parts = line.rstrip("\n").split("|", 3)
            parts += [""] * (4 - len(parts))
            runs.append(Run(*parts))
    return runs


# POSIX bracket classes of an ERE, in Python's re syntax (inside a bracket expression)
_POSIX_CLASSES = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "a-zA-Z0-9", "upper": "A-Z",
                  "lower": "a-z", "space": " \\t\\n\\r\\f\\v", "xdigit": "0-9A-Fa-f",
                  "punct": "!-/:-@\\[-`{-~", "blank": " \\t"}


def ere_search(pattern: str, text: str) -> bool:
    """Whether the POSIX ERE PATTERN matches somewhere in TEXT, as bash's [[ text =~ pattern ]]
    answers (the bracket classes translated; a pattern that does not compile matches nothing, as
    =~ then fails)."""
    for name, chars in _POSIX_CLASSES.items():
        pattern = pattern.replace(f"[:{name}:]", chars)
    try:
        return re.search(pattern, text) is not None
    except re.error:
        return False


def selected(run: Run, long: bool, only: Optional[str]) -> bool:
    """Whether a run-list line runs: not a comment, default kind or --long, matching --only (an
    ERE searched in the name, as bash's =~ does)."""
    if not run.name or run.name.startswith("#"):
        return False
    if run.kind != "default" and not long:
        return False
    return not only or ere_search(only, run.name)


@dataclass
class Job:
    index: int
    run: Run
    seed: str              # "" = the cosim's default
    wave: str              # "-" = none
    cov: Optional[str]     # the coverage file (with --coverage)
    fcov: str              # the functional coverage file
    tmp: str
    # results
    rc: Optional[str] = None          # exit status as text ("0", "1", ...); None = no status
    secs: float = 0.0
    verdict: Optional[V.Verdict] = None
    result_line: Optional[str] = None
    ran: bool = True                  # ran to its end (a farm may say otherwise)
    repro: Optional[str] = None       # the command line printed for the re-run alone
    alone: Optional[str] = None       # the re-run's verdict line (or why none)
    window: Optional[str] = None      # the re-run's mismatch window JSON
    farm: dict = field(default_factory=dict)   # the launcher's own facts (Slurm: id, state, host)

    @property
    def name(self) -> str:
        return self.run.name

    @property
    def out_path(self) -> str:
        return os.path.join(self.tmp, f"{self.index}.out")

    def argv(self) -> List[str]:
        """The cosim's command line (the run's arguments split at white space, as verify.sh did)."""
        cmd = [self.run.exe] + self.run.args.split()
        if self.seed:
            cmd += ["--seed", self.seed]
        cmd.append("--quiet")
        if self.wave != "-":
            cmd += ["--wave", self.wave]
        if self.run.kind != "default":
            cmd.append("--progress")
        return cmd

    def env(self) -> dict:
        e = {"PINET_FCOV_FILE": self.fcov}
        if self.cov:
            e["PINET_COVERAGE_FILE"] = self.cov
        return e

    def shell_command(self) -> str:
        """The job as one shell line (for a farm's task): env and command, quoted."""
        return "exec env " + " ".join(f"{k}={shlex.quote(v)}" for k, v in self.env().items()) + \
            " " + " ".join(shlex.quote(a) for a in self.argv())

    def judge(self) -> None:
        """The verdict of an ended job (its last verdict line; none for a run that did not end)."""
        self.result_line = V.last_line(self.output())
        self.verdict = V.parse(self.result_line) if (self.ran and self.result_line) else None

    # -- its JUnit testcase (pinet_dv.outputs.junit) ----------------------------------------------
    @property
    def case_class(self) -> str:
        return f"pinet.cosim.{self.block}"

    @property
    def case_name(self) -> str:
        return f"{self.name} seed {self.seed_text}"

    failure_type = "mismatch"

    def error_message(self) -> str:
        slurm, state = self.farm.get("id", ""), self.farm.get("state", "")
        if slurm and state not in ("COMPLETED", "FAILED"):
            return f"{self.name}: Slurm task {slurm} {state}, no result"
        return f"{self.name}: no PASS/FAIL line"

    @property
    def attachment(self) -> Optional[str]:
        return self.wave if self.wave != "-" else None

    def output(self) -> str:
        try:
            with open(self.out_path, errors="replace") as f:
                return f.read()
        except OSError:
            return ""

    @property
    def kind(self) -> str:
        """PASS, FAIL or ERROR (no verdict, a run that did not end, or a PASS with a non-zero exit)."""
        if not self.ran or self.verdict is None:
            return "ERROR"
        if self.verdict.passed:
            return "PASS" if self.rc == "0" else "ERROR"
        return "FAIL"

    @property
    def block(self) -> str:
        return self.verdict.block if self.kind != "ERROR" else "?"

    @property
    def seed_text(self) -> str:
        return str(self.verdict.seed) if self.kind != "ERROR" else (self.seed or "-")

    @property
    def cycles_text(self) -> str:
        return str(self.verdict.cycles) if self.kind != "ERROR" else "-"


def make_jobs(runs: List[Run], *, long: bool, only: Optional[str], seed: str,
              nseeds: Optional[int], waves: str, coverage: bool, tmp: str) -> List[Job]:
    """One job per selected run and seed, in the list's order."""
    seeds = [seed] if nseeds is None else [str(int(seed or 1) + k) for k in range(nseeds)]
    jobs = []
    for run in runs:
        if not selected(run, long, only):
            continue
        for s in seeds:
            stem = f"{run.name}_s{s}" if nseeds is not None else run.name
            wave = "-" if run.kind == "soak" else f"{waves}/{stem}.fst"
            jobs.append(Job(len(jobs), run, s, wave,
                            f"{waves}/coverage/{stem}.dat" if coverage else None,
                            f"{waves}/fcov/{stem}.txt", tmp))
    return jobs
