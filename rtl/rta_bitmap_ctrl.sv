// Copyright pinet contributors.
//
// rta_bitmap_ctrl: the RTA's central switch controller (paper 004, section 6; SPEC 1.3). One flop
// per switch holds its ON/OFF state and drives it straight to the fabric (bitmap_o); commands
// write whole switching patterns into that bitmap and validate them against the mode.
//
// Geometry: Dim = 1 is one ring of Side PEs (NumSwitches = Side/2 - 1, bit p = switch position
// p); Dim = 2 is a Side x Side torus (NumSwitches = Side*(Side-2): horizontal rings first, row r's
// switches at r*M + p, then column c's at Side*M + c*M + p, M = Side/2 - 1). The switching level
// of ring position p is tz(p+1) + 2. ARTA nodes: in 1D the paper switch address [j] (heap number
// of the complete binary tree whose in-order traversal lists the positions left to right), in 2D
// the switching class (quadtree heap number, root 1, children of k: 4k-2 .. 4k+1 = top-left,
// top-right, bottom-left, bottom-right; a class of level k owns the 2^(k+1) switches on the middle
// row / column boundaries of its 2^k x 2^k block).
//
// Protocol: a command (cmd_op_i, cmd_arg_i, cmd_bitmap_i) presented with cmd_valid_i = 1 is taken
// at the rising edge of clk_i; with cmd_valid_i = 0 nothing changes. Every taken command writes
// err_o (ErrOk or its error code); a refused command leaves bitmap_o and mode_o unchanged.
//   CmdNop       -> ErrOk.
//   CmdSetMode   m: m > 2 -> ErrBadMode; bitmap not legal in mode m -> ErrIllegal; else mode = m.
//   CmdSetLevel  l: l outside 1 .. L (L = log2 Side) -> ErrBadLevel; else load the SRTA pattern
//                of level l (switches of level <= l ON). Allowed in every mode.
//   CmdArtaOff/On j: SRTA mode -> ErrWrongMode (checked first); j outside 1 .. NumNodes ->
//                ErrBadNode; OFF turns node j and all its ancestors OFF, ON turns j and all its
//                descendants ON, other switches unchanged.
//   CmdWriteRaw  : cmd_bitmap_i legal in the current mode -> load it, else ErrIllegal.
//   opcodes 6, 7 -> ErrBadOpcode.
// Legality: SRTA = the pattern of some level; ARTA = the ON set is closed under descendants (2D:
// every class uniform, ON classes closed under quadtree descendants); RTA = any bitmap.
// Reset (rst_ni low, asynchronous): mode SRTA, every switch ON (level L), ErrOk.
//
// Latency: one cycle. After the edge that takes a command, bitmap_o / mode_o / err_o reflect it;
// the fabric (rta_ring / rta_torus2d) follows bitmap_o in the same cycle, combinationally.
// State: exactly NumSwitches + 2 (mode) + 3 (error) flops; everything else is combinational.

module rta_bitmap_ctrl #(
  parameter int  Dim         = 1,
  parameter int  Side        = 8,
  localparam int NumSwitches = (Dim == 1) ? Side / 2 - 1 : Side * (Side - 2)
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            cmd_valid_i,
  input  logic [2:0]                      cmd_op_i,
  input  logic [rta_pkg::RtaArgWidth-1:0] cmd_arg_i,
  input  logic [NumSwitches-1:0]          cmd_bitmap_i,
  output logic [NumSwitches-1:0]          bitmap_o,
  output logic [1:0]                      mode_o,
  output logic [2:0]                      err_o
);

  // Local aliases of the package enums (Icarus 11 crashes on a variable declared directly with a
  // package-scoped enum type; yosys 0.23 does not take an import inside a module).
  typedef rta_pkg::rta_mode_e mode_e;
  typedef rta_pkg::rta_err_e  err_e;

  localparam int ArgW         = rta_pkg::RtaArgWidth;
  localparam int Levels       = $clog2(Side);                  // L
  localparam int RingSwitches = Side / 2 - 1;                  // M
  localparam int NumNodes     = (Dim == 1) ? RingSwitches : ((1 << (2 * (Levels - 1))) - 1) / 3;
  localparam int AncSteps     = Levels - 1;                    // tree depths: 0 .. L-2
  localparam int NumRings     = (Dim == 1) ? 1 : 2 * Side;
  // Above the verified range (the checks at the end) the generate loops run empty, so that
  // elaboration stops at once on the range error instead of unrolling thousands of instances.
  localparam bit TooLarge     = (Dim == 1 && Side > 4096) || (Dim == 2 && Side > 128);
  localparam int LoopNodes    = TooLarge ? 0 : NumNodes;
  localparam int LoopRingBits = TooLarge ? 0 : RingSwitches;

  localparam logic [ArgW-1:0] ArgLevels  = ArgW'(Levels);
  localparam logic [ArgW-1:0] ArgNodes   = ArgW'(NumNodes);
  localparam logic [ArgW-1:0] ArgMaxMode = ArgW'(2);

  ////////////////////////////////////////
  // Geometry (constant functions only) //
  ////////////////////////////////////////

  // (Icarus 11 refuses a constant function that calls another one inside a loop, and yosys 0.23
  // has no `return`: each function below is self-contained and assigns its name.)
  /* verilator coverage_off */ // constant functions: called for localparams at elaboration only

  // Switching level (2 .. L) of bitmap bit b: tz(p+1) + 2, p = the bit's ring position.
  function automatic int bit_level(int b);
    int q;
    int lvl;
    q   = (b % RingSwitches) + 1;
    lvl = 2;
    for (int i = 0; i < 31; i++) begin
      if (q % 2 == 0) begin
        lvl = lvl + 1;
        q   = q / 2;
      end
    end
    bit_level = lvl;
  endfunction

  // The SRTA pattern of level l: every switch of level <= l ON (bit_level inlined, see above).
  function automatic logic [NumSwitches-1:0] srta_pattern(int l);
    int q;
    int lvl;
    // Every bit is written in the loop (no '0 first: above 8k bits Verilator calls a fill a
    // suspicious replication, WIDTHCONCAT).
    for (int b = 0; b < NumSwitches; b++) begin
      q   = (b % RingSwitches) + 1;
      lvl = 2;
      for (int i = 0; i < 31; i++) begin
        if (q % 2 == 0) begin
          lvl = lvl + 1;
          q   = q / 2;
        end
      end
      srta_pattern[b] = (lvl <= l);
    end
  endfunction

  // The ARTA node (1 .. NumNodes) that bitmap bit b belongs to.
  function automatic int node_of_bit(int b);
    int pos;
    int ring;
    int q;
    int lvl;
    int depth;
    int brow;
    int bcol;
    int idx;
    pos  = b % RingSwitches;
    ring = b / RingSwitches;
    q    = pos + 1;
    lvl  = 2;
    for (int i = 0; i < 31; i++) begin
      if (q % 2 == 0) begin
        lvl = lvl + 1;
        q   = q / 2;
      end
    end
    depth = Levels - lvl;
    if (Dim == 1) begin
      // In-order position p of depth d: p + 1 = (2k + 1) * 2^(lvl-2), heap number 2^d + k.
      node_of_bit = (1 << depth) + ((pos + 1) >> (lvl - 1));
    end else begin
      // The switch sits on the middle boundary (PE 2p+2) of a block of 2^lvl PEs along its ring;
      // the block's place across the ring comes from the ring's own row / column.
      if (ring < Side) begin
        brow = ring >> lvl;
        bcol = (2 * pos + 2) >> lvl;
      end else begin
        brow = (2 * pos + 2) >> lvl;
        bcol = (ring - Side) >> lvl;
      end
      // Quadtree heap: depth d starts at (4^d - 1)/3 + 1; the index interleaves the block row
      // (higher bit of each pair) and column.
      idx = 0;
      for (int j = 0; j < 15; j++) begin
        idx = idx | (((brow >> j) & 1) << (2 * j + 1)) | (((bcol >> j) & 1) << (2 * j));
      end
      node_of_bit = ((1 << (2 * depth)) - 1) / 3 + 1 + idx;
    end
  endfunction

  // Depth of node n (root 0): 1D floor(log2 n); 2D the d with (4^d-1)/3 + 1 <= n.
  function automatic int node_depth(int n);
    int depth;
    depth = 0;
    for (int d = 1; d < 31; d++) begin
      if (Dim == 1 && (n >> d) != 0) depth = d;
      if (Dim == 2 && d < 15 && ((1 << (2 * d)) - 1) / 3 + 1 <= n) depth = d;
    end
    node_depth = depth;
  endfunction

  // One bitmap bit that belongs to node n (the inverse of node_of_bit in 1D).
  function automatic int node_rep_bit(int n);
    int depth;
    int idx;
    int lvl;
    int brow;
    int bcol;
    depth = node_depth(n);
    lvl   = Levels - depth;
    if (Dim == 1) begin
      // Heap number 2^d + k sits at in-order position (2k + 1) * 2^(lvl-2) - 1.
      node_rep_bit = (2 * (n - (1 << depth)) + 1) * (1 << (lvl - 2)) - 1;
    end else begin
      idx  = n - (((1 << (2 * depth)) - 1) / 3 + 1);
      brow = 0;
      bcol = 0;
      for (int j = 0; j < 15; j++) begin
        brow = brow | (((idx >> (2 * j + 1)) & 1) << j);
        bcol = bcol | (((idx >> (2 * j)) & 1) << j);
      end
      // The horizontal switch of the block's first row on its middle column boundary.
      node_rep_bit = (brow << lvl) * RingSwitches + ((bcol << lvl) + (1 << (lvl - 1))) / 2 - 1;
    end
  endfunction

  // The ancestor k steps above node n (0 above the root). Parent: 1D j/2, 2D (j+2)/4.
  function automatic int node_ancestor(int n, int k);
    int a;
    a = n;
    for (int i = 0; i < k; i++) begin
      a = (Dim == 1) ? (a >> 1) : ((a + 2) >> 2);
    end
    node_ancestor = a;
  endfunction

  // First / last descendant k levels below node n: children of j are 2j, 2j+1 (1D) and
  // 4j-2 .. 4j+1 (2D), so each level of a subtree is a contiguous range of heap numbers.
  function automatic int desc_first(int n, int k);
    int a;
    a = n;
    for (int i = 0; i < k; i++) begin
      a = (Dim == 1) ? (2 * a) : (4 * a - 2);
    end
    desc_first = a;
  endfunction

  function automatic int desc_last(int n, int k);
    int a;
    a = n;
    for (int i = 0; i < k; i++) begin
      a = (Dim == 1) ? (2 * a + 1) : (4 * a + 1);
    end
    desc_last = a;
  endfunction
  /* verilator coverage_on */

  ///////////
  // State //
  ///////////

  logic [NumSwitches-1:0] bitmap_d, bitmap_q;
  mode_e                  mode_d, mode_q;
  err_e                   err_d, err_q;

  //////////////////////
  // Legality checker //
  //////////////////////

  // One checker serves SET_MODE (the current bitmap against the requested mode) and WRITE_RAW
  // (the raw bitmap against the current mode).
  logic [NumSwitches-1:0] check_bitmap;
  logic [1:0]             check_mode;
  // The nodes with children are the heap's first NumInner numbers (1D: 2n + 1 <= NumNodes, 2D:
  // 4n + 1 <= NumNodes); a leaf has no closure to check. (At Side = 4 there is none: one bit, 0.)
  localparam int NumInner = (Dim == 1) ? (NumNodes - 1) / 2 : (NumNodes - 1) / 4;
  localparam int InnerW   = (NumInner > 0) ? NumInner : 1;

  logic [NumNodes-1:0]    node_on;        // node n at index n-1: its representative bit
  logic [InnerW-1:0]      closure_bad;    // inner node n at n-1: ON but a child OFF
  logic                   uniform_bad;    // 2D: some bit differs from its class
  logic [Levels-1:0]      srta_hit;       // check_bitmap is the SRTA pattern of level l+1
  logic                   srta_ok, arta_ok, check_legal;

  assign check_bitmap = (cmd_op_i == rta_pkg::CmdWriteRaw) ? cmd_bitmap_i : bitmap_q;
  assign check_mode   = (cmd_op_i == rta_pkg::CmdSetMode) ? cmd_arg_i[1:0] : mode_q;

  for (genvar n = 1; n <= LoopNodes; n++) begin : g_node_check
    localparam int Rep = node_rep_bit(n);
    assign node_on[n-1] = check_bitmap[Rep];
  end

  if (NumInner == 0) begin : g_no_inner
    // Side = 4: one node, no children. (In 1D nothing else reads node_on then.)
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_node_on;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_node_on = ^node_on;
    assign closure_bad    = 1'b0;
  end
  for (genvar n = 1; n <= (TooLarge ? 0 : NumInner); n++) begin : g_closure
    if (Dim == 1) begin : g_children
      assign closure_bad[n-1] = node_on[n-1] & ~(node_on[2*n-1] & node_on[2*n]);
    end else begin : g_children
      assign closure_bad[n-1] = node_on[n-1] & ~(node_on[4*n-3] & node_on[4*n-2] &
                                                 node_on[4*n-1] & node_on[4*n]);
    end
  end

  // 2D: every bit must equal its class's representative. (In 1D a node is a single bit, its own
  // representative: nothing to check.) Per-bit loops run over rings, then positions: Verilator
  // limits one generate loop to about a thousand iterations by default, and 2D bitmaps are
  // larger from Side = 64 on.
  if (Dim == 2) begin : g_uniform
    logic [NumSwitches-1:0] class_on;  // bit b: the state of its class (node)
    for (genvar r = 0; r < NumRings; r++) begin : g_ring_check
      for (genvar p = 0; p < LoopRingBits; p++) begin : g_bit
        localparam int B    = r * RingSwitches + p;
        localparam int Node = node_of_bit(B);
        assign class_on[B] = node_on[Node-1];
      end
    end
    assign uniform_bad = |(check_bitmap ^ class_on);
  end else begin : g_no_uniform
    assign uniform_bad = 1'b0;
  end

  for (genvar l = 1; l <= (TooLarge ? 0 : Levels); l++) begin : g_srta
    localparam logic [NumSwitches-1:0] Pattern = srta_pattern(l);
    assign srta_hit[l-1] = (check_bitmap == Pattern);
  end

  assign srta_ok = |srta_hit;
  assign arta_ok = ~|closure_bad & ~uniform_bad;

  always_comb begin
    check_legal = 1'b0;
    unique case (check_mode)
      rta_pkg::ModeSrta: check_legal = srta_ok;
      rta_pkg::ModeArta: check_legal = arta_ok;
      rta_pkg::ModeRta:  check_legal = 1'b1;
      default:           check_legal = 1'b0;
    endcase
  end

  //////////////////
  // ARTA targets //
  //////////////////

  logic [NumNodes-1:0] node_clear;  // node is the argument or one of its ancestors
  logic [NumNodes-1:0] node_set;    // node is the argument or one of its descendants

  // Node n is cleared when the argument lies in its subtree: the descendants k levels below n
  // are the contiguous heap range [DescLo, DescHi]. Node n is set when the argument is n or one
  // of its ancestors. Both compare cmd_arg_i with constants only.
  for (genvar n = 1; n <= LoopNodes; n++) begin : g_node_edit
    localparam int Depth = node_depth(n);
    logic [AncSteps-Depth-1:0] clear_hit;
    logic [Depth:0]            set_hit;
    for (genvar k = 0; k < AncSteps - Depth; k++) begin : g_below
      localparam logic [ArgW-1:0] DescLo = ArgW'(desc_first(n, k));
      localparam logic [ArgW-1:0] DescHi = ArgW'(desc_last(n, k));
      assign clear_hit[k] = (cmd_arg_i >= DescLo) && (cmd_arg_i <= DescHi);
    end
    for (genvar k = 0; k <= Depth; k++) begin : g_above
      localparam logic [ArgW-1:0] Ancestor = ArgW'(node_ancestor(n, k));
      assign set_hit[k] = (cmd_arg_i == Ancestor);
    end
    assign node_clear[n-1] = |clear_hit;
    assign node_set[n-1]   = |set_hit;
  end

  /////////////////////
  // Command decoder //
  /////////////////////

  // The decoder settles mode, error and which pattern the bitmap takes; the datapath below
  // builds the bitmap bit by bit.
  typedef enum logic [2:0] {
    BitmapKeep    = 3'd0,
    BitmapLevel   = 3'd1,
    BitmapArtaOff = 3'd2,
    BitmapArtaOn  = 3'd3,
    BitmapRaw     = 3'd4
  } bitmap_sel_e;

  bitmap_sel_e bitmap_sel;
  logic        arg_is_level, arg_is_node, arg_is_mode;
  logic [1:0]  arg_mode;

  assign arg_is_level = (cmd_arg_i != '0) && (cmd_arg_i <= ArgLevels);
  assign arg_is_node  = (cmd_arg_i != '0) && (cmd_arg_i <= ArgNodes);
  assign arg_is_mode  = (cmd_arg_i <= ArgMaxMode);
  assign arg_mode     = cmd_arg_i[1:0];

  always_comb begin
    bitmap_sel = BitmapKeep;
    mode_d     = mode_q;
    err_d      = err_q;
    if (cmd_valid_i) begin
      err_d = rta_pkg::ErrOk;
      unique case (cmd_op_i)
        rta_pkg::CmdNop: begin
          err_d = rta_pkg::ErrOk;
        end
        rta_pkg::CmdSetMode: begin
          if (!arg_is_mode) begin
            err_d = rta_pkg::ErrBadMode;
          end else if (!check_legal) begin
            err_d = rta_pkg::ErrIllegal;
          end else begin
            unique case (arg_mode)
              2'd0:    mode_d = rta_pkg::ModeSrta;
              2'd1:    mode_d = rta_pkg::ModeArta;
              default: mode_d = rta_pkg::ModeRta;
            endcase
          end
        end
        rta_pkg::CmdSetLevel: begin
          if (!arg_is_level) begin
            err_d = rta_pkg::ErrBadLevel;
          end else begin
            bitmap_sel = BitmapLevel;
          end
        end
        rta_pkg::CmdArtaOff, rta_pkg::CmdArtaOn: begin
          if (mode_q == rta_pkg::ModeSrta) begin
            err_d = rta_pkg::ErrWrongMode;
          end else if (!arg_is_node) begin
            err_d = rta_pkg::ErrBadNode;
          end else if (cmd_op_i == rta_pkg::CmdArtaOff) begin
            bitmap_sel = BitmapArtaOff;
          end else begin
            bitmap_sel = BitmapArtaOn;
          end
        end
        rta_pkg::CmdWriteRaw: begin
          if (!check_legal) begin
            err_d = rta_pkg::ErrIllegal;
          end else begin
            bitmap_sel = BitmapRaw;
          end
        end
        default: begin
          err_d = rta_pkg::ErrBadOpcode;
        end
      endcase
    end
  end

  /////////////////////
  // Bitmap datapath //
  /////////////////////

  // Per switch: SET_LEVEL loads (arg >= the switch's level), ARTA_OFF clears it when its node is
  // cleared, ARTA_ON sets it when its node is set, WRITE_RAW loads the raw bit.
  for (genvar r = 0; r < NumRings; r++) begin : g_ring_next
    for (genvar p = 0; p < LoopRingBits; p++) begin : g_bit
      localparam int              B     = r * RingSwitches + p;
      localparam int              Node  = node_of_bit(B);
      localparam logic [ArgW-1:0] Level = ArgW'(bit_level(B));
      assign bitmap_d[B] =
          (bitmap_sel == BitmapLevel)   ? (cmd_arg_i >= Level) :
          (bitmap_sel == BitmapArtaOff) ? (bitmap_q[B] & ~node_clear[Node-1]) :
          (bitmap_sel == BitmapArtaOn)  ? (bitmap_q[B] | node_set[Node-1]) :
          (bitmap_sel == BitmapRaw)     ? cmd_bitmap_i[B] :
                                          bitmap_q[B];
    end
  end

  ///////////////
  // Registers //
  ///////////////

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bitmap_q <= '1;
      mode_q   <= rta_pkg::ModeSrta;
      err_q    <= rta_pkg::ErrOk;
    end else begin
      bitmap_q <= bitmap_d;
      mode_q   <= mode_d;
      err_q    <= err_d;
    end
  end

  assign bitmap_o = bitmap_q;
  assign mode_o   = mode_q;
  assign err_o    = err_q;

  ////////////////
  // Parameters //
  ////////////////

  // Every node number fits the 16-bit argument up to 1D Side 65536 and 2D Side 512; the checks
  // accept less: what the runs and proofs cover.
  // The parameter ranges a registered run or proof covers at both ends (docs/verification.md,
  // "Parameter ranges": widening one means adding its run). Icarus 11 has no elaboration-time
  // $error: there the checks run at time 0.
  if (Dim < 1 || Dim > 2) begin : g_bad_dim
`ifdef __ICARUS__
    initial $fatal(1,
`else
    $error(
`endif
      "rta_bitmap_ctrl: Dim outside its verified range: [1, 2]");
  end
  if (Dim == 1 && (Side < 4 || Side > 4096 || (Side & (Side - 1)) != 0)) begin : g_bad_side_1d
`ifdef __ICARUS__
    initial $fatal(1,
`else
    $error(
`endif
      "rta_bitmap_ctrl: Side (Dim 1) outside its verified range: a power of two in [4, 4096]");
  end
  if (Dim == 2 && (Side < 4 || Side > 128 || (Side & (Side - 1)) != 0)) begin : g_bad_side_2d
`ifdef __ICARUS__
    initial $fatal(1,
`else
    $error(
`endif
      "rta_bitmap_ctrl: Side (Dim 2) outside its verified range: a power of two in [4, 128]");
  end

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/rta_bitmap_ctrl_assert.sv (command protocol, mode and error codes):
  // bound to this module in the builds by Verilator (rtl/assert/rta_bitmap_ctrl_bind.sv); yosys
  // ignores bind, so the formal flow instantiates it here.
`ifdef FORMAL
  rta_bitmap_ctrl_assert #(
    .NumSwitches(NumSwitches)
  ) u_assert (.*);
`endif

endmodule
