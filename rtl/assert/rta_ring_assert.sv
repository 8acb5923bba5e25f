// Copyright pinet contributors.
//
// rta_ring_assert: the assertions of rta_ring (rtl/rta_ring.sv), the routes of SPEC 1.1 stated
// per link of the ring rather than per switch and bypass piece: the OFF switches cut the ring
// into segments of consecutive PEs, each a ring of its own (rta_ring_route_check.sv states them,
// this module asserts them). Combinational, linear in N. Bound to every rta_ring in the Verilator
// builds (rta_ring_bind.sv: the rings of rta_torus2d and rta_system1d too), instantiated at the
// end of rta_ring under `ifdef FORMAL for the proofs.
//
//   direct    PE 2m's R port and PE 2m+1's L port are wired to each other (no switch)
//   on_link   an ON switch p joins PE 2p+1's R port and PE 2p+2's L port, both ways
//   segment   the R port of a segment's last PE (before an OFF switch, or PE N-1) and the L port
//             of its first PE (after the previous OFF switch, or PE 0) are joined, both ways

`include "pinet_assert.svh"

module rta_ring_assert #(
  parameter int N     = 8,
  parameter int Width = 32
) (
  input logic [N/2-2:0]     bitmap_i,
  input logic [N*Width-1:0] l_i,
  input logic [N*Width-1:0] r_i,
  input logic [N*Width-1:0] l_o,
  input logic [N*Width-1:0] r_o
);

  `PINET_ASSERT_IMPORT

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  logic direct_ok, on_ok, segment_ok;
  rta_ring_route_check #(
    .N    (N),
    .Width(Width)
  ) u_check (
    .bitmap_i    (bitmap_i),
    .l_i         (l_i),
    .r_i         (r_i),
    .l_o         (l_o),
    .r_o         (r_o),
    .direct_ok_o (direct_ok),
    .on_ok_o     (on_ok),
    .segment_ok_o(segment_ok)
  );

  always_comb begin
    `PINET_ASSERT("rta_ring.direct", direct_ok)
    `PINET_ASSERT("rta_ring.on_link", on_ok)
    `PINET_ASSERT("rta_ring.segment", segment_ok)
  end

  /* verilator coverage_on */

endmodule
