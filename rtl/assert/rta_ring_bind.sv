// Copyright pinet contributors.
//
// Binds rta_ring_assert (rtl/assert/rta_ring_assert.sv) into every rta_ring in the Verilator
// builds; the `ifdef FORMAL instance at the end of rta_ring has the same connections.
//
// A cosim whose top's own checker states these properties on the same nets leaves this bind
// out with -DPINET_UNBIND_RTA_RING (the fabrics around it bind one checker per instance, thousands
// at the papers' sizes: PINET_COSIM_UNBIND in cmake/PinetRtl.cmake says which tops, and why).

`ifndef PINET_UNBIND_RTA_RING
bind rta_ring rta_ring_assert #(
  .N    (N),
  .Width(Width)
) u_assert (.*);
`endif
