#!/usr/bin/env bash
# check_fault_injection.sh - the perfect-shuffle cosims must fail loudly and correctly (the checks
# are those of cosim/common/fault_injection.sh).
#
# usage: check_fault_injection.sh <cosim_ps_network> <cosim_ps_system>
#
# ps_network at N = 2 and N = 16 and the SystemC ps_system; the first value compared in a cycle
# is busy_o. The last wave timestamp: the C++ harness dumps the failing cycle's two clock edges
# (2F + 2), the SystemC one stops at the falling edge of cycle F (10 ns cycles, dump in ps).
network=$1 system=$2
# shellcheck source=../common/fault_injection.sh
. "$(dirname "$0")/../common/fault_injection.sh"

expect_fault network_n2 ps_network busy_o 2470 3000 "$network" --pes 2 --cycles 3000
expect_fault network_n16 ps_network busy_o 2470 3000 "$network" --pes 16 --cycles 3000
expect_fault system ps_system busy_o 12340000 '[0-9]+' "$system" --scenarios 2

# Sizes and options the executables do not take.
expect_invalid "network --pes 12" "$network" --pes 12
expect_invalid "network --pes 128" "$network" --pes 128
expect_usage "network --op 8" "$network" --op 8
expect_invalid "network --words 12 (N = 8)" "$network" --pes 8 --words 12 --op 3
expect_invalid "network --words 2048 (MemWords 1024)" "$network" --pes 8 --words 2048
expect_usage "network --compare 2" "$network" --compare 2
expect_usage "network --inject-fault x" "$network" --inject-fault x
expect_invalid "system --scenarios 0" "$system" --scenarios 0
expect_usage "system --bogus 1" "$system" --bogus 1

expect_hidden_option "$network" "$system"
finish
