#!/usr/bin/env bash
# bench_ps_network.sh - the perfect-shuffle RTL's cycle counts and the cosim's speed (a benchmark,
# not a test).
#
# usage: cosim/ps/bench_ps_network.sh <build>/bin/cosim_ps_network [<build>/bin/pinet] [N]
#
# For every collective on N PEs (default 64) and M = 4224 and 8064 words (multiples of N = 64
# and of log2 N = 6, the broadcasts' packet count; both >= 64 N), one cosim run with every output
# compared every cycle (--runs 1 --bad 0). It prints the cycle in which the RTL raised done
# (measured on the DUT's done_o), the ideal (1 - 1/N) M words plus one setup cycle per step,
# their ratio, the C model's T (pinet shuffle run ... --json, when the CLI is given: the RTL matches
# it or the cosim would have failed), the cosim speed in cycles/s over the whole run (memory
# loads, the collective, the read-back), with checking and without (--compare 0), and (with the
# CLI) the link-capacity lower bound of any schedule (docs/shuffle.md section 12) and
# rtl_cycles / bound.
set -eu
exe=${1:?usage: bench_ps_network.sh <cosim_ps_network> [<pinet CLI>] [N]}
cli=${2:-}
pes=${3:-64}
[ -x "$exe" ] || { echo "bench_ps_network: $exe is not executable" >&2; exit 2; }
n=0
while [ $((1 << n)) -lt "$pes" ]; do n=$((n + 1)); done
ops=(bcast bcast-host scatter integrate allgather gather upload)
steps=($((2 * n - 1)) $((2 * n)) $((n + 1)) $n $n $n $((n + 1)))

printf 'perfect-shuffle RTL, N = %d (n = %d): cycles until done against (1 - 1/N) M + steps\n' \
  "$pes" "$n"
printf '%-11s %6s %6s %11s %11s %8s %11s %13s %13s %9s %9s\n' op M steps rtl_cycles ideal ratio \
  model_T 'cycles/s chk' 'cycles/s raw' bound rtl/bound
for words in 4224 8064; do
  for op in 0 1 2 3 4 5 6; do
    out=$("$exe" --pes "$pes" --op $op --words $words --runs 1 --bad 0 --disturb 0 \
          --cycles 10000000)
    line=$(printf '%s\n' "$out" | grep '^bench ')
    rtl=$(printf '%s\n' "$line" | sed -n 's/.* rtl_cycles \([0-9]*\).*/\1/p')
    speed=$(printf '%s\n' "$out" | sed -n 's/.*(\([0-9]*\) cycles\/s.*/\1/p' | head -n 1)
    if ! printf '%s\n' "$out" | grep -q '^PASS '; then
      echo "bench_ps_network: cosim failed: $out" >&2
      exit 1
    fi
    raw=$("$exe" --pes "$pes" --op $op --words $words --runs 1 --compare 0 --cycles 10000000 |
          sed -n 's/.*(\([0-9]*\) cycles\/s.*/\1/p' | head -n 1)
    model=- bound=- over=-
    if [ -n "$cli" ]; then
      read -r model bound < <("$cli" shuffle run --op "${ops[$op]}" --pes "$pes" --words $words \
        --json | python3 -c 'import json, sys; j = json.load(sys.stdin); print(j["cycles"], j["bound"])')
      over=$(awk -v a="$rtl" -v b="$bound" 'BEGIN { printf "%.3f", a / b }')
    fi
    ideal=$(( words - words / pes + ${steps[$op]} ))
    ratio=$(awk -v a="$rtl" -v b="$ideal" 'BEGIN { printf "%.3f", a / b }')
    printf '%-11s %6d %6d %11d %11d %8s %11s %13s %13s %9s %9s\n' "${ops[$op]}" $words \
      "${steps[$op]}" "$rtl" "$ideal" "$ratio" "$model" "$speed" "$raw" "$bound" "$over"
  done
done
cat <<'EOF'
ratio = rtl_cycles / ideal. The RTL adds no cycle to the C model's cycle contract (rtl_cycles =
model_T); integrate, allgather and gather reach the ideal exactly (n + (1 - 1/N) M). The others
are longer by construction of the paper's schedules, not by the RTL: scatter and upload move M/2
more on the host link and the root's tree link ((n+1) + M/2 + (1 - 1/N) M), and the pipelined
broadcasts send every packet over log N tree levels ((2n - 1)(1 + M/n), 2n (1 + M/n)).
rtl/bound: against what the links allow any schedule (PE 0 has two useful channels each way, the
host link one), the paper's schedules are 1.5x to 3.7x off; issue 11's fast schedules aim at 1.05x.
EOF
