#!/usr/bin/env bash
# check_assert_faults.sh EXE WAVE_DIR ASSERT_DIR PROPERTY...: every assertion of the checkers
# catches its deliberate fault (cosim/asserts/CMakeLists.txt).
# - Every property named in ASSERT_DIR/*_assert.sv (`PINET_ASSERT("<module>.<property>", ...))
#   has a fault, and every fault names such a property.
# - Each model, with no fault on, runs its cycles and passes: the checkers are quiet on the RTL
#   under the same stimulus (a checker that always fired would fail here).
# - `EXE --fault PROPERTY --wave WAVE_DIR/PROPERTY.fst` exits 1 with exactly one stdout line,
#   "FAIL <module> cycle <c> assertion PROPERTY seed 1", and leaves the wave (non-empty).
# Prints one line per check; exit 0 when all hold.
set -uo pipefail
# shellcheck source=scripts/verdict.sh
. "$(dirname "$0")/../../scripts/verdict.sh"
exe=$1 waves=$2 assert_dir=$3
shift 3
mkdir -p "$waves"
bad=0

declared=$(grep -ho 'PINET_ASSERT("[a-z0-9_]*\.[a-z0-9_]*"' "$assert_dir"/*_assert.sv |
           sed 's/.*("\(.*\)"/\1/' | sort -u)
faulted=$(printf '%s\n' "$@" | sort -u)
missing=$(comm -23 <(printf '%s\n' "$declared") <(printf '%s\n' "$faulted"))
extra=$(comm -13 <(printf '%s\n' "$declared") <(printf '%s\n' "$faulted"))
if [ -n "$missing" ]; then
  echo "FAIL properties without a fault (add rows to PINET_ASSERT_FAULTS):" $missing; bad=1
fi
if [ -n "$extra" ]; then
  echo "FAIL faults of properties no checker states:" $extra; bad=1
fi
[ -z "$missing$extra" ] && echo "ok $(printf '%s\n' "$declared" | grep -c .) properties, each with a fault"

for module in $(printf '%s\n' "$@" | sed 's/\..*//' | sort -u); do
  out=$("$exe" --block "$module" --fault none --seed 1 --cycles 2000 2>&1)
  rc=$?
  if [ $rc -ne 0 ] || ! pinet_verdict check --kind PASS --block "$module" <<<"$out" 2>/dev/null; then
    echo "FAIL $module without a fault: exit $rc: $out"; bad=1
  else
    echo "ok $module without a fault: $out"
  fi
done

for property in "$@"; do
  module=${property%%.*}
  wave=$waves/$property.fst
  rm -f "$wave"
  out=$("$exe" --fault "$property" --seed 1 --cycles 5000 --wave "$wave" 2>&1)
  rc=$?
  lines=$(printf '%s\n' "$out" | grep -c .)
  if [ $rc -ne 1 ]; then
    echo "FAIL $property: exit $rc, not 1: $out"; bad=1
  elif [ "$lines" -ne 1 ] || ! pinet_verdict check --kind FAIL --block "$module" --assertion "$property" \
         --seed 1 --only <<<"$out" 2>/dev/null; then
    echo "FAIL $property: expected one line 'FAIL $module cycle <c> assertion $property seed 1', got: $out"; bad=1
  elif ! [ -s "$wave" ]; then
    echo "FAIL $property: no wave $wave"; bad=1
  else
    echo "ok $property: $out"
  fi
done
exit $bad
