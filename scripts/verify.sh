#!/usr/bin/env bash
# The RTL verification run: installs what is missing, builds (Release), runs every registered
# co-simulation with its default settings, writes one FST per run to waves/ and ends with a
# summary table per block. Exit status: 0 all passed, 1 a cosim failed, 2 usage, 3 build error.
#
#   bash scripts/verify.sh [--long] [--coverage] [--seed S] [--only REGEX] [--build DIR] [--no-deps] [--no-build]
#
# --long       also the long runs (e.g. the 128 x 128 reconstructions through the RTL)
# --coverage   build the cosims with Verilator line+toggle coverage (separate build dir), print
#              coverage per block and write annotated sources to waves/coverage/<run>/
# --seed S     run every cosim with seed S instead of its default
# --only REGEX run only the cosims whose run name matches REGEX
# --no-build   re-run the cosims of an existing build directory without configuring or building
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

coverage=0 seed="" only="" build="" deps=1 rebuild=1 long=0
while [ $# -gt 0 ]; do
  case "$1" in
    --coverage) coverage=1 ;;
    --seed) seed=${2:?--seed needs a value}; shift ;;
    --only) only=${2:?--only needs a value}; shift ;;
    --build) build=${2:?--build needs a value}; shift ;;
    --no-deps) deps=0 ;;
    --no-build) rebuild=0 ;;
    --long) long=1 ;;
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "verify: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$seed" ] && ! [[ "$seed" =~ ^[0-9]+$ ]]; then
  echo "verify: --seed must be a non-negative integer" >&2; exit 2
fi

[ $deps -eq 1 ] && { bash scripts/deps.sh || exit 3; }

if [ -z "$build" ]; then
  build=build; [ $coverage -eq 1 ] && build=build-coverage
fi
cov_flag=OFF; [ $coverage -eq 1 ] && cov_flag=ON
if [ $rebuild -eq 1 ]; then
  echo "verify: configuring $build (Release, coverage $cov_flag)"
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPINET_COVERAGE=$cov_flag >"$build.configure.log" 2>&1 \
    || { cat "$build.configure.log" >&2; echo "verify: configure failed" >&2; exit 3; }
  echo "verify: building (log: $build.build.log; the first build takes several minutes)"
  cmake --build "$build" >"$build.build.log" 2>&1 \
    || { tail -n 40 "$build.build.log" >&2; echo "verify: build failed" >&2; exit 3; }
elif [ ! -f "$build/cosim_runs.list" ]; then
  echo "verify: --no-build: $build/cosim_runs.list does not exist (build first)" >&2; exit 2
fi

mkdir -p waves
[ $coverage -eq 1 ] && rm -rf waves/coverage && mkdir -p waves/coverage
export SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1

# The GTKWave save file of a run: waves/<run>.gtkw, else the longest prefix of the run's name
# cut at '_' that has one (ps_network_n64_m4224 -> ps_network_n64), else waves/<block>.gtkw.
save_file_for() {
  local stem=$1 block=$2
  while :; do
    [ -f "waves/$stem.gtkw" ] && { echo "waves/$stem.gtkw"; return; }
    [[ "$stem" == *_* ]] || break
    stem=${stem%_*}
  done
  if [ -f "waves/$block.gtkw" ]; then echo "waves/$block.gtkw"; else echo "-"; fi
}

summary=waves/summary.txt
rows=()
failed=0 total_cycles=0 runs=0
while IFS='|' read -r name exe args kind; do
  [[ -z "$name" || "$name" == \#* ]] && continue
  [ "$kind" = long ] && [ $long -eq 0 ] && continue
  if [ -n "$only" ] && ! [[ "$name" =~ $only ]]; then continue; fi
  runs=$((runs + 1))
  wave="waves/$name.fst"
  # shellcheck disable=SC2206
  argv=($args)
  if [ -n "$seed" ]; then argv+=(--seed "$seed"); fi
  start=$EPOCHREALTIME
  if [ $coverage -eq 1 ]; then
    out=$(PINET_COVERAGE_FILE="waves/coverage/$name.dat" "$exe" "${argv[@]}" --quiet --wave "$wave" 2>&1)
  else
    out=$("$exe" "${argv[@]}" --quiet --wave "$wave" 2>&1)
  fi
  rc=$?
  secs=$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }')
  last=$(printf '%s\n' "$out" | grep -E '^(PASS|FAIL) ' | tail -n 1)
  if [[ "$last" =~ ^PASS\ ([^ ]+)\ matched\ ([0-9]+)\ cycles\ seed\ ([0-9]+)$ ]] && [ $rc -eq 0 ]; then
    block=${BASH_REMATCH[1]} cycles=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
    total_cycles=$((total_cycles + cycles))
    rows+=("$(printf '%-22s %-16s %12s %10s %8s  %-8s %-34s %s' "$name" "$block" "$cycles" 0 "$s" PASS "$wave" "$(save_file_for "$name" "$block")")")
  elif [[ "$last" =~ ^FAIL\ ([^ ]+)\ cycle\ ([0-9]+)\ .*seed\ ([0-9]+)$ ]]; then
    block=${BASH_REMATCH[1]} s=${BASH_REMATCH[3]}
    failed=$((failed + 1))
    rows+=("$(printf '%-22s %-16s %12s %10s %8s  %-8s %-34s %s' "$name" "$block" "${BASH_REMATCH[2]}" 1 "$s" FAIL "$wave" "$(save_file_for "$name" "$block")")")
    echo "$last"
  else
    failed=$((failed + 1))
    rows+=("$(printf '%-22s %-16s %12s %10s %8s  %-8s %s' "$name" "?" "-" "-" "${seed:--}" "ERROR" "$wave")")
    echo "verify: $name exited $rc without a PASS/FAIL line:" >&2
    printf '%s\n' "$out" | tail -n 5 >&2
  fi
  printf 'verify: %-22s %s (%ss)\n' "$name" "${last:-no result}" "$secs"
done < "$build/cosim_runs.list"

{
  echo
  echo "RTL verification summary ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  printf '%-22s %-16s %12s %10s %8s  %-8s %-34s %s\n' run block cycles mismatches seed result wave \
    'save file'

  printf '%s\n' "${rows[@]}"
  echo "total: $runs runs, $total_cycles cycles compared, $failed failed"
} | tee "$summary"

if [ $coverage -eq 1 ]; then
  echo
  python3 scripts/coverage_report.py waves/coverage | tee -a "$summary"
fi
echo "verify: open a run's waves with its save file, from here: gtkwave <wave> <save file>"
[ $runs -gt 0 ] || { echo "verify: no cosim runs registered" >&2; exit 1; }
[ $failed -eq 0 ] || exit 1
exit 0
