// Copyright pinet contributors.
//
// rta_system1d: a complete 1D RTA: the bitmap controller (u_ctrl, Dim 1, Side N) driving the
// switches of one ring of N PEs (u_ring). The ring's bitmap is the controller's bitmap_o.
//
// Ports: the controller's command interface (see rta_bitmap_ctrl) and the ring's PE ports (see
// rta_ring: word i is bits [i*Width +: Width]).
//
// Latency: a command takes effect at the rising edge that takes it (one cycle, rta_bitmap_ctrl);
// from then on the ring routes the words combinationally through the new switch states. After
// reset the ring is one ring of N PEs (SRTA level L, every switch ON).

`include "pinet_param.svh"

module rta_system1d #(
  parameter int N     = 8,
  parameter int Width = 32
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            cmd_valid_i,
  input  logic [2:0]                      cmd_op_i,
  input  logic [rta_pkg::RtaArgWidth-1:0] cmd_arg_i,
  input  logic [N/2-2:0]                  cmd_bitmap_i,
  output logic [N/2-2:0]                  bitmap_o,
  output logic [1:0]                      mode_o,
  output logic [2:0]                      err_o,
  input  logic [N*Width-1:0]              l_i,
  input  logic [N*Width-1:0]              r_i,
  output logic [N*Width-1:0]              l_o,
  output logic [N*Width-1:0]              r_o
);

  ////////////////
  // Controller //
  ////////////////

  rta_bitmap_ctrl #(
    .Dim (1),
    .Side(N)
  ) u_ctrl (
    .clk_i       (clk_i),
    .rst_ni      (rst_ni),
    .cmd_valid_i (cmd_valid_i),
    .cmd_op_i    (cmd_op_i),
    .cmd_arg_i   (cmd_arg_i),
    .cmd_bitmap_i(cmd_bitmap_i),
    .bitmap_o    (bitmap_o),
    .mode_o      (mode_o),
    .err_o       (err_o)
  );

  ////////////
  // Fabric //
  ////////////

  rta_ring #(
    .N    (N),
    .Width(Width)
  ) u_ring (
    .bitmap_i(bitmap_o),
    .l_i     (l_i),
    .r_i     (r_i),
    .l_o     (l_o),
    .r_o     (r_o)
  );

  ////////////////
  // Parameters //
  ////////////////

  // The parameter ranges a registered run or proof covers at both ends (docs/verification.md,
  // "Parameter ranges": widening one means adding its run); the controller and the fabric
  // check theirs too. Icarus 11 has no elaboration-time $error: there the checks run at time 0.
  if (N < 4 || N > 4096 || (N & (N - 1)) != 0) begin : g_bad_n
    `PINET_PARAM_RANGE_ERROR(
      "rta_system1d: N outside its verified range: a power of two in [4, 4096]")
  end
  if (Width < 16 || Width > 32) begin : g_bad_width
    `PINET_PARAM_RANGE_ERROR("rta_system1d: Width outside its verified range: [16, 32]")
  end

endmodule
