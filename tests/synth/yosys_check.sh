#!/bin/sh
# yosys_check.sh <yosys> <log dir> <top> <params> <flops> <source ...>
#   Synthesises <top> (params: comma-separated Name=value pairs, or `-`) with yosys's generic
#   `synth` (flattened, so that cells are counted per instance), prints the cell statistics,
#   and asserts:
#     - no latch of any kind ($_*LATCH*, $_SR_*), always;
#     - flops = none: no flop at all ($_*FF*);  flops = <n>: exactly n single-bit flop cells.
#   Any yosys error or failed assertion fails the test.
set -eu
yosys=$1; logdir=$2; top=$3; params=$4; flops=$5
shift 5
mkdir -p "$logdir"
name="$top"
[ "$params" != "-" ] && name="${top}_$(printf '%s' "$params" | tr ',=' '__')"
script="$logdir/$name.ys"
{
  printf 'read_verilog -sv'
  for f in "$@"; do printf ' %s' "$f"; done
  printf '\n'
  if [ "$params" != "-" ]; then
    printf 'chparam'
    for p in $(printf '%s' "$params" | tr ',' ' '); do
      printf ' -set %s %s' "${p%%=*}" "${p#*=}"
    done
    printf ' %s\n' "$top"
  fi
  printf 'synth -flatten -top %s\n' "$top"
  printf 'tee -o %s stat\n' "$logdir/$name.stat"
  printf "select -assert-none t:\$_*LATCH* t:\$_SR_*\n"
  if [ "$flops" = none ]; then
    printf "select -assert-none t:\$_*FF*\n"
  else
    printf "select -assert-count %s t:\$_*FF*\n" "$flops"
  fi
} > "$script"
if ! "$yosys" -q -l "$logdir/$name.log" -s "$script" > /dev/null 2>&1; then
  grep -i 'error\|assert' "$logdir/$name.log" | head -20
  echo "FAIL synth $name: see $logdir/$name.log"
  exit 1
fi
sed -n '/Number of cells/,$p' "$logdir/$name.stat"
echo "PASS synth $name: no latch, flops: $flops"
