// Copyright pinet contributors.
//
// tb_rta_common.svh: what the RTA testbenches (testbenches/tb_rta_*.sv) share. Each includes it
// at the top of its module body (the build passes -I testbenches/); no include guard, as every
// including module needs its own copy:
//
//   module tb_rta_x;
//     `include "tb_rta_common.svh"
//
// (Named *.svh, not tb_*.sv: testbenches/CMakeLists.txt builds every tb_*.sv as a testbench.)
// It declares, in the including module:
//   - the PRNG: xorshift64, the same stream in Icarus and Verilator (rng_state, rand32 and the
//     draws below, rand_word, rand_switch), the seed and the check counter;
//   - tb_begin / tb_end / tb_fail: seed from +seed=<n> (default 1) and the banner "<name>: seed
//     <n>"; the summary and the line "PASS <name>"; the $fatal "<name>: FAIL" after an $error;
//   - rings of a chain of PEs cut by RTA switches (up to 64 PEs; bit k of a `starts` vector: a
//     ring starts at PE k): srta_level, srta_neighbor, srta_starts, cut_starts, ring_next;
//   - the checks check_link (one link of the network) and check_err_mode (a command's result);
//   - the macro `TB_RTA_CLOCK(clk), the clock of the clocked testbenches.
// Only functions, tasks and the few variables every testbench uses live here (Verilator -Wall
// flags an unused parameter or signal, not an unused function).

  //////////
  // PRNG //
  //////////

  logic [63:0] rng_state;
  int unsigned seed;
  int unsigned checks;
  string       tb_name;

  // rand32 and the draws built on it (below, rand_word, rand_switch) are only ever called as the
  // whole right-hand side of an assignment (at most under a width cast): a call inside a larger
  // expression may be evaluated twice by one of the two simulators, and their streams would then
  // differ.
  function automatic logic [31:0] rand32();
    rng_state = rng_state ^ (rng_state << 13);
    rng_state = rng_state ^ (rng_state >> 7);
    rng_state = rng_state ^ (rng_state << 17);
    rand32    = rng_state[31:0];
  endfunction

  // Uniform in 0 .. n-1 (n >= 1; the modulo bias is irrelevant here).
  function automatic int below(int n);
    logic [31:0] r;
    r     = rand32();
    below = int'(r % 32'(n));
  endfunction

  // A random word whose low tag_bits bits are `tag` (a unique port number, so that a word that
  // arrives at the wrong port names where it came from).
  function automatic logic [31:0] rand_word(input int tag_bits, input int tag);
    logic [31:0] r;
    r         = rand32();
    rand_word = (r & ~((32'd1 << tag_bits) - 32'd1)) | 32'(tag);
  endfunction

  // A random switch state (1 = ON) for round t of a random-bitmap test: the rounds alternate
  // uniform, mostly-ON (7/8) and mostly-OFF (1/8) bitmaps.
  function automatic logic rand_switch(input int t);
    logic [31:0] r;
    r = rand32();
    case (t % 3)
      0:       rand_switch = (r & 32'h1) != 0;
      1:       rand_switch = (r & 32'h7) != 0;
      default: rand_switch = (r & 32'h7) == 0;
    endcase
  endfunction

  ///////////////////////////
  // Start, end, a failure //
  ///////////////////////////

  // Seed from +seed=<n> (default 1), PRNG start state, zero checks; prints "<name>: seed <n>".
  task automatic tb_begin(input string name);
    tb_name = name;
    seed    = 1;
    if ($value$plusargs("seed=%d", seed)) begin
    end
    rng_state = {32'h9e3779b9, seed} | 64'd1;
    checks    = 0;
    $display("%s: seed %0d", tb_name, seed);
  endtask

  // Prints "<name>: <checks> <what>, PRNG state <state>" and "PASS <name>", then $finish.
  task automatic tb_end(input string what);
    $display("%s: %0d %s, PRNG state %h", tb_name, checks, what, rng_state);
    $display("PASS %s", tb_name);
    $finish;
  endtask

  // Ends the run after a failure's $error: $fatal "<name>: FAIL".
  task automatic tb_fail;
    $fatal(1, "%s: FAIL", tb_name);
  endtask

  /////////////////////////////
  // Rings of a chain of PEs //
  /////////////////////////////

  // The level of switch p (0 .. N/2-2, from the left) of an RTA chain: tz(p+1) + 2. SRTA level l
  // turns ON exactly the switches of level <= l.
  function automatic int srta_level(input int p);
    int q;
    int lvl;
    q   = p + 1;
    lvl = 2;
    while (q % 2 == 0) begin
      q   = q / 2;
      lvl = lvl + 1;
    end
    srta_level = lvl;
  endfunction

  // The paper's neighbor(A, l): the PE whose L port PE a's R port reaches at SRTA level l,
  // q + (a + 1) mod 2^l with q = a - a mod 2^l.
  function automatic int srta_neighbor(input int a, input int l);
    int span;
    span          = 1 << l;
    srta_neighbor = a - a % span + (a % span + 1) % span;
  endfunction

  // The rings of SRTA level l: one starts at every multiple of 2^l.
  function automatic logic [63:0] srta_starts(input int l);
    for (int k = 0; k < 64; k++) srta_starts[k] = (k % (1 << l) == 0);
  endfunction

  // The rings of a chain of n PEs whose switches p = 0 .. n/2-2 are bm[p] (1 = ON): PE 0 and, for
  // every OFF switch p, PE 2p+2 start a ring.
  function automatic logic [63:0] cut_starts(input logic [31:0] bm, input int n);
    logic [63:0] s;
    s    = '0;
    s[0] = 1'b1;
    for (int p = 0; p < n / 2 - 1; p++) begin
      if (!bm[p]) s[2*p+2] = 1'b1;
    end
    cut_starts = s;
  endfunction

  // The PE after PE a on its ring, in a chain of n PEs split into rings at `starts`: a + 1, or the
  // ring's first PE when a ends the ring (a = n-1, or a ring starts at a + 1).
  function automatic int ring_next(input logic [63:0] starts, input int n, input int a);
    int first;
    if (a == n - 1 || starts[a+1]) begin
      first = a;
      while (!starts[first]) first--;
      ring_next = first;
    end else begin
      ring_next = a + 1;
    end
  endfunction

  ////////////
  // Checks //
  ////////////

  // `w` in hex as %h prints a value of `width` bits (a multiple of 4, at most 32).
  function automatic string hex_word(input logic [31:0] w, input int width);
    string s;
    s        = $sformatf("%h", w);
    hex_word = s.substr(8 - width / 4, 7);
  endfunction

  // A PE's name: its number, or "(row,col)" when side (the row length) is not 0.
  function automatic string pe_name(input int pe, input int side);
    if (side == 0) pe_name = $sformatf("%0d", pe);
    else pe_name = $sformatf("(%0d,%0d)", pe / side, pe % side);
  endfunction

  // One link: PE a's R port (D port when `vertical`) and PE b's L port (U port) are joined when
  // each receives the word the other sent: in_got (at b) == out_sent (by a) and out_got (at a) ==
  // in_sent (by b); words of `width` bits, zero-extended. On a mismatch: the line ctx, an $error
  // naming the link, tb_fail. PEs print as pe_name(a, a_side) and pe_name(b, b_side).
  task automatic check_link(input string ctx, input int a, input int a_side, input int b,
                            input int b_side, input logic vertical, input int width,
                            input logic [31:0] in_got, input logic [31:0] out_got,
                            input logic [31:0] out_sent, input logic [31:0] in_sent);
    string in_port;
    string out_port;
    checks++;
    if (in_got !== out_sent || out_got !== in_sent) begin
      in_port  = vertical ? "U" : "L";
      out_port = vertical ? "D" : "R";
      $display("%s", ctx);
      $error("PE %s %s -> PE %s %s: got %s %s %s %s, want %s %s %s %s", pe_name(a, a_side),
             out_port, pe_name(b, b_side), in_port, in_port, hex_word(in_got, width), out_port,
             hex_word(out_got, width), in_port, hex_word(out_sent, width), out_port,
             hex_word(in_sent, width));
      tb_fail;
    end
  endtask

  // A command's result: the controller's err_o and mode_o must be want_err and want_mode.
  task automatic check_err_mode(input string what, input logic [2:0] got_err,
                                input logic [1:0] got_mode, input int want_err,
                                input int want_mode);
    checks++;
    if (got_err !== 3'(want_err) || got_mode !== 2'(want_mode)) begin
      $error("%s: %s: err %0d mode %0d, expected err %0d mode %0d (seed %0d)", tb_name, what,
             got_err, got_mode, want_err, want_mode, seed);
      tb_fail;
    end
  endtask

  ///////////
  // Clock //
  ///////////

  // `TB_RTA_CLOCK(clk): declares `clk`, 0 at time 0 and toggling every 5 time units (first rising
  // edge at 5).
  `define TB_RTA_CLOCK(clk) \
    logic clk; \
    initial begin \
      clk = 1'b0; \
      forever #5 clk = ~clk; \
    end
