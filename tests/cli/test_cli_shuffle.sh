#!/usr/bin/env bash
# test_cli_shuffle.sh - the `pinet shuffle` CLI contract: `run` JSON keys and values against a
# model written here in Python (step counts of Propositions 1-4, the literal N = 8 scatter of
# SPEC §2, per-link loads, direct sums modulo 2^32 and concatenations), `ring` against a
# Hamiltonian-cycle checker and the paper's N = 32 ring, `draw` output, and the one-line errors
# with their exit codes for bad input.
# Usage: bash test_cli_shuffle.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"
cli_seed 7310

cli_python <<'PY'
import os

def write(name, rows):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        for r in rows:
            f.write(" ".join(map(str, r)) + "\n")
    return path

def s32(x):
    x &= 0xffffffff
    return x - (1 << 32) if x >= 1 << 31 else x

# ---- run: every op, several N, random data -------------------------------------------------
def steps_of(op, n):
    return {"bcast": 2 * n - 1, "bcast-host": 2 * n, "scatter": n + 1, "integrate": n,
            "allgather": n, "gather": n, "upload": n + 1}[op]

for n in range(1, 8):
    N = 1 << n
    for op in ["bcast", "bcast-host", "scatter", "integrate", "allgather", "gather", "upload"]:
        k = rng.randint(1, 3)
        M = (n if op.startswith("bcast") else N) * k
        S = M // N if not op.startswith("bcast") else None
        if op == "integrate":
            rows = [[rng.randint(-2**31, 2**32 - 1) for _ in range(M)] for _ in range(N)]
        elif op in ("allgather", "gather", "upload"):
            rows = [[rng.randint(-2**31, 2**31 - 1) for _ in range(S)] for _ in range(N)]
        else:
            rows = [[rng.randint(-2**31, 2**31 - 1) for _ in range(M)]]
        path = write(f"{op}_{N}.txt", rows)
        j = run_json("run", "--op", op, "--pes", N, "--words", M, "--input", path)
        what = f"{op} N={N} M={M}"
        check(j["op"] == op and j["pes"] == N and j["words"] == M, f"{what}: header")
        check(j["steps"] == steps_of(op, n) == len(j["schedule"]), f"{what}: steps {j['steps']}")
        mem = j["memories"]
        check(len(mem) == N, f"{what}: {len(mem)} memories")
        if op == "integrate":
            total = [s32(sum(r[x] for r in rows)) for x in range(M)]
            for i in range(N):
                check(mem[i] == total[i * S:(i + 1) * S], f"{what}: PE {i} segment sum")
        elif op == "allgather":
            cat = [s32(v) for r in rows for v in r]
            check(all(m == cat for m in mem), f"{what}: concatenation in every PE")
        elif op in ("gather", "upload"):
            cat = [s32(v) for r in rows for v in r]
            check(mem[0] == cat, f"{what}: PE 0 holds the concatenation")
            check(all(m == [] for m in mem[1:]), f"{what}: other PEs empty")
            if op == "upload":
                check(j.get("host") == cat, f"{what}: host holds the concatenation")
        elif op == "scatter":
            data = rows[0]
            for i in range(N):
                check(mem[i] == data[i * S:(i + 1) * S], f"{what}: PE {i} segment")
        else:
            check(all(m == rows[0] for m in mem), f"{what}: broadcast copies")
        # link loads: a directed channel per [src, dst] can repeat only between parallel links,
        # so sum per step over (src, dst) and compare per-step maxima with the propositions
        sched = j["schedule"]
        for st, step in enumerate(sched, 1):
            for src, dst, w in step:
                check(-1 <= src < N and -1 <= dst < N and w > 0, f"{what}: transfer {src}->{dst}")
                if src >= 0 and dst >= 0:
                    check(dst in ((2 * src) % N, (2 * src + 1) % N) or
                          src in ((2 * dst) % N, (2 * dst + 1) % N), f"{what}: {src}->{dst} no link")
                else:
                    check({src, dst} == {-1, 0}, f"{what}: host link only to PE 0")
            words = [w for _, _, w in step]
            if op in ("integrate", "allgather"):
                ref = M >> st if op == "integrate" else M >> (n + 1 - st)
                check(len(step) == 2 * N and set(words) == {ref}, f"{what}: step {st} loads")
            if op == "bcast":
                check(set(words) == {M // n}, f"{what}: packets of M/log N")
            if op == "scatter" and st >= 2:
                check(max(w for s_, d_, w in step if s_ >= 0) == M >> (st - 1),
                      f"{what}: step {st} busiest link M/2^(i-1)")
        if op in ("integrate", "allgather"):
            lw = j["link_words"]
            check(len(lw) == 2 * N and all(e[3] == M - M // N for e in lw),
                  f"{what}: every link carries (1 - 1/N) M")
        c = j["cost"]
        if op == "integrate":
            ref = n + 2 * (M - M // N)
            check(abs(c["total"] - ref) < 1e-9 and abs(j["bounds"]["hypercube"] - ref) < 1e-9,
                  f"{what}: unit cost {c['total']} vs log N + 2 (1 - 1/N) M")
        check(j["cycles"] == j["steps"] + c["link_time"], f"{what}: cycles = steps + sum L_s")
        # link-capacity bound (docs/shuffle.md section 12), right after "cycles"
        keys = list(j)
        at = keys.index("cycles")
        check(keys[at + 1:at + 3] == ["bound", "ratio"], f"{what}: keys after cycles {keys[at:at + 3]}")
        half = lambda x: (x + 1) // 2
        ref = {"bcast": half(M) + n, "bcast-host": M + n + 1, "scatter": M + 1, "upload": M + 1,
               "integrate": half(M - M // N) + 1, "allgather": half(M - M // N) + 1,
               "gather": half(M - M // N) + 1}[op]
        check(j["bound"] == ref and 0 < j["bound"] <= j["cycles"],
              f"{what}: bound {j['bound']} (want {ref}), cycles {j['cycles']}")
        check(abs(j["ratio"] - j["cycles"] / j["bound"]) <= 1e-12 * j["ratio"],
              f"{what}: ratio {j['ratio']} != cycles / bound")

# the literal N = 8 scatter of SPEC §2 (segments of S words)
S = 2
j = run_json("run", "--op", "scatter", "--pes", 8, "--words", 8 * S, "--seed", 5)
lit = [[[-1, 0, 4]], [[0, 1, 4], [-1, 0, 2]], [[1, 2, 2], [1, 3, 2], [0, 1, 2], [-1, 0, 1]],
       [[2, 4, 1], [2, 5, 1], [3, 6, 1], [3, 7, 1], [1, 2, 1], [1, 3, 1], [0, 1, 1], [-1, 0, 1]]]
check(j["schedule"] == [[[a, b, w * S] for a, b, w in st] for st in lit], "N=8 scatter literal")

# float types: integrate sums in the paper's tree order; here only closeness is checked
rows = [[rng.random() for _ in range(16)] for _ in range(8)]
path = write("f.txt", [[repr(v) for v in r] for r in rows])
for t in ("f32", "f64"):
    j = run_json("run", "--op", "integrate", "--pes", 8, "--words", 16, "--input", path, "--type", t)
    for i in range(8):
        for x in range(2):
            ref = sum(r[i * 2 + x] for r in rows)
            check(abs(j["memories"][i][x] - ref) <= 1e-6 * ref, f"{t} integrate PE {i}")

# text output, input from stdin
p = run("run", "--op", "allgather", "--pes", 4, "--words", 4, "--input", "-", stdin="1\n2\n3\n4\n",
        expect=None)
check(p.returncode == 0 and "PE 3: 1 2 3 4" in p.stdout, f"text output / stdin: {p.stdout!r}")
# allgather N = 4, M = 4: 2 + 3 = 5 cycles, bound ceil(3/2) + 1 = 3
check("bound: 3 cycles from link capacities" in p.stdout and "cycles / bound = 1.6667" in p.stdout,
      f"text output: bound line: {p.stdout!r}")

# ---- ring ----------------------------------------------------------------------------------
def ring_ok(N, ring):
    if sorted(ring) != list(range(N)):
        return False
    for i in range(N):
        a, b = ring[i], ring[(i + 1) % N]
        if not (b in ((2 * a) % N, (2 * a + 1) % N) or a in ((2 * b) % N, (2 * b + 1) % N)):
            return False
    return True

for n in range(2, 11):
    N = 1 << n
    j = run_json("ring", "--pes", N)
    check(ring_ok(N, j["ring"]) and j["valid"] is True, f"ring N={N}")
paper = [16, 0, 1, 2, 5, 18, 4, 9, 19, 25, 12, 6, 13, 26, 29, 30, 31, 15, 7, 3, 17, 8, 20, 10,
         21, 11, 22, 27, 23, 14, 28, 24]
check(ring_ok(32, paper), "the paper's ring passes the script's checker")
j = run_json("ring", "--pes", 32, "--check", write("paper.txt", [paper]))
check(j["valid"] is True and j["ring"] == paper, "the paper's N = 32 ring validates")
broken = paper[:]
broken[3], broken[4] = broken[4], broken[3]
check(not ring_ok(32, broken), "broken ring is broken")
j = run_json("ring", "--pes", 32, "--check", write("broken.txt", [broken]), expect=1)
check(j["valid"] is False, "a broken ring is reported invalid (exit 1)")

# ---- draw ----------------------------------------------------------------------------------
p = run("draw", "--pes", 8, "--out", "-", "--ring")
dot = p.stdout
check(dot.lstrip("/ \n").count("digraph") == 1 and dot.count("->") >= 16 + 1, "DOT text")
for l in range(16):
    check(f"{l // 2} -> {l % 8} [label=\"{l}\"" in dot, f"DOT link {l}")
prefix = os.path.join(work, "net")
j = run_json("draw", "--pes", 16, "--out", prefix)
check(j["dot"] == prefix + ".dot" and os.path.exists(prefix + ".dot"), "draw writes the DOT file")
if j["svg"] is not None:
    check(open(j["svg"]).read().lstrip().startswith("<?xml") or "<svg" in open(j["svg"]).read(),
          "SVG file")
# Above N = 64 the PEs are pinned on a circle (circo took 43 s at N = 256): every link still
# there, every PE placed once at the same distance from the centre, in order around it.
import math, re
prefix = os.path.join(work, "net256")
j = run_json("draw", "--pes", 256, "--out", prefix, "--ring")
dot = open(j["dot"]).read()
for l in range(512):
    check(f"{l // 2} -> {l % 256} [label=\"{l}\"" in dot, f"N = 256 DOT link {l}")
pos = {int(m.group(1)): (float(m.group(2)), float(m.group(3)))
       for m in re.finditer(r'^  (\d+) \[pos="(-?[0-9.]+),(-?[0-9.]+)!"\];$', dot, re.M)}
check(sorted(pos) == list(range(256)), f"N = 256: {len(pos)} PEs pinned, want 256")
radii = [math.hypot(x, y) for x, y in pos.values()]
check(max(radii) - min(radii) < 0.5, "N = 256: the PEs are not on one circle")
angles = [math.atan2(pos[i][1], pos[i][0]) % (2 * math.pi) for i in sorted(pos)]
check(all(b > a for a, b in zip(angles, angles[1:])), "N = 256: PEs not in order around the circle")
if j["svg"] is not None:
    check("<svg" in open(j["svg"]).read(), "N = 256 SVG file")

# ---- bad input: one line on stderr, non-zero exit ------------------------------------------
good = write("good8x8.txt", [[1] * 8] * 8)
i8 = ["run", "--op", "integrate", "--pes", 8, "--words", 8, "--input"]
ag = ["run", "--op", "allgather", "--pes", 4, "--words", 8, "--input"]
sc = ["run", "--op", "scatter", "--pes", 4, "--words", 8]
cases = [
    (["run", "--op", "integrate", "--pes", 6, "--words", 12, "--input", good], 3, "power of two"),
    (["run", "--op", "integrate", "--pes", 2048, "--words", 2048], 3, "power of two"),
    (["run", "--op", "integrate", "--pes", 8, "--words", 12, "--input", good], 3, "multiple of 8"),
    (["run", "--op", "bcast", "--pes", 8, "--words", 8], 3, "multiple of 3"),
    (["run", "--op", "scatter", "--pes", 8, "--words", 0], 3, "multiple"),
    (i8 + [write("r7.txt", [[1] * 8] * 7)], 4, "found 7 rows"),
    (i8 + [write("short.txt", [[1] * 8] * 7 + [[1] * 7])], 4, "expected 8 values, found 7"),
    (ag + [write("x.txt", [[1, 2], [3, "x"], [5, 6], [7, 8]])], 4, "line 2"),
    (ag + [write("big.txt", [[1, 2], [3, 2**32], [5, 6], [7, 8]])], 4, "32 bits"),
    (sc + ["--input", os.path.join(work, "nope")], 4, "cannot read"),
    (sc + ["--input", write("two.txt", [[1] * 8] * 2)], 4, "needs 1 row of 8 values, found 2 rows"),
    (["run", "--op", "reduce", "--pes", 4, "--words", 8], 2, "reduce"),
    (["run", "--op", "scatter", "--pes", 4], 2, "--words"),
    (["run", "--op", "scatter", "--pes", "four", "--words", 8], 2, "four"),
    (sc + ["--type", "i64"], 2, "i64"),
    (["ring", "--pes", 2], 3, "power of two in [4"),
    (["ring", "--pes", 24], 3, "power of two"),
    (["draw", "--pes", 3], 3, "power of two"),
    (["frobnicate"], 2, "frobnicate"),
]
for args, code, needle in cases:
    expect_error(args, code, needle)

# ---- messages that name the cause (issue 16) ----------------------------------------------------
# The CLI's limit N * M <= 2^26 words (--help, docs/shuffle.md): N * M = 2^26 runs; above it the
# message states N * M and the limit, two different numbers (before: 1024 x 65536 was refused with
# "67108864 is more than 67108864": the check counted the host memory too).
p = run("run", "--op", "scatter", "--pes", 1024, "--words", 65536, expect=None)
check(p.returncode == 0, f"N * M = 2^26 runs: exit {p.returncode}: {p.stderr.strip()}")
big = ["run", "--op", "scatter", "--pes", 1024, "--words", 65536 + 1024]
expect_error(big, 3, "N * M = 1024 * 66560 = 68157440 words is more than the CLI simulates (2^26 = 67108864)")
check("--words" in run("run", "--help").stdout and "2^26" in run("run", "--help").stdout,
      "run --help states the N * M limit")
# Negative costs are refused as hostscatter's negative times are (exit 3, the option and value);
# before they were accepted and gave negative totals.
for opt in ("c", "a", "b"):
    expect_error(sc + [f"--{opt}", -1], 3, f"--{opt} must be >= 0 (got -1)")
    expect_error(sc + [f"--{opt}", "inf"], 2, "finite")
# draw --out - --json: both would write to stdout, a usage error (before: DOT printed, exit 0).
expect_error(["draw", "--pes", 4, "--out", "-", "--json"], 2, "--json and --out - both write to stdout")
# A directory as an input file: "'X' is a directory", exit 4.
adir = os.path.join(work, "adir")
os.mkdir(adir)
expect_error(sc + ["--input", adir], 4, f"'{adir}' is a directory")
expect_error(["ring", "--pes", 4, "--check", adir], 4, f"'{adir}' is a directory")

# ---- --schedule paper|fast (issue 11, docs/shuffle.md section 13) -------------------------------
# fast: the cut-through broadcasts finish at the link bound, also for M not a multiple of log2 N
for op, N, M, ref in [("bcast", 64, 4096, 2048 + 6), ("bcast-host", 64, 4096, 4096 + 6 + 1),
                      ("bcast", 8, 7, 4 + 3), ("bcast", 2, 1, 1 + 1)]:
    j = run_json("run", "--op", op, "--pes", N, "--words", M, "--schedule", "fast")
    what = f"fast {op} N = {N} M = {M}"
    check(j["schedule_kind"] == "fast" and j["steps"] == 1, f"{what}: kind, one step")
    check(j["cycles"] == ref and j["bound"] == ref and j["ratio"] == 1.0,
          f"{what}: cycles {j['cycles']} bound {j['bound']} ratio {j['ratio']}, want {ref}")
    keys = list(j)
    check(keys[:6] == ["op", "pes", "words", "type", "schedule_kind", "steps"],
          f"{what}: header keys {keys[:6]}")
    check(all(len(t) == 5 for st in j["transfers"] for t in st), f"{what}: transfers carry start")
    want = j["memories"][0] if op == "bcast" else None
    check(all(len(m) == M and (want is None or m == want) for m in j["memories"]),
          f"{what}: every PE holds the root's words")
    check(j["cost"]["link_time"] + j["steps"] == j["cycles"], f"{what}: cycles = steps + link_time")
# bcast-host from an input file: every PE holds the host's row
row = [rng.randint(-2**31, 2**31 - 1) for _ in range(10)]
j = run_json("run", "--op", "bcast-host", "--pes", 16, "--words", 10, "--schedule", "fast",
             "--input", write("host10.txt", [row]))
check(all(m == row for m in j["memories"]), "fast bcast-host: every PE holds the host's row")
# scatter, gather, upload (cut-through) and allgather (around the ring): the paper's outputs in
# fewer cycles at a large M (N = 8, M = 64N: T = 522, 233, 522, 228 against the paper's 708, 451,
# 708, 451; docs/shuffle.md section 13)
paper_t = {"scatter": 708, "gather": 451, "upload": 708, "allgather": 451}
fast_t = {"scatter": 522, "gather": 233, "upload": 522, "allgather": 228}
for op in ["scatter", "gather", "upload", "allgather"]:
    a = run_json("run", "--op", op, "--pes", 8, "--words", 512, "--seed", 3)
    b = run_json("run", "--op", op, "--pes", 8, "--words", 512, "--seed", 3, "--schedule", "fast")
    check(a["cycles"] == paper_t[op] and b["cycles"] == fast_t[op],
          f"{op}: cycles paper {a['cycles']} fast {b['cycles']}")
    check(b["cycles"] >= b["bound"] and b["bound"] == a["bound"], f"{op}: fast above the bound")
    cut = any(t[4] > 0 for st in b["transfers"] for t in st)
    check(cut == (op != "allgather"), f"{op}: cut-through starts {cut}")
    if op == "allgather":  # every PE ends with every segment
        check(b["memories"] == a["memories"], f"{op}: every PE as the paper's")
    elif op == "scatter":  # PE j ends with segment j
        check(all(b["memories"][j][64 * j:64 * j + 64] == a["memories"][j][64 * j:64 * j + 64]
                  for j in range(8)), f"{op}: every PE's segment as the paper's")
    else:  # PE 0 (gather, upload) ends with every segment, the host too (upload)
        check(b["memories"][0] == a["memories"][0], f"{op}: PE 0 as the paper's")
        check(b.get("host") == a.get("host"), f"{op}: the host as the paper's")
# integrate: fast with i32 (the default type) goes around the ring, N/2 steps of ADDs, T =
# ceil((M - S)/2) + N/2, the paper's sums; with f32/f64 fast is the paper schedule (same
# transfers, same cycles: float sums keep the paper's tree)
op = "integrate"
a = run_json("run", "--op", op, "--pes", 8, "--words", 512)
b = run_json("run", "--op", op, "--pes", 8, "--words", 512, "--schedule", "fast")
check(b["schedule_kind"] == "fast" and a["schedule_kind"] == "paper", f"{op}: kinds")
check(b["steps"] == 4 and b["cycles"] == (512 - 64 + 1) // 2 + 4 and b["bound"] == a["bound"],
      f"{op} i32: fast steps {b['steps']} cycles {b['cycles']}")
check(all(t[3] == "add" for st in b["transfers"] for t in st), f"{op} i32: every transfer adds")
check(b["memories"] == a["memories"], f"{op} i32: fast memories differ from the paper's")
for t in ("f32", "f64"):
    a = run_json("run", "--op", op, "--pes", 8, "--words", 16, "--type", t)
    b = run_json("run", "--op", op, "--pes", 8, "--words", 16, "--type", t, "--schedule", "fast")
    check(a["schedule"] == b["schedule"] and a["cycles"] == b["cycles"]
          and [x[:4] for st in b["transfers"] for x in st] == [x for st in a["transfers"] for x in st]
          and a["memories"] == b["memories"], f"{op} {t}: fast is the paper schedule")
# --schedule paper is the default, byte for byte (JSON and text)
for op in ["bcast", "bcast-host", "scatter", "integrate", "allgather", "gather", "upload"]:
    base = ["run", "--op", op, "--pes", 8, "--words", 24, "--seed", 5]
    for extra in (["--json"], []):
        p0 = run(*base, *extra)
        p1 = run(*base, *extra, "--schedule", "paper")
        check(p0.stdout == p1.stdout, f"{op} {extra}: --schedule paper differs from the default")
# the fast schedule in text: starts shown as @start
p = run("run", "--op", "bcast", "--pes", 4, "--words", 4, "--schedule", "fast")
check("fast schedule" in p.stdout and "1->2[0+2]@1" in p.stdout, f"fast text: {p.stdout[:200]!r}")
check("--schedule" in run("run", "--help").stdout, "run --help lists --schedule")
expect_error(["run", "--op", "bcast", "--pes", 8, "--words", 24, "--schedule", "slow"], 2,
             "'slow' is not one of paper|fast")
expect_error(["run", "--op", "bcast", "--pes", 8, "--words", 8, "--schedule", "paper"], 3,
             "multiple of 3")
expect_error(["run", "--op", "gather", "--pes", 8, "--words", 12, "--schedule", "fast"], 3,
             "multiple of 8")
PY
cli_finish
