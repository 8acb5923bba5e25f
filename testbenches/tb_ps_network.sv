// Copyright pinet contributors.
//
// tb_ps_network: self-checking testbench of ps_network for N = 2 (MemWords 40, not a power of
// two) and N = 8 (MemWords 128), one instance each, run side by side.
//
// For every collective (bcast, bcast-host, scatter, integrate, allgather, gather, upload), at two
// sizes M and image bases 0 and > 0, on words from a xorshift PRNG loaded through the local
// ports (and a host image served on PE 0's host link), it checks against values computed here,
// independently of the C model:
//   - the results (read back through the local ports, uploads as the host received them):
//     broadcast: every PE holds PE 0's (or the host's) M words; scatter: PE j holds the host's
//     segment j; integrate: PE j holds segment j summed over all PEs (mod 2^32, direct sums);
//     allgather: every PE holds every PE's own segment; gather / upload: PE 0 / the host holds
//     them all;
//   - the cycle in which done rises, against the closed forms of docs/shuffle.md section 4
//     (integrate, allgather, gather n + (1 - 1/N) M; scatter (n + 1) + M/2 + (1 - 1/N) M; bcast
//     (2n - 1)(1 + M/n); bcast-host 2n (1 + M/n); upload (n + 1) + (1 - 1/N) M + M/2), and that
//     cycle 0 (a setup cycle) carries no word;
//   - the words each channel carried: integrate every forward channel (1 - 1/N) M, allgather
//     every backward one; the broadcasts M on every tree link; scatter and gather the subtree
//     of the tree link's child times M/N; the host link M; nothing anywhere else;
//   - that a channel's data is 0 whenever its valid is;
//   - refused commands (err_o 1..4: op 8 (custom, C model only) and 15, M = 0, base + M >
//     MemWords, M not a multiple of the quantum; bcast with M not a multiple of log2 N; the ring
//     exchange with M = 0, past the memory, or M not a multiple of 4), busy and done low after
//     them, and a command while busy (err_o 5, in integrate and in a ring exchange) that leaves
//     the running collective intact.
// The ring exchange (op 7, M = 4W, one step) likewise, at W = 1 (bases 0 and MemWords - 4) and
// at a larger odd W (odd base > 0, not a multiple of N): the ring is computed here by Martin's
// prefer-one walk (0; from x to 2x + 1 mod N if not yet visited, else to 2x mod N; it must visit
// every PE once and close back to 0 along shuffle edges) and, for N = 2 and N = 8, must equal the
// literal rings 0, 1 and 0, 1, 3, 7, 6, 5, 2, 4. Checked: every PE keeps its [0,2W), holds its
// ring predecessor's loaded [0,W) at [2W,3W) and its successor's loaded [W,2W) at [3W,4W), and
// every word outside the image is untouched (the whole memory is loaded first); done in cycle
// W + 1; for each ring edge a -> b (link l = 2a + (b & 1)) forward channel l and backward channel
// 2N + l carry W words each, no other channel anything; data 0 whenever valid is 0.
// PRNG seed from +seed=<n> (default 1), printed at the start and in every failure. Ends with
// "PASS tb_ps_network", or $error messages and $fatal.

`include "tb_no_x_after_reset.svh"

module tb_ps_network;

  localparam int Width  = 32;
  localparam int NumCfg = 2;

  function automatic int cfg_n(int g);
    cfg_n = (g == 0) ? 2 : 8;
  endfunction

  function automatic int cfg_mem(int g);
    cfg_mem = (g == 0) ? 40 : 128;  // 40: a memory size that is not a power of two
  endfunction

  logic clk = 1'b0;
  initial forever #5 clk = ~clk;

  int unsigned seed;
  logic [NumCfg-1:0] finished = '0;
  int errors [NumCfg];

  // xorshift32: the same stream in Icarus and Verilator.
  function automatic logic [31:0] xorshift(logic [31:0] x);
    x = x ^ (x << 13);
    x = x ^ (x >> 17);
    x = x ^ (x << 5);
    xorshift = x;
  endfunction

  initial begin
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    $display("tb_ps_network: seed %0d", seed);
  end

  for (genvar g = 0; g < NumCfg; g++) begin : g_cfg
    localparam int N        = cfg_n(g);
    localparam int MemWords = cfg_mem(g);
    localparam int AddrW    = $clog2(MemWords);
    localparam int LogN     = $clog2(N);
    localparam int Ch       = 4 * N + 2;

    ////////////////
    // DUT wiring //
    ////////////////

    logic                rst_n = 1'b0;
    logic                start = 1'b0;
    logic [3:0]          op = '0;
    logic [31:0]         words = '0;
    logic [31:0]         base = '0;
    logic                busy, done;
    logic [2:0]          err;
    logic                host_req;
    logic [AddrW-1:0]    host_req_addr;
    logic                host_valid_in = 1'b0;
    logic [Width-1:0]    host_data_in = '0;
    logic                host_valid_out;
    logic [Width-1:0]    host_data_out;
    logic [AddrW-1:0]    host_addr;
    logic [N-1:0]        lcl_we = '0;
    logic [AddrW-1:0]    lcl_addr = '0;
    logic [N*Width-1:0]  lcl_wdata = '0;
    logic [N*Width-1:0]  lcl_rdata;
    logic [Ch-1:0]       ch_valid;
    logic [Ch*Width-1:0] ch_data;

    ps_network #(
      .N       (N),
      .Width   (Width),
      .MemWords(MemWords)
    ) u_dut (
      .clk_i          (clk),
      .rst_ni         (rst_n),
      .cmd_start_i    (start),
      .cmd_op_i       (op),
      .cmd_fast_i     (1'b0),  // the paper's schedules (the cosim runs the fast ones)
      .cmd_words_i    (words),
      .cmd_base_i     (base),
      .busy_o         (busy),
      .done_o         (done),
      .err_o          (err),
      .host_req_o     (host_req),
      .host_req_addr_o(host_req_addr),
      .host_valid_i   (host_valid_in),
      .host_data_i    (host_data_in),
      .host_valid_o   (host_valid_out),
      .host_data_o    (host_data_out),
      .host_addr_o    (host_addr),
      .lcl_we_i       (lcl_we),
      .lcl_addr_i     (lcl_addr),
      .lcl_wdata_i    (lcl_wdata),
      .lcl_rdata_o    (lcl_rdata),
      .ch_valid_o     (ch_valid),
      .ch_data_o      (ch_data)
    );

    // The control and status outputs (the data ones carry memory words, not reset).
    tb_no_x_after_reset #(
      .Label("tb_ps_network"),
      .Width(7 + 2 * AddrW + Ch)
    ) u_no_x (
      .clk    (clk),
      .rst_n  (rst_n),
      .outputs({busy, done, err, host_req, host_req_addr, host_valid_out, host_addr, ch_valid})
    );

    ////////////////
    // Host model //
    ////////////////

    // The host answers a request in the next cycle and keeps what comes up.
    logic [Width-1:0] host_mem [MemWords];
    logic [Width-1:0] up_mem [MemWords];

    always @(posedge clk) begin
      host_valid_in <= host_req;
      host_data_in  <= host_req ? host_mem[host_req_addr] : '0;
      if (host_valid_out) up_mem[host_addr] <= host_data_out;
    end

    ///////////
    // Tasks //
    ///////////

    logic [31:0]      rng;
    logic [Width-1:0] init_mem [N*MemWords];  // what was loaded: PE j's word a at j*MemWords+a
    int               ch_words [Ch];
    int               ring_seq [N];   // the ring: ring_seq[0] = 0, ring_seq[k+1] = succ
    int               ring_succ [N];  // PE j's ring successor / predecessor
    int               ring_pred [N];

    task automatic fail(input string what);
      errors[g]++;
      $error("tb_ps_network N=%0d seed %0d: %s", N, seed, what);
    endtask

    task automatic cycle;
      @(negedge clk);
    endtask

    // Load [lo, hi) of every memory with PRNG words (kept in init_mem), the host image likewise.
    task automatic load(input int lo, input int hi);
      for (int a = lo; a < hi; a++) begin
        lcl_addr = AddrW'(a);
        lcl_we   = '1;
        for (int j = 0; j < N; j++) begin
          rng = xorshift(rng);
          lcl_wdata[j*Width +: Width] = rng;
          init_mem[j*MemWords + a]    = rng;
        end
        cycle();
      end
      lcl_we = '0;
      for (int a = 0; a < MemWords; a++) begin
        rng         = xorshift(rng);
        host_mem[a] = rng;
        up_mem[a]   = '0;
      end
    endtask

    function automatic logic [Width-1:0] mem_word(int j, int a);
      mem_word = init_mem[j*MemWords + a];
    endfunction

    // Read word `a` of PE j through the local port (combinational).
    task automatic read(input int j, input int a, output logic [Width-1:0] v);
      if (a < 0 || a >= MemWords) fail($sformatf("read outside the memory: %0d", a));
      lcl_addr = AddrW'(a);
      #1;
      v = lcl_rdata[j*Width +: Width];
    endtask

    // Issue a command in one cycle; returns with the network in the cycle after the edge.
    task automatic command(input int o, input int m, input int b);
      if (o < 0 || o > 15) fail($sformatf("bad op number %0d in the testbench", o));
      op    = 4'(o);
      words = m;
      base  = b;
      start = 1'b1;
      cycle();
      start = 1'b0;
    endtask

    // Run op on M words at base b; *t = the cycle (from cycle 0) in which done is high. With
    // busy_at >= 0 a second command arrives in that cycle and must be refused (busy).
    task automatic run(input int o, input int m, input int b, input int busy_at, output int t);
      for (int c = 0; c < Ch; c++) ch_words[c] = 0;
      command(o, m, b);
      if (ch_valid != '0) fail($sformatf("op %0d: a channel is valid in setup cycle 0", o));
      if (err != 3'd0) fail($sformatf("op %0d M %0d base %0d refused with %0d", o, m, b, err));
      t = 0;
      while (!done && t < 100000) begin
        if (!busy) fail($sformatf("op %0d: busy low in cycle %0d before done", o, t));
        for (int c = 0; c < Ch; c++) begin
          ch_words[c] += int'(ch_valid[c]);
          if (!ch_valid[c] && ch_data[c*Width +: Width] != '0)
            fail($sformatf("op %0d: channel %0d carries data without valid in cycle %0d", o, c, t));
        end
        if (t == busy_at) begin
          op    = 4'd3;
          words = N;
          base  = 0;
          start = 1'b1;
        end
        t++;
        cycle();
        start = 1'b0;
        if (t == busy_at + 1 && err != 3'd5)
          fail($sformatf("op %0d: err %0d after a command while busy", o, err));
      end
      if (busy) fail($sformatf("op %0d: still busy when done", o));
    endtask

    // A command that must be refused with `code`.
    task automatic refuse(input int o, input int m, input int b, input int code);
      command(o, m, b);
      if (err != 3'(code))
        fail($sformatf("op %0d M %0d base %0d: err %0d, expected %0d", o, m, b, err, code));
      if (busy || done)
        fail($sformatf("op %0d M %0d base %0d: busy %0d done %0d after a refused command",
                       o, m, b, busy, done));
      cycle();
    endtask

    // Nodes in the subtree of tree node q >= 1 (PE 0 -> 1, p -> 2p, 2p+1).
    function automatic int subtree(int q);
      int d;
      d = $clog2(q + 1);  // depth: floor(log2 q) + 1
      subtree = (1 << (LogN - d + 1)) - 1;
    endfunction

    // The literal ring for N = 2 and N = 8 (the prefer-one de Bruijn sequence 00011101 for
    // N = 8), position k; -1 for other N.
    function automatic int ring_literal(int k);
      ring_literal = -1;
      if (N == 2) ring_literal = k;
      if (N == 8) begin
        case (k)
          0:       ring_literal = 0;
          1:       ring_literal = 1;
          2:       ring_literal = 3;
          3:       ring_literal = 7;
          4:       ring_literal = 6;
          5:       ring_literal = 5;
          6:       ring_literal = 2;
          default: ring_literal = 4;
        endcase
      end
    endfunction

    // The ring by Martin's prefer-one walk into ring_seq / ring_succ / ring_pred, checked: a
    // Hamiltonian cycle from 0 along shuffle edges (x -> 2x or 2x + 1 mod N), and the literal
    // ring where there is one.
    task automatic make_ring;
      logic [N-1:0] seen;
      int x;
      int y;
      seen    = '0;
      seen[0] = 1'b1;
      x       = 0;
      for (int k = 0; k < N; k++) begin
        ring_seq[k] = x;
        y = (2 * x + 1) % N;
        if (seen[y]) y = (2 * x) % N;
        if (k < N - 1 && seen[y])
          fail($sformatf("ring walk: step %0d from PE %0d reaches visited PE %0d", k, x, y));
        seen[y]      = 1'b1;
        ring_succ[x] = y;
        ring_pred[y] = x;
        x            = y;
      end
      if (x != 0) fail($sformatf("ring walk: ends at PE %0d, not back at 0", x));
      if (seen != '1) fail("ring walk: does not visit every PE");
      for (int k = 0; k < N; k++) begin
        if (ring_succ[ring_seq[k]] != ring_seq[(k + 1) % N] ||
            ring_pred[ring_seq[(k + 1) % N]] != ring_seq[k])
          fail($sformatf("ring walk: succ / pred disagree with the sequence at %0d", k));
        if (ring_literal(k) >= 0 && ring_seq[k] != ring_literal(k))
          fail($sformatf("ring walk: ring[%0d] = %0d, expected %0d", k, ring_seq[k],
                         ring_literal(k)));
      end
    endtask

    // The closed forms of the done cycle (docs/shuffle.md section 4).
    function automatic int done_cycle(int o, int m);
      int n;
      n = LogN;
      case (o)
        0:       done_cycle = (2*n - 1) * (1 + m / n);
        1:       done_cycle = 2*n * (1 + m / n);
        2:       done_cycle = (n + 1) + m / 2 + m - m / N;
        6:       done_cycle = (n + 1) + m - m / N + m / 2;
        7:       done_cycle = m / 4 + 1;
        default: done_cycle = n + m - m / N;
      endcase
    endfunction

    // Words each channel must have carried.
    function automatic int expect_words(int o, int m, int c);
      int s;
      int l;
      s = m / N;
      expect_words = 0;
      case (o)
        0, 1: begin  // tree links 1 and 2p, 2p+1 (1 <= p < N/2); bcast-host also the host link
          if (c == 1 || (c >= 2 && c < N)) expect_words = m;
          if (o == 1 && c == 4*N) expect_words = m;
        end
        2: begin
          if (c >= 1 && c < N) expect_words = subtree(c) * s;
          if (c == 4*N) expect_words = m;
        end
        3: if (c < 2*N) expect_words = m - s;
        4: if (c >= 2*N && c < 4*N) expect_words = m - s;
        7: begin  // ring edge a -> b on link l = 2a + (b & 1): W forward (l), W backward (2N + l)
          for (int a = 0; a < N; a++) begin
            l = (2 * a + (ring_succ[a] & 1)) % (2 * N);
            if (c == l) expect_words += m / 4;
            if (c == 2*N + l) expect_words += m / 4;
          end
        end
        default: begin  // gather, upload: backward tree links; upload also the host link up
          if (c >= 2*N + 1 && c < 3*N) expect_words = subtree(c - 2*N) * s;
          if (o == 6 && c == 4*N + 1) expect_words = m;
        end
      endcase
    endfunction

    // Run one collective and check everything listed at the top.
    task automatic check_op(input int o, input int m, input int b, input int busy_at);
      int t;
      int s;
      int q;
      logic [Width-1:0] v;
      logic [Width-1:0] e;
      s = m / N;
      q = m / 4;
      // The ring exchange checks the words outside its image too: load the whole memory.
      if (o == 7) load(0, MemWords);
      else load(b, b + m);
      run(o, m, b, busy_at, t);
      if (t != done_cycle(o, m))
        fail($sformatf("op %0d M %0d: done in cycle %0d, expected %0d", o, m, t,
                       done_cycle(o, m)));
      for (int c = 0; c < Ch; c++)
        if (ch_words[c] != expect_words(o, m, c))
          fail($sformatf("op %0d M %0d: channel %0d carried %0d words, expected %0d", o, m, c,
                         ch_words[c], expect_words(o, m, c)));
      for (int j = 0; j < N; j++) begin
        for (int w = 0; w < m; w++) begin
          read(j, b + w, v);
          e = v;
          case (o)
            0: e = mem_word(0, b + w);
            1: e = host_mem[w];
            2: if (w / s == j) e = host_mem[w];
            3: if (w / s == j) begin
              e = '0;
              for (int i = 0; i < N; i++) e = e + mem_word(i, b + w);
            end
            4: e = mem_word(w / s, b + w);
            // Own [0,2W) kept; [2W,3W) = pred's [0,W), [3W,4W) = succ's [W,2W), as loaded.
            7: begin
              if (w < 2 * q) e = mem_word(j, b + w);
              else if (w < 3 * q) e = mem_word(ring_pred[j], b + w - 2 * q);
              else e = mem_word(ring_succ[j], b + w - 2 * q);
            end
            default: if (j == 0) e = mem_word(w / s, b + w);
          endcase
          if (v !== e)
            fail($sformatf("op %0d M %0d base %0d: PE %0d word %0d = %h, expected %h", o, m, b,
                           j, w, v, e));
        end
      end
      if (o == 7) begin
        for (int j = 0; j < N; j++)
          for (int a = 0; a < MemWords; a++)
            if (a < b || a >= b + m) begin
              read(j, a, v);
              if (v !== mem_word(j, a))
                fail($sformatf("ring M %0d base %0d: PE %0d word %0d (guard) = %h, expected %h",
                               m, b, j, a, v, mem_word(j, a)));
            end
      end
      if (o == 6) begin
        for (int w = 0; w < m; w++)
          if (up_mem[w] !== mem_word(w / s, b + w))
            fail($sformatf("upload M %0d: host word %0d = %h, expected %h", m, w, up_mem[w],
                           mem_word(w / s, b + w)));
      end
      cycle();
    endtask

    ///////////////
    // Sequence  //
    ///////////////

    initial begin
      errors[g] = 0;
      #1;
      rng = 32'(seed) * 32'd2654435761 + 32'(g) + 32'd1;
      if (rng == '0) rng = 32'd1;
      repeat (2) cycle();
      rst_n = 1'b1;
      cycle();
      make_ring();
      // Every collective at two sizes (multiples of N and of n = log2 N), two bases.
      for (int o = 0; o < 7; o++) begin
        check_op(o, N * LogN, 0, -1);
        check_op(o, 4 * N * LogN, MemWords - 4 * N * LogN, (o == 3) ? 2 : -1);
      end
      // The ring exchange: W = 1 at both ends of the memory; W = (MemWords - 12) / 4 (7 for
      // N = 2, 29 for N = 8) at base 5, with a command while busy in cycle 2.
      check_op(7, 4, 0, -1);
      check_op(7, 4, MemWords - 4, -1);
      check_op(7, 4 * ((MemWords - 12) / 4), 5, 2);
      // Refused commands.
      refuse(8, N, 0, 1);
      refuse(15, N, 0, 1);
      refuse(3, 0, 0, 2);
      refuse(4, N, MemWords - N + 1, 3);
      refuse(5, MemWords + N, 0, 3);
      refuse(2, N + 1, 0, 4);
      if (LogN > 1) refuse(0, LogN + 1, 0, 4);
      refuse(7, 0, 0, 2);
      refuse(7, 8, MemWords - 7, 3);
      refuse(7, 6, 0, 4);
      refuse(7, 2, 0, 4);
      // And a good one afterwards.
      check_op(3, N, 1, -1);
      finished[g] = 1'b1;
    end
  end

  initial begin
    wait (finished == '1);
    if (errors[0] + errors[1] != 0) begin
      $error("tb_ps_network: %0d check(s) failed (seed %0d)", errors[0] + errors[1], seed);
      $fatal(1, "tb_ps_network: FAILED");
    end
    $display("PASS tb_ps_network");
    $finish;
  end

endmodule
