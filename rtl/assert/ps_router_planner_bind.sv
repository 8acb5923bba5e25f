// Copyright pinet contributors.
//
// Binds ps_router_planner_assert (rtl/assert/ps_router_planner_assert.sv) into every
// ps_router_planner in the Verilator builds. The same connections appear in the `ifdef FORMAL
// instance at the end of ps_router_planner (yosys ignores bind).
//
// The ps_network cosims leave it out with -DPINET_UNBIND_PS_ROUTER_PLANNER (like the router's
// other parts' checkers: PINET_COSIM_UNBIND in cmake/PinetRtl.cmake).

`ifndef PINET_UNBIND_PS_ROUTER_PLANNER
bind ps_router_planner ps_router_planner_assert #(
  .N       (N),
  .MemWords(MemWords)
) u_assert (
  .op_i     (op_i),
  .fast_i   (fast_i),
  .m_i      (m_i),
  .pkt_i    (pkt_i),
  .fwords_i (fwords_i),
  .step_i   (step_i),
  .len_o    (len_o),
  .desc_o   (desc_o),
  .wra_src_o(wra_src_o)
);
`endif
