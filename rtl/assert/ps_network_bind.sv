// Copyright pinet contributors.
//
// Binds ps_network_assert (rtl/assert/ps_network_assert.sv) into every ps_network in the builds
// by Verilator; the `ifdef FORMAL instance at the end of ps_network has the same connections.

bind ps_network ps_network_assert #(
  .N(N)
) u_assert (.*);
