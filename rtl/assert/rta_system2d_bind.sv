// Copyright pinet contributors.
//
// Binds rta_system2d_assert (rtl/assert/rta_system2d_assert.sv) into every rta_system2d in the
// builds by Verilator.

bind rta_system2d rta_system2d_assert #(
  .Side (Side),
  .Width(Width)
) u_assert (
  .bitmap_o(bitmap_o),
  .l_i     (l_i),
  .r_i     (r_i),
  .l_o     (l_o),
  .r_o     (r_o),
  .u_i     (u_i),
  .d_i     (d_i),
  .u_o     (u_o),
  .d_o     (d_o)
);
