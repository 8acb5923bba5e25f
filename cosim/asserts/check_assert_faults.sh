#!/usr/bin/env bash
# check_assert_faults.sh EXE WAVE_DIR MODULE=PROPERTY...: every RTL module's checker catches its
# deliberate fault (cosim/asserts/CMakeLists.txt): `EXE --block MODULE --wave WAVE_DIR/MODULE.fst`
# must exit 1 with exactly one stdout line, "FAIL MODULE cycle <c> assertion PROPERTY seed 1",
# and leave the wave (non-empty). Prints one line per module; exit 0 when all hold.
set -uo pipefail
exe=$1 waves=$2
shift 2
mkdir -p "$waves"
bad=0
for pair in "$@"; do
  module=${pair%%=*} property=${pair#*=}
  wave=$waves/$module.fst
  rm -f "$wave"
  out=$("$exe" --block "$module" --seed 1 --wave "$wave" 2>&1)
  rc=$?
  lines=$(printf '%s\n' "$out" | grep -c .)
  if [ $rc -ne 1 ]; then
    echo "FAIL $module: exit $rc, not 1: $out"; bad=1
  elif [ "$lines" -ne 1 ] || ! [[ "$out" =~ ^FAIL\ $module\ cycle\ [0-9]+\ assertion\ $property\ seed\ 1$ ]]; then
    echo "FAIL $module: expected one line 'FAIL $module cycle <c> assertion $property seed 1', got: $out"; bad=1
  elif ! [ -s "$wave" ]; then
    echo "FAIL $module: no wave $wave"; bad=1
  else
    echo "ok $module: $out; wave $wave"
  fi
done
exit $bad
