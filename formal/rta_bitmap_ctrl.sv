// Copyright pinet contributors.
//
// rta_bitmap_ctrl_formal: formal properties of rtl/rta_bitmap_ctrl.sv (docs/formal.md), read by
// scripts/formal.sh with yosys -formal. One property group per `ifdef CHECK_<GROUP>`. The
// expected behaviour comes from formal/rta_bitmap_ctrl_spec.sv (written from docs/rta.md in
// terms of blocks of PEs, not of the RTL's heap-number ranges).
//
// Environment (2 assumptions): reset (rst_ni low) in the first cycle; after that rst_ni and every
// command input are free, so a reset may come at any cycle and any command, argument (all 16
// bits) and raw bitmap may be presented at any cycle.
//
// The RTL's reset is asynchronous; yosys's async2sync makes it synchronous with the flops'
// outputs forced to the reset values while rst_ni is low, which is what the RTL shows between
// the falling edge of rst_ni and the next clock edge. A "cycle" below is one clock edge.
//
// Groups (f_cmd: the previous cycle took a command, i.e. rst_ni high and cmd_valid_i; the state
// before it and the specification's verdict on it are kept in p_* registers):
//   legal   the held state is always legal: mode_o is SRTA, ARTA or RTA, and bitmap_o is legal
//           in mode_o (an SRTA level's pattern; ARTA closed under descendants, 2D classes
//           uniform). Inductive on its own.
//   reset   while rst_ni is low, and in the cycle after, the state is SRTA, every switch ON, OK;
//           with cmd_valid_i low (and no reset) nothing changes, err_o included.
//   reject  a command the specification refuses leaves bitmap_o and mode_o as they were and sets
//           err_o to the specification's error code (the first failing check of docs/rta.md's
//           table).
//   accept  a command the specification accepts sets err_o to OK and the state to the
//           specification's: WRITE_RAW's bitmap, SET_LEVEL's pattern, the ARTA edit, SET_MODE's
//           mode (bitmap kept), NOP nothing.
// reject and accept speak of one clock edge from any state whose mode is 0 .. 2; the mode is
// the strengthening invariant asserted with them (an unreachable mode 3 is not specified).

module rta_bitmap_ctrl_formal #(
  parameter int  Dim         = 1,
  parameter int  Side        = 8,
  localparam int NumSwitches = (Dim == 1) ? Side / 2 - 1 : Side * (Side - 2),
  localparam int ArgW        = rta_pkg::RtaArgWidth
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   cmd_valid_i,
  input logic [2:0]             cmd_op_i,
  input logic [ArgW-1:0]        cmd_arg_i,
  input logic [NumSwitches-1:0] cmd_bitmap_i
);

  logic [NumSwitches-1:0] bitmap;
  logic [1:0]             mode;
  logic [2:0]             err;

  rta_bitmap_ctrl #(
    .Dim (Dim),
    .Side(Side)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .cmd_valid_i (cmd_valid_i),
    .cmd_op_i    (cmd_op_i),
    .cmd_arg_i   (cmd_arg_i),
    .cmd_bitmap_i(cmd_bitmap_i),
    .bitmap_o    (bitmap),
    .mode_o      (mode),
    .err_o       (err)
  );

  logic                   legal;
  logic [NumSwitches-1:0] exp_bitmap;
  logic [1:0]             exp_mode;
  logic [2:0]             exp_err;

  rta_bitmap_ctrl_spec #(
    .Dim (Dim),
    .Side(Side)
  ) u_spec (
    .mode_i       (mode),
    .bitmap_i     (bitmap),
    .err_i        (err),
    .cmd_valid_i  (cmd_valid_i),
    .cmd_op_i     (cmd_op_i),
    .cmd_arg_i    (cmd_arg_i),
    .cmd_bitmap_i (cmd_bitmap_i),
    .legal_o      (legal),
    .next_bitmap_o(exp_bitmap),
    .next_mode_o  (exp_mode),
    .next_err_o   (exp_err)
  );

  /////////////////
  // Environment //
  /////////////////

  logic f_first = 1'b1;  // the first cycle (an initialised register: BMC's initial state)
  always @(posedge clk_i) f_first <= 1'b0;

  always @(*) begin
    if (f_first) assume (!rst_ni);
  end

  ////////////////////////
  // The previous cycle //
  ////////////////////////

  logic                   p_rst = 1'b1;  // rst_ni was low
  logic                   p_cmd = 1'b0;  // a command was taken
  logic                   p_idle = 1'b0;  // no reset and no command
  logic [NumSwitches-1:0] p_bitmap, p_exp_bitmap;
  logic [1:0]             p_mode, p_exp_mode;
  logic [2:0]             p_err, p_exp_err;

  always @(posedge clk_i) begin
    p_rst        <= !rst_ni;
    p_cmd        <= rst_ni && cmd_valid_i;
    p_idle       <= rst_ni && !cmd_valid_i;
    p_bitmap     <= bitmap;
    p_mode       <= mode;
    p_err        <= err;
    p_exp_bitmap <= exp_bitmap;
    p_exp_mode   <= exp_mode;
    p_exp_err    <= exp_err;
  end

  ////////////////
  // Properties //
  ////////////////

`ifdef CHECK_LEGAL
  always @(*) begin
    assert (mode != 2'd3);
    assert (legal);
  end
`endif

`ifdef CHECK_RESET
  always @(*) begin
    if (!rst_ni || p_rst) begin
      assert (bitmap == '1 && mode == 2'd0 && err == 3'd0);
    end
    if (rst_ni && p_idle) begin
      assert (bitmap == p_bitmap && mode == p_mode && err == p_err);
    end
  end
`endif

`ifdef CHECK_REJECT
  always @(*) begin
    assert (mode != 2'd3);
    if (rst_ni && p_cmd && p_exp_err != 3'd0) begin
      assert (err == p_exp_err);
      assert (bitmap == p_bitmap && mode == p_mode);
    end
  end
`endif

`ifdef CHECK_ACCEPT
  always @(*) begin
    assert (mode != 2'd3);
    if (rst_ni && p_cmd && p_exp_err == 3'd0) begin
      assert (err == 3'd0);
      assert (bitmap == p_exp_bitmap && mode == p_exp_mode);
    end
  end
`endif

endmodule
