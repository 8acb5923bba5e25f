#!/usr/bin/env bash
# test_cli_shuffle_summary.sh - `pinet shuffle run --summary` (issue 29): for every op, both
# schedules and the three types, the summary (JSON and text) against the full run of the same
# input: the same header, cycles, bound, ratio and costs, and each memory's checksum equal to the
# CRC-32 computed here (zlib.crc32) from the memories the full run prints, each word packed
# little-endian of its type's size (docs/shuffle.md section 8); bad combinations give one-line
# errors with their exit codes.
# Usage: bash test_cli_shuffle_summary.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"
CLI_AREA=shuffle # the command under test (the script's name says which part of it)
cli_seed 2929

cli_python <<'PY'
import os, struct, zlib

OPS = ["bcast", "bcast-host", "scatter", "integrate", "allgather", "gather", "upload"]
PACK = {"i32": "i", "f32": "f", "f64": "d"}  # little-endian, 4, 4 and 8 bytes

def crc(words, t):
    """The CRC-32 of docs/shuffle.md: zlib's over the words, each little-endian of its size."""
    return zlib.crc32(struct.pack(f"<{len(words)}{PACK[t]}", *words))

def value(t):
    if t == "i32":
        return rng.randint(-2**31, 2**31 - 1)
    return repr(rng.uniform(0.5, 1.0) * 2.0 ** rng.randrange(-20, 20) * rng.choice((-1, 1)))

def write_input(op, N, M, t, name):
    rows, cols = {"integrate": (N, M), "allgather": (N, M // N), "gather": (N, M // N),
                  "upload": (N, M // N)}.get(op, (1, M))
    path = os.path.join(work, name)
    with open(path, "w") as f:
        for _ in range(rows):
            f.write(" ".join(str(value(t)) for _ in range(cols)) + "\n")
    return path

# the checksum itself: zlib's CRC-32 (check value of "123456789"), words little-endian
check(zlib.crc32(b"123456789") == 0xCBF43926, "zlib.crc32 is the IEEE CRC-32")
check(crc([1], "i32") == zlib.crc32(b"\x01\x00\x00\x00") and crc([], "f64") == 0,
      "one i32 word is 01 00 00 00; no words give 0")

BIG = ("schedule", "transfers", "link_words", "memories", "host")
runs = 0
for N, M in [(2, 4), (8, 24), (32, 160)]:
    for op in OPS:
        for sched in ("paper", "fast"):
            for t in ("i32", "f32", "f64"):
                what = f"{op} {sched} {t} N={N} M={M}"
                path = write_input(op, N, M, t, f"{op}_{sched}_{t}_{N}.txt")
                base = ["run", "--op", op, "--pes", N, "--words", M, "--type", t,
                        "--schedule", sched, "--input", path]
                full = run_json(*base)
                summ = run_json(*base, "--summary")
                runs += 2
                # the same document without the big arrays, with the checksums where the memories were
                want_keys = [k for k in full if k not in BIG]
                at = want_keys.index("cycles")
                want_keys[at:at] = ["memories_crc32"] + (["host_crc32"] if op == "upload" else [])
                check(list(summ) == want_keys, f"{what}: summary keys {list(summ)}",
                      f"want {want_keys}")
                for k in full:
                    if k not in BIG:
                        check(summ.get(k) == full[k], f"{what}: \"{k}\" {summ.get(k)} != {full[k]}")
                check(summ["ratio"] == full["cycles"] / full["bound"], f"{what}: ratio")
                got = summ.get("memories_crc32", [])
                check(len(got) == N, f"{what}: {len(got)} checksums for {N} memories")
                for i, (c, mem) in enumerate(zip(got, full["memories"])):
                    check(c == crc(mem, t), f"{what}: PE {i} crc32 {c:#010x}",
                          f"!= {crc(mem, t):#010x} of its {len(mem)} words")
                if op == "upload":
                    check(summ.get("host_crc32") == crc(full["host"], t), f"{what}: host crc32")
                # text: the full run's first, cost and bound lines, no steps, a checksum per memory
                ftext = run(*base).stdout.splitlines()
                stext = run(*base, "--summary").stdout.splitlines()
                runs += 2
                names = (["host"] if op == "upload" else []) + [f"PE {i}" for i in range(N)]
                crcs = ([summ.get("host_crc32")] if op == "upload" else []) + got
                want = [l for l in ftext if not l.startswith(("step ", "PE ", "host:"))]
                want += [f"{name}: crc32 {c:#010x}" for name, c in zip(names, crcs)]
                check(stext == want, f"{what}: text summary", f"{stext[:6]} want {want[:6]}")
print(f"{runs} runs")

# --summary and the full output are separate: the full output has no checksum
p = run("run", "--op", "integrate", "--pes", 4, "--words", 8)
check("crc32" not in p.stdout and "PE 3:" in p.stdout, f"full text: {p.stdout!r}")

# stdin input and the --seed path summarise too
p = run("run", "--op", "allgather", "--pes", 4, "--words", 4, "--input", "-", "--summary",
        stdin="1\n2\n3\n4\n")
ref = f"{crc([1, 2, 3, 4], 'i32'):#010x}"
check(p.stdout.splitlines()[-4:] == [f"PE {i}: crc32 {ref}" for i in range(4)],
      f"allgather 1 2 3 4 from stdin: {p.stdout!r}")
a = run_json("run", "--op", "scatter", "--pes", 16, "--words", 64, "--seed", 9)
b = run_json("run", "--op", "scatter", "--pes", 16, "--words", 64, "--seed", 9, "--summary")
check(b["memories_crc32"] == [crc(m, "i32") for m in a["memories"]], "--seed scatter checksums")

# help: the option, the checksum's definition; --schedule says what fast runs for integrate
h = run("run", "--help").stdout
line = next((l for l in h.splitlines() if l.strip().startswith("--summary")), "")
check("CRC-32" in line and "little-endian" in line and "zlib" in line, f"--summary help: {line!r}")
line = next((l for l in h.splitlines() if l.strip().startswith("--schedule")), "")
check("integrate around the ring for --type i32" in line and "f32 and f64" in line,
      f"--schedule help names integrate's schedule per type: {line!r}")

# bad combinations: one line on stderr, nothing on stdout, the exit code of cli.h
sc = ["run", "--op", "scatter", "--pes", 4, "--words", 8]
expect_error(sc + ["--summary=yes"], 2, "option '--summary' takes no value")
expect_error(sc + ["--summary", "--summary"], 2, "option '--summary' given twice")
expect_error(["ring", "--pes", 8, "--summary"], 2, "unknown option '--summary'")
expect_error(["run", "--op", "scatter", "--pes", 6, "--words", 12, "--summary", "--json"], 3,
             "power of two")
expect_error(sc + ["--summary", "--input", os.path.join(work, "nope")], 4, "cannot read")
PY
cli_finish
