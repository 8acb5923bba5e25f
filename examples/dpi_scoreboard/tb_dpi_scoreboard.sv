// Copyright pinet contributors.
//
// tb_dpi_scoreboard: a self-checking testbench that uses the pinet golden model as a scoreboard
// through DPI-C (pinet_dpi_pkg, docs/dpi.md). No C++ of its own: Verilator --binary --timing,
// or any simulator with DPI-C, builds it from this file, pinet_dpi_pkg.sv, the DUT's sources and
// libpinet_dpi (README.md here).
//
// DUT: ps_network at N = 8, MemWords = 64, i.e. eight ps_routers (rtl/ps_router.sv) joined by
// the shuffle links (rtl/ps_network.sv); or a design of your own with the same module names and
// ports. Stimulus from a xorshift32 PRNG seeded by +seed=<n>:
//   1. reset, then every word of every PE memory written through the local ports;
//   2. for each round, every collective (bcast, bcast-host, scatter, integrate, allgather,
//      gather, upload, ring-exchange) in turn at a random multiple of its quantum M and a random
//      base: the image [base, base + M) of every memory reloaded, a new host image, a start
//      pulse; the testbench is the host (it answers PE 0's request of one cycle in the next);
//      after done the whole memory of every PE is read back through the local port;
//   3. refused commands (an op the RTL does not run, M = 0, past the memory, M not a multiple of
//      the quantum) and, in round 2, a command while busy.
//
// Timing: clock period 10, rising edge at 5 mod 10. The stimulus changes inputs at the falling
// edge (0 mod 10). ONE scoreboard process runs at 4 mod 10 (inputs settled, before the edge):
//   - rst_n low: pinet_dpi_ps_reset (the RTL's reset is asynchronous);
//   - compare, in this order, busy_o, done_o, err_o, every channel's valid and data (4N + 2 of
//     them; the last also as host_valid_o / host_data_o), host_req_o, host_req_addr_o,
//     host_addr_o and, while idle, every PE's lcl_rdata_o, with pinet_dpi_ps_expect_*;
//   - tell the model what the edge samples: pinet_dpi_ps_local_write, pinet_dpi_ps_edge;
//   - after the edge (6 mod 10) answer PE 0's host request of this cycle.
// A second handle (`txn`) checks the same runs at transaction level: it sees the same local
// writes and host image, runs each collective at once (pinet_dpi_ps_collective) when the DUT is
// done; the read-back memories and the words uploaded to the host are compared with it too.
// Output: "FAIL ps_network cycle <c> <signal> DUT 0x.. expected 0x.. seed <s>" at the first
// mismatch (then $fatal), or "PASS ps_network matched <n> cycles seed <s>".

module tb_dpi_scoreboard;
  import pinet_dpi_pkg::*;

  localparam int N        = 8;
  localparam int Width    = 32;
  localparam int MemWords = 64;
  localparam int AddrW    = $clog2(MemWords);
  localparam int Channels = 4 * N + 2;
  localparam int Rounds   = 2;

  /////////
  // DUT //
  /////////

  logic                      clk = 1'b0;
  logic                      rst_n = 1'b1;
  logic                      cmd_start = 1'b0;
  logic [3:0]                cmd_op = '0;
  logic [31:0]               cmd_words = '0;
  logic [31:0]               cmd_base = '0;
  logic                      busy;
  logic                      done;
  logic [2:0]                err;
  logic                      host_req;
  logic [AddrW-1:0]          host_req_addr;
  logic                      host_valid = 1'b0;
  logic [Width-1:0]          host_data = '0;
  logic                      host_up_valid;
  logic [Width-1:0]          host_up_data;
  logic [AddrW-1:0]          host_up_addr;
  logic [N-1:0]              lcl_we = '0;
  logic [AddrW-1:0]          lcl_addr = '0;
  logic [N*Width-1:0]        lcl_wdata = '0;
  logic [N*Width-1:0]        lcl_rdata;
  logic [Channels-1:0]       ch_valid;
  logic [Channels*Width-1:0] ch_data;

  ps_network #(
    .N       (N),
    .Width   (Width),
    .MemWords(MemWords)
  ) u_dut (
    .clk_i          (clk),
    .rst_ni         (rst_n),
    .cmd_start_i    (cmd_start),
    .cmd_op_i       (cmd_op),
    .cmd_fast_i     (1'b0),  // the paper's schedules: what pinet_dpi builds
    .cmd_words_i    (cmd_words),
    .cmd_base_i     (cmd_base),
    .busy_o         (busy),
    .done_o         (done),
    .err_o          (err),
    .host_req_o     (host_req),
    .host_req_addr_o(host_req_addr),
    .host_valid_i   (host_valid),
    .host_data_i    (host_data),
    .host_valid_o   (host_up_valid),
    .host_data_o    (host_up_data),
    .host_addr_o    (host_up_addr),
    .lcl_we_i       (lcl_we),
    .lcl_addr_i     (lcl_addr),
    .lcl_wdata_i    (lcl_wdata),
    .lcl_rdata_o    (lcl_rdata),
    .ch_valid_o     (ch_valid),
    .ch_data_o      (ch_data)
  );

  always #5 clk = ~clk;

  //////////////////////
  // Scoreboard state //
  //////////////////////

  chandle           model;  // cycle level
  chandle           txn;    // transaction level: whole collectives
  int unsigned      seed = 1;
  int unsigned      rng;
  longint unsigned  cycle = 0;
  longint unsigned  matched = 0;
  longint unsigned  writes_seen = 0;
  bit               failed = 1'b0;
  // Loop bounds as variables, not constants: Verilator unrolls constant loops of up to 64
  // iterations, which would copy the comparison code per channel and slow the C++ build.
  int unsigned      num_channels = Channels;
  int unsigned      num_pes = N;
  int unsigned      num_words = MemWords;
  bit               started = 1'b0;
  logic [Width-1:0] host_img [MemWords];   // what the host sends
  logic [Width-1:0] host_recv [MemWords];  // what the DUT uploaded, by image address
  bit               host_pending = 1'b0;
  logic [AddrW-1:0] host_pending_addr = '0;

  function automatic int unsigned rnd32();
    rng = rng ^ (rng << 13);
    rng = rng ^ (rng >> 17);
    rng = rng ^ (rng << 5);
    return rng;
  endfunction

  function automatic int unsigned rnd(int unsigned below);
    return rnd32() % below;
  endfunction

  // A function with side effects (a DPI call, check, model_ok) is never the right operand of
  // && or ||: Verilator inlines functions ahead of the expression, so both sides would run.

  // First mismatch: the FAIL line, then stop.
  function automatic bit check(string signal, longint unsigned dut, longint unsigned exp);
    if (dut == exp) return 1'b1;
    $display("FAIL ps_network cycle %0d %s DUT 0x%0h expected 0x%0h seed %0d", cycle, signal,
             dut, exp, seed);
    failed = 1'b1;
    return 1'b0;
  endfunction

  function automatic bit model_ok(string what, int st);
    if (st == PinetOk) return 1'b1;
    $display("FAIL ps_network cycle %0d cmodel:%s status %0d (%s) seed %0d", cycle, what, st,
             pinet_dpi_status_str(st), seed);
    failed = 1'b1;
    return 1'b0;
  endfunction

  // Compare every output of this cycle with the model, in the fixed order.
  function automatic bit compare();
    bit          e_busy;
    bit          e_done;
    int unsigned e_err;
    bit          e_valid;
    int unsigned e_data;
    bit          e_req;
    int unsigned e_req_addr;
    int unsigned e_up_addr;
    bit          e_known;
    if (!model_ok("expect_status", pinet_dpi_ps_expect_status(model, e_busy, e_done, e_err)))
      return 1'b0;
    if (!check("busy_o", 64'(busy), 64'(e_busy))) return 1'b0;
    if (!check("done_o", 64'(done), 64'(e_done))) return 1'b0;
    if (!check("err_o", 64'(err), 64'(e_err))) return 1'b0;
    for (int unsigned c = 0; c < num_channels; c++) begin
      if (!model_ok("expect_channel", pinet_dpi_ps_expect_channel(model, c, e_valid, e_data)))
        return 1'b0;
      if (!e_busy && c == 4 * N) begin  // idle: the host link down repeats the host's input
        e_valid = host_valid;
        e_data  = host_data;
      end
      if (!check({pinet_dpi_ps_channel_name(N, c), ".valid"}, 64'(ch_valid[c]), 64'(e_valid)))
        return 1'b0;
      if (!check({pinet_dpi_ps_channel_name(N, c), ".data"}, 64'(ch_data[c*Width +: Width]),
                 64'(e_data)))
        return 1'b0;
      if (c == 4 * N + 1) begin  // the host link up is also host_valid_o / host_data_o
        if (!check("host_valid_o", 64'(host_up_valid), 64'(e_valid))) return 1'b0;
        if (!check("host_data_o", 64'(host_up_data), 64'(e_data))) return 1'b0;
      end
    end
    if (!model_ok("expect_host", pinet_dpi_ps_expect_host(model, e_req, e_req_addr, e_up_addr)))
      return 1'b0;
    if (!check("host_req_o", 64'(host_req), 64'(e_req))) return 1'b0;
    if (!check("host_req_addr_o", 64'(host_req_addr), 64'(e_req_addr))) return 1'b0;
    if (!check("host_addr_o", 64'(host_up_addr), 64'(e_up_addr))) return 1'b0;
    if (!e_busy) begin
      for (int unsigned j = 0; j < num_pes; j++) begin
        if (!model_ok("expect_mem",
                      pinet_dpi_ps_expect_mem(model, j, 32'(lcl_addr), e_data, e_known)))
          return 1'b0;
        if (e_known) begin
          if (!check($sformatf("pe[%0d].mem[%0d]", j, lcl_addr),
                     64'(lcl_rdata[j*Width +: Width]), 64'(e_data)))
            return 1'b0;
        end
        if (!model_ok("expect_mem(txn)",
                      pinet_dpi_ps_expect_mem(txn, j, 32'(lcl_addr), e_data, e_known)))
          return 1'b0;
        if (e_known) begin
          if (!check($sformatf("pe[%0d].mem[%0d](collective)", j, lcl_addr),
                     64'(lcl_rdata[j*Width +: Width]), 64'(e_data)))
            return 1'b0;
        end
      end
    end
    return 1'b1;
  endfunction

  // Tell both models what the closing edge samples.
  function automatic bit model_edge();
    int unsigned n;
    for (int unsigned j = 0; j < num_pes; j++) begin
      if (lcl_we[j]) begin
        if (!model_ok("local_write", pinet_dpi_ps_local_write(
                model, j, 32'(lcl_addr), lcl_wdata[j*Width +: Width])))
          return 1'b0;
        if (!model_ok("local_write(txn)", pinet_dpi_ps_local_write(
                txn, j, 32'(lcl_addr), lcl_wdata[j*Width +: Width])))
          return 1'b0;
      end
    end
    if (!model_ok("edge", pinet_dpi_ps_edge(model, rst_n, cmd_start, 32'(cmd_op), cmd_words,
                                            cmd_base)))
      return 1'b0;
    if (!model_ok("write_count", pinet_dpi_ps_write_count(model, n))) return 1'b0;
    writes_seen += 64'(n);
    return 1'b1;
  endfunction

  // The scoreboard: the only process that calls compare / model_edge (Verilator inlines a
  // function at each call site, so one site keeps the model small), and the host.
  initial begin : scoreboard
    #4;
    forever begin
      if (started && !failed) begin
        if (!rst_n) void'(model_ok("reset", pinet_dpi_ps_reset(model)));  // asynchronous reset
        if (rst_n && host_up_valid) host_recv[host_up_addr] = host_up_data;
        if (compare()) begin
          if (model_edge()) matched++;
        end
      end
      host_pending      = rst_n && host_req;
      host_pending_addr = host_req_addr;
      #2;  // after the edge: the host answers this cycle's request
      cycle++;
      host_valid = host_pending;
      host_data  = host_pending ? host_img[host_pending_addr] : '0;
      #8;
    end
  end

  //////////////
  // Stimulus //
  //////////////

  // One clock cycle with the inputs as set; then the one-cycle inputs fall back.
  task automatic step();
    @(negedge clk);
    cmd_start = 1'b0;
    rst_n     = 1'b1;
    lcl_we    = '0;
  endtask

  task automatic load_word(logic [AddrW-1:0] addr);
    lcl_addr = addr;
    for (int j = 0; j < N; j++) begin
      lcl_we[j] = 1'b1;
      lcl_wdata[j*Width +: Width] = rnd32();
    end
    step();
  endtask

  task automatic read_all();
    for (int unsigned a = 0; a < MemWords && !failed; a++) begin
      lcl_addr = AddrW'(a);
      step();
    end
  endtask

  function automatic int unsigned quantum(int unsigned op);
    case (op)
      0, 1: return 3;  // bcast, bcast-host: n = log2 N packets
      7: return 4;     // ring-exchange: M = 4W
      default: return N;
    endcase
  endfunction

  task automatic command(logic [3:0] op, int unsigned words, int unsigned base);
    cmd_start = 1'b1;
    cmd_op    = op;
    cmd_words = words;
    cmd_base  = base;
  endtask

  // One collective: new image and host image, start, run to done (with a refused command
  // while busy if `disturb`), the same collective at transaction level, read every memory back.
  task automatic run(int unsigned op, bit disturb);
    int unsigned q;
    int unsigned words;
    int unsigned base;
    int unsigned guard;
    int unsigned e_err;
    int unsigned e_data;
    q     = quantum(op);
    words = q * (1 + rnd((MemWords / 2) / q));  // a multiple of the quantum, <= MemWords / 2
    base  = rnd(MemWords - words + 1);
    for (int unsigned a = 0; a < num_words; a++) begin
      host_img[a]  = rnd32();
      host_recv[a] = '0;
      if (!model_ok("set_host_word", pinet_dpi_ps_set_host_word(model, a, host_img[a]))) return;
      if (!model_ok("set_host_word(txn)", pinet_dpi_ps_set_host_word(txn, a, host_img[a])))
        return;
    end
    for (int unsigned a = base; a < base + words && !failed; a++) load_word(AddrW'(a));
    command(4'(op), words, base);
    step();
    guard = 0;
    while (!done && !failed && guard < 10000) begin
      if (disturb && guard == 2) command(0, N * 3, 0);  // refused: busy (err_o 5)
      step();
      guard++;
    end
    if (!failed && !done) begin
      void'(check("done_o(timeout)", 64'(done), 64'd1));
    end
    if (!failed) begin
      if (model_ok("collective", pinet_dpi_ps_collective(txn, op, words, base, e_err))) begin
        void'(check("collective.err", 64'(e_err), 64'(PsErrOk)));
      end
    end
    // Upload: what came up the host link is the host image the collective left.
    for (int unsigned a = 0; a < words && op == 6 && !failed; a++) begin
      if (model_ok("host_word(txn)", pinet_dpi_ps_host_word(txn, a, e_data))) begin
        void'(check($sformatf("host.mem[%0d]", a), 64'(host_recv[a]), 64'(e_data)));
      end
    end
    read_all();
  endtask

  initial begin : stimulus
    int unsigned mw;
    if (!$value$plusargs("seed=%d", seed)) seed = 1;
    rng = (seed == 0) ? 32'h2545f491 : seed;
    $display("tb_dpi_scoreboard: ps_network N = %0d MemWords = %0d seed %0d", N, MemWords, seed);
    mw = MemWords;
    if (!model_ok("create", pinet_dpi_ps_create(model, N, mw))) $fatal(1, "model");
    if (!model_ok("create(txn)", pinet_dpi_ps_create(txn, N, mw))) $fatal(1, "model");
    started = 1'b1;
    rst_n   = 1'b0;
    step();
    for (int unsigned a = 0; a < MemWords && !failed; a++) load_word(AddrW'(a));
    for (int r = 0; r < Rounds && !failed; r++) begin
      for (int unsigned op = 0; op < 8 && !failed; op++) run(op, r == 1 && (op == 3 || op == 7));
      // Refused commands: bad op, M = 0, past the memory, not a multiple of the quantum.
      if (!failed) begin command(8, N, 0); step(); end
      if (!failed) begin command(15, N, 0); step(); end
      if (!failed) begin command(3, 0, 0); step(); end
      if (!failed) begin command(3, N, MemWords - N + 1); step(); end
      if (!failed) begin command(3, N + 1, 0); step(); end
      if (!failed) begin command(0, 4, 0); step(); end
      if (!failed) begin command(7, 6, 0); step(); end
      if (!failed) step();
    end
    started = 1'b0;
    pinet_dpi_ps_free(model);
    pinet_dpi_ps_free(txn);
    if (failed) $fatal(1, "tb_dpi_scoreboard: FAIL");
    $display("PASS ps_network matched %0d cycles seed %0d (%0d memory writes)", matched, seed,
             writes_seen);
    $finish;
  end

endmodule
