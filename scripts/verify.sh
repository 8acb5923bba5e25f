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
#              with its Slurm state. Ctrl-C cancels the array. (scripts/verify_slurm.sh)
# --partition P, --time-limit T, --sbatch-args ARGS
#              with --farm slurm: sbatch's --partition, --time (per run) and further arguments
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"
cd "$root"

usage() { echo "verify: $* (try --help)" >&2; exit 2; }
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
  slurm) # shellcheck source=scripts/verify_slurm.sh
         source "$root/scripts/verify_slurm.sh"
         slurm_check
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

# The executables the selected runs need (--rtl builds only those).
# selected NAME KIND: whether a line of the run list runs (comments, --long, --only).
selected() {
  local name=$1 kind=$2
  [[ -n "$name" && "$name" != \#* ]] || return 1
  [ "$kind" = default ] || [ $long -eq 1 ] || return 1
  [ -z "$only" ] || [[ "$name" =~ $only ]]
}

# no_runs: the error of a selection that runs nothing.
no_runs() {
  echo "verify: no cosim runs registered${only:+ matching '$(pinet_quote "$only")'}" >&2
  exit 1
}

needed_targets() {
  while IFS='|' read -r name exe _ kind; do
    selected "$name" "$kind" || continue
    basename "$exe"
  done < "$build/cosim_runs.list" | sort -u
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

mkdir -p "$waves"
[ $coverage -eq 1 ] && rm -rf "$waves/coverage" && mkdir -p "$waves/coverage"
# Functional coverage files of this run only (scripts/verify_report.py reads waves/fcov/*.txt).
rm -rf "$waves/fcov"
mkdir -p "$waves/fcov"
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

# The jobs: one per run and seed, in the order of the list (seed "" = the cosim's default).
seeds=("$seed")
if [ -n "$nseeds" ]; then
  seeds=()
  for ((k = 0; k < nseeds; k++)); do seeds+=($(( ${seed:-1} + k ))); done
fi
# A soak run writes no wave ("-"); long and soak runs print their progress.
job_name=() job_exe=() job_args=() job_seed=() job_wave=() job_kind=()
while IFS='|' read -r name exe args kind; do
  selected "$name" "$kind" || continue
  for s in "${seeds[@]}"; do
    job_name+=("$name") job_exe+=("$exe") job_args+=("$args") job_seed+=("$s") job_kind+=("$kind")
    if [ "$kind" = soak ]; then job_wave+=("-")
    elif [ -n "$nseeds" ]; then job_wave+=("$waves/${name}_s$s.fst"); else job_wave+=("$waves/$name.fst"); fi
  done
done < "$build/cosim_runs.list"
njobs=${#job_name[@]}
[ $njobs -gt 0 ] || no_runs

# The jobs' files (output, exit status, seconds): on Slurm in the waves directory, which the
# nodes share.
if [ "$farm" = slurm ]; then
  tmp=$(mktemp -d "$(cd "$waves" && pwd)/.verify-slurm.XXXXXX")
  trap 'slurm_cancel; exit 130' INT
  trap 'slurm_cancel; exit 143' TERM
else
  tmp=$(mktemp -d)
fi
trap 'rm -rf "$tmp"' EXIT

# job_argv I: the command line of job I, in the array `cmd`.
job_argv() {
  local i=$1
  # shellcheck disable=SC2206
  cmd=("${job_exe[$i]}" ${job_args[$i]})
  [ -n "${job_seed[$i]}" ] && cmd+=(--seed "${job_seed[$i]}")
  cmd+=(--quiet)
  [ "${job_wave[$i]}" != - ] && cmd+=(--wave "${job_wave[$i]}")
  [ "${job_kind[$i]}" != default ] && cmd+=(--progress)
}

# job_cov I: the coverage file of job I (with --coverage).
job_cov() {
  local cov=${job_name[$1]}
  [ -n "$nseeds" ] && cov+="_s${job_seed[$1]}"
  echo "$waves/coverage/$cov.dat"
}

# job_fcov I: the functional coverage file of job I (cosim/common/fcov.h).
job_fcov() {
  local f=${job_name[$1]}
  [ -n "$nseeds" ] && f+="_s${job_seed[$1]}"
  echo "$waves/fcov/$f.txt"
}

# run_job I: runs job I; its output, exit status and seconds go to $tmp/I.{out,rc,secs}.
run_job() {
  local i=$1 start=$EPOCHREALTIME rc=0 cmd cov
  job_argv "$i"
  cov=$(job_cov "$i")
  if [ $coverage -eq 1 ]; then
    PINET_FCOV_FILE=$(job_fcov "$i") PINET_COVERAGE_FILE=$cov "${cmd[@]}" >"$tmp/$i.out" 2>&1 || rc=$?
  else
    PINET_FCOV_FILE=$(job_fcov "$i") "${cmd[@]}" >"$tmp/$i.out" 2>&1 || rc=$?
  fi
  echo $rc >"$tmp/$i.rc"
  awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.1f", b - a }' >"$tmp/$i.secs"
}

# result_line I: the last PASS/FAIL line of job I.
result_line() { grep -E '^(PASS|FAIL) ' "$tmp/$1.out" | tail -n 1; }

report_job() {
  local i=$1
  printf 'verify: %-22s %s (%ss)\n' "${job_name[$i]}" "$(result_line "$i" || true)" \
    "$(cat "$tmp/$i.secs")"
}

# The runner interface: a backend B (--farm B: local, here; slurm, scripts/verify_slurm.sh) has
#   B_run      runs every job, leaving $tmp/I.out, $tmp/I.rc and $tmp/I.secs per job I and
#              printing each job's line as it ends
#   B_rerun I  runs job I once more, alone, into the same files
#   B_ran I    job I ran to its end: its output is the cosim's verdict (else an ERROR row)
#   B_col I    what follows job I's summary row
#   B_why I    the line saying why job I did not run to its end
# The job list, the parsing, the summary, the JUnit XML and the coverage merge are the rest
# of this script, shared.

# The local backend: runs with at most $jobs at a time on this machine; reports each as it
# ends.
local_rerun() { run_job "$1"; }
local_ran() { :; }
local_col() { :; }
local_why() { :; }
local_run() {
  if [ "$jobs" -gt 1 ] && [ $njobs -gt 1 ]; then
    echo "verify: $njobs runs, $jobs at a time"
  fi
  # With --long, a line a minute (PINET_VERIFY_TICK seconds: the tests' shorter minute): runs
  # done, and the last progress line of each run going on.
  local ticker="" i j
  if [ $long -eq 1 ]; then
    (
      t0=$SECONDS
      while sleep "${PINET_VERIFY_TICK:-60}"; do
        done_runs=$(find "$tmp" -name '*.secs' | wc -l)
        line="verify: $(( (SECONDS - t0) / 60 )) min: $done_runs of $njobs runs done"
        for ((k = 0; k < njobs; k++)); do
          [ -f "$tmp/$k.out" ] && [ ! -f "$tmp/$k.secs" ] || continue
          p=$(grep -a -o '[0-9]*% ([0-9]* of [0-9]* cycles[^)]*)' "$tmp/$k.out" | tail -n 1)
          line+="; ${job_name[$k]} ${p:-started}"
        done
        echo "$line"
      done
    ) &
    ticker=$!
  fi

  local -A running=()
  for ((i = 0; i < njobs; i++)); do
    while [ ${#running[@]} -ge "$jobs" ]; do
      wait -n 2>/dev/null || true
      for j in "${!running[@]}"; do
        if [ -f "$tmp/$j.secs" ]; then unset "running[$j]"; report_job "$j"; fi
      done
    done
    run_job "$i" &
    running[$i]=$!
  done
  for j in "${running[@]}"; do wait "$j"; done
  for j in "${!running[@]}"; do report_job "$j"; done
  [ -n "$ticker" ] && { kill "$ticker" 2>/dev/null; wait "$ticker" 2>/dev/null; }
}

"${farm}_run"

summary=$waves/summary.txt
rows=() failed_jobs=()
failed=0 total_cycles=0
# On Slurm the save file column is padded: the task's id follows it (slurm_col).
save_fmt=%s
[ "$farm" = slurm ] && save_fmt=%-24s
for ((i = 0; i < njobs; i++)); do
  name=${job_name[$i]} wave=${job_wave[$i]} rc=$(cat "$tmp/$i.rc" 2>/dev/null || echo -)
  last=$(result_line "$i")
  # On Slurm, a task cancelled, timed out, killed or never started is an error, whatever it printed.
  "${farm}_ran" "$i" || last=""
  if [[ "$last" =~ ^PASS\ ([^ ]+)\ matched\ ([0-9]+)\ cycles\ seed\ ([0-9]+)$ ]] && [ "$rc" = 0 ]; then
    block=${BASH_REMATCH[1]} cycles=${BASH_REMATCH[2]} s=${BASH_REMATCH[3]}
    total_cycles=$((total_cycles + cycles))
    rows+=("$(printf "%-22s %-16s %12s %10s %8s  %-8s %-34s $save_fmt" "$name" "$block" "$cycles" 0 "$s" PASS "$wave" "$(save_file_for "$name" "$block")")$("${farm}_col" "$i")")
    echo "PASS|$block|$s|$cycles" >"$tmp/$i.verdict"
  elif [[ "$last" =~ ^FAIL\ ([^ ]+)\ cycle\ ([0-9]+)\ .*seed\ ([0-9]+)$ ]]; then
    block=${BASH_REMATCH[1]} s=${BASH_REMATCH[3]}
    failed=$((failed + 1)) failed_jobs+=("$i")
    rows+=("$(printf "%-22s %-16s %12s %10s %8s  %-8s %-34s $save_fmt" "$name" "$block" "${BASH_REMATCH[2]}" 1 "$s" FAIL "$wave" "$(save_file_for "$name" "$block")")$("${farm}_col" "$i")")
    echo "$last"
    echo "FAIL|$block|$s|${BASH_REMATCH[2]}" >"$tmp/$i.verdict"
  else
    failed=$((failed + 1)) failed_jobs+=("$i")
    if [ "$farm" = slurm ]; then
      rows+=("$(printf "%-22s %-16s %12s %10s %8s  %-8s %-34s $save_fmt" "$name" "?" "-" "-" "${job_seed[$i]:--}" "ERROR" "$wave" -)$("${farm}_col" "$i")")
    else
      rows+=("$(printf '%-22s %-16s %12s %10s %8s  %-8s %s' "$name" "?" "-" "-" "${job_seed[$i]:--}" "ERROR" "$wave")")
    fi
    if "${farm}_ran" "$i"; then
      echo "verify: $name exited $rc without a PASS/FAIL line:" >&2
    else
      "${farm}_why" "$i" >&2
    fi
    tail -n 5 "$tmp/$i.out" >&2
    echo "ERROR|?|${job_seed[$i]:--}|-" >"$tmp/$i.verdict"
  fi
done

# A failing run once more, alone: the command to reproduce it, and whether it fails again
# without the others running beside it.
# The re-run also writes the values around its first mismatch (PINET_MISMATCH_JSON,
# cosim/common/mismatch_window.h) for the report's timing diagram.
for i in "${failed_jobs[@]}"; do
  job_argv "$i"
  echo "verify: re-running ${job_name[$i]} alone: ${cmd[*]}"
  echo "${cmd[*]}" >"$tmp/$i.repro"
  rm -f "$tmp/$i.secs"
  cp "$tmp/$i.out" "$tmp/$i.first.out"
  export PINET_MISMATCH_JSON=$tmp/$i.window.json
  "${farm}_rerun" "$i"
  unset PINET_MISMATCH_JSON
  alone=$(result_line "$i" || echo "no PASS/FAIL line, exit $(cat "$tmp/$i.rc")")
  echo "$alone" >"$tmp/$i.alone"
  echo "verify: alone: $alone"
  cp "$tmp/$i.first.out" "$tmp/$i.out"
done

{
  echo
  echo "RTL verification summary ($(date -u +%Y-%m-%dT%H:%M:%SZ))"
  if [ "$farm" = slurm ]; then
    printf '%-22s %-16s %12s %10s %8s  %-8s %-34s %-24s  %s\n' run block cycles mismatches seed \
      result wave 'save file' 'slurm task'
  else
    printf '%-22s %-16s %12s %10s %8s  %-8s %-34s %s\n' run block cycles mismatches seed result wave \
      'save file'
  fi

  printf '%s\n' "${rows[@]}"
  echo "total: $njobs runs, $total_cycles cycles compared, $failed failed"
} | tee "$summary"

# JUnit XML (the structure of the common JUnit schema: testsuites > testsuite > testcase, a
# failure or error element per failing case, system-out with the wave as an attachment).
if [ -n "$junit" ]; then
  python3 - "$junit" "$tmp" "$njobs" "${job_name[@]}" -- "${job_wave[@]}" <<'PY' || { echo "verify: cannot write --junit '$(pinet_quote "$junit")'" >&2; exit 1; }
import os, sys, xml.etree.ElementTree as ET
path, tmp, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
names = sys.argv[4:4 + n]
waves = sys.argv[5 + n:5 + 2 * n]
suite = ET.Element("testsuite", name="pinet.verify")
fails = errors = 0
total = 0.0
for i in range(n):
    kind, block, seed, cycles = open(f"{tmp}/{i}.verdict").read().strip().split("|")
    secs = float(open(f"{tmp}/{i}.secs").read())
    total += secs
    out = open(f"{tmp}/{i}.out", errors="replace").read()
    # --farm slurm: the task's job_task id, final state and node (scripts/verify_slurm.sh)
    slurm, state, host = (open(f"{tmp}/{i}.{f}").read().strip() if os.path.exists(f"{tmp}/{i}.{f}")
                          else "" for f in ("id", "state", "host"))
    last = [l for l in out.splitlines() if l.startswith(("PASS ", "FAIL "))]
    case = ET.SubElement(suite, "testcase", classname=f"pinet.cosim.{block}",
                         name=f"{names[i]} seed {seed}", time=f"{secs:.3f}")
    if kind == "FAIL":
        fails += 1
        ET.SubElement(case, "failure", message=last[-1], type="mismatch").text = out[-4000:]
    elif kind == "ERROR":
        errors += 1
        message = f"{names[i]}: no PASS/FAIL line"
        if slurm and state not in ("COMPLETED", "FAILED"):
            message = f"{names[i]}: Slurm task {slurm} {state}, no result"
        ET.SubElement(case, "error", message=message, type="error").text = out[-4000:]
    ET.SubElement(case, "system-out").text = (
        (last[-1] + "\n" if last else "")
        + (f"[[ATTACHMENT|{os.path.abspath(waves[i])}]]\n" if waves[i] != "-" else "")
        + (f"Slurm task {slurm} {state} on {host or 'no node'}\n" if slurm else ""))
suite.set("tests", str(n))
suite.set("failures", str(fails))
suite.set("errors", str(errors))
suite.set("skipped", "0")
suite.set("time", f"{total:.3f}")
root = ET.Element("testsuites", name="pinet", tests=str(n), failures=str(fails),
                  errors=str(errors), time=f"{total:.3f}")
root.append(suite)
ET.ElementTree(root).write(path + ".part", encoding="utf-8", xml_declaration=True)
os.replace(path + ".part", path)
PY
  echo "verify: JUnit XML: $junit"
fi

if [ $coverage -eq 1 ]; then
  echo
  # Fails (exit 1) when an RTL module is below 95 % line or toggle coverage.
  python3 scripts/coverage_report.py "$waves/coverage" | tee -a "$summary" "$tmp/coverage.txt" || failed=1
fi

# Functional coverage of the blocks that ran against the testplans' bins (scripts/fcov_check.py):
# printed always; with --coverage a hole (a planned bin never hit, not listed as unreachable)
# fails the run.
echo
fcov_blocks=$(for ((i = 0; i < njobs; i++)); do cut -d'|' -f2 "$tmp/$i.verdict"; done | grep -v '^?$' | sort -u | paste -sd, -)
fcov_args=(--fcov "$waves/fcov" --blocks "$fcov_blocks")
[ $coverage -eq 1 ] && fcov_args+=(--strict)
[ $long -eq 1 ] && fcov_args+=(--long)
python3 scripts/fcov_check.py "${fcov_args[@]}" | tee -a "$summary"
[ "${PIPESTATUS[0]}" -eq 0 ] || failed=1

# The sign-off table against the testplans (docs/testplans/), appended to the summary, and the
# HTML report (scripts/verify_report.py): one line per run and seed for it.
for ((i = 0; i < njobs; i++)); do
  IFS='|' read -r kind block s cycles <"$tmp/$i.verdict"
  window=-
  [ -f "$tmp/$i.window.json" ] && window=$tmp/$i.window.json
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${job_name[$i]}" "$kind" "$block" "$s" \
    "$cycles" "${job_wave[$i]}" "$(result_line "$i")" "$(cat "$tmp/$i.repro" 2>/dev/null)" \
    "$(cat "$tmp/$i.alone" 2>/dev/null)" "$window" "$(save_file_for "${job_name[$i]}" "$block")"
done >"$tmp/jobs.tsv"
python3 scripts/verify_report.py --jobs "$tmp/jobs.tsv" --waves "$waves" --report "$waves/report" \
  --coverage-text "$tmp/coverage.txt" --date "$(date -u +%Y-%m-%dT%H:%M:%SZ)" | tee -a "$summary"
if [ "${PIPESTATUS[0]}" -eq 0 ]; then
  echo "verify: report: $waves/report/index.html"
else
  echo "verify: the sign-off report failed (see above)" >&2
fi
echo "verify: open a run's waves with its save file, from here: gtkwave <wave> <save file>"
[ $failed -eq 0 ] || exit 1
exit 0
