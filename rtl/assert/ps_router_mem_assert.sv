// Copyright pinet contributors.
//
// ps_router_mem_assert: the assertions of ps_router_mem (rtl/ps_router_mem.sv), the router's
// 4-read 2-write word memory. Bound to every ps_router_mem in the Verilator builds
// (ps_router_mem_bind.sv) and instantiated at the end of ps_router_mem under `ifdef FORMAL, so
// the proofs of scripts/formal.sh (ps_router_mem, ps_router, ps_network) prove it too. The memory
// has no reset, and neither has this property: it holds from the first cycle (the checker's
// flops start empty, and a simulator's power-up state of the words is never claimed).
//
//   read_after_write  a word written in one cycle (write B's when both ports wrote the address)
//                     is what every read port (A, B and the write ports' old words) returns
//                     for that address in the next cycle

`include "pinet_assert.svh"

module ps_router_mem_assert #(
  parameter int  Width    = 32,
  parameter int  MemWords = 256,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1
) (
  input logic             clk_i,
  input logic [AddrW-1:0] rda_addr_i,
  input logic [Width-1:0] rda_data_o,
  input logic [AddrW-1:0] rdb_addr_i,
  input logic [Width-1:0] rdb_data_o,
  input logic             wra_en_i,
  input logic [AddrW-1:0] wra_addr_i,
  input logic [Width-1:0] wra_data_i,
  input logic [Width-1:0] wra_old_o,
  input logic             wrb_en_i,
  input logic [AddrW-1:0] wrb_addr_i,
  input logic [Width-1:0] wrb_data_i,
  input logic [Width-1:0] wrb_old_o
);

  `PINET_ASSERT_IMPORT

  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  localparam logic [AddrW:0] Words = (AddrW + 1)'(MemWords);

  // The previous cycle's writes (to an address the memory holds).
  logic             wa_q = 1'b0;
  logic             wb_q = 1'b0;
  logic [AddrW-1:0] wa_addr_q, wb_addr_q;
  logic [Width-1:0] wa_data_q, wb_data_q;
  always_ff @(posedge clk_i) begin
    wa_q      <= wra_en_i && ({1'b0, wra_addr_i} < Words);
    wb_q      <= wrb_en_i && ({1'b0, wrb_addr_i} < Words);
    wa_addr_q <= wra_addr_i;
    wb_addr_q <= wrb_addr_i;
    wa_data_q <= wra_data_i;
    wb_data_q <= wrb_data_i;
  end

  // A read of addr returning data agrees with the previous cycle's writes.
  function automatic logic read_ok(logic [AddrW-1:0] addr, logic [Width-1:0] data);
    if (wb_q && addr == wb_addr_q)      read_ok = (data == wb_data_q);
    else if (wa_q && addr == wa_addr_q) read_ok = (data == wa_data_q);
    else                                read_ok = 1'b1;
  endfunction

  always_comb begin
    `PINET_ASSERT("ps_router_mem.read_after_write",
                  (read_ok(rda_addr_i, rda_data_o) && read_ok(rdb_addr_i, rdb_data_o) &&
                   read_ok(wra_addr_i, wra_old_o) && read_ok(wrb_addr_i, wrb_old_o)))
  end

  /* verilator coverage_on */

endmodule
