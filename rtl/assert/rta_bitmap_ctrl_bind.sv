// Copyright pinet contributors.
//
// Binds rta_bitmap_ctrl_assert (rtl/assert/rta_bitmap_ctrl_assert.sv) into every rta_bitmap_ctrl
// in the builds by Verilator; the `ifdef FORMAL instance at the end of rta_bitmap_ctrl has the
// same connections.

bind rta_bitmap_ctrl rta_bitmap_ctrl_assert #(
  .NumSwitches(NumSwitches)
) u_assert (
  .clk_i      (clk_i),
  .rst_ni     (rst_ni),
  .cmd_valid_i(cmd_valid_i),
  .cmd_op_i   (cmd_op_i),
  .bitmap_o   (bitmap_o),
  .mode_o     (mode_o),
  .err_o      (err_o)
);
