// Copyright pinet contributors.
//
// Binds rta_bitmap_ctrl_assert (rtl/assert/rta_bitmap_ctrl_assert.sv) into every rta_bitmap_ctrl
// in the builds by Verilator; the `ifdef FORMAL instance at the end of rta_bitmap_ctrl has the
// same connections.

bind rta_bitmap_ctrl rta_bitmap_ctrl_assert #(
  .NumSwitches(NumSwitches)
) u_assert (.*);
