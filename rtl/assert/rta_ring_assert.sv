// Copyright pinet contributors.
//
// rta_ring_assert: the assertions of rta_ring (rtl/rta_ring.sv), the routes of SPEC 1.1 stated
// per link of the ring rather than per switch and bypass piece: the OFF switches cut the ring
// into segments of consecutive PEs, each a ring of its own. Combinational, linear in N (one pass
// over the PEs and one over the switches). Bound to every rta_ring in the Verilator builds
// (rta_ring_bind.sv: the rings of rta_torus2d and rta_system1d too), instantiated at the end of
// rta_ring under `ifdef FORMAL for the proofs.
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

  localparam int NumSwitches = N / 2 - 1;

  logic direct_ok, on_ok, segment_ok;
  logic [$clog2(N)-1:0] first;  // the first PE of the current segment
  always_comb begin
    direct_ok  = 1'b1;
    on_ok      = 1'b1;
    segment_ok = 1'b1;
    first      = '0;
    for (int m = 0; m < N / 2; m++) begin
      direct_ok = direct_ok && r_o[(2*m)*Width +: Width] == l_i[(2*m+1)*Width +: Width] &&
                  l_o[(2*m+1)*Width +: Width] == r_i[(2*m)*Width +: Width];
    end
    for (int p = 0; p < NumSwitches; p++) begin
      if (bitmap_i[p]) begin
        on_ok = on_ok && r_o[(2*p+1)*Width +: Width] == l_i[(2*p+2)*Width +: Width] &&
                l_o[(2*p+2)*Width +: Width] == r_i[(2*p+1)*Width +: Width];
      end else begin
        segment_ok = segment_ok && r_o[(2*p+1)*Width +: Width] == l_i[first*Width +: Width] &&
                     l_o[first*Width +: Width] == r_i[(2*p+1)*Width +: Width];
        first = $clog2(N)'(2 * p + 2);
      end
    end
    segment_ok = segment_ok && r_o[(N-1)*Width +: Width] == l_i[first*Width +: Width] &&
                 l_o[first*Width +: Width] == r_i[(N-1)*Width +: Width];
    `PINET_ASSERT("rta_ring.direct", direct_ok)
    `PINET_ASSERT("rta_ring.on_link", on_ok)
    `PINET_ASSERT("rta_ring.segment", segment_ok)
  end

  /* verilator coverage_on */

endmodule
