// Copyright pinet contributors.
//
// rta_switch: the RTA's 4-terminal switch (paper 004, Fig. 4), gates only.
//
// Terminal 1 faces PE 2m-1, terminal 2 faces PE 2m, terminal 3 the left neighbour switch (or
// PE 0), terminal 4 the right neighbour switch (or PE N-1). Each terminal carries one word in
// each direction: tN_i is the word arriving at the terminal, tN_o the word leaving it.
// ON joins 1<->2 and 3<->4; OFF joins 1<->3 and 2<->4. No latch, no flop: a word crosses any
// chain of switches in the cycle it is driven.

`include "pinet_param.svh"

module rta_switch #(
  parameter int Width = 32
) (
  input  logic             on_i,
  input  logic [Width-1:0] t1_i,
  input  logic [Width-1:0] t2_i,
  input  logic [Width-1:0] t3_i,
  input  logic [Width-1:0] t4_i,
  output logic [Width-1:0] t1_o,
  output logic [Width-1:0] t2_o,
  output logic [Width-1:0] t3_o,
  output logic [Width-1:0] t4_o
);

  // Each output is the AND-OR of its two candidate words under the ON and OFF masks: the gates
  // themselves, and branch-free in a compiled model. Written as 2:1 muxes, Verilator turned each
  // switch into an if on its bitmap bit; with random bitmaps the host's branch predictor then
  // learns the 31 switches of a 64-PE ring but not the 2047 of a 4096-PE one, and the per-PE
  // cost grew with N (docs/verification.md, "The scaling bench in one run").
  logic [Width-1:0] on_m, off_m;
  assign on_m  = {Width{on_i}};
  assign off_m = ~on_m;

  assign t1_o = (t2_i & on_m) | (t3_i & off_m);
  assign t2_o = (t1_i & on_m) | (t4_i & off_m);
  assign t3_o = (t4_i & on_m) | (t1_i & off_m);
  assign t4_o = (t3_i & on_m) | (t2_i & off_m);

  // The parameter ranges a registered run or proof covers at both ends (docs/verification.md,
  // "Parameter ranges": widening one means adding its run). Icarus 11 has no elaboration-time
  // $error: there the checks run at time 0.
  if (Width < 1 || Width > 32) begin : g_bad_width
    `PINET_PARAM_RANGE_ERROR("rta_switch: Width outside its verified range: [1, 32]")
  end

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/rta_switch_assert.sv (the pairs of terminals it joins): bound to this
  // module in the builds by Verilator (rtl/assert/rta_switch_bind.sv); yosys ignores bind, so the
  // formal flow instantiates it here.
`ifdef FORMAL
  rta_switch_assert #(
    .Width(Width)
  ) u_assert (.*);
`endif

endmodule
