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

  localparam int M    = Side / 2 - 1;  // switches per ring
  localparam int IdxW = $clog2(Side * Side);
  localparam int PosW = $clog2(Side);

  // The rows and the columns are checked in two loop nests, each walking the flat ports in address
  // order: a row's PEs are consecutive words, and the columns are walked a row of PEs at a time
  // (position k outer, column c inner), each column keeping its own segment start in col_first.
  // Walking one column to its end instead reads a word Side words from the last one each time:
  // at Side 64 that missed the data cache on nearly every read and was the largest single cost
  // of the cosim (issue 38).
  logic            row_ok, col_ok, ok;
  logic [PosW-1:0] first;
  logic [PosW-1:0] col_first [Side];
  logic [IdxW-1:0] a, b;
  logic            on;
  always_comb begin
    // Rows: PE k of row q has the scalar index q*Side + k.
    row_ok = 1'b1;
    for (int q = 0; q < Side; q++) begin
      ok    = 1'b1;
      first = '0;
      // Direct links: PE 2m's R port <-> PE 2m+1's L port.
      for (int m = 0; m < Side / 2; m++) begin
        a  = IdxW'(q * Side + 2 * m);
        b  = IdxW'(q * Side + 2 * m + 1);
        ok = ok && r_o[a*Width +: Width] == l_i[b*Width +: Width] &&
                   l_o[b*Width +: Width] == r_i[a*Width +: Width];
      end
      // Switch p: ON joins PE 2p+1 and PE 2p+2; OFF closes the segment [first, 2p+1].
      for (int p = 0; p <= M; p++) begin
        on = p < M && bitmap_i[q*M + p];
        a  = IdxW'(q * Side + 2 * p + 1);
        b  = on ? IdxW'(q * Side + 2 * p + 2) : IdxW'(q * Side + 32'(first));
        ok = ok && r_o[a*Width +: Width] == l_i[b*Width +: Width] &&
                   l_o[b*Width +: Width] == r_i[a*Width +: Width];
        if (p < M && !on) first = PosW'(2 * p + 2);
      end
      row_ok = row_ok && ok;
    end
    // Columns (from the top, U as L and D as R, switch bits Side*M + c*M + p): PE k of column c
    // has the scalar index k*Side + c.
    col_ok = 1'b1;
    for (int m = 0; m < Side / 2; m++) begin
      for (int c = 0; c < Side; c++) begin
        a      = IdxW'(2 * m * Side + c);
        b      = IdxW'((2 * m + 1) * Side + c);
        col_ok = col_ok && d_o[a*Width +: Width] == u_i[b*Width +: Width] &&
                           u_o[b*Width +: Width] == d_i[a*Width +: Width];
      end
    end
    for (int c = 0; c < Side; c++) col_first[c] = '0;
    for (int p = 0; p <= M; p++) begin
      for (int c = 0; c < Side; c++) begin
        on     = p < M && bitmap_i[(Side + c) * M + p];
        a      = IdxW'((2 * p + 1) * Side + c);
        b      = on ? IdxW'((2 * p + 2) * Side + c) : IdxW'(32'(col_first[c]) * Side + c);
        col_ok = col_ok && d_o[a*Width +: Width] == u_i[b*Width +: Width] &&
                           u_o[b*Width +: Width] == d_i[a*Width +: Width];
        if (p < M && !on) col_first[c] = PosW'(2 * p + 2);
      end
    end
    `PINET_ASSERT("rta_torus2d.row_route", row_ok)
    `PINET_ASSERT("rta_torus2d.col_route", col_ok)
  end

  /* verilator coverage_on */

endmodule
