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

  `include "tb_rta_common.svh"

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
      for (int i = 0; i < N; i++) begin
        l_next[i*Width +: Width] = rand_word(8, 2 * i);
        r_next[i*Width +: Width] = rand_word(8, 2 * i + 1);
      end
      bitmap = bm;
      l_in   = l_next;
      r_in   = r_next;
      #1;
      l_got = l_out;
      r_got = r_out;
    endtask

    // A's R port and B's L port must be joined: each receives the other's word.
    task automatic link(input string ctx, input int a, input int b);
      check_link(ctx, a, 0, b, 0, 1'b0, Width, l_got[b*Width +: Width], r_got[a*Width +: Width],
                 r_in[a*Width +: Width], l_in[b*Width +: Width]);
    endtask

    function automatic string context_of(input int level);
      context_of = $sformatf("tb_rta_ring: N=%0d level=%0d bitmap=%b (seed %0d)", N, level,
                             bitmap, seed);
    endfunction

    // SRTA level l: switch p is ON iff its level tz(p+1) + 2 <= l; check neighbor(A, l).
    task automatic test_srta;
      logic [M-1:0] bm;
      string        ctx;
      for (int l = 1; l <= L; l++) begin
        for (int p = 0; p < M; p++) bm[p] = (srta_level(p) <= l);
        drive(bm);
        ctx = context_of(l);
        for (int a = 0; a < N; a++) link(ctx, a, srta_neighbor(a, l));
      end
    endtask

    // Random bitmap: segments between the cuts (boundary 2p+2 of every OFF switch) are rings.
    task automatic test_random;
      logic [M-1:0] bm;
      logic [63:0]  starts;
      string        ctx;
      for (int t = 0; t < RandomBitmaps; t++) begin
        for (int p = 0; p < M; p++) bm[p] = rand_switch(t);
        drive(bm);
        ctx    = context_of(-1);
        starts = cut_starts(32'(bm), N);
        for (int a = 0; a < N; a++) link(ctx, a, ring_next(starts, N, a));
      end
    endtask

    task automatic run;
      test_srta();
      test_random();
    endtask
  end

  initial begin
    tb_begin("tb_rta_ring");
    g_cfg[0].run();
    g_cfg[1].run();
    g_cfg[2].run();
    g_cfg[3].run();
    tb_end("link checks");
  end

endmodule
