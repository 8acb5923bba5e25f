"""The regression flow behind scripts/verify.sh: every selected run x seed as a job, run through
a launcher (--farm), judged by the one verdict parser, then the summary table, the JUnit XML, the
coverage and functional coverage checks and the sign-off table and report, all from the jobs.

verify.sh parses and checks the options, installs, configures and builds, then execs

    python3 scripts/pinet_dv verify --build B --waves W [--seed S] [--seeds K] -j N [--only R]
        [--long] [--coverage] [--junit F] [--farm F] [--partition P] [--time-limit T]
        [--sbatch-args A]
    python3 scripts/pinet_dv targets --build B [--only R] [--long]   (the executables to build)

Exit status: verify.sh's (0 all passed, 1 a run failed, a coverage check failed or no run is
selected, 2 usage, 3 submission error), 130/143 on SIGINT/SIGTERM (a farm's tasks cancelled)."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

from pinet_dv import job as J
from pinet_dv import outputs, scheduler
from pinet_dv.launcher import LauncherError, add_options, make_launcher

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from pinet_quote import quote  # noqa: E402


def parser(prog):
    ap = argparse.ArgumentParser(prog=prog, add_help=False)
    ap.add_argument("--build", required=True)
    ap.add_argument("--waves", default="waves")
    ap.add_argument("--seed", default="")
    ap.add_argument("--seeds", type=int)
    ap.add_argument("--only", default="")
    ap.add_argument("--long", action="store_true")
    ap.add_argument("--coverage", action="store_true")
    ap.add_argument("--junit", default="")
    add_options(ap)
    return ap


def no_runs(only):
    print("verify: no cosim runs registered" + (f" matching '{quote(only)}'" if only else ""),
          file=sys.stderr)
    return 1


def targets(argv):
    o = parser("targets").parse_args(argv)
    runs = J.read_runs(os.path.join(o.build, "cosim_runs.list"))
    names = sorted({os.path.basename(r.exe) for r in runs if J.selected(r, o.long, o.only)})
    print("\n".join(names))
    return 0


def farm(argv):
    """farm FARM [FLOW]: exit 2 with FLOW's usage line (verify.sh's, formal.sh's, mutate.sh's)
    when FARM is unknown or its tools are missing."""
    from pinet_dv.launcher import LAUNCHERS
    name = argv[0] if argv else ""
    flow = argv[1] if len(argv) > 1 else "verify"
    try:
        if name not in LAUNCHERS:
            raise LauncherError(f"--farm must be {' or '.join(LAUNCHERS)} (got '{quote(name)}')", 2)
        LAUNCHERS[name]().check()
    except LauncherError as e:
        print(f"{flow}: {e} (try --help)", file=sys.stderr)
        return e.status
    return 0


def tee(text, *paths, mode="a"):
    sys.stdout.write(text)
    sys.stdout.flush()
    for p in paths:
        with open(p, mode) as f:
            f.write(text)


def run_tool(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
    return r.returncode, r.stdout


def verify(argv):
    o = parser("verify").parse_args(argv)
    o.root = os.getcwd()
    runs = J.read_runs(os.path.join(o.build, "cosim_runs.list"))
    waves = o.waves
    from pinet_dv.launcher import LAUNCHERS
    if o.farm in LAUNCHERS and LAUNCHERS[o.farm]().dry:
        # a dry run: the commands only; nothing is written, nothing removed
        jobs = J.make_jobs(runs, long=o.long, only=o.only or None, seed=o.seed, nseeds=o.seeds,
                           waves=o.waves, coverage=o.coverage, tmp="")
        if not jobs:
            return no_runs(o.only)
        scheduler.run_all(make_launcher(o.farm, o), jobs, tick=False)
        return 0
    os.makedirs(waves, exist_ok=True)
    if o.coverage:
        shutil.rmtree(os.path.join(waves, "coverage"), ignore_errors=True)
        os.makedirs(os.path.join(waves, "coverage"))
    # Functional coverage files of this run only (scripts/verify_report.py reads waves/fcov/*.txt).
    shutil.rmtree(os.path.join(waves, "fcov"), ignore_errors=True)
    os.makedirs(os.path.join(waves, "fcov"))
    os.environ["SYSTEMC_DISABLE_COPYRIGHT_MESSAGE"] = "1"

    # The jobs' scratch files: on a farm in the waves directory, which the nodes share.
    if o.farm == "local":
        o.tmp = tempfile.mkdtemp()
    else:
        o.tmp = tempfile.mkdtemp(prefix=f".verify-{o.farm}.", dir=os.path.abspath(waves))
    try:
        return _verify(o, runs)
    finally:
        shutil.rmtree(o.tmp, ignore_errors=True)


def _verify(o, runs):
    jobs = J.make_jobs(runs, long=o.long, only=o.only or None, seed=o.seed, nseeds=o.seeds,
                       waves=o.waves, coverage=o.coverage, tmp=o.tmp)
    if not jobs:
        return no_runs(o.only)
    try:
        launcher = make_launcher(o.farm, o)
    except LauncherError as e:
        print(str(e), file=sys.stderr)
        return e.status

    def run():
        scheduler.run_all(launcher, jobs, tick=o.long or o.farm != "local")
        for job in jobs:
            if job.kind == "FAIL":
                print(job.result_line, flush=True)
            elif job.kind == "ERROR":
                print(f"verify: {job.name} exited {job.rc} without a PASS/FAIL line:" if job.ran
                      else launcher.why(job), file=sys.stderr)
                tail = job.output().splitlines()[-5:]
                if tail:
                    print("\n".join(tail), file=sys.stderr, flush=True)
        scheduler.rerun_failures(launcher, jobs, o.tmp)

    status = scheduler.guarded(launcher, run)
    if status is not None:
        return status

    failed = any(j.kind != "PASS" for j in jobs)
    summary = os.path.join(o.waves, "summary.txt")
    tee(outputs.summary(jobs, launcher), summary, mode="w")
    if o.junit:
        try:
            outputs.junit(jobs, o.junit)
        except OSError:
            print(f"verify: cannot write --junit '{quote(o.junit)}'", file=sys.stderr)
            return 1
        print(f"verify: JUnit XML: {o.junit}", flush=True)
    cov_text = os.path.join(o.tmp, "coverage.txt")
    if o.coverage:
        print(flush=True)
        # Fails (exit 1) when an RTL module is below 95 % line or toggle coverage.
        rc, out = run_tool([sys.executable, "scripts/coverage_report.py", os.path.join(o.waves, "coverage")])
        tee(out, summary, cov_text)
        failed |= rc != 0
    # Functional coverage of the blocks that ran against the testplans' bins: printed always;
    # with --coverage a hole fails the run.
    print(flush=True)
    blocks = ",".join(sorted({j.block for j in jobs if j.block != "?"}))
    cmd = [sys.executable, "scripts/fcov_check.py", "--fcov", os.path.join(o.waves, "fcov"),
           "--blocks", blocks]
    if o.coverage:
        cmd.append("--strict")
    if o.long:
        cmd.append("--long")
    rc, out = run_tool(cmd)
    tee(out, summary)
    failed |= rc != 0
    # The sign-off table against the testplans and the HTML report (scripts/verify_report.py).
    rows = os.path.join(o.tmp, "jobs.tsv")
    outputs.report_rows(jobs, rows)
    rc, out = run_tool([sys.executable, "scripts/verify_report.py", "--jobs", rows, "--waves", o.waves,
                        "--report", os.path.join(o.waves, "report"), "--coverage-text", cov_text,
                        "--date", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())])
    tee(out, summary)
    if rc == 0:
        print(f"verify: report: {o.waves}/report/index.html", flush=True)
    else:
        print("verify: the sign-off report failed (see above)", file=sys.stderr, flush=True)
    print("verify: open a run's waves with its save file, from here: gtkwave <wave> <save file>",
          flush=True)
    return 1 if failed else 0
