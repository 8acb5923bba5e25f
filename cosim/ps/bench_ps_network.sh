#!/usr/bin/env bash
# bench_ps_network.sh - the perfect-shuffle RTL's cycle counts, paper against fast schedules,
# against the link-capacity bound (a benchmark, not a test).
#
# usage: cosim/ps/bench_ps_network.sh <build>/bin/cosim_ps_network <build>/bin/pinet [N ...]
#
# For every collective on N PEs (default N = 8 16 32 64) and M = 64 N and 128 N (rounded down to
# a multiple of log2 N for the broadcasts, whose paper schedule sends packets of M / log2 N), two
# cosim runs with every output compared every cycle (--runs 1 --bad 0 --disturb 0): cmd_fast_i =
# 0 (the paper's schedule) and 1 (the fast one). Columns:
#   paper, fast   the cycle in which the RTL raised done (measured on the DUT's done_o); the
#                 cosim fails unless it is the C model's T
#   model_fast    the C model's fast schedule (pinet shuffle run --schedule fast): where it is
#                 below `fast`, the C model has a faster schedule than the RTL runs yet
#   bound         the link-capacity lower bound of any schedule (docs/shuffle.md section 12)
#   /bound        paper, fast and model_fast over the bound
#   cycles/s      the cosim's speed over the fast run (memory loads, collective, read-back)
set -eu
# shellcheck source=scripts/quote.sh
. "$(dirname "$0")/../../scripts/quote.sh"
# shellcheck source=scripts/verdict.sh
. "$(dirname "$0")/../../scripts/verdict.sh"
exe=${1:?usage: bench_ps_network.sh <cosim_ps_network> <pinet CLI> [N ...]}
cli=${2:?usage: bench_ps_network.sh <cosim_ps_network> <pinet CLI> [N ...]}
shift 2
sizes=("$@")
[ ${#sizes[@]} -gt 0 ] || sizes=(8 16 32 64)
[ -x "$exe" ] || { echo "bench_ps_network: $(pinet_quote "$exe") is not executable" >&2; exit 2; }
[ -x "$cli" ] || { echo "bench_ps_network: $(pinet_quote "$cli") is not executable" >&2; exit 2; }
ops=(bcast bcast-host scatter integrate allgather gather upload)

# rtl_cycles <N> <op number> <M> <fast 0|1> [speed variable]: one compared cosim run.
rtl_cycles() {
  local out line
  out=$("$exe" --pes "$1" --op "$2" --words "$3" --fast "$4" --runs 1 --bad 0 --disturb 0 \
        --cycles 10000000 2>&1) || true
  if ! pinet_verdict check --kind PASS <<<"$out" 2>/dev/null; then
    echo "bench_ps_network: cosim failed (N $1, op $2, M $3, fast $4): $out" >&2
    exit 1
  fi
  line=$(printf '%s\n' "$out" | grep '^bench ')
  cyc=$(printf '%s\n' "$line" | sed -n 's/.* rtl_cycles \([0-9]*\).*/\1/p')
  speed=$(printf '%s\n' "$out" | sed -n 's/.*(\([0-9]*\) cycles\/s.*/\1/p' | head -n 1)
}

# model <op> <N> <M> <paper|fast>: the C model's T and bound.
model() {
  "$cli" shuffle run --op "$1" --pes "$2" --words "$3" --schedule "$4" --json |
    python3 -c 'import json, sys; j = json.load(sys.stdin); print(j["cycles"], j["bound"])'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

printf 'perfect-shuffle RTL: cycles until done, paper and fast schedules, against the link bound\n'
printf '%4s %-11s %6s %7s %7s %10s %7s %12s %11s %17s %9s\n' N op M paper fast model_fast bound \
  paper/bound fast/bound model_fast/bound cycles/s
for pes in "${sizes[@]}"; do
  n=0
  while [ $((1 << n)) -lt "$pes" ]; do n=$((n + 1)); done
  for mult in 64 128; do
    for op in 0 1 2 3 4 5 6; do
      words=$((mult * pes))
      if [ $op -le 1 ]; then words=$(( words / n * n )); fi
      bound='' mfast=''
      rtl_cycles "$pes" $op $words 0
      paper=$cyc
      rtl_cycles "$pes" $op $words 1
      fast=$cyc
      read -r _ bound < <(model "${ops[$op]}" "$pes" $words paper)
      read -r mfast _ < <(model "${ops[$op]}" "$pes" $words fast)
      [ -n "${bound:-}" ] && [ -n "${mfast:-}" ] ||
        { echo "bench_ps_network: $cli shuffle run failed (N $pes, ${ops[$op]}, M $words)" >&2; exit 1; }
      printf '%4d %-11s %6d %7d %7d %10d %7d %12s %11s %17s %9s\n' "$pes" "${ops[$op]}" $words \
        "$paper" "$fast" "$mfast" "$bound" "$(ratio "$paper" "$bound")" \
        "$(ratio "$fast" "$bound")" "$(ratio "$mfast" "$bound")" "$speed"
    done
  done
done
cat <<'EOF'
The RTL adds no cycle to the C model's cycle contract (the cosim compares every output every
cycle). paper: bcast (2n - 1)(1 + M/n), bcast-host 2n (1 + M/n), scatter and upload (n + 1) + M/2
+ (1 - 1/N) M, integrate, allgather and gather n + (1 - 1/N) M. fast (docs/shuffle.md section
13): the broadcasts at their bound (ceil(M/2) + n, M + n + 1), scatter and upload (n + 1) + M +
n(n + 1)/2, gather floor((M - S)/2) + n(n + 3)/2, allgather and integrate ceil((M - S)/2) + N/2
(integrate: the RTL's int32 sums around the ring; for float data the C model keeps the paper's
sum tree, hence its schedule).
EOF
