#!/usr/bin/env bash
# bench_scaling.sh - how the Verilated RTA fabrics scale with the number of PEs (model only).
#
# usage: bench_scaling.sh ring|torus SIZE... [-- VERILATOR_ARGS...]
#   ring: SIZE is N (PEs); torus: SIZE is Side (Side*Side PEs).
#   env: BENCH_DIR (work directory, default /tmp/pinet_bench_scaling), BENCH_SECS (CPU seconds per
#        run, default 2), BENCH_JOBS (make -j, default 1), BENCH_RTL (the directory of the .sv
#        files, default rtl/ of this checkout: point it at a copy to compare two versions).
#
# For each size: Verilates rta_ring / rta_torus2d (-O3 --x-assign fast --x-initial fast, the
# cosims' options, plus VERILATOR_ARGS) with bench_scaling_main.cpp, a driver that puts random
# words on every input port and a random bitmap each cycle and calls eval() (no C model, no
# compare), and prints one line: the build's wall time and peak memory (/usr/bin/time -v), the
# model's cycles/s and PE-cycles/s on CPU time, and the PE-cycles/s relative to the first size.
# Not a test.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
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
  *) echo "bench_scaling: unknown fabric '$kind' (ring or torus)" >&2; exit 2 ;;
esac
first=""
printf "%-6s %6s %6s %9s %9s %11s %12s %6s\n" fabric size PEs build_s peak_MB cycles/s PE-cycles/s rel
for s in "${sizes[@]}"; do
  if [ "$kind" = ring ]; then pes=$s; bm=$((s / 2 - 1)); g=-GN=$s
  else pes=$((s * s)); bm=$((s * (s - 2))); g=-GSide=$s; fi
  dir=$work/${kind}_$s
  rm -rf "$dir"; mkdir -p "$dir"
  (cd "$root" && /usr/bin/time -v -o "$dir/build.time" verilator --cc --exe --build -j "$jobs" \
     -O3 --x-assign fast --x-initial fast -Wno-fatal "$g" "${vargs[@]}" --top-module "$top" \
     --Mdir "$dir/obj" -CFLAGS "-O2 -std=c++17 -DBENCH_TOP=V$top -DBENCH_HDR='\"V$top.h\"' \
       -DBENCH_PES=$pes -DBENCH_TORUS=$([ "$kind" = torus ] && echo 1 || echo 0) \
       -DBENCH_BITMAP_BITS=$bm" \
     "${files[@]}" "$root/cosim/rta/bench_scaling_main.cpp" -o bench > "$dir/build.log" 2>&1) \
    || { echo "bench_scaling: build of $kind $s failed, see $dir/build.log" >&2; exit 1; }
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, a, ":"); t = 0;
         for (i = 1; i <= n; i++) t = t * 60 + a[i]; print t}' "$dir/build.time")
  peak=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2 / 1024}' "$dir/build.time")
  # A model whose evaluation keeps many wide temporaries on the stack (the flat-port
  # concatenations of rta_ring before its per-word rewrite: N = 4096) overflows the default 8 MB
  # stack: run this script under `ulimit -s unlimited` to measure such a model.
  out=$("$dir/obj/bench" "$secs") \
    || { echo "bench_scaling: $kind $s: the model's run failed (exit $?; a stack overflow? see above)" >&2; exit 1; }
  cps=$(echo "$out" | awk '{print $9}')
  pcps=$(echo "$out" | awk '{print $11}')
  [ -n "$first" ] || first=$pcps
  rel=$(awk -v a="$pcps" -v b="$first" 'BEGIN {printf "%.3f", a / b}')
  printf '%-6s %6s %6s %9.1f %9s %11.4g %12.4g %6s\n' "$kind" "$s" "$pes" "$wall" "$peak" "$cps" "$pcps" "$rel"
done
