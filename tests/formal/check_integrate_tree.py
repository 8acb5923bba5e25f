#!/usr/bin/env python3
"""check_integrate_tree.py - is integrate's link bound (docs/shuffle.md section 12) reachable by a
schedule that keeps the paper's sums, and is it a true lower bound for such schedules? An
exhaustive search by SAT (the z3 binary), for small N and M.

The model is section 12's relaxation: in each cycle 1 .. X every directed channel (a PE's forward
links to 2p, 2p + 1 and the backward channels, self-loops left out; the host adds nothing to an op
without host data, since it is joined to PE 0 only) carries at most one word; a word that lands in
cycle t can leave in cycle t + 1; T = X + 1 (the setup cycle). Words are the nodes of the paper's
sum tree, per segment j and word w: the leaves x_p (at PE p), and the level-k node (k, r) =
the sum over the sources p = r mod N / 2^k, made from (k - 1, r) and (k - 1, r + N / 2^k) by
whichever PE holds both (the paper adds p and p + N/2 first, then pairs those by the next bit, and
so on: only these sums keep its floats bit for bit). Integrate is done when PE j holds the root of
every word of segment j. For each case the bound B comes from `pinet shuffle run --json`
("bound") and two questions go to z3: X = B - 1 must be satisfiable (some tree-keeping schedule
meets the bound, so no tighter bound holds there) and X = B - 2 unsatisfiable (B is a lower bound
even for these schedules: an independent check of the formula). The same search without the
backward channels (the paper's schedule uses only forward links) must not meet the bound: the
check can fail.

For large M, the steady state: a linear program (scipy's HiGHS) routes every segment's tree
fractionally. Per segment j and tree node v, f(v, c) is how much of v crosses channel c, g(v, q)
how much of v PE q makes from its children, and u(v, q) how much of v PE q uses. Conservation
holds at every PE: made + in + (1 for a leaf at its PE) = out + used. A parent is made where its
children are used, in equal amounts, and the root is used at PE j. The program minimises the
largest channel load L per word of every segment; then T ~ L S for large M, and the bound's rate
is (N - 1) / 2, from (B - 1) / S at M = 2N. L must equal that rate (N = 4, 8), and double it
without the backward channels.

Usage: check_integrate_tree.py PINET_CLI [Z3]   (exit 0 all held, 1 a check failed, 2 usage)
"""
import json
import subprocess
import sys

CASES = [(2, 2), (2, 4), (2, 6), (4, 4), (4, 8), (4, 12), (8, 8)]
FAULT_CASE = (4, 8)  # forward links only: must miss the bound


def channels(n_pes, backward=True):
    """Directed channels (src, dst): forward p -> 2p + b mod N, and each one's reverse."""
    out = []
    for u in range(n_pes):
        for b in range(2):
            v = (2 * u + b) % n_pes
            if v == u:
                continue  # a self-loop carries nothing useful
            out.append((u, v))
            if backward:
                out.append((v, u))
    return out


def tree_nodes(n_pes):
    """The paper's sum tree, one word of one segment: (k, r), level k = 0 .. n, r < N / 2^k."""
    n = n_pes.bit_length() - 1
    return [(k, r) for k in range(n + 1) for r in range(n_pes >> k)]


def children(n_pes, k, r):
    """The two nodes the level-k node (k, r), k >= 1, adds: the sources p = r mod N / 2^k split
    by their bit n - k."""
    return (k - 1, r), (k - 1, r + (n_pes >> k))


def smt2(n_pes, words, cycles, backward=True):
    """SMT-LIB 2 text, satisfiable iff `cycles` transfer cycles suffice."""
    n = n_pes.bit_length() - 1
    seg = words // n_pes
    ch = channels(n_pes, backward)
    vals = [(j, w, k, r) for j in range(n_pes) for w in range(seg) for k, r in tree_nodes(n_pes)]
    vid = {v: i for i, v in enumerate(vals)}

    def held(p, v, t):
        return f"h{p}_{vid[v]}_{t}"

    def sent(c, v, t):
        return f"s{c}_{vid[v]}_{t}"

    lines = []
    for t in range(cycles + 1):
        lines += [f"(declare-const {held(p, v, t)} Bool)" for p in range(n_pes) for v in vals]
    for t in range(1, cycles + 1):
        lines += [f"(declare-const {sent(c, v, t)} Bool)" for c in range(len(ch)) for v in vals]
    for p in range(n_pes):
        for v in vals:
            at_start = v[2] == 0 and v[3] == p
            lines.append(f"(assert {held(p, v, 0) if at_start else '(not ' + held(p, v, 0) + ')'})")
    for t in range(1, cycles + 1):
        for c, (src, _) in enumerate(ch):
            lines += [f"(assert (=> {sent(c, v, t)} {held(src, v, t - 1)}))" for v in vals]
            lines.append("(assert ((_ at-most 1) " + " ".join(sent(c, v, t) for v in vals) + "))")
        for p in range(n_pes):
            into = [c for c, (_, dst) in enumerate(ch) if dst == p]
            for v in vals:
                why = [held(p, v, t - 1)] + [sent(c, v, t) for c in into]
                j, w, k, r = v
                if k > 0:
                    (ka, ra), (kb, rb) = children(n_pes, k, r)
                    why.append(f"(and {held(p, (j, w, ka, ra), t)} {held(p, (j, w, kb, rb), t)})")
                lines.append(f"(assert (= {held(p, v, t)} (or {' '.join(why)})))")
    lines += [f"(assert {held(j, (j, w, n, 0), cycles)})" for j in range(n_pes) for w in range(seg)]
    lines.append("(check-sat)")
    return "\n".join(lines) + "\n"


def solve(z3, n_pes, words, cycles, backward=True):
    if cycles < 1:
        return "unsat"  # nothing crosses: no PE j holds the other PEs' words
    out = subprocess.run([z3, "-smt2", "-in"], input=smt2(n_pes, words, cycles, backward),
                         capture_output=True, text=True, check=False).stdout.strip()
    if out not in ("sat", "unsat"):
        raise RuntimeError(f"z3 answered '{out[:80]}'")
    return out


def steady_state_load(n_pes, backward=True):
    """The least largest channel load per word of every segment (the linear program above)."""
    import numpy as np
    import scipy.sparse as sparse
    from scipy.optimize import linprog
    n = n_pes.bit_length() - 1
    ch = channels(n_pes, backward)
    nodes = tree_nodes(n_pes)
    nid = {v: i for i, v in enumerate(nodes)}
    n_f, n_q = n_pes * len(nodes) * len(ch), n_pes * len(nodes) * n_pes
    f = lambda j, v, c: (j * len(nodes) + v) * len(ch) + c
    g = lambda j, v, q: n_f + (j * len(nodes) + v) * n_pes + q
    u = lambda j, v, q: n_f + n_q + (j * len(nodes) + v) * n_pes + q
    load = n_f + 2 * n_q
    rows, cols, coef, rhs = [], [], [], []

    def equation(terms, value):
        for col, c in terms:
            rows.append(len(rhs))
            cols.append(col)
            coef.append(c)
        rhs.append(value)

    for j in range(n_pes):
        for vi, (k, r) in enumerate(nodes):
            for q in range(n_pes):
                flow = [(f(j, vi, c), 1) for c, (_, d) in enumerate(ch) if d == q]
                flow += [(f(j, vi, c), -1) for c, (s, _) in enumerate(ch) if s == q]
                equation(flow + [(g(j, vi, q), 1), (u(j, vi, q), -1)],
                         -1.0 if k == 0 and r == q else 0.0)
                if k == 0:
                    equation([(g(j, vi, q), 1)], 0.0)  # a leaf is never made
                else:  # a node is made where both its children are used
                    for kid in children(n_pes, k, r):
                        equation([(u(j, nid[kid], q), 1), (g(j, vi, q), -1)], 0.0)
                if k == n:
                    equation([(u(j, vi, q), 1)], 1.0 if q == j else 0.0)
    a_eq = sparse.csr_matrix((coef, (rows, cols)), shape=(len(rhs), load + 1))
    rows, cols, coef = [], [], []
    for c in range(len(ch)):
        for j in range(n_pes):
            for vi in range(len(nodes)):
                rows.append(c)
                cols.append(f(j, vi, c))
                coef.append(1)
        rows.append(c)
        cols.append(load)
        coef.append(-1)
    a_ub = sparse.csr_matrix((coef, (rows, cols)), shape=(len(ch), load + 1))
    cost = np.zeros(load + 1)
    cost[load] = 1
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(len(ch)), A_eq=a_eq, b_eq=np.array(rhs),
                  bounds=(0, None), method="highs")
    if res.status != 0:
        raise RuntimeError(f"linprog: {res.message}")
    return res.fun


def bound(cli, n_pes, words):
    run = subprocess.run([cli, "shuffle", "run", "--op", "integrate", "--pes", str(n_pes),
                          "--words", str(words), "--json"], capture_output=True, text=True,
                         check=True)
    return json.loads(run.stdout)["bound"]


def main(argv):
    if len(argv) not in (2, 3):
        print("usage: check_integrate_tree.py PINET_CLI [Z3]", file=sys.stderr)
        return 2
    cli, z3 = argv[1], argv[2] if len(argv) == 3 else "z3"
    fails = 0
    print(" N   M  bound  T = bound reachable  T = bound - 1")
    for n_pes, words in CASES:
        b = bound(cli, n_pes, words)
        meet, below = solve(z3, n_pes, words, b - 1), solve(z3, n_pes, words, b - 2)
        ok = meet == "sat" and below == "unsat"
        fails += not ok
        print(f"{n_pes:2} {words:3} {b:6}  {meet:19}  {below}{'' if ok else '   FAIL'}")
    n_pes, words = FAULT_CASE
    b = bound(cli, n_pes, words)
    fwd = solve(z3, n_pes, words, b - 1, backward=False)
    print(f"forward links only, N = {n_pes}, M = {words}: T = {b} {fwd} (must be unsat)")
    if fwd != "unsat":
        fails += 1
        print("FAIL: the search meets the bound without the backward channels: it checks nothing")
    print(" N  steady-state load L  bound's rate (B - 1) / S  forward links only")
    for n_pes in (4, 8):
        rate = (bound(cli, n_pes, 2 * n_pes) - 1) / 2
        both, fwd = steady_state_load(n_pes), steady_state_load(n_pes, backward=False)
        ok = abs(both - rate) < 1e-6 and abs(fwd - 2 * rate) < 1e-6
        fails += not ok
        print(f"{n_pes:2}  {both:18.6f}  {rate:24.6f}  {fwd:17.6f}{'' if ok else '   FAIL'}")
    print("check_integrate_tree: " + ("ok" if fails == 0 else f"{fails} failure(s)"))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
