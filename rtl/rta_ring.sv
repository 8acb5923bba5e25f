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

  //////////////////
  // Bypass links //
  //////////////////

  // Bypass segment k (0 .. NumSwitches) joins switch k-1's terminal 4 to switch k's terminal 3;
  // segment 0 starts at PE 0's L port, segment NumSwitches ends at PE N-1's R port.
  // seg_right[k] travels towards PE N-1, seg_left[k] towards PE 0.
  logic [(NumSwitches+1)*Width-1:0] seg_right;
  logic [(NumSwitches+1)*Width-1:0] seg_left;

  assign seg_right[0 +: Width]                = l_i[0 +: Width];
  assign l_o[0 +: Width]                      = seg_left[0 +: Width];
  assign seg_left[NumSwitches*Width +: Width] = r_i[(N-1)*Width +: Width];
  assign r_o[(N-1)*Width +: Width]            = seg_right[NumSwitches*Width +: Width];

  //////////////////
  // Direct links //
  //////////////////

  for (genvar m = 0; m < N / 2; m++) begin : g_direct
    assign r_o[(2*m)*Width +: Width]   = l_i[(2*m+1)*Width +: Width];
    assign l_o[(2*m+1)*Width +: Width] = r_i[(2*m)*Width +: Width];
  end

  //////////////
  // Switches //
  //////////////

  for (genvar p = 0; p < NumSwitches; p++) begin : g_switch
    rta_switch #(
      .Width(Width)
    ) u_switch (
      .on_i(bitmap_i[p]),
      .t1_i(r_i[(2*p+1)*Width +: Width]),
      .t2_i(l_i[(2*p+2)*Width +: Width]),
      .t3_i(seg_right[p*Width +: Width]),
      .t4_i(seg_left[(p+1)*Width +: Width]),
      .t1_o(r_o[(2*p+1)*Width +: Width]),
      .t2_o(l_o[(2*p+2)*Width +: Width]),
      .t3_o(seg_left[p*Width +: Width]),
      .t4_o(seg_right[(p+1)*Width +: Width])
    );
  end

  ////////////////
  // Parameters //
  ////////////////

  // N must be a power of two >= 4. Icarus 11 has no elaboration-time $error: there the check
  // runs at time 0.
  if (N < 4 || (N & (N - 1)) != 0) begin : g_bad_n
`ifdef __ICARUS__
    initial $fatal(1, "rta_ring: N must be a power of two >= 4");
`else
    $error("rta_ring: N must be a power of two >= 4");
`endif
  end

endmodule
