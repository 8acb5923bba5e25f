#!/usr/bin/env bash
# test_cli_progress.sh - progress of long commands on stderr: one line rewritten in place, only on
# a terminal and after a second (or forced by PINET_PROGRESS=1), erased at the end, never mixed
# into stdout, and nothing at all when stderr is a pipe or a file.
# Usage: bash test_cli_progress.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"

cli_python <<'PY'
import os, pty, re, select, time

def pinet_env(progress, *args):
    env = dict(os.environ)
    env.pop("PINET_PROGRESS", None)
    if progress is not None:
        env["PINET_PROGRESS"] = progress
    p = subprocess.run([pinet, *map(str, args)], capture_output=True, env=env)
    # bytes, decoded here: text mode would turn each "\r" into a newline
    p.stdout, p.stderr = p.stdout.decode(), p.stderr.decode()
    return p

def progress_lines(err):
    """The progress lines of a stderr text: each is "\\r<text>\\033[K"; the last must be the
    erasure "\\r\\033[K"."""
    parts = err.split("\r")
    check(parts[0] == "", f"stderr does not start with a carriage return: {err[:80]!r}")
    check(parts[-1] == "\033[K", f"the progress line is not erased at the end: {err[-40:]!r}")
    return [p[:-3] for p in parts[1:-1] if p.endswith("\033[K") and p != "\033[K"]

# ---- forced: every step of otis table, in order, with its row's name -----------------------
table = ["otis", "table", "--n", 16, "--json"]
plain = pinet_env(None, *table)
forced = pinet_env("1", *table)
check(plain.returncode == 0 and forced.returncode == 0, "otis table --n 16 runs")
check(plain.stderr == "", f"stderr into a pipe must stay empty, got {plain.stderr[:120]!r}")
check(forced.stdout == plain.stdout, "progress changed stdout")
rows = [r["operation"] for r in json.loads(plain.stdout)["rows"]]
lines = progress_lines(forced.stderr)
want = [f"pinet: otis table: {i + 1}/{len(rows)} {op}" for i, op in enumerate(rows)]
check(lines == want, f"progress lines {lines[:3]}... want {want[:3]}...")

# ---- forced: recon em counts its iterations ---------------------------------------------------
em = ["recon", "em", "--phantom", "disk", "--views", 16, "--size", 16, "--iters", 5, "--json"]
forced = pinet_env("1", *em)
check(forced.returncode == 0, f"recon em: exit {forced.returncode}")
check(progress_lines(forced.stderr) == [f"pinet: recon em: {k}/5 iterations" for k in range(1, 6)],
      f"recon em progress {forced.stderr!r}")
check(pinet_env("0", *em).stderr == "" and pinet_env(None, *em).stderr == "",
      "PINET_PROGRESS=0 or a pipe: no progress")

# ---- PINET_PROGRESS=0 on a terminal, and a short run on a terminal: nothing --------------------
def on_terminal(progress, *args):
    """Run with stderr on a pseudo-terminal; return (exit code, seconds, stderr text, stdout
    text). stdout goes to a file: a pipe nobody reads while the loop below reads the terminal
    could fill and stop the run."""
    master, slave = pty.openpty()
    env = dict(os.environ)
    env.pop("PINET_PROGRESS", None)
    if progress is not None:
        env["PINET_PROGRESS"] = progress
    t0 = time.monotonic()
    out_file = open(os.path.join(work, "terminal_stdout"), "w+b")
    p = subprocess.Popen([pinet, *map(str, args)], stdout=out_file, stderr=slave, env=env)
    os.close(slave)
    out = b""
    # Read until EOF (or EIO); once the process has exited, also stop at the first quiet wait:
    # what it wrote between the last wait and its exit is read before that.
    exited = False
    while True:
        r, _, _ = select.select([master], [], [], 0.2)
        if r:
            try:
                chunk = os.read(master, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                break
            out += chunk
        elif exited:
            break
        else:
            exited = p.poll() is not None
    p.wait()
    os.close(master)
    out_file.seek(0)
    stdout = out_file.read().decode()
    out_file.close()
    return p.returncode, time.monotonic() - t0, out.decode(), stdout

rc, secs, err, _ = on_terminal("0", *table)
check(rc == 0 and err == "", f"PINET_PROGRESS=0 on a terminal: {err[:80]!r}")
rc, secs, err, _ = on_terminal(None, "otis", "table", "--n", 4, "--json")
check(rc == 0 and (secs > 1.0 or err == ""), f"a {secs:.2f} s run showed progress: {err[:80]!r}")
# EM whose iterations last well over a second on a terminal shows them. The progress clock
# starts when the iterations do, after the matrix and the EM object, so the judge is the run's
# own time_s (the object and the iterations), not the process's: over 1.3 s, the iterations
# alone passed the second (the object takes some 0.05 s). About 2 s here (16000 iterations of
# 96 x 96; under the sanitizers, which make them about 4x slower, 4000).
iters = 4000 if os.environ.get("PINET_SANITIZED") else 16000
long_args = ["recon", "em", "--phantom", "disk", "--views", 64, "--size", 96, "--iters", iters,
             "--json"]
rc, secs, err, out = on_terminal(None, *long_args)
check(rc == 0, f"recon em on a terminal: exit {rc}")
em_s = json.loads(out)["time_s"] if rc == 0 else 0.0
print(f"  recon em on a terminal: EM {em_s:.1f} s of {secs:.1f} s, "
      f"{err.count(chr(13))} carriage returns")
if em_s > 1.3:
    lines = progress_lines(err)
    check(len(lines) > 0 and all(re.fullmatch(rf"pinet: recon em: \d+/{iters} iterations", l)
                                 for l in lines), f"terminal progress {err[:200]!r}")
else:
    print("  (EM under 1.3 s: too short to require progress)")
# The same long run into a pipe: nothing on stderr.
long_em = pinet_env(None, *long_args)
check(long_em.returncode == 0 and long_em.stderr == "",
      f"a long run into a pipe wrote progress: {long_em.stderr[:80]!r}")
PY
cli_finish
