#!/usr/bin/env bash
# test_verify_rtl.sh - `scripts/verify.sh --rtl DIR` verifies another RTL: DIR holds a copy of
# one module with a deliberate bug (rta_switch's OFF pairing of terminal 4), and the runs that
# use that module fail while a run that does not (the bitmap controller's) passes, exit 1; the
# unchanged copy passes, exit 0; a module with a renamed port is refused before any build with
# one line naming the port, exit 3.
# Usage: bash test_verify_rtl.sh SOURCE_DIR WORK_BUILD_DIR
set -uo pipefail
src=$1 build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
verify() { bash "$src/scripts/verify.sh" --no-deps --build "$build" --waves "$work/w" "$@"; }
only='^(rta_switch|rta_bitmap_ctrl_d1_s8)$'

# 1. the buggy switch: its run fails, the controller's passes
mkdir -p "$work/bug"
sed 's/assign t4_o = (t3_i \& on_m) | (t2_i \& off_m);/assign t4_o = (t3_i \& on_m) | (t1_i \& off_m);/' \
  "$src/rtl/rta_switch.sv" >"$work/bug/rta_switch.sv"
cmp -s "$src/rtl/rta_switch.sv" "$work/bug/rta_switch.sv" && fail "the sed changed nothing"
rc=0
verify --rtl "$work/bug" --only "$only" >"$work/out1.txt" 2>&1 || rc=$?
[ $rc -eq 1 ] || fail "a buggy rta_switch: exit $rc, expected 1: $(tail -5 "$work/out1.txt")"
grep -qE '^rta_switch .* FAIL ' "$work/w/summary.txt" || fail "the rta_switch run did not fail"
grep -qE '^rta_bitmap_ctrl_d1_s8 .* PASS ' "$work/w/summary.txt" ||
  fail "the controller's run (no switch in it) did not pass"
grep -q '^verify: RTL from .*: rta_switch.sv; the rest from rtl/' "$work/out1.txt" ||
  fail "no line naming the replaced file"

# 2. the same module unchanged: both pass
cp "$src/rtl/rta_switch.sv" "$work/bug/rta_switch.sv"
rc=0
verify --rtl "$work/bug" --only "$only" >"$work/out2.txt" 2>&1 || rc=$?
[ $rc -eq 0 ] || fail "an unchanged copy: exit $rc: $(tail -5 "$work/out2.txt")"

# 3. a renamed port: refused before building, naming it
mkdir -p "$work/port"
sed 's/output logic \[Width-1:0\] t4_o/output logic [Width-1:0] t4_out/' \
  "$src/rtl/rta_switch.sv" >"$work/port/rta_switch.sv"
rc=0
verify --rtl "$work/port" --only "$only" >"$work/out3.txt" 2>"$work/err3.txt" || rc=$?
[ $rc -eq 3 ] || fail "a renamed port: exit $rc, expected 3"
head -n 1 "$work/err3.txt" | grep -q "rta_switch.sv: module rta_switch: port 't4_o' missing" ||
  fail "a renamed port: first error line '$(head -n 1 "$work/err3.txt")' should name t4_o"

if [ $fails -ne 0 ]; then
  echo "test_verify_rtl: $fails failure(s)"
  exit 1
fi
echo "test_verify_rtl: ok"
