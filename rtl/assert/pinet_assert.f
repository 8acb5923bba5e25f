// pinet assertion checkers (rtl/assert/, docs/verification.md "Assertions"): one checker module
// and one bind file per RTL module, read by the Verilator builds (cosim, testbenches, lint) after
// rtl/pinet.f, with +incdir+rtl/assert and --assert. Icarus and yosys synthesis do not read them;
// the formal flow gets the checkers through the `ifdef FORMAL instance at the end of each module.
rtl/assert/ps_router_mem_assert.sv
rtl/assert/ps_router_mem_bind.sv
rtl/assert/ps_router_seq_assert.sv
rtl/assert/ps_router_seq_bind.sv
rtl/assert/ps_router_planner_assert.sv
rtl/assert/ps_router_planner_bind.sv
rtl/assert/ps_router_assert.sv
rtl/assert/ps_router_bind.sv
rtl/assert/rta_switch_assert.sv
rtl/assert/rta_switch_bind.sv
rtl/assert/rta_ring_assert.sv
rtl/assert/rta_ring_bind.sv
rtl/assert/rta_torus2d_assert.sv
rtl/assert/rta_torus2d_bind.sv
rtl/assert/rta_bitmap_ctrl_assert.sv
rtl/assert/rta_bitmap_ctrl_bind.sv
rtl/assert/ps_network_assert.sv
rtl/assert/ps_network_bind.sv
rtl/assert/rta_system1d_assert.sv
rtl/assert/rta_system1d_bind.sv
rtl/assert/rta_system2d_assert.sv
rtl/assert/rta_system2d_bind.sv
