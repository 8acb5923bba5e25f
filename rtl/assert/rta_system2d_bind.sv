// Copyright pinet contributors.
//
// Binds rta_system2d_assert (rtl/assert/rta_system2d_assert.sv) into every rta_system2d in the
// builds by Verilator.

bind rta_system2d rta_system2d_assert #(
  .Side (Side),
  .Width(Width)
) u_assert (.*);
