// Copyright pinet contributors.
//
// rta_switch_formal: formal properties of rtl/rta_switch.sv (docs/formal.md), read by
// scripts/formal.sh with yosys -formal. One property group per `ifdef CHECK_<GROUP>`.
//
// Specification (docs/rta.md "Wiring", cmodel/src/rta_switch.c): the four terminals, numbered
// 0..3 here for the paper's 1..4, form two pairs; ON pairs 1-2 and 3-4, OFF pairs 1-3 and 2-4.
// With 0-based numbers the partner of terminal i is i XOR 1 (ON) or i XOR 2 (OFF), and each
// terminal's outgoing word is the word arriving at its partner:  t[i]_o = t[partner(i)]_i.
//
// Environment: none (every state, every input word). The block has no state, so one step of
// BMC covers every input and the 1-induction proof is complete.
//
// Groups:
//   spec  the outputs equal the pairing specification above, for every on_i and every word.
// (No flop, no latch: tests/synth proves it on the synthesised netlist.)

module rta_switch_formal #(
  parameter int Width = 32
) (
  input logic             on_i,
  input logic [Width-1:0] t1_i,
  input logic [Width-1:0] t2_i,
  input logic [Width-1:0] t3_i,
  input logic [Width-1:0] t4_i
);

  logic [Width-1:0] t1_o, t2_o, t3_o, t4_o;

  rta_switch #(
    .Width(Width)
  ) u_dut (
    .on_i(on_i),
    .t1_i(t1_i),
    .t2_i(t2_i),
    .t3_i(t3_i),
    .t4_i(t4_i),
    .t1_o(t1_o),
    .t2_o(t2_o),
    .t3_o(t3_o),
    .t4_o(t4_o)
  );

  // Terminal i's words at [i*Width +: Width].
  logic [4*Width-1:0] f_in, f_out;
  assign f_in  = {t4_i, t3_i, t2_i, t1_i};
  assign f_out = {t4_o, t3_o, t2_o, t1_o};

`ifdef CHECK_SPEC
  for (genvar i = 0; i < 4; i++) begin : g_spec
    logic [1:0] partner;
    assign partner = 2'(i) ^ (on_i ? 2'd1 : 2'd2);
    always @(*) begin
      assert (f_out[i*Width +: Width] == f_in[partner*Width +: Width]);
    end
  end
`endif

endmodule
