// Copyright pinet contributors.
//
// ps_network: the static perfect-shuffle network of N = 2^n PEs (paper 000, SPEC 2): N ps_router
// instances (g_pe[j].u_router) wired as the binary de Bruijn graph, the host port on PE 0.
//
// Channels (the numbering of cmodel/include/pinet/shuffle.h, 4N + 2 in all); every one is
// visible on ch_valid_o / ch_data_o (channel c: bit c, bits [c*Width +: Width]):
//   c = l      (0 <= l < 2N)  forward link l: PE floor(l/2) out (l mod 2) -> PE l mod N
//                              in (0 if l < N, else 1)
//   c = 2N + l (0 <= l < 2N)  the same link backward: PE l mod N out (2 if l < N, else 3) ->
//                              PE floor(l/2) in (2 + l mod 2)
//   c = 4N                     host -> PE 0 (host_valid_i / host_data_i, passed through)
//   c = 4N + 1                 PE 0 -> host (host_valid_o / host_data_o)
// The self-loops (links 0 and 2N - 1) are channels like the others: PE 0's out 0 feeds its own
// in 0, PE N-1's out 1 its own in 1.
//
// Command: one command bus for all routers (they decode it alike and run in lock step):
// cmd_start_i, cmd_op_i, cmd_fast_i (0: the paper's schedule, 1: the fast one; see ps_router),
// cmd_words_i (M), cmd_base_i; busy_o = any router busy, done_o = every
// router done, err_o = PE 0's code, or PsErrLink if any router saw a link disagree with its
// schedule. The cycle contract is ps_router's (docs/shuffle.md section 4).
//
// Host port (PE 0): host_req_o / host_req_addr_o ask for word host_req_addr_o of the host's
// image, which the host must drive on host_valid_i / host_data_i in the next cycle; host_valid_o
// / host_data_o / host_addr_o carry words up to the host with their image address.
//
// Local ports: PE j's processor side, one address for all PEs (lcl_addr_i): lcl_we_i[j] writes
// word j of lcl_wdata_i into PE j's memory at the edge; word j of lcl_rdata_o is PE j's
// mem[lcl_addr_i], combinationally. Use them while the network is not busy (load inputs, read
// every memory back at the end of a run, local computation).

`include "pinet_param.svh"

module ps_network #(
  parameter int  N        = 8,
  parameter int  Width    = 32,
  parameter int  MemWords = 256,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int Channels = 4 * N + 2,
  localparam int CmdW     = ps_pkg::PsCmdWidth
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // Command and status
  input  logic                          cmd_start_i,
  input  logic [ps_pkg::PsOpWidth-1:0]  cmd_op_i,
  input  logic                          cmd_fast_i,
  input  logic [CmdW-1:0]               cmd_words_i,
  input  logic [CmdW-1:0]               cmd_base_i,
  output logic                          busy_o,
  output logic                          done_o,
  output logic [ps_pkg::PsErrWidth-1:0] err_o,
  // Host port
  output logic                          host_req_o,
  output logic [AddrW-1:0]              host_req_addr_o,
  input  logic                          host_valid_i,
  input  logic [Width-1:0]              host_data_i,
  output logic                          host_valid_o,
  output logic [Width-1:0]              host_data_o,
  output logic [AddrW-1:0]              host_addr_o,
  // Local ports
  input  logic [N-1:0]                  lcl_we_i,
  input  logic [AddrW-1:0]              lcl_addr_i,
  input  logic [N*Width-1:0]            lcl_wdata_i,
  output logic [N*Width-1:0]            lcl_rdata_o,
  // Every channel
  output logic [Channels-1:0]           ch_valid_o,
  output logic [Channels*Width-1:0]     ch_data_o
);

  localparam int ErrW = ps_pkg::PsErrWidth;
  localparam int PeW  = (N > 1) ? $clog2(N) : 1;

  // Per-router signals. The link and local-port words are unpacked arrays gathered into the flat
  // output vectors by always_comb loops: Verilator's DFG pass would turn a flat vector assigned
  // slice by slice into a chain of ever wider concatenations (quadratic in N, whatever its
  // -fno-dfg position). They repeat the channels and ports, so they are left out of the trace.
  /* verilator tracing_off */

  logic [N-1:0]       busy;
  logic [N-1:0]       done;
  logic [N*ErrW-1:0]  err;
  logic [3:0]         out_valid [N];   // router j's out 0..3
  logic [4*Width-1:0] out_data  [N];
  logic [Width-1:0]   lcl_rdata [N];
  // Constant in a correct network: link_err is 0 unless a link breaks (the fault tests and the
  // formal err group cover it), routers 1 .. N-1 keep their host outputs 0 (asserted by
  // rtl/assert/ps_network_assert.sv), and router 0's are the host ports, whose toggles count there.
  /* verilator coverage_off */ // 0 in a correct network, or copies of the host ports (see above)
  logic [N-1:0]       link_err;
  logic [N-1:0]       host_req;
  logic [N-1:0]       host_up_valid;
  logic [AddrW-1:0]   host_req_addr [N];
  logic [Width-1:0]   host_up_data  [N];
  logic [AddrW-1:0]   host_up_addr  [N];
  // Routers 1 .. N-1 never use their host port: only the checker reads their bits, so they are
  // folded here for the RTL alone (PINET_ASSERT_CHECKERS=OFF, yosys, Icarus) to stay -Wall clean.
  logic               unused_host_ports;
  /* verilator coverage_on */

  /* verilator tracing_on */

  // Link-fault injection, in the cosims only (cosim/ps/CMakeLists.txt defines
  // PINET_LINK_FAULT_HOOK for cosim_ps_network's models): bit c (c < 4N) inverts the valid bit of
  // channel c on its wire. ch_valid_o shows the inverted bit and the channel's receiving router
  // reads it: a word appears where the schedule has none, or a scheduled one vanishes (its data,
  // the sender's, is still written), and that router's link check answers err_o = LINK. The
  // harness writes the variable through Verilator's public access before each evaluation
  // (ps_cosim.h drive_link_fault), so the module's ports stay those of every other build (yosys,
  // Icarus, the systems, verify.sh --rtl copies); elsewhere it is the constant 0.
`ifdef PINET_LINK_FAULT_HOOK
  /* verilator lint_off UNDRIVEN */
  /* verilator coverage_off */ // stimulus, not design: a bit toggles only when the harness draws it
  logic [4*N-1:0] link_fault /* verilator public_flat_rw */;
  /* verilator coverage_on */
  /* verilator lint_on UNDRIVEN */
`else
  localparam logic [4*N-1:0] link_fault = '0;
`endif

  //////////////
  // Channels //
  //////////////

  always_comb begin
    for (int j = 0; j < N; j++) begin
      // Router j's out 0..3 drive forward channels 2j, 2j + 1 and backward channels 2N + j,
      // 3N + j (through the link-fault injection above).
      {ch_valid_o[3*N + j], ch_valid_o[2*N + j], ch_valid_o[2*j + 1], ch_valid_o[2*j]} =
          out_valid[j] ^ {link_fault[3*N + j], link_fault[2*N + j], link_fault[2*j + 1],
                          link_fault[2*j]};
      {ch_data_o[(3*N + j)*Width +: Width], ch_data_o[(2*N + j)*Width +: Width],
       ch_data_o[(2*j + 1)*Width +: Width], ch_data_o[(2*j)*Width +: Width]} = out_data[j];
    end
    // The host link: down is driven by the host, up by PE 0.
    ch_valid_o[4*N]                     = host_valid_i;
    ch_data_o[(4*N)*Width +: Width]     = host_data_i;
    ch_valid_o[4*N + 1]                 = host_valid_o;
    ch_data_o[(4*N + 1)*Width +: Width] = host_data_o;
  end

  always_comb begin
    for (int j = 0; j < N; j++) begin
      lcl_rdata_o[j*Width +: Width] = lcl_rdata[j];
    end
  end

  //////////
  // Ring //
  //////////

  // The built-in ring of the ring exchange (the C model's pinet_shuffle_ring, Martin's prefer-one
  // walk: from x go to 2x + 1 mod N if not yet visited, else to 2x mod N; it closes from N/2 back
  // to 0), as each router's two straps: bit j is the LSB of PE j's ring successor (its out link
  // to it), bit N + j the MSB of PE j's ring predecessor (its in link from it). For N = 2 the
  // walk gives the ring 0, 1: each PE is the other's successor and predecessor, and the four
  // transfers take the four links that join them.
  /* verilator coverage_off */ // constant function: called for a localparam at elaboration only
  function automatic logic [2*N-1:0] ring_straps();
    logic [N-1:0]   seen;
    logic [2*N-1:0] straps;
    int             x;
    int             y;
    seen    = '0;
    straps  = '0;
    x       = 0;
    seen[0] = 1'b1;
    for (int k = 0; k < N; k++) begin
      y = (2 * x + 1) % N;
      if (seen[y]) y = (2 * x) % N;
      seen[y]       = 1'b1;
      straps[x]     = y[0];
      straps[N + y] = (x >= N / 2);
      x             = y;
    end
    ring_straps = straps;
  endfunction
  /* verilator coverage_on */

  localparam logic [2*N-1:0] RingStraps = ring_straps();
  localparam bit NOk        = N >= 2 && N <= 256 && (N & (N - 1)) == 0;
  localparam bit MemWordsOk = MemWords >= N && MemWords <= 524288;
  localparam bit WidthOk    = Width >= 2 && Width <= 32;
  localparam bit ParamsOk   = NOk && MemWordsOk && WidthOk;

  /////////////
  // Routers //
  /////////////

  // Out of the verified range (the checks at the end) no router is instantiated: elaboration
  // stops at once on the network's range error instead of building hundreds of routers.
  for (genvar k = 0; k < (ParamsOk ? N : 0); k++) begin : g_pe
    // The host link reaches PE 0 only.
    logic             pe_host_valid;
    logic [Width-1:0] pe_host_data;
    if (k == 0) begin : g_host
      assign pe_host_valid = host_valid_i;
      assign pe_host_data  = host_data_i;
    end else begin : g_no_host
      assign pe_host_valid = 1'b0;
      assign pe_host_data  = '0;
    end
    ps_router #(
      .N       (N),
      .Width   (Width),
      .MemWords(MemWords)
    ) u_router (
      .clk_i          (clk_i),
      .rst_ni         (rst_ni),
      .pe_i           (PeW'(k)),
      .ring_succ_link_i(RingStraps[k]),
      .ring_pred_link_i(RingStraps[N + k]),
      .cmd_start_i    (cmd_start_i),
      .cmd_op_i       (cmd_op_i),
      .cmd_fast_i     (cmd_fast_i),
      .cmd_words_i    (cmd_words_i),
      .cmd_base_i     (cmd_base_i),
      .busy_o         (busy[k]),
      .done_o         (done[k]),
      .err_o          (err[k*ErrW +: ErrW]),
      .out_valid_o    (out_valid[k]),
      .out_data_o     (out_data[k]),
      // In 0 = channel k, in 1 = channel k + N (from the predecessors); in 2 / in 3 =
      // channels 2N + 2k, 2N + 2k + 1 (back from the successors).
      .in_valid_i     ({ch_valid_o[2*N + 2*k + 1], ch_valid_o[2*N + 2*k], ch_valid_o[k + N],
                        ch_valid_o[k]}),
      .in_data_i      ({ch_data_o[(2*N + 2*k + 1)*Width +: Width],
                        ch_data_o[(2*N + 2*k)*Width +: Width],
                        ch_data_o[(k + N)*Width +: Width],
                        ch_data_o[k*Width +: Width]}),
      .host_req_o     (host_req[k]),
      .host_req_addr_o(host_req_addr[k]),
      .host_valid_i   (pe_host_valid),
      .host_data_i    (pe_host_data),
      .host_valid_o   (host_up_valid[k]),
      .host_data_o    (host_up_data[k]),
      .host_addr_o    (host_up_addr[k]),
      .lcl_we_i       (lcl_we_i[k]),
      .lcl_addr_i     (lcl_addr_i),
      .lcl_wdata_i    (lcl_wdata_i[k*Width +: Width]),
      .lcl_rdata_o    (lcl_rdata[k])
    );
    assign link_err[k] = (err[k*ErrW +: ErrW] == ps_pkg::PsErrLink);
  end

  // Only PE 0 is wired to the host; the other routers' host outputs stay 0 by their schedule.
  assign unused_host_ports = ^{host_req[N-1:1], host_up_valid[N-1:1]};
  assign host_req_o      = host_req[0];
  assign host_req_addr_o = host_req_addr[0];
  assign host_valid_o    = host_up_valid[0];
  assign host_data_o     = host_up_data[0];
  assign host_addr_o     = host_up_addr[0];

  ////////////
  // Status //
  ////////////

  assign busy_o = |busy;
  assign done_o = &done;
  assign err_o  = (|link_err) ? ps_pkg::PsErrLink : err[0 +: ErrW];

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/ps_network_assert.sv (status, channels, the routers agree): bound to
  // this module in the builds by Verilator (rtl/assert/ps_network_bind.sv); yosys ignores bind, so
  // the formal flow instantiates it here.
`ifdef FORMAL
  ps_network_assert #(
    .N(N)
  ) u_assert (.*);
`endif

  ////////////////
  // Parameters //
  ////////////////

  // The ranges a registered run or proof covers at both ends (docs/verification.md, "Parameter
  // ranges"), as each ps_router checks them. Icarus 11 has no elaboration-time $error: there the
  // checks run at time 0.
  if (!NOk) begin : g_bad_n
    `PINET_PARAM_RANGE_ERROR("ps_network: N outside its verified range: a power of two in [2, 256]")
  end
  if (!MemWordsOk) begin : g_bad_memwords
    `PINET_PARAM_RANGE_ERROR("ps_network: MemWords outside its verified range: [N, 524288]")
  end
  if (!WidthOk) begin : g_bad_width
    `PINET_PARAM_RANGE_ERROR("ps_network: Width outside its verified range: [2, 32]")
  end

endmodule
