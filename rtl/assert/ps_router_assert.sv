// Copyright pinet contributors.
//
// ps_router_assert: the assertions of ps_router (rtl/ps_router.sv): its status and link
// protocol and two invariants of its registered plan against its sequencer (the plan's own
// contract is the planner's checker's, ps_router_planner_assert.sv). Bound to every ps_router in the Verilator
// builds (ps_router_bind.sv) and instantiated at the end of ps_router under `ifdef FORMAL, so the
// proofs of scripts/formal.sh prove them too. Properties are checked in every cycle out
// of reset (rst_ni high), on that cycle's values.
//
//   reset_status     the cycle after reset: not busy, not done, err_o OK
//   busy_done        busy_o and done_o are never both high
//   err_code         err_o is one of ps_pkg::ps_err_e's codes (OK .. LINK)
//   link_data_zero   an output link (and the host link up, with its address) carries 0 when not
//                    valid
//   idle_quiet       while not busy no output link is valid and the host port is quiet
//   start_only       busy_o rises only after a cycle with cmd_start_i
//   done_held        done_o stays high until a cycle with cmd_start_i
//   write_ports      the two memory write ports never write one address in one cycle
//   transfer_in_step no transfer of the registered plan ends after the sequencer's step
//                    (start + length <= L_s; an idle port, of length 0, has no transfer)
//
// Cover properties (functional coverage from inside: bins rtl_ps_router_<cover>):
//   cmd_setup        a command in a run's setup cycle (refused: busy)
//   cmd_mid_step     a command in a transfer cycle before the step's last word
//   cmd_last_word    a command in the step's last transfer cycle
//   cmd_on_done      a command in a cycle with done_o high (back to back)
//   fast_transfer    a transfer cycle of a fast schedule
//   both_writes      both memory write ports writing in one cycle
//   host_write       a transfer cycle writing a word from the host link
//   link_error       err_o is LINK (a link disagreed with the schedule)
//   busy_refused     err_o is BUSY

`include "pinet_assert.svh"

module ps_router_assert #(
  parameter int Width    = 32,
  parameter int AddrW    = 8,
  parameter int CntW     = 9
) (
  input logic                          clk_i,
  input logic                          rst_ni,
  input logic                          cmd_start_i,
  input logic                          busy_o,
  input logic                          done_o,
  input logic [ps_pkg::PsErrWidth-1:0] err_o,
  input logic [3:0]                    out_valid_o,
  input logic [4*Width-1:0]            out_data_o,
  input logic                          host_req_o,
  input logic [AddrW-1:0]              host_req_addr_o,
  input logic                          host_valid_o,
  input logic [Width-1:0]              host_data_o,
  input logic [AddrW-1:0]              host_addr_o,
  // Internal: the write ports, the transfer cycle, the registered plan's starts and lengths, L_s
  input logic                          xfer,
  input logic                          last_word,
  input logic                          fast_q,
  input logic                          wra_act,
  input logic                          wrb_act,
  input logic [AddrW-1:0]              wra_addr,
  input logic [AddrW-1:0]              wrb_addr,
  input logic                          wra_host_q,
  input logic [CntW-1:0]               len_q,
  input logic [4*CntW-1:0]             plan_start,  // per port (ps_pkg::PsPort*)
  input logic [4*CntW-1:0]             plan_len
);

  `PINET_ASSERT_IMPORT

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing branches run only on an RTL bug

  // armed_q: a reset has been seen. Before the first one the state is whatever the simulator's
  // power-up gave it (random in the cosims), so nothing is checked; it starts 0 (the proofs'
  // initial state too, with a reset in the first cycle), the reset sets it and it stays set.
  logic armed_q = 1'b0;

  // The previous cycle: reset, busy, done, a command (the checker's own flops).
  logic after_reset_q, busy_q, done_q, start_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      after_reset_q <= 1'b1;
      armed_q       <= 1'b1;
      busy_q        <= 1'b0;
      done_q        <= 1'b0;
      start_q       <= 1'b0;
    end else begin
      after_reset_q <= 1'b0;
      busy_q        <= busy_o;
      done_q        <= done_o;
      start_q       <= cmd_start_i;
    end
  end

  function automatic logic ends_in_step(logic [CntW-1:0] first, logic [CntW-1:0] len,
                                        logic [CntW-1:0] step_len);
    ends_in_step = (len == '0) || ({1'b0, first} + {1'b0, len} <= {1'b0, step_len});
  endfunction

  logic in_step;
  always_comb begin
    in_step = 1'b1;
    for (int p = 0; p < 4; p++) begin
      in_step = in_step && ends_in_step(plan_start[p*CntW +: CntW], plan_len[p*CntW +: CntW],
                                        len_q);
    end
  end

  logic status_reset, quiet;  // the status after reset; no link or host request active
  assign status_reset = !busy_o && !done_o && err_o == ps_pkg::PsErrOk;
  assign quiet        = out_valid_o == '0 && !host_valid_o && !host_req_o && host_req_addr_o == '0;

  logic links_zero;
  always_comb begin
    links_zero = host_valid_o || (host_data_o == '0 && host_addr_o == '0);
    for (int p = 0; p < 4; p++) begin
      links_zero = links_zero && (out_valid_o[p] || out_data_o[p*Width +: Width] == '0);
    end
  end

  // Checked in every cycle out of reset (rst_ni high) once a reset has been seen (armed_q), on
  // the cycle's values and the previous cycle's (the flops above). Combinational, so that each
  // property speaks of the values it constrains: yosys samples an assertion of a clocked block
  // into a flop, one cycle late, which would leave the proofs' 1-inductive groups a step short.
  always_comb begin
    if (rst_ni && armed_q) begin
      `PINET_ASSERT("ps_router.reset_status", (!after_reset_q || status_reset))
      `PINET_ASSERT("ps_router.busy_done", !(busy_o && done_o))
      `PINET_ASSERT("ps_router.err_code", (err_o <= ps_pkg::PsErrLink))
      `PINET_ASSERT("ps_router.link_data_zero", links_zero)
      `PINET_ASSERT("ps_router.idle_quiet", (busy_o || quiet))
      `PINET_ASSERT("ps_router.start_only", (busy_q || start_q || !busy_o))
      `PINET_ASSERT("ps_router.done_held", (!done_q || start_q || done_o))
      `PINET_ASSERT("ps_router.write_ports", (!(wra_act && wrb_act) || wra_addr != wrb_addr))
      `PINET_ASSERT("ps_router.transfer_in_step", (!xfer || in_step))
    end
  end

  `PINET_COVER("ps_router.cmd_setup", cmd_setup, (cmd_start_i && busy_o && !xfer))
  `PINET_COVER("ps_router.cmd_mid_step", cmd_mid_step, (cmd_start_i && xfer && !last_word))
  `PINET_COVER("ps_router.cmd_last_word", cmd_last_word, (cmd_start_i && xfer && last_word))
  `PINET_COVER("ps_router.cmd_on_done", cmd_on_done, (cmd_start_i && done_o))
  `PINET_COVER("ps_router.fast_transfer", fast_transfer, (xfer && fast_q))
  `PINET_COVER("ps_router.both_writes", both_writes, (wra_act && wrb_act))
  `PINET_COVER("ps_router.host_write", host_write, (xfer && wra_host_q))
  `PINET_COVER("ps_router.link_error", link_error, (err_o == ps_pkg::PsErrLink))
  `PINET_COVER("ps_router.busy_refused", busy_refused, (err_o == ps_pkg::PsErrBusy))

  /* verilator coverage_on */

endmodule
