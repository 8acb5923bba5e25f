// Copyright pinet contributors.
//
// ps_network_formal: formal properties of rtl/ps_network.sv (N routers as the de Bruijn graph,
// docs/formal.md), read by scripts/formal.sh with yosys -formal. One property group per
// `ifdef CHECK_<GROUP>`. The expected behaviour comes from formal/ps_network_spec.sv (written
// from docs/shuffle.md per channel, not from the RTL), which follows the command bus and counts
// the cycles of the run itself. (tests/formal/check_shuffle_spec.py compares the specification
// with the C model's schedules; the cosim compares the RTL with the C model's pinet_shuffle_cycle_*
// every cycle, and these proofs compare the RTL with the specification in every reachable state.)
//
// Environment (3 assumptions): reset (rst_ni low) in the first cycle; the host answers: the host
// link down (host_valid_i) is valid in a cycle exactly when the network requested a word in the
// cycle before (host_req_o, rst_ni high), as docs/shuffle.md section 10 says the host does; for
// `words` the tracked address f_addr is a memory address (< MemWords). Everything else is free
// in every cycle: rst_ni after the first cycle (a reset at any time, also in the middle of a
// run), every command input (all 32 bits of M and base, any op, also while busy), the host's
// words, the local ports (writes and the read address), and the memories' initial contents.
//
// Groups (each proven by ABC's pdr for every reachable state, docs/formal.md; scripts/formal.sh
// proves them together, err+done+links+words+result+checker: each is a lemma for the others).
// cmd_fast_i is free in every group: the paper's and the fast schedules (docs/shuffle.md
// section 13), any mix.
// links, words, done and err compare with ps_network_spec, which models both; checker proves
// the RTL's own assertion checkers (rtl/assert/ps_network_assert.sv and each router's
// ps_router_assert.sv, which the other groups prove too).
//   links  in every cycle every channel except the host's input carries a word (valid) exactly
//          when the specification puts word i of a transfer of the current step on it, and 0
//          data when not valid; host_req_o / host_req_addr_o ask for the host word of the next
//          cycle and host_addr_o names the word going up. Also the specification's own
//          consistency: no transfer ends after its step (start + length <= L_s), and one ends
//          with it.
//   words  no word lost or duplicated, and each the right one: for an arbitrary memory address
//          f_addr, a shadow of every PE's word there (taken from the local port while idle, then
//          updated from the channels by the specification's transfers: COPY, then ADD) equals
//          the word every channel carries from that address, and the local port reads back the
//          shadow whenever the network is idle.
//   done   busy_o exactly in cycles 0 .. T-1 of an accepted command and done_o from cycle T
//          until the next command, T by docs/shuffle.md section 4's (paper) or section 13's (fast)
//          formula for the op (never before; commands while busy neither stop nor restart the
//          run). Also: the formula equals the sum of the specification's steps, B_{S+1}.
//   err    err_o is the specification's: OK after reset and after an accepted command, the first
//          failing check's code after a refused one, BUSY after a command while busy, and
//          otherwise unchanged: sticky. It is never LINK: every word a router sends is one its
//          receiver expects and no receiver expects a word that is not sent.

module ps_network_formal #(
  parameter int  N        = 4,
  parameter int  Width    = 8,
  parameter int  MemWords = 8,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int LogN     = $clog2(N),
  localparam int Channels = 4 * N + 2,
  localparam int VW       = $clog2(MemWords + 1) + 1,
  localparam int TW       = $clog2(2 * MemWords + 2 * $clog2(N) + 2) + 1,
  localparam int CmdW     = ps_pkg::PsCmdWidth
) (
  input logic                         clk_i,
  input logic                         rst_ni,
  input logic                         cmd_start_i,
  input logic [ps_pkg::PsOpWidth-1:0] cmd_op_i,
  input logic [CmdW-1:0]              cmd_words_i,
  input logic [CmdW-1:0]              cmd_base_i,
  input logic                         host_valid_i,
  input logic [Width-1:0]             host_data_i,
  input logic [N-1:0]                 lcl_we_i,
  input logic [AddrW-1:0]             lcl_addr_i,
  input logic [N*Width-1:0]           lcl_wdata_i,
  input logic                         cmd_fast_i
);

  logic                          busy, done;
  logic [ps_pkg::PsErrWidth-1:0] err;
  logic                          host_req, host_valid_up;
  logic [AddrW-1:0]              host_req_addr, host_addr;
  logic [Width-1:0]              host_data_up;
  logic [N*Width-1:0]            lcl_rdata;
  logic [Channels-1:0]           ch_valid;
  logic [Channels*Width-1:0]     ch_data;

  // The schedule: cmd_fast_i is free in every cycle, in every group (both schedules, any mix);
  // ps_network_spec models the paper's and the fast ones (docs/shuffle.md section 13).
  logic f_fast;
  assign f_fast = cmd_fast_i;

  ps_network #(
    .N       (N),
    .Width   (Width),
    .MemWords(MemWords)
  ) u_dut (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_start_i    (cmd_start_i),
    .cmd_op_i       (cmd_op_i),
    .cmd_fast_i     (f_fast),
    .cmd_words_i    (cmd_words_i),
    .cmd_base_i     (cmd_base_i),
    .busy_o         (busy),
    .done_o         (done),
    .err_o          (err),
    .host_req_o     (host_req),
    .host_req_addr_o(host_req_addr),
    .host_valid_i   (host_valid_i),
    .host_data_i    (host_data_i),
    .host_valid_o   (host_valid_up),
    .host_data_o    (host_data_up),
    .host_addr_o    (host_addr),
    .lcl_we_i       (lcl_we_i),
    .lcl_addr_i     (lcl_addr_i),
    .lcl_wdata_i    (lcl_wdata_i),
    .lcl_rdata_o    (lcl_rdata),
    .ch_valid_o     (ch_valid),
    .ch_data_o      (ch_data)
  );

  logic                          s_busy, s_done, s_setup, s_req;
  logic [ps_pkg::PsErrWidth-1:0] s_err, s_code;
  logic [AddrW-1:0]              s_base;
  logic [Channels-1:0]           s_valid, s_add;
  logic [Channels*VW-1:0]        s_src, s_dst, s_len, s_start;
  logic [VW-1:0]                 s_step_len, s_req_addr;
  logic [TW-1:0]                 s_total, s_t;
  logic                          s_end;
  logic [2*N-1:0]                s_ring;

  ps_network_spec #(
    .N       (N),
    .MemWords(MemWords)
  ) u_spec (
    .clk_i          (clk_i),
    .rst_ni         (rst_ni),
    .cmd_start_i    (cmd_start_i),
    .cmd_op_i       (cmd_op_i),
    .cmd_words_i    (cmd_words_i),
    .cmd_base_i     (cmd_base_i),
    .cmd_fast_i     (f_fast),
    .link_bad_i     (1'b0),
    .busy_o         (s_busy),
    .done_o         (s_done),
    .err_o          (s_err),
    .cmd_code_o     (s_code),
    .base_o         (s_base),
    .fast_o         (),
    .t_o            (s_t),
    .step_o         (),
    .setup_o        (s_setup),
    .valid_o        (s_valid),
    .src_o          (s_src),
    .dst_o          (s_dst),
    .add_o          (s_add),
    .len_o          (s_len),
    .start_o        (s_start),
    .step_len_o     (s_step_len),
    .host_req_o     (s_req),
    .host_req_addr_o(s_req_addr),
    .t_total_o      (s_total),
    .end_o          (s_end),
    .ring_o         (s_ring)
  );

  /////////////////
  // Environment //
  /////////////////

  logic f_first = 1'b1;     // the first cycle (an initialised register: BMC's initial state)
  logic f_host_due = 1'b0;  // the network requested a host word in the previous cycle
  always @(posedge clk_i) begin
    f_first    <= 1'b0;
    f_host_due <= rst_ni && host_req;
  end

  // The host answers each request in the next cycle, and sends nothing else. Not for the covers
  // (scripts/formal.sh cover rows): there the host link is free, so that a stray host word, a
  // link error, is reachable as in the cosims' link-fault stimulus.
  always @(*) begin
    if (f_first) assume (!rst_ni);
`ifndef PINET_FORMAL_COVER
    assume (host_valid_i == f_host_due);
`endif
  end

  ////////////////
  // Properties //
  ////////////////

`ifdef CHECK_LINKS
  // Every channel but the host's input (channel 4N, driven by the environment).
  for (genvar c = 0; c < Channels; c++) begin : g_link
    if (c != 4 * N) begin : g_out
      always @(*) begin
        assert (ch_valid[c] == s_valid[c]);
        if (!ch_valid[c]) assert (ch_data[c*Width +: Width] == '0);
      end
    end
    // The specification's steps: no transfer ends after its step (start + length <= L_s;
    // start + length computed in VW + 1 bits).
    always @(*) begin
      if (s_busy && s_len[c*VW +: VW] != '0) begin
        assert ({1'b0, s_start[c*VW +: VW]} + {1'b0, s_len[c*VW +: VW]} <= {1'b0, s_step_len});
      end
    end
  end

  logic [Channels-1:0] f_fills;  // the channel's transfer ends with its step
  for (genvar c = 0; c < Channels; c++) begin : g_fill
    assign f_fills[c] = (s_len[c*VW +: VW] != '0) &&
                        ({1'b0, s_start[c*VW +: VW]} + {1'b0, s_len[c*VW +: VW]} ==
                         {1'b0, s_step_len});
  end

  always @(*) begin
    assert (host_req == s_req);
    assert (host_req_addr == (s_req ? AddrW'(s_req_addr) : '0));
    assert (host_addr == (s_valid[4*N+1] ? AddrW'(s_dst[(4*N+1)*VW +: VW]) : '0));
    if (s_busy) assert (f_fills != '0);
  end
`endif

// (The result group proves the words group's properties too: their shadow is its lemma.)
`ifdef CHECK_RESULT
`ifndef CHECK_WORDS
`define CHECK_WORDS
`endif
`endif
`ifdef CHECK_WORDS
  (* anyconst *) logic [AddrW-1:0] f_addr;  // the tracked memory address
  logic [N*Width-1:0] f_shadow;               // every PE's word at f_addr
  logic               f_known = 1'b0;         // f_shadow has been read through the local port
  logic [N*Width-1:0] f_next;

  // (In AddrW + 1 bits: AddrW'(MemWords) is 0 when MemWords is a power of two.)
  always @(*) begin
    assume ({1'b0, f_addr} < (AddrW + 1)'(MemWords));
  end

  // The channel's source / destination memory address is f_addr.
  logic [Channels-1:0] f_from, f_to;
  for (genvar c = 0; c < Channels; c++) begin : g_hit
    assign f_from[c] = s_valid[c] && (VW'(s_base) + s_src[c*VW +: VW] == VW'(f_addr));
    assign f_to[c]   = s_valid[c] && (VW'(s_base) + s_dst[c*VW +: VW] == VW'(f_addr));
  end

  // The channels of PE j's words: forward c < 2N from floor(c/2) to c mod N, backward 2N + l
  // from l mod N to floor(l/2), the host link down into PE 0 and up from PE 0.
  function automatic int src_pe(int c);
    src_pe = (c < 2 * N) ? c / 2 : (c < 4 * N) ? (c - 2 * N) % N : 0;
  endfunction
  function automatic int dst_pe(int c);
    dst_pe = (c < 2 * N) ? c % N : (c < 4 * N) ? (c - 2 * N) / 2 : 0;
  endfunction

  // Words leaving f_addr carry the shadow (the host's own words, channel 4N, are its own).
  for (genvar c = 0; c < Channels; c++) begin : g_from
    if (c != 4 * N) begin : g_pe
      always @(*) begin
        if (s_busy && f_known && f_from[c]) begin
          assert (ch_data[c*Width +: Width] == f_shadow[src_pe(c)*Width +: Width]);
        end
      end
    end
  end

  // Words arriving at f_addr: COPY first, then ADD (integration's lo + hi); none into the host.
  always @(*) begin
    f_next = f_shadow;
    for (int c = 0; c < Channels; c++) begin
      if (c != 4 * N + 1 && f_to[c] && !s_add[c]) begin
        f_next[dst_pe(c)*Width +: Width] = ch_data[c*Width +: Width];
      end
    end
    for (int c = 0; c < Channels; c++) begin
      if (c != 4 * N + 1 && f_to[c] && s_add[c]) begin
        f_next[dst_pe(c)*Width +: Width] = f_next[dst_pe(c)*Width +: Width] +
                                           ch_data[c*Width +: Width];
      end
    end
  end

  // While idle (in reset too) the local port reads every PE's word at lcl_addr_i and writes
  // the PEs whose lcl_we_i is set; during a run it is ignored.
  always @(posedge clk_i) begin
    if (!s_busy) begin
      if (lcl_addr_i == f_addr) begin
        for (int j = 0; j < N; j++) begin
          f_shadow[j*Width +: Width] <= lcl_we_i[j] ? lcl_wdata_i[j*Width +: Width] :
                                                      lcl_rdata[j*Width +: Width];
        end
        f_known <= 1'b1;
      end
    end else begin
      f_shadow <= f_next;
    end
  end

  always @(*) begin
    if (!s_busy && f_known && lcl_addr_i == f_addr) assert (lcl_rdata == f_shadow);
  end
`endif

`ifdef CHECK_RESULT
  // End to end, independent of any schedule (docs/shuffle.md section 2's table; global
  // addressing: image word a of every memory lives at base + a). For the arbitrary memory address
  // f_addr of `words`, the N words there when a collective is accepted (known through the local
  // port while idle: `words`' shadow, which this group proves too) and an arbitrary host word
  // f_hword at image address f_himg: in the cycle done_o rises, each PE whose output region holds
  // f_addr reads there what the op defines: bcast every PE PE 0's word; bcast-host every PE the
  // host's; scatter the segment's owner the host's; integrate the owner the sum over all PEs
  // (modulo 2^Width); allgather every PE the owner's; gather and upload PE 0 the owner's; and
  // upload's host link carries the owner's word whenever it carries image word a. The owner of
  // image word a is PE a / S (S = M/N). The ring exchange (W = M/4) moves every PE's word at
  // image address a < 2W to a + 2W: into its ring successor's memory for a < W, its
  // predecessor's for W <= a < 2W; that is read where the local port reads f_addr + 2W. Both
  // schedules (cmd_fast_i free), any mix, resets anywhere.
  (* anyconst *) logic [AddrW-1:0] f_himg;   // the host's tracked image address
  (* anyconst *) logic [Width-1:0] f_hword;  // the host's word there
  logic [AddrW-1:0]   f_req_q;               // the host word requested in the previous cycle

  always @(posedge clk_i) f_req_q <= host_req_addr;

`ifndef PINET_FORMAL_COVER
  always @(*) begin
    if (f_host_due && f_req_q == f_himg) assume (host_data_i == f_hword);
  end
`endif

  // Every PE's word at f_addr after this cycle's edge while idle (a local write at the edge of
  // the command's cycle lands before the run).
  logic [N*Width-1:0] f_cur;
  logic               f_cur_known;
  always @(*) begin
    f_cur       = f_shadow;
    f_cur_known = f_known;
    if (lcl_addr_i == f_addr) begin
      for (int j = 0; j < N; j++) begin
        f_cur[j*Width +: Width] = lcl_we_i[j] ? lcl_wdata_i[j*Width +: Width] :
                                                lcl_rdata[j*Width +: Width];
      end
      f_cur_known = 1'b1;
    end
  end

  // The accepted command (the specification's command check, section 10's table: no schedule
  // in it) and the words at f_addr as its run starts.
  logic                         r_on = 1'b0;  // a run with known inputs is under way
  logic [ps_pkg::PsOpWidth-1:0] r_op;
  logic [VW-1:0]                r_m;
  logic [AddrW-1:0]             r_base;
  logic [N*Width-1:0]           r_in;
  logic                         p_done = 1'b0;
  always @(posedge clk_i) begin
    p_done <= done;
    if (!rst_ni) begin
      r_on <= 1'b0;
    end else if (!busy && cmd_start_i && s_code == ps_pkg::PsErrOk) begin
      r_on   <= f_cur_known;
      r_op   <= cmd_op_i;
      r_m    <= VW'(cmd_words_i);
      r_base <= AddrW'(cmd_base_i);
      r_in   <= f_cur;
    end else if (done && !p_done) begin
      r_on <= 1'b0;
    end
  end

  // Image address a of f_addr in the run, its owner, and what each PE must hold there.
  logic [VW-1:0]      r_a, r_seg, r_owner;
  logic               r_in_img;
  logic [Width-1:0]   r_own_word, r_sum;
  logic [N-1:0]       r_chk;
  logic [N*Width-1:0] r_exp;
  assign r_a      = VW'(f_addr) - VW'(r_base);
  assign r_in_img = (f_addr >= r_base) && (r_a < r_m);
  assign r_seg    = r_m >> LogN;
  assign r_owner  = (r_seg == '0) ? '0 : r_a / r_seg;
  always @(*) begin
    r_own_word = '0;
    r_sum      = '0;
    for (int j = 0; j < N; j++) begin
      if (r_owner == VW'(j)) r_own_word = r_in[j*Width +: Width];
      r_sum = r_sum + r_in[j*Width +: Width];
    end
    for (int j = 0; j < N; j++) begin
      r_chk[j]                = 1'b0;
      r_exp[j*Width +: Width] = r_own_word;
      case (r_op)
        ps_pkg::OpBcast: begin
          r_chk[j]                = 1'b1;
          r_exp[j*Width +: Width] = r_in[0 +: Width];
        end
        ps_pkg::OpBcastHost: begin
          r_chk[j]                = (r_a == VW'(f_himg));
          r_exp[j*Width +: Width] = f_hword;
        end
        ps_pkg::OpScatter: begin
          r_chk[j]                = (r_owner == VW'(j)) && (r_a == VW'(f_himg));
          r_exp[j*Width +: Width] = f_hword;
        end
        ps_pkg::OpIntegrate: begin
          r_chk[j]                = (r_owner == VW'(j));
          r_exp[j*Width +: Width] = r_sum;
        end
        ps_pkg::OpAllgather:                r_chk[j] = 1'b1;
        ps_pkg::OpGather, ps_pkg::OpUpload: r_chk[j] = (j == 0);
        default:                            r_chk[j] = 1'b0;
      endcase
    end
  end

  // The ring of docs/shuffle.md section 6 (the ring is the exchange's definition, not a
  // schedule): the specification's ring_o, bit l set when link l joins PE floor(l/2) to its ring
  // successor l mod N. r_xto[j]: the PE that receives PE j's word at f_addr.
  logic [N*8-1:0] r_xto;
  logic [VW-1:0]  r_half;     // 2W = M/2
  logic           r_to_succ;  // a < W: the word goes to the ring successor
  assign r_half    = r_m >> 1;
  assign r_to_succ = r_a < (r_m >> 2);
  always @(*) begin
    r_xto = '0;
    for (int l = 0; l < 2 * N; l++) begin
      if (s_ring[l] && r_to_succ)  r_xto[8*(l/2) +: 8] = 8'(l % N);
      if (s_ring[l] && !r_to_succ) r_xto[8*(l % N) +: 8] = 8'(l / 2);
    end
  end

  always @(*) begin
    if (rst_ni && r_on && r_in_img && r_op == ps_pkg::OpRingExchange && r_a < r_half &&
        done && !p_done && VW'(lcl_addr_i) == VW'(f_addr) + r_half) begin
      for (int j = 0; j < N; j++) begin
        assert (lcl_rdata[r_xto[8*j +: 8]*Width +: Width] == r_in[j*Width +: Width]);
      end
    end
    if (rst_ni && r_on && r_in_img && done && !p_done && lcl_addr_i == f_addr) begin
      for (int j = 0; j < N; j++) begin
        if (r_chk[j]) assert (lcl_rdata[j*Width +: Width] == r_exp[j*Width +: Width]);
      end
    end
    if (rst_ni && r_on && r_in_img && r_op == ps_pkg::OpUpload && host_valid_up &&
        VW'(host_addr) == r_a) begin
      assert (host_data_up == r_own_word);
    end
  end
`endif

`ifdef CHECK_DONE
  always @(*) begin
    assert (busy == s_busy);
    assert (done == s_done);
    // The specification's steps end exactly in cycle T - 1 of the formula.
    if (s_busy) assert (s_end == (s_t + 1'b1 == s_total));
  end
`endif

`ifdef CHECK_ERR
  always @(*) begin
    assert (err == s_err);
  end
`endif

endmodule
