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

`include "pinet_param.svh"

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
  localparam logic [ArgW-1:0] ArgLevels  = ArgW'(Levels);
  localparam logic [ArgW-1:0] ArgNodes   = ArgW'(NumNodes);
  localparam logic [ArgW-1:0] ArgMaxMode = ArgW'(2);

  //////////////
  // Geometry //
  //////////////

  // Bit b = r*M + p is position p of ring r (1D: r = 0; 2D: rows 0 .. Side-1, then columns).
  // The geometry is in small constant tables, one entry per ring position or per node, never per
  // bitmap bit: the switching level of each ring position, and each node's block. The logic works
  // on whole vectors (ring ranges, position ranges replicated over the rings), so the generated
  // code does not grow with Side. (Per-bit generate blocks, then per-ring ones, made Verilator
  // write the NumSwitches-bit vectors bit by bit: at 2D Side 128, 16128 bits, 60-110 MB of C++
  // and up to 6.4 GB of memory for one controller, issue 38; a table entry per bitmap bit took
  // minutes to evaluate at elaboration.)
  // (Icarus 11 refuses a constant function that calls another one inside a loop, and yosys 0.23
  // has no `return`: each function below is self-contained and assigns its name.)
  localparam int BitW     = (NumSwitches > 1) ? $clog2(NumSwitches) : 1;  // bitmap bit numbers
  localparam int LevelW   = $clog2(Levels + 1);
  localparam int CoordW   = (Levels > 2) ? Levels - 2 : 1;  // block row / column: 0 .. 2^(L-2)-1
  localparam int GeomW    = LevelW + 2 * CoordW;
  localparam int NumRings = (Dim == 1) ? 1 : 2 * Side;
  // Above the verified range the tables stay empty, so that elaboration stops at once on the
  // range error instead of computing them.
  localparam bit TooLarge = (Dim == 1 && Side > 4096) || (Dim == 2 && Side > 128);

  /* verilator coverage_off */ // constant functions: called for localparams at elaboration only

  // The switching level (2 .. L) of each ring position p, tz(p+1) + 2, at [p*LevelW +: LevelW].
  function automatic logic [RingSwitches*LevelW-1:0] pos_levels();
    int q;
    int lvl;
    for (int p = 0; p < RingSwitches; p++) begin
      q   = p + 1;
      lvl = 2;
      for (int i = 0; i < 31; i++) begin
        if (q % 2 == 0) begin
          lvl = lvl + 1;
          q   = q / 2;
        end
      end
      pos_levels[p*LevelW +: LevelW] = LevelW'(lvl);
    end
  endfunction
  localparam logic [RingSwitches*LevelW-1:0] PosLevels = pos_levels();

  // Each node's block, node n at [(n-1)*GeomW +: GeomW] = {lvl, brow, bcol}: its switching
  // level and its place. 1D: the in-order tree's node 2^d + k (depth d = L - lvl) is the switch
  // at position p + 1 = (2k + 1) * 2^(lvl-2): brow = 0, bcol = k. 2D: the class of the block of
  // 2^lvl x 2^lvl PEs at block row brow, column bcol; the heap index within its depth interleaves
  // brow (the higher bit of each pair) and bcol. Either way the node's switch on a ring of its
  // block sits at position ((2 * coordinate + 1) << (lvl - 2)) - 1, the block's middle boundary.
  function automatic logic [NumNodes*GeomW-1:0] node_geom();
    int depth;
    int idx;
    int brow;
    int bcol;
    for (int n = 1; n <= (TooLarge ? 0 : NumNodes); n++) begin
      depth = 0;
      for (int d = 1; d < 16; d++) begin
        if (Dim == 1 && n >= (1 << d)) depth = d;
        if (Dim == 2 && n >= ((1 << (2 * d)) - 1) / 3 + 1) depth = d;
      end
      if (Dim == 1) begin
        brow = 0;
        bcol = n - (1 << depth);
      end else begin
        // Quadtree heap: depth d starts at (4^d - 1)/3 + 1.
        idx  = n - ((1 << (2 * depth)) - 1) / 3 - 1;
        brow = 0;
        bcol = 0;
        for (int j = 0; j < 15; j++) begin
          brow = brow | (((idx >> (2 * j + 1)) & 1) << j);
          bcol = bcol | (((idx >> (2 * j)) & 1) << j);
        end
      end
      node_geom[(n-1)*GeomW +: GeomW] = {LevelW'(Levels - depth), CoordW'(brow), CoordW'(bcol)};
    end
  endfunction
  localparam logic [NumNodes*GeomW-1:0] NodeGeom = node_geom();

  // The bitmap bit of each node's representative, node n at [(n-1)*BitW +: BitW]: its switch on
  // the first row ring of its block (1D: the node's switch) or, with on_column, on the first
  // column ring (2D). Every class has exactly one of each.
  function automatic logic [NumNodes*BitW-1:0] rep_bits(bit on_column);
    int lvl;
    int brow;
    int bcol;
    for (int n = 0; n < (TooLarge ? 0 : NumNodes); n++) begin
      lvl  = 32'(NodeGeom[n*GeomW + 2*CoordW +: LevelW]);
      brow = 32'(NodeGeom[n*GeomW + CoordW +: CoordW]);
      bcol = 32'(NodeGeom[n*GeomW +: CoordW]);
      if (on_column) begin
        rep_bits[n*BitW +: BitW] =
            BitW'((Side + (bcol << lvl)) * RingSwitches + ((2 * brow + 1) << (lvl - 2)) - 1);
      end else begin
        rep_bits[n*BitW +: BitW] =
            BitW'((brow << lvl) * RingSwitches + ((2 * bcol + 1) << (lvl - 2)) - 1);
      end
    end
  endfunction
  localparam logic [NumNodes*BitW-1:0] RowReps = rep_bits(1'b0);
  localparam logic [NumNodes*BitW-1:0] ColReps = (Dim == 2) ? rep_bits(1'b1) : '0;

  // 2D: ring i of a group (rows or columns) and ring i + 1 lie in the same block of 2^lvl rings
  // unless 2^lvl divides i + 1: at the positions of such a level a class's switches on the two
  // rings must agree. (The last ring of a group, i + 1 = Side, has none.)
  function automatic logic [NumSwitches-1:0] pair_mask();
    int next;
    pair_mask = '0;
    for (int r = 0; r < ((Dim == 2 && !TooLarge) ? NumRings : 0); r++) begin
      next = r % Side + 1;
      for (int p = 0; p < RingSwitches; p++) begin
        pair_mask[r*RingSwitches + p] =
            ((next & ((1 << 32'(PosLevels[p*LevelW +: LevelW])) - 1)) != 0);
      end
    end
  endfunction
  localparam logic [NumSwitches-1:0] PairMask = pair_mask();
  /* verilator coverage_on */

  // A ring's SRTA pattern of level arg: the positions of level <= arg ON (the same on every
  // ring). SET_LEVEL loads it; SRTA legality compares with it.
  function automatic logic [RingSwitches-1:0] level_pattern(logic [ArgW-1:0] arg);
    for (int p = 0; p < RingSwitches; p++) begin
      level_pattern[p] = (arg >= ArgW'(PosLevels[p*LevelW +: LevelW]));
    end
  endfunction

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

  // The vectors below are functions of whole vectors. (As functions, not always_comb blocks that
  // build a vector bit by bit: Icarus 11 wakes such a block again on its own partial writes.)

  // Per node, the bit of `bits` that a table (RowReps, ColReps) names (node n at n-1). (A loop
  // over NumNodes entries; at the large sizes it stays a loop in the generated code.)
  function automatic logic [NumNodes-1:0] gather(logic [NumSwitches-1:0] bits,
                                                 logic [NumNodes*BitW-1:0] reps);
    for (int n = 0; n < NumNodes; n++) begin
      gather[n] = bits[reps[n*BitW +: BitW]];
    end
  endfunction

  // The inner nodes that are ON with a child OFF.
  function automatic logic [InnerW-1:0] closure_of(logic [NumNodes-1:0] on);
    closure_of = '0;
    for (int n = 1; n <= NumInner; n++) begin
      if (Dim == 1) closure_of[n-1] = on[n-1] & ~(on[2*n-1] & on[2*n]);
      else closure_of[n-1] = on[n-1] & ~(on[4*n-3] & on[4*n-2] & on[4*n-1] & on[4*n]);
    end
  endfunction


  // SRTA: the pattern of level l is the same on every ring (its switches of level <= l ON).
  for (genvar l = 1; l <= Levels; l++) begin : g_srta
    localparam logic [RingSwitches-1:0] RingPattern = level_pattern(ArgW'(l));
    assign srta_hit[l-1] = (check_bitmap == {NumRings{RingPattern}});
  end
  assign srta_ok = |srta_hit;

  if (NumInner == 0) begin : g_no_inner
    // Side = 4: one node, no children (in 1D its state is read nowhere else).
    assign closure_bad = 1'b0;
    /* verilator lint_off UNUSEDSIGNAL */
    logic unused_node_on;
    /* verilator lint_on UNUSEDSIGNAL */
    assign unused_node_on = ^node_on;
  end else begin : g_closure
    assign closure_bad = closure_of(node_on);
  end

  //////////////////
  // ARTA targets //
  //////////////////

  // Cleared: the classes of the argument and its ancestors (parent: 1D j/2, 2D (j+2)/4), at
  // most L-1 nodes. Set: the argument's subtree, which is every switch inside its block (the
  // quadtree's / in-order tree's descendants tile it). An argument outside 1 .. NumNodes is
  // refused before either is used.
  // (Replications, not '1: yosys 0.23 reads a localparam '1 as a single 1.)
  localparam logic [NumSwitches-1:0]  AllOnes  = {NumSwitches{1'b1}};
  localparam logic [RingSwitches-1:0] RingOnes = {RingSwitches{1'b1}};

  // The switches of node n (1 .. NumNodes; else none) on the rings of its block: its class's
  // position (whole = 0) or every position inside the block (whole = 1, positions centre +-
  // 2^(lvl-2) - 1), on the block's row rings and, 2D, its column rings.
  function automatic logic [NumSwitches-1:0] block_bits(int n, bit whole);
    int lvl;
    int brow;
    int bcol;
    int half;
    int rings;
    logic [RingSwitches-1:0] span, row_pos, col_pos;
    block_bits = '0;
    if (n >= 1 && n <= NumNodes) begin
      lvl     = 32'(NodeGeom[(n-1)*GeomW + 2*CoordW +: LevelW]);
      brow    = 32'(NodeGeom[(n-1)*GeomW + CoordW +: CoordW]);
      bcol    = 32'(NodeGeom[(n-1)*GeomW +: CoordW]);
      half    = whole ? (1 << (lvl - 2)) - 1 : 0;
      rings   = (Dim == 1) ? 1 : 1 << lvl;
      span    = RingOnes >> (RingSwitches - 2 * half - 1);  // 2 * half + 1 positions
      row_pos = span << (((2 * bcol + 1) << (lvl - 2)) - 1 - half);
      col_pos = span << (((2 * brow + 1) << (lvl - 2)) - 1 - half);
      block_bits = {NumRings{row_pos}} & (AllOnes << ((brow << lvl) * RingSwitches)) &
                   ~(AllOnes << (((brow << lvl) + rings) * RingSwitches));
      if (Dim == 2) begin
        block_bits = block_bits | ({NumRings{col_pos}} &
                     (AllOnes << ((Side + (bcol << lvl)) * RingSwitches)) &
                     ~(AllOnes << ((Side + (bcol << lvl) + rings) * RingSwitches)));
      end
    end
  endfunction

  function automatic logic [NumSwitches-1:0] ancestors(logic [ArgW-1:0] arg);
    int a;
    ancestors = '0;
    a = 32'(arg);
    for (int k = 0; k < AncSteps; k++) begin
      ancestors = ancestors | block_bits(a, 1'b0);
      a = (Dim == 1) ? (a >> 1) : ((a + 2) >> 2);
    end
  endfunction

  logic [NumSwitches-1:0] clear_bits, set_bits, level_bits;

  assign node_on    = gather(check_bitmap, RowReps);
  assign clear_bits = ancestors(cmd_arg_i);
  assign set_bits   = block_bits(32'(cmd_arg_i), 1'b1);
  assign level_bits = {NumRings{level_pattern(cmd_arg_i)}};

  // 2D: every bit must equal its class's representative: a class's switches agree from ring to
  // ring of its block (rows and columns apart), and its first row and first column switch agree.
  // (In 1D a node is a single bit: nothing to check.)
  if (Dim == 2) begin : g_uniform
    assign uniform_bad = |((check_bitmap ^ (check_bitmap >> RingSwitches)) & PairMask) |
                         |(node_on ^ gather(check_bitmap, ColReps));
  end else begin : g_no_uniform
    assign uniform_bad = 1'b0;
  end

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

  // SET_LEVEL loads the level's SRTA pattern, ARTA_OFF clears the switches of the cleared
  // nodes, ARTA_ON sets those of the set nodes, WRITE_RAW loads the raw bitmap.
  assign bitmap_d =
      (bitmap_sel == BitmapLevel)   ? level_bits :
      (bitmap_sel == BitmapArtaOff) ? bitmap_q & ~clear_bits :
      (bitmap_sel == BitmapArtaOn)  ? bitmap_q | set_bits :
      (bitmap_sel == BitmapRaw)     ? cmd_bitmap_i :
                                      bitmap_q;

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
    `PINET_PARAM_RANGE_ERROR("rta_bitmap_ctrl: Dim outside its verified range: [1, 2]")
  end
  if (Dim == 1 && (Side < 4 || Side > 4096 || (Side & (Side - 1)) != 0)) begin : g_bad_side_1d
    `PINET_PARAM_RANGE_ERROR(
      "rta_bitmap_ctrl: Side (Dim 1) outside its verified range: a power of two in [4, 4096]")
  end
  if (Dim == 2 && (Side < 4 || Side > 128 || (Side & (Side - 1)) != 0)) begin : g_bad_side_2d
    `PINET_PARAM_RANGE_ERROR(
      "rta_bitmap_ctrl: Side (Dim 2) outside its verified range: a power of two in [4, 128]")
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
