// Copyright pinet contributors.
//
// ps_network_assert: the assertions of ps_network (rtl/ps_network.sv): its status protocol,
// its channels, and that the routers, which decode one command bus, agree. Checked in every
// cycle out of reset, on that cycle's values. Each router has its own
// checker too (ps_router_assert). Bound to every ps_network in the builds by Verilator
// (ps_network_bind.sv), instantiated at the end of ps_network under `ifdef FORMAL for the proofs.
//
//   reset_status  the cycle after reset: not busy, not done, err_o OK
//   busy_done     busy_o and done_o are never both high
//   busy_agree    unless a link disagreed with its schedule, all routers are busy or none is
//   done_agree    the same for done
//   host_pe0      only PE 0's router uses its host port (request and words up)
//
// Cover properties (bins rtl_ps_network_<cover>):
//   link_error    some router saw a link disagree with its schedule
//   host_request  PE 0 requests a word from the host
//   host_up       PE 0 sends a word up the host link
// Every channel but the host's input is some router's output link, whose data is 0 when not
// valid by that router's checker (ps_router.link_data_zero): not checked again here.

`include "pinet_assert.svh"

module ps_network_assert #(
  parameter int N = 8
) (
  input logic                          clk_i,
  input logic                          rst_ni,
  input logic                          busy_o,
  input logic                          done_o,
  input logic [ps_pkg::PsErrWidth-1:0] err_o,
  // Internal: the routers' status and host requests
  input logic [N-1:0]                  busy,
  input logic [N-1:0]                  done,
  input logic [N-1:0]                  link_err,
  input logic [N-1:0]                  host_req,
  input logic [N-1:0]                  host_up_valid
);

  `PINET_ASSERT_IMPORT

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  // armed_q: a reset has been seen. Before the first one the state is whatever the simulator's
  // power-up gave it (random in the cosims), so nothing is checked; it starts 0 (the proofs'
  // initial state too, with a reset in the first cycle), the reset sets it and it stays set.
  logic armed_q = 1'b0;

  logic after_reset_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      after_reset_q <= 1'b1;
      armed_q       <= 1'b1;
    end else begin
      after_reset_q <= 1'b0;
    end
  end

  logic status_reset;  // the status after reset
  assign status_reset = !busy_o && !done_o && err_o == ps_pkg::PsErrOk;

  // Checked in every cycle out of reset (rst_ni high) once a reset has been seen (armed_q), on
  // the cycle's values and the previous cycle's (the flops above). Combinational, so that each
  // property speaks of the values it constrains: yosys samples an assertion of a clocked block
  // into a flop, one cycle late, which would leave the proofs' 1-inductive groups a step short.
  always_comb begin
    if (rst_ni && armed_q) begin
      `PINET_ASSERT("ps_network.reset_status", (!after_reset_q || status_reset))
      `PINET_ASSERT("ps_network.busy_done", !(busy_o && done_o))
      `PINET_ASSERT("ps_network.busy_agree", ((|link_err) || busy == '0 || busy == '1))
      `PINET_ASSERT("ps_network.done_agree", ((|link_err) || done == '0 || done == '1))
      `PINET_ASSERT("ps_network.host_pe0", ((host_req >> 1) == '0 && (host_up_valid >> 1) == '0))
    end
  end

  `PINET_COVER("ps_network.link_error", link_error, (|link_err))
  `PINET_COVER("ps_network.host_request", host_request, host_req[0])
  `PINET_COVER("ps_network.host_up", host_up, host_up_valid[0])

  /* verilator coverage_on */

endmodule
