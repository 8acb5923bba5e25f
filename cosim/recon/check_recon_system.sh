#!/usr/bin/env bash
# check_recon_system.sh - what cosim_recon_system promises beyond its PASS line (docs/system.md):
#   - its --out is byte-identical to `pinet recon fbp --phantom shepp-logan ... --pes N --fixed
#     --out` (an independent program: the C model's parallel FBP, no RTL), for N = 2, 4, 8, 16 and
#     in .f32, .hv and .png form; its JSON has the contract's keys and a phase per step;
#   - a word flipped in one router's memory mid-run (hidden --inject-mem-fault) fails the run
#     with the cycle, the signal and the seed, and the image checks fail too (stdout and JSON),
#     and no --out is written; the shared busy_o fault (--inject-fault) as for every cosim;
#   - bad input (N not a power of two or not built, views < N, an image too large for the
#     routers' memories, an unknown --algo) exits 2 with one "cosim recon_system" line.
# usage: check_recon_system.sh <cosim_recon_system> <pinet>
cosim=$1 pinet=$2
# shellcheck source=../common/fault_injection.sh
. "$(dirname "$0")/../common/fault_injection.sh"
tmp=$fi_tmp

# ---- the image equals the C model's, byte for byte ---------------------------------------------
for n in 2 4 8 16; do
  for ext in f32 hv png; do
    size=32 views=32
    [ "$n" -eq 16 ] && views=48  # views not a multiple of N: the last PE has fewer
    mkdir -p "$tmp/rtl" "$tmp/cli"  # the same file names: an Interfile header names its data file
    out=$("$cosim" --algo fbp --pes $n --size $size --views $views --out "$tmp/rtl/img.$ext" \
            --json "$tmp/rtl.json" --quiet 2>&1)
    [[ $out == "PASS recon_system matched "* ]] || fail "N=$n .$ext: $out"
    "$pinet" recon fbp --phantom shepp-logan --views $views --size $size --pes $n --fixed \
      --out "$tmp/cli/img.$ext" --json >"$tmp/cli.json" || fail "N=$n: pinet recon fbp failed"
    cmp -s "$tmp/rtl/img.$ext" "$tmp/cli/img.$ext" || fail "N=$n: --out .$ext differs from pinet recon fbp"
    if [ "$ext" = hv ]; then
      cmp -s "$tmp/rtl/img.v" "$tmp/cli/img.v" || fail "N=$n: the .v data differs from pinet recon fbp"
    fi
  done
  python3 - "$tmp/rtl.json" "$tmp/cli.json" "$n" <<'PY' || fail "N=$n: JSON"
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
done

# ---- a flipped word in a router's memory -------------------------------------------------------
rm -f "$tmp/fault.f32"
out=$("$cosim" --algo fbp --pes 4 --size 32 --views 32 --seed 7 --inject-mem-fault \
        --out "$tmp/fault.f32" --json "$tmp/fault.json" --wave "$tmp/fault.fst" 2>&1)
rc=$?
[ $rc -eq 1 ] || fail "mem fault: exit $rc, expected 1"
last=$(printf '%s\n' "$out" | tail -n 1)
[[ $last =~ ^FAIL\ recon_system\ cycle\ [0-9]+\ (ch\[[0-9]+\]:[0-9]+-\>[0-9]+\.data|pe\[[0-9]+\]\.mem\[[0-9]+\])\ DUT\ 0x[0-9a-f]+\ expected\ 0x[0-9a-f]+\ seed\ 7$ ]] ||
  fail "mem fault: last line '$last'"
grep -q "image: DIFFERS FROM pinet_fbp_parallel --fixed, DIFFERS FROM the sequential" <<<"$out" ||
  fail "mem fault: the image checks did not fail: $out"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); assert j["result"]=="FAIL" and not j["image_equals_parallel"] and not j["image_equals_sequential"]' \
  "$tmp/fault.json" || fail "mem fault: JSON does not report the failed image checks"
[ ! -e "$tmp/fault.f32" ] || fail "mem fault: --out written by a failing run"
[ -s "$tmp/fault.fst" ] || fail "mem fault: no wave kept"

expect_fault recon_system_busy recon_system busy_o 12340000 '[0-9]+' "$cosim" --algo fbp --pes 4 \
  --size 32 --views 32

# ---- bad input ----------------------------------------------------------------------------------
expect_usage "--pes 3" "$cosim" --algo fbp --pes 3
expect_usage "--pes 32 (not built)" "$cosim" --algo fbp --pes 32
expect_usage "--views 4 < N" "$cosim" --algo fbp --pes 8 --views 4
expect_usage "--size 256 (memory)" "$cosim" --algo fbp --pes 8 --size 256 --views 256
expect_usage "--algo nope" "$cosim" --algo nope
expect_usage "no --algo" "$cosim" --pes 4
expect_usage "--bogus" "$cosim" --algo fbp --bogus 1
expect_hidden_option "$cosim"
finish
