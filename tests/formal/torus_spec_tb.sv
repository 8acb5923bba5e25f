// Copyright pinet contributors.
//
// torus_spec_tb: prints formal/rta_torus2d_spec.sv's port pairing for every bitmap of a Side x
// Side torus, in the form of `pinet rta route --dim 2` ("(r,c).<port> -> (r,c).<port>", ports
// L R U D per PE, after a line "bitmap <hex>"), for check_fabric_spec.sh.

module torus_spec_tb;
  parameter int Side = 4;
  localparam int M    = Side / 2 - 1;
  localparam int NB   = 2 * Side * M;
  localparam int IdxW = $clog2(Side * Side);

  logic [NB-1:0]             bitmap;
  logic [Side*Side*IdxW-1:0] l_peer, r_peer, u_peer, d_peer;

  rta_torus2d_spec #(.Side(Side)) u_spec (
    .bitmap_i(bitmap),
    .l_peer_o(l_peer),
    .r_peer_o(r_peer),
    .u_peer_o(u_peer),
    .d_peer_o(d_peer)
  );

  function automatic string pe(int i);
    return $sformatf("(%0d,%0d)", i / Side, i % Side);
  endfunction

  initial begin
    for (int b = 0; b < (1 << NB); b++) begin
      bitmap = NB'(b);
      #1;
      $display("bitmap %0h", b);
      for (int i = 0; i < Side * Side; i++) begin
        $display("%s.L -> %s.R", pe(i), pe(l_peer[i*IdxW +: IdxW]));
        $display("%s.R -> %s.L", pe(i), pe(r_peer[i*IdxW +: IdxW]));
        $display("%s.U -> %s.D", pe(i), pe(u_peer[i*IdxW +: IdxW]));
        $display("%s.D -> %s.U", pe(i), pe(d_peer[i*IdxW +: IdxW]));
      end
    end
    $finish;
  end
endmodule
