// Copyright pinet contributors.
//
// ps_router_seq_assert: the assertions of ps_router_seq (rtl/ps_router_seq.sv), the router's
// step/word sequencer. Bound to every ps_router_seq in the Verilator builds
// (ps_router_seq_bind.sv) and instantiated at the end of ps_router_seq under `ifdef FORMAL, so
// the proofs of scripts/formal.sh (ps_router, ps_network) prove it too. Checked in every cycle
// out of reset (rst_ni high) once a reset has been seen, on that cycle's values.
//
//   setup_in_run  a setup cycle only during a run
//   step_in_run   during a run the step number is at most the command's last step
//   word_in_step  in a transfer cycle the word index is below the step's length L_s (the step
//                 ends with its last word)

`include "pinet_assert.svh"

module ps_router_seq_assert #(
  parameter int StepW = 5,
  parameter int CntW  = 9
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             run_q,
  input logic             setup_q,
  input logic [StepW-1:0] step_q,
  input logic [StepW-1:0] last_q,
  input logic [CntW-1:0]  word_q,
  input logic [CntW-1:0]  len_q
);

  `PINET_ASSERT_IMPORT

  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  // armed_q: a reset has been seen (before it the state is the simulator's power-up state).
  logic armed_q = 1'b0;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      armed_q <= 1'b1;
    end
  end

  always_comb begin
    if (rst_ni && armed_q) begin
      `PINET_ASSERT("ps_router_seq.setup_in_run", (!setup_q || run_q))
      `PINET_ASSERT("ps_router_seq.step_in_run", (!run_q || step_q <= last_q))
      `PINET_ASSERT("ps_router_seq.word_in_step", (!run_q || setup_q || word_q < len_q))
    end
  end

  /* verilator coverage_on */

endmodule
