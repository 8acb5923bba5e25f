#!/usr/bin/env bash
# The RTL verification run: installs what is missing, builds (Release), runs every registered
# co-simulation with its default settings, writes one FST per run to waves/ and ends with a
# summary table per block, then the sign-off table against the testplans (docs/testplans/) and
# the HTML report waves/report/index.html (scripts/verify_report.py). Every run writes its
# functional coverage bins to waves/fcov/<run>[_s<seed>].txt (PINET_FCOV_FILE,
# cosim/common/fcov.h); scripts/fcov_check.py prints them per block against the testplans' bins.
# Exit status: 0 all passed, 1 a cosim failed (or, with --coverage, an RTL module is below 95 %
# line or toggle coverage, or a planned functional coverage bin of a block that ran was never
# hit and is not listed as unreachable), 2 usage, 3 build (or Slurm submission) error.
#
#   bash scripts/verify.sh [--long] [--coverage] [--seed S] [--seeds K] [-j N] [--junit FILE]
#                          [--only REGEX] [--rtl DIR] [--waves DIR] [--build DIR] [--no-deps]
#                          [--no-build] [--farm local|slurm] [--partition P] [--time-limit T]
#                          [--sbatch-args ARGS]
#
# --long       also the long runs: the 128 x 128 reconstructions through the RTL, the papers'
#              sizes (built with PINET_LONG_TESTS: the 4096-PE ring and 1D system, the torus at
#              Side 64 and 128, the bitmap controller at 1D Side 4096 and 2D Side 128, the 2D
#              system at Side 128, ps_network at 128 and 256 PEs) and the soak runs (>= 1e8
#              compared cycles per block family, without waves), with a progress line a minute
# --coverage   build the cosims with Verilator line+toggle coverage (separate build dir), print
#              coverage per run and per RTL module (every one must reach 95 % line and toggle;
#              code marked coverage_off is listed with its reason) and write annotated sources
#              to waves/coverage/<run>/ and an HTML report to waves/coverage/html/; and fail
#              on a functional coverage hole (without --coverage the holes are only printed)
# --seed S     run every cosim with seed S instead of its default
# --seeds K    run every cosim with K seeds: S, S+1, ..., S+K-1 (S = --seed, else 1); one row and
#              one wave (<run>_s<seed>.fst) per run and seed
# -j N         N runs at a time (default: the number of cores); a failing run is re-run alone
#              afterwards, its command line printed
# --junit FILE JUnit XML: one testcase per run and seed (failure message = the FAIL line, the
#              wave as an attachment)
# --only REGEX run only the cosims whose run name matches REGEX
# --rtl DIR    verify another RTL: the files of DIR named as in rtl/pinet.f replace ours (same
#              modules, ports and parameters, checked first), the rest come from rtl/; built in
#              build-rtl (or --build) with only the cosims the selected runs need
# --waves DIR  where waves, the summary and coverage go (default waves/)
# --no-build   re-run the cosims of an existing build directory without configuring or building
# --farm slurm run on a Slurm cluster instead of this machine (--farm local, the default): built
#              here first, then one array task per run and seed (sbatch --array=...%N, -j N
#              at a time, default 32); the build directory, the waves directory and this
#              tree must be on a filesystem the nodes share, at the same paths. Rows get the
#              job_task id; a task cancelled, timed out, killed or never started is an ERROR row
#              with its Slurm state. Ctrl-C cancels the array. (scripts/pinet_dv/slurm.py)
# --partition P, --time-limit T, --sbatch-args ARGS
#              with --farm slurm: sbatch's --partition, --time (per run) and further arguments
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"
cd "$root"

usage() { echo "verify: $* (try --help)" >&2; exit 2; }
# engine COMMAND ...: the verification engine (scripts/pinet_dv, Python's standard library).
engine() { python3 "$root/scripts/pinet_dv" "$@"; }
coverage=0 seed="" nseeds="" only="" build="" deps=1 rebuild=1 long=0 junit="" waves=waves rtl=""
jobs="" farm=local partition="" time_limit="" sbatch_args=""
while [ $# -gt 0 ]; do
  case "$1" in
    --coverage) coverage=1 ;;
    --seed|--seeds|-j|--junit|--only|--build|--waves|--rtl|--farm|--partition|--time-limit|--sbatch-args)
      [ $# -ge 2 ] && [ -n "$2" ] || usage "$1 needs a value"
      case "$1" in
        --seed) seed=$2 ;; --seeds) nseeds=$2 ;; -j) jobs=$2 ;; --junit) junit=$2 ;;
        --only) only=$2 ;; --build) build=$2 ;; --waves) waves=$2 ;; --rtl) rtl=$2 ;;
        --farm) farm=$2 ;; --partition) partition=$2 ;; --time-limit) time_limit=$2 ;;
        --sbatch-args) sbatch_args=$2 ;;
      esac
      shift ;;
    --no-deps) deps=0 ;;
    --no-build) rebuild=0 ;;
    --long) long=1 ;;
    -h|--help) awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 0 ;;
    *) usage "unknown argument '$(pinet_quote "$1")'" ;;
  esac
  shift
done
if [ -n "$seed" ] && ! [[ "$seed" =~ ^[0-9]+$ ]]; then
  usage "--seed must be a non-negative integer (got '$(pinet_quote "$seed")')"
fi
if [ -n "$nseeds" ] && ! [[ "$nseeds" =~ ^[1-9][0-9]{0,3}$ ]]; then
  usage "--seeds must be an integer in 1..9999 (got '$(pinet_quote "$nseeds")')"
fi
case "$farm" in
  local) [ -z "$partition$time_limit$sbatch_args" ] ||
           usage "--partition, --time-limit and --sbatch-args need --farm slurm"
         [ -n "$jobs" ] || jobs=$(nproc 2>/dev/null || echo 1) ;;
  slurm) engine farm slurm || exit $?   # the Slurm clients are there (else exit 2)
         [ -n "$jobs" ] || jobs=32 ;;
  *) usage "--farm must be local or slurm (got '$(pinet_quote "$farm")')" ;;
esac
[[ "$jobs" =~ ^[1-9][0-9]{0,2}$ ]] || usage "-j must be an integer in 1..999 (got '$(pinet_quote "$jobs")')"
if [ -n "$junit" ]; then
  { : >>"$junit"; } 2>/dev/null || usage "--junit '$(pinet_quote "$junit")': cannot write"
fi
mkdir -p "$waves" 2>/dev/null || usage "--waves '$(pinet_quote "$waves")': cannot create"

# --rtl: the files of DIR that replace ours, and their modules' ports against ours.
if [ -n "$rtl" ]; then
  [ -d "$rtl" ] || usage "--rtl '$(pinet_quote "$rtl")' is not a directory"
  rtl=$(cd "$rtl" && pwd)
  replaced=()
  while read -r f; do
    [ -f "$rtl/$f" ] && replaced+=("$f")
  done < <(sed -n 's|^rtl/||p' rtl/pinet.f)
  [ ${#replaced[@]} -gt 0 ] || usage "--rtl '$(pinet_quote "$rtl")': no file named as one of rtl/pinet.f's"
  if ! ports=$(python3 scripts/rtl_ports.py rtl "$rtl" "${replaced[@]}"); then
    echo "verify: --rtl $(pinet_quote "$rtl")/$(head -n 1 <<<"$ports")" >&2
    [ "$(wc -l <<<"$ports")" -gt 1 ] && echo "verify: ($(($(wc -l <<<"$ports") - 1)) more difference(s))" >&2
    exit 3
  fi
  echo "verify: RTL from $(pinet_quote "$rtl"): ${replaced[*]}; the rest from rtl/"
fi

[ $deps -eq 1 ] && { bash scripts/deps.sh || exit 3; }

if [ -z "$build" ]; then
  build=build; [ $coverage -eq 1 ] && build=build-coverage; [ -n "$rtl" ] && build=build-rtl
fi
cov_flag=OFF; [ $coverage -eq 1 ] && cov_flag=ON

# no_runs: the error of a selection that runs nothing.
no_runs() {
  echo "verify: no cosim runs registered${only:+ matching '$(pinet_quote "$only")'}" >&2
  exit 1
}

# The executables the selected runs need (--rtl builds only those), from the engine's run list.
needed_targets() {
  local a=(targets "--build=$build")
  [ -n "$only" ] && a+=("--only=$only")
  [ $long -eq 1 ] && a+=(--long)
  engine "${a[@]}"
}

# configure COSIM_TARGETS: cmake for this run, verilating only COSIM_TARGETS ("" = all, "none").
configure() {
  local long_flag=OFF
  [ $long -eq 1 ] && long_flag=ON
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPINET_COVERAGE=$cov_flag \
    -DPINET_LONG_TESTS=$long_flag -DPINET_RTL_DIR="$rtl" -DPINET_COSIM_TARGETS="$1" \
    >"$build.configure.log" 2>&1 \
    || { cat "$build.configure.log" >&2; echo "verify: configure failed" >&2; exit 3; }
}

if [ $rebuild -eq 1 ]; then
  echo "verify: configuring $(pinet_quote "$build") (Release, coverage $cov_flag${rtl:+, RTL from $(pinet_quote "$rtl")})"
  targets=()
  if [ -n "$rtl" ]; then
    # Only the models the selected runs need: the run list first (no model verilated), then them.
    configure none
    mapfile -t targets < <(needed_targets)
    [ ${#targets[@]} -gt 0 ] || no_runs
    configure "$(IFS=';'; echo "${targets[*]}")"
    targets=(--target "${targets[@]}")
  else
    configure ""
    # Only the cosims the selected runs execute: the rest of the project (the Verilator
    # testbenches, the unit tests, the benchmarks) is test.sh's and would double a fresh build.
    mapfile -t targets < <(needed_targets)
    [ ${#targets[@]} -gt 0 ] || no_runs
    targets=(--target "${targets[@]}")
  fi
  echo "verify: building${targets[*]:+ ${targets[*]:1}} (log: $build.build.log; the first build takes several minutes)"
  cmake --build "$build" "${targets[@]}" >"$build.build.log" 2>&1 \
    || { tail -n 40 "$build.build.log" >&2; echo "verify: build failed" >&2; exit 3; }
elif [ ! -f "$build/cosim_runs.list" ]; then
  echo "verify: --no-build: $build/cosim_runs.list does not exist (build first)" >&2; exit 2
fi

# The runs: the engine (scripts/pinet_dv/verify.py) makes one job per run and seed, runs them
# through the launcher of --farm (local: -j at a time; slurm: one array task each), re-runs a
# failing one alone and writes the summary, the JUnit XML, the coverage checks, the sign-off
# table and the report from the jobs. exec: Ctrl-C and SIGTERM reach it (a farm's tasks are
# cancelled) and its exit status is this script's.
# (--opt=VALUE: a value may start with '-', as --sbatch-args "--account=rtl" does)
args=("--build=$build" "--waves=$waves" -j "$jobs" "--farm=$farm")
[ -n "$seed" ] && args+=("--seed=$seed")
[ -n "$nseeds" ] && args+=("--seeds=$nseeds")
[ -n "$only" ] && args+=("--only=$only")
[ $long -eq 1 ] && args+=(--long)
[ $coverage -eq 1 ] && args+=(--coverage)
[ -n "$junit" ] && args+=("--junit=$junit")
[ -n "$partition" ] && args+=("--partition=$partition")
[ -n "$time_limit" ] && args+=("--time-limit=$time_limit")
[ -n "$sbatch_args" ] && args+=("--sbatch-args=$sbatch_args")
exec python3 "$root/scripts/pinet_dv" verify "${args[@]}"
