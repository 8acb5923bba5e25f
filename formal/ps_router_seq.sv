// Copyright pinet contributors.
//
// ps_router_seq_formal: formal properties of rtl/ps_router_seq.sv (the router's step/word
// sequencer, docs/formal.md), read by scripts/formal.sh with yosys -formal. One property group
// per `ifdef CHECK_<GROUP>`; every group proves the sequencer's assertion checker
// (rtl/assert/ps_router_seq_assert.sv, instantiated in ps_router_seq under `ifdef FORMAL).
//
// Environment (2 assumptions): reset (rst_ni low) in the first cycle; the planner's step length
// step_len_i is at least 1 (every step moves a word). Everything else is free in every cycle:
// rst_ni after the first cycle, every command input (any op, both schedules, all 32 bits of M
// and base, also while busy), the step length (in every cycle, not only the setup cycle's) and
// the link check.
//
// Groups (ABC's pdr, every reachable state):
//   checker  the checker's properties (a setup cycle only in a run, the step number at most the
//            last step, the word index below the step's length), and: busy and done never both,
//            busy rises only after a command, err_o is one of ps_err_e's codes.

module ps_router_seq_formal #(
  parameter int  N        = 4,
  parameter int  MemWords = 8,
  localparam int CmdW     = ps_pkg::PsCmdWidth,
  localparam int LogN     = $clog2(N),
  localparam int CntW     = $clog2(MemWords + LogN + 1),
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int StepW    = (LogN > 5) ? LogN : 5
) (
  input logic                         clk_i,
  input logic                         rst_ni,
  input logic                         cmd_start_i,
  input logic [ps_pkg::PsOpWidth-1:0] cmd_op_i,
  input logic                         cmd_fast_i,
  input logic [CmdW-1:0]              cmd_words_i,
  input logic [CmdW-1:0]              cmd_base_i,
  input logic [CntW-1:0]              step_len_i,
  input logic                         link_bad_i
);

  logic                          run, setup, xfer, last_word, done, fast;
  logic [StepW-1:0]              step;
  logic [CntW-1:0]               word, len, m, pkt, fwords;
  logic [ps_pkg::PsErrWidth-1:0] err;
  logic [ps_pkg::PsOpWidth-1:0]  op;
  logic [AddrW-1:0]              base;

  ps_router_seq #(
    .N       (N),
    .MemWords(MemWords)
  ) u_dut (
    .clk_i      (clk_i),
    .rst_ni     (rst_ni),
    .cmd_start_i(cmd_start_i),
    .cmd_op_i   (cmd_op_i),
    .cmd_fast_i (cmd_fast_i),
    .cmd_words_i(cmd_words_i),
    .cmd_base_i (cmd_base_i),
    .step_len_i (step_len_i),
    .link_bad_i (link_bad_i),
    .run_o      (run),
    .setup_o    (setup),
    .xfer_o     (xfer),
    .last_word_o(last_word),
    .step_o     (step),
    .word_o     (word),
    .len_o      (len),
    .done_o     (done),
    .err_o      (err),
    .op_o       (op),
    .fast_o     (fast),
    .m_o        (m),
    .pkt_o      (pkt),
    .fwords_o   (fwords),
    .base_o     (base)
  );

  // Reset in the first cycle.
  logic f_init = 1'b1;
  always @(posedge clk_i) f_init <= 1'b0;
  always @(*) if (f_init) assume (!rst_ni);

  always @(*) assume (step_len_i != '0);

  // The previous cycle: busy, a command (this wrapper's own flops).
  logic f_busy_q = 1'b0;
  logic f_start_q = 1'b0;
  always @(posedge clk_i) begin
    f_busy_q  <= run;
    f_start_q <= cmd_start_i;
  end

`ifdef CHECK_CHECKER
  always @(*) begin
    if (rst_ni && !f_init) begin
      assert (!(run && done));
      assert (f_busy_q || f_start_q || !run);
      assert (err <= ps_pkg::PsErrLink);
      assert (xfer == (run && !setup));
    end
  end
`endif

  // Outputs only the router reads.
  logic f_unused;
  assign f_unused = ^{last_word, step, word, len, m, pkt, fwords, op, fast, base};

endmodule
