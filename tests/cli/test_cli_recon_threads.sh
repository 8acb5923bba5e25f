#!/usr/bin/env bash
# test_cli_recon_threads.sh - `pinet recon fbp|em --threads T` and the PINET_ISA variable
# (docs/recon.md, "Instruction sets and threads"): the JSON reports "isa" and "threads"; the
# images and log-likelihoods are byte for byte the same for every T and for every instruction set
# forced with PINET_ISA (sse2, avx2, avx512: those the CPU lacks run the widest it has, as "isa"
# says), on every path (FBP float, fixed, ring; EM with and without symmetries, fixed, OSEM, ring;
# the parallel FBP, whose integration runs the schedule engine's add); bad values are one-line
# errors with the documented exit codes.
# Usage: bash test_cli_recon_threads.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"
CLI_AREA=recon # the command under test (the script's name says which part of it)

cli_python <<'PY'
import json, os, subprocess

ISAS = ("sse2", "avx2", "avx512")

def run_isa(isa, *args, expect=0):
    """`pinet recon args --json` with PINET_ISA=isa (None: unset); the parsed JSON."""
    env = dict(os.environ)
    env.pop("PINET_ISA", None)
    if isa is not None:
        env["PINET_ISA"] = isa
    p = subprocess.run([pinet, area, *map(str, args), "--json"], capture_output=True, text=True, env=env)
    if p.returncode != expect:
        raise SystemExit(f"FAIL: PINET_ISA={isa} pinet {area} {' '.join(map(str, args))} exited "
                         f"{p.returncode}, expected {expect}: {p.stderr}")
    return json.loads(p.stdout)

def read(path):
    with open(path, "rb") as f:
        return f.read()

def same_everywhere(name, args, keys=()):
    """Run args on every ISA and T = 1, 2, 3; the --out file and the JSON `keys` must equal the
    sse2, T = 1 run's."""
    ref_img = os.path.join(work, name + "_ref.f32")
    ref = run_isa("sse2", *args, "--out", ref_img)
    check(ref["isa"] == "sse2" and ref["threads"] == 1, f"{name}: sse2 T=1 reports {ref['isa']} {ref['threads']}")
    ran = set()
    for isa in ISAS:
        for t in (1, 2, 3):
            img = os.path.join(work, f"{name}_{isa}_{t}.f32")
            j = run_isa(isa, *args, "--threads", t, "--out", img)
            ran.add(j["isa"])
            check(j["threads"] == t, f"{name}: --threads {t} reports {j['threads']}")
            check(j["isa"] in ISAS and ISAS.index(j["isa"]) <= ISAS.index(isa),
                  f"{name}: PINET_ISA={isa} ran {j['isa']}")
            check(read(img) == read(ref_img), f"{name}: PINET_ISA={isa} --threads {t}: image differs from sse2, T=1")
            for k in keys:
                check(j[k] == ref[k], f"{name}: PINET_ISA={isa} --threads {t}: {k} {j[k]} != {ref[k]}")
    return ran

ran = set()
ran |= same_everywhere("fbp", ("fbp", "--phantom", "shepp-logan", "--size", 48, "--views", 37), ("rmse",))
ran |= same_everywhere("fbp_hann_noise", ("fbp", "--phantom", "disk", "--size", 33, "--views", 10,
                                          "--bins", 41, "--filter", "hann", "--noise", 50, "--seed", 3), ("rmse",))
ran |= same_everywhere("fbp_fixed", ("fbp", "--phantom", "shepp-logan", "--size", 40, "--views", 22, "--fixed"), ("rmse",))
ran |= same_everywhere("fbp_ring", ("fbp", "--phantom", "shepp-logan", "--size", 32, "--geometry", "ring",
                                    "--detectors", 40), ("rmse",))
ran |= same_everywhere("em", ("em", "--phantom", "shepp-logan", "--size", 24, "--views", 30, "--iters", 3),
                       ("loglik", "rmse"))
ran |= same_everywhere("em_ring", ("em", "--phantom", "shepp-logan", "--size", 20, "--geometry", "ring",
                                   "--detectors", 32, "--iters", 2, "--noise", 20), ("loglik", "rmse"))
ran |= same_everywhere("em_fixed", ("em", "--phantom", "disk", "--size", 20, "--views", 16, "--iters", 3,
                                    "--fixed"), ("loglik", "rmse"))
ran |= same_everywhere("osem", ("em", "--phantom", "shepp-logan", "--size", 20, "--views", 18, "--iters", 2,
                                "--subsets", 3), ("loglik", "rmse"))
print(f"{area} threads: instruction sets that ran: {sorted(ran, key=ISAS.index)}")

# the parallel FBP (schedule engine's add) on every ISA; --threads does not go with --pes
ref_img = os.path.join(work, "par_ref.f32")
ref = run_isa("sse2", "fbp", "--phantom", "shepp-logan", "--size", 32, "--views", 24, "--pes", 4, "--out", ref_img)
for isa in ISAS[1:]:
    img = os.path.join(work, f"par_{isa}.f32")
    j = run_isa(isa, "fbp", "--phantom", "shepp-logan", "--size", 32, "--views", 24, "--pes", 4, "--out", img)
    check(read(img) == read(ref_img), f"parallel FBP on {j['isa']} differs from sse2")
    check(j["max_rel_diff_vs_sequential"] == ref["max_rel_diff_vs_sequential"], "parallel FBP difference")

# defaults: one thread, the widest ISA unless PINET_ISA narrows it
j = run_isa(None, "fbp", "--phantom", "disk", "--size", 16, "--views", 8)
check(j["threads"] == 1 and j["isa"] in ISAS, f"defaults: {j}")
j = run_isa(None, "em", "--phantom", "disk", "--size", 16, "--views", 8, "--iters", 1, "--pes", 2)
check(j["isa"] in ISAS and j["threads"] == 1, f"EM on PEs reports isa and threads: {j}")

# errors
for cmd in (("fbp", "--phantom", "disk", "--size", 16, "--views", 8),
            ("em", "--phantom", "disk", "--size", 16, "--views", 8, "--iters", 1)):
    expect_error((*cmd, "--json", "--threads", 0), 3, "--threads must be in 1..256 (got 0)")
    expect_error((*cmd, "--json", "--threads", 257), 3, "--threads must be in 1..256 (got 257)")
    expect_error((*cmd, "--json", "--threads", "two"), 2, "threads")
    expect_error((*cmd, "--json", "--threads", 2, "--pes", 2), 2, "--threads goes with the sequential run")
    env = dict(os.environ, PINET_ISA="sse5")
    p = subprocess.run([pinet, area, *map(str, cmd), "--json"], capture_output=True, text=True, env=env)
    lines = p.stderr.strip().splitlines()
    check(p.returncode == 3 and p.stdout == "" and len(lines) == 1 and
          lines[0] == f"pinet: recon {cmd[0]}: PINET_ISA must be sse2, avx2, avx512 or auto (got 'sse5')",
          f"PINET_ISA=sse5 {cmd[0]}: exit {p.returncode}, stderr {p.stderr!r}")
    env = dict(os.environ, PINET_ISA="auto")
    p = subprocess.run([pinet, area, *map(str, cmd), "--json"], capture_output=True, text=True, env=env)
    check(p.returncode == 0, f"PINET_ISA=auto {cmd[0]}: exit {p.returncode}")
PY

cli_finish
