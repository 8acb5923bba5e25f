// Copyright pinet contributors.
//
// Binds ps_network_assert (rtl/assert/ps_network_assert.sv) into every ps_network in the builds
// by Verilator; the `ifdef FORMAL instance at the end of ps_network has the same connections.

bind ps_network ps_network_assert #(
  .N(N)
) u_assert (
  .clk_i        (clk_i),
  .rst_ni       (rst_ni),
  .busy_o       (busy_o),
  .done_o       (done_o),
  .err_o        (err_o),
  .busy         (busy),
  .done         (done),
  .link_err     (link_err),
  .host_req     (host_req),
  .host_up_valid(host_up_valid)
);
