// Copyright pinet contributors.
//
// ps_pkg: codes shared by the perfect-shuffle routers (ps_router) and network (ps_network).
// The op values are pinned to cmodel/include/pinet/shuffle.h (pinet_shuffle_op): the C model
// and the RTL are compared on them. The error codes are the RTL's own (the C model reports the
// same conditions as pinet_status codes; cosim/ps maps one onto the other).

package ps_pkg;

  ////////////////
  // Operations //
  ////////////////

  // pinet_shuffle_op. The router runs the seven built-in collectives and the ring exchange;
  // custom (and 9 .. 15) is refused with PsErrBadOp.
  typedef enum logic [3:0] {
    OpBcast        = 4'd0,  // one-to-all broadcast from PE 0, 2n - 1 steps
    OpBcastHost    = 4'd1,  // the same pipeline fed by the host, 2n steps
    OpScatter      = 4'd2,  // host -> PE j gets segment j, n + 1 steps
    OpIntegrate    = 4'd3,  // reduce-scatter with sums, n steps
    OpAllgather    = 4'd4,  // all-to-all broadcast, n steps
    OpGather       = 4'd5,  // segment j of PE j -> PE 0, n steps
    OpUpload       = 4'd6,  // gather pipelined into the host, n + 1 steps
    OpRingExchange = 4'd7,  // along the built-in ring, 1 step; M = 4W: [0,W) to the ring
                            // successor, [W,2W) to the predecessor, [2W,3W) from the
                            // predecessor, [3W,4W) from the successor
                            // (pinet_shuffle_build_ring_exchange_default)
    OpCustom       = 4'd8   // C model only
  } ps_op_e;

  parameter int PsOpWidth = 4;

  /////////////////
  // Error codes //
  /////////////////

  // err_o after a command (cmd_start_i) and during a run. A refused command does not start; the
  // checks run in this order, the first failing one gives the code.
  typedef enum logic [2:0] {
    PsErrOk      = 3'd0,  // accepted (err_o is cleared when a command starts)
    PsErrBadOp   = 3'd1,  // op not one of bcast .. ring-exchange   (C: PINET_ERR_RANGE)
    PsErrWords   = 3'd2,  // M = 0                                  (C: PINET_ERR_RANGE)
    PsErrMemory  = 3'd3,  // base + M > MemWords: the image does not fit the memory (RTL only)
    PsErrQuantum = 3'd4,  // M not a multiple of the quantum: N, or n = log2 N for bcast and
                          // bcast-host, or 4 for ring-exchange     (C: PINET_ERR_MISMATCH)
    PsErrBusy    = 3'd5,  // a command while busy: refused, the running collective goes on
    PsErrLink    = 3'd6   // during a run, an input link's valid disagreed with the schedule
  } ps_err_e;

  parameter int PsErrWidth = 3;

  // Width of the command's M (words) and base fields: any 32-bit value can be commanded, values
  // the memory cannot hold are refused (PsErrMemory).
  parameter int PsCmdWidth = 32;

  //////////////////////////
  // Router write sources //
  //////////////////////////

  // What write port A of a router's memory stores in a step (write port B takes in 3, or in 2
  // in a ring exchange whose successor sends back on in 2).
  typedef enum logic [2:0] {
    SrcIn0   = 3'd0,  // in 0, COPY (tree hop from the parent: bcast, scatter; ring predecessor)
    SrcIn01  = 3'd1,  // in 0 + in 1, one adder (integrate: COPY then ADD on the same address)
    SrcIn2   = 3'd2,  // in 2, COPY (allgather, gather)
    SrcHost  = 3'd3,  // host link, COPY (bcast-host, scatter; PE 0 only)
    SrcIn1   = 3'd4   // in 1, COPY (ring predecessor)
  } ps_src_e;

  /////////////////////////////////////
  // Router plan: port descriptors   //
  /////////////////////////////////////

  // A router's four memory ports (ps_router_mem): the planner (ps_router_planner) gives the top
  // (ps_router) one descriptor per port for the step, port p at [p * W +: W] of one packed
  // vector, W = ps_desc_w(AddrW, CntW).
  parameter int PsPorts   = 4;
  parameter int PsPortRdA = 0;  // read A
  parameter int PsPortRdB = 1;  // read B
  parameter int PsPortWrA = 2;  // write A
  parameter int PsPortWrB = 3;  // write B

  // A descriptor's fields (AddrW, CntW: the router's address and count widths):
  //   off    [ps_desc_off_lo +: AddrW]                the first word's offset in the image (< M)
  //   len    [ps_desc_len_lo(AddrW) +: CntW]          the words it moves (0: the port is idle)
  //   start  [ps_desc_start_lo(AddrW, CntW) +: CntW]  its first transfer cycle in the step
  // A packed vector with its field offsets here, not a packed struct array: the fields' widths
  // follow the router's MemWords (a package struct has fixed widths), yosys 0.23 does not read
  // a field of an element of a packed struct array (d[p].len) and Icarus 11 aborts on a
  // variable of a package's struct type (as on its enums).
  parameter int PsDescOffLo = 0;

  function automatic int ps_desc_len_lo(int addr_w);
    ps_desc_len_lo = addr_w;
  endfunction

  function automatic int ps_desc_start_lo(int addr_w, int cnt_w);
    ps_desc_start_lo = addr_w + cnt_w;
  endfunction

  function automatic int ps_desc_w(int addr_w, int cnt_w);
    ps_desc_w = addr_w + 2 * cnt_w;
  endfunction

  // Read port A's targets (bits of the planner's rda_to_o): which outputs carry its words.
  // Read port B's (rdb_to_o) are {out 3, out 1, out 0}.
  parameter int PsToOut0 = 0;
  parameter int PsToOut2 = 1;
  parameter int PsToOut3 = 2;
  parameter int PsToHost = 3;

endpackage
