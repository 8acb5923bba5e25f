// Copyright pinet contributors.
//
// rta_bitmap_ctrl_assert: the assertions of rta_bitmap_ctrl (rtl/rta_bitmap_ctrl.sv), its
// command/acknowledge protocol (a command takes effect at the edge that takes it, err_o is that
// command's answer) and its state invariants. Checked in every cycle out of reset, on the
// cycle's values; the previous cycle's command and state are the checker's
// own flops. Bound to every rta_bitmap_ctrl in the builds by Verilator (rta_bitmap_ctrl_bind.sv:
// the controllers of rta_system1d/2d too), instantiated at the end of rta_bitmap_ctrl under
// `ifdef FORMAL for the proofs.
//
//   reset_state  the cycle after reset: SRTA, every switch ON, err_o OK
//   mode_legal   mode_o is SRTA, ARTA or RTA
//   err_code     err_o is one of rta_pkg::rta_err_e's codes
//   idle_stable  without a command nothing changes, err_o included
//   refused      a refused command (err_o not OK after it) leaves bitmap_o and mode_o as they were
//   nop          a NOP is accepted (err_o OK) and changes nothing
//
// Cover properties (bins rtl_rta_bitmap_ctrl_<cover>):
//   command_refused   a command answered with an error
//   command_changed   an accepted command that changed the bitmap or the mode
//   error_held        an error code kept through a cycle without a command
//   back_to_back      commands in two consecutive cycles

`include "pinet_assert.svh"

module rta_bitmap_ctrl_assert #(
  parameter int NumSwitches = 3
) (
  input logic                   clk_i,
  input logic                   rst_ni,
  input logic                   cmd_valid_i,
  input logic [2:0]             cmd_op_i,
  input logic [NumSwitches-1:0] bitmap_o,
  input logic [1:0]             mode_o,
  input logic [2:0]             err_o
);

  `PINET_ASSERT_IMPORT

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  // armed_q: a reset has been seen. Before the first one the state is whatever the simulator's
  // power-up gave it (random in the cosims), so nothing is checked; it starts 0 (the proofs'
  // initial state too, with a reset in the first cycle), the reset sets it and it stays set.
  logic armed_q = 1'b0;

  // The previous cycle: reset, the command, the state.
  logic                   after_reset_q, valid_q, nop_q;
  logic [NumSwitches-1:0] bitmap_q;
  logic [1:0]             mode_q;
  logic [2:0]             err_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      after_reset_q <= 1'b1;
      armed_q       <= 1'b1;
      valid_q       <= 1'b0;
      nop_q         <= 1'b0;
      bitmap_q      <= '0;
      mode_q        <= '0;
      err_q         <= '0;
    end else begin
      after_reset_q <= 1'b0;
      valid_q       <= cmd_valid_i;
      nop_q         <= cmd_valid_i && cmd_op_i == rta_pkg::CmdNop;
      bitmap_q      <= bitmap_o;
      mode_q        <= mode_o;
      err_q         <= err_o;
    end
  end

  logic unchanged, still, state_reset, ok;
  assign unchanged   = bitmap_o == bitmap_q && mode_o == mode_q;  // bitmap and mode as before
  assign still       = unchanged && err_o == err_q;                // err_o too
  assign state_reset = bitmap_o == '1 && mode_o == rta_pkg::ModeSrta && err_o == rta_pkg::ErrOk;
  assign ok          = err_o == rta_pkg::ErrOk;

  // Checked in every cycle out of reset (rst_ni high) once a reset has been seen (armed_q), on
  // the cycle's values and the previous cycle's (the flops above). Combinational, so that each
  // property speaks of the values it constrains: yosys samples an assertion of a clocked block
  // into a flop, one cycle late, which would leave the proofs' 1-inductive groups a step short.
  always_comb begin
    if (rst_ni && armed_q) begin
      `PINET_ASSERT("rta_bitmap_ctrl.reset_state", (!after_reset_q || state_reset))
      `PINET_ASSERT("rta_bitmap_ctrl.mode_legal", (mode_o <= rta_pkg::ModeRta))
      `PINET_ASSERT("rta_bitmap_ctrl.err_code", (err_o <= rta_pkg::ErrBadMode))
      `PINET_ASSERT("rta_bitmap_ctrl.idle_stable", (after_reset_q || valid_q || still))
      `PINET_ASSERT("rta_bitmap_ctrl.refused", (after_reset_q || !valid_q || ok || unchanged))
      `PINET_ASSERT("rta_bitmap_ctrl.nop", (after_reset_q || !nop_q || (unchanged && ok)))
    end
  end

  `PINET_COVER("rta_bitmap_ctrl.command_refused", command_refused, (!after_reset_q && valid_q && !ok))
  `PINET_COVER("rta_bitmap_ctrl.command_changed", command_changed,
               (!after_reset_q && valid_q && ok && !unchanged))
  `PINET_COVER("rta_bitmap_ctrl.error_held", error_held, (!after_reset_q && !valid_q && !ok))
  `PINET_COVER("rta_bitmap_ctrl.back_to_back", back_to_back, (valid_q && cmd_valid_i))

  /* verilator coverage_on */

endmodule
