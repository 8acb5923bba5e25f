// Copyright pinet contributors.
//
// rta_system2d: a complete 2D RTA: the bitmap controller (u_ctrl, Dim 2) driving the switches of
// a Side x Side torus of rings (u_torus). The torus's bitmap is the controller's bitmap_o
// (horizontal rings first, then vertical rings; see rta_torus2d).
//
// Ports: the controller's command interface (see rta_bitmap_ctrl) and the torus's PE ports (see
// rta_torus2d: PE (r, c) is word r*Side + c, bits [(r*Side+c)*Width +: Width]).
//
// Latency: a command takes effect at the rising edge that takes it (one cycle, rta_bitmap_ctrl);
// from then on the torus routes the words combinationally through the new switch states. After
// reset every row and column is one ring of Side PEs (SRTA level L, every switch ON).

`include "pinet_param.svh"

module rta_system2d #(
  parameter int Side  = 4,
  parameter int Width = 32
) (
  input  logic                            clk_i,
  input  logic                            rst_ni,
  input  logic                            cmd_valid_i,
  input  logic [2:0]                      cmd_op_i,
  input  logic [rta_pkg::RtaArgWidth-1:0] cmd_arg_i,
  input  logic [Side*(Side-2)-1:0]        cmd_bitmap_i,
  output logic [Side*(Side-2)-1:0]        bitmap_o,
  output logic [1:0]                      mode_o,
  output logic [2:0]                      err_o,
  input  logic [Side*Side*Width-1:0]      l_i,
  input  logic [Side*Side*Width-1:0]      r_i,
  input  logic [Side*Side*Width-1:0]      u_i,
  input  logic [Side*Side*Width-1:0]      d_i,
  output logic [Side*Side*Width-1:0]      l_o,
  output logic [Side*Side*Width-1:0]      r_o,
  output logic [Side*Side*Width-1:0]      u_o,
  output logic [Side*Side*Width-1:0]      d_o
);

  ////////////////
  // Controller //
  ////////////////

  rta_bitmap_ctrl #(
    .Dim (2),
    .Side(Side)
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

  rta_torus2d #(
    .Side (Side),
    .Width(Width)
  ) u_torus (
    .bitmap_i(bitmap_o),
    .l_i     (l_i),
    .r_i     (r_i),
    .u_i     (u_i),
    .d_i     (d_i),
    .l_o     (l_o),
    .r_o     (r_o),
    .u_o     (u_o),
    .d_o     (d_o)
  );

  ////////////////
  // Parameters //
  ////////////////

  // The parameter ranges a registered run or proof covers at both ends (docs/verification.md,
  // "Parameter ranges": widening one means adding its run); the controller and the fabric
  // check theirs too. Icarus 11 has no elaboration-time $error: there the checks run at time 0.
  if (Side < 4 || Side > 128 || (Side & (Side - 1)) != 0) begin : g_bad_side
    `PINET_PARAM_RANGE_ERROR(
      "rta_system2d: Side outside its verified range: a power of two in [4, 128]")
  end
  if (Width < 16 || Width > 32) begin : g_bad_width
    `PINET_PARAM_RANGE_ERROR("rta_system2d: Width outside its verified range: [16, 32]")
  end

endmodule
