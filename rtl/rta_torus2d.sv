// Copyright pinet contributors.
//
// rta_torus2d: the 2D Recursive Torus Architecture of Side x Side PEs (paper 004, section 4),
// gates only.
//
// Every row and every column is one rta_ring of Side PEs:
//   - row r (g_row[r].u_ring): PEs (r, 0 .. Side-1) through their L / R ports, switch position p
//     driven by bitmap_i[r*M + p];
//   - column c (g_col[c].u_ring): PEs (0 .. Side-1, c) from the top, U playing the role of L and D
//     the role of R, switch position p (counted from the top) driven by bitmap_i[Side*M + c*M + p];
// with M = Side/2 - 1 switches per ring (horizontal rings first, as in cmodel/include/pinet/rta.h).
//
// Ports: PE (r, c) has the scalar index i = r*Side + c, and its word is bits [i*Width +: Width]
// (a packed [Side*Side-1:0][Width-1:0] array written flat, because yosys 0.23 does not parse
// packed 2D arrays). x_i is the word the PE drives out of its x port, x_o the word arriving there.
//
// Latency: none; combinational like rta_ring.

`include "pinet_param.svh"

module rta_torus2d #(
  parameter int Side  = 4,
  parameter int Width = 32
) (
  input  logic [Side*(Side-2)-1:0]  bitmap_i,
  input  logic [Side*Side*Width-1:0] l_i,
  input  logic [Side*Side*Width-1:0] r_i,
  input  logic [Side*Side*Width-1:0] u_i,
  input  logic [Side*Side*Width-1:0] d_i,
  output logic [Side*Side*Width-1:0] l_o,
  output logic [Side*Side*Width-1:0] r_o,
  output logic [Side*Side*Width-1:0] u_o,
  output logic [Side*Side*Width-1:0] d_o
);

  localparam int RingSwitches = Side / 2 - 1;
  localparam int RowWords     = Side * Width;
  // Above the verified range (the checks at the end) the generate loops run empty, so that
  // elaboration stops at once on the range error instead of unrolling thousands of instances.
  localparam bit TooLarge     = Side > 128;

  // The flat ports are gathered and scattered word by word in loops (see "Ports" below, and the
  // columns' gather in g_col): a simulator that compiles the block (Verilator) then copies each
  // word once per evaluation instead of rebuilding the Side*Side*Width-bit ports from Side*Side
  // pieces (the cost per PE stays flat as Side grows). Each ring reads and writes vectors of its
  // own generate block: bound to an element of an array of rings' vectors, a ring port made the
  // compiled model copy the whole element for every word read (at Side 128, where the loops are
  // no longer unrolled, a cost growing as Side^3).
  logic [RowWords-1:0] row_l_out [Side];
  logic [RowWords-1:0] row_r_out [Side];
  // Column c's words, row r at word r.
  logic [RowWords-1:0] col_u_out [Side];
  logic [RowWords-1:0] col_d_out [Side];
  logic [RowWords-1:0] col_u_word, col_d_word;  // the column being scattered

  //////////////////////
  // Horizontal rings //
  //////////////////////

  // Row r's PEs are consecutive in the scalar numbering: its words are one contiguous slice.
  for (genvar r = 0; r < (TooLarge ? 0 : Side); r++) begin : g_row
    logic [RowWords-1:0] l_out, r_out;
    rta_ring #(
      .N    (Side),
      .Width(Width)
    ) u_ring (
      .bitmap_i(bitmap_i[r*RingSwitches +: RingSwitches]),
      .l_i     (l_i[r*RowWords +: RowWords]),
      .r_i     (r_i[r*RowWords +: RowWords]),
      .l_o     (l_out),
      .r_o     (r_out)
    );
    assign row_l_out[r] = l_out;
    assign row_r_out[r] = r_out;
  end

  ////////////////////
  // Vertical rings //
  ////////////////////

  for (genvar c = 0; c < (TooLarge ? 0 : Side); c++) begin : g_col
    logic [RowWords-1:0] u_in, d_in, u_out, d_out;
    // The column's input words, row r at word r (one assignment per word; c is a constant).
    always_comb begin
      for (int r = 0; r < Side; r++) begin
        u_in[r*Width +: Width] = u_i[(r*Side+c)*Width +: Width];
        d_in[r*Width +: Width] = d_i[(r*Side+c)*Width +: Width];
      end
    end
    rta_ring #(
      .N    (Side),
      .Width(Width)
    ) u_ring (
      .bitmap_i(bitmap_i[(Side+c)*RingSwitches +: RingSwitches]),
      .l_i     (u_in),
      .r_i     (d_in),
      .l_o     (u_out),
      .r_o     (d_out)
    );
    assign col_u_out[c] = u_out;
    assign col_d_out[c] = d_out;
  end

  ///////////
  // Ports //
  ///////////

  // Scatter every output word (one assignment per row vector or word, no Side*Side-piece
  // concatenation), column by column: one copy of each column's vector, not one per word.
  always_comb begin
    for (int r = 0; r < Side; r++) begin
      l_o[r*RowWords +: RowWords] = row_l_out[r];
      r_o[r*RowWords +: RowWords] = row_r_out[r];
    end
    for (int c = 0; c < Side; c++) begin
      col_u_word = col_u_out[c];
      col_d_word = col_d_out[c];
      for (int r = 0; r < Side; r++) begin
        u_o[(r*Side+c)*Width +: Width] = col_u_word[r*Width +: Width];
        d_o[(r*Side+c)*Width +: Width] = col_d_word[r*Width +: Width];
      end
    end
  end

  ////////////////
  // Parameters //
  ////////////////

  // The parameter ranges a registered run or proof covers at both ends (docs/verification.md,
  // "Parameter ranges": widening one means adding its run). Icarus 11 has no elaboration-time
  // $error: there the checks run at time 0.
  if (Side < 4 || Side > 128 || (Side & (Side - 1)) != 0) begin : g_bad_side
    `PINET_PARAM_RANGE_ERROR(
      "rta_torus2d: Side outside its verified range: a power of two in [4, 128]")
  end
  if (Width < 1 || Width > 32) begin : g_bad_width
    `PINET_PARAM_RANGE_ERROR("rta_torus2d: Width outside its verified range: [1, 32]")
  end

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/rta_torus2d_assert.sv (every row and column routes as a ring): bound to
  // this module in the builds by Verilator (rtl/assert/rta_torus2d_bind.sv); yosys ignores bind, so
  // the formal flow instantiates it here.
`ifdef FORMAL
  rta_torus2d_assert #(
    .Side (Side),
    .Width(Width)
  ) u_assert (.*);
`endif

endmodule
