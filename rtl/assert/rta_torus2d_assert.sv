// Copyright pinet contributors.
//
// rta_torus2d_assert: the assertions of rta_torus2d (rtl/rta_torus2d.sv): every row (L/R ports,
// switch bits r*M + p) and every column (from the top, U as L and D as R, bits Side*M + c*M + p)
// routes as one rta_ring (the properties of rta_ring_assert, stated on the torus's own ports: they
// check the gathering and scattering of the words as well as the rings). Combinational, linear in
// Side*Side. Bound to every rta_torus2d in the builds by Verilator (rta_torus2d_bind.sv),
// instantiated at the end of rta_torus2d under `ifdef FORMAL for the proofs.
//
//   row_route  in every row: the direct links, the ON links and the segment ends of rta_ring
//   col_route  the same in every column

`include "pinet_assert.svh"

module rta_torus2d_assert #(
  parameter int Side  = 4,
  parameter int Width = 32
) (
  input logic [Side*(Side-2)-1:0]  bitmap_i,
  input logic [Side*Side*Width-1:0] l_i,
  input logic [Side*Side*Width-1:0] r_i,
  input logic [Side*Side*Width-1:0] u_i,
  input logic [Side*Side*Width-1:0] d_i,
  input logic [Side*Side*Width-1:0] l_o,
  input logic [Side*Side*Width-1:0] r_o,
  input logic [Side*Side*Width-1:0] u_o,
  input logic [Side*Side*Width-1:0] d_o
);

  `PINET_ASSERT_IMPORT

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  localparam int M = Side / 2 - 1;  // switches per ring

  // ring q: rows 0 .. Side-1, then columns; PE k of ring q has the scalar index idx(q, k).
  function automatic int idx(int q, int k);
    idx = (q < Side) ? q * Side + k : k * Side + (q - Side);
  endfunction

  logic row_ok, col_ok, ok;
  localparam int IdxW = $clog2(Side * Side);
  localparam int PosW = $clog2(Side);
  logic [PosW-1:0] first;
  logic [IdxW-1:0] a, b;
  always_comb begin
    row_ok = 1'b1;
    col_ok = 1'b1;
    for (int q = 0; q < 2 * Side; q++) begin
      ok    = 1'b1;
      first = '0;
      // Direct links: PE 2m's R (D) port <-> PE 2m+1's L (U) port.
      for (int m = 0; m < Side / 2; m++) begin
        a = IdxW'(idx(q, 2 * m));
        b = IdxW'(idx(q, 2 * m + 1));
        if (q < Side) ok = ok && r_o[a*Width +: Width] == l_i[b*Width +: Width] &&
                             l_o[b*Width +: Width] == r_i[a*Width +: Width];
        else          ok = ok && d_o[a*Width +: Width] == u_i[b*Width +: Width] &&
                             u_o[b*Width +: Width] == d_i[a*Width +: Width];
      end
      // Switch p: ON joins PE 2p+1 and PE 2p+2; OFF closes the segment [first, 2p+1].
      for (int p = 0; p <= M; p++) begin
        a = IdxW'(idx(q, 2 * p + 1));
        if (p < M && bitmap_i[q*M + p]) b = IdxW'(idx(q, 2 * p + 2));
        else                            b = IdxW'(idx(q, 32'(first)));
        if (q < Side) ok = ok && r_o[a*Width +: Width] == l_i[b*Width +: Width] &&
                             l_o[b*Width +: Width] == r_i[a*Width +: Width];
        else          ok = ok && d_o[a*Width +: Width] == u_i[b*Width +: Width] &&
                             u_o[b*Width +: Width] == d_i[a*Width +: Width];
        if (p < M && !bitmap_i[q*M + p]) first = PosW'(2 * p + 2);
      end
      if (q < Side) row_ok = row_ok && ok;
      else          col_ok = col_ok && ok;
    end
    `PINET_ASSERT("rta_torus2d.row_route", row_ok)
    `PINET_ASSERT("rta_torus2d.col_route", col_ok)
  end

  /* verilator coverage_on */

endmodule
