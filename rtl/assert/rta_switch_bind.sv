// Copyright pinet contributors.
//
// Binds rta_switch_assert (rtl/assert/rta_switch_assert.sv) into every rta_switch in the
// builds by Verilator; the `ifdef FORMAL instance at the end of rta_switch has the same
// connections.

bind rta_switch rta_switch_assert #(
  .Width(Width)
) u_assert (
  .on_i(on_i),
  .t1_i(t1_i),
  .t2_i(t2_i),
  .t3_i(t3_i),
  .t4_i(t4_i),
  .t1_o(t1_o),
  .t2_o(t2_o),
  .t3_o(t3_o),
  .t4_o(t4_o)
);
