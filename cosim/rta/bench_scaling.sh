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
#        by default the bench reads that file, as the cosims do),
#        BENCH_WAVE=1 (also the cost of an FST wave of every cycle: the model rebuilt with
#        --trace-fst, the writer on the simulation thread, and with --trace-threads 1, the writer
#        on its own thread; wall-clock slowdown against the model alone), BENCH_COSIM=DIR (a build's
#        bin/ directory: also the cosim executable of that size with its compare against the C
#        model and without, --compare 1 / 0, interleaved in the same run).
#
# For each size: Verilates rta_ring / rta_torus2d (-O3 --x-assign fast --x-initial fast, the
# cosims' options, plus VERILATOR_ARGS) with bench_scaling_main.cpp, a driver that puts random
# words on every input port and a random bitmap each cycle and calls eval() (no C model, no
# compare), and prints one line: the build's wall time and peak memory (/usr/bin/time -v), the
# model's cycles/s and PE-cycles/s on CPU time, the PE-cycles/s relative to the first size and
# the run's peak memory; with BENCH_WAVE / BENCH_COSIM the columns described above. Not a test.
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
[ "${BENCH_FLAT:-0}" = 1 ] && once=()
# build <dir> <extra verilator args...>: the bench driver of this size, into <dir>/obj/bench.
build() {
  local d=$1
  shift
  rm -rf "$d"; mkdir -p "$d"
  (cd "$root" && /usr/bin/time -v -o "$d/build.time" verilator --cc --exe --build -j "$jobs" \
     -O3 --x-assign fast --x-initial fast -Wno-fatal --assert "+incdir+$root/rtl/assert" "$g" \
     "${unbind[@]}" "${once[@]}" \
     "${vargs[@]}" "$@" --top-module "$top" \
     --Mdir "$d/obj" -CFLAGS "-O2 -std=c++17 -DBENCH_TOP=V$top -DBENCH_HDR='\"V$top.h\"' \
       -DBENCH_PES=$pes -DBENCH_TORUS=$([ "$kind" = torus ] && echo 1 || echo 0) \
       -DBENCH_BITMAP_BITS=$bm -DBENCH_WAVE=$wave_def" \
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
field() { awk -v k="$2" '{for (i = 1; i < NF; i++) if ($i == k) print $(i + 1)}' <<<"$1"; }
first=""
cols="%-6s %6s %6s %8s %8s %11s %12s %6s %7s"
hdr=(fabric size PEs build_s bld_MB cycles/s PE-cycles/s rel run_MB)
if [ "${BENCH_WAVE:-0}" = 1 ]; then cols+=" %9s %9s"; hdr+=(fst_x fst_thr_x); fi
if [ "${BENCH_CHECKERS:-1}" = both ]; then cols+=" %13s %7s"; hdr+=(PE-cyc/s_bare rel_bare); fi
if [ -n "${BENCH_COSIM:-}" ]; then cols+=" %12s %12s"; hdr+=(cosim_drive cosim_compare); fi
# shellcheck disable=SC2059
printf "$cols\n" "${hdr[@]}"
for s in "${sizes[@]}"; do
  if [ "$kind" = ring ]; then pes=$s; bm=$((s / 2 - 1)); g=-GN=$s; opt=--pes
  else pes=$((s * s)); bm=$((s * (s - 2))); g=-GSide=$s; opt=--side; fi
  dir=$work/${kind}_$s
  wave_def=0
  build "$dir"
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); t = 0;
         for (i = 1; i <= n; i++) t = t * 60 + a[i]; print t}' "$dir/build.time")
  peak=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$dir/build.time")
  out=$(run "$dir")
  cps=$(field "$out" cycles/s)
  pcps=$(field "$out" PE-cycles/s)
  [ -n "$first" ] || first=$pcps
  rel=$(awk -v a="$pcps" -v b="$first" 'BEGIN {printf "%.3f", a / b}')
  row=("$kind" "$s" "$pes" "$(printf %.1f "$wall")" "$peak" "$(printf %.4g "$cps")" "$(printf %.4g "$pcps")" "$rel" "${out##* }")
  if [ "${BENCH_CHECKERS:-1}" = both ]; then
    # The same model without any checker: its PE-cycles/s and their ratio to the first size's.
    saved=("${asserts[@]}")
    asserts=()
    build "$dir.bare"
    asserts=("${saved[@]}")
    bare=$(field "$(run "$dir.bare")" PE-cycles/s)
    [ -n "${first_bare:-}" ] || first_bare=$bare
    row+=("$(printf %.4g "$bare")" "$(awk -v a="$bare" -v b="$first_bare" 'BEGIN {printf "%.3f", a / b}')")
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
    row+=("$(awk -v a="$base" -v b="$w1" 'BEGIN {printf "%.1f", a / b}')"
          "$(awk -v a="$base" -v b="$w2" 'BEGIN {printf "%.1f", a / b}')")
  fi
  if [ -n "${BENCH_COSIM:-}" ]; then
    # The cosim executable of this build: PE-cycles/s driving only and with the compare, each on
    # about BENCH_SECS of wall time (cycles from the model's own rate), interleaved here.
    exe=$BENCH_COSIM/cosim_$top
    n=$(awk -v c="$cps" -v t="$secs" 'BEGIN {n = int(c * t / 4); print (n < 100 ? 100 : n)}')
    for compare in 0 1; do
      t0=$(date +%s.%N)
      "$exe" $opt "$s" --cycles "$n" --compare $compare --quiet >/dev/null \
        || { echo "bench_scaling: $exe $opt $s --compare $compare failed" >&2; exit 1; }
      t1=$(date +%s.%N)
      row+=("$(awk -v n="$n" -v p="$pes" -v a="$t0" -v b="$t1" 'BEGIN {printf "%.4g", n * p / (b - a)}')")
    done
  fi
  # shellcheck disable=SC2059
  printf "$cols\n" "${row[@]}"
done
