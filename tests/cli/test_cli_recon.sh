#!/usr/bin/env bash
# test_cli_recon.sh - the `pinet recon` contract (docs/recon.md): FBP of a raw float32 sinogram
# written here from exact chord lengths (a centred disk reconstructs to 1 inside and 0 outside; an
# off-centre disk lands where scikit-image's orientation puts it), the JSON keys, the parallel runs'
# agreement with the sequential ones, EM's non-decreasing log-likelihood, the model table, the
# output formats, --schedule paper|fast (the same image, both cycle counts), and one-line errors
# with the documented exit codes for bad input.
# Usage: bash test_cli_recon.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"

cli_python <<'PY'
import math, os, struct

def write_f32(path, values):
    with open(path, "wb") as f:
        f.write(struct.pack("<%df" % len(values), *values))

def read_f32(path):
    data = open(path, "rb").read()
    return list(struct.unpack("<%df" % (len(data) // 4), data))

# ---- FBP of disks whose sinograms are computed here (chord lengths) -------------------------
N, V, D = 64, 72, 64
c = D // 2  # scikit-image's centre bin and image centre for even sizes

def disk_sino(x0, y0, r):
    vals = []
    for k in range(V):
        th = math.pi * k / V
        for b in range(D):
            s = (b - c) - (x0 * math.cos(th) + y0 * math.sin(th))
            vals.append(2 * math.sqrt(r * r - s * s) if abs(s) < r else 0.0)
    return vals

sino = os.path.join(work, "disk.f32")
write_f32(sino, disk_sino(0, 0, 16))
img = os.path.join(work, "disk_img.f32")
j = run_json("fbp", "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--out", img)
for key in ("size", "views", "bins", "filter", "time_s"):
    check(key in j, f"fbp JSON has {key}")
check(j["size"] == N and j["views"] == V and j["bins"] == D and j["filter"] == "ramp", "fbp JSON values")
im = read_f32(img)
check(len(im) == N * N, "raw image is N*N float32")
check(abs(im[c * N + c] - 1.0) < 0.03, f"disk centre {im[c * N + c]}")
check(abs(im[c * N + c + 24]) < 0.03, f"outside the disk {im[c * N + c + 24]}")
check(im[0] == 0.0, "outside the reconstruction circle is 0")

# orientation: a small disk at x = +10, y = +16 (y up) appears at row c - 16, column c + 10
write_f32(sino, disk_sino(10, 16, 4))
run("fbp", "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--out", img,
    "--filter", "hann")
im = read_f32(img)
peak = max(range(N * N), key=lambda i: im[i])
check((peak // N, peak % N) == (c - 16, c + 10), f"off-centre disk peak at {divmod(peak, N)}")

# every filter runs and reconstructs the centred disk
write_f32(sino, disk_sino(0, 0, 20))
for f in ("ramp", "shepp-logan", "cosine", "hamming", "hann"):
    run("fbp", "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--out", img, "--filter", f)
    v = read_f32(img)[c * N + c]
    check(abs(v - 1.0) < 0.05, f"filter {f}: centre {v}")

# output formats
for ext, magic in ((".png", b"\x89PNG"), (".pgm", b"P5")):
    out = os.path.join(work, "o" + ext)
    run("fbp", "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--out", out)
    check(open(out, "rb").read(len(magic)) == magic, f"{ext} output")
hv = os.path.join(work, "o.hv")
run("fbp", "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--out", hv)
hdr = open(hv).read().lower()
check("!interfile" in hdr and "matrix size [1] := 64" in hdr and "littleendian" in hdr, "Interfile header")
check(os.path.getsize(os.path.join(work, "o.v")) == N * N * 4, "Interfile data file")
# an Interfile sinogram written by `recon sinogram` is read back by `recon fbp`
shv = os.path.join(work, "s.hv")
run("sinogram", "--phantom", "disk", "--size", N, "--views", V, "--out", shv)
j = run_json("fbp", "--sinogram", shv, "--views", V, "--bins", D, "--size", N)
check(j["views"] == V, "fbp reads an Interfile sinogram")

# ---- phantom runs, parallel = sequential ---------------------------------------------------
j = run_json("fbp", "--phantom", "shepp-logan", "--size", 64, "--views", 64)
check(0 < j["rmse"] < 0.1, f"FBP Shepp-Logan rmse {j['rmse']}")
for pes in (2, 8, 64):
    j = run_json("fbp", "--phantom", "shepp-logan", "--size", 64, "--views", 64, "--pes", pes)
    check(j["pes"] == pes and len(j["comm"]["per_pe_work"]) == pes, f"FBP --pes {pes} comm")
    check(j["max_rel_diff_vs_sequential"] <= 1e-6, f"FBP float --pes {pes} diff {j['max_rel_diff_vs_sequential']}")
    check(j["comm"]["words_moved"] > 0, "words moved")
    j = run_json("fbp", "--phantom", "shepp-logan", "--size", 64, "--views", 64, "--pes", pes, "--fixed")
    check(j["max_rel_diff_vs_sequential"] == 0, f"FBP fixed --pes {pes} bit-exact")
j = run_json("fbp", "--phantom", "disk", "--size", 64, "--geometry", "ring", "--detectors", 96)
check(j["views"] == 96 and j["rmse"] < 0.2, f"ring FBP {j}")

j = run_json("em", "--phantom", "shepp-logan", "--size", 32, "--views", 32, "--iters", 8)
ll = j["loglik"]
check(len(ll) == 8 and all(b >= a for a, b in zip(ll, ll[1:])), f"EM log-likelihood non-decreasing {ll}")
check(j["rmse"] < 0.2, f"EM rmse {j['rmse']}")
jp = run_json("em", "--phantom", "shepp-logan", "--size", 32, "--views", 32, "--iters", 8, "--pes", 4,
              "--partition", "box")
check(abs(jp["rmse"] - j["rmse"]) < 1e-6, "EM --pes 4 rmse equals the sequential one")
check(jp["comm"]["steps"] > 0 and jp["partition"] == "box", "EM comm summary")
j = run_json("em", "--phantom", "shepp-logan", "--size", 64, "--geometry", "ring", "--iters", 2, "--pes", 32)
check(j["tubes"] > 0 and j["views"] == 96 and 0 < j["comm"]["model_efficiency"] < 1, "paper setup EM")
j = run_json("em", "--phantom", "shepp-logan", "--size", 32, "--views", 32, "--iters", 2, "--subsets", 4)
check(j["subsets"] == 4, "OSEM")

m = run_json("model")
check(len(m["rows"]) == 50 and m["fbp"]["alpha_2a_plus_b"] > 0 and m["em"]["t0_per_iter"] > 5, "model table")
row = [r for r in m["rows"] if r["kernel"] == "fbp" and r["size"] == 512 and r["pes"] == 32][0]
check(row["paper_speedup_noio"] == 25.43, "paper's Table 3 value carried")

# ---- the fixed-point path across the whole float32 range (issue 16) ---------------------------
# A constant sinogram scaled from 1e-30 to 3e38: the fixed-point image (sequential and over 2 PEs,
# bit-identical to each other) must equal the float path's within 1e-5 of its maximum, and EM's
# log-likelihood must stay finite. Before the fix the scale was clamped and the fixed image was off
# by 116 % at 1e12 and all zeros from 1e30 on, with exit 0.
FV, FD, FN = 30, 32, 32
fsino, fimg = os.path.join(work, "const.f32"), os.path.join(work, "const_img.f32")

def max_rel(a, b):
    mx = max(abs(x) for x in a)
    return max(abs(x - y) for x, y in zip(a, b)) / mx if mx else max(abs(y) for y in b)

for algo, extra in (("fbp", ()), ("em", ("--iters", 3))):
    for scale in (1e-30, 1e-12, 1.0, 3e11, 1e12, 1e15, 1e30, 3e38):
        write_f32(fsino, [scale] * (FV * FD))
        common = (algo, "--sinogram", fsino, "--views", FV, "--bins", FD, "--size", FN, "--out", fimg, *extra)
        jf = run_json(*common)
        ref = read_f32(fimg)
        check(max(ref) > 0, f"{algo} float image of a constant {scale:g} sinogram is not zero")
        imgs = []
        for par in ((), ("--pes", 2)):
            j = run_json(*common, "--fixed", *par)
            imgs.append(read_f32(fimg))
            d = max_rel(ref, imgs[-1])
            check(d <= 1e-5, f"{algo} --fixed {' '.join(map(str, par))} at {scale:g}: {d:.3g} from the float path")
            if algo == "em":
                check(all(v is not None and math.isfinite(v) for v in j["loglik"]),
                      f"em --fixed {par} at {scale:g}: log-likelihood {j['loglik']}")
        check(imgs[0] == imgs[1], f"{algo} --fixed at {scale:g}: --pes 2 bit-identical to sequential")

# the top edge: a view pattern whose filtered backprojection leaves float32 is refused (exit 3,
# one line naming the largest value), on every path; just below it, the paths agree
for scale, ok in ((1e38, True), (3.4e38, False)):
    view = [0.0] * FD
    view[FD // 2 - 1], view[FD // 2], view[FD // 2 + 1] = -scale, scale, -scale
    write_f32(fsino, view * FV)
    for mode in ((), ("--fixed",), ("--fixed", "--pes", 2), ("--pes", 2)):
        args = ("fbp", "--sinogram", fsino, "--views", FV, "--bins", FD, "--size", FN, "--out", fimg, *mode)
        if ok:
            run(*args)
        else:
            if os.path.exists(fimg):
                os.remove(fimg)
            expect_error(args, 3, "largest sinogram |value| 3.4e+38")
            check(not os.path.exists(fimg), f"{mode}: no image written on the error")

# ---- --schedule paper|fast (issue 11): the same image, both communication times ----------------
# The fast collectives (cut-through scatter, broadcast, upload) leave the same words where the run
# reads them, so the image file and the JSON image statistics are the paper run's; the "comm"
# object keeps its keys and adds four at the end; both runs report both cycle counts.
COMM_KEYS = ["schedules", "steps", "words_moved", "words_summed", "link_time", "per_pe_work",
             "load_balance", "model_efficiency", "schedule_kind", "cycles", "cycles_paper",
             "cycles_fast"]
for algo, common, stats in (
        ("fbp", ("fbp", "--phantom", "shepp-logan", "--size", 64, "--views", 64),
         ("rmse", "max_rel_diff_vs_sequential")),
        ("em", ("em", "--phantom", "shepp-logan", "--size", 32, "--views", 32, "--iters", 3),
         ("rmse", "loglik"))):
    for extra in ((), ("--fixed",)):
        got = {}
        for sched in (None, "paper", "fast"):
            out = os.path.join(work, f"sched_{algo}_{sched}.f32")
            args = (*common, "--pes", 8, *extra, "--out", out, *(("--schedule", sched) if sched else ()))
            j = run_json(*args)
            got[sched] = (open(out, "rb").read(), j)
            os.remove(out)
        what = f"{algo} {' '.join(extra)} --pes 8"
        (ip, jp), (ifa, jf), (idf, jd) = got["paper"], got["fast"], got[None]
        check(len(ip) > 0 and ifa == ip, f"{what}: --schedule fast writes the paper run's image")
        check(idf == ip, f"{what}: no --schedule is --schedule paper (image)")
        for key in stats:
            check(jf[key] == jp[key], f"{what}: JSON {key} fast {jf[key]} vs paper {jp[key]}")
        for j, kind in ((jp, "paper"), (jf, "fast"), (jd, "paper")):
            check(list(j["comm"].keys()) == COMM_KEYS, f"{what} {kind}: comm keys {list(j['comm'])}")
            check(j["comm"]["schedule_kind"] == kind, f"{what}: schedule_kind {j['comm']['schedule_kind']}")
            check(j["comm"]["cycles"] == j["comm"]["cycles_" + kind], f"{what} {kind}: cycles {j['comm']}")
        cp, cf = jp["comm"], jf["comm"]
        check(cp["cycles_paper"] == cf["cycles_paper"] and cp["cycles_fast"] == cf["cycles_fast"],
              f"{what}: both runs report the same two counts: {cp} {cf}")
        check(0 < cf["cycles_fast"] < cf["cycles_paper"], f"{what}: fast {cf['cycles_fast']} < paper {cf['cycles_paper']} cycles")
        for key in ("schedules", "words_summed", "per_pe_work", "load_balance", "model_efficiency"):
            check(cp[key] == cf[key], f"{what}: comm {key} paper {cp[key]} vs fast {cf[key]}")
        for d in (jd, jp):
            d.pop("time_s")
            d.pop("setup_s", None)
        check(jd == jp, f"{what}: no --schedule gives the --schedule paper JSON")
        # the text output: one line with both counts
        txt = run(*common, "--pes", 8, *extra, "--schedule", "fast", "--out", os.path.join(work, "t.f32")).stdout.splitlines()
        want = (f"communication cycles: paper schedules {cp['cycles_paper']}, fast schedules "
                f"{cp['cycles_fast']} (this run: fast)")
        check(want in txt, f"{what}: text line {want!r} in {txt}")
# a bad value: the usual usage error; --schedule without --pes: a usage error too
expect_error(("fbp", "--phantom", "disk", "--size", 16, "--views", 16, "--pes", 4, "--schedule", "quick",
              "--json"), 2, "--schedule")
expect_error(("em", "--phantom", "disk", "--size", 16, "--views", 16, "--pes", 4, "--schedule", "",
              "--json"), 2, "--schedule")
expect_error(("fbp", "--phantom", "disk", "--size", 16, "--views", 16, "--schedule", "fast", "--json"),
             2, "--schedule picks the parallel run's collectives: it goes with --pes")

# ---- bad input --------------------------------------------------------------------------------
def bad(code, *args):
    expect_error(args, code)

write_f32(sino, [0.0] * (V * D - 3))
bad(4, "fbp", "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--json")
bad(4, "fbp", "--sinogram", os.path.join(work, "missing.f32"), "--views", V, "--bins", D, "--size", N, "--json")
write_f32(sino, [0.0] * (V * D))
bad(2, "fbp", "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--json", "--filter", "gauss")
bad(3, "fbp", "--sinogram", sino, "--views", 0, "--bins", D, "--size", N, "--json")
bad(3, "fbp", "--phantom", "disk", "--views", 16, "--size", 16, "--json", "--pes", 3)
bad(2, "fbp", "--views", 16, "--size", 16, "--json")
neg = [1.0] * (V * D)
neg[77] = -1.0
write_f32(sino, neg)
bad(3, "em", "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--json")
bad(2, "bogus")

# ---- messages that name the cause (issue 16) ----------------------------------------------------
# A directory as --sinogram (raw or .hv): "'X' is a directory", exit 4. Before: "holds
# 2305843009213693951 float32 values" (ftell of a directory), and for .hv "cannot read".
adir, adir_hv = os.path.join(work, "adir"), os.path.join(work, "adir.hv")
os.mkdir(adir)
os.mkdir(adir_hv)
for algo, path in (("fbp", adir), ("em", adir), ("fbp", adir_hv)):
    expect_error((algo, "--sinogram", path, "--views", V, "--bins", D, "--size", N, "--json"), 4,
                 f"'{path}' is a directory")
# An Interfile header whose data file is a directory: a file error, exit 4 (before: exit 3, "input
# sizes do not fit together", from the raw reader's ftell of a directory).
hdr = os.path.join(work, "dirdata.hv")
with open(hdr, "w") as f:
    f.write("!INTERFILE :=\n!name of data file := dirdata.v\n!number format := float\n"
            "!number of bytes per pixel := 4\nimagedata byte order := LITTLEENDIAN\n"
            f"number of dimensions := 2\n!matrix size [1] := {D}\n!matrix size [2] := {V}\n"
            "!END OF INTERFILE :=\n")
os.mkdir(os.path.join(work, "dirdata.v"))
expect_error(("fbp", "--sinogram", hdr, "--views", V, "--bins", D, "--size", N, "--json"), 4,
             "cannot read Interfile sinogram")
# A NaN or infinite sinogram value: named with its view and bin, exit 3, by fbp and em alike.
# Before: fbp "holds a NaN or infinite value", em "cannot read (argument out of range)".
for value, name in ((float("nan"), "NaN"), (float("inf"), "+Inf"), (float("-inf"), "-Inf")):
    vals = [1.0] * (V * D)
    vals[3 * D + 5] = value
    write_f32(sino, vals)
    for algo in ("fbp", "em"):
        expect_error((algo, "--sinogram", sino, "--views", V, "--bins", D, "--size", N, "--json"), 3,
                     f"holds {name} at view 3 bin 5")
# --subsets above the number of views: the value and its limit, exit 3 as the other range checks
# (before: "bad counts or --subsets 61"); the limit itself runs.
common = ("em", "--phantom", "disk", "--size", 16, "--views", 60, "--iters", 1)
expect_error((*common, "--subsets", 61, "--json"), 3, "--subsets must be in 1..60 (got 61)")
check(run_json(*common, "--subsets", 60)["subsets"] == 60, "--subsets 60 with 60 views runs")
# Too many PEs for the matrix (4 detectors: 16 entries): the numbers and the largest --pes that
# works, exit 3 (before: "bad counts, or too many PEs for this matrix").
ring4 = ("em", "--phantom", "shepp-logan", "--size", 8, "--geometry", "ring", "--detectors", 4)
p = run(*ring4, "--pes", 64, "--json", expect=None)
expect_error((*ring4, "--pes", 64, "--json"), 3, "--pes 64 is too many PEs for this matrix")
check("16 entries" in p.stderr and "more than two PEs" in p.stderr and "--pes 16" in p.stderr,
      f"too many PEs: the numbers named: {p.stderr!r}")
run_json(*ring4, "--pes", 16)
run_json(*ring4, "--pes", 64, "--partition", "box")
PY
cli_finish
