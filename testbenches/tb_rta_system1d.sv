// Copyright pinet contributors.
//
// tb_rta_system1d: end-to-end testbench of rta_system1d (N = 16): commands go into the bitmap
// controller, words go through the ring, and the routing is checked against the paper.
//
//   - After reset: one ring of 16 PEs. SET_LEVEL l (l = 1 .. 4): PE A's R port reaches the L
//     port of q + (A + 1) mod 2^l (neighbor(A, l)), for every A.
//   - Latency: in the cycle before the edge that takes a command the ring still routes by the
//     old bitmap; right after the edge it routes by the new one.
//   - ARTA, hand-derived from the paper's addressing (addresses [1..7] at switch positions
//     3, 1, 5, 0, 2, 4, 6; position p cuts the ring at PE 2p+2 when OFF): from the full ring,
//     ARTA_OFF [5] gives rings 0-3, 4-5, 6-7, 8-15; ARTA_ON [2] gives 0-7, 8-15; ARTA_OFF [7]
//     gives 0-7, 8-11, 12-13, 14-15. An ARTA-illegal raw bitmap is refused (ILLEGAL) and the
//     routing does not change.
//   - RTA mode: random raw bitmaps are loaded as given; every segment between OFF switches is a
//     ring.
// PRNG: xorshift64, seed from +seed=<n> (default 1). Ends with "PASS tb_rta_system1d", or
// $error + $fatal on the first mismatch. The command port and the test sequence are shared with
// tb_rta_system2d (tb_rta_system_common.svh); this file holds the ring's side of the checks.

`include "tb_no_x_after_reset.svh"

module tb_rta_system1d;

  `include "tb_rta_common.svh"

  localparam int N         = 16;
  localparam int L         = 4;
  localparam int M         = N / 2 - 1;
  localparam int Bits      = M;
  localparam int Width     = 16;
  localparam int RawRounds = 40;

  `include "tb_rta_system_common.svh"

  logic [N*Width-1:0] l_in;
  logic [N*Width-1:0] r_in;
  logic [N*Width-1:0] l_out;
  logic [N*Width-1:0] r_out;

  rta_system1d #(
    .N    (N),
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
    .l_o         (l_out),
    .r_o         (r_out)
  );

  ////////////////////////////
  // The ring's checks      //
  ////////////////////////////

  typedef logic [N-1:0] starts_t;  // bit k = 1: a ring starts at PE k (bit 0 always set)

  // The rings expected before (old_s) and after (new_s) the next command.
  starts_t old_s, new_s;

  task automatic clear_words;
    l_in = '0;
    r_in = '0;
  endtask

  // Fresh random words, tag 2*pe + port in the low 5 bits.
  task automatic drive_words;
    for (int i = 0; i < N; i++) begin
      l_in[i*Width +: Width] = Width'(rand_word(5, 2 * i));
      r_in[i*Width +: Width] = Width'(rand_word(5, 2 * i + 1));
    end
  endtask

  // Check the ring partition: each PE's R port is joined to the next PE's L port inside its ring,
  // the last PE's to the first's.
  task automatic check_rings(input starts_t starts, input string what);
    string ctx;
    int    b;
    drive_words();
    #1;
    ctx = $sformatf("tb_rta_system1d: %s, ring starts %b, bitmap %b (seed %0d)", what, starts,
                    bitmap, seed);
    for (int a = 0; a < N; a++) begin
      b = ring_next(64'(starts), N, a);
      check_link(ctx, a, 0, b, 0, 1'b0, Width, 32'(l_out[b*Width +: Width]),
                 32'(r_out[a*Width +: Width]), 32'(r_in[a*Width +: Width]),
                 32'(l_in[b*Width +: Width]));
    end
  endtask

  task automatic check_old(input string what);
    check_rings(old_s, what);
  endtask

  task automatic check_new(input string what);
    check_rings(new_s, what);
    old_s = new_s;
  endtask

  // The rings of SRTA level l: every 2^l PEs.
  task automatic expect_level(int l);
    new_s = starts_t'(srta_starts(l));
  endtask

  // An OFF switch p starts a ring at PE 2p+2.
  task automatic expect_bitmap(input logic [Bits-1:0] bm);
    new_s = starts_t'(cut_starts(32'(bm), N));
  endtask

  task automatic expect_same;
    new_s = old_s;
  endtask

  function automatic logic [Bits-1:0] random_raw();
    logic [31:0] w;
    w          = rand32();
    random_raw = Bits'(w & 32'h7f);
  endfunction

  ///////////
  // Tests //
  ///////////

  initial begin
    tb_begin("tb_rta_system1d");
    reset_system();
    srta_levels();

    // ARTA, from the full ring.
    expect_level(L);
    command(OpSetLevel, L, '0, ErrOk, 0, "SET_LEVEL 4");
    expect_same();
    command(OpSetMode, 1, '0, ErrOk, 1, "SET_MODE ARTA");
    new_s = 16'b0000_0001_0101_0001;  // rings 0-3, 4-5, 6-7, 8-15
    command(OpArtaOff, 5, '0, ErrOk, 1, "ARTA_OFF [5]");
    new_s = 16'b0000_0001_0000_0001;  // rings 0-7, 8-15
    command(OpArtaOn, 2, '0, ErrOk, 1, "ARTA_ON [2]");
    new_s = 16'b0101_0001_0000_0001;  // rings 0-7, 8-11, 12-13, 14-15
    command(OpArtaOff, 7, '0, ErrOk, 1, "ARTA_OFF [7]");
    // Only the root ON: its children are OFF, not closed under descendants.
    expect_same();
    command(OpWriteRaw, 0, 7'b0001000, ErrIllegal, 1, "WRITE_RAW 0001000 in ARTA");

    raw_rounds();
    tb_end("checks");
  end

endmodule
