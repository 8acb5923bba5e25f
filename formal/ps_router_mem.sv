// Copyright pinet contributors.
//
// ps_router_mem_formal: formal properties of rtl/ps_router_mem.sv (the router's 4-read 2-write
// word memory, docs/formal.md), read by scripts/formal.sh with yosys -formal. One property group
// per `ifdef CHECK_<GROUP>`; every group also proves the memory's assertion checker
// (rtl/assert/ps_router_mem_assert.sv, instantiated in ps_router_mem under `ifdef FORMAL).
//
// Environment (1 assumption): the tracked address f_addr is any constant memory address
// (< MemWords). Everything else is free in every cycle: both write ports (enables, addresses
// inside and outside the memory, also one address from both ports), the read addresses, and the
// memory's initial contents.
//
// Groups (ABC's pdr, every reachable state):
//   words  a shadow of the word at f_addr, set by every write to it (write B's word when both
//          ports write it in one cycle), equals what each of the four read ports returns for
//          f_addr once the address has been written.

module ps_router_mem_formal #(
  parameter int  Width    = 2,
  parameter int  MemWords = 4,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1
) (
  input logic             clk_i,
  input logic [AddrW-1:0] rda_addr_i,
  input logic [AddrW-1:0] rdb_addr_i,
  input logic             wra_en_i,
  input logic [AddrW-1:0] wra_addr_i,
  input logic [Width-1:0] wra_data_i,
  input logic             wrb_en_i,
  input logic [AddrW-1:0] wrb_addr_i,
  input logic [Width-1:0] wrb_data_i
);

  logic [Width-1:0] rda_data, rdb_data, wra_old, wrb_old;

  ps_router_mem #(
    .Width   (Width),
    .MemWords(MemWords)
  ) u_dut (
    .clk_i     (clk_i),
    .rda_addr_i(rda_addr_i),
    .rda_data_o(rda_data),
    .rdb_addr_i(rdb_addr_i),
    .rdb_data_o(rdb_data),
    .wra_en_i  (wra_en_i),
    .wra_addr_i(wra_addr_i),
    .wra_data_i(wra_data_i),
    .wra_old_o (wra_old),
    .wrb_en_i  (wrb_en_i),
    .wrb_addr_i(wrb_addr_i),
    .wrb_data_i(wrb_data_i),
    .wrb_old_o (wrb_old)
  );

  (* anyconst *) logic [AddrW-1:0] f_addr;
  always @(*) assume ({1'b0, f_addr} < (AddrW + 1)'(MemWords));

`ifdef CHECK_WORDS
  // The shadow word at f_addr and whether it has been written.
  logic             f_known = 1'b0;
  logic [Width-1:0] f_word;
  always @(posedge clk_i) begin
    if (wrb_en_i && wrb_addr_i == f_addr) begin
      f_known <= 1'b1;
      f_word  <= wrb_data_i;
    end else if (wra_en_i && wra_addr_i == f_addr) begin
      f_known <= 1'b1;
      f_word  <= wra_data_i;
    end
  end

  always @(*) begin
    if (f_known) begin
      if (rda_addr_i == f_addr) assert (rda_data == f_word);
      if (rdb_addr_i == f_addr) assert (rdb_data == f_word);
      if (wra_addr_i == f_addr) assert (wra_old == f_word);
      if (wrb_addr_i == f_addr) assert (wrb_old == f_word);
    end
  end
`endif

endmodule
