#!/usr/bin/env bash
# check_fault_injection.sh - the RTA cosims must fail loudly and correctly (the checks are those
# of cosim/common/fault_injection.sh).
#
# usage: check_fault_injection.sh <cosim_rta_ring> <cosim_rta_torus2d> <cosim_rta_bitmap_ctrl>
#                                 <cosim_rta_system>
#
# The signal in the FAIL line is the one the harness compares first; the last wave timestamp is
# the failing cycle's (combinational harnesses: 2F; clocked ones dump the failing cycle's two
# clock edges: 2F + 2).
ring=$1 torus=$2 ctrl=$3 system=$4
# shellcheck source=../common/fault_injection.sh
. "$(dirname "$0")/../common/fault_injection.sh"

expect_fault ring rta_ring 'l_o\[0\]' 2468 3000 "$ring" --pes 8 --cycles 3000
expect_fault torus rta_torus2d 'l_o\[0\]' 2468 3000 "$torus" --side 4 --cycles 3000
expect_fault ctrl rta_bitmap_ctrl 'bitmap_o\[0\]' 2470 3000 "$ctrl" --dim 1 --side 8 --cycles 3000
expect_fault system rta_system 'bitmap_o\[0\]' 2470 3000 "$system" --dim 2 --side 4 --cycles 3000

# Sizes the executables do not contain, and malformed options.
expect_invalid "ring --pes 32" "$ring" --pes 32
expect_usage "ring --compare 2" "$ring" --pes 8 --compare 2
expect_invalid "torus --side 12" "$torus" --side 12
expect_invalid "ctrl --dim 2 --side 256" "$ctrl" --dim 2 --side 256
expect_invalid "ctrl --dim 3" "$ctrl" --dim 3 --side 8
expect_invalid "system --side 16" "$system" --dim 1 --side 16
expect_usage "ring --inject-fault x" "$ring" --pes 8 --inject-fault x

expect_hidden_option "$ring" "$torus" "$ctrl" "$system"
finish
