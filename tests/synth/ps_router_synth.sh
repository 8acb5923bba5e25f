#!/bin/sh
# ps_router_synth.sh <yosys> <log dir> <N> <MemWords> <ram|both> <source ...>
#   Synthesises ps_router (one perfect-shuffle router, Width 32) with N PEs and MemWords words of
#   memory by tests/synth/ps_router.ys (memory kept as a RAM macro) and, with `both`, by
#   tests/synth/ps_router_flops.ys (memory mapped to flops), and reports cells and flops:
#     ps_router N=8 MemWords=64: logic <cells> cells, <flops> flops + RAM 64 x 32 (4R 2W)
#     ps_router N=8 MemWords=64: memory as flops: <cells> cells, <flops> flops
#   Asserts (any failure fails the test): no latch; exactly one memory, with four read and two
#   write ports; the control flops at most the register bits the RTL declares (run, setup, done,
#   step, word, length, error, the command with the fast flag and f, the step plan with the
#   four starts and the last step's add flag: 33 + 13 CntW + 5 AddrW, CntW = clog2(MemWords + log2 N + 1), AddrW =
#   clog2(MemWords)); with `both`, the flop flow has exactly
#   MemWords x 32 flops more than the RAM flow.
set -eu
yosys=$1; logdir=$2; n=$3; mem=$4; mode=$5
shift 5
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$logdir"
log="$logdir/ps_router_n${n}_m${mem}.log"
flows="script $here/ps_router.ys"
[ "$mode" = both ] && flows="$flows; script $here/ps_router_flops.ys"
cmds="read_verilog -sv $*; chparam -set N $n -set MemWords $mem ps_router; $flows"
if ! "$yosys" -q -l "$log" -p "$cmds" > /dev/null 2>&1; then
  grep -i 'error\|assert' "$log" | head -20
  echo "FAIL synth ps_router N=$n MemWords=$mem: see $log"
  exit 1
fi

# cells <flow> / flops <flow>: from the last statistics between the flow's log markers (synth
# prints its own before the script's).
section() {
  sed -n "/==== ps_router flow $1 ====/,/==== ps_router end $1 ====/p" "$log" |
    awk '/Number of cells:/ { buf = "" } { buf = buf $0 "\n" } END { printf "%s", buf }'
}
cells() { section "$1" | awk '/Number of cells:/ { print $4; exit }'; }
flops() {
  section "$1" | awk '$1 ~ /^\$_.*(DFF|SDFF|ALDFF|DFFSR)/ { s += $2 } END { print s + 0 }'
}

clog2() { v=1; b=0; while [ $v -lt "$1" ]; do v=$((v * 2)); b=$((b + 1)); done; echo $b; }
cntw=$(clog2 $((mem + $(clog2 "$n") + 1)))
addrw=$(clog2 "$mem")
bound=$((33 + 13 * cntw + 5 * addrw))

ram_cells=$(cells ram)
ram_flops=$(flops ram)
echo "ps_router N=$n MemWords=$mem: logic $((ram_cells - 1)) cells, $ram_flops flops" \
     "+ RAM $mem x 32 (4R 2W)"
section ram | sed -n '/Number of cells/,/mem_v2/p'
status=0
if [ "$ram_flops" -gt "$bound" ] || [ "$ram_flops" -eq 0 ]; then
  echo "FAIL synth ps_router: $ram_flops control flops, the RTL declares $bound register bits"
  status=1
fi
if [ "$mode" = both ]; then
  fl_cells=$(cells flops)
  fl_flops=$(flops flops)
  echo "ps_router N=$n MemWords=$mem: memory as flops: $fl_cells cells, $fl_flops flops"
  if [ "$fl_flops" -ne $((ram_flops + mem * 32)) ]; then
    echo "FAIL synth ps_router: $fl_flops flops with the memory mapped, expected" \
         "$ram_flops + $mem x 32"
    status=1
  fi
fi
[ $status -eq 0 ] && echo "PASS synth ps_router N=$n MemWords=$mem: no latch, one 4R2W memory," \
                          "$ram_flops control flops (<= $bound register bits)"
exit $status
