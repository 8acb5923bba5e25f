// Copyright pinet contributors.
//
// tb_rta_system_common.svh: what tb_rta_system1d and tb_rta_system2d share: the command port of
// rta_system1d/2d, one command with its routing checked on both sides of the clock edge, reset,
// and the test sequence (SRTA levels down and up; random raw bitmaps in RTA mode). Included after
// tb_rta_common.svh and after the including module declares
//   localparam int Bits (the bitmap's width), L (SRTA levels), RawRounds;
// and defines the fabric's side of the checks, by name:
//   task clear_words;                       all data inputs 0
//   task expect_level(int l);               expect the rings of SRTA level l after the command
//   task expect_bitmap(logic [Bits-1:0]);   expect the rings a raw bitmap makes
//   task expect_same;                       expect the rings not to change
//   task check_old(string); check_new(string); route random words and check every link against
//       the expectation before the command / after it (check_new then makes it the old one)
//   function logic [Bits-1:0] random_raw(); a random raw bitmap

  localparam int OpSetMode = 1, OpSetLevel = 2, OpArtaOff = 3, OpArtaOn = 4, OpWriteRaw = 5;
  localparam int ErrOk = 0, ErrIllegal = 5;

  `TB_RTA_CLOCK(clk)

  logic            rst_n;
  logic            cmd_valid;
  logic [2:0]      cmd_op;
  logic [15:0]     cmd_arg;
  logic [Bits-1:0] cmd_bitmap;
  logic [Bits-1:0] bitmap;
  logic [1:0]      mode;
  logic [2:0]      err;
  tb_no_x_after_reset #(
    .Label("tb_rta_system"),
    .Width(Bits + 5)
  ) u_no_x (
    .clk    (clk),
    .rst_n  (rst_n),
    .outputs({bitmap, mode, err})
  );

  // Issue one command; the routing is checked just before the edge that takes it (old) and right
  // after it (new), then the error and mode it left.
  task automatic command(input int op, input int arg, input logic [Bits-1:0] raw,
                         input int want_err, input int want_mode, input string what);
    if (op < 0 || op > 7 || arg < 0 || arg > 65535) $fatal(1, "%s: bad command", tb_name);
    @(negedge clk);
    cmd_valid  = 1'b1;
    cmd_op     = 3'(op);
    cmd_arg    = 16'(arg);
    cmd_bitmap = raw;
    #3;
    check_old({what, " (before the edge)"});
    @(posedge clk);
    #1;
    cmd_valid = 1'b0;
    check_err_mode(what, err, mode, want_err, want_mode);
    check_new(what);
  endtask

  // Reset with idle inputs: the network is the full ring/torus (SRTA level L) during reset.
  task automatic reset_system;
    cmd_valid  = 1'b0;
    cmd_op     = '0;
    cmd_arg    = '0;
    cmd_bitmap = '0;
    clear_words();
    rst_n = 1'b1;
    #1;
    rst_n = 1'b0;
    #2;
    expect_level(L);
    check_new("reset");
    rst_n = 1'b1;
  endtask

  // SET_LEVEL 1 .. L, then back down to 1.
  task automatic srta_levels;
    for (int l = 1; l <= L; l++) begin
      expect_level(l);
      command(OpSetLevel, l, '0, ErrOk, 0, $sformatf("SET_LEVEL %0d", l));
    end
    for (int l = L - 1; l >= 1; l--) begin
      expect_level(l);
      command(OpSetLevel, l, '0, ErrOk, 0, $sformatf("SET_LEVEL %0d", l));
    end
  endtask

  // SET_MODE RTA, then RawRounds random raw bitmaps, each loaded as given.
  task automatic raw_rounds;
    logic [Bits-1:0] raw;
    expect_same();
    command(OpSetMode, 2, '0, ErrOk, 2, "SET_MODE RTA");
    for (int k = 0; k < RawRounds; k++) begin
      raw = random_raw();
      expect_bitmap(raw);
      command(OpWriteRaw, 0, raw, ErrOk, 2, $sformatf("WRITE_RAW %h", raw));
      checks++;
      if (bitmap !== raw) begin
        $error("%s: WRITE_RAW %h in RTA: bitmap %h (seed %0d)", tb_name, raw, bitmap, seed);
        tb_fail;
      end
    end
  endtask
