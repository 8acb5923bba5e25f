#!/usr/bin/env bash
# check_fault_injection.sh - the RTA cosims must fail loudly and correctly.
#
# usage: check_fault_injection.sh <cosim_rta_ring> <cosim_rta_torus2d> <cosim_rta_bitmap_ctrl>
#                                 <cosim_rta_system>
#
# For each harness, a short run with the hidden option --inject-fault F (bit 0 of the first value
# compared in cycle F is flipped on the expected side) must
#   - exit with status 1,
#   - print exactly one line on stdout, in the exact format
#     "FAIL <block> cycle F <signal> DUT 0x<hex> expected 0x<hex> seed <s>", with the signal the
#     harness compares first and DUT xor expected == 1,
#   - leave the --wave file behind, readable by fst2vcd (when installed), whose last timestamp is
#     the failing cycle (combinational harnesses: 2F; clocked ones dump the failing cycle's two
#     clock edges: 2F + 2).
# The same run without the fault must PASS with every cycle matched (so the FAIL above is the
# injected one), a size the executable lacks must be a usage error (status 2), and --help must
# not mention the hidden option.
set -u
ring=$1 torus=$2 ctrl=$3 system=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() {
  echo "check_fault_injection: $*" >&2
  failures=$((failures + 1))
}

# expect_fault <name> <block> <signal regex> <last wave time> <exe> <args...>
expect_fault() {
  local name=$1 block=$2 signal=$3 last_time=$4 exe=$5
  shift 5
  local cycles=3000 fault=1234 seed=7
  local wave=$tmp/$name.fst out rc
  out=$("$exe" "$@" --cycles $cycles --seed $seed --inject-fault $fault --wave "$wave" --quiet 2>"$tmp/$name.err")
  rc=$?
  [ "$rc" -eq 1 ] || fail "$name: exit status $rc, expected 1 (stderr: $(cat "$tmp/$name.err"))"
  local lines
  lines=$(printf '%s\n' "$out" | grep -c '')
  [ "$lines" -eq 1 ] || fail "$name: $lines lines on stdout, expected exactly one: $out"
  local re="^FAIL $block cycle $fault $signal DUT 0x([0-9a-f]+) expected 0x([0-9a-f]+) seed $seed\$"
  if [[ $out =~ $re ]]; then
    local dut=$((16#${BASH_REMATCH[1]})) exp=$((16#${BASH_REMATCH[2]}))
    [ $((dut ^ exp)) -eq 1 ] || fail "$name: DUT and expected differ in more than the injected bit: $out"
  else
    fail "$name: output does not match '$re': $out"
  fi
  if [ ! -s "$wave" ]; then
    fail "$name: wave file $wave missing or empty after the failure"
  elif command -v fst2vcd >/dev/null 2>&1; then
    local last
    last=$(fst2vcd "$wave" 2>/dev/null | grep '^#[0-9]' | tail -n 1)
    [ "$last" = "#$last_time" ] || fail "$name: last wave timestamp '$last', expected #$last_time"
  fi
  out=$("$exe" "$@" --cycles $cycles --seed $seed --quiet 2>&1)
  rc=$?
  [ "$rc" -eq 0 ] && [ "$out" = "PASS $block matched $cycles cycles seed $seed" ] ||
    fail "$name: the run without the fault did not pass cleanly (status $rc): $out"
}

expect_fault ring rta_ring 'l_o\[0\]' 2468 "$ring" --pes 8
expect_fault torus rta_torus2d 'l_o\[0\]' 2468 "$torus" --side 4
expect_fault ctrl rta_bitmap_ctrl 'bitmap_o\[0\]' 2470 "$ctrl" --dim 1 --side 8
expect_fault system rta_system 'bitmap_o\[0\]' 2470 "$system" --dim 2 --side 4

# Sizes the executables do not contain, and malformed options: usage errors (status 2).
usage() {
  local name=$1
  shift
  local err rc
  err=$("$@" --cycles 10 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq 2 ] || fail "$name: exit status $rc for a bad option, expected 2"
  [[ $err == cosim\ * ]] || fail "$name: no usage message on stderr: $err"
}
usage "ring --pes 32" "$ring" --pes 32
usage "ring --compare 2" "$ring" --pes 8 --compare 2
usage "torus --side 32" "$torus" --side 32
usage "ctrl --dim 2 --side 256" "$ctrl" --dim 2 --side 256
usage "ctrl --dim 3" "$ctrl" --dim 3 --side 8
usage "system --side 16" "$system" --dim 1 --side 16
usage "ring --inject-fault x" "$ring" --pes 8 --inject-fault x

for exe in "$ring" "$torus" "$ctrl" "$system"; do
  if "$exe" --help | grep -q inject; then fail "$exe --help shows the hidden fault option"; fi
done

if [ "$failures" -ne 0 ]; then
  echo "check_fault_injection: $failures check(s) failed" >&2
  exit 1
fi
echo "check_fault_injection: all checks passed"
