// Copyright pinet contributors.
//
// ps_router_planner: the planner of one perfect-shuffle router (ps_router), pure combinational.
// From the accepted command (op, fast, M, the broadcast packet size M / n and the fast split f,
// as the sequencer ps_router_seq holds them), the step number and the straps (pe_i and the
// ring straps) it derives the step's plan: the step length L_s and, for each memory port, a
// descriptor (ps_pkg: offset in the image, length, start; port p at [p * DescW +: DescW]),
// and the read ports' targets and the write ports' sources. No table is loaded: closed forms
// of docs/shuffle.md section 2 (paper schedules) and section 13 (fast), with d = depth of Pe in
// the embedded tree PE 0 -> 1, p -> 2p, 2p+1; each port gets an offset x * unit and a length
// unit << e, where unit is M >> (k, n + 1 - k or n) or M / n (broadcast packets), and in the
// fast schedules a start. Every router derives the same L_s, so all stay in lock step.
//
// The top registers the plan in each step's setup cycle (and asks the host for word 0 from it).
// The outputs are meaningful for the states the sequencer holds (an accepted command and a step
// of it, or the reset state); the checker (rtl/assert/ps_router_planner_assert.sv) states the
// plan's contract for every such input.

module ps_router_planner #(
  parameter int  N        = 8,
  parameter int  MemWords = 256,
  localparam int AddrW    = (MemWords > 1) ? $clog2(MemWords) : 1,
  localparam int PeW      = (N > 1) ? $clog2(N) : 1,
  localparam int LogN     = $clog2(N),             // n
  // M, lengths, starts: M <= MemWords, L_s <= M + n (fast bcast-host)
  localparam int CntW     = $clog2(MemWords + LogN + 1),
  // Steps: at most 2n (paper broadcasts) or N/2 (fast allgather); the 1-based step number st
  // must hold N/2.
  localparam int StepW    = (LogN > 5) ? LogN : 5,
  localparam int DescW    = ps_pkg::ps_desc_w(AddrW, CntW)
) (
  // This router's PE number and its place on the ring (straps)
  input  logic [PeW-1:0]                    pe_i,
  input  logic                              ring_succ_link_i,
  input  logic                              ring_pred_link_i,
  // The accepted command (ps_router_seq's registers) and the step number, 0-based
  input  logic [ps_pkg::PsOpWidth-1:0]      op_i,
  input  logic                              fast_i,
  input  logic [CntW-1:0]                   m_i,       // M
  input  logic [CntW-1:0]                   pkt_i,     // M / n: broadcast packet size
  input  logic [CntW-1:0]                   fwords_i,  // fast split f
  input  logic [StepW-1:0]                  step_i,
  // The step's plan: its length L_s, the four ports' descriptors (ps_pkg::PsPort*), read A's
  // targets (ps_pkg::PsTo*), read B's ({out 3, out 1, out 0}), write B from in 2 (else in 3),
  // write A's source and whether it also adds write B's input link
  output logic [CntW-1:0]                   len_o,
  output logic [ps_pkg::PsPorts*DescW-1:0]  desc_o,
  output logic [3:0]                        rda_to_o,
  output logic [2:0]                        rdb_to_o,
  output logic                              wrb_in2_o,
  output logic [2:0]                        wra_src_o,
  output logic                              wra_add3_o
);

  // Local alias of the package enum (Icarus 11 crashes on a variable declared directly with a
  // package-scoped enum type).
  typedef ps_pkg::ps_src_e src_e;

  localparam int XW    = LogN + 1;              // offset multipliers x < 2N
  // A fast schedule's per-port delay (its start less the offset in the packet): at most n + 1
  localparam int DlyW  = $clog2(LogN + 2);

  localparam logic [StepW-1:0] StOne    = StepW'(1);
  localparam logic [StepW-1:0] StN      = StepW'(LogN);
  localparam logic [StepW-1:0] StN1     = StepW'(LogN + 1);
  localparam logic [XW-1:0]    XOne     = XW'(1);

  localparam int ToOut0 = ps_pkg::PsToOut0;
  localparam int ToOut2 = ps_pkg::PsToOut2;
  localparam int ToOut3 = ps_pkg::PsToOut3;
  localparam int ToHost = ps_pkg::PsToHost;

  localparam int DLen   = ps_pkg::ps_desc_len_lo(AddrW);
  localparam int DStart = ps_pkg::ps_desc_start_lo(AddrW, CntW);

  // (A router's waveform shows its ports and the sequencer's state: the plan is not traced,
  // which keeps the Verilated network with 64 routers small enough to compile quickly.)
  /* verilator tracing_off */

  /////////////////////////
  // This PE in the tree //
  /////////////////////////

  // From the strap pe_i: the depth d in the embedded tree (0 for PE 0, else floor(log2 Pe) + 1)
  // and whether Pe has children (PE 0: child 1; 1 <= Pe < N/2: 2Pe, 2Pe + 1).
  logic [StepW-1:0] pe_depth;
  logic [XW-1:0]    x_depth;
  logic             pe_is0;
  logic             pe_is1;
  logic             pe_relay;  // PE N/2: the fast gather's second route into PE 0
  logic             has_kids;
  logic [XW-1:0]    x_pe, x_two_pe, x_two_pe1;  // Pe, 2Pe, 2Pe + 1

  // floor(log2 pe) + 1 (0 for pe = 0): the position of the highest one.
  function automatic logic [StepW-1:0] depth_of(logic [PeW-1:0] pe);
    logic [StepW-1:0] d;
    d = '0;
    for (int b = 0; b < PeW; b++) begin
      if (pe[b]) d = StepW'(b + 1);
    end
    depth_of = d;
  endfunction

  // Tree B (fast broadcasts) is F mirrored by bit reversal: the depth of Pe in B is the depth of
  // rev(Pe) in F, n - (the position of Pe's lowest one) for Pe != 0. Its parent is 2Pe mod N
  // (in 2), its children floor(Pe/2) and floor(Pe/2) + N/2 (out 2, out 3) when Pe is even.
  logic [DlyW-1:0]  pe_bdepth;  // at most n
  logic             pe_even;

  function automatic logic [StepW-1:0] bdepth_of(logic [PeW-1:0] pe);
    logic [StepW-1:0] d;
    d = '0;
    for (int b = PeW - 1; b >= 0; b--) begin
      if (pe[b]) d = StepW'(LogN - b);
    end
    bdepth_of = d;
  endfunction

  // Fast gather: whether Pe (depth >= 2) is under PE 3 (the upper half) rather than PE 2: the
  // bit below its highest one.
  logic pe_in_u;

  function automatic logic below_lead(logic [PeW-1:0] pe);
    logic r;
    r = 1'b0;
    for (int b = 1; b < PeW; b++) begin
      if (pe[b]) r = pe[b-1];
    end
    below_lead = r;
  endfunction

  assign pe_in_u   = below_lead(pe_i);
  assign pe_depth  = depth_of(pe_i);
  assign pe_bdepth = DlyW'(bdepth_of(pe_i));
  assign pe_even   = !pe_i[0];
  assign x_depth   = XW'(pe_depth);
  assign pe_is0    = (pe_i == '0);
  assign pe_is1    = (pe_i == PeW'(1));
  assign pe_relay  = (pe_i == PeW'(N / 2)) && (N > 2);
  assign has_kids  = !pe_i[LogN-1];
  assign x_pe      = {1'b0, pe_i};
  assign x_two_pe  = {pe_i, 1'b0};
  assign x_two_pe1 = {pe_i, 1'b1};

  //////////////////////////
  // This PE on the ring  //
  //////////////////////////

  // The fast allgather runs around the built-in ring (ps_network's, the C model's
  // pinet_shuffle_ring: from x to 2x + 1 mod N if not yet visited, else to 2x mod N): Ring[k] is
  // the PE at ring position k, RingPos[p] the position of PE p (constant tables, PeW bits each).
  /* verilator coverage_off */ // constant functions: called for localparams at elaboration only
  function automatic logic [N*PeW-1:0] ring_walk(input logic inverse);
    logic [N-1:0]     seen;
    logic [N*PeW-1:0] t;
    int               x;
    int               y;
    seen    = '0;
    x       = 0;
    seen[0] = 1'b1;
    // (t needs no clearing: the walk visits every PE and every position once; a '0 of N * PeW
    // bits would be a replication Verilator flags at N = 1024)
    for (int k = 0; k < N; k++) begin
      if (inverse) t[x*PeW +: PeW] = PeW'(k);
      else         t[k*PeW +: PeW] = PeW'(x);
      y = (2 * x + 1) % N;
      if (seen[y]) y = (2 * x) % N;
      seen[y] = 1'b1;
      x       = y;
    end
    ring_walk = t;
  endfunction
  /* verilator coverage_on */

  localparam logic [N*PeW-1:0] Ring    = ring_walk(1'b0);
  localparam logic [N*PeW-1:0] RingPos = ring_walk(1'b1);

  logic [PeW-1:0] ring_pos;
  assign ring_pos = RingPos[pe_i*PeW +: PeW];

  //////////
  // Plan //
  //////////

  // For step st = step_i + 1 (1-based, as in docs/shuffle.md): per memory port an enable, an
  // offset multiplier x and a length shift e; offset = x * unit, length = unit << e.
  logic [StepW-1:0] st;
  logic [StepW-1:0] unit_sh;   // unit = M >> unit_sh, or M / n for broadcasts
  logic             unit_pkt;
  logic [StepW-1:0] step_le;   // L_s = unit << step_le (+ len_add)
  logic [StepW-1:0] len_add;   // fast scatter, upload, gather: the hops behind the last word
  logic [StepW-1:0] sh;        // scatter / gather: the power of two of the subtree parts
  logic [StepW-1:0] hop;       // broadcast: 1 for bcast-host (its host hop is stage 1), else 0
  logic [XW-1:0]    mask_st;   // low st bits
  logic [XW-1:0]    mask_m;    // low n + 1 - st bits
  logic [3:0]       rda_to_d;
  logic [2:0]       rdb_to_d;
  logic             wrb_in2_d;
  logic             rda_en, rdb_en, wra_en, wrb_en;
  logic [XW-1:0]    rda_x, rdb_x, wra_x, wrb_x;
  logic [StepW-1:0] rda_e, rdb_e, wra_e, wrb_e;
  logic             rda_tb, rdb_tb, wra_tb, wrb_tb;      // split: the port moves the b words
  logic             rda_ru, rdb_ru, wra_ru, wrb_ru;      // fast gather: part of the upper half
  logic [DlyW-1:0]  rda_st_d, rdb_st_d, wra_st_d, wrb_st_d;  // delays (the starts, split)
  logic             fast_bc;     // a fast broadcast
  logic             split;       // a fast broadcast, or the fast gather's first step
  logic             fast_pkt;    // a packet step of fast scatter, upload or gather
  logic [StepW-1:0] dpk;         // its packet d (the segments of the depth-d PEs)
  logic [StepW-1:0] dsh;         // d - depth: the parts of this PE's subtree are unit << dsh
  logic [XW-1:0]    x_pkt, x_upper, x_own, x_kid0, x_kid1;
  logic             half;        // fast allgather's last, integrate's first step: halves
  logic             wra_add3_d;
  logic [PeW-1:0]   seg_cw_out, seg_cw_in, seg_ccw_out, seg_ccw_in;  // fast allgather
  src_e             wra_src_d;

  assign st      = step_i + StOne;
  assign mask_st = ~({XW{1'b1}} << st);
  assign mask_m  = ~({XW{1'b1}} << (StN1 - st));
  assign hop     = (op_i == ps_pkg::OpBcastHost) ? StOne : '0;
  assign fast_bc = fast_i && (op_i == ps_pkg::OpBcast || op_i == ps_pkg::OpBcastHost);
  assign split   = fast_bc || (fast_i && op_i == ps_pkg::OpGather && st == StOne);
  assign fast_pkt = fast_i && !split && (op_i == ps_pkg::OpScatter ||
                                         op_i == ps_pkg::OpUpload || op_i == ps_pkg::OpGather);

  // Packet steps: scatter d = n .. 0, upload d = 0 .. n, gather d = 1 .. n. PE c's part of
  // packet d is its subtree's segments at depth d, x = c << (d - depth(c)) units of S; the
  // packet starts at x_pkt = 1 << (d - 1), gather's upper half (under PE 3) at 3 << (d - 2).
  assign dpk     = (op_i == ps_pkg::OpScatter) ? StN1 - st :
                   (op_i == ps_pkg::OpUpload)  ? st - StOne : st;
  assign dsh     = dpk - pe_depth;
  assign x_pkt   = XOne << (dpk - StOne);
  assign x_upper = XW'(3) << (dpk - StOne - StOne);
  assign x_own   = x_pe << dsh;
  assign x_kid0  = x_two_pe << (dsh - StOne);
  assign x_kid1  = x_two_pe1 << (dsh - StOne);

  // Fast allgather, step t = st: clockwise this PE passes on Ring[pos - t + 1]'s segment (its
  // own in step 1) and gets Ring[pos - t]'s; counter-clockwise Ring[pos + t - 1]'s and
  // Ring[pos + t]'s. The last step, t = N/2, moves halves of Ring[pos + N/2]'s. The fast
  // integrate is the same walk from pos + N/2 (ring_at): it starts with the halves of
  // Ring[pos + N/2]'s segment and ends receiving its own from both sides.
  logic [PeW-1:0] ring_at;
  logic [PeW-1:0] pos_cw_out, pos_cw_in, pos_ccw_out, pos_ccw_in;
  assign ring_at     = ring_pos + ((op_i == ps_pkg::OpIntegrate) ? PeW'(N / 2) : '0);
  assign pos_cw_out  = ring_at - PeW'(st) + PeW'(1);
  assign pos_cw_in   = ring_at - PeW'(st);
  assign pos_ccw_out = ring_at + PeW'(st) - PeW'(1);
  assign pos_ccw_in  = ring_at + PeW'(st);
  assign seg_cw_out  = Ring[pos_cw_out*PeW +: PeW];
  assign seg_cw_in   = Ring[pos_cw_in*PeW +: PeW];
  assign seg_ccw_out = Ring[pos_ccw_out*PeW +: PeW];
  assign seg_ccw_in  = Ring[pos_ccw_in*PeW +: PeW];
  assign half        = fast_i && ((op_i == ps_pkg::OpAllgather && st == StepW'(N / 2)) ||
                                  (op_i == ps_pkg::OpIntegrate && st == StOne));

  // Fast broadcast starts: tree F into a depth-d PE at d - 1 (+ 1 after the host hop), out of it
  // at d (+ 1); tree B likewise with the depth in B. The parent forwards word i in the cycle
  // after it received it.
  logic [DlyW-1:0] st_hop, st_f_in, st_f_out, st_b_in, st_b_out;
  assign st_hop   = DlyW'(hop);
  assign st_f_out = DlyW'(pe_depth) + st_hop;
  assign st_f_in  = st_f_out - DlyW'(1);
  assign st_b_out = pe_bdepth;
  assign st_b_in  = st_b_out - DlyW'(1);

  // Broadcast packet numbers (< n, computed modulo 2^XW): the host hop into PE 0, PE 0's hop
  // to PE 1, the hop from the parent into this PE (depth d) and the hop to its children.
  logic [XW-1:0] k_host, k_pe0, k_in, k_out;
  assign k_host = XW'(st) - XOne;
  assign k_pe0  = XW'(st) - XOne - XW'(hop);
  assign k_in   = XW'(st) - x_depth - XW'(hop);
  assign k_out  = XW'(st) - x_depth - XOne - XW'(hop);

  always_comb begin
    unit_sh   = StN;
    unit_pkt  = 1'b0;
    step_le   = '0;
    sh        = '0;
    rda_to_d  = '0;
    rdb_to_d  = 3'b010;
    wrb_in2_d = 1'b0;
    len_add   = '0;
    rda_en    = 1'b0;
    rdb_en    = 1'b0;
    wra_en    = 1'b0;
    wrb_en    = 1'b0;
    rda_x     = '0;
    rdb_x     = '0;
    wra_x     = '0;
    wrb_x     = '0;
    rda_e     = '0;
    rdb_e     = '0;
    wra_e     = '0;
    wrb_e     = '0;
    rda_tb    = 1'b0;
    rdb_tb    = 1'b0;
    wra_tb    = 1'b0;
    wrb_tb    = 1'b0;
    rda_ru    = 1'b0;
    rdb_ru    = 1'b0;
    wra_ru    = 1'b0;
    wrb_ru    = 1'b0;
    rda_st_d  = '0;
    rdb_st_d  = '0;
    wra_st_d  = '0;
    wrb_st_d  = '0;
    wra_src_d = ps_pkg::SrcIn0;
    wra_add3_d = 1'b0;
    unique case (op_i)
      // Paper integrate, step k = st: PE i sends half b of its block i mod 2^(k-1) on out b; its
      // new block j mod 2^k arrives on in 0 (COPY) and in 1 (ADD), same addresses, same cycles.
      // Paper allgather, step k = st, m = n + 1 - k: PE j sends its block j mod 2^m back on out 2
      // and out 3 and receives the blocks of its successors 2j, 2j + 1 (mod 2^m) on in 2, in 3.
      // Fast (both): around the ring both ways from ring_at, a segment (S words) per step and
      // direction, on the ports of the ring exchange: read B to the successor (out s), read A to
      // the predecessor (out 2 + p), write A from the predecessor (in p), write B from the
      // successor (in 2 + s); s = ring_succ_link_i, p = ring_pred_link_i. Integrate (int32 sums
      // in ring order) adds every word into this PE's copy; in its step N/2 (N > 2) both
      // neighbours send this PE's own segment, and port A adds the two.
      ps_pkg::OpIntegrate, ps_pkg::OpAllgather: begin
        if (fast_i) begin
          unit_sh    = StN;
          rdb_en     = 1'b1;
          rdb_to_d   = ring_succ_link_i ? 3'b010 : 3'b001;
          rdb_x      = XW'(seg_cw_out);
          rda_en     = 1'b1;
          rda_to_d[ring_pred_link_i ? ToOut3 : ToOut2] = 1'b1;
          rda_x      = XW'(seg_ccw_out);
          rda_tb     = 1'b1;                  // (the split step: the second half)
          wra_en     = 1'b1;
          if (ring_pred_link_i) wra_src_d = ps_pkg::SrcIn1;
          else                  wra_src_d = ps_pkg::SrcIn0;
          wra_x      = XW'(seg_cw_in);
          wrb_en     = 1'b1;
          wrb_in2_d  = !ring_succ_link_i;
          wrb_x      = XW'(seg_ccw_in);
          wrb_tb     = 1'b1;
          if (op_i == ps_pkg::OpIntegrate && N > 2 && st == StepW'(N / 2)) begin
            wra_add3_d = 1'b1;
            wrb_en     = 1'b0;
          end
        end else if (op_i == ps_pkg::OpIntegrate) begin
          unit_sh   = st;                       // M / 2^k
          rda_en    = 1'b1;
          rda_to_d[ToOut0] = 1'b1;
          rda_x     = x_two_pe & mask_st;       // (2Pe) mod 2^k
          rdb_en    = 1'b1;
          rdb_x     = x_two_pe1 & mask_st;      // (2Pe + 1) mod 2^k
          wra_en    = 1'b1;
          wra_src_d = ps_pkg::SrcIn01;
          wra_x     = x_pe & mask_st;           // Pe mod 2^k
        end else begin
          unit_sh   = StN1 - st;                // M / 2^m
          rda_en    = 1'b1;
          rda_to_d[ToOut2] = 1'b1;
          rda_to_d[ToOut3] = 1'b1;
          rda_x     = x_pe & mask_m;
          wra_en    = 1'b1;
          wra_src_d = ps_pkg::SrcIn2;
          wra_x     = x_two_pe & mask_m;
          wrb_en    = 1'b1;
          wrb_x     = x_two_pe1 & mask_m;
        end
      end
      // Packet k (M/n words at k M/n) takes tree hop t (depth t-1 -> t) in step k + t (+1 with
      // the host, whose hop to PE 0 is stage 1).
      ps_pkg::OpBcast, ps_pkg::OpBcastHost: begin
        unit_pkt = 1'b1;
        if (fast_i) begin
          // Fast: one step. PE 0 feeds tree F on out 1 and (bcast) tree B on out 3 (to N/2);
          // with the host, PE 0 takes every word from the host link and B stays idle (f = M).
          if (pe_is0) begin
            if (hop == StOne) begin                          // host -> PE 0, start 0
              wra_en    = 1'b1;
              wra_src_d = ps_pkg::SrcHost;
            end
            rdb_en   = 1'b1;                                 // tree F: PE 0 -> 1
            rdb_st_d = st_hop;
            if (hop != StOne) begin                          // tree B: PE 0 -> N/2
              rda_en   = 1'b1;
              rda_to_d[ToOut3] = 1'b1;
              rda_tb   = 1'b1;
            end
          end else begin
            wra_en   = 1'b1;                                 // tree F from floor(Pe/2), in 0
            wra_st_d = st_f_in;
            if (has_kids) begin                              // to 2Pe and 2Pe + 1
              rdb_en   = 1'b1;
              rdb_to_d = 3'b011;
              rdb_st_d = st_f_out;
            end
            if (hop != StOne) begin
              wrb_en    = 1'b1;                              // tree B from 2Pe mod N, in 2
              wrb_in2_d = 1'b1;
              wrb_tb    = 1'b1;
              wrb_st_d  = st_b_in;
              if (pe_even) begin                             // to floor(Pe/2) (+ N/2)
                rda_en   = 1'b1;
                rda_to_d[ToOut2] = 1'b1;
                rda_to_d[ToOut3] = 1'b1;
                rda_tb   = 1'b1;
                rda_st_d = st_b_out;
              end
            end
          end
        end else if (pe_is0) begin
          if (hop == StOne && st < StN1) begin              // host -> PE 0: packet st - 1
            wra_en    = 1'b1;
            wra_src_d = ps_pkg::SrcHost;
            wra_x     = k_host;
          end
          if (st >= StOne + hop && st < StN1 + hop) begin   // PE 0 -> PE 1 on out 1
            rdb_en = 1'b1;
            rdb_x  = k_pe0;
          end
        end else begin
          if (st >= pe_depth + hop && st < StN + pe_depth + hop) begin  // from the parent
            wra_en    = 1'b1;
            wra_src_d = ps_pkg::SrcIn0;
            wra_x     = k_in;
          end
          if (has_kids && st >= pe_depth + StOne + hop && st < StN1 + pe_depth + hop) begin
            rda_en = 1'b1;                                  // to 2Pe on out 0, 2Pe+1 on out 1
            rda_to_d[ToOut0] = 1'b1;
            rda_x  = k_out;
            rdb_en = 1'b1;
            rdb_x  = k_out;
          end
        end
      end
      // Packet d (the segments of the depth-d PEs) takes hop t in step n + 1 - d + t; on a hop
      // into PE c it carries c's subtree part at depth d: 2^sh segments at c 2^sh S,
      // sh = n + 1 - st. The host hop carries the whole packet (d >= 1: 2^(d-1) segments at
      // 2^(d-1) S; d = 0: segment 0).
      ps_pkg::OpScatter: begin
        step_le = (st == StOne) ? StN - StOne : StN1 - st;
        sh      = StN1 - st;
        if (fast_i) begin
          // Fast: packet d down tree F in its own step; the host link leads (start 0), a hop
          // into depth t runs t cycles behind it. Step d lasts 2^(d-1) S + d (d = 0: S).
          step_le   = (dpk == '0) ? '0 : dpk - StOne;
          len_add   = dpk;
          if (pe_is0) begin
            wra_en    = 1'b1;                               // host -> PE 0: the packet
            wra_src_d = ps_pkg::SrcHost;
            wra_x     = (dpk == '0) ? '0 : x_pkt;
            wra_e     = step_le;
            if (dpk != '0) begin                            // PE 0 -> 1 on out 1, one behind
              rdb_en   = 1'b1;
              rdb_x    = x_pkt;
              rdb_e    = step_le;
              rdb_st_d = DlyW'(1);
            end
          end else if (pe_depth <= dpk) begin               // from the parent, in 0
            wra_en    = 1'b1;
            wra_src_d = ps_pkg::SrcIn0;
            wra_x     = x_own;
            wra_e     = dsh;
            wra_st_d  = DlyW'(pe_depth);
            if (has_kids && pe_depth < dpk) begin           // to 2Pe on out 0, 2Pe+1 on out 1
              rda_en   = 1'b1;
              rda_to_d[ToOut0] = 1'b1;
              rda_x    = x_kid0;
              rda_e    = dsh - StOne;
              rda_st_d = DlyW'(pe_depth) + DlyW'(1);
              rdb_en   = 1'b1;
              rdb_x    = x_kid1;
              rdb_e    = dsh - StOne;
              rdb_st_d = DlyW'(pe_depth) + DlyW'(1);
            end
          end
        end else if (pe_is0) begin
          wra_en    = 1'b1;
          wra_src_d = ps_pkg::SrcHost;
          if (st == StN1) begin                             // d = 0: segment 0
            wra_x = '0;
            wra_e = '0;
          end else begin                                    // d = n + 1 - st >= 1
            wra_x = XOne << (StN - st);
            wra_e = StN - st;
          end
          if (st >= StOne + StOne) begin                    // PE 0 -> PE 1 on out 1
            rdb_en = 1'b1;
            rdb_x  = XOne << sh;
            rdb_e  = sh;
          end
        end else begin
          if (st >= pe_depth + StOne) begin                 // from the parent, in 0
            wra_en    = 1'b1;
            wra_src_d = ps_pkg::SrcIn0;
            wra_x     = x_pe << sh;
            wra_e     = sh;
          end
          if (has_kids && st >= pe_depth + StOne + StOne) begin
            rda_en = 1'b1;
            rda_to_d[ToOut0] = 1'b1;
            rda_x  = x_two_pe << sh;
            rda_e  = sh;
            rdb_en = 1'b1;
            rdb_x  = x_two_pe1 << sh;
            rdb_e  = sh;
          end
        end
      end
      // Packet d goes from depth t to t - 1 in step 1 + d - t (backward tree links): in step st
      // every transfer is a subtree part of 2^sh segments, sh = st - 1. Upload adds PE 0 ->
      // host of packet st - 1 (d = 0: segment 0; d >= 1: 2^(d-1) segments at 2^(d-1) S).
      ps_pkg::OpGather, ps_pkg::OpUpload: begin
        step_le = (st == StN1) ? StN - StOne : st - StOne;
        sh      = st - StOne;
        if (fast_i && op_i == ps_pkg::OpUpload) begin
          // Fast upload: packet d up tree F in its own step; the depth-d PEs send from cycle 0,
          // a hop out of depth t runs d - t behind, PE 0 -> host d. Step d: 2^(d-1) S + d.
          step_le = (dpk == '0) ? '0 : dpk - StOne;
          len_add = dpk;
          if (pe_is0) begin
            rda_en   = 1'b1;                                // PE 0 -> host
            rda_to_d[ToHost] = 1'b1;
            rda_x    = (dpk == '0) ? '0 : x_pkt;
            rda_e    = step_le;
            rda_st_d = DlyW'(dpk);
            if (dpk != '0) begin                            // from PE 1 on in 3
              wrb_en   = 1'b1;
              wrb_x    = x_pkt;
              wrb_e    = step_le;
              wrb_st_d = DlyW'(dpk) - DlyW'(1);
            end
          end else if (pe_depth <= dpk) begin               // to the parent on out 2
            rda_en   = 1'b1;
            rda_to_d[ToOut2] = 1'b1;
            rda_x    = x_own;
            rda_e    = dsh;
            rda_st_d = DlyW'(dsh);
            if (has_kids && pe_depth < dpk) begin           // from 2Pe / 2Pe+1 on in 2 / 3
              wra_en    = 1'b1;
              wra_src_d = ps_pkg::SrcIn2;
              wra_x     = x_kid0;
              wra_e     = dsh - StOne;
              wra_st_d  = DlyW'(dsh) - DlyW'(1);
              wrb_en    = 1'b1;
              wrb_x     = x_kid1;
              wrb_e     = dsh - StOne;
              wrb_st_d  = DlyW'(dsh) - DlyW'(1);
            end
          end
        end else if (fast_i && split) begin
          // Fast gather, step 1: PE 1's segment, f words straight to PE 0 (out 2 -> in 3), b
          // words over PE 0's other in-channel: via PE N/2 (out 3 -> in 3, out 0 -> in 1, one
          // cycle behind), or for N = 2 on PE 1's own forward link to PE 0 (out 0 -> in 1).
          if (pe_is1) begin
            rda_en   = 1'b1;
            rda_to_d[ToOut2] = 1'b1;
            rdb_en   = 1'b1;
            rdb_to_d = (N > 2) ? 3'b100 : 3'b001;
            rdb_tb   = 1'b1;
          end
          if (pe_relay) begin
            wrb_en   = 1'b1;
            wrb_tb   = 1'b1;
            rdb_en   = 1'b1;
            rdb_to_d = 3'b001;
            rdb_tb   = 1'b1;
            rdb_st_d = DlyW'(1);
          end
          if (pe_is0) begin
            wrb_en    = 1'b1;
            wra_en    = 1'b1;
            wra_src_d = ps_pkg::SrcIn1;
            wra_tb    = 1'b1;
            wra_st_d  = DlyW'(N > 2);
          end
        end else if (fast_i) begin
          // Fast gather, step d >= 2: P_d's lower half (under PE 2) and upper half (under PE 3)
          // climb tree F side by side into PE 1 (a hop out of depth t runs d - t behind); PE 1
          // passes the lower half to PE 0 (out 2) and the upper to PE N/2 (out 3), which passes
          // it on to PE 0 (out 0 -> in 1) one cycle later. Step d: 2^(d-2) S + d.
          step_le = dpk - StOne - StOne;
          len_add = dpk;
          if (pe_is0) begin
            wrb_en    = 1'b1;                               // lower half from PE 1, in 3
            wrb_x     = x_pkt;
            wrb_e     = step_le;
            wrb_st_d  = DlyW'(dpk) - DlyW'(1);
            wra_en    = 1'b1;                               // upper half from PE N/2, in 1
            wra_src_d = ps_pkg::SrcIn1;
            wra_x     = x_upper;
            wra_e     = step_le;
            wra_ru    = 1'b1;
            wra_st_d  = DlyW'(dpk);
          end else if (pe_is1) begin
            wra_en    = 1'b1;                               // lower half from PE 2, in 2
            wra_src_d = ps_pkg::SrcIn2;
            wra_x     = x_pkt;
            wra_e     = step_le;
            wra_st_d  = DlyW'(dpk) - DlyW'(2);
            wrb_en    = 1'b1;                               // upper half from PE 3, in 3
            wrb_x     = x_upper;
            wrb_e     = step_le;
            wrb_ru    = 1'b1;
            wrb_st_d  = DlyW'(dpk) - DlyW'(2);
            rda_en    = 1'b1;                               // lower half to PE 0, out 2
            rda_to_d[ToOut2] = 1'b1;
            rda_x     = x_pkt;
            rda_e     = step_le;
            rda_st_d  = DlyW'(dpk) - DlyW'(1);
            rdb_en    = 1'b1;                               // upper half to PE N/2, out 3
            rdb_to_d  = 3'b100;
            rdb_x     = x_upper;
            rdb_e     = step_le;
            rdb_ru    = 1'b1;
            rdb_st_d  = DlyW'(dpk) - DlyW'(1);
          end else begin
            if (pe_depth <= dpk) begin                      // to the parent on out 2
              rda_en   = 1'b1;
              rda_to_d[ToOut2] = 1'b1;
              rda_x    = x_own;
              rda_e    = dsh;
              rda_ru   = pe_in_u;
              rda_st_d = DlyW'(dsh);
            end
            if (has_kids && pe_depth < dpk) begin           // from 2Pe / 2Pe+1 on in 2 / 3
              wra_en    = 1'b1;
              wra_src_d = ps_pkg::SrcIn2;
              wra_x     = x_kid0;
              wra_e     = dsh - StOne;
              wra_ru    = pe_in_u;
              wra_st_d  = DlyW'(dsh) - DlyW'(1);
              wrb_en    = 1'b1;
              wrb_x     = x_kid1;
              wrb_e     = dsh - StOne;
              wrb_ru    = pe_in_u;
              wrb_st_d  = DlyW'(dsh) - DlyW'(1);
            end
            if (pe_relay) begin                             // the upper half: in 3 -> out 0
              wrb_en   = 1'b1;
              wrb_x    = x_upper;
              wrb_e    = step_le;
              wrb_ru   = 1'b1;
              wrb_st_d = DlyW'(dpk) - DlyW'(1);
              rdb_en   = 1'b1;
              rdb_to_d = 3'b001;
              rdb_x    = x_upper;
              rdb_e    = step_le;
              rdb_ru   = 1'b1;
              rdb_st_d = DlyW'(dpk);
            end
          end
        end else if (pe_is0) begin
          if (st <= StN) begin                              // from PE 1 on in 3
            wrb_en = 1'b1;
            wrb_x  = XOne << sh;
            wrb_e  = sh;
          end
          if (op_i == ps_pkg::OpUpload) begin               // PE 0 -> host
            rda_en = 1'b1;
            rda_to_d[ToHost] = 1'b1;
            if (st == StOne) begin
              rda_x = '0;
              rda_e = '0;
            end else begin
              rda_x = XOne << (st - StOne - StOne);
              rda_e = st - StOne - StOne;
            end
          end
        end else begin
          if (st <= StN1 - pe_depth) begin                  // to the parent on out 2
            rda_en = 1'b1;
            rda_to_d[ToOut2] = 1'b1;
            rda_x  = x_pe << sh;
            rda_e  = sh;
          end
          if (has_kids && st <= StN - pe_depth) begin       // from 2Pe / 2Pe+1 on in 2 / 3
            wra_en    = 1'b1;
            wra_src_d = ps_pkg::SrcIn2;
            wra_x     = x_two_pe << sh;
            wra_e     = sh;
            wrb_en    = 1'b1;
            wrb_x     = x_two_pe1 << sh;
            wrb_e     = sh;
          end
        end
      end
      // One step of W = M / 4 words: [0,W) to the successor on out s (read B: it may be out 0
      // while read A feeds out 2 / 3), [W,2W) to the predecessor on out 2 + p (read A),
      // [2W,3W) from the predecessor on in p (write A), [3W,4W) from the successor on in 2 + s
      // (write B); s = ring_succ_link_i, p = ring_pred_link_i.
      ps_pkg::OpRingExchange: begin
        unit_sh    = StepW'(2);
        rdb_en     = 1'b1;
        rdb_to_d   = ring_succ_link_i ? 3'b010 : 3'b001;
        rdb_x      = '0;
        rda_en     = 1'b1;
        rda_to_d[ring_pred_link_i ? ToOut3 : ToOut2] = 1'b1;
        rda_x      = XW'(1);
        wra_en     = 1'b1;
        if (ring_pred_link_i) wra_src_d = ps_pkg::SrcIn1;
        else                  wra_src_d = ps_pkg::SrcIn0;
        wra_x      = XW'(2);
        wrb_en     = 1'b1;
        wrb_in2_d  = !ring_succ_link_i;
        wrb_x      = XW'(3);
      end
      /* verilator coverage_off */ // op_i holds an accepted op, one of the eight above
      default: begin
      end
      /* verilator coverage_on */
    endcase
  end

  // Offsets and lengths of the step (four small multipliers x * unit). A split step moves f
  // words from split_base and (tb) b words after them: the fast broadcast's trees F [0, f) and
  // B [f, M), the fast gather's first step PE 1's segment [S, S + f) and [S + f, 2S). Starts:
  // a split step's are the planned delays; a packet step's are the part's offset in its packet
  // (upper half: in the half) plus the delay.
  logic [CntW-1:0]  unit;
  logic [AddrW-1:0] split_base;  // 0, or S (fast gather)
  logic [CntW-1:0]  bwords;      // b: the rest of M, or of S
  logic [CntW-1:0]  pkt_off;     // a packet step: its first word, and its upper half's
  logic [CntW-1:0]  upper_off;
  logic [CntW-1:0]  len_d;
  logic [AddrW-1:0] rda_off_d, rdb_off_d, wra_off_d, wrb_off_d;
  logic [CntW-1:0]  rda_len_d, rdb_len_d, wra_len_d, wrb_len_d;
  logic [CntW-1:0]  rda_start_d, rdb_start_d, wra_start_d, wrb_start_d;

  // (hlf: the fast allgather's last step, the f words of segment x and the b words after them)
  function automatic logic [AddrW-1:0] off_of(logic spl, logic hlf, logic tb,
                                              logic [AddrW-1:0] base, logic [AddrW-1:0] f,
                                              logic [XW-1:0] x, logic [CntW-1:0] u);
    logic [AddrW-1:0] xu;
    xu     = AddrW'(CntW'(x) * u);
    off_of = (spl ? base : xu) + ((spl || hlf) && tb ? f : '0);
  endfunction

  function automatic logic [CntW-1:0] len_of(logic en, logic spl, logic tb, logic [CntW-1:0] f,
                                             logic [CntW-1:0] b, logic [StepW-1:0] e,
                                             logic [CntW-1:0] u);
    len_of = !en ? '0 : spl ? (tb ? b : f) : (u << e);
  endfunction

  function automatic logic [CntW-1:0] start_of(logic pkt, logic [AddrW-1:0] off, logic ru,
                                               logic [CntW-1:0] lo, logic [CntW-1:0] hi,
                                               logic [DlyW-1:0] delay);
    start_of = pkt ? CntW'(off) - (ru ? hi : lo) + CntW'(delay) : CntW'(delay);
  endfunction

  assign unit       = unit_pkt ? pkt_i : (m_i >> unit_sh);
  assign split_base = fast_bc ? '0 : AddrW'(unit);
  assign bwords     = (fast_bc ? m_i : unit) - fwords_i;
  assign pkt_off    = (dpk == '0) ? '0 : unit << (dpk - StOne);
  assign upper_off  = pkt_off + (unit << (dpk - StOne - StOne));
  always_comb begin
    if (fast_bc)     len_d = fwords_i + CntW'(LogN) - CntW'(1) + CntW'(hop);
    else if (split)  len_d = (N > 2) ? bwords + CntW'(1) : fwords_i;  // gather's first step
    else if (half)   len_d = fwords_i;
    else             len_d = (unit << step_le) + CntW'(len_add);
  end
  assign rda_off_d = off_of(split, half, rda_tb, split_base, AddrW'(fwords_i), rda_x, unit);
  assign rdb_off_d = off_of(split, half, rdb_tb, split_base, AddrW'(fwords_i), rdb_x, unit);
  assign wra_off_d = off_of(split, half, wra_tb, split_base, AddrW'(fwords_i), wra_x, unit);
  assign wrb_off_d = off_of(split, half, wrb_tb, split_base, AddrW'(fwords_i), wrb_x, unit);
  assign rda_len_d = len_of(rda_en, split || half, rda_tb, fwords_i, bwords, rda_e, unit);
  assign rdb_len_d = len_of(rdb_en, split || half, rdb_tb, fwords_i, bwords, rdb_e, unit);
  assign wra_len_d = len_of(wra_en, split || half, wra_tb, fwords_i, bwords, wra_e, unit);
  assign wrb_len_d = len_of(wrb_en, split || half, wrb_tb, fwords_i, bwords, wrb_e, unit);
  assign rda_start_d = start_of(fast_pkt, rda_off_d, rda_ru, pkt_off, upper_off, rda_st_d);
  assign rdb_start_d = start_of(fast_pkt, rdb_off_d, rdb_ru, pkt_off, upper_off, rdb_st_d);
  assign wra_start_d = start_of(fast_pkt, wra_off_d, wra_ru, pkt_off, upper_off, wra_st_d);
  assign wrb_start_d = start_of(fast_pkt, wrb_off_d, wrb_ru, pkt_off, upper_off, wrb_st_d);

  /////////////
  // Outputs //
  /////////////

  function automatic logic [DescW-1:0] desc_of(logic [AddrW-1:0] off, logic [CntW-1:0] len,
                                               logic [CntW-1:0] start);
    logic [DescW-1:0] d;
    d                               = '0;
    d[ps_pkg::PsDescOffLo +: AddrW] = off;
    d[DLen +: CntW]                 = len;
    d[DStart +: CntW]               = start;
    desc_of = d;
  endfunction

  assign desc_o[ps_pkg::PsPortRdA*DescW +: DescW] = desc_of(rda_off_d, rda_len_d, rda_start_d);
  assign desc_o[ps_pkg::PsPortRdB*DescW +: DescW] = desc_of(rdb_off_d, rdb_len_d, rdb_start_d);
  assign desc_o[ps_pkg::PsPortWrA*DescW +: DescW] = desc_of(wra_off_d, wra_len_d, wra_start_d);
  assign desc_o[ps_pkg::PsPortWrB*DescW +: DescW] = desc_of(wrb_off_d, wrb_len_d, wrb_start_d);
  assign len_o      = len_d;
  assign rda_to_o   = rda_to_d;
  assign rdb_to_o   = rdb_to_d;
  assign wrb_in2_o  = wrb_in2_d;
  assign wra_src_o  = wra_src_d;
  assign wra_add3_o = wra_add3_d;

  ////////////////
  // Assertions //
  ////////////////

  // The checker rtl/assert/ps_router_planner_assert.sv: bound in the Verilator builds
  // (rtl/assert/ps_router_planner_bind.sv), instantiated here for the formal flow (yosys ignores
  // bind).
`ifdef FORMAL
  ps_router_planner_assert #(
    .N       (N),
    .MemWords(MemWords)
  ) u_assert (
    .op_i     (op_i),
    .fast_i   (fast_i),
    .m_i      (m_i),
    .pkt_i    (pkt_i),
    .fwords_i (fwords_i),
    .step_i   (step_i),
    .len_o    (len_o),
    .desc_o   (desc_o),
    .wra_src_o(wra_src_o)
  );
`endif

  /* verilator tracing_on */

endmodule
