// Copyright pinet contributors.
//
// ps_router_planner_formal: formal properties of rtl/ps_router_planner.sv (the router's
// planner, docs/formal.md), read by scripts/formal.sh with yosys -formal. One property group
// per `ifdef CHECK_<GROUP>`; every group proves the planner's assertion checker
// (rtl/assert/ps_router_planner_assert.sv, instantiated in ps_router_planner under `ifdef
// FORMAL): L_s >= 1, every transfer within its step and within the image, a host write from the
// step's first word, for every input the sequencer can hold.
//
// Environment: none. Every input is free: the PE number and both ring straps, the command
// registers (any op, both schedules, any M, packet size and f: the checker's properties and
// the group below speak of the legal ones, which ps_router_planner_assert defines) and the step
// number. The block has no state, so one step of BMC covers every input and the 1-induction
// proof is complete.
//
// Groups:
//   checker  the checker's properties (step_len, in_step, in_image, host_no_start,
//            writes_apart).

module ps_router_planner_formal #(
  parameter int  N        = 4,
  parameter int  MemWords = 16,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int PeW      = (N > 1) ? $clog2(N) : 1,
  localparam int LogN     = $clog2(N),
  localparam int CntW     = $clog2(MemWords + LogN + 1),
  localparam int StepW    = (LogN > 5) ? LogN : 5,
  localparam int DescW    = ps_pkg::ps_desc_w(AddrW, CntW)
) (
  input logic [PeW-1:0]               pe_i,
  input logic                         ring_succ_link_i,
  input logic                         ring_pred_link_i,
  input logic [ps_pkg::PsOpWidth-1:0] op_i,
  input logic                         fast_i,
  input logic [CntW-1:0]              m_i,
  input logic [CntW-1:0]              pkt_i,
  input logic [CntW-1:0]              fwords_i,
  input logic [StepW-1:0]             step_i
);

  logic [CntW-1:0]                  len;
  logic [ps_pkg::PsPorts*DescW-1:0] desc;
  logic [3:0]                       rda_to;
  logic [2:0]                       rdb_to;
  logic                             wrb_in2;
  logic [2:0]                       wra_src;
  logic                             wra_add3;

  ps_router_planner #(
    .N       (N),
    .MemWords(MemWords)
  ) u_dut (
    .pe_i            (pe_i),
    .ring_succ_link_i(ring_succ_link_i),
    .ring_pred_link_i(ring_pred_link_i),
    .op_i            (op_i),
    .fast_i          (fast_i),
    .m_i             (m_i),
    .pkt_i           (pkt_i),
    .fwords_i        (fwords_i),
    .step_i          (step_i),
    .len_o           (len),
    .desc_o          (desc),
    .rda_to_o        (rda_to),
    .rdb_to_o        (rdb_to),
    .wrb_in2_o       (wrb_in2),
    .wra_src_o       (wra_src),
    .wra_add3_o      (wra_add3)
  );

`ifdef CHECK_CHECKER
  // (The checker's properties: see ps_router_planner_assert.)
`endif

  // The outputs: the checker reads them inside the planner.
  logic f_unused;
  assign f_unused = ^{rda_to, rdb_to, wrb_in2, wra_src, wra_add3, len, desc};

endmodule
