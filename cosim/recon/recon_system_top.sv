// recon_system_top.sv - the Verilated top of cosim_recon_system (cosim/recon/): rtl/ps_network
// unchanged, plus the reconstruction's current phase and EM iteration as inputs that only the
// waveform reads, so that GTKWave shows the phase by name (waves/filters/recon_phase.txt) and the
// iteration above the routers' links. A co-simulation harness top, not part of the RTL (rtl/pinet.f does not list it).
module recon_system_top #(
  parameter int  N        = 8,
  parameter int  MemWords = 256,
  localparam int Width    = 32,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int Channels = 4 * N + 2,
  localparam int CmdW     = ps_pkg::PsCmdWidth
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  // The phase (cosim_recon_system's Phase enum), for the waveform only
  /* verilator lint_off UNUSEDSIGNAL */
  input  logic [3:0]                    phase_i,
  // The EM iteration (1 .. K; 0 outside the iterations and for FBP), for the waveform only
  input  logic [15:0]                   iter_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  logic                          cmd_start_i,
  input  logic [ps_pkg::PsOpWidth-1:0]  cmd_op_i,
  input  logic [CmdW-1:0]               cmd_words_i,
  input  logic [CmdW-1:0]               cmd_base_i,
  output logic                          busy_o,
  output logic                          done_o,
  output logic [ps_pkg::PsErrWidth-1:0] err_o,
  output logic                          host_req_o,
  output logic [AddrW-1:0]              host_req_addr_o,
  input  logic                          host_valid_i,
  input  logic [Width-1:0]              host_data_i,
  output logic                          host_valid_o,
  output logic [Width-1:0]              host_data_o,
  output logic [AddrW-1:0]              host_addr_o,
  input  logic [N-1:0]                  lcl_we_i,
  input  logic [AddrW-1:0]              lcl_addr_i,
  input  logic [N*Width-1:0]            lcl_wdata_i,
  output logic [N*Width-1:0]            lcl_rdata_o,
  output logic [Channels-1:0]           ch_valid_o,
  output logic [Channels*Width-1:0]     ch_data_o
);

  ps_network #(
    .N        (N),
    .Width    (Width),
    .MemWords (MemWords)
  ) u_net (
    .clk_i           (clk_i),
    .rst_ni          (rst_ni),
    .cmd_start_i     (cmd_start_i),
    .cmd_op_i        (cmd_op_i),
    .cmd_fast_i      (1'b0),  // the paper's schedules, as the C reconstruction
    .cmd_words_i     (cmd_words_i),
    .cmd_base_i      (cmd_base_i),
    .busy_o          (busy_o),
    .done_o          (done_o),
    .err_o           (err_o),
    .host_req_o      (host_req_o),
    .host_req_addr_o (host_req_addr_o),
    .host_valid_i    (host_valid_i),
    .host_data_i     (host_data_i),
    .host_valid_o    (host_valid_o),
    .host_data_o     (host_data_o),
    .host_addr_o     (host_addr_o),
    .lcl_we_i        (lcl_we_i),
    .lcl_addr_i      (lcl_addr_i),
    .lcl_wdata_i     (lcl_wdata_i),
    .lcl_rdata_o     (lcl_rdata_o),
    .ch_valid_o      (ch_valid_o),
    .ch_data_o       (ch_data_o)
  );

endmodule
