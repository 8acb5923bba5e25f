// Copyright pinet contributors.
//
// Binds ps_router_mem_assert (rtl/assert/ps_router_mem_assert.sv) into every ps_router_mem in
// the Verilator builds. The same connections appear in the `ifdef FORMAL instance at the end of
// ps_router_mem (yosys ignores bind).
//
// The ps_network cosims leave it out with -DPINET_UNBIND_PS_ROUTER_MEM (per router it cost
// about a quarter of their cycle rate: PINET_COSIM_UNBIND in cmake/PinetRtl.cmake).

`ifndef PINET_UNBIND_PS_ROUTER_MEM
bind ps_router_mem ps_router_mem_assert #(
  .Width   (Width),
  .MemWords(MemWords)
) u_assert (
  .clk_i     (clk_i),
  .rda_addr_i(rda_addr_i),
  .rda_data_o(rda_data_o),
  .rdb_addr_i(rdb_addr_i),
  .rdb_data_o(rdb_data_o),
  .wra_en_i  (wra_en_i),
  .wra_addr_i(wra_addr_i),
  .wra_data_i(wra_data_i),
  .wra_old_o (wra_old_o),
  .wrb_en_i  (wrb_en_i),
  .wrb_addr_i(wrb_addr_i),
  .wrb_data_i(wrb_data_i),
  .wrb_old_o (wrb_old_o)
);
`endif
