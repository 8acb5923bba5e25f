// Copyright pinet contributors.
//
// tb_no_x_after_reset.svh: the module tb_no_x_after_reset, for the clocked testbenches (included at file scope).
// Once the reset has been applied (a falling edge of rst_n) and while it is released, no bit of
// `outputs` may be X or Z at a falling clock edge. Icarus starts every variable at X, so a flop
// that misses its reset shows here as one line "<Label>: output X/Z after reset at <time>:
// <bits>" and $fatal; under Verilator (two-state) it never fires. Data outputs that carry memory
// words, which are not reset, are left out by the caller.

`ifndef TB_NO_X_AFTER_RESET_SVH
`define TB_NO_X_AFTER_RESET_SVH
module tb_no_x_after_reset #(
  parameter        Label = "tb",
  parameter int    Width = 1
) (
  input logic             clk,
  input logic             rst_n,
  input logic [Width-1:0] outputs
);
  // A reset is seen as a falling edge of rst_n (a pulse between clock edges) or as rst_n low at
  // a falling clock edge (a reset from time 0, which has no edge); rst_n is read as the RTL reads
  // it, as an asynchronous reset.
  logic reset_seen = 1'b0;
  always @(negedge clk or negedge rst_n)
    if (!rst_n) reset_seen <= 1'b1;
    else if (reset_seen && $isunknown(outputs))
      $fatal(1, "%s: output X/Z after reset at %0t: %b", Label, $time, outputs);
endmodule
`endif
