#!/usr/bin/env bash
# test_cli_memory.sh - the memory limit every large command checks before it allocates
# (PINET_MAX_MEMORY, else the machine's MemAvailable): a request above the limit is refused with
# one line naming the estimate and the limit (exit 3) and writes nothing; a malformed limit is a
# usage error (exit 2); and each estimate is honest: the peak resident size of the same run,
# measured here by the kernel (getrusage of the child), stays under the estimate plus the fixed
# cost of the process, and the estimate is not wildly above it.
# Usage: bash test_cli_memory.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"

cli_python <<'PY'
import os, re, resource

MiB = 1 << 20
BASE = 32 * MiB   # the process without its data: libc, FFTW plans, stack, the binary

def pinet_env(limit, *args):
    env = dict(os.environ)
    if limit is None:
        env.pop("PINET_MAX_MEMORY", None)
    else:
        env["PINET_MAX_MEMORY"] = limit
    return subprocess.run([pinet, *map(str, args)], capture_output=True, text=True, env=env)

def one_line_error(p, code, cmd, needle):
    lines = p.stderr.strip().splitlines()
    check(p.returncode == code, f"{cmd}: exit {p.returncode}, want {code} ({p.stderr.strip()})")
    check(len(lines) == 1 and lines[0].startswith("pinet: ") and needle in p.stderr,
          f"{cmd}: stderr {p.stderr!r} should be one line mentioning {needle!r}")
    check(p.stdout == "", f"{cmd}: stdout should be empty, got {p.stdout[:200]!r}")

def estimate(*args):
    """The command's estimate in bytes: what it prints when refused under a 1-byte limit."""
    p = pinet_env("1", *args)
    one_line_error(p, 3, args, "more than the 1 bytes of PINET_MAX_MEMORY")
    m = re.search(r"needs about ([0-9.]+) (bytes|KiB|MiB|GiB)", p.stderr)
    check(m is not None, f"{args}: no estimate in {p.stderr!r}")
    scale = {"bytes": 1, "KiB": 1 << 10, "MiB": MiB, "GiB": 1 << 30}
    return float(m.group(1)) * scale[m.group(2)] if m else 0.0

def peak_rss(*args):
    """Peak resident bytes of `pinet args`, measured in a fresh Python so that RUSAGE_CHILDREN
    holds this one child only (Linux reports ru_maxrss in KiB)."""
    code = ("import resource, subprocess, sys\n"
            "p = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
            "print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    env = dict(os.environ)
    env.pop("PINET_MAX_MEMORY", None)
    p = subprocess.run([sys.executable, "-c", code, pinet, *map(str, args)], capture_output=True,
                       text=True, env=env)
    rc, kib = p.stdout.split()
    check(rc == "0", f"{args}: exit {rc} without a limit")
    return int(kib) * 1024

# ---- honest estimates: measured peak <= estimate + BASE, estimate <= 3 x peak + BASE ----------
cases = [
    ("histogram", "--pes", 64, "--bins", 256, "--generate", "random", "--pixels", 1 << 24, "--json"),
    ("recon", "fbp", "--phantom", "shepp-logan", "--views", 128, "--size", 512, "--pes", 16,
     "--json"),
    ("recon", "fbp", "--phantom", "shepp-logan", "--views", 512, "--size", 768, "--json"),
    ("recon", "em", "--phantom", "shepp-logan", "--views", 128, "--size", 128, "--iters", 1,
     "--json"),
    ("recon", "em", "--phantom", "shepp-logan", "--geometry", "ring", "--detectors", 256,
     "--size", 192, "--iters", 1, "--json"),
]
sanitized = os.environ.get("PINET_SANITIZED") == "1"
if sanitized:   # ASan's shadow memory and quarantine are not the program's own
    print("  sanitizer build: peak sizes not compared with the estimates")
for args in ([] if sanitized else cases):
    est, peak = estimate(*args), peak_rss(*args)
    print(f"  {' '.join(map(str, args[:2]))}: estimate {est / MiB:.1f} MiB, "
          f"peak {peak / MiB:.1f} MiB")
    check(peak <= est + BASE, f"{args}: peak {peak / MiB:.1f} MiB above the estimate "
          f"{est / MiB:.1f} MiB + {BASE // MiB} MiB")
    check(est <= 3 * peak + BASE, f"{args}: estimate {est / MiB:.1f} MiB is more than 3x the "
          f"peak {peak / MiB:.1f} MiB")

# ---- refusals: exit 3, one line naming the estimate and the limit, nothing written -----------
p = pinet_env("8G", "histogram", "--pes", 64, "--bins", 256, "--generate", "random",
              "--pixels", 4294967295)
one_line_error(p, 3, "histogram --pixels 2^32-1", "needs about 16.0 GiB")
check("8.0 GiB of PINET_MAX_MEMORY" in p.stderr, f"the limit is not named: {p.stderr!r}")

out = os.path.join(work, "refused.pgm")
p = pinet_env("1M", "recon", "fbp", "--phantom", "shepp-logan", "--views", 256, "--size", 512,
              "--out", out)
one_line_error(p, 3, "recon fbp under 1M", "256 views x 512 bins to a 512 x 512 image")
check(not os.path.exists(out), "a refused recon fbp wrote its --out file")

p = pinet_env("64M", "recon", "em", "--phantom", "shepp-logan", "--geometry", "ring",
              "--detectors", 4096, "--size", 1024, "--json")
one_line_error(p, 3, "recon em ring 4096", "EM of a 1024 x 1024 image")

# Without PINET_MAX_MEMORY the machine's available memory is the limit: a request no machine
# holds (about 5 TiB of system matrix) is refused, quickly and before any allocation.
p = pinet_env(None, "recon", "em", "--phantom", "shepp-logan", "--geometry", "ring",
              "--detectors", 4096, "--size", 1024, "--json")
one_line_error(p, 3, "recon em ring 4096 (machine limit)", "this machine has available")

# Under the limit the command runs: the same small run passes with a limit just above it.
p = pinet_env("64M", "recon", "fbp", "--phantom", "shepp-logan", "--views", 32, "--size", 64,
              "--json")
check(p.returncode == 0, f"recon fbp 64 x 64 under 64M: exit {p.returncode} {p.stderr!r}")

# ---- a malformed limit is a usage error -------------------------------------------------------
for bad in ["abc", "0", "12Q", "-5", "1.5G", "99999999999999999999", "20000000000T", " 1M"]:
    p = pinet_env(bad, "recon", "fbp", "--phantom", "shepp-logan", "--views", 32, "--size", 64,
                  "--json")
    one_line_error(p, 2, f"PINET_MAX_MEMORY={bad!r}", "PINET_MAX_MEMORY")
for good in ["4096", "64k", "64K", "512m", "2G", "1T"]:
    p = pinet_env(good, "histogram", "--pes", 4, "--bins", 8, "--generate", "random",
                  "--pixels", 16, "--json")
    check(p.returncode == 0, f"PINET_MAX_MEMORY={good}: exit {p.returncode} {p.stderr!r}")
PY
cli_finish
