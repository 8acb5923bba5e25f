# fault_injection.sh - sourced by cosim/<family>/check_fault_injection.sh: the checks that make a
# cosim prove it fails loudly and correctly. Not executable on its own.
#
#   expect_fault <name> <block> <signal regex> <last wave time> <pass cycles regex> <exe> <args...>
#     A run with the hidden option --inject-fault F (the harness flips bit 0 of the first value
#     it compares in cycle F, on the expected side) must exit with status 1, print exactly one
#     line "FAIL <block> cycle F <signal> DUT 0x<a> expected 0x<b> seed <s>" with a xor b == 1,
#     and leave its --wave file, whose last timestamp (read with fst2vcd when installed) is
#     <last wave time>. The same run without the fault must print
#     "PASS <block> matched <pass cycles> cycles seed <s>" with status 0, so that the FAIL above is
#     the injected one.
#   expect_usage <name> <exe> <args...>
#     A bad option (unknown, malformed, not one of its choices): status 2 and one "cosim ..." line
#     on stderr.
#   expect_invalid <name> <exe> <args...>
#     A request the harness cannot run (a size not built, a value out of range, too large for a
#     memory): status 3 and one "cosim ..." line on stderr. (Exit codes: docs/exit_codes.md.)
#   expect_hidden_option <exe...>
#     --help does not mention the hidden option.
#   finish
#     Exit 1 with a count if any check failed, else print that all passed.
set -u
# shellcheck source=scripts/verdict.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/verdict.sh"
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1
fi_tmp=$(mktemp -d)
trap 'rm -rf "$fi_tmp"' EXIT
fi_failures=0
fi_fault_cycle=1234
fi_seed=7

fail() {
  echo "check_fault_injection: $*" >&2
  fi_failures=$((fi_failures + 1))
}

expect_fault() {
  local name=$1 block=$2 signal=$3 last_time=$4 pass_cycles=$5 exe=$6
  shift 6
  local wave=$fi_tmp/$name.fst out rc lines
  out=$("$exe" "$@" --seed $fi_seed --inject-fault $fi_fault_cycle --wave "$wave" --quiet \
          2>"$fi_tmp/$name.err")
  rc=$?
  [ "$rc" -eq 1 ] || fail "$name: exit status $rc, expected 1 (stderr: $(cat "$fi_tmp/$name.err"))"
  lines=$(printf '%s\n' "$out" | grep -c '')
  [ "$lines" -eq 1 ] || fail "$name: $lines lines on stdout, expected exactly one: $out"
  local want="FAIL $block cycle $fi_fault_cycle $signal DUT 0x<a> expected 0x<b> seed $fi_seed"
  local f
  if pinet_verdict check --kind FAIL --block "$block" --cycle $fi_fault_cycle --signal "$signal" \
       --seed $fi_seed <<<"$out" 2>/dev/null &&
     IFS=$'\t' read -r -a f < <(pinet_verdict fields <<<"$out"); then
    local dut=$((16#${f[5]})) exp=$((16#${f[6]}))
    [ $((dut ^ exp)) -eq 1 ] ||
      fail "$name: DUT and expected differ in more than the injected bit: $out"
  else
    fail "$name: output is not '$want': $out"
  fi
  if [ ! -s "$wave" ]; then
    fail "$name: wave file $wave missing or empty after the failure"
  elif command -v fst2vcd >/dev/null 2>&1; then
    local last
    last=$(fst2vcd "$wave" 2>/dev/null | grep '^#[0-9]' | tail -n 1)
    [ "$last" = "#$last_time" ] || fail "$name: last wave timestamp '$last', expected #$last_time"
  fi
  out=$("$exe" "$@" --seed $fi_seed --quiet 2>&1)
  rc=$?
  [ "$rc" -eq 0 ] && pinet_verdict check --kind PASS --block "$block" --seed $fi_seed --only \
    <<<"$out" 2>/dev/null && IFS=$'\t' read -r -a f < <(pinet_verdict fields <<<"$out") &&
    [[ ${f[2]} =~ ^($pass_cycles)$ ]] ||
    fail "$name: the run without the fault did not pass cleanly (status $rc): $out"
}

expect_status() {
  local want=$1 name=$2
  shift 2
  local err rc
  err=$("$@" --cycles 10 2>&1 >/dev/null)
  rc=$?
  [ "$rc" -eq "$want" ] || fail "$name: exit status $rc, expected $want (stderr: $err)"
  [[ $err == cosim\ * ]] || fail "$name: no \"cosim ...\" message on stderr: $err"
  [ "$(printf '%s\n' "$err" | grep -c '')" -eq 1 ] || fail "$name: more than one stderr line: $err"
}
expect_usage() { expect_status 2 "$@"; }
expect_invalid() { expect_status 3 "$@"; }

expect_hidden_option() {
  local exe
  for exe in "$@"; do
    if "$exe" --help | grep -q inject; then fail "$exe --help shows the hidden fault option"; fi
  done
}

finish() {
  if [ "$fi_failures" -ne 0 ]; then
    echo "check_fault_injection: $fi_failures check(s) failed" >&2
    exit 1
  fi
  echo "check_fault_injection: all checks passed"
}
