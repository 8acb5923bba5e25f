// Copyright pinet contributors.
//
// Binds ps_router_seq_assert (rtl/assert/ps_router_seq_assert.sv) into every ps_router_seq in
// the Verilator builds. The same connections appear in the `ifdef FORMAL instance at the end of
// ps_router_seq (yosys ignores bind).
//
// The ps_network cosims leave it out with -DPINET_UNBIND_PS_ROUTER_SEQ (per router it cost
// about a quarter of their cycle rate: PINET_COSIM_UNBIND in cmake/PinetRtl.cmake).

`ifndef PINET_UNBIND_PS_ROUTER_SEQ
bind ps_router_seq ps_router_seq_assert #(
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
