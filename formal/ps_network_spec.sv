// Copyright pinet contributors.
//
// ps_network_spec: what the perfect-shuffle network must do, cycle by cycle, for the property
// wrappers formal/ps_network.sv and formal/ps_router.sv. Written from docs/shuffle.md (sections
// 1, 2 and 4, section 10's command and error table, and section 13's fast schedules, with its
// table "Per channel and step"), not from rtl/ps_router.sv: where the RTL plans per memory port
// and per PE (offset multipliers, length shifts, tree depth of its own PE, start registers), this
// file speaks of the 4N + 2 channels of section 1 and gives, per channel and step and for both
// schedules (cmd_fast_i as the command was accepted), the transfer that the closed forms put on
// it. The paper's schedules are below; the fast ones at xfer_fast. tests/formal/
// check_shuffle_spec.py compares this file with the C model's schedules (N = 2 ... 16).
//
// Channels (section 1): c < 2N forward link c, PE floor(c/2) -> PE c mod N; c = 2N + l backward
// link l, PE l mod N -> PE floor(l/2); c = 4N host -> PE 0; c = 4N + 1 PE 0 -> host.
// The embedded tree: PE 0 -> 1 and p -> 2p, 2p+1 (1 <= p < N/2). The tree link into PE q
// (1 <= q < N) is forward link q (0 -> 1 is link 1, p -> 2p+b is link 2p+b), its backward
// channel 2N + q; q's depth is floor(log2 q) + 1.
//
// Transfers of the paper's schedules (section 2; n = log2 N, S = M/N, steps s = 1, 2, ...; src
// and dst offsets are equal except in the ring exchange; every start 0); the fast schedules'
// (section 13, cmd_fast_i = 1; starts >= 0) are listed at xfer_fast, their L_s at step_len and
// their T at total_of:
//   integrate  s = 1..n: forward link l = 2i+b carries half b of block i mod 2^(s-1): offset
//              (i mod 2^(s-1)) M/2^(s-1) + b M/2^s, M/2^s words; COPY if l < N (from
//              floor(j/2)), ADD if l >= N (from floor(j/2) + N/2)
//   allgather  s = 1..n, m = n+1-s: backward link l (source j = l mod N) carries block j mod 2^m,
//              offset (j mod 2^m) M/2^m, M/2^m words
//   bcast      packet k (M/n words at k M/n) takes the tree hop into depth t in step k + t
//   bcast-host the same one step later, and the host hop of packet k in step k + 1
//   scatter    packet d takes hop t in step n+1-d+t: into PE q (depth t) 2^(d-t) S words at
//              q 2^(d-t) S; the host hop (t = 0) 2^(d-1) S words at 2^(d-1) S (d = 0: S at 0)
//   gather     from PE q (depth t) to its parent in step g = 1..n+1-t: 2^(g-1) S words at
//              q 2^(g-1) S (backward channel 2N + q)
//   upload     gather, and PE 0 -> host of packet d = g-1 in step g = 1..n+1 (as scatter's host
//              hop)
//   ring-exch. one step, W = M/4: along the ring of section 6 (Martin's prefer-one walk from 0:
//              to 2x+1 mod N if not yet visited, else 2x mod N), forward link 2x+b to x's
//              successor 2x+b mod N carries [0,W) to [2W,3W), its backward channel [W,2W) to
//              [3W,4W)
// Step lengths L_s (the longest transfer, given here by its own closed form: integrate M/2^s,
// allgather and gather M/2^(n+1-s), upload the same and M/2 in step n+1, scatter M/2 in step 1
// and M/2^(s-1) after, the broadcasts M/n, the ring exchange M/4) and the cycle count T (section
// 4's formulas: integrate, allgather, gather n + (1-1/N)M; scatter, upload n+1 + M/2 + (1-1/N)M;
// bcast (2n-1)(1 + M/n); bcast-host 2n(1 + M/n); ring-exchange M/4 + 1) are given
// independently: the run ends by the formula, the position comes from the step lengths, and a
// wrapper checks that they agree (end_o exactly in cycle T - 1) and that every transfer fits its
// step (start_o + len_o <= step_len_o). The same holds for the fast schedules' L_s (max start +
// words) and T (section 13's formulas).
//
// Cycle contract (section 4): cycle 0 is the cycle after the edge that takes an accepted
// command; step s occupies cycles B_s .. B_s + L_s (B_1 = 0, B_{s+1} = B_s + 1 + L_s); B_s is
// the setup cycle; word i of every transfer crosses its channel in cycle B_s + 1 + start + i;
// busy in cycles 0 .. T-1, done from cycle T until the next command. The host answers a
// request in the next cycle, so the request for a host-link word is made in the cycle before it.
//
// Command (section 10): with cmd_start_i, while busy -> BUSY (refused, the run goes on); else the
// first failing check gives the code: op > 7 BAD_OP, M = 0 WORDS, base + M > MemWords MEMORY,
// M not a multiple of the quantum (n for the paper broadcasts, 1 for the fast ones, 4 for the
// ring exchange, N otherwise)
// QUANTUM; OK starts the run. Any command clears done. Without a command err_o keeps its value,
// except that a router sets LINK during a run when an input link disagrees with the schedule
// (link_bad_i, computed by the wrapper from the outputs below; 0 for the network). While rst_ni
// is low the status is idle (not busy, not done, OK) and no channel carries a word; the state is
// reset at the edge.

module ps_network_spec #(
  parameter int  N        = 4,
  parameter int  MemWords = 8,
  localparam int LogN     = $clog2(N),
  localparam int Channels = 4 * N + 2,
  localparam int AW       = (MemWords > 1) ? $clog2(MemWords) : 1,  // memory addresses
  localparam int VW       = $clog2(MemWords + 1) + 1,               // M, offsets, lengths
  localparam int TW       = $clog2(2 * MemWords + 2 * LogN + 2) + 1, // cycles of a run
  localparam int SW       = ($clog2(N / 2 + 2) > 5) ? $clog2(N / 2 + 2) : 5,  // steps (2n, N/2)
  localparam int CmdW     = ps_pkg::PsCmdWidth
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic                          cmd_start_i,
  input  logic [ps_pkg::PsOpWidth-1:0]  cmd_op_i,
  input  logic [CmdW-1:0]               cmd_words_i,
  input  logic [CmdW-1:0]               cmd_base_i,
  input  logic                          cmd_fast_i,
  input  logic                          link_bad_i,
  // Status of this cycle, and the code a command in this cycle gets when the network is idle
  output logic                          busy_o,
  output logic                          done_o,
  output logic [ps_pkg::PsErrWidth-1:0] err_o,
  output logic [ps_pkg::PsErrWidth-1:0] cmd_code_o,
  // The run: its image base, its schedule (1: the fast one), cycle number t, step (1-based),
  // setup cycle, in-step cycle i (the cycle B_s + 1 + i)
  output logic [AW-1:0]                 base_o,
  output logic                          fast_o,
  output logic [TW-1:0]                 t_o,
  output logic [SW-1:0]                 step_o,
  output logic                          setup_o,
  // Per channel c: a word crosses it in this cycle; its image addresses (offset + i - start)
  // at the source and the destination; the destination ADDs it; the transfer's length and
  // start (its cycle offset in the step; 0 in the paper's schedules) in this step
  output logic [Channels-1:0]           valid_o,
  output logic [Channels*VW-1:0]        src_o,
  output logic [Channels*VW-1:0]        dst_o,
  output logic [Channels-1:0]           add_o,
  output logic [Channels*VW-1:0]        len_o,
  output logic [Channels*VW-1:0]        start_o,
  output logic [VW-1:0]                 step_len_o,
  // The host link (channel 4N) carries a word in the next cycle: the request and its address
  output logic                          host_req_o,
  output logic [VW-1:0]                 host_req_addr_o,
  // T by section 4's formula, and: this cycle is the last word of the last step (by the steps)
  output logic [TW-1:0]                 t_total_o,
  output logic                          end_o,
  // The ring's forward links (bit l: link l joins a PE to its ring successor; a constant)
  output logic [2*N-1:0]                ring_o
);

  localparam logic [3:0] OpBcast     = 4'd0;
  localparam logic [3:0] OpBcastHost = 4'd1;
  localparam logic [3:0] OpScatter   = 4'd2;
  localparam logic [3:0] OpIntegrate = 4'd3;
  localparam logic [3:0] OpAllgather = 4'd4;
  localparam logic [3:0] OpGather    = 4'd5;
  localparam logic [3:0] OpUpload    = 4'd6;
  localparam logic [3:0] OpRing      = 4'd7;
  localparam int         SMax        = (2 * LogN > N / 2) ? 2 * LogN : N / 2;  // bcast-host, ring
  localparam int         XW          = LogN + 2;  // block indices (< 2N)

  //////////////////////////////////////
  // Tree and ring (constant functions) //
  //////////////////////////////////////

  // Depth of PE q in the embedded tree: floor(log2 q) + 1 (0 for PE 0).
  function automatic int depth_of(int q);
    depth_of = 0;
    for (int b = 0; b < 11; b++) begin
      if ((q >> b) % 2 == 1) depth_of = b + 1;
    end
  endfunction

  // The ring of docs/shuffle.md section 6 as positions: entry k (8 bits) of ring_at_table() is the
  // PE at ring position k (ring[0] = 0, ring[1] = 1 for N >= 2), entry p of ring_pos_table() the
  // position of PE p.
  function automatic logic [8*N-1:0] ring_at_table();
    logic [N-1:0] seen;
    int           x;
    int           y;
    ring_at_table = '0;
    seen          = '0;
    seen[0]       = 1'b1;
    x             = 0;
    for (int k = 1; k < N; k++) begin
      y = (2 * x + 1) % N;
      if (seen[y]) y = (2 * x) % N;
      seen[y] = 1'b1;
      ring_at_table[8*k +: 8] = y[7:0];
      x = y;
    end
  endfunction

  function automatic logic [8*N-1:0] ring_pos_table();
    logic [8*N-1:0] at;
    int             p;
    at             = ring_at_table();
    ring_pos_table = '0;
    for (int k = 0; k < N; k++) begin
      p                       = k;
      ring_pos_table[8*at[8*k +: 8] +: 8] = p[7:0];
    end
  endfunction

  localparam logic [8*N-1:0] RingAt  = ring_at_table();
  localparam logic [8*N-1:0] RingPos = ring_pos_table();

  // The same ring as its forward links: bit l is set when link l (PE floor(l/2) -> PE l mod N)
  // joins a PE to its ring successor (the PE at the next position, ring[N] = ring[0]).
  function automatic logic [2*N-1:0] ring_links();
    logic [8*N-1:0] at;
    int             x;
    int             y;
    at         = ring_at_table();
    ring_links = '0;
    for (int k = 0; k < N; k++) begin
      x      = 0;
      y      = 0;
      x[7:0] = at[8*k +: 8];
      y[7:0] = at[8*((k + 1) % N) +: 8];
      ring_links[2 * x + (y % 2)] = 1'b1;
    end
  endfunction

  localparam logic [2*N-1:0] RingLinks = ring_links();

  // The PE at ring position k (any integer: taken modulo N).
  function automatic int ring_at(int k);
    ring_at = 0;
    ring_at[7:0] = RingAt[8*(((k % N) + N) % N) +: 8];
  endfunction

  // Bit reversal of an n-bit PE number (section 13's tree B is tree F mirrored by it).
  function automatic int rev(int q);
    rev = 0;
    for (int b = 0; b < LogN; b++) begin
      if ((q >> b) % 2 == 1) rev = rev + (1 << (LogN - 1 - b));
    end
  endfunction

  assign ring_o = RingLinks;

  ////////////////////////////////////////
  // Steps, step lengths, cycle counts //
  ////////////////////////////////////////

  // Fast schedules (docs/shuffle.md section 13) exist for ops 0 .. 6; the ring exchange has one
  // schedule (fast is ignored: `eff` below), integrate's fast one is the int32 ring integrate.
  function automatic logic is_fast(logic [3:0] op, logic fast);
    is_fast = fast && (op != OpRing);
  endfunction

  // S: the number of steps of the op (section 2's table; section 13: the fast broadcasts 1,
  // scatter and upload n + 1, gather n, allgather and integrate N/2). (Conditionals, not a case:
  // yosys would make a case of constants a ROM, an SMT array, and z3 is much slower with arrays.)
  function automatic logic [SW-1:0] steps_of(logic [3:0] op, logic fast);
    if (is_fast(op, fast)) begin
      steps_of = (op == OpBcast || op == OpBcastHost)    ? SW'(1) :
                 (op == OpScatter || op == OpUpload)     ? SW'(LogN + 1) :
                 (op == OpGather)                        ? SW'(LogN) :
                 (op == OpIntegrate || op == OpAllgather) ? SW'(N / 2) : '0;
    end else begin
      steps_of = (op == OpBcast)                         ? SW'(2 * LogN - 1) :
                 (op == OpBcastHost)                     ? SW'(2 * LogN) :
                 (op == OpScatter || op == OpUpload)     ? SW'(LogN + 1) :
                 (op == OpIntegrate || op == OpAllgather ||
                  op == OpGather)                        ? SW'(LogN) :
                 (op == OpRing)                          ? SW'(1) : '0;
    end
  endfunction

  // L_s, step s (1-based, a constant) of op with M = m words: the paper's longest transfer;
  // the fast schedules' max (start + words) by section 13's closed forms (S = M/N, packet
  // d = n + 1 - s in scatter, d = s - 1 in upload, d = s in gather).
  function automatic logic [VW-1:0] step_len(logic [3:0] op, logic fast, logic [VW-1:0] m,
                                             int s);
    logic [VW-1:0] seg;
    int            d;
    seg      = m >> LogN;
    step_len = '0;
    if (is_fast(op, fast)) begin
      case (op)
        OpBcast:     step_len = (s == 1) ? ((m + VW'(1)) >> 1) + VW'(LogN - 1) : '0;
        OpBcastHost: step_len = (s == 1) ? m + VW'(LogN) : '0;
        OpScatter, OpUpload: begin
          d = (op == OpScatter) ? LogN + 1 - s : s - 1;
          if (s >= 1 && s <= LogN + 1) begin
            step_len = (d == 0) ? seg : (seg << (d - 1)) + VW'(d);
          end
        end
        OpGather: begin
          if (N == 2)                 step_len = (s == 1) ? (seg + VW'(1)) >> 1 : '0;
          else if (s == 1)            step_len = (seg >> 1) + VW'(1);
          else if (s <= LogN)         step_len = (seg << (s - 2)) + VW'(s);
        end
        OpAllgather: begin
          if (s >= 1 && s < N / 2)    step_len = seg;
          else if (s == N / 2)        step_len = (seg + VW'(1)) >> 1;
        end
        OpIntegrate: begin
          if (s == 1)                 step_len = (seg + VW'(1)) >> 1;
          else if (s <= N / 2)        step_len = seg;
        end
        default: step_len = '0;
      endcase
    end else begin
      case (op)
        OpIntegrate:             step_len = m >> s;
        OpAllgather, OpGather:   step_len = m >> (LogN + 1 - s);
        OpUpload:                step_len = (s == LogN + 1) ? m >> 1 : m >> (LogN + 1 - s);
        OpScatter:               step_len = (s == 1) ? m >> 1 : m >> (s - 1);
        OpBcast, OpBcastHost:    step_len = m / VW'(LogN);
        OpRing:                  step_len = m >> 2;
        default:                 step_len = '0;
      endcase
    end
  endfunction

  // T by section 4's formulas (the paper's) and section 13's (the fast ones): bcast
  // ceil(M/2) + n, bcast-host M + n + 1, scatter and upload (n + 1) + M + n(n + 1)/2, gather
  // floor((M - S)/2) + n(n + 3)/2 (N = 2: ceil(S/2) + 1), allgather and integrate
  // ceil((M - S)/2) + N/2.
  function automatic logic [TW-1:0] total_of(logic [3:0] op, logic fast, logic [VW-1:0] m);
    logic [TW-1:0] mm;
    mm = TW'(m);
    if (is_fast(op, fast)) begin
      case (op)
        OpBcast:                 total_of = ((mm + TW'(1)) >> 1) + TW'(LogN);
        OpBcastHost:             total_of = mm + TW'(LogN + 1);
        OpScatter, OpUpload:     total_of = TW'(LogN + 1) + mm + TW'(LogN * (LogN + 1) / 2);
        OpGather:                total_of = (N == 2) ? (((mm >> LogN) + TW'(1)) >> 1) + TW'(1) :
                                            ((mm - (mm >> LogN)) >> 1) +
                                            TW'(LogN * (LogN + 3) / 2);
        OpAllgather,
        OpIntegrate:             total_of = ((mm - (mm >> LogN) + TW'(1)) >> 1) + TW'(N / 2);
        default:                 total_of = '0;
      endcase
    end else begin
      case (op)
        OpIntegrate, OpAllgather,
        OpGather:                total_of = TW'(LogN) + mm - (mm >> LogN);
        OpScatter, OpUpload:     total_of = TW'(LogN + 1) + (mm >> 1) + mm - (mm >> LogN);
        OpBcast:                 total_of = TW'(2 * LogN - 1) * (TW'(1) + mm / TW'(LogN));
        OpBcastHost:             total_of = TW'(2 * LogN) * (TW'(1) + mm / TW'(LogN));
        OpRing:                  total_of = (mm >> 2) + TW'(1);
        default:                 total_of = '0;
      endcase
    end
  endfunction

  // The command's code when the network is idle (section 10's checks, in order). The quantum
  // check is reached only with M <= MemWords, so it looks at M's low VW bits. The fast
  // broadcasts take any M (quantum 1).
  function automatic logic [2:0] code_of(logic [3:0] op, logic fast, logic [CmdW-1:0] words,
                                         logic [CmdW-1:0] base);
    logic [VW-1:0] m;
    logic          multiple;
    m        = VW'(words);
    multiple = (op == OpBcast || op == OpBcastHost) ? (fast || m % VW'(LogN) == '0) :
               (op == OpRing)                       ? (m % VW'(4) == '0) :
                                                      (m % VW'(N) == '0);
    if (op > OpRing)                                               code_of = ps_pkg::PsErrBadOp;
    else if (words == '0)                                          code_of = ps_pkg::PsErrWords;
    else if ({1'b0, base} + {1'b0, words} > (CmdW + 1)'(MemWords)) code_of = ps_pkg::PsErrMemory;
    else if (!multiple)                                            code_of = ps_pkg::PsErrQuantum;
    else                                                           code_of = ps_pkg::PsErrOk;
  endfunction

  //////////////////////////////
  // The transfer of a channel //
  //////////////////////////////

  // Channel c in step s of a fast schedule (docs/shuffle.md section 13; ops 0 .. 6, integrate
  // the int32 ring one) with M = m: {add, start, dst offset, src offset, length}, length 0 when
  // the channel is not used. Word i of the transfer crosses in in-step cycle start + i. Source
  // and destination offsets are equal (global addressing).
  //   bcast      one step, f = ceil(M/2): tree F (PE 0 -> 1, p -> 2p, 2p+1: forward channel q
  //              into PE q) carries [0, f), tree B (tree F mirrored by bit reversal: PE y != 0
  //              receives from 2y mod N on backward channel 2N + 2y) carries [f, M); the
  //              transfer into a PE of depth t (in its own tree; tree B's depth of y is tree F's
  //              depth of rev(y)) has start t - 1.
  //   bcast-host one step: host -> PE 0 [0, M) on 4N, start 0; tree F [0, M), start t.
  //   scatter    step s carries packet d = n + 1 - s: d >= 1: host -> PE 0 P_d =
  //              [2^(d-1) S, 2^d S) on 4N, start 0; into PE q of depth t <= d (channel q) q's
  //              part [q 2^(d-t) S, (q+1) 2^(d-t) S), start (q 2^(d-t) S - 2^(d-1) S) + t.
  //              d = 0: host -> PE 0 [0, S), start 0.
  //   upload     step s carries packet d = s - 1: d = 0: PE 0 -> host [0, S) on 4N + 1, start 0;
  //              d >= 1: PE q of depth t <= d to its parent (channel 2N + q) q's part, start
  //              (q 2^(d-t) S - 2^(d-1) S) + (d - t); PE 0 -> host P_d, start d.
  //   gather     step d = 1 .. n. N >= 4: d = 1: PE 1 -> 0 (2N + 1) [S, S + ceil(S/2)), start
  //              0; PE 1 -> N/2 (3N + 1) the rest, start 0, and N/2 -> 0 (channel N) the same,
  //              start 1. d >= 2, H = 2^(d-2) S, halves L = [2H, 3H) (PEs under PE 2), U =
  //              [3H, 4H) (under PE 3): PE q >= 2 of depth t <= d to its parent (2N + q) q's part,
  //              start (first address - its half's first address) + (d - t); PE 1 -> 0 (2N + 1)
  //              L, start d - 1; PE 1 -> N/2 (3N + 1) U, start d - 1; N/2 -> 0 (channel N) U,
  //              start d. N = 2: PE 1 -> 0 [S, S + ceil(S/2)) on 5 and the rest on 2, start 0.
  //   allgather  step t = 1 .. N/2 around the ring (section 6): ring link l (x = floor(l/2) at
  //              position r to its ring successor) carries on forward channel l segment
  //              ring[r - t + 1] and on backward channel 2N + l (successor -> x) segment
  //              ring[r + t]; whole segments (start 0), except in step N/2: the forward one its
  //              first ceil(S/2) words, the backward one the rest.
  //   integrate  the same channels, every transfer an ADD, start 0: step 1: forward segment
  //              ring[r + N/2]'s first ceil(S/2) words, backward ring[r + 1 + N/2]'s rest; step
  //              t = 2 .. N/2: forward ring[r + N/2 - t + 1], backward ring[r + N/2 + t], whole.
  function automatic logic [4*VW:0] xfer_fast(int c, logic [3:0] op, logic [VW-1:0] m,
                                              logic [SW-1:0] s);
    logic [VW-1:0] len, src, start, seg, f, hi, hb;
    logic          add;
    int            q;
    int            t;
    int            r;
    len   = '0;
    src   = '0;
    start = '0;
    add   = 1'b0;
    seg   = m >> LogN;           // S = M/N
    hi    = (seg + VW'(1)) >> 1; // ceil(S/2)
    case (op)
      OpBcast, OpBcastHost: begin
        f = (op == OpBcastHost) ? m : (m + VW'(1)) >> 1;
        if (s == SW'(1) && c >= 1 && c < N) begin                        // tree F into PE c
          t     = depth_of(c) - 1 + ((op == OpBcastHost) ? 1 : 0);
          len   = f;
          start = VW'(t);
        end
        if (s == SW'(1) && op == OpBcast && c >= 2 * N + 2 && c < 4 * N && c % 2 == 0) begin
          t     = depth_of(rev((c - 2 * N) / 2)) - 1;                     // tree B into PE y
          len   = m - f;
          src   = f;
          start = VW'(t);
        end
        if (s == SW'(1) && op == OpBcastHost && c == 4 * N) len = m;     // host -> PE 0
      end
      OpScatter: begin
        for (int d = 0; d <= LogN; d++) begin
          if (s == SW'(LogN + 1 - d)) begin
            if (c == 4 * N) begin
              len = (d == 0) ? seg : seg << (d - 1);
              src = (d == 0) ? '0 : seg << (d - 1);
            end
            if (d >= 1 && c >= 1 && c < N && depth_of(c) <= d) begin
              t     = depth_of(c);
              len   = seg << (d - t);
              src   = VW'(c) * len;
              start = src - (seg << (d - 1)) + VW'(t);
            end
          end
        end
      end
      OpUpload: begin
        for (int d = 0; d <= LogN; d++) begin
          if (s == SW'(d + 1)) begin
            if (c == 4 * N + 1) begin
              len   = (d == 0) ? seg : seg << (d - 1);
              src   = (d == 0) ? '0 : seg << (d - 1);
              start = VW'(d);
            end
            if (d >= 1 && c >= 2 * N + 1 && c < 3 * N && depth_of(c - 2 * N) <= d) begin
              q     = c - 2 * N;
              t     = depth_of(q);
              len   = seg << (d - t);
              src   = VW'(q) * len;
              start = src - (seg << (d - 1)) + VW'(d - t);
            end
          end
        end
      end
      OpGather: begin
        if (N == 2) begin
          if (s == SW'(1) && c == 2 * N + 1) begin
            len = hi;
            src = seg;
          end
          if (s == SW'(1) && c == N) begin
            len = seg - hi;
            src = seg + hi;
          end
        end else begin
          if (s == SW'(1) && c == 2 * N + 1) begin
            len = hi;
            src = seg;
          end
          if (s == SW'(1) && (c == 3 * N + 1 || c == N)) begin
            len   = seg - hi;
            src   = seg + hi;
            start = (c == N) ? VW'(1) : '0;
          end
          for (int d = 2; d <= LogN; d++) begin
            if (s == SW'(d)) begin
              if (c >= 2 * N + 2 && c < 3 * N && depth_of(c - 2 * N) <= d) begin
                q     = c - 2 * N;
                t     = depth_of(q);
                hb    = (((q >> (t - 2)) % 2 == 1) ? VW'(3) : VW'(2)) * (seg << (d - 2));
                len   = seg << (d - t);
                src   = VW'(q) * len;
                start = src - hb + VW'(d - t);
              end
              if (c == 2 * N + 1) begin
                len   = seg << (d - 2);
                src   = seg << (d - 1);
                start = VW'(d - 1);
              end
              if (c == 3 * N + 1 || c == N) begin
                len   = seg << (d - 2);
                src   = VW'(3) * (seg << (d - 2));
                start = (c == N) ? VW'(d) : VW'(d - 1);
              end
            end
          end
        end
      end
      OpAllgather, OpIntegrate: begin
        if (c < 4 * N && RingLinks[c % (2 * N)]) begin
          r   = RingPos[8*((c % (2 * N)) / 2) +: 8];   // the link's ring predecessor end
          add = (op == OpIntegrate);
          for (int k = 1; k <= N / 2; k++) begin
            if (s == SW'(k)) begin
              if (op == OpAllgather && c < 2 * N) begin
                src = VW'(ring_at(r - k + 1)) * seg;
                len = (k == N / 2) ? hi : seg;
              end
              if (op == OpAllgather && c >= 2 * N) begin
                src = VW'(ring_at(r + k)) * seg + ((k == N / 2) ? hi : '0);
                len = (k == N / 2) ? seg - hi : seg;
              end
              if (op == OpIntegrate && c < 2 * N) begin
                src = VW'(ring_at(r + N / 2 - k + 1)) * seg;
                len = (k == 1) ? hi : seg;
              end
              if (op == OpIntegrate && c >= 2 * N) begin
                src = VW'(ring_at(r + N / 2 + k)) * seg + ((k == 1) ? hi : '0);
                len = (k == 1) ? seg - hi : seg;
              end
            end
          end
        end
      end
      default: begin
      end
    endcase
    xfer_fast = {add, start, src, src, len};
  endfunction

  // Channel c in step s of op with M = m: {add, start, dst offset, src offset, length}; length 0
  // when the channel is not used. c is a constant (every call below passes a genvar). The fast
  // schedules are in xfer_fast.
  function automatic logic [4*VW:0] xfer(int c, logic [3:0] op, logic fast, logic [VW-1:0] m,
                                         logic [SW-1:0] s);
    logic [VW-1:0] len, src, dst, seg, pkt, w;
    logic [XW-1:0] blk;
    logic          add;
    int            q;
    int            t;
    len = '0;
    src = '0;
    dst = '0;
    add = 1'b0;
    seg = m >> LogN;          // S = M/N
    pkt = m / VW'(LogN);      // broadcast packet M/n
    w   = m >> 2;             // ring exchange W = M/4
    case (op)
      OpIntegrate: begin
        if (c < 2 * N && s >= 1 && s <= LogN) begin
          blk = XW'(c / 2) & ~({XW{1'b1}} << (s - 1));  // i mod 2^(s-1)
          len = m >> s;
          src = VW'(blk) * (m >> (s - 1)) + ((c % 2 == 1) ? len : '0);
          dst = src;
          add = (c >= N);
        end
      end
      OpAllgather: begin
        if (c >= 2 * N && c < 4 * N && s >= 1 && s <= LogN) begin
          blk = XW'((c - 2 * N) % N) & ~({XW{1'b1}} << (LogN + 1 - s));  // j mod 2^m
          len = m >> (LogN + 1 - s);
          src = VW'(blk) * len;
          dst = src;
        end
      end
      OpBcast, OpBcastHost: begin
        // step s = k + depth (+ 1 with the host): packet k = s - depth - host, 0 <= k < n
        if (c >= 1 && c < N) begin
          t = depth_of(c) + ((op == OpBcastHost) ? 1 : 0);
          if (s >= t && s < t + LogN) begin
            len = pkt;
            src = VW'(s - t) * pkt;
            dst = src;
          end
        end
        if (c == 4 * N && op == OpBcastHost && s >= 1 && s <= LogN) begin
          len = pkt;
          src = VW'(s - 1) * pkt;
          dst = src;
        end
      end
      OpScatter: begin
        // into PE q at depth t: packet d = n+1-s+t, 2^(d-t) S = S 2^(n+1-s) words at q times that
        if (c >= 1 && c < N) begin
          t = depth_of(c);
          if (s >= t + 1 && s <= LogN + 1) begin
            len = seg << (LogN + 1 - s);
            src = VW'(c) * len;
            dst = src;
          end
        end
        // the host hop of packet d = n+1-s
        if (c == 4 * N && s >= 1 && s <= LogN + 1) begin
          if (s == LogN + 1) begin
            len = seg;
            src = '0;
          end else begin
            len = seg << (LogN - s);
            src = len;
          end
          dst = src;
        end
      end
      OpGather, OpUpload: begin
        // from PE q (depth t) back to its parent in step g = 1 .. n+1-t
        if (c >= 2 * N + 1 && c < 3 * N) begin
          q = c - 2 * N;
          t = depth_of(q);
          if (s >= 1 && s <= LogN + 1 - t) begin
            len = seg << (s - 1);
            src = VW'(q) * len;
            dst = src;
          end
        end
        // upload: PE 0 -> host of packet d = g-1
        if (c == 4 * N + 1 && op == OpUpload && s >= 1 && s <= LogN + 1) begin
          if (s == 1) begin
            len = seg;
            src = '0;
          end else begin
            len = seg << (s - 2);
            src = len;
          end
          dst = src;
        end
      end
      OpRing: begin
        if (s == 1 && c < 2 * N && RingLinks[c % (2 * N)]) begin           // to the successor
          len = w;
          src = '0;
          dst = w << 1;
        end
        if (s == 1 && c >= 2 * N && c < 4 * N && RingLinks[(c - 2 * N) % (2 * N)]) begin
          len = w;                                                        // to the predecessor
          src = w;
          dst = (w << 1) + w;
        end
      end
      default: begin
      end
    endcase
    xfer = is_fast(op, fast) ? xfer_fast(c, op, m, s) : {add, VW'(0), dst, src, len};
  endfunction

  ///////////
  // State //
  ///////////

  // The accepted command, the cycle t of the run and its position by rule 2 of section 4:
  // step s, its setup cycle, then word i = 0 .. L_s - 1, then step s + 1. Reset (synchronously:
  // the wrapper sees the status masked while rst_ni is low) at the edge of a cycle with rst_ni
  // low. The run ends by the T formula; end_o says where the step counters end, and the wrapper
  // checks that the two agree.
  logic                          run_q, done_q;
  logic [ps_pkg::PsErrWidth-1:0] err_q;
  logic [3:0]                    op_q;
  logic                          fast_q;
  logic [VW-1:0]                 m_q;
  logic [AW-1:0]                 base_q;
  logic [TW-1:0]                 t_q;
  logic [SW-1:0]                 s_q;
  logic                          setup_q;
  logic [VW-1:0]                 i_q;

  logic [TW-1:0] total;
  logic [SW-1:0] steps;
  logic [VW-1:0] len_now;  // L_s of step s_q
  assign total      = total_of(op_q, fast_q, m_q);
  assign steps      = steps_of(op_q, fast_q);
  assign cmd_code_o = code_of(cmd_op_i, cmd_fast_i, cmd_words_i, cmd_base_i);

  always @(*) begin
    len_now = '0;
    for (int s = 1; s <= SMax; s++) begin
      if (s_q == SW'(s)) len_now = step_len(op_q, fast_q, m_q, s);
    end
  end

  always @(posedge clk_i) begin
    if (!rst_ni) begin
      run_q  <= 1'b0;
      done_q <= 1'b0;
      err_q  <= ps_pkg::PsErrOk;
    end else begin
      if (run_q) begin
        if (t_q + TW'(1) == total) begin
          run_q  <= 1'b0;
          done_q <= 1'b1;
        end
        t_q <= t_q + TW'(1);
        if (setup_q) begin
          setup_q <= 1'b0;
          i_q     <= '0;
        end else if (i_q + VW'(1) < len_now) begin
          i_q <= i_q + VW'(1);
        end else begin
          s_q     <= s_q + SW'(1);
          setup_q <= 1'b1;
        end
        if (cmd_start_i) err_q <= ps_pkg::PsErrBusy;
        else if (link_bad_i) err_q <= ps_pkg::PsErrLink;
      end else if (cmd_start_i) begin
        err_q  <= cmd_code_o;
        done_q <= 1'b0;
        if (cmd_code_o == ps_pkg::PsErrOk) begin
          run_q   <= 1'b1;
          t_q     <= '0;
          s_q     <= SW'(1);
          setup_q <= 1'b1;
          op_q    <= cmd_op_i;
          fast_q  <= cmd_fast_i;
          m_q     <= VW'(cmd_words_i);
          base_q  <= AW'(cmd_base_i);
        end
      end
    end
  end

  assign busy_o     = rst_ni && run_q;
  assign done_o     = rst_ni && done_q;
  assign err_o      = rst_ni ? err_q : ps_pkg::PsErrOk;
  assign base_o     = base_q;
  assign fast_o     = fast_q;
  assign t_o        = t_q;
  assign setup_o    = setup_q;
  assign step_o     = busy_o ? s_q : '0;
  assign step_len_o = len_now;
  assign t_total_o  = total;
  assign end_o      = !setup_q && s_q == steps && i_q + VW'(1) == len_now;

  logic [SW-1:0] cur_s;
  logic [VW-1:0] word;
  assign cur_s = s_q;
  assign word  = i_q;

  //////////////
  // Channels //
  //////////////

  logic [Channels*VW-1:0] src_off;  // the transfers' source offsets

  for (genvar c = 0; c < Channels; c++) begin : g_ch
    logic [4*VW:0] x;
    logic [VW-1:0] len, src, dst, start, i;
    assign x     = xfer(c, op_q, fast_q, m_q, cur_s);
    assign len   = x[0 +: VW];
    assign src   = x[VW +: VW];
    assign dst   = x[2*VW +: VW];
    assign start = x[3*VW +: VW];
    assign i     = word - start;  // the transfer's word index (meaningful when valid)
    assign src_off[c*VW +: VW]   = src;
    assign valid_o[c]            = busy_o && !setup_o && (word >= start) && (i < len);
    assign src_o[c*VW +: VW]     = src + i;
    assign dst_o[c*VW +: VW]     = dst + i;
    assign add_o[c]              = x[4*VW];
    assign len_o[c*VW +: VW]     = len;
    assign start_o[c*VW +: VW]   = start;
  end

  // The host word of the next cycle (every host-link transfer has start 0, in the fast schedules
  // too): word 0 of this step's host transfer after its setup cycle,
  // else word i+1 (the next cycle is in this step while i + 1 < L_s, and the host transfer is no
  // longer than L_s).
  logic [VW-1:0] host_len, host_off;
  assign host_len = len_o[4*N*VW +: VW];
  assign host_off = src_off[4*N*VW +: VW];

  always @(*) begin
    host_req_o      = 1'b0;
    host_req_addr_o = '0;
    if (busy_o && setup_o && host_len != '0) begin
      host_req_o      = 1'b1;
      host_req_addr_o = host_off;
    end else if (busy_o && !setup_o && word + VW'(1) < host_len) begin
      host_req_o      = 1'b1;
      host_req_addr_o = host_off + VW'(word) + VW'(1);
    end
  end

endmodule
