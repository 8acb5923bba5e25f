#!/usr/bin/env bash
# test_cli_histogram.sh - the `pinet histogram` contract: the JSON keys, the histogram against a
# count done here (text files, PGM P2/P5 and a PNG written here with Python's zlib), the
# data-independent costs against the paper's B - 1 + log(M/B), the worst case against equations
# (4)+(5) and (14), the curves files (CSV columns, SVG well-formed), and one-line errors with the
# documented exit codes for bad input.
# Usage: bash test_cli_histogram.sh PATH/TO/pinet
. "$(dirname "$0")/cli_test_lib.sh"
cli_setup "$@"
cli_seed 6006

cli_python <<'PY'
import csv, json, math, os, struct, zlib
import xml.etree.ElementTree as ET

def count(values, bins):
    h = [0] * bins
    for v in values:
        h[v] += 1
    return h

def lg(v):
    return v.bit_length() - 1

# ---- text input, every algorithm, several shapes ------------------------------------------
for pes, bins, n in [(16, 64, 48), (4, 256, 7), (64, 16, 200), (1, 8, 5), (256, 256, 256)]:
    vals = [rng.randrange(bins) for _ in range(n)]
    path = os.path.join(work, f"v_{pes}_{bins}.txt")
    with open(path, "w") as f:
        f.write("\n".join(map(str, vals)) + "\n")
    want = count(vals, bins)
    p = -(-n // pes)
    for algo in ("independent", "dependent1", "dependent2"):
        out = run_json("--pes", pes, "--bins", bins, "--input", path, "--algo", algo)
        for key in ("histogram", "transfers_max", "additions_max", "steps"):
            check(key in out, f"key {key} missing")
        check(out["histogram"] == want, f"M={pes} B={bins} {algo}: histogram differs")
        check(out["steps"] == lg(pes), f"M={pes} B={bins} {algo}: steps {out['steps']}")
        if algo == "independent":
            tr = bins - 1 + lg(pes // bins) if pes >= bins else bins - bins // pes
            check(out["transfers_max"] == tr, f"M={pes} B={bins}: transfers {out['transfers_max']} want {tr}")
            check(out["additions_max"] == p + tr, f"M={pes} B={bins}: additions {out['additions_max']} want {p + tr}")
        else:
            r = max(0, math.floor(math.log2(bins / p) / 2))
            check(out["r"] == min(r, min(lg(bins), lg(pes))), f"M={pes} B={bins} {algo}: r {out['r']}")

# ---- worst case: equations (4)+(5), (12)+(13), (14) for B = 256, p = 1 ------------------------
out = run_json("--pes", 256, "--bins", 256, "--generate", "worst", "--pixels", 256, "--algo", "dependent2")
r = 4
check(out["phase2_transfers_max"] == 2 * (2**r - 1) + 256 // 2**r - 1, "worst case transfers != (4)+(5) = 45")
check(out["phase2_ops_max"] == 3 + 5 * (1 + 2 + 4) + 8 + 15, "worst case approach-2 operations != (12)+(13) = 61")
check(out["list_words_max"] == 2**r - 1, "worst case list words != (14) = 15")
out1 = run_json("--pes", 256, "--bins", 256, "--generate", "worst", "--pixels", 256, "--algo", "dependent1")
check(out1["phase2_ops_max"] == 15 + 255, "worst case approach-1 operations != (8)+(9)+(10) = 270")
rand = run_json("--pes", 64, "--bins", 64, "--generate", "random", "--pixels", 640, "--seed", 3)
check(sum(rand["histogram"]) == 640, "random: counts do not add up to N")

# ---- images: PGM P5, P2 and PNG built here ----------------------------------------------------
w, h = 16, 8
img = [rng.randrange(256) for _ in range(w * h)]
with open(os.path.join(work, "a.pgm"), "wb") as f:
    f.write(b"P5\n# made by the test\n%d %d\n255\n" % (w, h) + bytes(img))
with open(os.path.join(work, "b.pgm"), "w") as f:
    f.write(f"P2\n{w} {h}\n255\n" + " ".join(map(str, img)) + "\n")
def png_chunk(t, d):
    return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xffffffff)
raw = b"".join(b"\x00" + bytes(img[y * w:(y + 1) * w]) for y in range(h))
png = (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 0, 0, 0, 0))
       + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))
with open(os.path.join(work, "c.png"), "wb") as f:
    f.write(png)
want = count(img, 256)
for name in ("a.pgm", "b.pgm", "c.png"):
    p = run("--pes", 32, "--bins", 256, "--input", os.path.join(work, name), "--algo", "dependent1", "--json", expect=None)
    if name == "c.png" and p.returncode == 4 and "libpng" in p.stderr:
        continue  # a build without libpng says so
    check(p.returncode == 0, f"{name}: exit {p.returncode}: {p.stderr}")
    if p.returncode == 0:
        check(json.loads(p.stdout)["histogram"] == want, f"{name}: histogram differs")

# ---- curves --------------------------------------------------------------------------------
cdir = os.path.join(work, "curves")
os.mkdir(cdir)
p = run("curves", "--out", cdir)
for name in ("histogram_curves.csv", "histogram_fig1.svg", "histogram_fig2.svg", "histogram_fig3.svg"):
    path = os.path.join(cdir, name)
    check(os.path.exists(path), f"curves: {name} not written")
    check(path in p.stdout, f"curves: does not say it wrote {path}")
rows = list(csv.DictReader(open(os.path.join(cdir, "histogram_curves.csv"))))
check(len(rows) == 64, f"curves: {len(rows)} rows, want 64")
for row in rows:
    pp = int(row["p"])
    r = max(0, math.floor(math.log2(256 / pp) / 2))
    want_t = 2 * pp * (2**r - 1) + 256 // 2**r - 1
    check(int(row["transfers_dependent_eq"]) == want_t, f"curves p={pp}: transfers eq")
    for a, b in (("transfers_dependent_eq", "transfers_dependent_sim"), ("ops_approach1_eq", "ops_approach1_sim"),
                 ("ops_approach2_eq", "ops_approach2_sim"), ("list_words_eq", "list_words_sim")):
        check(row[a] == row[b], f"curves p={pp}: {a} {row[a]} != {b} {row[b]}")
for name in ("histogram_fig1.svg", "histogram_fig2.svg", "histogram_fig3.svg"):
    root = ET.parse(os.path.join(cdir, name)).getroot()
    check(root.tag.endswith("svg"), f"{name}: root is {root.tag}")
    texts = [t.text for t in root.iter() if t.tag.endswith("text")]
    check(any(t and "pixels per processor" in t for t in texts), f"{name}: no x-axis label")
    check(sum(1 for t in root.iter() if t.tag.endswith("polyline")) >= 2, f"{name}: fewer than 2 curves")
pj = run_json("curves", "--out", cdir)
check(len(pj["files"]) == 4, "curves --json lists 4 files")

# ---- bad input: one line on stderr, documented exit codes ------------------------------------
bad_txt = os.path.join(work, "bad.txt")
with open(bad_txt, "w") as f:
    f.write("1\n2\n300\n")
junk_txt = os.path.join(work, "junk.txt")
with open(junk_txt, "w") as f:
    f.write("1\n2x\n")
empty_txt = os.path.join(work, "empty.txt")
open(empty_txt, "w").close()
trunc = os.path.join(work, "trunc.pgm")
with open(trunc, "wb") as f:
    f.write(b"P5\n16 8\n255\n" + bytes(10))
cases = [
    (["--pes", 12, "--bins", 256, "--input", bad_txt], 3, "power of two"),
    (["--pes", 16, "--bins", 100, "--input", bad_txt], 3, "power of two"),
    (["--pes", 16, "--bins", 256, "--input", bad_txt], 3, "outside 0..255"),
    (["--pes", 16, "--bins", 128, "--input", os.path.join(work, "a.pgm")], 3, "pixel"),
    (["--pes", 16, "--bins", 256, "--input", junk_txt], 4, "line 2"),
    (["--pes", 16, "--bins", 256, "--input", empty_txt], 3, "no pixel values"),
    (["--pes", 16, "--bins", 256, "--input", os.path.join(work, "missing.txt")], 4, "cannot open"),
    (["--pes", 16, "--bins", 256, "--input", trunc], 4, "cannot read the image"),
    (["--pes", 16, "--bins", 256, "--input", bad_txt, "--algo", "fast"], 2, "not one of"),
    (["--pes", 16, "--bins", 256], 2, "exactly one of"),
    (["--pes", 16, "--bins", 256, "--generate", "worst", "--pixels", 17], 3, "multiple"),
    (["--pes", 16, "--bins", 256, "--generate", "random", "--pixels", 0], 3, "--pixels"),
    (["--pes", -4, "--bins", 256, "--generate", "random", "--pixels", 5], 2, "non-negative"),
    (["--bins", 256, "--input", bad_txt], 2, "--pes"),
    (["curves", "--bogus"], 2, "unknown option"),
    (["curves", "--out", os.path.join(work, "no", "such")], 4, "cannot write"),
]
for args, code, text in cases:
    expect_error(args, code, text)
check(run("--help").stdout.startswith("usage: pinet histogram"), "--help")

# ---- messages that name the cause (issue 16) ----------------------------------------------------
# A PGM sample above the header's maxval: the pixel, its value and the maxval, exit 4 as the image
# reader's other data errors (before: "cannot read the image"); ASCII (P2) and binary (P5).
above2 = os.path.join(work, "above2.pgm")
with open(above2, "w") as f:
    f.write("P2\n3 2\n10\n1 2 3\n4 11 6\n")
above5 = os.path.join(work, "above5.pgm")
with open(above5, "wb") as f:
    f.write(b"P5\n2 2\n100\n" + bytes([1, 200, 3, 4]))
expect_error(["--pes", 2, "--bins", 16, "--input", above2], 4, "pixel (1, 1) = 11 is above the maxval 10")
expect_error(["--pes", 2, "--bins", 256, "--input", above5], 4, "pixel (1, 0) = 200 is above the maxval 100")
# A directory as --input: "'X' is a directory", exit 4 (before: "cannot read").
adir = os.path.join(work, "adir")
os.mkdir(adir)
expect_error(["--pes", 2, "--bins", 16, "--input", adir], 4, f"'{adir}' is a directory")

# curves --json into an unusable --out: one error before any output (before: '{"files":[' on
# stdout, then exit 4).
missing = os.path.join(work, "no_such_dir")
expect_error(["curves", "--out", missing, "--json"], 4, f"--out '{missing}': cannot write: No such file")
a_file = os.path.join(work, "plain_file")
open(a_file, "w").close()
expect_error(["curves", "--out", a_file, "--json"], 4, "cannot write: not a directory")
PY
cli_finish
