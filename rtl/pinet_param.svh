// Copyright pinet contributors.
//
// pinet_param.svh: the one macro of the RTL's parameter-range guards. Each module refuses the
// parameters outside the range its registered runs and proofs cover (docs/verification.md,
// "Parameter ranges"), in a generate `if` at the end of its parameter section:
//   if (N < 4 || N > 4096 || (N & (N - 1)) != 0) begin : g_bad_n
//     `PINET_PARAM_RANGE_ERROR(
//       "rta_ring: N outside its verified range: a power of two in [4, 4096]")
//   end
// The message is "<module>: <parameter> outside its verified range: <range>", one string
// literal: tests/lint/check_param_ranges.py reads these messages as the RTL's ranges and
// holds them to the table of docs/verification.md.
//
// What a refusal does depends on the tool:
//   Icarus 11 (__ICARUS__)    no elaboration-time $error: an `initial $fatal(1, msg)`, which
//                             ends the run at time 0 with exit 1 (vvp -n runs it)
//   otherwise                 the elaboration-time `$error(msg)` of IEEE 1800-2017 20.11,
//                             refused by Verilator (%Warning-USERERROR) and yosys (ERROR)
//
// Found through the include path: +incdir+rtl (Verilator: cmake/PinetRtl.cmake), -I rtl
// (Icarus); yosys looks beside the including file first.
`ifndef PINET_PARAM_SVH
`define PINET_PARAM_SVH

`ifdef __ICARUS__
`define PINET_PARAM_RANGE_ERROR(msg) initial $fatal(1, msg);
`else
`define PINET_PARAM_RANGE_ERROR(msg) $error(msg);
`endif

`endif  // PINET_PARAM_SVH
