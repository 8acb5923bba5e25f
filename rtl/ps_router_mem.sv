// Copyright pinet contributors.
//
// ps_router_mem: the word memory of one perfect-shuffle router (ps_router): MemWords words of
// Width bits, two read ports and two write ports whose addresses are read as well (the fast
// integrate's read-modify-write adds the old word), so 4 read + 2 write ports. Flops here, no
// reset (a RAM; so no reset port); a multi-port RAM or banks in silicon.
//
// Reads are combinational: rd*_data_o = the word at rd*_addr_i, wr*_old_o = the word at
// wr*_addr_i, as the memory is at the start of the cycle. A write port with wr*_en_i stores
// wr*_data_i at its address at the clock edge. Its user (ps_router's schedule) never writes one
// address from both ports in one cycle (ps_router's checker, write_ports; here B's word would
// be stored).

module ps_router_mem #(
  parameter int  Width    = 32,
  parameter int  MemWords = 256,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1
) (
  input  logic             clk_i,
  // Read ports A and B
  input  logic [AddrW-1:0] rda_addr_i,
  output logic [Width-1:0] rda_data_o,
  input  logic [AddrW-1:0] rdb_addr_i,
  output logic [Width-1:0] rdb_data_o,
  // Write port A (with the old word at its address)
  input  logic             wra_en_i,
  input  logic [AddrW-1:0] wra_addr_i,
  input  logic [Width-1:0] wra_data_i,
  output logic [Width-1:0] wra_old_o,
  // Write port B (with the old word at its address)
  input  logic             wrb_en_i,
  input  logic [AddrW-1:0] wrb_addr_i,
  input  logic [Width-1:0] wrb_data_i,
  output logic [Width-1:0] wrb_old_o
);

  /* verilator tracing_off */

  ////////////
  // Memory //
  ////////////

  logic [Width-1:0] mem_q [MemWords];

  assign rda_data_o = mem_q[rda_addr_i];
  assign rdb_data_o = mem_q[rdb_addr_i];
  assign wra_old_o  = mem_q[wra_addr_i];
  assign wrb_old_o  = mem_q[wrb_addr_i];

  always_ff @(posedge clk_i) begin
    if (wra_en_i) begin
      mem_q[wra_addr_i] <= wra_data_i;
    end
    if (wrb_en_i) begin
      mem_q[wrb_addr_i] <= wrb_data_i;
    end
  end

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/ps_router_mem_assert.sv: bound in the Verilator builds
  // (rtl/assert/ps_router_mem_bind.sv), instantiated here for the formal flow (yosys ignores bind).
`ifdef FORMAL
  ps_router_mem_assert #(
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

  /* verilator tracing_on */

endmodule
