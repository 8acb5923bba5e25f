// Copyright pinet contributors.
//
// ps_router: the router of one PE in the static perfect-shuffle network of N = 2^n PEs (paper
// 000, SPEC 2; C model cmodel/include/pinet/shuffle.h, docs/shuffle.md). It holds the PE's word
// memory, runs the seven built-in collectives and the ring exchange step by step
// (store-and-forward, one word per link per cycle) and adds the two halves that meet in it during
// integration. Every PE has the same router; its number Pe comes from the strap pe_i.
//
// Links (the numbering of pinet_shuffle_pe_ports): out 0 / out 1 go to the successors
// 2Pe mod N / 2Pe+1 mod N (channels 2Pe, 2Pe+1), out 2 / out 3 go back to the predecessors
// floor(Pe/2) / floor(Pe/2)+N/2 (channels 2N+Pe, 3N+Pe); in 0 / in 1 come from the predecessors
// (channels Pe, Pe+N), in 2 / in 3 back from the successors (channels 2N+2Pe, 2N+2Pe+1). Link p
// is bits [p*Width +: Width] of *_data and bit p of *_valid; data is 0 whenever valid is 0.
// The ring exchange runs along the built-in ring (pinet_shuffle_ring, Martin's prefer-one walk:
// every ring edge is a forward link); two straps place this PE on it: ring_succ_link_i, the out
// link (0 / 1) to its ring successor, which sends back on in 2 + ring_succ_link_i, and
// ring_pred_link_i, the in link (0 / 1) from its ring predecessor, which this PE answers on
// out 2 + ring_pred_link_i. ps_network derives both from the ring.
// The host port is used on PE 0 only (PE 0 pulls words from the host's memory with a request
// that the host answers in the next cycle, and pushes words up with their address).
//
// Command: cmd_start_i for one cycle with cmd_op_i (ps_pkg::ps_op_e = pinet_shuffle_op),
// cmd_fast_i (0: the paper's schedule, pinet_shuffle_build; 1: the fast one,
// pinet_shuffle_build_fast_typed for int32: the broadcasts, scatter, upload, gather, allgather and
// integrate; the ring exchange has one schedule), cmd_words_i (M) and cmd_base_i (the memory
// address of shared word 0: the collective works on the image [base, base + M) of every memory,
// word w at base + w). Refused commands (see
// ps_pkg::ps_err_e) set err_o and do not start. Status: busy_o during the run, done_o from the
// cycle after its last word until the next command, err_o.
//
// Schedule: derived here, in hardware, from (op, N, M, Pe, step counter, word counter); no
// table is loaded. In the SETUP cycle of a step the planner computes, for the step number s, the
// transfers of this PE (closed forms of docs/shuffle.md section 2, with d = depth of Pe in the
// embedded tree PE 0 -> 1, p -> 2p, 2p+1): for each memory port an offset x * unit and a length
// unit << e, where unit is M >> (k, n + 1 - k or n) or M / n (broadcast packets). Every router
// derives the same step lengths L_s, so all routers stay in lock step without handshakes.
// Fast schedules (docs/shuffle.md section 13) are cut-through: every port also has a start, its
// first cycle in the step. Broadcasts: one step over two arc-disjoint trees, F (forward links,
// words [0, f)) and B (backward links, words [f, M)), starts from the depth of Pe in the tree.
// Scatter, upload, gather: a step per packet of segments on tree F, a part's start = its offset
// in its packet (or half-packet) + its hop delay; gather's first step splits PE 1's segment in
// f and b words the way a broadcast splits M. Allgather and integrate: N/2 steps around the
// built-in ring, both ways (integrate adds what arrives into its own copy: write ports A and B
// read the old word too, and in its last step port A adds both neighbours' words).
//
// Memory ports (MemWords x Width, 2 read + 2 write, and the write ports' addresses read for the
// fast integrate's read-modify-write: 4 read ports; ps_router_mem, flops, a multi-port RAM or
// banks in silicon: the setup cycle also gives a synchronous-read RAM its address cycle for
// word 0):
//   read A : out 0 (tree child 2Pe, integrate's first half), out 2 and out 3 (same words:
//            allgather; fast broadcast: tree B's children; gather to the parent; ring
//            predecessor), host up (upload); the local port when idle
//   read B : out 1 (tree child 2Pe+1 or PE 0's child 1, integrate's second half), or out 0 or
//            out 1 (ring successor), or out 0 and out 1 (fast broadcast: tree F's children),
//            or out 3 (fast gather: PE 1 -> N/2), or out 0 (fast gather: PE N/2 -> 0)
//   write A: in 0, or in 0 + in 1 (integrate: the COPY and the ADD on one address, one adder),
//            or in 2, or the host link, or in 1 (ring predecessor); the local port when idle
//   write B: in 3, or in 2 (ring successor; fast broadcast: tree B's parent)
//   (write A also takes in 1 in the fast gather: PE 0 from PE N/2)
//   fast integrate: write A = old word + in p (+ in 2 + s in the last step), write B = old
//   word + in 2 + s (p, s: the ring straps below)
//
// Cycle contract (docs/shuffle.md section 4, pinet_shuffle_cycle_*): cycle 0 is the cycle after
// the edge that samples an accepted cmd_start_i. Step s occupies cycles B_s .. B_s + L_s; B_s is
// the setup cycle (no link valid); word i of every transfer crosses its link in cycle
// B_s + 1 + start + i in ascending address order (start = 0 in the paper's schedules), read from the memory as it is at the start of the
// cycle and written at the closing edge. done_o is high from cycle T = B_S on.
//
// Local port: the PE's own access to its memory (load inputs, read results, local compute).
// lcl_rdata_o = mem[lcl_addr_i] combinationally; lcl_we_i writes at the edge. Only while not
// busy: during a run the local port's writes are ignored and lcl_rdata_o is not meaningful.
//
// Link check: during a run every input link's valid (and the host link's) must equal what this
// router's own schedule expects; otherwise err_o becomes PsErrLink (sticky until the next
// accepted command) and the run goes on.
//
// Parts (each in its own file, with its own checker in rtl/assert/ and its own proof in formal/):
// ps_router_planner, the planner (pure combinational: the step's length and, per memory port, a
// descriptor of offset, length and start, ps_pkg); ps_router_seq, the step/word sequencer
// (command check and register, step and word counters, status); ps_router_mem, the 4-read
// 2-write word memory. This top registers the plan in each step's setup cycle and holds the
// datapath: addresses, write sources, links, host port, link check.

`include "pinet_param.svh"

module ps_router #(
  parameter int  N        = 8,
  parameter int  Width    = 32,
  parameter int  MemWords = 256,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int PeW      = (N > 1) ? $clog2(N) : 1,
  localparam int CmdW     = ps_pkg::PsCmdWidth
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // This router's PE number and its place on the ring (straps: constant while running)
  input  logic [PeW-1:0]                pe_i,
  input  logic                          ring_succ_link_i,
  input  logic                          ring_pred_link_i,
  // Command and status
  input  logic                          cmd_start_i,
  input  logic [ps_pkg::PsOpWidth-1:0]  cmd_op_i,
  input  logic                          cmd_fast_i,
  input  logic [CmdW-1:0]               cmd_words_i,
  input  logic [CmdW-1:0]               cmd_base_i,
  output logic                          busy_o,
  output logic                          done_o,
  output logic [ps_pkg::PsErrWidth-1:0] err_o,
  // Links: out 0..3 and in 0..3 (see above)
  output logic [3:0]                    out_valid_o,
  output logic [4*Width-1:0]            out_data_o,
  input  logic [3:0]                    in_valid_i,
  input  logic [4*Width-1:0]            in_data_i,
  // Host port (PE 0): request word host_req_addr_o of the host's image for the next cycle ...
  output logic                          host_req_o,
  output logic [AddrW-1:0]              host_req_addr_o,
  // ... which arrives on the host link down (channel 4N) ...
  input  logic                          host_valid_i,
  input  logic [Width-1:0]              host_data_i,
  // ... and words to the host (channel 4N + 1) with their image address.
  output logic                          host_valid_o,
  output logic [Width-1:0]              host_data_o,
  output logic [AddrW-1:0]              host_addr_o,
  // Local port
  input  logic                          lcl_we_i,
  input  logic [AddrW-1:0]              lcl_addr_i,
  input  logic [Width-1:0]              lcl_wdata_i,
  output logic [Width-1:0]              lcl_rdata_o
);

  localparam int LogN  = $clog2(N);             // n
  // M, lengths, starts, the word counter: M <= MemWords, L_s <= M + n (fast bcast-host)
  localparam int CntW  = $clog2(MemWords + LogN + 1);
  // Steps: at most 2n (paper broadcasts) or N/2 (fast allgather)
  localparam int StepW = (LogN > 5) ? LogN : 5;

  // The plan's port descriptors (ps_pkg): port p at [p * DescW +: DescW] of plan_d / plan_q.
  localparam int DescW  = ps_pkg::ps_desc_w(AddrW, CntW);
  localparam int DLen   = ps_pkg::ps_desc_len_lo(AddrW);
  localparam int DStart = ps_pkg::ps_desc_start_lo(AddrW, CntW);
  localparam int PlanW  = ps_pkg::PsPorts * DescW;
  localparam int RdA    = ps_pkg::PsPortRdA;
  localparam int RdB    = ps_pkg::PsPortRdB;
  localparam int WrA    = ps_pkg::PsPortWrA;
  localparam int WrB    = ps_pkg::PsPortWrB;

  // Read port A's targets (bits of rda_to_q): which outputs carry port A's words.
  localparam int ToOut0 = ps_pkg::PsToOut0;
  localparam int ToOut2 = ps_pkg::PsToOut2;
  localparam int ToOut3 = ps_pkg::PsToOut3;
  localparam int ToHost = ps_pkg::PsToHost;

  ///////////////
  // Sequencer //
  ///////////////

  // The sequencer (rtl/ps_router_seq.sv) checks and accepts a command, holds it and counts the
  // run's steps and words; L_s comes from the planner in each step's setup cycle. Its outputs
  // keep the names of its registers here: with the ports they are what a waveform shows of a
  // router (cosim/ps/gen_gtkw.py); the parts are left out of Verilator's trace, which keeps the
  // Verilated network with 64 routers small enough to compile quickly.
  logic                           run_q;      // busy
  logic                           setup_q;    // this cycle is a step's setup cycle
  logic                           done_q;
  logic [StepW-1:0]               step_q;     // step number, 0-based
  logic [CntW-1:0]                word_q;     // word index i within the step
  logic [CntW-1:0]                len_q;      // L_s, the step's length
  logic [ps_pkg::PsErrWidth-1:0]  err_q;
  logic [ps_pkg::PsOpWidth-1:0]   op_q;
  logic                           fast_q;     // the fast schedule
  logic [CntW-1:0]                m_q;        // M
  logic [AddrW-1:0]               base_q;
  // The words on the links, one signal per link (out_data_o / in_data_i cut up).
  logic [Width-1:0]               out0_data, out1_data, out2_data, out3_data;
  logic [Width-1:0]               in0_data, in1_data, in2_data, in3_data;

  /* verilator tracing_off */

  logic            xfer;       // a transfer cycle (word word_q of the step)
  logic            last_word;  // the step's last transfer cycle
  logic            link_bad;
  logic [CntW-1:0] pkt_q;      // M / n: broadcast packet size
  logic [CntW-1:0] fwords_q;   // fast split f
  logic [CntW-1:0] len_d;      // the planner's L_s

  ps_router_seq #(
    .N       (N),
    .MemWords(MemWords)
  ) u_seq (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .cmd_start_i(cmd_start_i),
    .cmd_op_i   (cmd_op_i),
    .cmd_fast_i (cmd_fast_i),
    .cmd_words_i(cmd_words_i),
    .cmd_base_i (cmd_base_i),
    .step_len_i (len_d),
    .link_bad_i (link_bad),
    .run_o      (run_q),
    .setup_o    (setup_q),
    .xfer_o     (xfer),
    .last_word_o(last_word),
    .step_o     (step_q),
    .word_o     (word_q),
    .len_o      (len_q),
    .done_o     (done_q),
    .err_o      (err_q),
    .op_o       (op_q),
    .fast_o     (fast_q),
    .m_o        (m_q),
    .pkt_o      (pkt_q),
    .fwords_o   (fwords_q),
    .base_o     (base_q)
  );

  /////////////
  // Planner //
  /////////////

  // The planner (rtl/ps_router_planner.sv): the plan of step step_q from the accepted command.
  logic [PlanW-1:0] plan_d;
  logic [3:0]       rda_to_d;
  logic [2:0]       rdb_to_d;
  logic             wrb_in2_d;
  logic [2:0]       wra_src_d;
  logic             wra_add3_d;

  ps_router_planner #(
    .N       (N),
    .MemWords(MemWords)
  ) u_planner (
    .pe_i            (pe_i),
    .ring_succ_link_i(ring_succ_link_i),
    .ring_pred_link_i(ring_pred_link_i),
    .op_i            (op_q),
    .fast_i          (fast_q),
    .m_i             (m_q),
    .pkt_i           (pkt_q),
    .fwords_i        (fwords_q),
    .step_i          (step_q),
    .len_o           (len_d),
    .desc_o          (plan_d),
    .rda_to_o        (rda_to_d),
    .rdb_to_o        (rdb_to_d),
    .wrb_in2_o       (wrb_in2_d),
    .wra_src_o       (wra_src_d),
    .wra_add3_o      (wra_add3_d)
  );

  ////////////////////
  // Plan registers //
  ////////////////////

  // The plan of the current step, loaded in its setup cycle: the four ports' descriptors and
  // the targets and sources.
  logic [PlanW-1:0] plan_q;
  logic [3:0]       rda_to_q;
  logic [2:0]       rdb_to_q;    // read port B drives {out 3, out 1, out 0}
  logic             wrb_in2_q;   // write port B takes in 2 instead of in 3 (ring, tree B)
  logic [2:0]       wra_src_q;   // write A's source (ps_pkg::ps_src_e)
  logic             wra_add3_q;  // write A also adds write B's input link

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      plan_q     <= '0;
      rda_to_q   <= '0;
      rdb_to_q   <= 3'b010;
      wrb_in2_q  <= 1'b0;
      wra_src_q  <= ps_pkg::SrcIn0;
      wra_add3_q <= 1'b0;
    end else if (run_q && setup_q) begin
      plan_q     <= plan_d;
      rda_to_q   <= rda_to_d;
      rdb_to_q   <= rdb_to_d;
      wrb_in2_q  <= wrb_in2_d;
      wra_src_q  <= wra_src_d;
      wra_add3_q <= wra_add3_d;
    end
  end

  ////////////////////
  // Memory access  //
  ////////////////////

  // Per port (RdA .. WrB): a port moves word i = word_q - start in the cycles
  // start <= word_q < start + length, at base + offset + i (valid commands keep it below
  // MemWords).
  logic [3:0]         act;
  logic [4*AddrW-1:0] plan_off;    // the registered descriptors' fields
  logic [4*CntW-1:0]  plan_len;
  logic [4*CntW-1:0]  plan_start;
  logic [4*AddrW-1:0] port_addr;
  for (genvar p = 0; p < 4; p++) begin : g_port
    logic [CntW-1:0] i;  // word index within the transfer
    assign plan_off[p*AddrW +: AddrW] = plan_q[p*DescW + ps_pkg::PsDescOffLo +: AddrW];
    assign plan_len[p*CntW +: CntW]   = plan_q[p*DescW + DLen +: CntW];
    assign plan_start[p*CntW +: CntW] = plan_q[p*DescW + DStart +: CntW];
    assign i                          = word_q - plan_start[p*CntW +: CntW];
    assign act[p]                     = xfer && (word_q >= plan_start[p*CntW +: CntW]) &&
                                        (i < plan_len[p*CntW +: CntW]);
    assign port_addr[p*AddrW +: AddrW] = base_q + plan_off[p*AddrW +: AddrW] + AddrW'(i);
  end

  logic             rda_act, rdb_act, wra_act, wrb_act;
  logic [AddrW-1:0] rda_addr, rdb_addr, wra_addr, wrb_addr;
  logic [Width-1:0] rda_data, rdb_data, wra_data;
  logic [Width-1:0] in_succ;             // write B's input link: in 2 or in 3
  logic             rmw;                 // the write ports add the old word (fast integrate)
  logic [Width-1:0] wra_word, wrb_word;  // what the write ports store
  logic [Width-1:0] wra_old, wrb_old;    // the words at the write ports' addresses
  logic             mem_wa_en;
  logic [AddrW-1:0] mem_wa_addr;
  logic [Width-1:0] mem_wa_data;

  assign rda_act  = act[RdA];
  assign rdb_act  = act[RdB];
  assign wra_act  = act[WrA];
  assign wrb_act  = act[WrB];
  // Read port A serves the local port while idle.
  assign rda_addr = run_q ? port_addr[RdA*AddrW +: AddrW] : lcl_addr_i;
  assign rdb_addr = port_addr[RdB*AddrW +: AddrW];
  assign wra_addr = port_addr[WrA*AddrW +: AddrW];
  assign wrb_addr = port_addr[WrB*AddrW +: AddrW];

  assign in0_data = in_data_i[0*Width +: Width];
  assign in1_data = in_data_i[1*Width +: Width];
  assign in2_data = in_data_i[2*Width +: Width];
  assign in3_data = in_data_i[3*Width +: Width];

  always_comb begin
    wra_data = in0_data;
    unique case (wra_src_q)
      ps_pkg::SrcIn0:  wra_data = in0_data;
      ps_pkg::SrcIn01: wra_data = in0_data + in1_data;  // the integration adder
      ps_pkg::SrcIn2:  wra_data = in2_data;
      ps_pkg::SrcHost: wra_data = host_data_i;
      ps_pkg::SrcIn1:  wra_data = in1_data;
      /* verilator coverage_off */ // the planner sets only the five sources above
      default:         wra_data = in0_data;
      /* verilator coverage_on */
    endcase
  end

  // ADD (fast integrate, the whole run): the old word at the write address plus the incoming
  // one; in its last step write A adds both neighbours' words (write B idle).
  assign rmw      = fast_q && op_q == ps_pkg::OpIntegrate;
  assign in_succ  = wrb_in2_q ? in2_data : in3_data;
  assign wra_word = wra_data + (rmw ? wra_old : '0) + (wra_add3_q ? in_succ : '0);
  assign wrb_word = in_succ + (rmw ? wrb_old : '0);

  // Write port A serves the local port while idle.
  assign mem_wa_en   = run_q ? wra_act : lcl_we_i;
  assign mem_wa_addr = run_q ? wra_addr : lcl_addr_i;
  assign mem_wa_data = run_q ? wra_word : lcl_wdata_i;

  // The memory (rtl/ps_router_mem.sv): MemWords words, no reset (a RAM). Its write ports read
  // their old words too (the read-modify-write above).
  ps_router_mem #(
    .Width   (Width),
    .MemWords(MemWords)
  ) u_mem (
    .clk_i     (clk_i),
    .rda_addr_i(rda_addr),
    .rda_data_o(rda_data),
    .rdb_addr_i(rdb_addr),
    .rdb_data_o(rdb_data),
    .wra_en_i  (mem_wa_en),
    .wra_addr_i(mem_wa_addr),
    .wra_data_i(mem_wa_data),
    .wra_old_o (wra_old),
    .wrb_en_i  (wrb_act),
    .wrb_addr_i(wrb_addr),
    .wrb_data_i(wrb_word),
    .wrb_old_o (wrb_old)
  );

  /////////////
  // Outputs //
  /////////////

  logic [3:0] out_valid;

  assign out_valid[0] = (rda_act && rda_to_q[ToOut0]) || (rdb_act && rdb_to_q[0]);
  assign out_valid[1] = rdb_act && rdb_to_q[1];
  assign out_valid[2] = rda_act && rda_to_q[ToOut2];
  assign out_valid[3] = (rda_act && rda_to_q[ToOut3]) || (rdb_act && rdb_to_q[2]);
  assign out_valid_o  = out_valid;

  assign out0_data  = !out_valid[0] ? '0 : rdb_to_q[0] ? rdb_data : rda_data;
  assign out1_data  = out_valid[1] ? rdb_data : '0;
  assign out2_data  = out_valid[2] ? rda_data : '0;
  assign out3_data  = !out_valid[3] ? '0 : rdb_to_q[2] ? rdb_data : rda_data;
  assign out_data_o = {out3_data, out2_data, out1_data, out0_data};

  assign host_valid_o = rda_act && rda_to_q[ToHost];
  assign host_data_o  = host_valid_o ? rda_data : '0;
  logic [AddrW-1:0] rda_off_q, rda_rel;  // read A's offset and its word's index
  assign rda_off_q    = plan_off[RdA*AddrW +: AddrW];
  assign rda_rel      = AddrW'(word_q - plan_start[RdA*CntW +: CntW]);
  assign host_addr_o  = host_valid_o ? rda_off_q + AddrW'(rda_rel) : '0;

  // Host requests run one cycle ahead of the words: word 0 in the setup cycle (from the plan
  // being computed), word i + 1 in the cycle of word i. (A host write always has start 0: the
  // host link is the first hop of every schedule that uses it.)
  logic             wra_host_d, wra_host_q;
  logic [AddrW-1:0] wra_off_d, wra_off_q;
  logic [CntW-1:0]  wra_len_d, wra_len_q;
  logic [CntW-1:0]  host_next;  // the index of the next cycle's word
  assign wra_off_d  = plan_d[WrA*DescW + ps_pkg::PsDescOffLo +: AddrW];
  assign wra_len_d  = plan_d[WrA*DescW + DLen +: CntW];
  assign wra_off_q  = plan_off[WrA*AddrW +: AddrW];
  assign wra_len_q  = plan_len[WrA*CntW +: CntW];
  assign wra_host_d = (wra_src_d == ps_pkg::SrcHost) && (wra_len_d != '0);
  assign wra_host_q = (wra_src_q == ps_pkg::SrcHost);
  assign host_next  = word_q + CntW'(1);

  always_comb begin
    host_req_o      = 1'b0;
    host_req_addr_o = '0;
    if (run_q && setup_q && wra_host_d) begin
      host_req_o      = 1'b1;
      host_req_addr_o = wra_off_d;
    end else if (xfer && wra_host_q && (host_next < wra_len_q)) begin
      host_req_o      = 1'b1;
      host_req_addr_o = wra_off_q + AddrW'(host_next);
    end
  end

  assign lcl_rdata_o = rda_data;

  assign busy_o = run_q;
  assign done_o = done_q;
  assign err_o  = err_q;

  ////////////////
  // Link check //
  ////////////////

  logic [4:0] in_expect;   // {host, in 3, in 2, in 1, in 0}
  logic       succ_act;

  assign in_expect[0] = wra_act && (wra_src_q == ps_pkg::SrcIn0 || wra_src_q == ps_pkg::SrcIn01);
  assign in_expect[1] = wra_act && (wra_src_q == ps_pkg::SrcIn01 || wra_src_q == ps_pkg::SrcIn1);
  assign succ_act     = wrb_act || (wra_act && wra_add3_q);  // in_succ carries a word
  assign in_expect[2] = (wra_act && (wra_src_q == ps_pkg::SrcIn2)) || (succ_act && wrb_in2_q);
  assign in_expect[3] = succ_act && !wrb_in2_q;
  assign in_expect[4] = wra_act && (wra_src_q == ps_pkg::SrcHost);
  assign link_bad     = ({host_valid_i, in_valid_i} != in_expect);

  ////////////////
  // Parameters //
  ////////////////

  // ps_network's parameters are checked here, in each of its routers.
  // The parameter ranges a registered run or proof covers at both ends (docs/verification.md,
  // "Parameter ranges": widening one means adding its run). Icarus 11 has no elaboration-time
  // $error: there the checks run at time 0.
  if (N < 2 || N > 256 || (N & (N - 1)) != 0) begin : g_bad_n
    `PINET_PARAM_RANGE_ERROR("ps_router: N outside its verified range: a power of two in [2, 256]")
  end
  if (MemWords < N || MemWords > 524288) begin : g_bad_memwords
    `PINET_PARAM_RANGE_ERROR("ps_router: MemWords outside its verified range: [N, 524288]")
  end
  if (Width < 2 || Width > 32) begin : g_bad_width
    `PINET_PARAM_RANGE_ERROR("ps_router: Width outside its verified range: [2, 32]")
  end

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/ps_router_assert.sv (status and link protocol, no two writes to one
  // address, no transfer beyond its step): bound to this module in the Verilator builds
  // (rtl/assert/ps_router_bind.sv); yosys ignores bind, so the formal flow instantiates it here.
`ifdef FORMAL
  ps_router_assert #(
    .Width   (Width),
    .AddrW   (AddrW),
    .CntW    (CntW)
  ) u_assert (.*);
`endif

  /* verilator tracing_on */

endmodule
