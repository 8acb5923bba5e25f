#!/usr/bin/env bash
# bench_scaling.sh - how the Verilated RTA fabrics scale with the number of PEs (model only).
#
# usage: bench_scaling.sh ring|torus SIZE... [-- VERILATOR_ARGS...]
#   ring: SIZE is N (PEs); torus: SIZE is Side (Side*Side PEs).
#   env: BENCH_DIR (work directory, default /tmp/pinet_bench_scaling), BENCH_SECS (CPU seconds per
#        run, default 2), BENCH_JOBS (make -j, default 1), BENCH_RTL (the directory of the .sv
#        files, default rtl/ of this checkout: point it at a copy to compare two versions),
#        BENCH_CHECKERS=0 (the RTL alone, without the assertion checkers of rtl/assert; 1, the
#        default: the checkers the fabric's cosim binds; all: every instance's, the parts' too;
#        both: as 1, plus a column of the PE-cycles/s of the same model built without them),
#        BENCH_FLAT=1 (the torus with its rings inlined, as before cosim/common/compile_once.vlt;
#        by default the bench reads that file, as the cosims do; both: compile-once, plus columns
#        of the flat build's wall time, peak memory and PE-cycles/s relative to the first size's
#        compile-once model),
#        BENCH_WAVE=1 (also the cost of an FST wave of every cycle: the model rebuilt with
#        --trace-fst, the writer on the simulation thread, and with --trace-threads 1, the writer
#        on its own thread; for the torus also the PE window of row 0's ring, as the cosims'
#        --wave-scope 'top.rta_torus2d.g_row[0]', writer inline; wall-clock slowdown against the
#        model alone), BENCH_COSIM=DIR (a build's bin/ directory: also the cosim executable of that
#        size, the regression's, driving only (--compare 0) and comparing with the C model
#        (--compare 1): PE-cycles per CPU second of the marginal cycles (a run of 2n cycles minus
#        a run of n, n about BENCH_SECS of the model's cycles, so the model's construction and the
#        C model's setup are excluded; each the least of BENCH_REPEAT runs, default 5, each run
#        pinned to CPU BENCH_CPU, default the last, none: not pinned), and the driving rate
#        relative to the first size's).
#
# For each size: Verilates rta_ring / rta_torus2d (-O3 --x-assign fast --x-initial fast, the
# cosims' options, plus VERILATOR_ARGS) with bench_scaling_main.cpp, a driver that puts random
# words on every input port and a random bitmap each cycle and calls eval() (no C model, no
# compare), and prints one line: the build's wall time and peak memory (/usr/bin/time -v), the
# model's cycles/s and PE-cycles/s on CPU time, the PE-cycles/s relative to the first size and
# the run's peak memory; with BENCH_FLAT / BENCH_CHECKERS / BENCH_WAVE / BENCH_COSIM the columns
# described above. Not a test.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"
kind=${1:?usage: bench_scaling.sh ring|torus SIZE... [-- VERILATOR_ARGS...]}
shift
sizes=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do sizes+=("$1"); shift; done
[ $# -gt 0 ] && shift
vargs=("$@")
work=${BENCH_DIR:-/tmp/pinet_bench_scaling}
secs=${BENCH_SECS:-2}
jobs=${BENCH_JOBS:-1}
rtl=$(cd "${BENCH_RTL:-$root/rtl}" && pwd)
case $kind in
  ring)  top=rta_ring;    files=("$rtl/rta_switch.sv" "$rtl/rta_ring.sv") ;;
  torus) top=rta_torus2d; files=("$rtl/rta_switch.sv" "$rtl/rta_ring.sv" "$rtl/rta_torus2d.sv") ;;
  *) echo "bench_scaling: unknown fabric '$(pinet_quote "$kind")' (ring or torus)" >&2; exit 2 ;;
esac
# With the assertion checkers, as in the cosims (--assert; a failing one stops with $error);
# BENCH_CHECKERS=0: the RTL model alone.
asserts=("$root/rtl/assert/rta_switch_assert.sv" "$root/rtl/assert/rta_switch_bind.sv"
         "$root/rtl/assert/rta_ring_assert.sv" "$root/rtl/assert/rta_ring_bind.sv")
# The checkers the cosim of the fabric binds (PINET_COSIM_UNBIND in cmake/PinetRtl.cmake): the
# ring's own and the torus's own, not their parts'. BENCH_CHECKERS=all binds every instance's.
unbind=()
case $kind in
  ring)  unbind=(-DPINET_UNBIND_RTA_SWITCH) ;;
  torus) asserts+=("$root/rtl/assert/rta_torus2d_assert.sv" "$root/rtl/assert/rta_torus2d_bind.sv")
         unbind=(-DPINET_UNBIND_RTA_SWITCH -DPINET_UNBIND_RTA_RING) ;;
esac
case ${BENCH_CHECKERS:-1} in
  1) ;;
  all) unbind=() ;;
  both) ;;
  0) asserts=() unbind=() ;;
  *) echo "bench_scaling: BENCH_CHECKERS must be 1, both, all or 0 (got '$(pinet_quote "$BENCH_CHECKERS")')" >&2; exit 2 ;;
esac
# The cosims' compile-once configuration (the torus's rings not inlined), unless BENCH_FLAT=1.
once=("$root/cosim/common/compile_once.vlt")
case ${BENCH_FLAT:-0} in
  0|both) ;;
  1) once=() ;;
  *) echo "bench_scaling: BENCH_FLAT must be 0, 1 or both (got '$(pinet_quote "$BENCH_FLAT")')" >&2; exit 2 ;;
esac
scope_def=""
# build <dir> <extra verilator args...>: the bench driver of this size, into <dir>/obj/bench.
build() {
  local d=$1
  shift
  rm -rf "$d"; mkdir -p "$d"
  (cd "$root" && /usr/bin/time -v -o "$d/build.time" verilator --cc --exe --build -j "$jobs" \
     -O3 --x-assign fast --x-initial fast -Wno-fatal --assert "+incdir+$root/rtl/assert" \
     "+incdir+$root/rtl" "$g" "${unbind[@]}" "${once[@]}" \
     "${vargs[@]}" "$@" --top-module "$top" \
     --Mdir "$d/obj" -CFLAGS "-O2 -std=c++17 -DBENCH_TOP=V$top -DBENCH_HDR='\"V$top.h\"' \
       -DBENCH_PES=$pes -DBENCH_TORUS=$([ "$kind" = torus ] && echo 1 || echo 0) \
       -DBENCH_BITMAP_BITS=$bm -DBENCH_WAVE=$wave_def$scope_def" \
     "${files[@]}" "${asserts[@]}" "$root/cosim/rta/bench_scaling_main.cpp" -o bench > "$d/build.log" 2>&1) \
    || { echo "bench_scaling: build of $kind $s ($*) failed, see $d/build.log" >&2; exit 1; }
}
# run <dir>: the bench's output line (its peak memory appended), or exit on a failed run.
run() {
  local out
  # A model whose evaluation keeps many wide temporaries on the stack (the flat-port
  # concatenations of rta_ring before its per-word rewrite: N = 4096) overflows the default 8 MB
  # stack: run this script under `ulimit -s unlimited` to measure such a model.
  out=$(/usr/bin/time -v -o "$1/run.time" "$1/obj/bench" "$secs" "$1/w.fst") \
    || { echo "bench_scaling: $kind $s: the model's run failed (exit $?; a stack overflow? see above)" >&2; exit 1; }
  rm -f "$1/w.fst"
  echo "$out $(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$1/run.time")"
}
# build_stats <dir>: "<wall s> <peak MB>" of the build in <dir>.
build_stats() {
  awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); t = 0;
              for (i = 1; i <= n; i++) t = t * 60 + a[i]; w = t}
              /Maximum resident/ {m = $2 / 1024} END {printf "%.1f %.0f\n", w, m}' "$1/build.time"
}
# cosim_rate <exe> <size option> <size> <compare> <n>: PE-cycles per CPU second of the cosim's
# marginal cycles: the least user CPU time of BENCH_REPEAT runs (default 5) of 2n cycles minus the
# least of as many runs of n, each run pinned to CPU BENCH_CPU (default the last one; none: not
# pinned). Other work on a shared machine (this VM's neighbours included) only adds time to a run,
# so the least of several is the nearest to the run's own cost; the median of pairwise
# differences, used before, kept that noise (one executable gave 1.6e7 to 3.5e7 PE-cycles/s).
cosim_rate() {
  local best=() t c k m
  for c in "$5" "$(($5 * 2))"; do
    m=""
    for ((k = 0; k < ${BENCH_REPEAT:-5}; k++)); do
      t=$( { /usr/bin/time -f %U "${pin[@]}" "$1" "$2" "$3" --cycles "$c" --compare "$4" \
               --quiet >/dev/null; } 2>&1 ) \
        || { echo "bench_scaling: $1 $2 $3 --cycles $c --compare $4 failed" >&2; exit 1; }
      m=$(awk -v a="$t" -v b="$m" 'BEGIN {print (b == "" || a + 0 < b + 0) ? a : b}')
    done
    best+=("$m")
  done
  awk -v n="$5" -v p="$pes" -v t1="${best[0]}" -v t2="${best[1]}" \
    'BEGIN {d = t2 - t1; if (d <= 0) d = 1e-9; printf "%.4g", n * p / d}'
}
pin=()
cpu=${BENCH_CPU:-$(($(nproc) - 1))}
if [ "$cpu" != none ] && command -v taskset >/dev/null; then pin=(taskset -c "$cpu"); fi
# rel <a> <b>: a / b to 3 places (a rate against the first size's); slowdown <a> <b>: to 1 place.
rel() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f", a / b}'; }
slowdown() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.1f", a / b}'; }
field() { awk -v k="$2" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}' <<<"$1"; }
first=""
cols="%-6s %6s %6s %8s %8s %11s %12s %6s %7s"
hdr=(fabric size PEs build_s bld_MB cycles/s PE-cycles/s rel run_MB)
if [ "${BENCH_FLAT:-0}" = both ]; then cols+=" %8s %8s %8s"; hdr+=(flat_s flat_MB flat_rel); fi
if [ "${BENCH_CHECKERS:-1}" = both ]; then cols+=" %13s %7s"; hdr+=(PE-cyc/s_bare rel_bare); fi
if [ "${BENCH_WAVE:-0}" = 1 ]; then cols+=" %9s %9s %9s"; hdr+=(fst_x fst_thr_x fst_row_x); fi
if [ -n "${BENCH_COSIM:-}" ]; then cols+=" %12s %12s %9s"; hdr+=(cosim_drive cosim_compare drive_rel); fi
# shellcheck disable=SC2059
printf "$cols\n" "${hdr[@]}"
for s in "${sizes[@]}"; do
  if [ "$kind" = ring ]; then pes=$s; bm=$((s / 2 - 1)); g=-GN=$s; opt=--pes
  else pes=$((s * s)); bm=$((s * (s - 2))); g=-GSide=$s; opt=--side; fi
  dir=$work/${kind}_$s
  wave_def=0
  build "$dir"
  read -r wall peak < <(build_stats "$dir")
  out=$(run "$dir")
  cps=$(field "$out" cycles/s)
  pcps=$(field "$out" PE-cycles/s)
  [ -n "$first" ] || first=$pcps
  row=("$kind" "$s" "$pes" "$wall" "$peak" "$(printf %.4g "$cps")" "$(printf %.4g "$pcps")" "$(rel "$pcps" "$first")" "${out##* }")
  if [ "${BENCH_FLAT:-0}" = both ]; then
    # The same model with the rings inlined (no compile_once.vlt): its build and its rate.
    saved=("${once[@]}")
    once=()
    build "$dir.flat"
    once=("${saved[@]}")
    read -r fwall fpeak < <(build_stats "$dir.flat")
    fp=$(field "$(run "$dir.flat")" PE-cycles/s)
    row+=("$fwall" "$fpeak" "$(rel "$fp" "$first")")
  fi
  if [ "${BENCH_CHECKERS:-1}" = both ]; then
    # The same model without any checker: its PE-cycles/s and their ratio to the first size's.
    saved=("${asserts[@]}")
    asserts=()
    build "$dir.bare"
    asserts=("${saved[@]}")
    bare=$(field "$(run "$dir.bare")" PE-cycles/s)
    [ -n "${first_bare:-}" ] || first_bare=$bare
    row+=("$(printf %.4g "$bare")" "$(rel "$bare" "$first_bare")")
  fi
  if [ "${BENCH_WAVE:-0}" = 1 ]; then
    # Slowdown on wall-clock time: the model alone, then with the FST writer inline and on its
    # own thread (the same driver, rebuilt with BENCH_WAVE).
    base=$(field "$out" wall-cycles/s)
    wave_def=1
    build "$dir.fst" --trace-fst
    build "$dir.fst_thr" --trace-fst --trace-threads 1
    w1=$(field "$(run "$dir.fst")" wall-cycles/s)
    w2=$(field "$(run "$dir.fst_thr")" wall-cycles/s)
    row+=("$(slowdown "$base" "$w1")" "$(slowdown "$base" "$w2")")
    if [ "$kind" = torus ]; then
      # The PE window: row 0's ring only (the ring has no smaller scope than its ports).
      scope_def=" -DBENCH_WAVE_SCOPE='\"top.rta_torus2d.g_row[0]\"'"
      build "$dir.fst_row" --trace-fst
      scope_def=""
      w3=$(field "$(run "$dir.fst_row")" wall-cycles/s)
      row+=("$(slowdown "$base" "$w3")")
    else
      row+=("-")
    fi
  fi
  if [ -n "${BENCH_COSIM:-}" ]; then
    # The cosim executable of this build: PE-cycles per CPU second driving only and with the
    # compare (cosim_rate), n about BENCH_SECS of the model's own cycles.
    exe=$BENCH_COSIM/cosim_$top
    n=$(awk -v c="$cps" -v t="$secs" 'BEGIN {n = int(c * t); print (n < 100 ? 100 : n)}')
    drive=$(cosim_rate "$exe" $opt "$s" 0 "$n")
    [ -n "${first_drive:-}" ] || first_drive=$drive
    row+=("$drive" "$(cosim_rate "$exe" $opt "$s" 1 "$n")" "$(rel "$drive" "$first_drive")")
  fi
  # shellcheck disable=SC2059
  printf "$cols\n" "${row[@]}"
done
