// Copyright pinet contributors.
//
// rta_ring_spec: where every port of one RTA ring of N PEs leads, for any switch bitmap. A
// specification for the property files (formal/rta_ring.sv, formal/rta_torus2d.sv), written from
// docs/rta.md "Wiring" in terms of segments, not of switches and bypass pieces as rtl/rta_ring.sv:
//   - the ring is cut between PE i and PE i+1 when i = 2p+1 and switch p is OFF, and always
//     between PE N-1 and PE 0 (the bypass closes each segment);
//   - the PEs between two cuts form a segment; inside it PE i's R port is joined to PE i+1's L
//     port, and the segment's last PE's R port to its first PE's L port.
// This is the pairing cmodel/src/rta_route.c (route_ring) computes in its left-to-right sweep.
//
// Outputs (PE i at [i*IdxW +: IdxW]):
//   r_peer_o[i]: the PE whose L port PE i's R port is joined to;
//   l_peer_o[i]: the PE whose R port PE i's L port is joined to.

module rta_ring_spec #(
  parameter int  N    = 8,
  localparam int IdxW = $clog2(N)
) (
  input  logic [N/2-2:0]    bitmap_i,
  output logic [N*IdxW-1:0] r_peer_o,
  output logic [N*IdxW-1:0] l_peer_o
);

  logic [N-1:0]      cut;    // cut[i]: no link between PE i and PE i+1 (mod N) along the ring
  logic [N*IdxW-1:0] first;  // first PE of PE i's segment
  logic [N*IdxW-1:0] last;   // last PE of PE i's segment

  for (genvar i = 0; i < N; i++) begin : g_cut
    if (i == N - 1) begin : g_wrap
      assign cut[i] = 1'b1;
    end else if (i % 2 == 1) begin : g_switch
      assign cut[i] = ~bitmap_i[(i - 1) / 2];
    end else begin : g_direct
      assign cut[i] = 1'b0;
    end
  end

  for (genvar i = 0; i < N; i++) begin : g_first
    if (i == 0) begin : g_start
      assign first[i*IdxW +: IdxW] = '0;
    end else begin : g_next
      assign first[i*IdxW +: IdxW] = cut[i-1] ? IdxW'(i) : first[(i-1)*IdxW +: IdxW];
    end
  end

  for (genvar i = N - 1; i >= 0; i--) begin : g_last
    if (i == N - 1) begin : g_end
      assign last[i*IdxW +: IdxW] = IdxW'(N - 1);
    end else begin : g_prev
      assign last[i*IdxW +: IdxW] = cut[i] ? IdxW'(i) : last[(i+1)*IdxW +: IdxW];
    end
  end

  for (genvar i = 0; i < N; i++) begin : g_peer
    assign r_peer_o[i*IdxW +: IdxW] = cut[i] ? first[i*IdxW +: IdxW] : IdxW'(i + 1);
    if (i == 0) begin : g_start
      assign l_peer_o[i*IdxW +: IdxW] = last[i*IdxW +: IdxW];
    end else begin : g_next
      assign l_peer_o[i*IdxW +: IdxW] = cut[i-1] ? last[i*IdxW +: IdxW] : IdxW'(i - 1);
    end
  end

endmodule
