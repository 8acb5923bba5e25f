// Copyright pinet contributors.
//
// rta_torus2d_assert: the assertions of rta_torus2d (rtl/rta_torus2d.sv): every row (L/R ports,
// switch bits r*M + p) and every column (from the top, U as L and D as R, bits Side*M + c*M + p)
// routes as one rta_ring (rta_ring_route_check.sv, the properties of rta_ring_assert, stated on
// the torus's own ports: they check the gathering and scattering of the words as well as the
// rings). Combinational, linear in Side*Side. Bound to every rta_torus2d in the Verilator builds
// (rta_torus2d_bind.sv), instantiated at the end of rta_torus2d under `ifdef FORMAL for the
// proofs.
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

  localparam int M        = Side / 2 - 1;  // switches per ring
  localparam int RowWords = Side * Width;

  logic [Side-1:0] row_good, col_good;

  // Row r: PEs r*Side .. r*Side+Side-1, a contiguous slice of the L/R ports.
  for (genvar r = 0; r < Side; r++) begin : g_row
    logic direct_ok, on_ok, segment_ok;
    rta_ring_route_check #(
      .N    (Side),
      .Width(Width)
    ) u_check (
      .bitmap_i    (bitmap_i[r*M +: M]),
      .l_i         (l_i[r*RowWords +: RowWords]),
      .r_i         (r_i[r*RowWords +: RowWords]),
      .l_o         (l_o[r*RowWords +: RowWords]),
      .r_o         (r_o[r*RowWords +: RowWords]),
      .direct_ok_o (direct_ok),
      .on_ok_o     (on_ok),
      .segment_ok_o(segment_ok)
    );
    assign row_good[r] = direct_ok && on_ok && segment_ok;
  end

  // Column c: PE (k, c) = k*Side + c at ring position k, U as L and D as R.
  for (genvar c = 0; c < Side; c++) begin : g_col
    logic [RowWords-1:0] u_in, d_in, u_out, d_out;
    logic direct_ok, on_ok, segment_ok;
    for (genvar k = 0; k < Side; k++) begin : g_pos
      assign u_in[k*Width +: Width]  = u_i[(k*Side+c)*Width +: Width];
      assign d_in[k*Width +: Width]  = d_i[(k*Side+c)*Width +: Width];
      assign u_out[k*Width +: Width] = u_o[(k*Side+c)*Width +: Width];
      assign d_out[k*Width +: Width] = d_o[(k*Side+c)*Width +: Width];
    end
    rta_ring_route_check #(
      .N    (Side),
      .Width(Width)
    ) u_check (
      .bitmap_i    (bitmap_i[(Side+c)*M +: M]),
      .l_i         (u_in),
      .r_i         (d_in),
      .l_o         (u_out),
      .r_o         (d_out),
      .direct_ok_o (direct_ok),
      .on_ok_o     (on_ok),
      .segment_ok_o(segment_ok)
    );
    assign col_good[c] = direct_ok && on_ok && segment_ok;
  end

  logic row_ok, col_ok;
  assign row_ok = &row_good;
  assign col_ok = &col_good;

  always_comb begin
    `PINET_ASSERT("rta_torus2d.row_route", row_ok)
    `PINET_ASSERT("rta_torus2d.col_route", col_ok)
  end

  /* verilator coverage_on */

endmodule
