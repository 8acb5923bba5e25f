// Copyright pinet contributors.
//
// Binds rta_torus2d_assert (rtl/assert/rta_torus2d_assert.sv) into every rta_torus2d in the
// builds by Verilator; the `ifdef FORMAL instance at the end of rta_torus2d has the same
// connections.

bind rta_torus2d rta_torus2d_assert #(
  .Side (Side),
  .Width(Width)
) u_assert (.*);
