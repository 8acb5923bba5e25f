// Copyright pinet contributors.
//
// rta_torus2d_formal: formal properties of rtl/rta_torus2d.sv (docs/formal.md), read by
// scripts/formal.sh with yosys -formal. One property group per `ifdef CHECK_<GROUP>`.
//
// Environment: none on the bitmap (every bitmap is legal in general RTA mode: the proofs cover
// every switch pattern). The block has no state: one step of BMC covers every input.
//
// PE i = r*Side + c, P = Side*Side.
//
// Group:
//   route       every port is joined to the port formal/rta_torus2d_spec.sv names (rows and
//               columns are rings of formal/rta_ring_spec.sv, bitmap rows first):
//               l_o[i] = r_i[l_peer(i)], r_o[i] = l_i[r_peer(i)], u_o[i] = d_i[u_peer(i)],
//               d_o[i] = u_i[d_peer(i)], for every input word; and no two ports share a peer,
//               so that the route also proves the absence of contention (the two-token form of
//               formal/rta_ring.sv did not finish within 10 minutes here at Side = 4).

module rta_torus2d_formal #(
  parameter int  Side  = 4,
  parameter int  Width = 8,
  localparam int P     = Side * Side,
  localparam int IdxW  = $clog2(P)
) (
  input logic [Side*(Side-2)-1:0] bitmap_i,
  input logic [P*Width-1:0]       l_i,
  input logic [P*Width-1:0]       r_i,
  input logic [P*Width-1:0]       u_i,
  input logic [P*Width-1:0]       d_i
);

`ifdef CHECK_ROUTE
  logic [P*Width-1:0] l_o, r_o, u_o, d_o;
  rta_torus2d #(
    .Side (Side),
    .Width(Width)
  ) u_dut (
    .bitmap_i(bitmap_i),
    .l_i     (l_i),
    .r_i     (r_i),
    .u_i     (u_i),
    .d_i     (d_i),
    .l_o     (l_o),
    .r_o     (r_o),
    .u_o     (u_o),
    .d_o     (d_o)
  );

  logic [P*IdxW-1:0] l_peer, r_peer, u_peer, d_peer;
  rta_torus2d_spec #(
    .Side(Side)
  ) u_spec (
    .bitmap_i(bitmap_i),
    .l_peer_o(l_peer),
    .r_peer_o(r_peer),
    .u_peer_o(u_peer),
    .d_peer_o(d_peer)
  );

  // One implication per (port, candidate peer) pair. A row port's peer is in its row, a column
  // port's in its column; any other value fails the assertion below.
  for (genvar i = 0; i < P; i++) begin : g_route
    for (genvar k = 0; k < Side; k++) begin : g_peer
      localparam int RowPe = (i / Side) * Side + k;  // PE (r, k)
      localparam int ColPe = k * Side + i % Side;     // PE (k, c)
      always @(*) begin
        if (l_peer[i*IdxW +: IdxW] == IdxW'(RowPe)) begin
          assert (l_o[i*Width +: Width] == r_i[RowPe*Width +: Width]);
        end
        if (r_peer[i*IdxW +: IdxW] == IdxW'(RowPe)) begin
          assert (r_o[i*Width +: Width] == l_i[RowPe*Width +: Width]);
        end
        if (u_peer[i*IdxW +: IdxW] == IdxW'(ColPe)) begin
          assert (u_o[i*Width +: Width] == d_i[ColPe*Width +: Width]);
        end
        if (d_peer[i*IdxW +: IdxW] == IdxW'(ColPe)) begin
          assert (d_o[i*Width +: Width] == u_i[ColPe*Width +: Width]);
        end
      end
    end
    // The specification itself keeps rows and columns apart (checked against the C model by
    // tests/formal/check_fabric_spec.sh); stated here so that no peer escapes the pairs above.
    always @(*) begin
      assert (l_peer[i*IdxW +: IdxW] / IdxW'(Side) == IdxW'(i / Side));
      assert (r_peer[i*IdxW +: IdxW] / IdxW'(Side) == IdxW'(i / Side));
      assert (u_peer[i*IdxW +: IdxW] % IdxW'(Side) == IdxW'(i % Side));
      assert (d_peer[i*IdxW +: IdxW] % IdxW'(Side) == IdxW'(i % Side));
    end
    // No two ports share a peer: with the equalities above every output carries exactly one
    // input and no input reaches two outputs, which is the contention property (its direct
    // two-token form did not finish within 10 minutes at Side = 4).
    for (genvar j = i + 1; j < P; j++) begin : g_injective
      always @(*) begin
        assert (l_peer[i*IdxW +: IdxW] != l_peer[j*IdxW +: IdxW]);
        assert (r_peer[i*IdxW +: IdxW] != r_peer[j*IdxW +: IdxW]);
        assert (u_peer[i*IdxW +: IdxW] != u_peer[j*IdxW +: IdxW]);
        assert (d_peer[i*IdxW +: IdxW] != d_peer[j*IdxW +: IdxW]);
      end
    end
  end
`endif

endmodule
