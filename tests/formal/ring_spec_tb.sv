// Copyright pinet contributors.
//
// ring_spec_tb: prints formal/rta_ring_spec.sv's port pairing for every bitmap of one ring, in
// the form of `pinet rta route` ("<pe>.<port> -> <pe>.<port>", one port per line, after a line
// "bitmap <hex>"), so that check_fabric_spec.sh can compare the specification with the C model.

module ring_spec_tb;
  parameter int N = 8;
  localparam int M    = N / 2 - 1;
  localparam int IdxW = $clog2(N);

  logic [M-1:0]      bitmap;
  logic [N*IdxW-1:0] r_peer, l_peer;

  rta_ring_spec #(.N(N)) u_spec (
    .bitmap_i(bitmap),
    .r_peer_o(r_peer),
    .l_peer_o(l_peer)
  );

  initial begin
    for (int b = 0; b < (1 << M); b++) begin
      bitmap = M'(b);
      #1;
      $display("bitmap %0h", b);
      for (int i = 0; i < N; i++) begin
        $display("%0d.L -> %0d.R", i, l_peer[i*IdxW +: IdxW]);
        $display("%0d.R -> %0d.L", i, r_peer[i*IdxW +: IdxW]);
      end
    end
    $finish;
  end
endmodule
