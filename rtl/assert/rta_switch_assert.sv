// Copyright pinet contributors.
//
// rta_switch_assert: the assertions of rta_switch (rtl/rta_switch.sv), stated as the pairs of
// terminals the switch joins (docs/rta.md): ON joins 1<->2 and 3<->4, OFF joins 1<->3 and
// 2<->4, each pair both ways. Combinational: checked whenever the switch's inputs change. Bound
// to every rta_switch in the Verilator builds (rta_switch_bind.sv), instantiated at the end of
// rta_switch under `ifdef FORMAL for the proofs.
//
//   on_pairs   when ON, terminal 1 gets 2's word and 2 gets 1's, 3 gets 4's and 4 gets 3's
//   off_pairs  when OFF, terminal 1 gets 3's word and 3 gets 1's, 2 gets 4's and 4 gets 2's

`include "pinet_assert.svh"

module rta_switch_assert #(
  parameter int Width = 32
) (
  input logic             on_i,
  input logic [Width-1:0] t1_i,
  input logic [Width-1:0] t2_i,
  input logic [Width-1:0] t3_i,
  input logic [Width-1:0] t4_i,
  input logic [Width-1:0] t1_o,
  input logic [Width-1:0] t2_o,
  input logic [Width-1:0] t3_o,
  input logic [Width-1:0] t4_o
);

  `PINET_ASSERT_IMPORT

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  // Only the pairs of the current state are compared (the fabrics bind one checker per switch).
  always_comb begin
    if (on_i) begin
      `PINET_ASSERT("rta_switch.on_pairs", (t1_o == t2_i && t2_o == t1_i &&
                                            t3_o == t4_i && t4_o == t3_i))
    end else begin
      `PINET_ASSERT("rta_switch.off_pairs", (t1_o == t3_i && t3_o == t1_i &&
                                             t2_o == t4_i && t4_o == t2_i))
    end
  end

  /* verilator coverage_on */

endmodule
