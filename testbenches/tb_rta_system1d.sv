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
// $error + $fatal on the first mismatch.

module tb_rta_system1d;

  `include "tb_rta_common.svh"

  localparam int N      = 16;
  localparam int L      = 4;
  localparam int M      = N / 2 - 1;
  localparam int Width  = 16;
  localparam int RawRounds = 40;

  localparam int OpSetMode = 1, OpSetLevel = 2, OpArtaOff = 3, OpArtaOn = 4, OpWriteRaw = 5;
  localparam int ErrOk = 0, ErrIllegal = 5;

  `TB_RTA_CLOCK(clk)

  logic               rst_n;
  logic               cmd_valid;
  logic [2:0]         cmd_op;
  logic [15:0]        cmd_arg;
  logic [M-1:0]       cmd_bitmap;
  logic [M-1:0]       bitmap;
  logic [1:0]         mode;
  logic [2:0]         err;
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

  ///////////
  // Tests //
  ///////////

  typedef logic [N-1:0] starts_t;  // bit k = 1: a ring starts at PE k (bit 0 always set)

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

  // The ring starts a bitmap produces: an OFF switch p starts a ring at PE 2p+2.
  function automatic starts_t starts_of(input logic [M-1:0] bm);
    starts_of = starts_t'(cut_starts(32'(bm), N));
  endfunction

  // The rings of SRTA level l: every 2^l PEs.
  function automatic starts_t level_starts(int l);
    level_starts = starts_t'(srta_starts(l));
  endfunction

  // Issue one command; check the routing just before the edge (old) and after it (new).
  task automatic command(input int op, input int arg, input logic [M-1:0] raw,
                         input starts_t old_starts, input starts_t new_starts,
                         input int want_err, input int want_mode, input string what);
    if (op < 0 || op > 7 || arg < 0 || arg > 65535) $fatal(1, "tb_rta_system1d: bad command");
    @(negedge clk);
    cmd_valid  = 1'b1;
    cmd_op     = 3'(op);
    cmd_arg    = 16'(arg);
    cmd_bitmap = raw;
    #3;
    check_rings(old_starts, {what, " (before the edge)"});
    @(posedge clk);
    #1;
    cmd_valid = 1'b0;
    check_err_mode(what, err, mode, want_err, want_mode);
    check_rings(new_starts, what);
  endtask

  initial begin
    starts_t      s;
    starts_t      t;
    logic [M-1:0] raw;
    logic [31:0]  w;
    tb_begin("tb_rta_system1d");

    cmd_valid  = 1'b0;
    cmd_op     = '0;
    cmd_arg    = '0;
    cmd_bitmap = '0;
    l_in       = '0;
    r_in       = '0;
    rst_n      = 1'b1;
    #1;
    rst_n = 1'b0;
    #2;
    check_rings(level_starts(L), "reset");
    rst_n = 1'b1;

    // SRTA levels, down and up again.
    s = level_starts(L);
    for (int l = 1; l <= L; l++) begin
      command(OpSetLevel, l, '0, s, level_starts(l), ErrOk, 0, $sformatf("SET_LEVEL %0d", l));
      s = level_starts(l);
    end
    for (int l = L - 1; l >= 1; l--) begin
      command(OpSetLevel, l, '0, s, level_starts(l), ErrOk, 0, $sformatf("SET_LEVEL %0d", l));
      s = level_starts(l);
    end

    // ARTA, from the full ring.
    command(OpSetLevel, L, '0, s, level_starts(L), ErrOk, 0, "SET_LEVEL 4");
    command(OpSetMode, 1, '0, level_starts(L), level_starts(L), ErrOk, 1, "SET_MODE ARTA");
    s = 16'b0000_0001_0101_0001;  // rings 0-3, 4-5, 6-7, 8-15
    command(OpArtaOff, 5, '0, level_starts(L), s, ErrOk, 1, "ARTA_OFF [5]");
    t = 16'b0000_0001_0000_0001;  // rings 0-7, 8-15
    command(OpArtaOn, 2, '0, s, t, ErrOk, 1, "ARTA_ON [2]");
    s = 16'b0101_0001_0000_0001;  // rings 0-7, 8-11, 12-13, 14-15
    command(OpArtaOff, 7, '0, t, s, ErrOk, 1, "ARTA_OFF [7]");
    // Only the root ON: its children are OFF, not closed under descendants.
    command(OpWriteRaw, 0, 7'b0001000, s, s, ErrIllegal, 1, "WRITE_RAW 0001000 in ARTA");

    // RTA: any bitmap.
    command(OpSetMode, 2, '0, s, s, ErrOk, 2, "SET_MODE RTA");
    for (int k = 0; k < RawRounds; k++) begin
      w   = rand32();
      raw = M'(w & 32'h7f);
      command(OpWriteRaw, 0, raw, s, starts_of(raw), ErrOk, 2, $sformatf("WRITE_RAW %b", raw));
      checks++;
      if (bitmap !== raw) begin
        $error("tb_rta_system1d: WRITE_RAW %b in RTA: bitmap %b (seed %0d)", raw, bitmap, seed);
        tb_fail;
      end
      s = starts_of(raw);
    end

    tb_end("checks");
  end

endmodule
