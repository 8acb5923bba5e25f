// Copyright pinet contributors.
//
// Binds rta_system1d_assert (rtl/assert/rta_system1d_assert.sv) into every rta_system1d in the
// builds by Verilator.

bind rta_system1d rta_system1d_assert #(
  .N    (N),
  .Width(Width)
) u_assert (
  .bitmap_o(bitmap_o),
  .l_i     (l_i),
  .r_i     (r_i),
  .l_o     (l_o),
  .r_o     (r_o)
);
