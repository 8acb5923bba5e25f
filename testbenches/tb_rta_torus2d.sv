// Copyright pinet contributors.
//
// tb_rta_torus2d: self-checking testbench of rta_torus2d for Side = 4, 8 and 16 (one instance
// each, in g_cfg[0..2], run one after the other).
//
// PE (r, c) is word r*Side + c; horizontal bitmap bits r*M + p, vertical Side*M + c*M + p
// (M = Side/2 - 1, p counted from the left / top). Checks, for every PE port:
//   - each 2D-SRTA level l = 1 .. L (every switch of level tz(p+1) + 2 <= l ON): PE (r, c)'s R
//     port is joined to the L port of (r, q + (c + 1) mod 2^l) and its D port to the U port of
//     (q' + (r + 1) mod 2^l, c) (the paper's neighbor(A, l) along the row and the column);
//   - random bitmaps: along every row and column, the OFF switches cut the ring at boundaries
//     2p+2 and each segment of consecutive PEs is a ring (last PE's R / D joined to the first
//     PE's L / U).
// Words are random with a unique tag (4*pe + port) in the low bits. PRNG: xorshift64, seed from
// +seed=<n> (default 1). Ends with "PASS tb_rta_torus2d", or $error + $fatal on the first
// mismatch.

module tb_rta_torus2d;

  `include "tb_rta_common.svh"

  localparam int Width         = 32;
  localparam int NumCfg        = 3;
  localparam int RandomBitmaps = 20;

  function automatic int cfg_side(int g);
    case (g)
      0:       cfg_side = 4;
      1:       cfg_side = 8;
      default: cfg_side = 16;
    endcase
  endfunction

  /////////////////////////////////
  // One torus per configuration //
  /////////////////////////////////

  for (genvar g = 0; g < NumCfg; g++) begin : g_cfg
    localparam int Side = cfg_side(g);
    localparam int M    = Side / 2 - 1;
    localparam int L    = $clog2(Side);
    localparam int Pes  = Side * Side;
    localparam int Sw   = Side * (Side - 2);

    logic [Sw-1:0]        bitmap;
    logic [Pes*Width-1:0] l_in, r_in, u_in, d_in;
    logic [Pes*Width-1:0] l_out, r_out, u_out, d_out;
    // Snapshot of the outputs taken once per drive (checks read these: Verilator then builds the
    // flat output vectors from the instances once, not at every check).
    logic [Pes*Width-1:0] l_got, r_got, u_got, d_got;

    rta_torus2d #(
      .Side (Side),
      .Width(Width)
    ) u_dut (
      .bitmap_i(bitmap),
      .l_i     (l_in),
      .r_i     (r_in),
      .u_i     (u_in),
      .d_i     (d_in),
      .l_o     (l_out),
      .r_o     (r_out),
      .u_o     (u_out),
      .d_o     (d_out)
    );

    // Apply a bitmap and fresh random words (tag 4*pe + port, port 0..3 = L, R, U, D).
    task automatic drive(input logic [Sw-1:0] bm);
      logic [Pes*Width-1:0] l_next, r_next, u_next, d_next;
      for (int i = 0; i < Pes; i++) begin
        l_next[i*Width +: Width] = rand_word(10, 4 * i);
        r_next[i*Width +: Width] = rand_word(10, 4 * i + 1);
        u_next[i*Width +: Width] = rand_word(10, 4 * i + 2);
        d_next[i*Width +: Width] = rand_word(10, 4 * i + 3);
      end
      bitmap = bm;
      l_in   = l_next;
      r_in   = r_next;
      u_in   = u_next;
      d_in   = d_next;
      #1;
      l_got = l_out;
      r_got = r_out;
      u_got = u_out;
      d_got = d_out;
    endtask

    // Horizontal link: PE a's R port joined to PE b's L port (scalar PE numbers r*Side + c).
    task automatic check_h(input string ctx, input int a, input int b);
      check_link(ctx, a, Side, b, Side, 1'b0, Width, l_got[b*Width +: Width],
                 r_got[a*Width +: Width], r_in[a*Width +: Width], l_in[b*Width +: Width]);
    endtask

    // Vertical link: PE a's D port joined to PE b's U port.
    task automatic check_v(input string ctx, input int a, input int b);
      check_link(ctx, a, Side, b, Side, 1'b1, Width, u_got[b*Width +: Width],
                 d_got[a*Width +: Width], d_in[a*Width +: Width], u_in[b*Width +: Width]);
    endtask

    function automatic string context_of(input int level);
      context_of = $sformatf("tb_rta_torus2d: Side=%0d level=%0d (seed %0d)", Side, level, seed);
    endfunction

    // Each row and column: switch p is ON iff its level tz(p+1) + 2 <= l; check neighbor(A, l)
    // along rows and columns.
    task automatic test_srta;
      logic [Sw-1:0] bm;
      string         ctx;
      for (int l = 1; l <= L; l++) begin
        for (int ring = 0; ring < 2 * Side; ring++) begin
          for (int p = 0; p < M; p++) bm[ring*M + p] = (srta_level(p) <= l);
        end
        drive(bm);
        ctx = context_of(l);
        for (int r = 0; r < Side; r++) begin
          for (int c = 0; c < Side; c++) begin
            check_h(ctx, r * Side + c, r * Side + srta_neighbor(c, l));
            check_v(ctx, r * Side + c, srta_neighbor(r, l) * Side + c);
          end
        end
      end
    endtask

    // Random bitmaps: along each row r (horizontal bits r*M + p) and column c (vertical bits
    // Side*M + c*M + p), the OFF switches cut the ring into rings.
    task automatic test_random;
      logic [Sw-1:0] bm;
      logic [63:0]   row;
      logic [63:0]   col;
      string         ctx;
      for (int t = 0; t < RandomBitmaps; t++) begin
        for (int b = 0; b < Sw; b++) bm[b] = rand_switch(t);
        drive(bm);
        ctx = context_of(-1);
        for (int r = 0; r < Side; r++) begin
          row = cut_starts(32'(bm[r*M +: M]), Side);
          for (int c = 0; c < Side; c++) begin
            col = cut_starts(32'(bm[Side*M + c*M +: M]), Side);
            check_h(ctx, r * Side + c, r * Side + ring_next(row, Side, c));
            check_v(ctx, r * Side + c, ring_next(col, Side, r) * Side + c);
          end
        end
      end
    endtask

    task automatic run;
      test_srta();
      test_random();
    endtask
  end

  initial begin
    tb_begin("tb_rta_torus2d");
    g_cfg[0].run();
    g_cfg[1].run();
    g_cfg[2].run();
    tb_end("link checks");
  end

endmodule
