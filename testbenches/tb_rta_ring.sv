// Copyright pinet contributors.
//
// tb_rta_ring: self-checking testbench of rta_ring for N = 4, 8, 16 and 64 (one instance each,
// in g_cfg[0..3], run one after the other).
//
// Checks, for every PE port of every instance:
//   - each SRTA level l = 1 .. L (switch p ON iff its level tz(p+1) + 2 <= l): the word PE A
//     drives out of its R port arrives at the L port of A's right neighbour q + (A + 1) mod 2^l
//     (q = A - A mod 2^l, the paper's neighbor(A, l)), and the word from that neighbour's L port
//     arrives at A's R port;
//   - random bitmaps (any RTA state): the OFF switches cut the ring at PE boundaries 2p+2; every
//     segment of consecutive PEs is a ring, the last PE's R port joined to the first PE's L port.
// Words are random with a unique tag (2*pe + port) in the low bits. PRNG: xorshift64 (the same
// stream in Icarus and Verilator), seed from +seed=<n> (default 1), printed at start and in every
// failure. Ends with "PASS tb_rta_ring", or $error + $fatal on the first mismatch.

module tb_rta_ring;

  localparam int Width         = 32;
  localparam int NumCfg        = 4;
  localparam int RandomBitmaps = 150;

  function automatic int cfg_n(int g);
    case (g)
      0:       cfg_n = 4;
      1:       cfg_n = 8;
      2:       cfg_n = 16;
      default: cfg_n = 64;
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

  ////////////////////////////////
  // One ring per configuration //
  ////////////////////////////////

  for (genvar g = 0; g < NumCfg; g++) begin : g_cfg
    localparam int N = cfg_n(g);
    localparam int M = N / 2 - 1;
    localparam int L = $clog2(N);

    logic [M-1:0]       bitmap;
    logic [N*Width-1:0] l_in;
    logic [N*Width-1:0] r_in;
    logic [N*Width-1:0] l_out;
    logic [N*Width-1:0] r_out;
    // Snapshot of the outputs taken once per drive (checks read these: Verilator then builds the
    // flat output vectors from the instances once, not at every check).
    logic [N*Width-1:0] l_got;
    logic [N*Width-1:0] r_got;

    rta_ring #(
      .N    (N),
      .Width(Width)
    ) u_dut (
      .bitmap_i(bitmap),
      .l_i     (l_in),
      .r_i     (r_in),
      .l_o     (l_out),
      .r_o     (r_out)
    );

    // Apply a bitmap and fresh random words (tag 2*pe + port in the low 8 bits).
    task automatic drive(input logic [M-1:0] bm);
      logic [N*Width-1:0] l_next;
      logic [N*Width-1:0] r_next;
      logic [31:0]        w;
      // (rand32 only as the whole right-hand side: a call inside a larger expression may be
      // evaluated twice by one of the two simulators, and their streams would then differ.)
      for (int i = 0; i < N; i++) begin
        w = rand32();
        l_next[i*Width +: Width] = (w & 32'hffffff00) | 32'(2 * i);
        w = rand32();
        r_next[i*Width +: Width] = (w & 32'hffffff00) | 32'(2 * i + 1);
      end
      bitmap = bm;
      l_in   = l_next;
      r_in   = r_next;
      #1;
      l_got = l_out;
      r_got = r_out;
    endtask

    // A's R port and B's L port must be joined: each receives the other's word.
    task automatic check_link(input int a, input int b, input int level);
      checks++;
      if (l_got[b*Width +: Width] !== r_in[a*Width +: Width] ||
          r_got[a*Width +: Width] !== l_in[b*Width +: Width]) begin
        $display("tb_rta_ring: N=%0d level=%0d bitmap=%b (seed %0d)", N, level, bitmap, seed);
        $error("PE %0d R -> PE %0d L: got L %h R %h, want L %h R %h", a, b,
               l_got[b*Width +: Width], r_got[a*Width +: Width], r_in[a*Width +: Width],
               l_in[b*Width +: Width]);
        $fatal(1, "tb_rta_ring: FAIL");
      end
    endtask

    // SRTA level l: switch p is ON iff tz(p+1) + 2 <= l; check neighbor(A, l).
    task automatic test_srta;
      logic [M-1:0] bm;
      int q;
      int lvl;
      int span;
      for (int l = 1; l <= L; l++) begin
        for (int p = 0; p < M; p++) begin
          q   = p + 1;
          lvl = 2;
          while (q % 2 == 0) begin
            q   = q / 2;
            lvl = lvl + 1;
          end
          bm[p] = (lvl <= l);
        end
        drive(bm);
        span = 1 << l;
        for (int a = 0; a < N; a++) begin
          check_link(a, a - a % span + (a % span + 1) % span, l);
        end
      end
    endtask

    // Random bitmap: segments between the cuts (boundary 2p+2 of every OFF switch) are rings.
    task automatic test_random;
      logic [M-1:0] bm;
      logic [31:0]  w;
      int           first;
      int           b;
      for (int t = 0; t < RandomBitmaps; t++) begin
        for (int p = 0; p < M; p++) begin
          w = rand32();
          // Rounds alternate uniform, mostly-ON and mostly-OFF bitmaps.
          case (t % 3)
            0:       bm[p] = (w & 32'h1) != 0;
            1:       bm[p] = ((w & 32'h7) != 0);
            default: bm[p] = ((w & 32'h7) == 0);
          endcase
        end
        drive(bm);
        first = 0;
        for (int a = 0; a < N; a++) begin
          if (a > 0 && a % 2 == 0 && !bm[a/2-1]) first = a;
          // A ends its segment if it is PE N-1 or odd with an OFF switch on its right.
          if (a == N - 1 || (a % 2 == 1 && !bm[(a-1)/2])) b = first;
          else b = a + 1;
          check_link(a, b, -1);
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
    $display("tb_rta_ring: seed %0d", seed);
    g_cfg[0].run();
    g_cfg[1].run();
    g_cfg[2].run();
    g_cfg[3].run();
    $display("tb_rta_ring: %0d link checks, PRNG state %h", checks, rng_state);
    $display("PASS tb_rta_ring");
    $finish;
  end

endmodule
