#!/usr/bin/env bash
# check_exit_codes.sh - what every cosim executable promises about its exit status and stderr
# (docs/exit_codes.md), run briefly on each:
#   - no SystemC copyright banner on stderr ("SystemC" / "Copyright" lines) when the caller has
#     not set SYSTEMC_DISABLE_COPYRIGHT_MESSAGE (run with env -u): the harness turns it off;
#   - an unwritable --wave (and, for cosim_recon_system, --out, --png, --json): exit 4 and one
#     line on stderr, before anything is written;
#   - an unknown option, a wave window without --wave or backwards, a window in a SystemC harness:
#     exit 2 and one line on stderr;
#   - --wave-from 40 --wave-to 50: the wave holds only those cycles' times (80 .. 101);
#   - --wave-scope top:1: the wave declares only the top level's signals; --wave-scope without
#     --wave, or with 0 levels: exit 2.
# usage: check_exit_codes.sh <cosim executable>...
set -u
[ $# -ge 1 ] || { echo "usage: $0 <cosim executable>..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0 checks=0 systemc=0
fail() {
  echo "check_exit_codes: $*" >&2
  failures=$((failures + 1))
}

# The scopes (dotted) that declare the variables of a VCD on stdin, one per line, sorted.
vcd_var_scopes='
import sys
stack, seen = [], set()
for line in sys.stdin:
    w = line.split()
    if w[:1] == ["$scope"]: stack.append(w[2])
    elif w[:1] == ["$upscope"]: stack.pop()
    elif w[:1] == ["$var"]: seen.add(".".join(stack))
    elif w[:1] == ["$enddefinitions"]: break
print("\n".join(sorted(seen)))'

# The arguments a brief run of each executable needs (its required options, a small size).
base_args() {
  case $(basename "$1") in
    cosim_recon_system) echo "--algo fbp --pes 2 --size 8 --views 8" ;;
    *) echo "" ;;
  esac
}

# expect STATUS NAME EXE ARGS...: exit STATUS, exactly one stderr line starting "cosim ".
expect() {
  local want=$1 name=$2
  shift 2
  local err rc lines
  checks=$((checks + 1))
  err=$(env -u SYSTEMC_DISABLE_COPYRIGHT_MESSAGE "$@" --quiet 2>&1 >/dev/null)
  rc=$?
  lines=$(printf '%s\n' "$err" | grep -c '')
  [ "$rc" -eq "$want" ] || fail "$name: exit status $rc, expected $want (stderr: $err)"
  [ "$lines" -eq 1 ] && [[ $err == cosim\ * ]] ||
    fail "$name: $lines stderr line(s), expected one \"cosim ...\" line: $err"
}

for exe in "$@"; do
  name=$(basename "$exe")
  [ -x "$exe" ] || { fail "$exe is not an executable"; continue; }
  read -r -a args <<<"$(base_args "$exe")"
  sc=0
  if ldd "$exe" 2>/dev/null | grep -q libsystemc; then
    sc=1 systemc=$((systemc + 1))
  fi
  # A short run (it may FAIL on its --cycles budget: only stderr matters here).
  checks=$((checks + 1))
  env -u SYSTEMC_DISABLE_COPYRIGHT_MESSAGE "$exe" "${args[@]}" --cycles 20 --quiet \
    >/dev/null 2>"$tmp/$name.err"
  if grep -Eq 'SystemC|Copyright' "$tmp/$name.err"; then
    fail "$name: the SystemC banner on stderr without SYSTEMC_DISABLE_COPYRIGHT_MESSAGE: $(head -c 300 "$tmp/$name.err")"
  fi
  expect 4 "$name --wave /nonexistent/x.fst" "$exe" "${args[@]}" --wave /nonexistent/x.fst
  expect 4 "$name --wave <a directory>" "$exe" "${args[@]}" --wave "$tmp"
  expect 2 "$name --no-such-option 1" "$exe" "${args[@]}" --no-such-option 1
  expect 2 "$name --wave-to 5 (without --wave)" "$exe" "${args[@]}" --wave-to 5
  if [ $sc -eq 1 ]; then
    expect 2 "$name --wave-from 5 (SystemC: no window)" "$exe" "${args[@]}" --wave "$tmp/w.fst" --wave-from 5
  else
    expect 2 "$name --wave-from 9 --wave-to 5" "$exe" "${args[@]}" --wave "$tmp/w.fst" --wave-from 9 --wave-to 5
  fi
  # The window: only times of cycles 40 .. 50 (2c, 2c + 1) are in the wave (not in the SystemC
  # harnesses, nor in cosim_assert_faults, whose models fail on purpose in their first cycles).
  if [ $sc -eq 0 ] && [ "$name" != cosim_assert_faults ]; then
    checks=$((checks + 1))
    "$exe" "${args[@]}" --cycles 100 --quiet --wave "$tmp/win.fst" --wave-from 40 --wave-to 50 \
      >/dev/null 2>&1
    times=$(fst2vcd -f "$tmp/win.fst" 2>/dev/null | sed -n 's/^#\([0-9]*\)$/\1/p' | sort -n)
    first=$(head -1 <<<"$times") last=$(tail -1 <<<"$times")
    if [ -z "$times" ] || [ "$first" -lt 80 ] || [ "$last" -gt 101 ]; then
      fail "$name --wave-from 40 --wave-to 50: the wave's times are ${first:-none} .. ${last:-none}, expected within 80 .. 101"
    fi
    rm -f "$tmp/win.fst" "$tmp/w.fst"
    # --wave-scope top:1: the wave declares the top level's signals only (and some).
    checks=$((checks + 1))
    "$exe" "${args[@]}" --cycles 20 --quiet --wave "$tmp/scope.fst" --wave-scope top:1 >/dev/null 2>&1
    scopes=$(fst2vcd -f "$tmp/scope.fst" 2>/dev/null | python3 -c "$vcd_var_scopes")
    [ "$scopes" = top ] ||
      fail "$name --wave-scope top:1: the wave's signals are in the scopes '${scopes//$'\n'/ }', expected only top"
    rm -f "$tmp/scope.fst"
    if [ "$name" = cosim_rta_torus2d ]; then
      # A ring window: one row ring of the torus and nothing else.
      checks=$((checks + 1))
      "$exe" "${args[@]}" --cycles 20 --quiet --wave "$tmp/scope.fst" \
        --wave-scope 'top.rta_torus2d.g_row[1]' >/dev/null 2>&1
      scopes=$(fst2vcd -f "$tmp/scope.fst" 2>/dev/null | python3 -c "$vcd_var_scopes")
      if [ -z "$scopes" ] || grep -qv '^top\.rta_torus2d\.g_row\[1\]' <<<"$scopes"; then
        fail "$name --wave-scope top.rta_torus2d.g_row[1]: the wave's scopes are '${scopes//$'\n'/ }'"
      fi
      rm -f "$tmp/scope.fst"
    fi
  fi
  expect 2 "$name --wave-scope (without --wave)" "$exe" "${args[@]}" --wave-scope top
  expect 2 "$name --wave-scope top:0" "$exe" "${args[@]}" --wave "$tmp/w.fst" --wave-scope top:0
  if [ "$name" = cosim_recon_system ]; then
    for opt in out png json; do
      expect 4 "$name --$opt /nonexistent/x" "$exe" "${args[@]}" --$opt /nonexistent/x
    done
    expect 4 "$name --json <a directory>" "$exe" "${args[@]}" --json "$tmp"
  fi
done
[ -z "$(find "$tmp" -mindepth 1 ! -name '*.err' -print -quit)" ] ||
  fail "a refused run left files behind: $(ls -A "$tmp")"

if [ "$failures" -ne 0 ]; then
  echo "check_exit_codes: $failures of $checks check(s) failed" >&2
  exit 1
fi
echo "check_exit_codes: all $checks checks passed ($# executables, $systemc with SystemC)"
