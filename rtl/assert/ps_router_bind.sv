// Copyright pinet contributors.
//
// Binds ps_router_assert (rtl/assert/ps_router_assert.sv) into every ps_router in the Verilator
// builds. The same connections appear in the `ifdef FORMAL instance at the end of ps_router
// (yosys ignores bind).

bind ps_router ps_router_assert #(
  .Width   (Width),
  .AddrW   (AddrW),
  .CntW    (CntW)
) u_assert (.*);
