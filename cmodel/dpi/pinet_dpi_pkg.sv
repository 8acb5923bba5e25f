// Copyright pinet contributors.
//
// pinet_dpi_pkg: the pinet golden model in a SystemVerilog testbench, through DPI-C
// (libpinet_dpi; C side cmodel/include/pinet/dpi.h, installed as <prefix>/include/pinet/dpi.h;
// docs/dpi.md). Standard IEEE 1800 DPI-C imports only, with chandle, int, int unsigned, bit,
// longint unsigned, real and string: no svdpi.h types, no open arrays, nothing
// simulator-specific. Arrays (memories, bitmaps, images) go a word at a time through a handle.
// Every function but the *_free ones and pinet_dpi_status_str returns a pinet_status (0 = OK);
// pinet_dpi_status_str names it. A chandle holds one model; several can live at once.
//
// Per cycle, for the perfect-shuffle network (rtl/ps_network.sv, N ps_routers):
//   if rst_n is low, pinet_dpi_ps_reset; compare the DUT's outputs of the cycle with
//   pinet_dpi_ps_expect_*; then report what the closing edge samples: pinet_dpi_ps_local_write
//   (each local-port write), pinet_dpi_ps_edge (rst_n and the command); then clock the DUT.

package pinet_dpi_pkg;

  ////////////////////////////
  // Status and error codes //
  ////////////////////////////

  // pinet_status (cmodel/include/pinet/status.h, pinned values): what every function returns.
  typedef enum int {
    PinetOk              = 0,
    PinetErrNull         = 1,
    PinetErrNomem        = 2,
    PinetErrSize         = 3,
    PinetErrRange        = 4,
    PinetErrIllegalState = 5,
    PinetErrParse        = 6,
    PinetErrIo           = 7,
    PinetErrMismatch     = 8,
    PinetErrUnsupported  = 9,
    PinetErrIllegalMove  = 10
  } pinet_status_e;

  // The perfect-shuffle RTL's error codes (rtl/ps_pkg.sv ps_err_e).
  typedef enum int unsigned {
    PsErrOk      = 0,
    PsErrBadOp   = 1,
    PsErrWords   = 2,
    PsErrMemory  = 3,
    PsErrQuantum = 4,
    PsErrBusy    = 5,
    PsErrLink    = 6
  } pinet_dpi_ps_err_e;

  import "DPI-C" function string pinet_dpi_status_str(input int status);

  ////////////////////////////////////////////////
  // RTA: routing, fabric, bitmap controller     //
  ////////////////////////////////////////////////

  import "DPI-C" function int pinet_dpi_rta_create(
    output chandle handle, input int unsigned dim, input int unsigned pes);
  import "DPI-C" function void pinet_dpi_rta_free(input chandle handle);
  import "DPI-C" function int pinet_dpi_rta_geom(
    input chandle handle, output int unsigned switches, output int unsigned side,
    output int unsigned ports, output int unsigned nodes);
  // Fabric: bitmap and port inputs, evaluate, then read routing and outputs.
  import "DPI-C" function int pinet_dpi_rta_set_bit(
    input chandle handle, input int unsigned bit_index, input bit on);
  import "DPI-C" function int pinet_dpi_rta_legal(
    input chandle handle, input int unsigned mode, output bit legal);
  import "DPI-C" function int pinet_dpi_rta_set_in(
    input chandle handle, input int unsigned port, input int unsigned data);
  import "DPI-C" function int pinet_dpi_rta_eval(input chandle handle);
  import "DPI-C" function int pinet_dpi_rta_peer(
    input chandle handle, input int unsigned port, output int unsigned peer);
  import "DPI-C" function int pinet_dpi_rta_out(
    input chandle handle, input int unsigned port, output int unsigned data);
  // Bitmap controller: raw bitmap input, reset, one clock edge, outputs.
  import "DPI-C" function int pinet_dpi_rta_ctrl_raw_bit(
    input chandle handle, input int unsigned bit_index, input bit on);
  import "DPI-C" function int pinet_dpi_rta_ctrl_reset(input chandle handle);
  import "DPI-C" function int pinet_dpi_rta_ctrl_clock(
    input chandle handle, input bit cmd_valid, input int unsigned op, input int unsigned arg);
  import "DPI-C" function int pinet_dpi_rta_ctrl_state(
    input chandle handle, output int unsigned mode, output int unsigned err);
  import "DPI-C" function int pinet_dpi_rta_ctrl_bit(
    input chandle handle, input int unsigned bit_index, output bit on);

  //////////////////////////////////
  // Perfect-shuffle network       //
  //////////////////////////////////

  import "DPI-C" function int pinet_dpi_ps_expected_error(
    input int unsigned pes, input int unsigned mem_words, input int unsigned op,
    input int unsigned words, input int unsigned base, output int unsigned err);
  import "DPI-C" function int pinet_dpi_ps_channel_ends(
    input int unsigned pes, input int unsigned ch, output int src, output int dst);

  import "DPI-C" function int pinet_dpi_ps_create(
    output chandle handle, input int unsigned pes, input int unsigned mem_words);
  import "DPI-C" function void pinet_dpi_ps_free(input chandle handle);
  import "DPI-C" function int pinet_dpi_ps_set_host_word(
    input chandle handle, input int unsigned addr, input int unsigned data);
  import "DPI-C" function int pinet_dpi_ps_host_word(
    input chandle handle, input int unsigned addr, output int unsigned data);
  import "DPI-C" function int pinet_dpi_ps_reset(input chandle handle);

  // Expected outputs of the current cycle.
  import "DPI-C" function int pinet_dpi_ps_expect_status(
    input chandle handle, output bit busy, output bit done, output int unsigned err);
  import "DPI-C" function int pinet_dpi_ps_expect_channel(
    input chandle handle, input int unsigned ch, output bit valid, output int unsigned data);
  import "DPI-C" function int pinet_dpi_ps_expect_host(
    input chandle handle, output bit req, output int unsigned req_addr,
    output int unsigned up_addr);
  import "DPI-C" function int pinet_dpi_ps_expect_mem(
    input chandle handle, input int unsigned pe, input int unsigned addr,
    output int unsigned data, output bit known);

  // What the closing edge samples.
  import "DPI-C" function int pinet_dpi_ps_local_write(
    input chandle handle, input int unsigned pe, input int unsigned addr,
    input int unsigned data);
  import "DPI-C" function int pinet_dpi_ps_edge(
    input chandle handle, input bit rst_n, input bit start, input int unsigned op,
    input int unsigned words, input int unsigned base);

  // The running collective's cycle, and the memory writes of the last edge.
  import "DPI-C" function int pinet_dpi_ps_run_cycle(
    input chandle handle, output longint unsigned cycle);
  import "DPI-C" function int pinet_dpi_ps_write_count(
    input chandle handle, output int unsigned count);
  import "DPI-C" function int pinet_dpi_ps_write_get(
    input chandle handle, input int unsigned i, output int pe, output int unsigned addr,
    output int unsigned data);

  // A whole collective on the memories at once (transaction level).
  import "DPI-C" function int pinet_dpi_ps_collective(
    input chandle handle, input int unsigned op, input int unsigned words,
    input int unsigned base, output int unsigned err);

  ////////////////////////////////
  // Reconstruction: FBP and EM //
  ////////////////////////////////

  import "DPI-C" function int pinet_dpi_fbp_create(
    output chandle handle, input int unsigned size, input int unsigned views,
    input int unsigned num_bins, input int unsigned filter);
  import "DPI-C" function void pinet_dpi_fbp_free(input chandle handle);
  import "DPI-C" function int pinet_dpi_fbp_set_sino(
    input chandle handle, input int unsigned view, input int unsigned bin_index, input real value);
  import "DPI-C" function int pinet_dpi_fbp_fixed_bits(input chandle handle, output int frac_bits);
  import "DPI-C" function int pinet_dpi_fbp_run(
    input chandle handle, input bit fixed, input int frac_bits);
  import "DPI-C" function int pinet_dpi_fbp_pixel(
    input chandle handle, input int unsigned row, input int unsigned col, output real value);
  import "DPI-C" function int pinet_dpi_fbp_accum(
    input chandle handle, input int unsigned row, input int unsigned col, output int value);

  import "DPI-C" function int pinet_dpi_em_create(
    output chandle handle, input int unsigned size, input int unsigned views,
    input int unsigned num_bins, input int unsigned fixed);
  import "DPI-C" function void pinet_dpi_em_free(input chandle handle);
  import "DPI-C" function int pinet_dpi_em_set_count(
    input chandle handle, input int unsigned view, input int unsigned bin_index, input real value);
  import "DPI-C" function int pinet_dpi_em_iterate(
    input chandle handle, input int unsigned iters, output real loglik);
  import "DPI-C" function int pinet_dpi_em_pixel(
    input chandle handle, input int unsigned row, input int unsigned col, output real value);

  /////////////
  // Helpers //
  /////////////

  // "ch[13]:6->5" for channel ch on pes PEs (the cosims' signal names); "host" for an end -1.
  function automatic string pinet_dpi_ps_channel_name(int unsigned pes, int unsigned ch);
    int src;
    int dst;
    string s;
    string d;
    if (pinet_dpi_ps_channel_ends(pes, ch, src, dst) != PinetOk) return $sformatf("ch[%0d]", ch);
    s = (src < 0) ? "host" : $sformatf("%0d", src);
    d = (dst < 0) ? "host" : $sformatf("%0d", dst);
    return $sformatf("ch[%0d]:%s->%s", ch, s, d);
  endfunction

endpackage
