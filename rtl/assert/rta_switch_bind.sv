// Copyright pinet contributors.
//
// Binds rta_switch_assert (rtl/assert/rta_switch_assert.sv) into every rta_switch in the
// builds by Verilator; the `ifdef FORMAL instance at the end of rta_switch has the same
// connections.
//
// A cosim whose top's own checker states these properties on the same nets leaves this bind
// out with -DPINET_UNBIND_RTA_SWITCH (the fabrics around it bind one checker per instance, thousands
// at the papers' sizes: PINET_COSIM_UNBIND in cmake/PinetRtl.cmake says which tops, and why).

`ifndef PINET_UNBIND_RTA_SWITCH
bind rta_switch rta_switch_assert #(
  .Width(Width)
) u_assert (.*);
`endif
