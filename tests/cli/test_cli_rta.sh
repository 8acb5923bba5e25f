#!/usr/bin/env bash
# test_cli_rta.sh - the `pinet rta` JSON contract (keys and values) against expectations computed
# here: the paper's Table 1 / Table 2 formulas, breadth-first search on the SRTA union graph built
# from neighbor(A, l), a wire-by-wire walk of the switch terminals, the reduce schedule of SPEC §1.1
# and sums computed in the script; then the one-line errors and non-zero exits for bad input.
# Usage: bash test_cli_rta.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"
cli_seed 4242

cli_python <<'PY'
import math
from collections import deque

# ---- independent model: neighbor(A, l) of the paper and BFS on the union of all levels ----
def union_adj(side):
    L = side.bit_length() - 1
    adj = [set() for _ in range(side)]
    for l in range(1, L + 1):
        s = 1 << l
        for a in range(side):
            q = a - a % s
            for b in (q + (a + 1) % s, q + (a - 1) % s):
                if b != a:
                    adj[a].add(b); adj[b].add(a)
    return adj

def bfs(adj, src):
    dist = {src: 0}
    dq = deque([src])
    while dq:
        a = dq.popleft()
        for b in adj[a]:
            if b not in dist:
                dist[b] = dist[a] + 1
                dq.append(b)
    return dist

def adj2d(side):
    a1 = union_adj(side)
    return [set([r * side + c2 for c2 in a1[c]] + [r2 * side + c for r2 in a1[r]])
            for r in range(side) for c in range(side)]

# ---- stats: Table 1 and Table 2 ----
for L in range(2, 11):
    N = 1 << L
    js = run_json("stats", "--dim", 1, "--pes", N)
    check(set(js) == {"dim", "pes", "switches", "diameter", "average", "diameter_pairs"},
          f"stats 1D keys {sorted(js)}")
    check(js["dim"] == 1 and js["pes"] == N and js["switches"] == N // 2 - 1, f"stats 1D N={N} sizes")
    check(js["diameter"] == 2 * L - 2, f"stats 1D N={N} diameter {js['diameter']}")
    avg = (N * (2 * L - 3) + 4) / (2 * (N - 1))
    check(abs(js["average"] - avg) < 1e-9, f"stats 1D N={N} average {js['average']} want {avg}")
    if N <= 128:
        adj = union_adj(N)
        pairs = sum(1 for a in range(N) for b, d in bfs(adj, a).items() if b > a and d == 2 * L - 2)
        check(js["diameter_pairs"] == pairs, f"stats 1D N={N} diameter pairs {js['diameter_pairs']} BFS {pairs}")
for L in range(2, 8):
    side = 1 << L
    N = side * side
    js = run_json("stats", "--dim", 2, "--pes", N)
    check(set(js) == {"dim", "pes", "switches", "diameter", "average", "diameter_pairs"}, "stats 2D keys")
    check(js["dim"] == 2 and js["pes"] == N and js["switches"] == side * (side - 2), f"stats 2D N={N} sizes")
    check(js["diameter"] == 4 * (L - 1), f"stats 2D N={N} diameter")
    check(js["diameter_pairs"] == 8, f"stats 2D N={N} diameter pairs {js['diameter_pairs']}")
    avg = (N * (math.log2(N) - 3) + 4 * side) / (N - 1)
    check(abs(js["average"] - avg) < 1e-9, f"stats 2D N={N} average {js['average']} want {avg}")

# ---- distance: BFS and path validity ----
for N in (4, 8, 16, 64):
    adj = union_adj(N)
    pairs = [(s, e) for s in range(N) for e in range(N)] if N <= 16 else \
        [(rng.randrange(N), rng.randrange(N)) for _ in range(120)]
    for s, e in pairs:
        dist = bfs(adj, s)
        js = run_json("distance", "--dim", 1, "--pes", N, "--from", s, "--to", e)
        check(set(js) == {"distance", "path"}, "distance keys")
        p = js["path"]
        check(js["distance"] == dist[e], f"distance 1D N={N} {s}->{e}: {js['distance']} BFS {dist[e]}")
        check(len(p) == dist[e] + 1 and p[0] == s and p[-1] == e and all(isinstance(x, int) for x in p),
              f"distance 1D N={N} {s}->{e} path {p}")
        check(all(p[i + 1] in adj[p[i]] for i in range(len(p) - 1)), f"distance 1D path {p} hop")
for side in (4, 8):
    A = adj2d(side)
    N = side * side
    for _ in range(60):
        s, e = rng.randrange(N), rng.randrange(N)
        dist = bfs(A, s)
        js = run_json("distance", "--dim", 2, "--pes", N, "--from", f"{s // side},{s % side}",
                      "--to", f"{e // side},{e % side}")
        p = js["path"]
        check(js["distance"] == dist[e], f"distance 2D side {side} {s}->{e}")
        check(all(isinstance(x, list) and len(x) == 2 for x in p), f"distance 2D path entries {p}")
        flat = [r * side + c for r, c in p]
        check(len(p) == dist[e] + 1 and flat[0] == s and flat[-1] == e, f"distance 2D path ends {p}")
        check(all(flat[i + 1] in A[flat[i]] for i in range(len(flat) - 1)), f"distance 2D path hops {p}")

# ---- route: walk the terminals wire by wire ----
def walk_ring(S, sw):
    """peer of every (pe, 'L'|'R') of one ring by following wires through the switches."""
    M = S // 2 - 1
    wire = {}
    def link(a, b):
        wire[a] = b; wire[b] = a
    for m in range(S // 2):
        link(("pe", 2 * m, "R"), ("pe", 2 * m + 1, "L"))
    for p in range(M):
        link(("sw", p, 1), ("pe", 2 * p + 1, "R"))
        link(("sw", p, 2), ("pe", 2 * p + 2, "L"))
        link(("sw", p, 3), ("sw", p - 1, 4) if p > 0 else ("pe", 0, "L"))
        if p == M - 1:
            link(("sw", p, 4), ("pe", S - 1, "R"))
    through = {True: {1: 2, 2: 1, 3: 4, 4: 3}, False: {1: 3, 3: 1, 2: 4, 4: 2}}
    peer = {}
    for pe in range(S):
        for port in "LR":
            e = wire[("pe", pe, port)]
            while e[0] == "sw":
                e = wire[("sw", e[1], through[bool(sw[e[1]])][e[2]])]
            peer[(pe, port)] = (e[1], e[2])
    return peer

for N in (4, 8, 16, 32, 64):
    M = N // 2 - 1
    for t in range(6):
        bits = [rng.randrange(2) for _ in range(M)] if t > 1 else [t] * M
        value = sum(b << i for i, b in enumerate(bits))
        width = (M + 3) // 4
        js = run_json("route", "--pes", N, "--bitmap", format(value, f"0{width}x"))
        check(set(js) == {"ports"} and len(js["ports"]) == 2 * N, f"route N={N} shape")
        want = walk_ring(N, bits)
        for ent in js["ports"]:
            check(set(ent) == {"pe", "port", "peer_pe", "peer_port"}, f"route keys {sorted(ent)}")
            check(want[(ent["pe"], ent["port"])] == (ent["peer_pe"], ent["peer_port"]),
                  f"route N={N} bitmap {value:x}: {ent}")
        check(sorted((e["pe"], e["port"]) for e in js["ports"]) == sorted(want), f"route N={N} coverage")
# the N = 8 picture of SPEC: bitmap 5 = switches 0 and 2 ON, switch 1 OFF: rings 0..3 and 4..7
js = run_json("route", "--pes", 8, "--bitmap", "5")
got = {(e["pe"], e["port"]): (e["peer_pe"], e["peer_port"]) for e in js["ports"]}
check(got[(0, "L")] == (3, "R") and got[(1, "R")] == (2, "L") and got[(4, "L")] == (7, "R")
      and got[(3, "R")] == (0, "L"), f"route N=8 bitmap 5: {got}")
# 2D: rows and columns are rings; all ON = every row and column one ring
js = run_json("route", "--dim", 2, "--pes", 16, "--bitmap", "ff")
got = {(e["pe"], e["port"]): (e["peer_pe"], e["peer_port"]) for e in js["ports"]}
check(len(got) == 64 and got[(0, "L")] == (3, "R") and got[(0, "U")] == (12, "D") and got[(13, "D")] == (1, "U"),
      "route 2D all ON")

# ---- reduce: the SPEC N = 8 schedule, sums computed here ----
def write(vals):
    path = f"{work}/in{rng.randrange(1 << 30)}.txt"
    with open(path, "w") as f:
        f.write("".join(f"{v}\n" for v in vals))
    return path

vals = [rng.randrange(-1000, 1000) for _ in range(8)]
js = run_json("reduce", "--dim", 1, "--pes", 8, "--op", "sum", "--input", write(vals))
check(set(js) == {"result", "steps", "transfers"}, f"reduce keys {sorted(js)}")
check(js["result"] == sum(vals), f"reduce sum {js['result']} want {sum(vals)}")
check(js["steps"] == 3, "reduce N=8 steps")
check(js["transfers"] == [[[1, 0], [2, 3], [5, 4], [6, 7]], [[3, 0], [4, 7]], [[7, 0]]],
      f"reduce N=8 schedule {js['transfers']}")
for dim, N in ((1, 4), (1, 64), (1, 1024), (2, 16), (2, 64), (2, 256)):
    vals = [rng.randrange(-10**9, 10**9) for _ in range(N)]
    path = write(vals)
    L = int(math.log2(N)) if dim == 1 else int(math.log2(N)) // 2
    for op, want in (("sum", sum(vals)), ("max", max(vals)), ("min", min(vals)), ("sort", sorted(vals))):
        js = run_json("reduce", "--dim", dim, "--pes", N, "--op", op, "--input", path)
        check(js["result"] == want, f"reduce dim {dim} N={N} {op}")
        check(js["steps"] == L * dim == len(js["transfers"]), f"reduce dim {dim} N={N} steps")
        # every PE but 0 sends exactly once; PE 0 never sends; nobody sends after giving its data
        senders = [s for step in js["transfers"] for s, _ in step]
        check(sorted(senders) == list(range(1, N)), f"reduce dim {dim} N={N} senders")
# 2D side 4: level 1 horizontal = the 1D N=4 level-1 pattern in every row: 1->0, 2->3 per row
js = run_json("reduce", "--dim", 2, "--pes", 16, "--op", "sum", "--input", write(range(16)))
check(js["transfers"][0] == sorted([[r * 4 + 1, r * 4] for r in range(4)] +
                                   [[r * 4 + 2, r * 4 + 3] for r in range(4)]),
      f"reduce 2D step 1 {js['transfers'][0]}")
check(js["transfers"][1] == sorted([[4 + c, c] for c in (0, 3)] + [[8 + c, 12 + c] for c in (0, 3)]),
      f"reduce 2D step 2 {js['transfers'][1]}")
check(js["transfers"][2] == [[3, 0], [15, 12]] and js["transfers"][3] == [[12, 0]], "reduce 2D level 2")
# sums wrap modulo 2^64
big = [2**62] * 8
js = run_json("reduce", "--pes", 8, "--op", "sum", "--input", write(big))
check(js["result"] == ((8 * 2**62 + 2**63) % 2**64) - 2**63, f"reduce wrap {js['result']}")
PY

# ---- bad input: one line on stderr, non-zero exit (2 usage, 3 invalid, 4 file) ----
printf '1\n2\n3\n4\n5\n6\n7\n8\n' >"$WORK/eight.txt"
printf '1\n2\nthree\n4\n5\n6\n7\n8\n' >"$WORK/word.txt"
cli_expect_exit 3 stats --dim 1 --pes 48 --json
cli_expect_exit 3 stats --dim 1 --pes 2 --json
cli_expect_exit 3 stats --dim 1 --pes 6 --json
cli_expect_exit 3 stats --dim 2 --pes 8 --json
cli_expect_exit 3 stats --dim 2 --pes 4 --json
cli_expect_exit 3 stats --dim 3 --pes 16 --json
cli_expect_exit 2 stats --dim 1 --pes abc --json
cli_expect_exit 2 stats --dim 1 --json
cli_expect_exit 3 distance --dim 1 --pes 16 --from 16 --to 0 --json
cli_expect_exit 3 distance --dim 1 --pes 16 --from 0 --to 99 --json
cli_expect_exit 3 distance --dim 2 --pes 64 --from 8,0 --to 0,0 --json
cli_expect_exit 2 distance --dim 2 --pes 64 --from 1,x --to 0,0 --json
cli_expect_exit 2 distance --dim 2 --pes 64 --from 1 --to 0,0 --json
cli_expect_exit 2 distance --dim 2 --pes 64 --from 1,2,3 --to 0,0 --json
cli_expect_exit 2 distance --dim 2 --pes 64 --from ,1 --to 0,0 --json
cli_expect_exit 2 distance --dim 1 --pes 16 --from -1 --to 0 --json
cli_expect_exit 3 route --pes 8 --bitmap 8 --json
cli_expect_exit 3 route --pes 8 --bitmap 07 --json
cli_expect_exit 3 route --pes 32 --bitmap 8000 --json
cli_expect_exit 2 route --pes 8 --bitmap xyz --json
cli_expect_exit 2 route --pes 8 --bitmap '' --json
cli_expect_exit 3 route --pes 12 --bitmap 1 --json
cli_expect_exit 2 reduce --dim 1 --pes 8 --op avg --input "$WORK/eight.txt" --json
cli_expect_exit 4 reduce --dim 1 --pes 16 --op sum --input "$WORK/eight.txt" --json
cli_expect_exit 4 reduce --dim 1 --pes 8 --op sum --input "$WORK/word.txt" --json
cli_expect_exit 4 reduce --dim 1 --pes 8 --op sum --input "$WORK/missing.txt" --json
cli_expect_exit 3 reduce --dim 2 --pes 8 --op sum --input "$WORK/eight.txt" --json
mkdir "$WORK/adir" # a directory as --input names the cause (issue 16; before: "cannot read")
cli_expect_exit 4 reduce --dim 1 --pes 8 --op sum --input "$WORK/adir" --json
grep -qF "'$WORK/adir' is a directory" "$WORK/err" || cli_fail "directory --input: $(cat "$WORK/err")"
cli_expect_exit 2 nosuchcommand
cli_expect_exit 2 stats --pes 16 --bogus

# text forms exist and --help works
"$PINET" rta --help >/dev/null
"$PINET" rta stats --help | grep -q -- '--pes'
"$PINET" rta route --pes 8 --bitmap 5 | grep -q 'rings: \[0..3\] \[4..7\]'
"$PINET" rta reduce --pes 8 --op sum --input "$WORK/eight.txt" | grep -q 'result at PE 0: 36'
"$PINET" rta distance --dim 2 --pes 64 --from 0,0 --to 7,7 | grep -q '^distance 2$'
cli_finish
