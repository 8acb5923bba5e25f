// Copyright pinet contributors.
//
// rta_ring_formal: formal properties of rtl/rta_ring.sv (docs/formal.md), read by
// scripts/formal.sh with yosys -formal. One property group per `ifdef CHECK_<GROUP>`.
//
// Environment: none on the bitmap. Every bitmap is legal in general RTA mode, so the proofs
// cover every switch pattern (SRTA and ARTA patterns included). The block has no state: one step
// of BMC covers every input and the 1-induction proof is complete.
//
// Ports are numbered 0 .. 2N-1: port q < N is PE q's L port, port q >= N is PE (q-N)'s R port.
//
// Groups:
//   contention  no output is driven from two sources and no word is lost or copied: with two
//               distinct source ports a, b driving distinct non-zero words (every other port
//               driving 0), exactly one output carries a's word, exactly one b's, and every other
//               output carries 0. (Stated without the routing specification.)
//   route       every port is joined to the port formal/rta_ring_spec.sv names (the segments the
//               OFF switches cut the ring into): r_o[i] = l_i[r_peer(i)], l_o[i] = r_i[l_peer(i)]
//               for every input word.

module rta_ring_formal #(
  parameter int  N     = 8,
  parameter int  Width = 8,
  localparam int PortW = $clog2(2 * N),
  localparam int IdxW  = $clog2(N)
) (
  input logic [N/2-2:0]     bitmap_i,
  input logic [N*Width-1:0] l_i,
  input logic [N*Width-1:0] r_i,
  input logic [PortW-1:0]   src_a_i,
  input logic [PortW-1:0]   src_b_i,
  input logic [Width-1:0]   word_a_i,
  input logic [Width-1:0]   word_b_i
);

`ifdef CHECK_CONTENTION
  // Two tokens: port src_a_i drives word_a_i, port src_b_i drives word_b_i, the others 0.
  logic [N*Width-1:0] tok_l_in, tok_r_in, tok_l_out, tok_r_out;
  for (genvar i = 0; i < N; i++) begin : g_tok
    assign tok_l_in[i*Width +: Width] = (src_a_i == PortW'(i))     ? word_a_i :
                                        (src_b_i == PortW'(i))     ? word_b_i : '0;
    assign tok_r_in[i*Width +: Width] = (src_a_i == PortW'(N + i)) ? word_a_i :
                                        (src_b_i == PortW'(N + i)) ? word_b_i : '0;
  end

  rta_ring #(
    .N    (N),
    .Width(Width)
  ) u_dut_tok (
    .bitmap_i(bitmap_i),
    .l_i     (tok_l_in),
    .r_i     (tok_r_in),
    .l_o     (tok_l_out),
    .r_o     (tok_r_out)
  );

  logic [2*N*Width-1:0] f_out;
  logic [2*N-1:0]       f_is_a, f_is_b, f_is_zero;
  assign f_out = {tok_r_out, tok_l_out};
  for (genvar q = 0; q < 2 * N; q++) begin : g_cmp
    assign f_is_a[q]    = f_out[q*Width +: Width] == word_a_i;
    assign f_is_b[q]    = f_out[q*Width +: Width] == word_b_i;
    assign f_is_zero[q] = f_out[q*Width +: Width] == '0;
  end

  always @(*) begin
    assume (src_a_i != src_b_i);
    assume (word_a_i != '0 && word_b_i != '0 && word_a_i != word_b_i);
    // Exactly one bit set (one-hot; z3 settles this faster than $countones(..) == 1).
    assert (f_is_a != '0 && (f_is_a & (f_is_a - 1'b1)) == '0);
    assert (f_is_b != '0 && (f_is_b & (f_is_b - 1'b1)) == '0);
    assert (&(f_is_a | f_is_b | f_is_zero));
  end
`endif

`ifdef CHECK_ROUTE
  logic [N*Width-1:0] l_o, r_o;
  rta_ring #(
    .N    (N),
    .Width(Width)
  ) u_dut (
    .bitmap_i(bitmap_i),
    .l_i     (l_i),
    .r_i     (r_i),
    .l_o     (l_o),
    .r_o     (r_o)
  );

  logic [N*IdxW-1:0] r_peer, l_peer;
  rta_ring_spec #(
    .N(N)
  ) u_spec (
    .bitmap_i(bitmap_i),
    .r_peer_o(r_peer),
    .l_peer_o(l_peer)
  );

  // One implication per (port, candidate peer) pair: z3 proves these faster than one
  // comparison through a variable part-select.
  for (genvar i = 0; i < N; i++) begin : g_route
    for (genvar j = 0; j < N; j++) begin : g_peer
      always @(*) begin
        if (r_peer[i*IdxW +: IdxW] == IdxW'(j)) begin
          assert (r_o[i*Width +: Width] == l_i[j*Width +: Width]);
        end
        if (l_peer[i*IdxW +: IdxW] == IdxW'(j)) begin
          assert (l_o[i*Width +: Width] == r_i[j*Width +: Width]);
        end
      end
    end
  end
`endif

endmodule
