#!/usr/bin/env bash
# test_cli_hostscatter.sh - the `pinet hostscatter` contract: {"time","x"} against the paper's
# equations (6)-(10) evaluated here, the best x against an exhaustive search over --x, a case
# where the equation's assumption fails (sigma < 1) against a subcube-by-subcube maximum, the
# curves files (CSV simulated == equation, SVG well-formed), and one-line errors with the
# documented exit codes.
# Usage: bash test_cli_hostscatter.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"
cli_seed 7117

cli_python <<'PY'
import csv, os
import xml.etree.ElementTree as ET

def close(a, b):
    return abs(a - b) <= 1e-9 * max(1.0, abs(b))

def eq(s, d, m, k, beta, tau, sigma, x):
    p, bh, delta = 2**d, sigma * beta, m - k
    if s == "sequential":
        return p * (bh + m * tau)                                          # (6)
    if s == "scatter":
        return bh + m * p * tau + d * beta + m * (p - 1) * tau             # (7)
    if s == "seqscatter":                                                  # (8)
        return bh + m * 2**x * tau + max((p - 2**x) * (bh + m * tau), x * beta + m * (2**x - 1) * tau)
    return ((d - x + 1) * sigma + x) * beta + (m - delta) * (d + 1) * tau + (p + 2**x - 1) * delta * tau  # (10)

def decremental_actual(d, m, k, beta, tau, sigma, x):
    delta, host, worst = m - k, 0.0, 0.0
    for t in list(range(d - 1, x - 1, -1)) + [x]:
        host += sigma * beta + (m + (2**t - 1) * delta) * tau
        scatter = sum(beta + (m + (2**(t - i - 1) - 1) * delta) * tau for i in range(t))
        worst = max(worst, host + scatter)
    return worst

# ---- equations and exhaustive best x --------------------------------------------------------
for trial in range(25):
    d = rng.randint(1, 7)
    m = rng.randint(1, 120)
    k = rng.randrange(m)
    beta = round(rng.uniform(0, 7000), 3)
    tau = round(rng.uniform(0, 10), 3)
    sigma = round(rng.uniform(1.0, 3.0), 3)
    common = ["--dim", d, "--points", m, "--overlap", k, "--beta", beta, "--tau", tau, "--sigma", sigma]
    for s in ("sequential", "scatter", "seqscatter", "decremental"):
        out = run_json(*common, "--strategy", s)
        check("time" in out and "x" in out, "keys time and x")
        check(out["sets_ok"] is True, f"trial {trial} {s}: sets_ok false")
        if s in ("sequential", "scatter"):
            check(out["x"] is None, f"{s}: x should be null")
            check(close(out["time"], eq(s, d, m, k, beta, tau, sigma, 0)), f"trial {trial} {s}: time {out['time']}")
            continue
        hi = d if s == "seqscatter" else d - 1
        times = []
        for x in range(hi + 1):
            o = run_json(*common, "--strategy", s, "--x", x)
            check(close(o["time"], eq(s, d, m, k, beta, tau, sigma, x)),
                  f"trial {trial} {s} x={x}: time {o['time']} vs equation {eq(s, d, m, k, beta, tau, sigma, x)}")
            times.append(o["time"])
        best = min(times)
        best_x = next(x for x, t in enumerate(times) if close(t, best))
        check(out["x"] == best_x and close(out["time"], best),
              f"trial {trial} {s}: chose x={out['x']} ({out['time']}), exhaustive x={best_x} ({best})")

# ---- the figures' example and the digital-filtering overlap -----------------------------------
o = run_json("--dim", 4, "--points", 100, "--overlap", 50, "--strategy", "decremental")
check(close(o["time"], eq("decremental", 4, 100, 50, 800, 8, 1.5, o["x"])), "defaults are beta 800, tau 8, sigma 1.5")
check(o["delta"] == 50 and o["nodes"] == 16, "delta and nodes keys")

# ---- sigma < 1: the last subcube need not finish last ----------------------------------------
o = run_json("--dim", 8, "--points", 20, "--overlap", 0, "--beta", 1000, "--tau", 1, "--sigma", 0.05,
             "--strategy", "decremental", "--x", 0)
check(o["formula_holds"] is False, "sigma 0.05: formula_holds should be false")
check(close(o["time"], decremental_actual(8, 20, 0, 1000, 1, 0.05, 0)), f"sigma 0.05: time {o['time']}")
check(close(o["formula_time"], eq("decremental", 8, 20, 0, 1000, 1, 0.05, 0)), "sigma 0.05: formula_time")
check(o["time"] > o["formula_time"], "sigma 0.05: simulation slower than (10)")

# ---- curves ---------------------------------------------------------------------------------
cdir = os.path.join(work, "curves")
os.mkdir(cdir)
p = run("curves", "--out", cdir)
stems = ("hostscatter_fig1", "hostscatter_fig2")
for stem in stems:
    for suffix in (".csv", ".svg", "_overlap.csv", "_overlap.svg"):
        path = os.path.join(cdir, stem + suffix)
        check(os.path.exists(path) and path in p.stdout, f"curves: {stem + suffix}")
for stem, m, beta in (("hostscatter_fig1", 100, 800), ("hostscatter_fig2", 500, 6500)):
    rows = list(csv.DictReader(open(os.path.join(cdir, stem + ".csv"))))
    check(len(rows) == 10, f"{stem}: {len(rows)} rows")
    for row in rows:
        d = int(row["d"])
        for s, col in (("sequential", "sequential"), ("scatter", "scatter")):
            check(close(float(row[col + "_sim"]), eq(s, d, m, 0, beta, 8, 1.5, 0)), f"{stem} d={d} {s}")
        x = int(row["seqscatter_x"])
        check(close(float(row["seqscatter_sim"]), eq("seqscatter", d, m, 0, beta, 8, 1.5, x)), f"{stem} d={d} seqscatter")
        for k in (0, m // 2, m - 1):
            x = int(row[f"decremental_ov{k}_x"])
            check(close(float(row[f"decremental_ov{k}_sim"]), eq("decremental", d, m, k, beta, 8, 1.5, x)),
                  f"{stem} d={d} decremental overlap {k}")
            check(close(float(row[f"decremental_ov{k}_sim"]), float(row[f"decremental_ov{k}_eq10"])),
                  f"{stem} d={d} decremental overlap {k}: sim vs eq column")
    orows = list(csv.DictReader(open(os.path.join(cdir, stem + "_overlap.csv"))))
    check(len(orows) == m, f"{stem}_overlap: {len(orows)} rows, want {m}")
    for name in (stem + ".svg", stem + "_overlap.svg"):
        root = ET.parse(os.path.join(cdir, name)).getroot()
        check(root.tag.endswith("svg"), f"{name}: root is {root.tag}")
        texts = [t.text or "" for t in root.iter() if t.tag.endswith("text")]
        check(any("decremental" in t for t in texts), f"{name}: legend lacks decremental")
        check(any("time" in t for t in texts), f"{name}: no y-axis label")

# ---- bad input ------------------------------------------------------------------------------
base = ["--dim", 4, "--points", 10]
cases = [
    (base + ["--overlap", 10], 3, "--overlap"),
    (base + ["--overlap", -1], 3, "--overlap"),
    (base + ["--beta", -5], 3, "--beta must be >= 0"),
    (base + ["--tau", -0.5], 3, "--tau must be >= 0"),
    (base + ["--sigma", -1], 3, "--sigma must be >= 0"),
    (base + ["--beta", "nan"], 2, "finite"),
    (["--dim", 0, "--points", 10], 3, "--dim"),
    (["--dim", 21, "--points", 10], 3, "--dim"),
    (["--dim", "x", "--points", 10], 2, "not an integer"),
    (["--dim", 4, "--points", 0], 3, "--points"),
    (["--dim", 20, "--points", 100], 3, "exceeds"),
    (base + ["--strategy", "fast"], 2, "not one of"),
    (base + ["--strategy", "decremental", "--x", 4], 3, "--x"),
    (base + ["--strategy", "seqscatter", "--x", -1], 3, "--x"),
    (base + ["--strategy", "scatter", "--x", 1], 2, "--x"),
    (["--points", 10], 2, "--dim"),
    (["curves", "--out", os.path.join(work, "no", "such")], 4, "cannot write"),
]
for args, code, text in cases:
    expect_error(args, code, text)
check(run("--help").stdout.startswith("usage: pinet hostscatter"), "--help")

# ---- times that overflow (issue 16) ------------------------------------------------------------
# beta = tau = 1e308 make every time inf: refused with one line naming the overflow, exit 3, and
# never "DIFFERENT" (before: exit 0, "simulated time inf; paper's equation at this x inf
# (DIFFERENT: ...)", and JSON "time": null).
for extra in ([], ["--json"]):
    for s in ("decremental", "sequential"):
        expect_error(base + ["--beta", 1e308, "--tau", 1e308, "--strategy", s] + extra, 3, "overflow")
o = run_json(*base, "--beta", 1e300, "--tau", 1e300, "--strategy", "sequential")
check(o["formula_holds"] is True and o["time"] is not None, "large finite times still run")

# curves --json into an unusable --out: one error before any output (before: '{"files":[' on
# stdout, then exit 4).
missing = os.path.join(work, "no_such_dir")
expect_error(["curves", "--out", missing, "--json"], 4, f"--out '{missing}': cannot write: No such file")
a_file = os.path.join(work, "plain_file")
open(a_file, "w").close()
expect_error(["curves", "--out", a_file, "--json"], 4, "cannot write: not a directory")
PY
cli_finish
