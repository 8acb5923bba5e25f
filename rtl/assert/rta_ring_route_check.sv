// Copyright pinet contributors.
//
// rta_ring_route_check: the routes of one 1D RTA ring (SPEC 1.1) as three flags, stated per link
// of the ring rather than per switch and bypass piece; the OFF switches cut the ring into
// segments of consecutive PEs, each a ring of its own. Asserted by rta_ring_assert on a ring's
// ports.
//
//   direct_ok_o   PE 2m's R port and PE 2m+1's L port are wired to each other (no switch)
//   on_ok_o       an ON switch p joins PE 2p+1's R port and PE 2p+2's L port, both ways
//   segment_ok_o  the R port of a segment's last PE (before an OFF switch, or PE N-1) and the L
//                 port of its first PE (after the previous OFF switch, or PE 0) are joined,
//                 both ways
//
// Combinational, one term per PE pair and per switch, at constant positions (generate loops: a
// procedural loop of more than 64 iterations stays a loop over variable part-selects of the
// whole port in Verilator 5.006, at twice the cost per PE). The words at a segment's first PE are
// carried along the switches (first_l_i, first_l_o) rather than read at a variable position.

module rta_ring_route_check #(
  parameter int N     = 8,
  parameter int Width = 32
) (
  input  logic [N/2-2:0]     bitmap_i,
  input  logic [N*Width-1:0] l_i,
  input  logic [N*Width-1:0] r_i,
  input  logic [N*Width-1:0] l_o,
  input  logic [N*Width-1:0] r_o,
  output logic               direct_ok_o,
  output logic               on_ok_o,
  output logic               segment_ok_o
);

  // Not counted by coverage (verify.sh --coverage lists the region with its reason):
  /* verilator coverage_off */ // a checker: its failing terms are false only on an RTL bug

  localparam int NumSwitches = N / 2 - 1;

  logic [N/2-1:0]         direct_good;
  logic [NumSwitches-1:0] on_good;
  logic [NumSwitches:0]   segment_good;
  // first_l_i[p] / first_l_o[p]: the words driven out of / arriving at the L port of the first
  // PE of the segment whose last PE is 2p+1 (PE N-1 for p = NumSwitches).
  logic [Width-1:0]       first_l_i [NumSwitches+1] /*verilator split_var*/;
  logic [Width-1:0]       first_l_o [NumSwitches+1] /*verilator split_var*/;

  assign first_l_i[0] = l_i[0 +: Width];
  assign first_l_o[0] = l_o[0 +: Width];

  for (genvar m = 0; m < N / 2; m++) begin : g_pair
    assign direct_good[m] = r_o[(2*m)*Width +: Width] == l_i[(2*m+1)*Width +: Width] &&
                            l_o[(2*m+1)*Width +: Width] == r_i[(2*m)*Width +: Width];
  end

  for (genvar p = 0; p <= NumSwitches; p++) begin : g_link
    logic ends_segment;  // PE 2p+1 is the last of its segment
    if (p < NumSwitches) begin : g_switch
      assign ends_segment = !bitmap_i[p];
      assign on_good[p]   = !bitmap_i[p] ||
                            (r_o[(2*p+1)*Width +: Width] == l_i[(2*p+2)*Width +: Width] &&
                             l_o[(2*p+2)*Width +: Width] == r_i[(2*p+1)*Width +: Width]);
      assign first_l_i[p+1] = bitmap_i[p] ? first_l_i[p] : l_i[(2*p+2)*Width +: Width];
      assign first_l_o[p+1] = bitmap_i[p] ? first_l_o[p] : l_o[(2*p+2)*Width +: Width];
    end else begin : g_last
      assign ends_segment = 1'b1;
    end
    assign segment_good[p] = !ends_segment ||
                             (r_o[(2*p+1)*Width +: Width] == first_l_i[p] &&
                              first_l_o[p] == r_i[(2*p+1)*Width +: Width]);
  end

  assign direct_ok_o  = &direct_good;
  assign on_ok_o      = &on_good;
  assign segment_ok_o = &segment_good;

  /* verilator coverage_on */

endmodule
