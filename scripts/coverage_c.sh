#!/usr/bin/env bash
# Line coverage of the C model (libpinet, its MPI back end, the DPI functions and the CLI) from
# the unit, CLI and MPI tests: builds build-ccov/ with gcov instrumentation (PINET_C_COVERAGE, no
# RTL), runs `ctest -L 'unit|cli|mpi'`, and with lcov prints one row per source directory and the
# total, and writes an HTML report to waves/coverage/c-html/index.html.
#
#   bash scripts/coverage_c.sh [--min PERCENT] [--no-deps] [--build DIR]
#
# Exit status: 0 when the total line coverage is at least PERCENT (default 90), 1 below it or when
# a test failed, 2 usage, 3 build or tool error.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"
cd "$root"

min=90 deps=1 build=build-ccov
usage() { echo "coverage_c: $* (try --help)" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --min) [[ "${2:-}" =~ ^[0-9]+(\.[0-9]+)?$ ]] || usage "--min needs a percentage"; min=$2; shift ;;
    --no-deps) deps=0 ;;
    --build) [ -n "${2:-}" ] || usage "--build needs a directory"; build=$2; shift ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage "unknown argument '$(pinet_quote "$1")'" ;;
  esac
  shift
done

[ $deps -eq 1 ] && { bash scripts/deps.sh || exit 3; }
command -v lcov >/dev/null && command -v genhtml >/dev/null || { echo "coverage_c: lcov/genhtml not found (scripts/deps.sh installs lcov)" >&2; exit 3; }

echo "coverage_c: configuring and building $(pinet_quote "$build") (gcov, -O0; log: $(pinet_quote "$build.build.log"))"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug -DPINET_C_COVERAGE=ON -DPINET_RTL=OFF \
  >"$build.configure.log" 2>&1 || { cat "$build.configure.log" >&2; echo "coverage_c: configure failed" >&2; exit 3; }
cmake --build "$build" >"$build.build.log" 2>&1 || { tail -n 40 "$build.build.log" >&2; echo "coverage_c: build failed" >&2; exit 3; }

# Counts from an earlier run would add up: start from zero.
lcov --quiet --zerocounters --directory "$build" >/dev/null 2>&1
echo "coverage_c: running the unit, CLI and MPI tests"
rc=0
ctest --test-dir "$build" -j "$(nproc 2>/dev/null || echo 2)" -L 'unit|cli|mpi' --output-on-failure \
  >"$build.ctest.log" 2>&1 || rc=$?
grep -E 'tests passed|tests failed' "$build.ctest.log"
[ $rc -eq 0 ] || { grep -E '\*\*\*Failed|Failed' "$build.ctest.log" >&2; echo "coverage_c: a test failed" >&2; }

out=waves/coverage
mkdir -p "$out"
info=$out/c.info
lcov --quiet --capture --directory "$build" --output-file "$info.all" >"$build.lcov.log" 2>&1 &&
  lcov --quiet --extract "$info.all" "$root/cmodel/*" --output-file "$info" >>"$build.lcov.log" 2>&1 ||
  { tail -n 20 "$build.lcov.log" >&2; echo "coverage_c: lcov failed" >&2; exit 3; }
rm -f "$info.all"
rm -rf "$out/c-html"
genhtml --quiet --title "pinet C model" --output-directory "$out/c-html" "$info" >>"$build.lcov.log" 2>&1 ||
  { tail -n 20 "$build.lcov.log" >&2; echo "coverage_c: genhtml failed" >&2; exit 3; }

# One row per directory of cmodel/ (from the tracefile's SF/LH/LF records) and the total.
python3 - "$info" "$root/" "$min" <<'PY'
import collections, sys
info, root, minimum = sys.argv[1], sys.argv[2], float(sys.argv[3])
hit, found = collections.Counter(), collections.Counter()
d = None
for line in open(info):
    if line.startswith("SF:"):
        path = line[3:].strip()
        d = path[len(root):] if path.startswith(root) else path
        d = d.rsplit("/", 1)[0]
    elif line.startswith("LH:"):
        hit[d] += int(line[3:])
    elif line.startswith("LF:"):
        found[d] += int(line[3:])
print(f"{'C model':24s} {'lines':>8s} {'hit':>8s} {'coverage':>9s}")
for k in sorted(found):
    print(f"{k:24s} {found[k]:8d} {hit[k]:8d} {100.0 * hit[k] / max(found[k], 1):8.1f}%")
total_f, total_h = sum(found.values()), sum(hit.values())
pct = 100.0 * total_h / max(total_f, 1)
print(f"{'total':24s} {total_f:8d} {total_h:8d} {pct:8.1f}%  (minimum {minimum:g}%)")
sys.exit(0 if pct >= minimum else 1)
PY
cov=$?
echo "coverage_c: HTML report: $out/c-html/index.html"
[ $rc -eq 0 ] && [ $cov -eq 0 ] && exit 0
[ $cov -ne 0 ] && echo "coverage_c: total line coverage below ${min}%" >&2
exit 1
