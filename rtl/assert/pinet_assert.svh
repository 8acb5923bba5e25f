// Copyright pinet contributors.
//
// pinet_assert.svh: the one macro header of the RTL's assertion checkers (rtl/assert/, one
// checker module <module>_assert per RTL module, docs/verification.md "Assertions").
//
// A property is written once, as an immediate assertion inside a clocked `always` block (or an
// `always_comb` block of a combinational block's checker) of the checker module:
//   `PINET_ASSERT("ps_router.busy_done", !(busy_o && done_o))
// The name is "<module>.<property>". The subset of SystemVerilog used here is the one that both
// simulators' compiler (Verilator 5.006, --assert) and yosys 0.23 (read_verilog -formal, no
// Verific) read:
// immediate `assert (expr)` in clocked or combinational `always` blocks of an ordinary module,
// with the checker's own flops for past values (yosys rejects `assert property (@(posedge ..))`
// and ignores `bind`; Icarus 11 reads none of it and its builds leave rtl/assert/ out). The
// expression must not contain a top-level comma (a macro argument): parenthesise it.
//
// What a failing assertion does depends on the tool (a define chosen by the build):
//   FORMAL (yosys -formal)    a plain `assert (expr);`: the proofs prove it (scripts/formal.sh)
//   PINET_ASSERT_DPI          the cosims (cosim/): calls pinet_assertion_failed(name) through
//                             DPI-C (cosim/common/cosim.h), the harness ends the run with
//                             "FAIL <block> cycle <c> assertion <name> seed <s>", exit 1
//   otherwise                 Verilator's testbenches, lint: $error naming the property, which
//                             stops a --binary simulation with a non-zero exit
// Each checker module starts with `PINET_ASSERT_IMPORT (the DPI-C import where it is used).
`ifndef PINET_ASSERT_SVH
`define PINET_ASSERT_SVH

`ifdef FORMAL
`define PINET_ASSERT_IMPORT
`define PINET_ASSERT(name, expr) assert (expr);
`elsif PINET_ASSERT_DPI
`define PINET_ASSERT_IMPORT import "DPI-C" function void pinet_assertion_failed(input string name);
`define PINET_ASSERT(name, expr) assert (expr) else pinet_assertion_failed(name);
`else
`define PINET_ASSERT_IMPORT
`define PINET_ASSERT(name, expr) assert (expr) else $error("assertion %s", name);
`endif

`endif  // PINET_ASSERT_SVH
