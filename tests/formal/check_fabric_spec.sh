#!/bin/sh
# check_fabric_spec.sh <pinet> <iverilog> <vvp> <work dir> <source dir>
#   The specifications the fabric proofs compare against must be the C model's routing: for every
#   bitmap of a ring of N = 4, 8, 16 PEs (formal/rta_ring_spec.sv) and of the 4 x 4 torus
#   (formal/rta_torus2d_spec.sv), the pairing they print under Icarus (tests/formal/*_spec_tb.sv)
#   equals the "ports:" list of `pinet rta route`. Prints one PASS/FAIL line per size.
set -eu
pinet=$1; iverilog=$2; vvp=$3; work=$4; src=$5
mkdir -p "$work"

# check <name> <dim> <pes> <bits> <iverilog args...>
check() {
  name=$1; dim=$2; pes=$3; bits=$4
  shift 4
  "$iverilog" -g2012 -o "$work/$name.vvp" "$@"
  "$vvp" -n "$work/$name.vvp" | grep -v 'finish' > "$work/${name}_spec.txt"
  : > "$work/${name}_cmodel.txt"
  b=0
  while [ $b -lt $((1 << bits)) ]; do
    hex=$(printf '%x' "$b")
    echo "bitmap $hex" >> "$work/${name}_cmodel.txt"
    "$pinet" rta route --dim "$dim" --pes "$pes" --bitmap "$hex" |
      sed -n '/^ports:/,$p' | sed '1d; s/^ *//' >> "$work/${name}_cmodel.txt"
    b=$((b + 1))
  done
  if ! diff -u "$work/${name}_cmodel.txt" "$work/${name}_spec.txt" > "$work/${name}.diff"; then
    head -20 "$work/${name}.diff"
    echo "FAIL fabric spec $name: differs from pinet rta route (see $work/${name}.diff)"
    exit 1
  fi
  echo "PASS fabric spec $name: $((1 << bits)) bitmaps, every port as pinet rta route"
}

for n in 4 8 16; do
  check "ring_n$n" 1 "$n" $((n / 2 - 1)) -P ring_spec_tb.N="$n" \
    "$src/formal/rta_ring_spec.sv" "$src/tests/formal/ring_spec_tb.sv"
done
check torus2d_s4 2 16 8 -P torus_spec_tb.Side=4 \
  "$src/formal/rta_ring_spec.sv" "$src/formal/rta_torus2d_spec.sv" \
  "$src/tests/formal/torus_spec_tb.sv"
