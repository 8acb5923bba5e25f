// Copyright pinet contributors.
//
// tb_rta_system2d: end-to-end testbench of rta_system2d (Side = 8): commands go into the bitmap
// controller, words go through the torus, and the routing is checked against the paper.
//
//   - After reset every row and column is one ring of 8 PEs. SET_LEVEL l (l = 1 .. 3): PE
//     (r, c)'s R port reaches the L port of (r, q + (c + 1) mod 2^l) and its D port the U port of
//     (q' + (r + 1) mod 2^l, c).
//   - Latency: before the edge that takes a command the torus routes by the old bitmap, after it
//     by the new one.
//   - ARTA, hand-derived: from the full torus, ARTA_OFF class 3 (the top-right 4 x 4 block) turns
//     classes 3 and 1 OFF: rows 0-3 split into rings 0-3, 4-5, 6-7, rows 4-7 into 0-3, 4-7;
//     columns 0-3 into rings (rows) 0-3, 4-7, columns 4-7 into 0-1, 2-3, 4-7. ARTA_ON class 1
//     restores the full torus. A raw bitmap that is not uniform on a class is refused.
//   - RTA mode: random raw bitmaps are loaded as given; along every row and column each segment
//     between OFF switches is a ring.
// PRNG: xorshift64, seed from +seed=<n> (default 1). Ends with "PASS tb_rta_system2d", or
// $error + $fatal on the first mismatch. The command port and the test sequence are shared with
// tb_rta_system1d (tb_rta_system_common.svh); this file holds the torus's side of the checks.

`include "tb_no_x_after_reset.svh"

module tb_rta_system2d;

  `include "tb_rta_common.svh"

  localparam int Side      = 8;
  localparam int L         = 3;
  localparam int M         = Side / 2 - 1;
  localparam int Pes       = Side * Side;
  localparam int Sw        = Side * (Side - 2);
  localparam int Bits      = Sw;
  localparam int Width     = 16;
  localparam int RawRounds = 30;

  `include "tb_rta_system_common.svh"

  logic [Pes*Width-1:0] l_in, r_in, u_in, d_in;
  logic [Pes*Width-1:0] l_out, r_out, u_out, d_out;

  rta_system2d #(
    .Side (Side),
    .Width(Width)
  ) u_dut (
    .clk_i       (clk),
    .rst_ni      (rst_n),
    .cmd_valid_i (cmd_valid),
    .cmd_op_i    (cmd_op),
    .cmd_arg_i   (cmd_arg),
    .cmd_bitmap_i(cmd_bitmap),
    .bitmap_o    (bitmap),
    .mode_o      (mode),
    .err_o       (err),
    .l_i         (l_in),
    .r_i         (r_in),
    .u_i         (u_in),
    .d_i         (d_in),
    .l_o         (l_out),
    .r_o         (r_out),
    .u_o         (u_out),
    .d_o         (d_out)
  );

  ///////////
  // Tests //
  ///////////

  // Ring partition of the torus: bit r*Side + k of hs is 1 when a ring of row r starts at
  // column k, bit c*Side + k of vs when a ring of column c starts at row k (k = 0 always set).
  typedef logic [Side-1:0]      starts_t;
  typedef logic [Side*Side-1:0] part_t;

  // Fresh random words, tag 4*pe + port (L, R, U, D) in the low 8 bits.
  task automatic drive_words;
    for (int i = 0; i < Pes; i++) begin
      l_in[i*Width +: Width] = Width'(rand_word(8, 4 * i));
      r_in[i*Width +: Width] = Width'(rand_word(8, 4 * i + 1));
      u_in[i*Width +: Width] = Width'(rand_word(8, 4 * i + 2));
      d_in[i*Width +: Width] = Width'(rand_word(8, 4 * i + 3));
    end
  endtask

  task automatic check_torus(input part_t hs, input part_t vs, input string what);
    string ctx;
    int    a;
    int    b;
    drive_words();
    #1;
    ctx = $sformatf("tb_rta_system2d: %s (seed %0d)", what, seed);
    for (int r = 0; r < Side; r++) begin
      for (int c = 0; c < Side; c++) begin
        a = r * Side + c;
        b = r * Side + ring_next(64'(hs[r*Side +: Side]), Side, c);
        check_link(ctx, a, Side, b, 0, 1'b0, Width, 32'(l_out[b*Width +: Width]),
                   32'(r_out[a*Width +: Width]), 32'(r_in[a*Width +: Width]),
                   32'(l_in[b*Width +: Width]));
        b = ring_next(64'(vs[c*Side +: Side]), Side, r) * Side + c;
        check_link(ctx, a, Side, b, 0, 1'b1, Width, 32'(u_out[b*Width +: Width]),
                   32'(d_out[a*Width +: Width]), 32'(d_in[a*Width +: Width]),
                   32'(u_in[b*Width +: Width]));
      end
    end
  endtask

  // Expected partitions, set by the helpers below and read by command().
  part_t old_hs, old_vs, new_hs, new_vs;

  task automatic expect_level(int l);
    for (int i = 0; i < Side; i++) begin
      new_hs[i*Side +: Side] = starts_t'(srta_starts(l));
      new_vs[i*Side +: Side] = starts_t'(srta_starts(l));
    end
  endtask

  // Along ring i (rows first, then columns) an OFF switch p starts a ring at 2p+2.
  task automatic expect_bitmap(input logic [Sw-1:0] bm);
    for (int i = 0; i < Side; i++) begin
      new_hs[i*Side +: Side] = starts_t'(cut_starts(32'(bm[i*M +: M]), Side));
      new_vs[i*Side +: Side] = starts_t'(cut_starts(32'(bm[Side*M + i*M +: M]), Side));
    end
  endtask

  task automatic expect_same;
    new_hs = old_hs;
    new_vs = old_vs;
  endtask

  task automatic check_old(input string what);
    check_torus(old_hs, old_vs, what);
  endtask

  task automatic check_new(input string what);
    check_torus(new_hs, new_vs, what);
    old_hs = new_hs;
    old_vs = new_vs;
  endtask

  task automatic clear_words;
    l_in = '0;
    r_in = '0;
    u_in = '0;
    d_in = '0;
  endtask

  // A random raw bitmap, each switch ON with probability 3/4.
  function automatic logic [Bits-1:0] random_raw();
    logic [31:0] w;
    for (int b = 0; b < Bits; b++) begin
      w             = rand32();
      random_raw[b] = (w & 32'h3) != 0;
    end
  endfunction

  ///////////
  // Tests //
  ///////////

  initial begin
    logic [Sw-1:0] raw;
    tb_begin("tb_rta_system2d");
    reset_system();
    srta_levels();

    // ARTA from the full torus.
    expect_level(L);
    command(OpSetLevel, L, '0, ErrOk, 0, "SET_LEVEL 3");
    expect_same();
    command(OpSetMode, 1, '0, ErrOk, 1, "SET_MODE ARTA");
    for (int i = 0; i < Side; i++) begin
      new_hs[i*Side +: Side] = (i < 4) ? 8'b0101_0001 : 8'b0001_0001;
      new_vs[i*Side +: Side] = (i < 4) ? 8'b0001_0001 : 8'b0001_0101;
    end
    command(OpArtaOff, 3, '0, ErrOk, 1, "ARTA_OFF class 3");
    expect_level(L);
    command(OpArtaOn, 1, '0, ErrOk, 1, "ARTA_ON class 1");
    // All ON except one switch of class 1: not uniform on the class.
    raw    = '1;
    raw[1] = 1'b0;
    expect_same();
    command(OpWriteRaw, 0, raw, ErrIllegal, 1, "WRITE_RAW non-uniform class in ARTA");

    raw_rounds();
    tb_end("checks");
  end

endmodule
