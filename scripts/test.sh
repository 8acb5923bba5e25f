#!/usr/bin/env bash
# The whole test suite: installs what is missing, builds (Release) and runs every CTest test
# (labels unit, cli, cosim, tb, lint, synth, formal, mpi), then runs the unit and CLI tests again
# on the C model built with AddressSanitizer + UBSan. Ends with the build and test times, the
# compiler cache's hits and the ten slowest tests. Exit status 0 only if everything passed.
#
#   bash scripts/test.sh [--no-deps] [--no-sanitize] [--long] [-L LABEL_REGEX]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"
cd "$root"

deps=1 sanitize=1 long=OFF labels=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-deps) deps=0 ;;
    --no-sanitize) sanitize=0 ;;
    --long) long=ON ;;
    -L) labels=${2:?-L needs a label regex}; shift ;;
    -h|--help) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test: unknown argument '$(pinet_quote "$1")' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

[ $deps -eq 1 ] && { bash scripts/deps.sh || exit 3; }
jobs=$(nproc 2>/dev/null || echo 2)
label_args=()
[ -n "$labels" ] && label_args=(-L "$labels")

step() { echo; echo "=== $* ==="; }
now() { date +%s; }
t_start=$(now)
ccache_before=$(ccache --print-stats 2>/dev/null || true)

# The sanitizer build (C model only) runs beside the Release configure, which runs Verilator
# once per model on one core; it builds on one core too and is waited for before its tests.
asan_build() {
  cmake -S . -B build-asan -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPINET_SANITIZE=ON \
    -DPINET_RTL=OFF >build-asan.configure.log 2>&1 || { cat build-asan.configure.log >&2; return 3; }
  cmake --build build-asan -j 1 >build-asan.build.log 2>&1 \
    || { tail -n 60 build-asan.build.log >&2; echo "test: sanitizer build failed" >&2; return 3; }
}
asan_pid=""
if [ $sanitize -eq 1 ]; then
  asan_build &
  asan_pid=$!
fi

step "configure + build (Release)"
# Our RTL and every cosim, whatever an earlier verify.sh --rtl --build build left in the cache.
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPINET_LONG_TESTS=$long -DPINET_RTL_DIR= \
  -DPINET_COSIM_TARGETS= >build.configure.log 2>&1 \
  || { cat build.configure.log >&2; exit 3; }
t_configured=$(now)
cmake --build build >build.build.log 2>&1 || { tail -n 60 build.build.log >&2; echo "test: build failed" >&2; exit 3; }
t_built=$(now)
echo "test: configured in $((t_configured - t_start)) s, built in $((t_built - t_configured)) s"

# CTest runs the costliest tests first when it knows their cost: on a fresh build, from the table
# of measured seconds (tests/test_costs.txt), so that the long proofs and builds do not start last.
seed_costs() {
  local dir=$1/Testing/Temporary
  [ -f "$dir/CTestCostData.txt" ] && return
  mkdir -p "$dir"
  { awk '!/^#/ && NF == 2 { print $1, 1, $2 }' tests/test_costs.txt; echo ---; } >"$dir/CTestCostData.txt"
}

step "ctest (Release)"
seed_costs build
rm -f build/ctest-junit.xml
ctest --test-dir build -j "$jobs" --output-on-failure --output-junit ctest-junit.xml "${label_args[@]}"
rc=$?
t_tested=$(now)

junits=(build/ctest-junit.xml)
t_asan_tested=$t_tested
if [ $sanitize -eq 1 ]; then
  step "ctest unit + cli (ASan + UBSan)"
  wait "$asan_pid" || exit 3
  seed_costs build-asan
  rm -f build-asan/ctest-junit.xml
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    ctest --test-dir build-asan -j "$jobs" --output-on-failure --output-junit ctest-junit.xml -L 'unit|cli'
  rc_san=$?
  [ $rc -eq 0 ] && rc=$rc_san
  junits+=(build-asan/ctest-junit.xml)
  t_asan_tested=$(now)
fi

step "times"
echo "test: build $((t_built - t_start)) s (configure $((t_configured - t_start)) s), tests $((t_asan_tested - t_built)) s (Release $((t_tested - t_built)) s), total $((t_asan_tested - t_start)) s"
# The compiler cache over this run: hits and misses from its counters before and after.
if [ -n "$ccache_before" ]; then
  ccache --print-stats 2>/dev/null | awk -v before="$ccache_before" '
    BEGIN { n = split(before, l, "\n"); for (i = 1; i <= n; i++) { split(l[i], f, "\t"); b[f[1]] = f[2] } }
    { a[$1] = $2 }
    END {
      hit = a["direct_cache_hit"] + a["preprocessed_cache_hit"] - b["direct_cache_hit"] - b["preprocessed_cache_hit"]
      miss = a["cache_miss"] - b["cache_miss"]
      if (hit + miss > 0) printf "test: ccache %d hits, %d misses (%.0f %%)\n", hit, miss, 100 * hit / (hit + miss)
    }'
fi
python3 - "${junits[@]}" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = []
for path in sys.argv[1:]:
    try:
        tree = ET.parse(path)
    except (OSError, ET.ParseError):
        continue
    tag = " (asan)" if "build-asan" in path else ""
    for c in tree.iter("testcase"):
        cases.append((float(c.get("time", 0)), c.get("name") + tag))
cases.sort(reverse=True)
print("test: the ten slowest tests")
for secs, name in cases[:10]:
    print(f"  {secs:7.1f} s  {name}")
PY

echo
if [ $rc -eq 0 ]; then echo "test: all suites passed"; else echo "test: FAILED" >&2; fi
exit $rc
