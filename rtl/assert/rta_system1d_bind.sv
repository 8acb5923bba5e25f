// Copyright pinet contributors.
//
// Binds rta_system1d_assert (rtl/assert/rta_system1d_assert.sv) into every rta_system1d in the
// builds by Verilator.

bind rta_system1d rta_system1d_assert #(
  .N    (N),
  .Width(Width)
) u_assert (.*);
