// Copyright pinet contributors.
//
// ps_router_planner_assert: the assertions of ps_router_planner (rtl/ps_router_planner.sv), the
// contract of a router's plan. Combinational, like the planner: checked whenever its inputs
// change, for every input the sequencer can hold (legal below: an accepted command, a step of
// it; the reset state, M = 0, is none and is not checked). Bound to every ps_router_planner in
// the Verilator builds (ps_router_planner_bind.sv), instantiated at the end of
// ps_router_planner under `ifdef FORMAL, so its proof (formal/ps_router_planner.sv) and the
// router's and network's prove it too.
//
//   step_len       every step moves a word: L_s >= 1 (what the sequencer's proof assumes)
//   in_step        no transfer ends after its step: start + length <= L_s for every port that
//                  moves words (an idle port has length 0 and no transfer)
//   in_image       every transfer stays in the image: offset + length <= M
//   host_no_start  a write from the host link starts at the step's first word (the host answers
//                  requests from the setup cycle on)
//   writes_apart   the two write ports never write one word of the image in one cycle: where
//                  both move words in a cycle, their offsets differ (the router's write_ports
//                  before the base is added)

`include "pinet_assert.svh"

module ps_router_planner_assert #(
  parameter int  N        = 8,
  parameter int  MemWords = 256,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int LogN     = $clog2(N),
  localparam int CntW     = $clog2(MemWords + LogN + 1),
  localparam int StepW    = (LogN > 5) ? LogN : 5,
  localparam int DescW    = ps_pkg::ps_desc_w(AddrW, CntW)
) (
  input logic [ps_pkg::PsOpWidth-1:0]     op_i,
  input logic                             fast_i,
  input logic [CntW-1:0]                  m_i,
  input logic [CntW-1:0]                  pkt_i,
  input logic [CntW-1:0]                  fwords_i,
  input logic [StepW-1:0]                 step_i,
  input logic [CntW-1:0]                  len_o,
  input logic [ps_pkg::PsPorts*DescW-1:0] desc_o,
  input logic [2:0]                       wra_src_o
);

  `PINET_ASSERT_IMPORT

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  localparam int DLen   = ps_pkg::ps_desc_len_lo(AddrW);
  localparam int DStart = ps_pkg::ps_desc_start_lo(AddrW, CntW);
  localparam int WideW  = CntW + 2;

  // The inputs the sequencer holds after accepting a command (docs/shuffle.md, ps_pkg's
  // checks): a known op; 1 <= M <= MemWords and a multiple of its quantum (n = log2 N for the
  // paper's broadcasts, whose packet M / n is given; 4 for the ring exchange; N otherwise; any
  // M for the fast broadcasts); f as the sequencer derives it; a step up to the last.
  logic             is_bc;
  logic [CntW-1:0]  s_words;    // S = M / N
  logic [CntW-1:0]  f_words;
  logic [StepW-1:0] last;
  logic             quantum;
  logic             legal;

  assign is_bc   = (op_i == ps_pkg::OpBcast) || (op_i == ps_pkg::OpBcastHost);
  assign s_words = m_i >> LogN;
  assign f_words = (op_i == ps_pkg::OpBcastHost) ? m_i :
                   (op_i == ps_pkg::OpGather || op_i == ps_pkg::OpAllgather ||
                    op_i == ps_pkg::OpIntegrate) ? (s_words >> 1) + CntW'(s_words[0]) :
                                                   (m_i >> 1) + CntW'(m_i[0]);
  assign quantum = (is_bc && fast_i) ? 1'b1 :
                   is_bc ? (WideW'(pkt_i) * WideW'(LogN) == WideW'(m_i)) :
                   (op_i == ps_pkg::OpRingExchange) ? (m_i[1:0] == 2'd0) :
                                                      (m_i[LogN-1:0] == '0);
  always_comb begin
    if (is_bc && fast_i) last = '0;
    else unique case (op_i)
      ps_pkg::OpScatter, ps_pkg::OpUpload: last = StepW'(LogN);
      ps_pkg::OpBcast:                     last = StepW'(2 * LogN - 2);
      ps_pkg::OpBcastHost:                 last = StepW'(2 * LogN - 1);
      ps_pkg::OpRingExchange:              last = '0;
      ps_pkg::OpAllgather, ps_pkg::OpIntegrate:
                                           last = fast_i ? StepW'(N / 2 - 1) : StepW'(LogN - 1);
      default:                             last = StepW'(LogN - 1);
    endcase
  end
  assign legal = (op_i <= ps_pkg::OpRingExchange) && (m_i != '0) &&
                 (WideW'(m_i) <= WideW'(MemWords)) && quantum && (fwords_i == f_words) &&
                 (step_i <= last);

  // Per port: start + length <= L_s, offset + length <= M (or idle); write A's start; the write
  // ports: offset less start (the offset of the word a port writes in cycle t is that plus t)
  // and their windows [start, start + length).
  logic             in_step, in_image, host_start, writes_apart;
  logic [WideW-1:0] a_off, b_off, a_st, b_st, a_len, b_len;
  assign a_off = WideW'(desc_o[ps_pkg::PsPortWrA*DescW + ps_pkg::PsDescOffLo +: AddrW]);
  assign b_off = WideW'(desc_o[ps_pkg::PsPortWrB*DescW + ps_pkg::PsDescOffLo +: AddrW]);
  assign a_st  = WideW'(desc_o[ps_pkg::PsPortWrA*DescW + DStart +: CntW]);
  assign b_st  = WideW'(desc_o[ps_pkg::PsPortWrB*DescW + DStart +: CntW]);
  assign a_len = WideW'(desc_o[ps_pkg::PsPortWrA*DescW + DLen +: CntW]);
  assign b_len = WideW'(desc_o[ps_pkg::PsPortWrB*DescW + DLen +: CntW]);
  assign writes_apart = (a_len == '0) || (b_len == '0) || (a_st >= b_st + b_len) ||
                        (b_st >= a_st + a_len) || (a_off + b_st != b_off + a_st);

  always_comb begin
    in_step  = 1'b1;
    in_image = 1'b1;
    for (int p = 0; p < ps_pkg::PsPorts; p++) begin
      in_step  = in_step && (desc_o[p*DescW + DLen +: CntW] == '0 ||
                             WideW'(desc_o[p*DescW + DStart +: CntW]) +
                             WideW'(desc_o[p*DescW + DLen +: CntW]) <= WideW'(len_o));
      in_image = in_image && (desc_o[p*DescW + DLen +: CntW] == '0 ||
                              WideW'(desc_o[p*DescW + ps_pkg::PsDescOffLo +: AddrW]) +
                              WideW'(desc_o[p*DescW + DLen +: CntW]) <= WideW'(m_i));
    end
    host_start = wra_src_o != ps_pkg::SrcHost || a_len == '0 || a_st == '0;
  end

  always_comb begin
    if (legal) begin
      `PINET_ASSERT("ps_router_planner.step_len", (len_o != '0))
      `PINET_ASSERT("ps_router_planner.in_step", in_step)
      `PINET_ASSERT("ps_router_planner.in_image", in_image)
      `PINET_ASSERT("ps_router_planner.host_no_start", host_start)
      `PINET_ASSERT("ps_router_planner.writes_apart", writes_apart)
    end
  end

  /* verilator coverage_on */

endmodule
