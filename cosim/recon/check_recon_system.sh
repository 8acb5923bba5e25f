#!/usr/bin/env bash
# check_recon_system.sh - what cosim_recon_system promises beyond its PASS line (docs/system.md):
#   - its --out is byte-identical to `pinet recon fbp|em --phantom shepp-logan ... --pes N
#     --fixed --out` (an independent program: the C model's parallel FBP / EM, no RTL), for
#     N = 2, 4, 8, 16 and in .f32, .hv and .png form; its JSON has the contract's keys, a phase
#     per step, and every collective at the cycle count of the RTL's contract;
#   - a word flipped in one router's memory mid-run (hidden --inject-mem-fault) fails the run
#     with the cycle, the signal and the seed, and the image checks fail too (stdout and JSON),
#     and no --out is written (FBP and EM); the shared busy_o fault (--inject-fault) as for
#     every cosim;
#   - bad input exits with one "cosim recon_system" line: 3 for a request the system cannot run
#     (N not a power of two or not built, views < N, an image too large for the routers'
#     memories), 2 for a bad option (an unknown --algo, --iters without em); docs/exit_codes.md.
#   With --corners (a build with PINET_LONG_TESTS): only the PET paper's corners, 32 PEs, FBP
#   512 x 512 with 512 views and EM 256 x 256 with 256 views and 10 iterations, byte-identical to
#   `pinet recon ... --pes 32 --fixed` and their JSON checked as above.
# usage: check_recon_system.sh <cosim_recon_system> <pinet> [--corners]
cosim=$1 pinet=$2
# shellcheck source=../common/fault_injection.sh
. "$(dirname "$0")/../common/fault_injection.sh"
tmp=$fi_tmp

# same_image ALGO N EXT SIZE VIEWS [--iters K]: the cosim's --out and `pinet recon ALGO ... --fixed
# --out` under the same file name (an Interfile header names its data file) are byte-identical;
# both JSON documents are left in $tmp/rtl.json and $tmp/cli.json.
same_image() {
  local algo=$1 n=$2 ext=$3 size=$4 views=$5
  shift 5
  mkdir -p "$tmp/rtl" "$tmp/cli"
  local out
  out=$("$cosim" --algo "$algo" --pes "$n" --size "$size" --views "$views" "$@" \
          --out "$tmp/rtl/img.$ext" --json "$tmp/rtl.json" --quiet 2>&1)
  pinet_verdict check --kind PASS --block recon_system <<<"$out" 2>/dev/null ||
    fail "$algo N=$n .$ext: $out"
  "$pinet" recon "$algo" --phantom shepp-logan --views "$views" --size "$size" --pes "$n" "$@" \
    --fixed --out "$tmp/cli/img.$ext" --json >"$tmp/cli.json" || fail "$algo N=$n: pinet failed"
  cmp -s "$tmp/rtl/img.$ext" "$tmp/cli/img.$ext" ||
    fail "$algo N=$n: --out .$ext differs from pinet recon $algo"
  if [ "$ext" = hv ]; then
    cmp -s "$tmp/rtl/img.v" "$tmp/cli/img.v" ||
      fail "$algo N=$n: the .v data differs from pinet recon $algo"
  fi
}

# fbp_json N: the FBP run's JSON (in $tmp, from same_image) against the contract and pinet's.
fbp_json() {
  local n=$1
  python3 - "$tmp/rtl.json" "$tmp/cli.json" "$n" <<'PY' || fail "FBP N=$n: JSON"
import json, sys
j, c, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3])
keys = ["algo", "pes", "size", "views", "iters", "cycles_total", "cycles_compute", "phases",
        "efficiency_measured", "efficiency_model", "rmse"]
assert all(k in j for k in keys), [k for k in keys if k not in j]
assert j["pes"] == n and j["algo"] == "fbp" and j["result"] == "PASS"
assert j["image_equals_parallel"] and j["image_equals_sequential"]
names = [p["name"] for p in j["phases"]]
assert names == ["scatter", "bcast_host", "load", "compute", "store", "integrate", "allgather",
                 "upload"], names
assert j["cycles_total"] == sum(p["cycles"] for p in j["phases"])
assert abs(j["rmse"] - c["rmse"]) < 1e-12, (j["rmse"], c["rmse"])  # same image, same rmse
# integrate and allgather at the contract's n + (1 - 1/N) M cycles (docs/shuffle.md 4), plus
# the command's two handshake cycles; M = the image words
m = -(-j["size"] ** 2 // n) * n
logn = n.bit_length() - 1
for name in ("integrate", "allgather"):
    cyc = [p for p in j["phases"] if p["name"] == name][0]["cycles"]
    assert cyc == logn + (m - m // n) + 2, (name, cyc, logn + m - m // n + 2)
PY
}

# em_json N ITERS: the EM run's JSON (in $tmp, from same_image) against the contract and pinet's.
em_json() {
  local n=$1 iters=$2
  python3 - "$tmp/rtl.json" "$tmp/cli.json" "$n" "$iters" <<'PY' || fail "EM N=$n: JSON"
import json, sys
j, c, n, iters = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), int(sys.argv[3]), int(sys.argv[4])
keys = ["algo", "pes", "size", "views", "iters", "cycles_total", "cycles_compute", "phases",
        "efficiency_measured", "efficiency_model", "rmse"]
assert all(k in j for k in keys), [k for k in keys if k not in j]
assert j["pes"] == n and j["algo"] == "em" and j["iters"] == iters and j["result"] == "PASS"
assert j["image_equals_parallel"] and j["image_equals_sequential"]
assert j["tubes"] == c["tubes"] and j["boxes"] == c["boxes"], (j["tubes"], c["tubes"])
names = [p["name"] for p in j["phases"]]
assert names == ["bcast_host", "load", "compute", "store", "integrate", "allgather",
                 "ring_exchange", "integrate_image", "upload"], names
assert j["cycles_total"] == sum(p["cycles"] for p in j["phases"])
assert abs(j["rmse"] - c["rmse"]) < 1e-12, (j["rmse"], c["rmse"])
# every collective at the contract's cycle count (docs/shuffle.md 4) plus the command's two
# handshake cycles, K times per iteration: integrate n + (1 - 1/N) M over M = the padded tubes,
# allgather over 2 M (the factors as doubles), the ring exchange 1 step of 1 word; then the
# image (2 words per box) integrated once
k, logn = j["iters"], n.bit_length() - 1
tpad, bpad = -(-j["tubes"] // n) * n, -(-j["boxes"] // n) * n
cyc = {p["name"]: p["cycles"] for p in j["phases"]}
words = {p["name"]: p["words"] for p in j["phases"]}
assert cyc["integrate"] == k * (logn + tpad - tpad // n + 2), cyc["integrate"]
assert cyc["allgather"] == k * (logn + 2 * (tpad - tpad // n) + 2), cyc["allgather"]
assert cyc["ring_exchange"] == k * (1 + 1 + 2), cyc["ring_exchange"]
assert cyc["integrate_image"] == logn + 2 * (bpad - bpad // n) + 2, cyc["integrate_image"]
# the ring exchange: 2 words per PE (one each way) per iteration, on 2N channels
assert words["ring_exchange"] == k * 2 * n, words["ring_exchange"]
PY
}

# ---- --corners: the PET paper's largest runs (Table 2: 32 PEs), built with PINET_LONG_TESTS --
if [ "${3:-}" = --corners ]; then
  same_image fbp 32 f32 512 512
  fbp_json 32
  same_image em 32 f32 256 256 --iters 10
  em_json 32 10
  finish
  exit
fi

# ---- the image equals the C model's, byte for byte ---------------------------------------------
for n in 2 4 8 16; do
  for ext in f32 hv png; do
    views=32
    [ "$n" -eq 16 ] && views=48  # views not a multiple of N: the last PE has fewer
    same_image fbp "$n" "$ext" 32 "$views"
  done
  fbp_json "$n"
done

# ---- EM: the image equals the C model's, byte for byte ------------------------------------------
for n in 2 4 8 16; do
  for ext in f32 hv png; do
    same_image em "$n" "$ext" 32 32 --iters 3
  done
  em_json "$n" 3
done

# ---- a flipped word in a router's memory -------------------------------------------------------
for algo in fbp em; do
  rm -f "$tmp/fault.f32"
  out=$("$cosim" --algo $algo --pes 4 --size 32 --views 32 --seed 7 --inject-mem-fault \
          --out "$tmp/fault.f32" --json "$tmp/fault.json" --wave "$tmp/fault.fst" 2>&1)
  rc=$?
  [ $rc -eq 1 ] || fail "$algo mem fault: exit $rc, expected 1"
  last=$(printf '%s\n' "$out" | tail -n 1)
  pinet_verdict check --kind FAIL --block recon_system --seed 7 --only \
    --signal '(ch\[[0-9]+\]:[0-9]+->[0-9]+\.data|pe\[[0-9]+\]\.mem\[[0-9]+\])' <<<"$last" 2>/dev/null ||
    fail "$algo mem fault: last line '$last'"
  grep -q "image: DIFFERS FROM pinet_${algo}_parallel --fixed, DIFFERS FROM the sequential" <<<"$out" ||
    fail "$algo mem fault: the image checks did not fail: $out"
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["result"]=="FAIL" and not j["image_equals_parallel"] and not j["image_equals_sequential"]' \
    "$tmp/fault.json" || fail "$algo mem fault: JSON does not report the failed image checks"
  [ ! -e "$tmp/fault.f32" ] || fail "$algo mem fault: --out written by a failing run"
  [ -s "$tmp/fault.fst" ] || fail "$algo mem fault: no wave kept"
done

expect_fault recon_system_busy recon_system busy_o 12340000 '[0-9]+' "$cosim" --algo fbp --pes 4 \
  --size 32 --views 32

# ---- bad input ----------------------------------------------------------------------------------
expect_invalid "--pes 3" "$cosim" --algo fbp --pes 3
expect_invalid "--pes 64 (not built)" "$cosim" --algo fbp --pes 64
expect_invalid "--views 4 < N" "$cosim" --algo fbp --pes 8 --views 4
expect_invalid "--size 256 (memory)" "$cosim" --algo fbp --pes 8 --size 256 --views 256
expect_usage "--algo nope" "$cosim" --algo nope
expect_usage "no --algo" "$cosim" --pes 4
expect_usage "--bogus" "$cosim" --algo fbp --bogus 1
expect_usage "--iters with fbp" "$cosim" --algo fbp --iters 3
expect_invalid "em --iters 1001" "$cosim" --algo em --iters 1001
expect_invalid "em --size 256 (memory)" "$cosim" --algo em --pes 8 --size 256 --views 256
expect_invalid "em --pes 3" "$cosim" --algo em --pes 3 --iters 2
expect_hidden_option "$cosim"
finish
