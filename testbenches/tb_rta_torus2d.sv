// Copyright pinet contributors.
//
// tb_rta_torus2d: self-checking testbench of rta_torus2d for Side = 4, 8 and 16 (one instance
// each, in g_cfg[0..2], run one after the other).
//
// PE (r, c) is word r*Side + c; horizontal bitmap bits r*M + p, vertical Side*M + c*M + p
// (M = Side/2 - 1, p counted from the left / top). Checks, for every PE port:
//   - each 2D-SRTA level l = 1 .. L (every switch of level tz(p+1) + 2 <= l ON): PE (r, c)'s R
//     port is joined to the L port of (r, q + (c + 1) mod 2^l) and its D port to the U port of
//     (q' + (r + 1) mod 2^l, c) (the paper's neighbor(A, l) along the row and the column);
//   - random bitmaps: along every row and column, the OFF switches cut the ring at boundaries
//     2p+2 and each segment of consecutive PEs is a ring (last PE's R / D joined to the first
//     PE's L / U).
// Words are random with a unique tag (4*pe + port) in the low bits. PRNG: xorshift64, seed from
// +seed=<n> (default 1). Ends with "PASS tb_rta_torus2d", or $error + $fatal on the first
// mismatch.

module tb_rta_torus2d;

  localparam int Width         = 32;
  localparam int NumCfg        = 3;
  localparam int RandomBitmaps = 20;

  function automatic int cfg_side(int g);
    case (g)
      0:       cfg_side = 4;
      1:       cfg_side = 8;
      default: cfg_side = 16;
    endcase
  endfunction

  //////////
  // PRNG //
  //////////

  logic [63:0] rng_state;
  int unsigned seed;
  int unsigned checks;

  function automatic logic [31:0] rand32();
    rng_state = rng_state ^ (rng_state << 13);
    rng_state = rng_state ^ (rng_state >> 7);
    rng_state = rng_state ^ (rng_state << 17);
    rand32    = rng_state[31:0];
  endfunction

  /////////////////////////////////
  // One torus per configuration //
  /////////////////////////////////

  for (genvar g = 0; g < NumCfg; g++) begin : g_cfg
    localparam int Side = cfg_side(g);
    localparam int M    = Side / 2 - 1;
    localparam int L    = $clog2(Side);
    localparam int Pes  = Side * Side;
    localparam int Sw   = Side * (Side - 2);

    logic [Sw-1:0]        bitmap;
    logic [Pes*Width-1:0] l_in, r_in, u_in, d_in;
    logic [Pes*Width-1:0] l_out, r_out, u_out, d_out;
    // Snapshot of the outputs taken once per drive (checks read these: Verilator then builds the
    // flat output vectors from the instances once, not at every check).
    logic [Pes*Width-1:0] l_got, r_got, u_got, d_got;

    rta_torus2d #(
      .Side (Side),
      .Width(Width)
    ) u_dut (
      .bitmap_i(bitmap),
      .l_i     (l_in),
      .r_i     (r_in),
      .u_i     (u_in),
      .d_i     (d_in),
      .l_o     (l_out),
      .r_o     (r_out),
      .u_o     (u_out),
      .d_o     (d_out)
    );

    // Apply a bitmap and fresh random words (tag 4*pe + port, port 0..3 = L, R, U, D).
    task automatic drive(input logic [Sw-1:0] bm);
      logic [Pes*Width-1:0] l_next, r_next, u_next, d_next;
      logic [31:0]          w;
      // (rand32 only as the whole right-hand side: a call inside a larger expression may be
      // evaluated twice by one of the two simulators, and their streams would then differ.)
      for (int i = 0; i < Pes; i++) begin
        w = rand32();
        l_next[i*Width +: Width] = (w & 32'hfffffc00) | 32'(4 * i);
        w = rand32();
        r_next[i*Width +: Width] = (w & 32'hfffffc00) | 32'(4 * i + 1);
        w = rand32();
        u_next[i*Width +: Width] = (w & 32'hfffffc00) | 32'(4 * i + 2);
        w = rand32();
        d_next[i*Width +: Width] = (w & 32'hfffffc00) | 32'(4 * i + 3);
      end
      bitmap = bm;
      l_in   = l_next;
      r_in   = r_next;
      u_in   = u_next;
      d_in   = d_next;
      #1;
      l_got = l_out;
      r_got = r_out;
      u_got = u_out;
      d_got = d_out;
    endtask

    // Horizontal link: PE a's R port joined to PE b's L port (scalar PE numbers).
    task automatic check_h(input int a, input int b, input int level);
      checks++;
      if (l_got[b*Width +: Width] !== r_in[a*Width +: Width] ||
          r_got[a*Width +: Width] !== l_in[b*Width +: Width]) begin
        $display("tb_rta_torus2d: Side=%0d level=%0d (seed %0d)", Side, level, seed);
        $error("PE (%0d,%0d) R -> PE (%0d,%0d) L: got L %h R %h, want L %h R %h", a / Side,
               a % Side, b / Side, b % Side, l_got[b*Width +: Width], r_got[a*Width +: Width],
               r_in[a*Width +: Width], l_in[b*Width +: Width]);
        $fatal(1, "tb_rta_torus2d: FAIL");
      end
    endtask

    // Vertical link: PE a's D port joined to PE b's U port.
    task automatic check_v(input int a, input int b, input int level);
      checks++;
      if (u_got[b*Width +: Width] !== d_in[a*Width +: Width] ||
          d_got[a*Width +: Width] !== u_in[b*Width +: Width]) begin
        $display("tb_rta_torus2d: Side=%0d level=%0d (seed %0d)", Side, level, seed);
        $error("PE (%0d,%0d) D -> PE (%0d,%0d) U: got U %h D %h, want U %h D %h", a / Side,
               a % Side, b / Side, b % Side, u_got[b*Width +: Width], d_got[a*Width +: Width],
               d_in[a*Width +: Width], u_in[b*Width +: Width]);
        $fatal(1, "tb_rta_torus2d: FAIL");
      end
    endtask

    task automatic test_srta;
      logic [Sw-1:0] bm;
      int q;
      int lvl;
      int span;
      for (int l = 1; l <= L; l++) begin
        for (int ring = 0; ring < 2 * Side; ring++) begin
          for (int p = 0; p < M; p++) begin
            q   = p + 1;
            lvl = 2;
            while (q % 2 == 0) begin
              q   = q / 2;
              lvl = lvl + 1;
            end
            bm[ring*M + p] = (lvl <= l);
          end
        end
        drive(bm);
        span = 1 << l;
        for (int r = 0; r < Side; r++) begin
          for (int c = 0; c < Side; c++) begin
            check_h(r * Side + c, r * Side + (c - c % span + (c % span + 1) % span), l);
            check_v(r * Side + c, (r - r % span + (r % span + 1) % span) * Side + c, l);
          end
        end
      end
    endtask

    // Next PE after position a on the ring whose switch p has bit bm[base + p]: the OFF
    // switches cut the ring at 2p+2 and each segment closes on itself.
    function automatic int seg_next(input logic [Sw-1:0] bm, input int base, input int a);
      int first;
      if (a == Side - 1 || (a % 2 == 1 && !bm[base + (a - 1) / 2])) begin
        first = 0;
        for (int j = 2; j <= a; j += 2) begin
          if (!bm[base + j / 2 - 1]) first = j;
        end
        seg_next = first;
      end else begin
        seg_next = a + 1;
      end
    endfunction

    task automatic test_random;
      logic [Sw-1:0] bm;
      logic [31:0]   w;
      for (int t = 0; t < RandomBitmaps; t++) begin
        for (int b = 0; b < Sw; b++) begin
          w = rand32();
          case (t % 3)
            0:       bm[b] = (w & 32'h1) != 0;
            1:       bm[b] = ((w & 32'h7) != 0);
            default: bm[b] = ((w & 32'h7) == 0);
          endcase
        end
        drive(bm);
        for (int r = 0; r < Side; r++) begin
          for (int c = 0; c < Side; c++) begin
            check_h(r * Side + c, r * Side + seg_next(bm, r * M, c), -1);
            check_v(r * Side + c, seg_next(bm, Side * M + c * M, r) * Side + c, -1);
          end
        end
      end
    endtask

    task automatic run;
      test_srta();
      test_random();
    endtask
  end

  initial begin
    seed = 1;
    if ($value$plusargs("seed=%d", seed)) begin
    end
    rng_state = {32'h9e3779b9, seed} | 64'd1;
    checks    = 0;
    $display("tb_rta_torus2d: seed %0d", seed);
    g_cfg[0].run();
    g_cfg[1].run();
    g_cfg[2].run();
    $display("tb_rta_torus2d: %0d link checks, PRNG state %h", checks, rng_state);
    $display("PASS tb_rta_torus2d");
    $finish;
  end

endmodule
