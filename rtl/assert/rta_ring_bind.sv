// Copyright pinet contributors.
//
// Binds rta_ring_assert (rtl/assert/rta_ring_assert.sv) into every rta_ring in the Verilator
// builds; the `ifdef FORMAL instance at the end of rta_ring has the same connections.

bind rta_ring rta_ring_assert #(
  .N    (N),
  .Width(Width)
) u_assert (.*);
