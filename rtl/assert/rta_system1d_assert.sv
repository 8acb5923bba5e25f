// Copyright pinet contributors.
//
// rta_system1d_assert: the assertion of rta_system1d (rtl/rta_system1d.sv): its ring routes by
// the controller's switch states, stated on the system's ports (bitmap_o, the PE ports), so it
// checks the wiring between the two (the controller and the ring have their own checkers).
// Combinational, linear in N. Bound to every rta_system1d in the builds by Verilator
// (rta_system1d_bind.sv). The systems have no proofs (docs/formal.md), so no `ifdef FORMAL
// instance.
//
//   ring_follows_bitmap  for every switch p: bitmap_o[p] ON joins PE 2p+1's R port and PE
//                        2p+2's L port; OFF closes the segment that PE 2p+1 ends (its R port and
//                        the L port of the segment's first PE are joined), as does PE N-1

`include "pinet_assert.svh"

module rta_system1d_assert #(
  parameter int N     = 8,
  parameter int Width = 32
) (
  input logic [N/2-2:0]     bitmap_o,
  input logic [N*Width-1:0] l_i,
  input logic [N*Width-1:0] r_i,
  input logic [N*Width-1:0] l_o,
  input logic [N*Width-1:0] r_o
);

  `PINET_ASSERT_IMPORT

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  localparam int M = N / 2 - 1;

  logic ok;
  localparam int PeW = $clog2(N);
  logic [PeW-1:0] first, a, b;
  always_comb begin
    ok    = 1'b1;
    first = '0;
    for (int p = 0; p <= M; p++) begin
      a = PeW'(2 * p + 1);
      b = (p < M && bitmap_o[p]) ? PeW'(2 * p + 2) : first;
      ok = ok && r_o[a*Width +: Width] == l_i[b*Width +: Width] &&
           l_o[b*Width +: Width] == r_i[a*Width +: Width];
      if (p < M && !bitmap_o[p]) first = PeW'(2 * p + 2);
    end
    `PINET_ASSERT("rta_system1d.ring_follows_bitmap", ok)
  end

  /* verilator coverage_on */

endmodule
