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

  localparam int N      = 16;
  localparam int L      = 4;
  localparam int M      = N / 2 - 1;
  localparam int Width  = 16;
  localparam int RawRounds = 40;

  localparam int OpSetMode = 1, OpSetLevel = 2, OpArtaOff = 3, OpArtaOn = 4, OpWriteRaw = 5;
  localparam int ErrOk = 0, ErrIllegal = 5;

  logic               clk;
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

  initial begin
    clk = 1'b0;
    forever #5 clk = ~clk;
  end

  //////////
  // PRNG //
  //////////

  logic [63:0] rng_state;
  int unsigned seed;
  int unsigned checks;

  // Called only as the whole right-hand side of an assignment (see tb_rta_bitmap_ctrl).
  function automatic logic [31:0] rand32();
    rng_state = rng_state ^ (rng_state << 13);
    rng_state = rng_state ^ (rng_state >> 7);
    rng_state = rng_state ^ (rng_state << 17);
    rand32    = rng_state[31:0];
  endfunction

  ///////////
  // Tests //
  ///////////

  // Fresh random words, tag 2*pe + port in the low 5 bits.
  task automatic drive_words;
    logic [31:0] w;
    for (int i = 0; i < N; i++) begin
      w = rand32();
      l_in[i*Width +: Width] = Width'((w & 32'hffe0) | 32'(2 * i));
      w = rand32();
      r_in[i*Width +: Width] = Width'((w & 32'hffe0) | 32'(2 * i + 1));
    end
  endtask

  // Check the ring partition: starts[k] = 1 when a ring begins at PE k (starts[0] = 1). Each
  // PE's R port is joined to the next PE's L port inside its ring, the last PE's to the first's.
  task automatic check_rings(input logic [N-1:0] starts, input string what);
    int first;
    int b;
    drive_words();
    #1;
    first = 0;
    for (int a = 0; a < N; a++) begin
      if (starts[a]) first = a;
      if (a == N - 1 || starts[a+1]) b = first;
      else b = a + 1;
      checks++;
      if (l_out[b*Width +: Width] !== r_in[a*Width +: Width] ||
          r_out[a*Width +: Width] !== l_in[b*Width +: Width]) begin
        $display("tb_rta_system1d: %s, ring starts %b, bitmap %b (seed %0d)", what, starts,
                 bitmap, seed);
        $error("PE %0d R -> PE %0d L: got L %h R %h, want L %h R %h", a, b,
               l_out[b*Width +: Width], r_out[a*Width +: Width], r_in[a*Width +: Width],
               l_in[b*Width +: Width]);
        $fatal(1, "tb_rta_system1d: FAIL");
      end
    end
  endtask

  // The ring starts a bitmap produces: an OFF switch p starts a ring at PE 2p+2.
  function automatic logic [N-1:0] starts_of(input logic [M-1:0] bm);
    logic [N-1:0] s;
    s    = '0;
    s[0] = 1'b1;
    for (int p = 0; p < M; p++) begin
      if (!bm[p]) s[2*p+2] = 1'b1;
    end
    starts_of = s;
  endfunction

  // The rings of SRTA level l: every 2^l PEs.
  function automatic logic [N-1:0] level_starts(int l);
    logic [N-1:0] s;
    for (int k = 0; k < N; k++) s[k] = (k % (1 << l) == 0);
    level_starts = s;
  endfunction

  // Issue one command; check the routing just before the edge (old) and after it (new).
  task automatic command(input int op, input int arg, input logic [M-1:0] raw,
                         input logic [N-1:0] old_starts, input logic [N-1:0] new_starts,
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
    checks++;
    if (err !== 3'(want_err) || mode !== 2'(want_mode)) begin
      $error("tb_rta_system1d: %s: err %0d mode %0d, expected err %0d mode %0d (seed %0d)", what,
             err, mode, want_err, want_mode, seed);
      $fatal(1, "tb_rta_system1d: FAIL");
    end
    check_rings(new_starts, what);
  endtask

  initial begin
    logic [N-1:0] s;
    logic [N-1:0] t;
    logic [M-1:0] raw;
    logic [31:0]  w;
    seed = 1;
    if ($value$plusargs("seed=%d", seed)) begin
    end
    rng_state = {32'h9e3779b9, seed} | 64'd1;
    checks    = 0;
    $display("tb_rta_system1d: seed %0d", seed);

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
        $fatal(1, "tb_rta_system1d: FAIL");
      end
      s = starts_of(raw);
    end

    $display("tb_rta_system1d: %0d checks, PRNG state %h", checks, rng_state);
    $display("PASS tb_rta_system1d");
    $finish;
  end

endmodule
