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
// Each checker module starts with `PINET_ASSERT_IMPORT (the DPI-C imports where they are used).
//
// A cover property (functional coverage seen from inside the RTL: a scenario of the block's
// internal state that the harness cannot see, e.g. a command in a router's setup cycle) is
// written once too, at module level of a clocked checker (clk_i, rst_ni and the checker's
// armed_q in scope), sampled at the clock edge in a cycle out of reset:
//   `PINET_COVER("ps_router.cmd_setup", cmd_setup, (cmd_start_i && busy_o && !xfer))
// (the name, an identifier of it unique in the checker, the expression):
//   FORMAL + PINET_FORMAL_COVER  an immediate `cover (expr);` in a clocked block, which
//                             yosys-smtbmc -c reaches (scripts/formal.sh --cover); without
//                             PINET_FORMAL_COVER the proofs leave the covers out
//   PINET_ASSERT_DPI          the first cycle that hits it calls pinet_cover_hit(name) (one call
//                             per instance and run: a flop remembers it), which the cosim
//                             harness counts as the functional coverage bin rtl_<module>_<cover>
//                             (cosim/common/cosim.h, fcov.h)
//   otherwise                 nothing (the expression is read into an unused_ signal)
`ifndef PINET_ASSERT_SVH
`define PINET_ASSERT_SVH

// Where covers are not counted, a cover's signals are still read (Verilator's -Wall would call a
// signal only a cover reads unused; names with "unused" are exempt).
`define PINET_COVER_UNUSED(id, expr) \
  logic unused_cover_``id``; \
  assign unused_cover_``id`` = |(expr);

`ifdef FORMAL
`define PINET_ASSERT_IMPORT
`define PINET_ASSERT(name, expr) assert (expr);
`ifdef PINET_FORMAL_COVER
`define PINET_COVER(name, id, expr) \
  always @(posedge clk_i) begin \
    if (rst_ni && armed_q) cover (expr); \
  end
`else
`define PINET_COVER(name, id, expr) `PINET_COVER_UNUSED(id, expr)
`endif
`elsif PINET_ASSERT_DPI
`define PINET_ASSERT_IMPORT \
  import "DPI-C" function void pinet_assertion_failed(input string name); \
  import "DPI-C" function void pinet_cover_hit(input string name);
`define PINET_ASSERT(name, expr) assert (expr) else pinet_assertion_failed(name);
`define PINET_COVER(name, id, expr) \
  logic cover_``id``_q = 1'b0; \
  always_ff @(posedge clk_i or negedge rst_ni) begin \
    if (!rst_ni) begin \
    end else if (armed_q && (expr) && !cover_``id``_q) begin \
      pinet_cover_hit(name); \
      cover_``id``_q <= 1'b1; \
    end \
  end
`else
`define PINET_ASSERT_IMPORT
`define PINET_ASSERT(name, expr) assert (expr) else $error("assertion %s", name);
`define PINET_COVER(name, id, expr) `PINET_COVER_UNUSED(id, expr)
`endif

`endif  // PINET_ASSERT_SVH
