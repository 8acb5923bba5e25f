#!/usr/bin/env bash
# bench_rta_ring.sh - cost of the per-cycle comparison in the N = 256 rta_ring cosim.
#
# usage: bench_rta_ring.sh [path/to/cosim_rta_ring] [cycles] [repeats]
#   (defaults: build/bin/cosim_rta_ring under the repository root, 200000 cycles, 3 repeats)
#
# Runs the same stimulus (same seed, same cycle count, no waveform) with --compare 1 (the C
# model pinet_rta_fabric_eval(pinet_rta_route(bitmap)) and the comparison of all 512 output
# words every cycle) and with --compare 0 (stimulus and Verilator evaluation only), keeps the
# best of the repeats for each, and prints cycles/s for both and the overhead
# (t_compare / t_drive_only - 1), on CPU and on wall time. Goal: overhead < 30 %. Not a test:
# nothing here can fail except a run that does not PASS. Needs /usr/bin/time and python3.
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
# shellcheck source=scripts/quote.sh
. "$root/scripts/quote.sh"
# shellcheck source=scripts/verdict.sh
. "$root/scripts/verdict.sh"
exe=${1:-$root/build/bin/cosim_rta_ring}
cycles=${2:-200000}
repeats=${3:-3}
[ -x "$exe" ] || { echo "bench_rta_ring: $(pinet_quote "$exe") is not an executable (build first)" >&2; exit 2; }

# measure <compare 0|1>: "wall cpu" seconds (cpu = user + sys), each the best over the repeats.
# The overhead is computed on CPU time, which a busy machine disturbs less than wall time.
measure() {
  local cmp=$1 best_wall="" best_cpu="" out tfile
  tfile=$(mktemp)
  for _ in $(seq "$repeats"); do
    out=$(/usr/bin/time -f "%e %U %S" -o "$tfile" "$exe" --pes 256 --cycles "$cycles" --seed 1 \
          --compare "$cmp" --quiet)
    pinet_verdict check --kind PASS <<<"$out" >/dev/null \
      || { echo "bench_rta_ring: run failed: $out" >&2; rm -f "$tfile"; exit 1; }
    read -r wall user sys < "$tfile"
    best_wall=$(python3 -c "b='$best_wall'; print(min($wall, float(b)) if b else $wall)")  # quoting: not user text (Python code)
    best_cpu=$(python3 -c "b='$best_cpu'; c=$user+$sys; print(min(c, float(b)) if b else c)")  # quoting: not user text (Python code)
  done
  rm -f "$tfile"
  echo "$best_wall $best_cpu"
}

read -r w_cmp c_cmp < <(measure 1)
read -r w_drv c_drv < <(measure 0)
python3 - "$cycles" "$w_cmp" "$c_cmp" "$w_drv" "$c_drv" <<'EOF2'
import sys
cycles = int(sys.argv[1])
w_cmp, c_cmp, w_drv, c_drv = map(float, sys.argv[2:])
print(f"bench_rta_ring: N=256, {cycles} cycles, best of the repeats, no waveform")
print(f"  compare every cycle : wall {w_cmp:7.3f} s ({cycles / w_cmp:9.0f} cycles/s)  cpu {c_cmp:7.3f} s ({cycles / c_cmp:9.0f} cycles/s)")
print(f"  compare off         : wall {w_drv:7.3f} s ({cycles / w_drv:9.0f} cycles/s)  cpu {c_drv:7.3f} s ({cycles / c_drv:9.0f} cycles/s)")
print(f"  comparison overhead : cpu {100.0 * (c_cmp / c_drv - 1.0):6.1f} %, wall {100.0 * (w_cmp / w_drv - 1.0):6.1f} %  (goal < 30 %)")
EOF2
