#!/usr/bin/env bash
# test_verify_report.sh - scripts/verify.sh's sign-off table and HTML report on a deliberately
# failing run of a real cosim (the N = 8 ring of this build with --inject-fault, beside a passing
# N = 4 ring), then the report opened in headless Chromium:
#   - the summary keeps its rows and gains the sign-off table: rta_ring.ring_sizes FAIL 1/2,
#     functional coverage '–' (not measured);
#   - the re-run wrote the mismatch window (JSON) and the report carries it;
#   - Chromium's DOM (--dump-dom, after WaveDrom ran) holds the failing run's name, its FAIL line
#     and cycle, the diagram as rendered SVG with the failing signal's lane, the reproducing
#     command (which, run, fails again at the same cycle) and the link to the wave;
#   - the screenshot is not blank and shows the diagram's mismatch colour (WaveDrom's '9' cells:
#     only the failing window has them);
#   - the same checks reject a copy of the report whose diagram does not render (no WaveDrom).
# A few seconds. Usage: bash test_verify_report.sh SOURCE_DIR BUILD_DIR
set -uo pipefail
src=$1 build=$2
# shellcheck source=scripts/verdict.sh
. "$src/scripts/verdict.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

ring=$(awk -F'|' '$1 == "rta_ring_n8" { print $2 }' "$build/cosim_runs.list")
[ -x "$ring" ] || { echo "FAIL: no rta_ring_n8 executable in $build/cosim_runs.list"; exit 1; }
command -v chromium >/dev/null || { echo "FAIL: chromium not found (bash scripts/deps.sh)"; exit 1; }
[ -f "$src/tools/node/node_modules/wavedrom/wavedrom.min.js" ] ||
  { echo "FAIL: WaveDrom not installed in tools/node (bash scripts/deps.sh)"; exit 1; }

fault=60
mkdir -p "$work/list"
cat >"$work/list/cosim_runs.list" <<LIST
# name|executable|arguments|kind
rta_ring_n4|$ring|--pes 4 --cycles 300 --power-up random|default
rta_ring_n8|$ring|--pes 8 --cycles 300 --power-up random --inject-fault $fault|default
LIST

rc=0
(cd "$src" && bash scripts/verify.sh --no-deps --no-build --build "$work/list" --waves "$work/w" \
  --seed 3 -j 2) >"$work/out.txt" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "a failing run: verify.sh exited $rc, expected 1: $(tail -5 "$work/out.txt")"
sum=$work/w/summary.txt
grep -qE "^rta_ring_n8 +rta_ring +$fault +1 +3  FAIL " "$sum" || fail "no FAIL row for rta_ring_n8"
grep -qE '^rta_ring_n4 +rta_ring .* PASS ' "$sum" || fail "no PASS row for rta_ring_n4"
grep -q '^Sign-off against the testplans' "$sum" || fail "no sign-off table in the summary"
# Functional coverage: the bins the two runs hit (the harness writes waves/fcov/), or "–".
grep -qE '^  rta_ring\.ring_sizes +FAIL +1/2 +2  (–|[0-9]+(\+[0-9]+)?/[0-9]+) ' "$sum" ||
  fail "sign-off row of rta_ring.ring_sizes: $(grep 'ring_sizes' "$sum")"
grep -q '^verify: report: .*/report/index.html$' "$work/out.txt" || fail "no report line"
report=$work/w/report
json=$report/rta_ring_n8_s3.mismatch.json
python3 - "$json" "$fault" <<'PY' || fail "the mismatch window $json"
import json, sys
w = json.load(open(sys.argv[1]))
c = int(sys.argv[2])
assert w["block"] == "rta_ring" and w["cycle"] == c and w["signal"] == "l_o[0]", w
assert w["cycles"] == list(range(c - 8, c + 1)), w["cycles"]
sig = w["signals"][0]
assert sig["failing"] and sig["dut"][-1] != sig["expected"][-1] and sig["dut"][:-1] == sig["expected"][:-1], sig
assert 2 <= len(w["signals"]) <= 8, len(w["signals"])
PY

# check_report DIR NAME: the report in DIR, rendered by Chromium, shows the failing window.
check_report() {
  local dir=$1 tag=$2 bad=0
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
    --dump-dom "file://$dir/index.html" >"$work/$tag.dom.html" 2>"$work/$tag.chromium.log"
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --virtual-time-budget=5000 \
    --window-size=1200,1000 --screenshot="$work/$tag.png" "file://$dir/index.html" \
    >>"$work/$tag.chromium.log" 2>&1
  [ -s "$work/$tag.png" ] || { echo "  $tag: no screenshot: $(tail -2 "$work/$tag.chromium.log")"; return 1; }
  python3 - "$work/$tag.dom.html" "$fault" "$ring" <<'PY' || bad=1
import re, sys
dom, fault, exe = open(sys.argv[1], encoding="utf-8").read(), sys.argv[2], sys.argv[3]
need = {
    "the failing run's name": "rta_ring_n8 seed 3",
    "its FAIL line": f"FAIL rta_ring cycle {fault} l_o[0] DUT",
    "the reproducing command": f"{exe} --pes 8 --cycles 300 --power-up random --inject-fault {fault} --seed 3 --quiet --wave",
    "the link to the wave": "rta_ring_n8.fst",
}
ok = True
for what, text in need.items():
    if text.replace("&", "&amp;") not in dom:
        print(f"  the DOM lacks {what}: {text}"); ok = False
svgs = re.findall(r"<svg\b[^>]*>.*?</svg>", dom, re.S)
diagram = [s for s in svgs if ">DUT*<" in s and ">l_o[0]<" in s]
if not diagram:
    print(f"  no rendered diagram (SVG with the group l_o[0] and its lane DUT*): {len(svgs)} svg element(s)"); ok = False
elif f">{fault}<" not in diagram[0] or "<path" not in diagram[0]:
    print("  the diagram has no cycle label {fault} or no drawn waves"); ok = False
sys.exit(0 if ok else 1)
PY
  # The screenshot: not blank, and the diagram's mismatch colour in it (the fill of WaveDrom's
  # '9' data cell in its default skin).
  local colour
  colour=$(python3 - "$src/tools/node/node_modules/wavedrom/skins/default.js" <<'PY'
import re, sys
skin = open(sys.argv[1], encoding="utf-8").read()
cls = re.search(r"id:'vvv-9'\},\['path',\{d:'[^']*',class:'(s\d+)'", skin)
fill = cls and re.search(r"\." + cls.group(1) + r"\{[^}]*fill:(#[0-9a-fA-F]{6})", skin)
print(fill.group(1) if fill else "")
PY
)
  local ncolours hits
  ncolours=$(/usr/bin/identify -format '%k' "$work/$tag.png" 2>/dev/null || echo 0)
  [ "${ncolours:-0}" -gt 50 ] || { echo "  $tag: the screenshot is blank ($ncolours colours)"; bad=1; }
  if [ -n "$colour" ]; then
    hits=$(/usr/bin/convert "$work/$tag.png" -fill black +opaque "$colour" -fill white -opaque "$colour" \
      -format '%[fx:int(mean*w*h)]' info: 2>/dev/null || echo 0)
    [ "${hits:-0}" -gt 100 ] || { echo "  $tag: the screenshot shows no mismatch cell ($colour: $hits pixels)"; bad=1; }
  else
    echo "  $tag: no fill colour of the '9' cell found in WaveDrom's default skin"; bad=1
  fi
  return $bad
}

if check_report "$report" good; then
  echo "the report shows the failing window ($work/good.png)"
else
  fail "the report does not show the failing window"
fi
# Without WaveDrom the diagram does not render: the same checks must reject it.
cp -r "$report" "$work/nodiagram"
rm -r "$work/nodiagram/wavedrom"
if check_report "$work/nodiagram" nodiagram >"$work/nodiagram.txt"; then
  fail "a report without the rendered diagram passed the checks"
else
  echo "rejected as expected (a report without the diagram): $(head -n 1 "$work/nodiagram.txt")"
fi

# The reproducing command of the report fails again, at the same cycle.
line=$(grep -m1 '^verify: re-running rta_ring_n8 alone: ' "$work/out.txt")
read -r -a cmd <<<"${line#verify: re-running rta_ring_n8 alone: }"
again=$(cd "$src" && "${cmd[@]}" 2>&1)
pinet_verdict check --kind FAIL --block rta_ring --cycle "$fault" --signal 'l_o\[0\]' --seed 3 \
  <<<"$again" 2>/dev/null ||
  fail "the reproducing command: ${cmd[*]}: $again"

[ -n "${PINET_KEEP_REPORT_SHOT:-}" ] && cp "$work/good.png" "$work/good.dom.html" "$PINET_KEEP_REPORT_SHOT"
if [ $fails -gt 0 ]; then
  echo "test_verify_report: $fails check(s) failed (verify output: $(tail -3 "$work/out.txt"))"
  exit 1
fi
echo "test_verify_report: all checks passed"
