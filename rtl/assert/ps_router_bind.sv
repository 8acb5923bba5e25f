// Copyright pinet contributors.
//
// Binds ps_router_assert (rtl/assert/ps_router_assert.sv) into every ps_router in the Verilator
// builds. The same connections appear in the `ifdef FORMAL instance at the end of ps_router
// (yosys ignores bind).

bind ps_router ps_router_assert #(
  .Width   (Width),
  .AddrW   (AddrW),
  .CntW    (CntW)
) u_assert (
  .clk_i          (clk_i),
  .rst_ni         (rst_ni),
  .cmd_start_i    (cmd_start_i),
  .busy_o         (busy_o),
  .done_o         (done_o),
  .err_o          (err_o),
  .out_valid_o    (out_valid_o),
  .out_data_o     (out_data_o),
  .host_req_o     (host_req_o),
  .host_req_addr_o(host_req_addr_o),
  .host_valid_o   (host_valid_o),
  .host_data_o    (host_data_o),
  .host_addr_o    (host_addr_o),
  .xfer           (xfer),
  .wra_act        (wra_act),
  .wrb_act        (wrb_act),
  .wra_addr       (wra_addr),
  .wrb_addr       (wrb_addr),
  .wra_host_q     (wra_host_q),
  .len_q          (len_q),
  .rda_st_q       (rda_st_q),
  .rda_len_q      (rda_len_q),
  .rdb_st_q       (rdb_st_q),
  .rdb_len_q      (rdb_len_q),
  .wra_st_q       (wra_st_q),
  .wra_len_q      (wra_len_q),
  .wrb_st_q       (wrb_st_q),
  .wrb_len_q      (wrb_len_q)
);
