// Copyright pinet contributors.
//
// ps_router_seq: the step/word sequencer of one perfect-shuffle router (ps_router): it checks
// and accepts a command (cmd_*_i, the errors of ps_pkg::ps_err_e), holds it (op, fast, M, base
// and what the plan derives from them: the broadcast packet size, the fast split f, the last
// step), and counts a run's steps and words: each step a setup cycle, then its words
// 0 .. L_s - 1, L_s (step_len_i) given by the planner in the setup cycle. Status: busy (run_o),
// done, err (BUSY for a command while running, LINK when link_bad_i in a run).
//
// Cycle contract (ps_router, docs/shuffle.md section 4): the cycle after the edge that samples
// an accepted command is step 0's setup cycle; after step s's last word comes step s + 1's setup
// cycle, or after the last step's done.

module ps_router_seq #(
  parameter int  N        = 8,
  parameter int  MemWords = 256,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int CmdW     = ps_pkg::PsCmdWidth,
  localparam int LogN     = $clog2(N),
  // M, lengths, starts, the word counter: M <= MemWords, L_s <= M + n (fast bcast-host)
  localparam int CntW     = $clog2(MemWords + LogN + 1),
  // Steps: at most 2n (paper broadcasts) or N/2 (fast allgather); the planner's 1-based step
  // number must hold N/2 too.
  localparam int StepW    = (LogN > 5) ? LogN : 5
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // Command
  input  logic                          cmd_start_i,
  input  logic [ps_pkg::PsOpWidth-1:0]  cmd_op_i,
  input  logic                          cmd_fast_i,
  input  logic [CmdW-1:0]               cmd_words_i,
  input  logic [CmdW-1:0]               cmd_base_i,
  // The step's length L_s (from the planner, in the setup cycle) and the link check
  input  logic [CntW-1:0]               step_len_i,
  input  logic                          link_bad_i,
  // Run state: busy, this cycle a setup cycle, a transfer cycle (word word_o of step step_o),
  // the step's last word, done, err
  output logic                          run_o,
  output logic                          setup_o,
  output logic                          xfer_o,
  output logic                          last_word_o,
  output logic [StepW-1:0]              step_o,
  output logic [CntW-1:0]               word_o,
  output logic [CntW-1:0]               len_o,
  output logic                          done_o,
  output logic [ps_pkg::PsErrWidth-1:0] err_o,
  // The accepted command
  output logic [ps_pkg::PsOpWidth-1:0]  op_o,
  output logic                          fast_o,
  output logic [CntW-1:0]               m_o,       // M
  output logic [CntW-1:0]               pkt_o,     // M / n: broadcast packet size
  output logic [CntW-1:0]               fwords_o,  // fast split f (see the registers)
  output logic [AddrW-1:0]              base_o
);

  // Local alias of the package enum (Icarus 11 crashes on a variable declared directly with a
  // package-scoped enum type).
  typedef ps_pkg::ps_err_e err_e;

  localparam logic [StepW-1:0] StOne    = StepW'(1);
  localparam logic [StepW-1:0] StN      = StepW'(LogN);
  localparam logic [CntW-1:0]  CntLogN  = CntW'(LogN);
  localparam logic [CmdW:0]    MemLimit = (CmdW + 1)'(MemWords);

  // (The top shows this module's state in a waveform under the same names: not traced here.)
  /* verilator tracing_off */

  ///////////
  // State //
  ///////////

  logic                         run_q;    // busy
  logic                         setup_q;  // this cycle is a step's setup cycle
  logic                         done_q;
  logic [StepW-1:0]             step_q;   // step number, 0-based
  logic [CntW-1:0]              word_q;   // word index i within the step
  logic [CntW-1:0]              len_q;    // L_s, the step's length
  err_e                         err_q;
  logic [ps_pkg::PsOpWidth-1:0] op_q;
  logic                         fast_q;   // the fast schedule
  logic [CntW-1:0]              m_q;      // M
  logic [AddrW-1:0]             base_q;
  logic [CntW-1:0]              pkt_q;    // M / n: broadcast packet size
  logic [StepW-1:0]             last_q;   // last step number, 0-based
  logic [CntW-1:0]              fwords_q; // fast split f: tree F's words (gather: PE 1's direct)

  logic                   run_d, setup_d, done_d;
  logic [StepW-1:0]       step_d;
  logic [CntW-1:0]        word_d;
  logic [CntW-1:0]        len_d;
  err_e                   err_d;

  /////////////////////
  // Command checker //
  /////////////////////

  // In the order of ps_err_e: op, M = 0, base + M > MemWords, quantum. The quantum test runs on
  // the truncated M, which is exact once M <= MemWords is known; the ring exchange's quantum is
  // 4 (its four blocks of W words).
  logic [CntW-1:0]  cmd_m;
  logic [CntW-1:0]  cmd_pkt;
  logic [CntW-1:0]  cmd_s;   // S = M / N
  logic             cmd_is_bcast;
  logic             cmd_fast_bcast;  // one cut-through step, any M
  logic             cmd_is_ring;
  logic             cmd_quantum;  // M is a multiple of the op's quantum
  err_e             cmd_err;
  logic [StepW-1:0] cmd_last;

  assign cmd_m        = CntW'(cmd_words_i);
  assign cmd_pkt      = cmd_m / CntLogN;
  assign cmd_s        = cmd_m >> LogN;
  assign cmd_is_bcast = (cmd_op_i == ps_pkg::OpBcast) || (cmd_op_i == ps_pkg::OpBcastHost);
  assign cmd_fast_bcast = cmd_is_bcast && cmd_fast_i;
  assign cmd_is_ring  = (cmd_op_i == ps_pkg::OpRingExchange);
  assign cmd_quantum  = cmd_fast_bcast ? 1'b1 :
                        cmd_is_bcast ? (cmd_m % CntLogN == '0) :
                        cmd_is_ring  ? (cmd_m[1:0] == 2'd0) : (cmd_m[LogN-1:0] == '0);

  // One expression, not a default overwritten in an always_comb: Icarus 11 re-runs such a
  // block on its own transient write (Ok, then BadOp) and spins at zero delay on a bad op.
  assign cmd_err = (cmd_op_i > ps_pkg::OpRingExchange)                   ? ps_pkg::PsErrBadOp   :
                   (cmd_words_i == '0)                                    ? ps_pkg::PsErrWords   :
                   ({1'b0, cmd_base_i} + {1'b0, cmd_words_i} > MemLimit) ? ps_pkg::PsErrMemory  :
                   !cmd_quantum                                           ? ps_pkg::PsErrQuantum :
                                                                            ps_pkg::PsErrOk;

  // Steps - 1: n - 1 (integrate, allgather, gather), n (scatter, upload), 2n - 2 (bcast),
  // 2n - 1 (bcast-host), 0 (ring-exchange, the fast broadcasts), N/2 - 1 (the fast allgather
  // and integrate).
  always_comb begin
    if (cmd_fast_bcast) cmd_last = '0;
    else unique case (cmd_op_i)
      ps_pkg::OpScatter, ps_pkg::OpUpload: cmd_last = StN;
      ps_pkg::OpBcast:                     cmd_last = StN + StN - StepW'(2);
      ps_pkg::OpBcastHost:                 cmd_last = StN + StN - StOne;
      ps_pkg::OpRingExchange:              cmd_last = '0;
      ps_pkg::OpAllgather, ps_pkg::OpIntegrate:
                                           cmd_last = cmd_fast_i ? StepW'(N / 2 - 1) : StN - StOne;
      default:                             cmd_last = StN - StOne;
    endcase
  end

  //////////////////
  // Run sequence //
  //////////////////

  logic xfer;      // a transfer cycle (word word_q of the step)
  logic last_word; // the step's last transfer cycle

  assign xfer      = run_q && !setup_q;
  assign last_word = (word_q == len_q - CntW'(1));
  assign len_d     = step_len_i;

  always_comb begin
    run_d   = run_q;
    setup_d = setup_q;
    done_d  = done_q;
    step_d  = step_q;
    word_d  = word_q;
    err_d   = err_q;
    if (run_q) begin
      if (setup_q) begin
        setup_d = 1'b0;
        word_d  = '0;
      end else if (!last_word) begin
        word_d = word_q + CntW'(1);
      end else if (step_q == last_q) begin
        run_d  = 1'b0;
        done_d = 1'b1;
      end else begin
        setup_d = 1'b1;
        step_d  = step_q + StOne;
      end
      if (link_bad_i) begin
        err_d = ps_pkg::PsErrLink;
      end
    end
    if (cmd_start_i) begin
      if (run_q) begin
        err_d = ps_pkg::PsErrBusy;
      end else begin
        err_d  = cmd_err;
        done_d = 1'b0;
        if (cmd_err == ps_pkg::PsErrOk) begin
          run_d   = 1'b1;
          setup_d = 1'b1;
          step_d  = '0;
        end
      end
    end
  end

  logic accept;
  assign accept = cmd_start_i && !run_q && (cmd_err == ps_pkg::PsErrOk);

  ///////////////
  // Registers //
  ///////////////

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      run_q   <= 1'b0;
      setup_q <= 1'b0;
      done_q  <= 1'b0;
      step_q  <= '0;
      word_q  <= '0;
      err_q   <= ps_pkg::PsErrOk;
    end else begin
      run_q   <= run_d;
      setup_q <= setup_d;
      done_q  <= done_d;
      step_q  <= step_d;
      word_q  <= word_d;
      err_q   <= err_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      op_q   <= '0;
      fast_q <= 1'b0;
      m_q    <= '0;
      pkt_q  <= '0;
      fwords_q <= '0;
      base_q <= '0;
      last_q <= '0;
    end else if (accept) begin
      op_q   <= cmd_op_i;
      fast_q <= cmd_fast_i;
      m_q    <= cmd_m;
      // f: tree F's words, ceil(M/2) (bcast), M (bcast-host: the host link is as slow as F);
      // gather: ceil(S/2) of PE 1's S words go straight to PE 0; allgather (integrate): the
      // last (first) step's clockwise half
      fwords_q <= (cmd_op_i == ps_pkg::OpBcastHost) ? cmd_m :
                  (cmd_op_i == ps_pkg::OpGather || cmd_op_i == ps_pkg::OpAllgather ||
                   cmd_op_i == ps_pkg::OpIntegrate) ? (cmd_s >> 1) + CntW'(cmd_s[0]) :
                                                      (cmd_m >> 1) + CntW'(cmd_m[0]);
      pkt_q  <= cmd_pkt;
      base_q <= AddrW'(cmd_base_i);
      last_q <= cmd_last;
    end
  end

  // The step's length, loaded in its setup cycle.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      len_q <= '0;
    end else if (run_q && setup_q) begin
      len_q <= len_d;
    end
  end

  /////////////
  // Outputs //
  /////////////

  assign run_o       = run_q;
  assign setup_o     = setup_q;
  assign xfer_o      = xfer;
  assign last_word_o = last_word;
  assign step_o      = step_q;
  assign word_o      = word_q;
  assign len_o       = len_q;
  assign done_o      = done_q;
  assign err_o       = err_q;
  assign op_o        = op_q;
  assign fast_o      = fast_q;
  assign m_o         = m_q;
  assign pkt_o       = pkt_q;
  assign fwords_o    = fwords_q;
  assign base_o      = base_q;

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/ps_router_seq_assert.sv: bound in the Verilator builds
  // (rtl/assert/ps_router_seq_bind.sv), instantiated here for the formal flow (yosys ignores bind).
`ifdef FORMAL
  ps_router_seq_assert #(
    .StepW(StepW),
    .CntW (CntW)
  ) u_assert (
    .clk_i  (clk_i),
    .rst_ni (rst_ni),
    .run_q  (run_q),
    .setup_q(setup_q),
    .step_q (step_q),
    .last_q (last_q),
    .word_q (word_q),
    .len_q  (len_q)
  );
`endif

  /* verilator tracing_on */

endmodule
