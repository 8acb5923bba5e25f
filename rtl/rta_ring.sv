// Copyright pinet contributors.
//
// rta_ring: one 1D Recursive Torus Architecture ring of N PEs (paper 004, Fig. 3), gates only.
//
// Wiring (SPEC 1.1, cmodel/include/pinet/rta.h):
//   - PE 2m's R port is wired straight to PE 2m+1's L port (no switch).
//   - Switch position p (0 .. N/2-2, instance g_switch[p].u_switch) sits between PE 2p+1 and
//     PE 2p+2: terminal 1 <-> PE 2p+1's R port, terminal 2 <-> PE 2p+2's L port, terminal 3 <->
//     the left switch's terminal 4 (PE 0's L port for p = 0), terminal 4 <-> the right switch's
//     terminal 3 (PE N-1's R port for the last switch).
//   - bitmap_i[p] = 1 turns switch p ON (1<->2, 3<->4), 0 turns it OFF (1<->3, 2<->4).
// The OFF switches cut the ring into segments of consecutive PEs; each segment is a ring (the
// R port of its last PE reaches the L port of its first PE over the bypass).
//
// Ports: word i of a PE array is bits [i*Width +: Width] (the layout of a packed
// [N-1:0][Width-1:0] array, written flat because yosys 0.23 does not parse packed 2D arrays).
//   l_i / r_i: word PE i drives out of its L / R port; l_o / r_o: word arriving at its L / R port.
//
// Latency: none. The block is combinational (rta_switch has no latch and no flop): a word
// crosses any chain of switches in the cycle it is driven.

`include "pinet_param.svh"

module rta_ring #(
  parameter int N     = 8,
  parameter int Width = 32
) (
  input  logic [N/2-2:0]     bitmap_i,
  input  logic [N*Width-1:0] l_i,
  input  logic [N*Width-1:0] r_i,
  output logic [N*Width-1:0] l_o,
  output logic [N*Width-1:0] r_o
);

  localparam int NumSwitches = N / 2 - 1;
  // Above the verified range (the checks at the end) the generate loops run empty, so that
  // elaboration stops at once on the range error instead of unrolling thousands of instances.
  localparam bit TooLarge    = N > 4096;

  // Every net inside is one word per element of an unpacked array, and the flat ports are read
  // and written one word at a time in a loop (see "Ports" below): a simulator that compiles the
  // block (Verilator) then orders the switch chain word by word and copies each output word once,
  // instead of rebuilding the N*Width-bit ports from N pieces on every evaluation (the cost per
  // PE then stays flat as N grows).

  //////////////////
  // Bypass links //
  //////////////////

  // Bypass segment k (0 .. NumSwitches) joins switch k-1's terminal 4 to switch k's terminal 3;
  // segment 0 starts at PE 0's L port, segment NumSwitches ends at PE N-1's R port.
  // seg_right[k] travels towards PE N-1, seg_left[k] towards PE 0. split_var: each segment is its
  // own variable for Verilator's scheduler (the chain is not circular word by word).
  logic [Width-1:0] seg_right [NumSwitches+1] /*verilator split_var*/;
  logic [Width-1:0] seg_left  [NumSwitches+1] /*verilator split_var*/;
  // The words arriving at each PE's L / R port (l_o / r_o word by word).
  logic [Width-1:0] l_word [N];
  logic [Width-1:0] r_word [N];

  assign seg_right[0]           = l_i[0 +: Width];
  assign l_word[0]              = seg_left[0];
  assign seg_left[NumSwitches]  = r_i[(N-1)*Width +: Width];
  assign r_word[N-1]            = seg_right[NumSwitches];

  //////////////////
  // Direct links //
  //////////////////

  for (genvar m = 0; m < (TooLarge ? 0 : N / 2); m++) begin : g_direct
    assign r_word[2*m]   = l_i[(2*m+1)*Width +: Width];
    assign l_word[2*m+1] = r_i[(2*m)*Width +: Width];
  end

  //////////////
  // Switches //
  //////////////

  for (genvar p = 0; p < (TooLarge ? 0 : NumSwitches); p++) begin : g_switch
    rta_switch #(
      .Width(Width)
    ) u_switch (
      .on_i(bitmap_i[p]),
      .t1_i(r_i[(2*p+1)*Width +: Width]),
      .t2_i(l_i[(2*p+2)*Width +: Width]),
      .t3_i(seg_right[p]),
      .t4_i(seg_left[p+1]),
      .t1_o(r_word[2*p+1]),
      .t2_o(l_word[2*p+2]),
      .t3_o(seg_left[p]),
      .t4_o(seg_right[p+1])
    );
  end

  ///////////
  // Ports //
  ///////////

  // One loop writes every output word (one assignment per word, no N-piece concatenation).
  always_comb begin
    for (int i = 0; i < N; i++) begin
      l_o[i*Width +: Width] = l_word[i];
      r_o[i*Width +: Width] = r_word[i];
    end
  end

  ////////////////
  // Parameters //
  ////////////////

  // The parameter ranges a registered run or proof covers at both ends (docs/verification.md,
  // "Parameter ranges": widening one means adding its run). Icarus 11 has no elaboration-time
  // $error: there the checks run at time 0.
  if (N < 4 || N > 4096 || (N & (N - 1)) != 0) begin : g_bad_n
    `PINET_PARAM_RANGE_ERROR("rta_ring: N outside its verified range: a power of two in [4, 4096]")
  end
  if (Width < 1 || Width > 32) begin : g_bad_width
    `PINET_PARAM_RANGE_ERROR("rta_ring: Width outside its verified range: [1, 32]")
  end

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/rta_ring_assert.sv (direct links, ON links, segment ends): bound to this
  // module in the builds by Verilator (rtl/assert/rta_ring_bind.sv); yosys ignores bind, so the
  // formal flow instantiates it here.
`ifdef FORMAL
  rta_ring_assert #(
    .N    (N),
    .Width(Width)
  ) u_assert (.*);
`endif

endmodule
