// Copyright pinet contributors.
//
// rta_torus2d_spec: where every port of a Side x Side RTA torus leads, for any switch bitmap. A
// specification for formal/rta_torus2d.sv, written from docs/rta.md and
// cmodel/include/pinet/rta.h: every row (L/R ports) and every column (U/D ports, U toward row 0)
// is one ring of formal/rta_ring_spec.sv; bitmap bits r*M + p drive row r's switch p, bits
// Side*M + c*M + p column c's switch p (horizontal rings first), M = Side/2 - 1.
//
// Outputs: PE (r, c) is the scalar i = r*Side + c, its entry at [i*IdxW +: IdxW] names a PE:
//   l_peer_o: the PE whose R port PE i's L port is joined to (same row);
//   r_peer_o: the PE whose L port PE i's R port is joined to (same row);
//   u_peer_o: the PE whose D port PE i's U port is joined to (same column);
//   d_peer_o: the PE whose U port PE i's D port is joined to (same column).

module rta_torus2d_spec #(
  parameter int  Side    = 4,
  localparam int M       = Side / 2 - 1,
  localparam int IdxW    = $clog2(Side * Side),
  localparam int RingW   = $clog2(Side)
) (
  input  logic [2*Side*M-1:0]       bitmap_i,
  output logic [Side*Side*IdxW-1:0] l_peer_o,
  output logic [Side*Side*IdxW-1:0] r_peer_o,
  output logic [Side*Side*IdxW-1:0] u_peer_o,
  output logic [Side*Side*IdxW-1:0] d_peer_o
);

  // Row r: ring position c is PE (r, c).
  for (genvar r = 0; r < Side; r++) begin : g_row
    logic [Side*RingW-1:0] r_peer, l_peer;
    rta_ring_spec #(
      .N(Side)
    ) u_ring (
      .bitmap_i(bitmap_i[r*M +: M]),
      .r_peer_o(r_peer),
      .l_peer_o(l_peer)
    );
    for (genvar c = 0; c < Side; c++) begin : g_pe
      assign r_peer_o[(r*Side+c)*IdxW +: IdxW] = IdxW'(r * Side) + IdxW'(r_peer[c*RingW +: RingW]);
      assign l_peer_o[(r*Side+c)*IdxW +: IdxW] = IdxW'(r * Side) + IdxW'(l_peer[c*RingW +: RingW]);
    end
  end

  // Column c: ring position r is PE (r, c); D plays R, U plays L.
  for (genvar c = 0; c < Side; c++) begin : g_col
    logic [Side*RingW-1:0] d_peer, u_peer;
    rta_ring_spec #(
      .N(Side)
    ) u_ring (
      .bitmap_i(bitmap_i[(Side+c)*M +: M]),
      .r_peer_o(d_peer),
      .l_peer_o(u_peer)
    );
    for (genvar r = 0; r < Side; r++) begin : g_pe
      assign d_peer_o[(r*Side+c)*IdxW +: IdxW] =
          IdxW'(d_peer[r*RingW +: RingW]) * IdxW'(Side) + IdxW'(c);
      assign u_peer_o[(r*Side+c)*IdxW +: IdxW] =
          IdxW'(u_peer[r*RingW +: RingW]) * IdxW'(Side) + IdxW'(c);
    end
  end

endmodule
