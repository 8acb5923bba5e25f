// Copyright pinet contributors.
//
// tb_rta_bitmap_ctrl: self-checking testbench of rta_bitmap_ctrl for Dim 1 (Side 4, 8, 16, 64)
// and Dim 2 (Side 4, 8, 16), one instance each in g_cfg[0..6], run one after the other.
//
// Reference: a behavioural controller written here from the specification (SPEC 1.3 and
// cmodel/include/pinet/rta.h), with its own geometry tables:
//   - 1D: switch addresses by walking the in-order traversal of the heap-numbered tree (no
//     closed formula); a switch's level is L - its depth.
//   - 2D: switching classes enumerated as quadtree blocks (class k's children 4k-2 .. 4k+1 =
//     top-left, top-right, bottom-left, bottom-right sub-blocks); each class claims the vertical
//     switches on its block's middle row boundary and the horizontal switches on its middle
//     column boundary (every bit must be claimed exactly once).
// Hand-derived golden vectors check the reference and the DUT on paper examples (1D N = 16
// switch addresses, 2D Side = 8 class 3).
// Directed, per configuration: reset state; ARTA edits refused in SRTA mode; SET_LEVEL 0 .. L+1;
// ARTA_OFF of every node (and 0, Nodes+1) each followed by ARTA_ON of the root; for every
// parent-child edge, WRITE_RAW of the child's subtree OFF under an ON parent (illegal) and with
// the parent's ancestors OFF too (legal).
// Stimulus: random commands (every opcode, in-range and out-of-range arguments, raw bitmaps that
// are random, SRTA patterns, ARTA-legal, ARTA-legal with one bit flipped, uniform per node but
// not closed under descendants, or the current bitmap), cmd_valid_i low
// now and then, and asynchronous resets in mid-cycle. After every rising edge bitmap_o, mode_o
// and err_o must equal the reference (one-cycle latency); during reset they must be the reset
// state. PRNG: xorshift64, seed from +seed=<n> (default 1).
// Ends with "PASS tb_rta_bitmap_ctrl", or $error + $fatal on the first mismatch.

`include "tb_no_x_after_reset.svh"

module tb_rta_bitmap_ctrl;

  `include "tb_rta_common.svh"

  localparam int NumCfg = 7;

  // Pinned codes (cmodel/include/pinet/rta.h), written out here rather than taken from rta_pkg.
  localparam int ModeSrta = 0, ModeArta = 1, ModeRta = 2;
  localparam int OpNop = 0, OpSetMode = 1, OpSetLevel = 2, OpArtaOff = 3, OpArtaOn = 4,
                 OpWriteRaw = 5;
  localparam int ErrOk = 0, ErrBadOpcode = 1, ErrBadLevel = 2, ErrBadNode = 3,
                 ErrWrongMode = 4, ErrIllegal = 5, ErrBadMode = 6;

  function automatic int cfg_dim(int g);
    cfg_dim = (g < 4) ? 1 : 2;
  endfunction

  // Random cycles per configuration (fewer for the two large ones: Icarus is slow there).
  function automatic int cfg_cycles(int g);
    case (g)
      3:       cfg_cycles = 400;
      6:       cfg_cycles = 300;
      default: cfg_cycles = 1200;
    endcase
  endfunction

  function automatic int cfg_side(int g);
    case (g)
      0:       cfg_side = 4;
      1:       cfg_side = 8;
      2:       cfg_side = 16;
      3:       cfg_side = 64;
      4:       cfg_side = 4;
      5:       cfg_side = 8;
      default: cfg_side = 16;
    endcase
  endfunction

  `TB_RTA_CLOCK(clk)

  ///////////////////////////////////////////
  // One controller + reference per config //
  ///////////////////////////////////////////

  for (genvar g = 0; g < NumCfg; g++) begin : g_cfg
    localparam int Dim   = cfg_dim(g);
    localparam int Side  = cfg_side(g);
    localparam int L     = $clog2(Side);
    localparam int M     = Side / 2 - 1;
    localparam int Sw    = (Dim == 1) ? M : Side * (Side - 2);
    localparam int Nodes = (Dim == 1) ? M : ((1 << (2 * (L - 1))) - 1) / 3;
    localparam int Cycles = cfg_cycles(g);

    logic          rst_n;
    logic          cmd_valid;
    logic [2:0]    cmd_op;
    logic [15:0]   cmd_arg;
    logic [Sw-1:0] cmd_bitmap;
    logic [Sw-1:0] bitmap;
    logic [1:0]    mode;
    logic [2:0]    err;

    rta_bitmap_ctrl #(
      .Dim (Dim),
      .Side(Side)
    ) u_dut (
      .clk_i       (clk),
      .rst_ni      (rst_n),
      .cmd_valid_i (cmd_valid),
      .cmd_op_i    (cmd_op),
      .cmd_arg_i   (cmd_arg),
      .cmd_bitmap_i(cmd_bitmap),
      .bitmap_o    (bitmap),
      .mode_o      (mode),
      .err_o       (err)
    );
    tb_no_x_after_reset #(
      .Label("tb_rta_bitmap_ctrl"),
      .Width(Sw + 5)
    ) u_no_x (
      .clk    (clk),
      .rst_n  (rst_n),
      .outputs({bitmap, mode, err})
    );

    //////////////////////
    // Reference tables //
    //////////////////////

    int node_of_bit [Sw];
    int level_of_bit[Sw];
    int first_bit   [Nodes+1];
    int parent_of   [Nodes+1];

    task automatic build_tables;
      int j;
      int depth;
      int r0    [Nodes+1];
      int c0    [Nodes+1];
      int size  [Nodes+1];
      int half;
      int b;
      for (int b2 = 0; b2 < Sw; b2++) node_of_bit[b2] = 0;
      for (int n = 0; n <= Nodes; n++) begin
        first_bit[n] = -1;
        parent_of[n] = n / 2;
      end
      if (Dim == 1) begin
        // In-order walk of the heap tree 1 .. M: the p-th node visited sits at position p.
        j = 1;
        while (2 * j <= M) j = 2 * j;
        for (int p = 0; p < M; p++) begin
          node_of_bit[p] = j;
          depth = 0;
          for (int a = j; a > 1; a = a / 2) depth++;
          level_of_bit[p] = L - depth;
          if (2 * j + 1 <= M) begin
            j = 2 * j + 1;
            while (2 * j <= M) j = 2 * j;
          end else begin
            while (j % 2 == 1 && j != 1) j = j / 2;
            j = j / 2;
          end
        end
      end else begin
        r0[1]   = 0;
        c0[1]   = 0;
        size[1] = Side;
        for (int k = 1; k <= Nodes; k++) begin
          half = size[k] / 2;
          if (size[k] > 4) begin
            for (int q = 0; q < 4; q++) begin
              parent_of[4*k-2+q] = k;
              r0[4*k-2+q]        = r0[k] + (q / 2) * half;
              c0[4*k-2+q]        = c0[k] + (q % 2) * half;
              size[4*k-2+q]      = half;
            end
          end
          // Vertical switches on the middle row boundary (between rows r0+half-1 and r0+half:
          // position (r0+half-2)/2), horizontal ones on the middle column boundary.
          for (int i = 0; i < size[k]; i++) begin
            for (int v = 0; v < 2; v++) begin
              if (v == 0) b = Side * M + (c0[k] + i) * M + (r0[k] + half - 2) / 2;
              else b = (r0[k] + i) * M + (c0[k] + half - 2) / 2;
              if (node_of_bit[b] != 0) begin
                $error("tb_rta_bitmap_ctrl: class %0d and %0d both claim bit %0d", k,
                       node_of_bit[b], b);
                tb_fail;
              end
              node_of_bit[b]  = k;
              level_of_bit[b] = $clog2(size[k]);
            end
          end
        end
      end
      for (int b2 = Sw - 1; b2 >= 0; b2--) begin
        if (node_of_bit[b2] < 1 || node_of_bit[b2] > Nodes) begin
          $error("tb_rta_bitmap_ctrl: bit %0d has no node", b2);
          tb_fail;
        end
        first_bit[node_of_bit[b2]] = b2;
      end
    endtask

    /////////////////////////
    // Reference behaviour //
    /////////////////////////

    logic [Sw-1:0] ref_bitmap;
    int            ref_mode;
    int            ref_err;

    function automatic logic [Sw-1:0] srta_pattern(int l);
      for (int b = 0; b < Sw; b++) srta_pattern[b] = (level_of_bit[b] <= l);
    endfunction

    function automatic logic is_legal(logic [Sw-1:0] bm, int md);
      logic ok;
      ok = 1'b0;
      if (md == ModeSrta) begin
        for (int l = 1; l <= L; l++) begin
          if (bm == srta_pattern(l)) ok = 1'b1;
        end
      end else if (md == ModeArta) begin
        ok = 1'b1;
        for (int b = 0; b < Sw; b++) begin
          if (bm[b] != bm[first_bit[node_of_bit[b]]]) ok = 1'b0;
        end
        for (int n = 2; n <= Nodes; n++) begin
          if (bm[first_bit[parent_of[n]]] && !bm[first_bit[n]]) ok = 1'b0;
        end
      end else if (md == ModeRta) begin
        ok = 1'b1;
      end
      is_legal = ok;
    endfunction

    // 1 if node a is node n or one of its ancestors.
    function automatic logic is_ancestor(int a, int n);
      logic hit;
      hit = 1'b0;
      for (int x = n; x >= 1; x = parent_of[x]) begin
        if (x == a) hit = 1'b1;
      end
      is_ancestor = hit;
    endfunction

    task automatic ref_reset;
      ref_bitmap = '1;
      ref_mode   = ModeSrta;
      ref_err    = ErrOk;
    endtask

    task automatic ref_step(input int op, input int arg, input logic [Sw-1:0] raw);
      ref_err = ErrOk;
      case (op)
        OpNop: ;
        OpSetMode: begin
          if (arg > 2) ref_err = ErrBadMode;
          else if (!is_legal(ref_bitmap, arg)) ref_err = ErrIllegal;
          else ref_mode = arg;
        end
        OpSetLevel: begin
          if (arg < 1 || arg > L) ref_err = ErrBadLevel;
          else ref_bitmap = srta_pattern(arg);
        end
        OpArtaOff, OpArtaOn: begin
          if (ref_mode == ModeSrta) ref_err = ErrWrongMode;
          else if (arg < 1 || arg > Nodes) ref_err = ErrBadNode;
          else begin
            for (int b = 0; b < Sw; b++) begin
              if (op == OpArtaOff && is_ancestor(node_of_bit[b], arg)) ref_bitmap[b] = 1'b0;
              if (op == OpArtaOn && is_ancestor(arg, node_of_bit[b])) ref_bitmap[b] = 1'b1;
            end
          end
        end
        OpWriteRaw: begin
          if (is_legal(raw, ref_mode)) ref_bitmap = raw;
          else ref_err = ErrIllegal;
        end
        default: ref_err = ErrBadOpcode;
      endcase
    endtask

    ///////////////////////
    // Driving, checking //
    ///////////////////////

    task automatic compare(input string what);
      checks++;
      if (bitmap !== ref_bitmap || mode !== 2'(ref_mode) || err !== 3'(ref_err)) begin
        $display("tb_rta_bitmap_ctrl: Dim=%0d Side=%0d %s (seed %0d)", Dim, Side, what, seed);
        $error("DUT bitmap %b mode %0d err %0d, expected bitmap %b mode %0d err %0d", bitmap,
               mode, err, ref_bitmap, ref_mode, ref_err);
        tb_fail;
      end
    endtask

    // One clock: drive at the falling edge, take the command at the rising edge, compare.
    task automatic command(input logic valid, input int op, input int arg,
                           input logic [Sw-1:0] raw);
      @(negedge clk);
      cmd_valid  = valid;
      cmd_op     = 3'(op);
      cmd_arg    = 16'(arg);
      cmd_bitmap = raw;
      @(posedge clk);
      if (valid) ref_step(op, arg & 32'hffff, raw);
      #1;
      compare($sformatf("after valid=%0d op=%0d arg=%0d raw=%b", valid, op, arg, raw));
    endtask

    // Asynchronous reset in mid-cycle: effective at once, holds through a clock edge that
    // presents a command.
    task automatic async_reset;
      @(negedge clk);
      #2;
      rst_n = 1'b0;
      #1;
      ref_reset();
      compare("at asynchronous reset");
      cmd_valid = 1'b1;
      cmd_op    = 3'(OpSetLevel);
      cmd_arg   = 16'd1;
      @(posedge clk);
      #1;
      compare("clock edge during reset");
      @(negedge clk);
      cmd_valid = 1'b0;
      #2;
      rst_n = 1'b1;
      #1;
      compare("after reset release");
    endtask

    // Every switch ON except those of node c's subtree and, if `ancestors`, of c's ancestors.
    function automatic logic [Sw-1:0] subtree_off(int c, logic ancestors);
      for (int b = 0; b < Sw; b++) begin
        subtree_off[b] = !(is_ancestor(c, node_of_bit[b]) ||
                           (ancestors && is_ancestor(node_of_bit[b], c)));
      end
    endfunction

    // A random bitmap that is uniform on every node (2D class): random node states, then, if
    // `closed`, closure under descendants (heap numbers grow downwards, so parents are settled
    // before their children) - an ARTA-legal bitmap.
    function automatic logic [Sw-1:0] random_nodes(logic closed);
      logic [Nodes:0] on;
      int             pick;
      for (int n = 1; n <= Nodes; n++) begin
        pick  = below(3);
        on[n] = (pick != 0);
        if (closed && n > 1 && on[parent_of[n]]) on[n] = 1'b1;
      end
      on[0] = 1'b0;
      for (int b = 0; b < Sw; b++) random_nodes[b] = on[node_of_bit[b]];
    endfunction

    // Every random draw is made unconditionally, then the branches only select: a call in a
    // branch may be hoisted out of it by one of the two simulators (an if/else that assigns one
    // variable becomes a conditional expression), and the streams would then differ.
    function automatic logic [Sw-1:0] random_raw();
      logic [Sw-1:0] uniform;
      logic [Sw-1:0] arta;
      logic [Sw-1:0] nodewise;
      logic [31:0]   r;
      int            kind;
      int            level;
      int            flip;
      kind = below(10);
      for (int b = 0; b < Sw; b++) begin
        r          = rand32();
        uniform[b] = (r & 32'h1) != 0;
      end
      level    = below(L);
      arta     = random_nodes(1'b1);
      nodewise = random_nodes(1'b0);
      flip     = below(Sw);
      if (kind < 2) begin
        random_raw = uniform;
      end else if (kind < 4) begin
        random_raw = srta_pattern(1 + level);
      end else if (kind < 6) begin
        random_raw = arta;
      end else if (kind < 7) begin
        arta[flip % Sw] = ~arta[flip % Sw];
        random_raw      = arta;
      end else if (kind < 9) begin
        random_raw = nodewise;
      end else begin
        random_raw = ref_bitmap;
      end
    endfunction

    // Mostly lo .. hi, sometimes just outside, sometimes any 16-bit value.
    function automatic int random_arg(int lo, int hi);
      int kind;
      int pick;
      int any;
      kind = below(20);
      pick = below(hi - lo + 1);
      any  = below(32'h10000);
      if (kind < 17) random_arg = lo + pick;
      else if (kind == 17) random_arg = lo - 1;
      else if (kind == 18) random_arg = hi + 1;
      else random_arg = any;
    endfunction

    task automatic run_random;
      int            op;
      int            arg;
      int            lo;
      int            hi;
      int            pick;
      logic          valid;
      logic [Sw-1:0] raw;
      for (int t = 0; t < Cycles; t++) begin
        pick = below(200);
        if (pick == 0) async_reset();
        pick = below(100);
        if (pick < 5) op = OpNop;
        else if (pick < 20) op = OpSetMode;
        else if (pick < 30) op = OpSetLevel;
        else if (pick < 50) op = OpArtaOff;
        else if (pick < 70) op = OpArtaOn;
        else if (pick < 95) op = OpWriteRaw;
        else op = 6 + pick % 2;
        lo = (op == OpSetMode) ? 0 : 1;
        hi = (op == OpSetMode) ? 2 : (op == OpSetLevel) ? L : Nodes;
        arg = random_arg(lo, hi);
        raw = random_raw();
        pick  = below(10);
        valid = (pick != 0);
        command(valid, op, arg, raw);
      end
    endtask

    task automatic run;
      build_tables();
      cmd_valid  = 1'b0;
      cmd_op     = '0;
      cmd_arg    = '0;
      cmd_bitmap = '0;
      // A real falling edge of rst_n (Verilator's variables start at 0, Icarus's at X).
      rst_n      = 1'b1;
      #1;
      rst_n = 1'b0;
      ref_reset();
      #2;
      compare("in reset");
      rst_n = 1'b1;
      // Every level, then every node OFF and ON again in ARTA mode, from the all-ON state.
      command(1'b1, OpArtaOff, 1, '0);  // WRONG_MODE in SRTA
      for (int l = 0; l <= L + 1; l++) command(1'b1, OpSetLevel, l, '0);
      command(1'b1, OpSetMode, ModeArta, '0);
      for (int n = 0; n <= Nodes + 1; n++) begin
        command(1'b1, OpArtaOff, n, '0);
        command(1'b1, OpArtaOn, 1, '0);
      end
      // Every parent-child edge of the tree: the child's subtree OFF under an ON parent is not
      // ARTA-legal; with the parent and its ancestors OFF as well it is.
      for (int n = 2; n <= Nodes; n++) begin
        command(1'b1, OpWriteRaw, 0, subtree_off(n, 1'b0));
        command(1'b1, OpWriteRaw, 0, subtree_off(n, 1'b1));
      end
      run_random();
    endtask
  end

  ////////////////////////////////
  // Hand-derived golden checks //
  ////////////////////////////////

  // 1D N = 16 (g_cfg[2]): paper addresses [1..7] sit at positions 3, 1, 5, 0, 2, 4, 6. From the
  // all-ON state, ARTA_OFF [j] clears j and its ancestors; ARTA_ON [2] restores 2's subtree.
  task automatic golden_1d;
    // Expected bitmaps, bit p = position p.
    g_cfg[2].command(1'b1, OpSetLevel, 4, '0);
    g_cfg[2].command(1'b1, OpSetMode, ModeArta, '0);
    g_cfg[2].command(1'b1, OpArtaOff, 5, '0);
    check_golden_1d(7'b1110001, "ARTA_OFF [5]");
    g_cfg[2].command(1'b1, OpArtaOn, 2, '0);
    check_golden_1d(7'b1110111, "ARTA_ON [2]");
    g_cfg[2].command(1'b1, OpArtaOff, 7, '0);
    check_golden_1d(7'b0010111, "ARTA_OFF [7]");
    g_cfg[2].command(1'b1, OpArtaOff, 4, '0);
    check_golden_1d(7'b0010100, "ARTA_OFF [4]");
    g_cfg[2].command(1'b1, OpSetMode, ModeSrta, '0);
    if (g_cfg[2].err !== 3'(ErrIllegal)) begin
      $error("tb_rta_bitmap_ctrl: golden 1D: SET_MODE SRTA on 0010100 gave err %0d", g_cfg[2].err);
      tb_fail;
    end
  endtask

  task automatic check_golden_1d(input logic [6:0] expected, input string what);
    if (g_cfg[2].bitmap !== expected) begin
      $error("tb_rta_bitmap_ctrl: golden 1D N=16 %s: DUT %b expected %b", what, g_cfg[2].bitmap,
             expected);
      tb_fail;
    end
  endtask

  // 2D Side = 8 (g_cfg[5], M = 3): class 1 owns horizontal position 1 of every row and vertical
  // position 1 of every column; class 3 (top-right block, rows 0-3, columns 4-7) owns horizontal
  // position 2 of rows 0-3 and vertical position 0 of columns 4-7.
  task automatic golden_2d;
    logic [47:0] expected;
    g_cfg[5].command(1'b1, OpSetLevel, 3, '0);
    g_cfg[5].command(1'b1, OpSetMode, ModeArta, '0);
    g_cfg[5].command(1'b1, OpArtaOff, 3, '0);
    expected = '1;
    for (int i = 0; i < 8; i++) begin
      expected[i*3 + 1]      = 1'b0;
      expected[24 + i*3 + 1] = 1'b0;
    end
    for (int i = 0; i < 4; i++) begin
      expected[i*3 + 2]          = 1'b0;
      expected[24 + (4+i)*3 + 0] = 1'b0;
    end
    if (g_cfg[5].bitmap !== expected || g_cfg[5].err !== 3'(ErrOk)) begin
      $error("tb_rta_bitmap_ctrl: golden 2D Side=8 ARTA_OFF 3: DUT %b err %0d expected %b",
             g_cfg[5].bitmap, g_cfg[5].err, expected);
      tb_fail;
    end
  endtask

  initial begin
    tb_begin("tb_rta_bitmap_ctrl");
    g_cfg[0].run();
    g_cfg[1].run();
    g_cfg[2].run();
    golden_1d();
    g_cfg[3].run();
    g_cfg[4].run();
    g_cfg[5].run();
    golden_2d();
    g_cfg[6].run();
    tb_end("cycle checks");
  end

endmodule
