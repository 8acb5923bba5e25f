// Copyright pinet contributors.
//
// rta_bitmap_ctrl_spec: what the RTA bitmap controller must do, for formal/rta_bitmap_ctrl.sv.
// Written from docs/rta.md ("Wiring", "Cycle contract", the command table), SPEC 1.1-1.3 and the
// conventions of cmodel/include/pinet/rta.h, not from rtl/rta_bitmap_ctrl.sv: where the RTL
// numbers tree nodes and compares heap ranges, this file speaks of blocks of PEs.
//
// Geometry. A ring of Side = 2^L PEs has M = Side/2 - 1 switches; switch position p sits on the
// boundary x = 2p + 2 (between PE x-1 and PE x) and has level l = tz(p+1) + 2. Its block is the
// run of 2^l PEs whose middle boundary it is, number x >> l along the ring. In 2D (bits: rows
// first, b = r*M + p, then columns, b = Side*M + c*M + p) the block is the 2^l x 2^l square of PEs
// whose middle column (row switch) or middle row (column switch) boundary the switch lies on:
// block row r >> l and column x >> l for row r, block row x >> l and column c >> l for column c.
// A block is written (level, block row, block column); in 1D the block row is 0.
//   - ARTA node n (1D switch address, 2D switching class) is the block of heap number n: depth
//     d, level L - d; 1D n = 2^d + k -> block k; 2D n = (4^d - 1)/3 + 1 + idx, idx's base-4
//     digits (most significant first) choosing top-left, top-right, bottom-left, bottom-right,
//     i.e. its odd bits are the block row and its even bits the block column.
//   - Switch b is switch a's descendant (or in a's class) when b's block lies inside a's block.
//   - Legal: SRTA = the pattern of some level 1 .. L (exactly the switches of level <= l ON);
//     ARTA = every ON switch's block holds only ON switches (the ON set is closed under
//     descendants, and in 2D every class is uniform); RTA = any bitmap.
//
// Command (taken when cmd_valid_i; docs/rta.md's table, checks in the order listed there):
//   NOP -> OK. SET_MODE m: m > 2 -> BAD_MODE; bitmap not legal in m -> ILLEGAL; else mode m.
//   SET_LEVEL l: l outside 1 .. L -> BAD_LEVEL; else the level-l pattern (every mode).
//   ARTA_OFF / ARTA_ON n: SRTA mode -> WRONG_MODE; n outside 1 .. nodes -> BAD_NODE; else OFF
//     turns every switch whose block contains node n's block OFF (n and its ancestors), ON turns
//     every switch whose block lies inside n's block ON (n and its descendants).
//   WRITE_RAW: cmd_bitmap_i not legal in the mode -> ILLEGAL; else cmd_bitmap_i.
//   opcodes 6, 7 -> BAD_OPCODE. A refused command keeps bitmap and mode; with cmd_valid_i = 0
//   nothing changes (the error included).
//
// Combinational: from the state (mode_i, bitmap_i, err_i) and the command, legal_o says whether
// the state is legal and next_*_o is the state after the clock edge.

module rta_bitmap_ctrl_spec #(
  parameter int  Dim         = 1,
  parameter int  Side        = 8,
  localparam int M           = Side / 2 - 1,
  localparam int NumSwitches = (Dim == 1) ? M : Side * (Side - 2),
  localparam int L           = $clog2(Side),
  localparam int NumNodes    = (Dim == 1) ? M : ((1 << (2 * (L - 1))) - 1) / 3,
  localparam int ArgW        = rta_pkg::RtaArgWidth
) (
  input  logic [1:0]             mode_i,
  input  logic [NumSwitches-1:0] bitmap_i,
  input  logic [2:0]             err_i,
  input  logic                   cmd_valid_i,
  input  logic [2:0]             cmd_op_i,
  input  logic [ArgW-1:0]        cmd_arg_i,
  input  logic [NumSwitches-1:0] cmd_bitmap_i,
  output logic                   legal_o,
  output logic [NumSwitches-1:0] next_bitmap_o,
  output logic [1:0]             next_mode_o,
  output logic [2:0]             next_err_o
);

  //////////////////////////////////////
  // Blocks (constant functions only) //
  //////////////////////////////////////

  // A block is packed into one int: level << 20 | block row << 10 | block column (Side <= 512).

  // The block of bitmap bit b.
  function automatic int bit_block(int b);
    int ring;
    int p;
    int x;
    int lvl;
    int t;
    ring = b / M;
    p    = b % M;
    x    = 2 * p + 2;
    // lvl = tz(p + 1) + 2: the trailing zeros of p + 1 counted one by one.
    t    = 0;
    for (int i = 0; i < L; i++) begin
      if (t == i && ((p + 1) >> i) % 2 == 0) t = i + 1;
    end
    lvl = t + 2;
    if (Dim == 1) begin
      bit_block = (lvl << 20) | (x >> lvl);
    end else if (ring < Side) begin
      bit_block = (lvl << 20) | ((ring >> lvl) << 10) | (x >> lvl);
    end else begin
      bit_block = (lvl << 20) | ((x >> lvl) << 10) | ((ring - Side) >> lvl);
    end
  endfunction

  // The block of ARTA node n (heap number, root 1).
  function automatic int node_block(int n);
    int d;
    int idx;
    int brow;
    int bcol;
    d = 0;
    if (Dim == 1) begin
      for (int i = 1; i < L; i++) begin
        if ((n >> i) != 0) d = i;
      end
      node_block = ((L - d) << 20) | (n - (1 << d));
    end else begin
      for (int i = 1; i < L; i++) begin
        if (((1 << (2 * i)) - 1) / 3 + 1 <= n) d = i;
      end
      idx  = n - (((1 << (2 * d)) - 1) / 3 + 1);
      brow = 0;
      bcol = 0;
      for (int j = 0; j < L; j++) begin
        brow = brow | (((idx >> (2 * j + 1)) % 2) << j);
        bcol = bcol | (((idx >> (2 * j)) % 2) << j);
      end
      node_block = ((L - d) << 20) | (brow << 10) | bcol;
    end
  endfunction

  // Whether block inner lies inside block outer (equal blocks included).
  function automatic logic block_inside(int inner, int outer);
    int li;
    int lo;
    li = inner >> 20;
    lo = outer >> 20;
    block_inside = (li <= lo) &&
                   ((((inner >> 10) % 1024) >> (lo - li)) == ((outer >> 10) % 1024)) &&
                   (((inner % 1024) >> (lo - li)) == (outer % 1024));
  endfunction

  // The bits inside bit a's block (a, its class and its descendants): the switches that lie
  // in the block's square of PEs (1D: its run of PEs) with their boundary strictly inside it.
  // (A boundary strictly inside a 2^l-aligned run is the middle of a smaller or equal aligned
  // run, so this is "b's block lies inside a's block" without computing b's level.)
  function automatic logic [NumSwitches-1:0] inside_mask(int a);
    int ra;
    int pa;
    int t;
    int size;
    int r0;
    int c0;
    int ring;
    int x;
    int across;
    ra = a / M;
    pa = a % M;
    t  = 0;
    for (int i = 0; i < L; i++) begin
      if (t == i && ((pa + 1) >> i) % 2 == 0) t = i + 1;
    end
    size = 1 << (t + 2);
    // Block origin: r0 across the ring (rows for a row switch), c0 along it.
    if (Dim == 1) begin
      r0 = 0;
      c0 = ((2 * pa + 2) / size) * size;
    end else if (ra < Side) begin
      r0 = (ra / size) * size;
      c0 = ((2 * pa + 2) / size) * size;
    end else begin
      r0 = ((2 * pa + 2) / size) * size;
      c0 = ((ra - Side) / size) * size;
    end
    inside_mask = '0;
    for (int b = 0; b < NumSwitches; b++) begin
      ring = b / M;
      x    = 2 * (b % M) + 2;
      if (Dim == 1) begin
        inside_mask[b] = (x > c0) && (x < c0 + size);
      end else if (ring < Side) begin
        // row switch: its row inside [r0, r0+size), its column boundary strictly inside
        inside_mask[b] = (ring >= r0) && (ring < r0 + size) && (x > c0) && (x < c0 + size);
      end else begin
        across = ring - Side;
        inside_mask[b] = (across >= c0) && (across < c0 + size) && (x > r0) && (x < r0 + size);
      end
    end
  endfunction

  // Over the nodes n = 1 .. NumNodes (bit n-1): whether node n's block lies inside block blk
  // (outer = 0) or holds it (outer = 1).
  function automatic logic [NumNodes-1:0] node_mask(int blk, logic outer);
    int nb;
    for (int n = 1; n <= NumNodes; n++) begin
      nb = node_block(n);
      node_mask[n-1] = outer ? block_inside(blk, nb) : block_inside(nb, blk);
    end
  endfunction

  // The SRTA pattern of level l: the bits of level <= l.
  function automatic logic [NumSwitches-1:0] level_pattern(int l);
    level_pattern = '0;
    for (int b = 0; b < NumSwitches; b++) begin
      if ((bit_block(b) >> 20) <= l) level_pattern[b] = 1'b1;
    end
  endfunction

  //////////////
  // Legality //
  //////////////

  // inside[a*NumSwitches +: NumSwitches]: the bits inside bit a's block (constants, computed
  // once for the three checks below).
  logic [NumSwitches*NumSwitches-1:0] inside;

  for (genvar a = 0; a < NumSwitches; a++) begin : g_inside
    localparam logic [NumSwitches-1:0] Inside = inside_mask(a);
    assign inside[a*NumSwitches +: NumSwitches] = Inside;
  end

  // patterns[(l-1)*NumSwitches +: NumSwitches]: the SRTA pattern of level l (constants).
  logic [L*NumSwitches-1:0] patterns;

  for (genvar l = 1; l <= L; l++) begin : g_pattern
    localparam logic [NumSwitches-1:0] Pattern = level_pattern(l);
    assign patterns[(l-1)*NumSwitches +: NumSwitches] = Pattern;
  end

  // Three checks: 0 the state in its mode, 1 the state in SET_MODE's mode, 2 WRITE_RAW's bitmap
  // in the current mode.
  logic [2:0] chk_legal;

  for (genvar v = 0; v < 3; v++) begin : g_check
    logic [NumSwitches-1:0] vec;
    logic [1:0]             mode;
    logic [L-1:0]           srta_hit;   // [l-1]: vec is the level-l pattern
    logic [NumSwitches-1:0] arta_bad;   // [a]: a is ON and some switch inside its block OFF
    assign vec  = (v == 2) ? cmd_bitmap_i : bitmap_i;
    assign mode = (v == 1) ? cmd_arg_i[1:0] : mode_i;
    for (genvar l = 1; l <= L; l++) begin : g_level
      assign srta_hit[l-1] = (vec == patterns[(l-1)*NumSwitches +: NumSwitches]);
    end
    for (genvar a = 0; a < NumSwitches; a++) begin : g_bit
      assign arta_bad[a] = vec[a] && ((vec & inside[a*NumSwitches +: NumSwitches]) !=
                                      inside[a*NumSwitches +: NumSwitches]);
    end
    assign chk_legal[v] = (mode == 2'd0) ? |srta_hit :
                          (mode == 2'd1) ? ~|arta_bad :
                          (mode == 2'd2);
  end

  assign legal_o = chk_legal[0];

  ////////////////
  // ARTA edits //
  ////////////////

  // node_hit[n-1]: the argument is node n (an argument outside 1 .. NumNodes hits none).
  logic [NumNodes-1:0]    node_hit;
  logic [NumSwitches-1:0] off_bits;   // switches whose block contains the node's block
  logic [NumSwitches-1:0] on_bits;    // switches whose block lies inside the node's block

  for (genvar n = 1; n <= NumNodes; n++) begin : g_node
    assign node_hit[n-1] = (cmd_arg_i == ArgW'(n));
  end

  logic [NumSwitches-1:0] level_bits;  // SET_LEVEL: switches of level <= the argument

  for (genvar b = 0; b < NumSwitches; b++) begin : g_edit
    localparam int Blk   = bit_block(b);
    localparam int Level = Blk >> 20;
    // Nodes inside b's block (below) and nodes whose block holds b's (above), as constants.
    localparam logic [NumNodes-1:0] Below = node_mask(Blk, 1'b0);
    localparam logic [NumNodes-1:0] Above = node_mask(Blk, 1'b1);
    logic [NumNodes-1:0] below, above;
    assign below = Below;
    assign above = Above;
    assign off_bits[b] = |(node_hit & below);
    assign on_bits[b]  = |(node_hit & above);
    assign level_bits[b] = (cmd_arg_i >= ArgW'(Level));
  end

  /////////////
  // Command //
  /////////////

  localparam logic [2:0] Ok = 3'd0, BadOpcode = 3'd1, BadLevel = 3'd2, BadNode = 3'd3,
                         WrongMode = 3'd4, Illegal = 3'd5, BadMode = 3'd6;

  always_comb begin
    next_bitmap_o = bitmap_i;
    next_mode_o   = mode_i;
    next_err_o    = err_i;
    if (cmd_valid_i) begin
      next_err_o = Ok;
      case (cmd_op_i)
        3'd0: ;  // NOP
        3'd1: begin  // SET_MODE
          if (cmd_arg_i > ArgW'(2)) next_err_o = BadMode;
          else if (!chk_legal[1])   next_err_o = Illegal;
          else                      next_mode_o = cmd_arg_i[1:0];
        end
        3'd2: begin  // SET_LEVEL
          if (cmd_arg_i < ArgW'(1) || cmd_arg_i > ArgW'(L)) begin
            next_err_o = BadLevel;
          end else begin
            next_bitmap_o = level_bits;
          end
        end
        3'd3, 3'd4: begin  // ARTA_OFF, ARTA_ON
          if (mode_i == 2'd0)                                            next_err_o = WrongMode;
          else if (cmd_arg_i < ArgW'(1) || cmd_arg_i > ArgW'(NumNodes)) next_err_o = BadNode;
          else if (cmd_op_i == 3'd3) next_bitmap_o = bitmap_i & ~off_bits;
          else                       next_bitmap_o = bitmap_i | on_bits;
        end
        3'd5: begin  // WRITE_RAW
          if (!chk_legal[2]) next_err_o = Illegal;
          else               next_bitmap_o = cmd_bitmap_i;
        end
        default: next_err_o = BadOpcode;
      endcase
    end
  end

endmodule
