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

  assign t1_o = on_i ? t2_i : t3_i;
  assign t2_o = on_i ? t1_i : t4_i;
  assign t3_o = on_i ? t4_i : t1_i;
  assign t4_o = on_i ? t3_i : t2_i;

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
