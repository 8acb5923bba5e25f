#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds (Release) and runs every CTest test
# (labels unit, cli, cosim, tb, lint, synth, formal, mpi), then rebuilds the C model with AddressSanitizer +
# UBSan and runs the unit and CLI tests again. Exit status 0 only if everything passed.
#
#   bash scripts/test.sh [--no-deps] [--no-sanitize] [--long] [-L LABEL_REGEX]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

deps=1 sanitize=1 long=OFF labels=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-deps) deps=0 ;;
    --no-sanitize) sanitize=0 ;;
    --long) long=ON ;;
    -L) labels=${2:?-L needs a label regex}; shift ;;
    -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

[ $deps -eq 1 ] && { bash scripts/deps.sh || exit 3; }
jobs=$(nproc 2>/dev/null || echo 2)
label_args=()
[ -n "$labels" ] && label_args=(-L "$labels")

step() { echo; echo "=== $* ==="; }

step "configure + build (Release)"
# Our RTL and every cosim, whatever an earlier verify.sh --rtl --build build left in the cache.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPINET_LONG_TESTS=$long -DPINET_RTL_DIR= \
  -DPINET_COSIM_TARGETS= >build.configure.log 2>&1 \
  || { cat build.configure.log >&2; exit 3; }
cmake --build build >build.build.log 2>&1 || { tail -n 60 build.build.log >&2; echo "test: build failed" >&2; exit 3; }

step "ctest (Release)"
ctest --test-dir build -j "$jobs" --output-on-failure "${label_args[@]}"
rc=$?

if [ $sanitize -eq 1 ]; then
  step "configure + build (ASan + UBSan, C model only)"
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPINET_SANITIZE=ON -DPINET_RTL=OFF \
    >build-asan.configure.log 2>&1 || { cat build-asan.configure.log >&2; exit 3; }
  cmake --build build-asan >build-asan.build.log 2>&1 \
    || { tail -n 60 build-asan.build.log >&2; echo "test: sanitizer build failed" >&2; exit 3; }
  step "ctest unit + cli (ASan + UBSan)"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan -j "$jobs" --output-on-failure -L 'unit|cli'
  rc_san=$?
  [ $rc -eq 0 ] && rc=$rc_san
fi

echo
if [ $rc -eq 0 ]; then echo "test: all suites passed"; else echo "test: FAILED" >&2; fi
exit $rc
