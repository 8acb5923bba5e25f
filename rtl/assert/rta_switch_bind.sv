// Copyright pinet contributors.
//
// Binds rta_switch_assert (rtl/assert/rta_switch_assert.sv) into every rta_switch in the
// builds by Verilator; the `ifdef FORMAL instance at the end of rta_switch has the same
// connections.

bind rta_switch rta_switch_assert #(
  .Width(Width)
) u_assert (.*);
