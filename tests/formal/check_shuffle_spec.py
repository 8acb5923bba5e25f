#!/usr/bin/env python3
"""check_shuffle_spec.py <pinet> <iverilog> <vvp> <work dir> <source dir>

The specification the ps_router / ps_network proofs compare against (formal/ps_network_spec.sv)
must be the C model's schedules. For N = 2, 4, 8, 16, every op 0 .. 6 (bcast ... upload), both
schedules and every M = 1 .. MemWords, the run it prints under Icarus (tests/formal/
shuffle_spec_tb.sv: per cycle every word on every channel, its source and destination address
and COPY/ADD, and the done cycle) must equal what `pinet shuffle run --schedule paper|fast
--json` gives (its transfers placed by docs/shuffle.md section 4: word i of a transfer of step
s in cycle B_s + 1 + start + i), and the commands it refuses (QUANTUM) must be those the C model
refuses (exit 3). Prints one PASS/FAIL line per size; exit 1 on the first difference.
"""
import json
import os
import subprocess
import sys

OPS = ["bcast", "bcast-host", "scatter", "integrate", "allgather", "gather", "upload"]
SIZES = [(2, 8), (4, 16), (8, 24), (16, 32)]  # (N, MemWords)


def cmodel(pinet, op, n, m, fast):
    """The C model's run as (accepted, {(t, ch, src, dst, add)}, T)."""
    r = subprocess.run([pinet, "shuffle", "run", "--op", OPS[op], "--pes", str(n), "--words",
                        str(m), "--schedule", "fast" if fast else "paper", "--json"],
                       capture_output=True, text=True)
    if r.returncode == 3:
        return False, set(), None
    if r.returncode != 0:
        raise SystemExit(f"FAIL shuffle spec: pinet exit {r.returncode}: {r.stderr.strip()}")
    doc = json.loads(r.stdout)
    words = set()
    b = 0
    for sched, xfers in zip(doc["schedule"], doc["transfers"]):
        length = 0
        for (src_pe, dst_pe, nw), x in zip(sched, xfers):
            ch, so, do, kind = x[0], x[1], x[2], x[3]
            start = x[4] if len(x) > 4 else 0
            length = max(length, start + nw)
            for i in range(nw):
                words.add((b + 1 + start + i, ch, so + i, do + i, 1 if kind == "add" else 0))
        b += 1 + length
    if b != doc["cycles"]:
        raise SystemExit(f"FAIL shuffle spec: C model {OPS[op]} N={n} M={m}: steps end at {b}, "
                         f"cycles {doc['cycles']}")
    return True, words, doc["cycles"]


def main():
    pinet, iverilog, vvp, work, src = sys.argv[1:6]
    os.makedirs(work, exist_ok=True)
    for n, mem in SIZES:
        exe = os.path.join(work, f"shuffle_spec_n{n}.vvp")
        subprocess.run([iverilog, "-g2012", "-o", exe, f"-Pshuffle_spec_tb.N={n}",
                        f"-Pshuffle_spec_tb.MemWords={mem}", f"{src}/rtl/ps_pkg.sv",
                        f"{src}/formal/ps_network_spec.sv",
                        f"{src}/tests/formal/shuffle_spec_tb.sv"], check=True)
        out = subprocess.run([vvp, "-n", exe], capture_output=True, text=True, check=True).stdout
        runs = []
        for line in out.splitlines():
            f = line.split()
            if not f:
                continue
            if f[0] == "cmd":
                runs.append({"cmd": tuple(int(v) for v in f[1:4]), "code": int(f[4]),
                             "words": set(), "T": None})
            elif f[0] == "x":
                runs[-1]["words"].add(tuple(int(v) for v in f[1:6]))
            elif f[0] == "long":
                runs[-1]["long"] = line
            elif f[0] == "done":
                runs[-1]["T"] = int(f[1])
        checked = 0
        for run in runs:
            op, fast, m = run["cmd"]
            name = f"{OPS[op]} {'fast' if fast else 'paper'} N={n} M={m}"
            ok, words, total = cmodel(pinet, op, n, m, fast)
            if ok != (run["code"] == 0):
                print(f"FAIL shuffle spec: {name}: spec code {run['code']}, C model "
                      f"{'accepts' if ok else 'refuses'}")
                return 1
            if not ok:
                continue
            if run["T"] != total:
                print(f"FAIL shuffle spec: {name}: spec done in cycle {run['T']}, C model {total}")
                return 1
            if run["words"] != words:
                extra = sorted(run["words"] - words)[:5]
                miss = sorted(words - run["words"])[:5]
                print(f"FAIL shuffle spec: {name}: (cycle, channel, src, dst, add) only in the "
                      f"spec {extra}, only in the C model {miss}")
                return 1
            if "long" in run:
                print(f"FAIL shuffle spec: {name}: a transfer longer than its step ({run['long']})")
                return 1
            checked += 1
        print(f"PASS shuffle spec N={n}: {checked} runs (7 ops, paper and fast, M = 1 .. {mem}), "
              f"every word of every channel and T as pinet shuffle run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
