// Copyright pinet contributors.
//
// Binds rta_ring_assert (rtl/assert/rta_ring_assert.sv) into every rta_ring in the Verilator
// builds; the `ifdef FORMAL instance at the end of rta_ring has the same connections.

bind rta_ring rta_ring_assert #(
  .N    (N),
  .Width(Width)
) u_assert (
  .bitmap_i(bitmap_i),
  .l_i     (l_i),
  .r_i     (r_i),
  .l_o     (l_o),
  .r_o     (r_o)
);
