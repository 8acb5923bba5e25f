#!/usr/bin/env bash
# check_param_ranges_faults.sh <src> <build> <verilator> <ctest>
# check_param_ranges.py can fail: each fault below must be reported with its line and exit 1.
#   1. the table widens rta_ring's N to 8192 (no RTL check says so, and no run covers it);
#   2. a copy of rtl/ whose ps_router accepts N up to 512 (the table says 256);
#   3. the table names a run that does not exist as the high end of rta_torus2d's Side;
#   4. a copy of rtl/ whose rta_system1d accepts Width up to 64 (its guard, a
#      `PINET_PARAM_RANGE_ERROR of rtl/pinet_param.svh, says so; the table says 32).
# Each fault's check looks at the mutated module's rows only (--only): the others are
# lint_param_ranges's.
set -uo pipefail
src=$1 build=$2 verilator=$3 ctest=$4
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
check() {  # check <what> <expected line regex> <extra args...>
  local what=$1 want=$2 out rc
  shift 2
  out=$(python3 "$src/tests/lint/check_param_ranges.py" --src "$src" --build "$build" \
        --verilator "$verilator" --ctest "$ctest" "$@" 2>&1)
  rc=$?
  if [ $rc -ne 1 ] || ! grep -Eq "$want" <<<"$out"; then
    echo "FAIL param-ranges faults: $what: exit $rc, expected 1 and a line matching '$want'; got:"
    echo "$out" | head -5
    exit 1
  fi
  echo "ok: $what: $(grep -E "$want" <<<"$out" | head -1)"
}
sed 's/| rta_ring | N | | a power of two in \[4, 4096\] |/| rta_ring | N | | a power of two in [4, 8192] |/' \
  "$src/docs/verification.md" >"$tmp/wide.md"
check "a range widened in the table" "table says rta_ring N accepts 'a power of two in \[4, 8192\]'" \
  --table "$tmp/wide.md" --only rta_ring
mkdir "$tmp/rtl"
cp "$src"/rtl/*.sv "$src"/rtl/*.svh "$tmp/rtl/"
sed -i 's/N > 256 ||/N > 512 ||/; s/a power of two in \[2, 256\]/a power of two in [2, 512]/' \
  "$tmp/rtl/ps_router.sv"
check "a range widened in the RTL" "the RTL checks ps_router N in 'a power of two in \[2, 512\]'" \
  --rtl "$tmp/rtl" --only ps_router
sed 's/| run `rta_torus2d_s128` |/| run `rta_torus2d_s256` |/' "$src/docs/verification.md" >"$tmp/norun.md"
check "a covering run that does not exist" "rta_torus2d Side: high end: no run rta_torus2d_s256" \
  --table "$tmp/norun.md" --only rta_torus2d
sed -i 's/Width > 32) begin : g_bad_width/Width > 64) begin : g_bad_width/
        s/\(rta_system1d: Width outside its verified range: \[16, \)32\]/\164]/' \
  "$tmp/rtl/rta_system1d.sv"
grep -q 'PINET_PARAM_RANGE_ERROR("rta_system1d: Width outside its verified range: \[16, 64\]")' \
  "$tmp/rtl/rta_system1d.sv" || { echo "FAIL param-ranges faults: the rta_system1d guard was not widened"; exit 1; }
check "a range widened in a guard macro" "the RTL checks rta_system1d Width in '\[16, 64\]'" \
  --rtl "$tmp/rtl" --only rta_system1d
echo "param-ranges faults: all 4 reported"
