// Copyright pinet contributors.
//
// ps_router_formal: formal properties of rtl/ps_router.sv (one PE's router, docs/formal.md),
// read by scripts/formal.sh with yosys -formal. One property group per `ifdef CHECK_<GROUP>`.
// The expected behaviour comes from formal/ps_network_spec.sv (written from docs/shuffle.md per
// channel): the router of PE f_pe owns the channels of section 1's port table, out 0..3 =
// channels 2Pe, 2Pe+1, 2N+Pe, 3N+Pe, in 0..3 = channels Pe, Pe+N, 2N+2Pe, 2N+2Pe+1, and on PE 0
// the host link (in: 4N, out: 4N+1).
//
// Environment (3 assumptions): reset (rst_ni low) in the first cycle; the PE number f_pe is any
// constant (one proof covers every PE) and the ring straps are those of PE f_pe on the ring of
// docs/shuffle.md section 6 (ps_network's wiring); for `words` the tracked address f_addr is a
// memory address (< MemWords). Everything else is free in every cycle: rst_ni after the first
// cycle, every command input (any op, all 32 bits of M and base, also while busy), the four
// input links and the host link (valid and data: a neighbour may break the schedule), the local
// port, and the memory's initial contents.
//
// Groups (each proven by ABC's pdr for every reachable state, docs/formal.md; scripts/formal.sh
// proves them together, err+done+links+words+checker: each is a lemma for the others).
// cmd_fast_i is free in every group: the paper's and the fast schedules (docs/shuffle.md
// section 13), any mix.
// links, words, done and err compare with ps_network_spec, which models both; checker proves the
// RTL's own assertion checker (rtl/assert/ps_router_assert.sv, which the other groups prove too).
//   links  every output link (and the host link up on PE 0) is valid exactly when the
//          specification puts a word on its channel in this cycle, with 0 data when not valid;
//          the host request asks for the next cycle's host word (PE 0; never on another PE); and
//          err_o becomes LINK exactly when, during a run, an input link's valid (or the host
//          link's) differs from the specification's (the router expects exactly the words the
//          step sends it), unless a command in that cycle makes it BUSY.
//   words  no word lost or duplicated, and each the right one: for an arbitrary memory address
//          f_addr, a shadow of the router's word there (taken from the local port while idle,
//          then updated by the specification's transfers into this PE from the input links'
//          data: COPY, then ADD) equals every word an output link carries from f_addr, and the
//          local port reads back the shadow whenever the router is idle.
//   done   busy_o exactly in cycles 0 .. T-1 of an accepted command and done_o from cycle T until
//          the next command, T by docs/shuffle.md section 4's (paper) or section 13's (fast)
//          formula (never before; commands while busy neither stop nor restart the run, link
//          errors do not stop it).
//   err    one clock edge from any state (1-inductive): in reset and the cycle after, OK; a
//          command while busy gives BUSY and the run goes on (still busy, or just done); a
//          command while idle gives the first failing check's code (BAD_OP, WORDS, MEMORY,
//          QUANTUM; all 32 bits of M and base) and starts a run exactly when it is OK (busy next
//          cycle, done cleared); without a command err_o is sticky: unchanged while idle, and
//          during a run unchanged or LINK.

module ps_router_formal #(
  parameter int  N        = 4,
  parameter int  Width    = 8,
  parameter int  MemWords = 8,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int PeW      = (N > 1) ? $clog2(N) : 1,
  localparam int Channels = 4 * N + 2,
  localparam int VW       = $clog2(MemWords + 1) + 1,
  localparam int TW       = $clog2(2 * MemWords + 2 * $clog2(N) + 2) + 1,
  localparam int ChW      = $clog2(Channels),
  localparam int CmdW     = ps_pkg::PsCmdWidth,
  localparam int ErrW     = ps_pkg::PsErrWidth
) (
  input logic                         clk_i,
  input logic                         rst_ni,
  input logic                         cmd_start_i,
  input logic [ps_pkg::PsOpWidth-1:0] cmd_op_i,
  input logic [CmdW-1:0]              cmd_words_i,
  input logic [CmdW-1:0]              cmd_base_i,
  input logic [3:0]                   in_valid_i,
  input logic [4*Width-1:0]           in_data_i,
  input logic                         host_valid_i,
  input logic [Width-1:0]             host_data_i,
  input logic                         lcl_we_i,
  input logic [AddrW-1:0]             lcl_addr_i,
  input logic [Width-1:0]             lcl_wdata_i,
  input logic                         cmd_fast_i
);

  (* anyconst *) logic [PeW-1:0] f_pe;  // this router's PE number
  logic                          f_succ_link, f_pred_link;

  logic                          busy, done;
  logic [ErrW-1:0]               err;
  logic [3:0]                    out_valid;
  logic [4*Width-1:0]            out_data;
  logic                          host_req, host_valid_up;
  logic [AddrW-1:0]              host_req_addr, host_addr;
  logic [Width-1:0]              host_data_up, lcl_rdata;

  // The schedule: cmd_fast_i is free in every cycle, in every group (both schedules, any mix);
  // ps_network_spec models the paper's and the fast ones (docs/shuffle.md section 13).
  logic f_fast;
  assign f_fast = cmd_fast_i;

  ps_router #(
    .N       (N),
    .Width   (Width),
    .MemWords(MemWords)
  ) u_dut (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .pe_i            (f_pe),
    .ring_succ_link_i(f_succ_link),
    .ring_pred_link_i(f_pred_link),
    .cmd_start_i     (cmd_start_i),
    .cmd_op_i        (cmd_op_i),
    .cmd_fast_i      (f_fast),
    .cmd_words_i     (cmd_words_i),
    .cmd_base_i      (cmd_base_i),
    .busy_o          (busy),
    .done_o          (done),
    .err_o           (err),
    .out_valid_o     (out_valid),
    .out_data_o      (out_data),
    .in_valid_i      (in_valid_i),
    .in_data_i       (in_data_i),
    .host_req_o      (host_req),
    .host_req_addr_o (host_req_addr),
    .host_valid_i    (host_valid_i),
    .host_data_i     (host_data_i),
    .host_valid_o    (host_valid_up),
    .host_data_o     (host_data_up),
    .host_addr_o     (host_addr),
    .lcl_we_i        (lcl_we_i),
    .lcl_addr_i      (lcl_addr_i),
    .lcl_wdata_i     (lcl_wdata_i),
    .lcl_rdata_o     (lcl_rdata)
  );

  ///////////////////
  // Specification //
  ///////////////////

  logic                   s_busy, s_done, s_req, f_link_bad;
  logic [ErrW-1:0]        s_err, s_code;
  logic [AddrW-1:0]       s_base;
  logic [Channels-1:0]    s_valid, s_add;
  logic [Channels*VW-1:0] s_src, s_dst;
  logic [VW-1:0]          s_req_addr;
  logic [TW-1:0]          s_total, s_t;
  logic                   s_end;
  logic [2*N-1:0]         s_ring;

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
    .link_bad_i     (f_link_bad),
    .busy_o         (s_busy),
    .done_o         (s_done),
    .err_o          (s_err),
    .cmd_code_o     (s_code),
    .base_o         (s_base),
    .fast_o         (),
    .t_o            (s_t),
    .step_o         (),
    .setup_o        (),
    .valid_o        (s_valid),
    .src_o          (s_src),
    .dst_o          (s_dst),
    .add_o          (s_add),
    .len_o          (),
    .start_o        (),
    .step_len_o     (),
    .host_req_o     (s_req),
    .host_req_addr_o(s_req_addr),
    .t_total_o      (s_total),
    .end_o          (s_end),
    .ring_o         (s_ring)
  );

  // This PE's channels: out 0..3, in 0..3 (section 1's port table), and the host link.
  logic [4*ChW-1:0] f_out_ch, f_in_ch;  // link k: bits [k*ChW +: ChW]
  logic             f_pe0;
  assign f_out_ch = {ChW'(3 * N + f_pe), ChW'(2 * N + f_pe), ChW'(2 * f_pe + 1), ChW'(2 * f_pe)};
  assign f_in_ch  = {ChW'(2 * N + 2 * f_pe + 1), ChW'(2 * N + 2 * f_pe), ChW'(f_pe + N),
                     ChW'(f_pe)};
  assign f_pe0    = (f_pe == '0);

  // What the specification expects on the four input links and the host link down.
  logic [3:0] f_in_exp;
  logic       f_host_exp;
  for (genvar k = 0; k < 4; k++) begin : g_in
    assign f_in_exp[k] = s_valid[f_in_ch[k*ChW +: ChW]];
  end
  assign f_host_exp = f_pe0 && s_valid[4*N];
  assign f_link_bad = s_busy && ({host_valid_i, in_valid_i} != {f_host_exp, f_in_exp});

  /////////////////
  // Environment //
  /////////////////

  logic f_first = 1'b1;  // the first cycle (an initialised register: BMC's initial state)
  always @(posedge clk_i) f_first <= 1'b0;

  // The ring straps of PE f_pe (ps_network's): the LSB of its successor, i.e. which of its
  // forward links 2Pe, 2Pe+1 is a ring link, and whether its predecessor's ring link into it is
  // link Pe + N (in 1) rather than link Pe (in 0).
  assign f_succ_link = s_ring[2*f_pe+1];
  assign f_pred_link = s_ring[f_pe+N];

  always @(*) begin
    if (f_first) assume (!rst_ni);
  end

  ////////////////
  // Properties //
  ////////////////

`ifdef CHECK_LINKS
  for (genvar k = 0; k < 4; k++) begin : g_out
    always @(*) begin
      assert (out_valid[k] == s_valid[f_out_ch[k*ChW +: ChW]]);
      if (!out_valid[k]) assert (out_data[k*Width +: Width] == '0);
    end
  end

  always @(*) begin
    assert (host_valid_up == (f_pe0 && s_valid[4*N+1]));
    if (!host_valid_up) assert (host_data_up == '0);
    assert (host_addr == (host_valid_up ? AddrW'(s_dst[(4*N+1)*VW +: VW]) : '0));
    assert (host_req == (f_pe0 && s_req));
    assert (host_req_addr == (host_req ? AddrW'(s_req_addr) : '0));
    assert (err == s_err);
  end
`endif

`ifdef CHECK_WORDS
  (* anyconst *) logic [AddrW-1:0] f_addr;  // the tracked memory address
  logic [Width-1:0] f_shadow;                 // the router's word at f_addr
  logic             f_known = 1'b0;           // f_shadow has been read through the local port
  logic [Width-1:0] f_next;

  // (In AddrW + 1 bits: AddrW'(MemWords) is 0 when MemWords is a power of two.)
  always @(*) begin
    assume ({1'b0, f_addr} < (AddrW + 1)'(MemWords));
  end

  // Channel c's word of this cycle leaves from / lands at f_addr.
  logic [Channels-1:0] f_from, f_to;
  for (genvar c = 0; c < Channels; c++) begin : g_hit
    assign f_from[c] = s_valid[c] && (VW'(s_base) + s_src[c*VW +: VW] == VW'(f_addr));
    assign f_to[c]   = s_valid[c] && (VW'(s_base) + s_dst[c*VW +: VW] == VW'(f_addr));
  end

  // Words leaving f_addr on this PE's out links carry the shadow.
  for (genvar k = 0; k < 4; k++) begin : g_from
    always @(*) begin
      if (s_busy && f_known && f_from[f_out_ch[k*ChW +: ChW]]) begin
        assert (out_data[k*Width +: Width] == f_shadow);
      end
    end
  end

  always @(*) begin
    if (s_busy && f_known && f_pe0 && f_from[4*N+1]) begin
      assert (host_data_up == f_shadow);
    end
    if (!s_busy && f_known && lcl_addr_i == f_addr) assert (lcl_rdata == f_shadow);
  end

  // Words arriving at f_addr from the input links (and the host link on PE 0): COPY first, then
  // ADD. Whatever the link's data lines carry in the scheduled cycle is the word.
  always @(*) begin
    f_next = f_shadow;
    for (int k = 0; k < 4; k++) begin
      if (f_to[f_in_ch[k*ChW +: ChW]] && !s_add[f_in_ch[k*ChW +: ChW]]) begin
        f_next = in_data_i[k*Width +: Width];
      end
    end
    if (f_pe0 && f_to[4*N]) f_next = host_data_i;
    for (int k = 0; k < 4; k++) begin
      if (f_to[f_in_ch[k*ChW +: ChW]] && s_add[f_in_ch[k*ChW +: ChW]]) begin
        f_next = f_next + in_data_i[k*Width +: Width];
      end
    end
  end

  always @(posedge clk_i) begin
    if (!s_busy) begin
      if (lcl_addr_i == f_addr) begin
        f_shadow <= lcl_we_i ? lcl_wdata_i : lcl_rdata;
        f_known  <= 1'b1;
      end
    end else begin
      f_shadow <= f_next;
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
  // The previous cycle.
  logic            p_rst = 1'b1;  // rst_ni was low
  logic            p_cmd = 1'b0;  // a command (rst_ni high)
  logic            p_busy, p_done;
  logic [ErrW-1:0] p_err, p_code;
  always @(posedge clk_i) begin
    p_rst  <= !rst_ni;
    p_cmd  <= rst_ni && cmd_start_i;
    p_busy <= busy;
    p_done <= done;
    p_err  <= err;
    p_code <= s_code;
  end

  always @(*) begin
    if (!rst_ni || p_rst) begin
      assert (!busy && !done && err == ps_pkg::PsErrOk);
    end else if (p_cmd && p_busy) begin
      assert (err == ps_pkg::PsErrBusy);
      assert (busy || done);
    end else if (p_cmd) begin
      assert (err == p_code);
      assert (busy == (p_code == ps_pkg::PsErrOk));
      assert (!done);
    end else if (!p_busy) begin
      assert (err == p_err && !busy && done == p_done);
    end else begin
      assert (err == p_err || err == ps_pkg::PsErrLink);
    end
  end
`endif

endmodule
