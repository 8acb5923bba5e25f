#!/usr/bin/env python3
"""test_engine.py SOURCE_DIR - the verification engine's extension points (scripts/pinet_dv):
  - a new farm is one Launcher subclass: the dry-run launcher (pinet_dv/dryrun.py, under 150
    lines) prints, for every run x seed of a run list, exactly the command and environment the
    local launcher runs (--seed, --quiet, --wave, --progress by kind, the fcov file), in the
    list's order, and writes nothing (no waves directory);
  - the factory refuses an unknown farm: exit 2, one line;
  - the job model: --only is a POSIX ERE as bash's =~ reads it (bracket classes; a pattern that
    does not compile selects nothing), comments and non-default kinds skipped without --long.
Seconds, no build."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, done, src  # noqa: E402  (argv[1], scripts/ on the path)
from pinet_dv import job as J  # noqa: E402


engine = [sys.executable, os.path.join(src, "scripts", "pinet_dv")]
with tempfile.TemporaryDirectory() as work:
    os.makedirs(os.path.join(work, "b"))
    with open(os.path.join(work, "b", "cosim_runs.list"), "w") as f:
        f.write("# name|executable|arguments|kind\n"
                "alpha|/x/cosim_a|--pes 4 --cycles 10|default\n"
                "beta|/x/cosim_b||long\n"
                "gamma|/x/cosim_c|--n 2|soak\n")
    waves = os.path.join(work, "w")
    r = subprocess.run(engine + ["verify", "--farm", "dryrun", "--build", os.path.join(work, "b"),
                                 "--waves", waves, "--seeds", "2", "--seed", "7", "--long"],
                       capture_output=True, text=True)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("verify: would run: ")]
    want = [
        f"PINET_FCOV_FILE={waves}/fcov/alpha_s7.txt /x/cosim_a --pes 4 --cycles 10 --seed 7 --quiet --wave {waves}/alpha_s7.fst",
        f"PINET_FCOV_FILE={waves}/fcov/alpha_s8.txt /x/cosim_a --pes 4 --cycles 10 --seed 8 --quiet --wave {waves}/alpha_s8.fst",
        f"PINET_FCOV_FILE={waves}/fcov/beta_s7.txt /x/cosim_b --seed 7 --quiet --wave {waves}/beta_s7.fst --progress",
        f"PINET_FCOV_FILE={waves}/fcov/beta_s8.txt /x/cosim_b --seed 8 --quiet --wave {waves}/beta_s8.fst --progress",
        f"PINET_FCOV_FILE={waves}/fcov/gamma_s7.txt /x/cosim_c --n 2 --seed 7 --quiet --progress",
        f"PINET_FCOV_FILE={waves}/fcov/gamma_s8.txt /x/cosim_c --n 2 --seed 8 --quiet --progress",
    ]
    check(r.returncode == 0, f"dry run: exit {r.returncode}: {r.stderr}")
    check([ln[len("verify: would run: "):] for ln in lines] == want,
          "dry run: the commands:\n  " + "\n  ".join(lines))
    check(not os.path.exists(waves), "dry run: the waves directory was created")
    # the same jobs, without --long: alpha only; with a seed of its own: no --seed
    jobs = J.make_jobs(J.read_runs(os.path.join(work, "b", "cosim_runs.list")), long=False, only=None,
                       seed="", nseeds=None, waves="w", coverage=False, tmp="")
    check([j.name for j in jobs] == ["alpha"] and jobs[0].argv() ==
          ["/x/cosim_a", "--pes", "4", "--cycles", "10", "--quiet", "--wave", "w/alpha.fst"],
          f"default jobs: {[j.argv() for j in jobs]}")

r = subprocess.run(engine + ["farm", "lsf"], capture_output=True, text=True)
check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, f"farm lsf: {r.returncode} {r.stderr!r}")
r = subprocess.run(engine + ["nope"], capture_output=True, text=True)
check(r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1, f"unknown command: {r.returncode}")

for pattern, name, want in (("^rta_ring_n[[:digit:]]+$", "rta_ring_n8", True),
                            ("^rta_ring_n[[:digit:]]+$", "rta_ring_nx", False),
                            ("^(a|b", "a", False), ("ring", "rta_ring_n8", True)):
    check(J.ere_search(pattern, name) == want, f"--only {pattern!r} on {name}: not {want}")

lines = sum(1 for _ in open(os.path.join(src, "scripts", "pinet_dv", "dryrun.py")))
check(lines < 150, f"dryrun.py: {lines} lines, a new launcher is under 150")
done("test_engine")
