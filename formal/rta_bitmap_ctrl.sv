// Copyright pinet contributors.
//
// rta_bitmap_ctrl_formal: formal properties of rtl/rta_bitmap_ctrl.sv in 1D (one ring of Side
// PEs, M = Side/2 - 1 switches), read by scripts/formal.sh with yosys -formal. One property group
// per `ifdef CHECK_<GROUP>`.
//
// Specification (docs/rta.md, paper 004 section 6), written here without the RTL's functions:
//   - switch p (ring position p, 0 .. M-1) has level tz(p+1) + 2; the SRTA pattern of level l
//     (1 .. L, L = log2 Side) has exactly the switches of level <= l ON;
//   - the ARTA tree is the complete binary tree whose in-order traversal lists the positions;
//     position p with h = tz(p+1) heads the subtree of positions p+1-2^h .. p-1+2^h (1-based
//     p+1 - (2^h - 1) .. p+1 + (2^h - 1)); a bitmap is ARTA-legal when every ON switch's subtree
//     is all ON;
//   - SRTA-legal = equal to some level's pattern; RTA mode: every bitmap is legal.
//
// Environment: reset in cycle 0 only (rst_ni low while f_init), then any command sequence.
//
// Groups:
//   legal      the held state is always legal: mode_o is SRTA, ARTA or RTA, and bitmap_o is
//              legal in mode_o;
//   command    one cycle after a taken command: refused (err_o != ErrOk) -> bitmap_o and mode_o
//              unchanged; CmdWriteRaw accepted exactly when its bitmap is legal in the mode, and
//              then bitmap_o is that bitmap; CmdSetLevel l accepted exactly when 1 <= l <= L, and
//              then bitmap_o is the level-l pattern; no command taken -> nothing changes.
// Both are proven by k-induction (unbounded), not only BMC.

module rta_bitmap_ctrl_formal #(
  parameter int  Side = 8,
  localparam int M    = Side / 2 - 1,
  localparam int L    = $clog2(Side)
) (
  input logic                            clk_i,
  input logic                            cmd_valid_i,
  input logic [2:0]                      cmd_op_i,
  input logic [rta_pkg::RtaArgWidth-1:0] cmd_arg_i,
  input logic [M-1:0]                    cmd_bitmap_i
);

  // Reset in the first cycle only (an initialised register: the initial state of BMC).
  logic f_init = 1'b1;
  always @(posedge clk_i) f_init <= 1'b0;

  logic [M-1:0] bitmap;
  logic [1:0]   mode;
  logic [2:0]   err;

  rta_bitmap_ctrl #(
    .Dim (1),
    .Side(Side)
  ) u_dut (
    .clk_i       (clk_i),
    .rst_ni      (!f_init),
    .cmd_valid_i (cmd_valid_i),
    .cmd_op_i    (cmd_op_i),
    .cmd_arg_i   (cmd_arg_i),
    .cmd_bitmap_i(cmd_bitmap_i),
    .bitmap_o    (bitmap),
    .mode_o      (mode),
    .err_o       (err)
  );

  // ---- the specification -----------------------------------------------------------------------

  // Trailing zeros of x (x >= 1, below 2^16).
  function automatic int tz(int x);
    tz = 0;
    for (int i = 0; i < 16; i++) begin
      if ((x & ((1 << (i + 1)) - 1)) == 0) tz = i + 1;
    end
  endfunction

  function automatic logic [M-1:0] level_pattern(int l);
    for (int p = 0; p < M; p++) level_pattern[p] = (tz(p + 1) + 2 <= l);
  endfunction

  function automatic logic srta_legal(logic [M-1:0] b);
    srta_legal = 1'b0;
    for (int l = 1; l <= L; l++) begin
      if (b == level_pattern(l)) srta_legal = 1'b1;
    end
  endfunction

  function automatic logic arta_legal(logic [M-1:0] b);
    int h;
    arta_legal = 1'b1;
    for (int p = 0; p < M; p++) begin
      h = tz(p + 1);
      for (int q = 0; q < M; q++) begin
        // q inside p's subtree: |(q + 1) - (p + 1)| < 2^h
        if (b[p] && !b[q] && q + 1 > p + 1 - (1 << h) && q + 1 < p + 1 + (1 << h)) begin
          arta_legal = 1'b0;
        end
      end
    end
  endfunction

  function automatic logic legal_in(logic [1:0] m, logic [M-1:0] b);
    legal_in = (m == 2'd0) ? srta_legal(b) : (m == 2'd1) ? arta_legal(b) : (m == 2'd2);
  endfunction

  // ---- the properties --------------------------------------------------------------------------

`ifdef CHECK_LEGAL
  always @(*) begin
    if (!f_init) begin
      assert (mode != 2'd3);
      assert (legal_in(mode, bitmap));
    end
  end
`endif

`ifdef CHECK_COMMAND
  // The cycle before: whether a command was taken, the command, and the state it met.
  logic                            p_ok = 1'b0;  // the registers below hold a real past cycle
  logic                            p_valid;
  logic [2:0]                      p_op;
  logic [rta_pkg::RtaArgWidth-1:0] p_arg;
  logic [M-1:0]                    p_cmd_bitmap, p_bitmap;
  logic [1:0]                      p_mode;
  logic [2:0]                      p_err;
  always @(posedge clk_i) begin
    p_ok         <= !f_init;
    p_valid      <= cmd_valid_i;
    p_op         <= cmd_op_i;
    p_arg        <= cmd_arg_i;
    p_cmd_bitmap <= cmd_bitmap_i;
    p_bitmap     <= bitmap;
    p_mode       <= mode;
    p_err        <= err;
  end

  always @(*) begin
    if (p_ok && !f_init) begin
      if (!p_valid) begin
        assert (bitmap == p_bitmap && mode == p_mode && err == p_err);
      end else begin
        if (err != 3'd0) begin
          assert (bitmap == p_bitmap && mode == p_mode);
        end
        if (p_op == 3'd5) begin  // CmdWriteRaw
          assert ((err == 3'd0) == legal_in(p_mode, p_cmd_bitmap));
          if (err == 3'd0) assert (bitmap == p_cmd_bitmap);
        end
        if (p_op == 3'd2) begin  // CmdSetLevel
          assert ((err == 3'd0) == (p_arg >= 1 && p_arg <= L));
          if (err == 3'd0) assert (bitmap == level_pattern(p_arg));
        end
        if (p_op == 3'd6 || p_op == 3'd7) assert (err == 3'd1);  // ErrBadOpcode
      end
    end
  end
`endif

endmodule
