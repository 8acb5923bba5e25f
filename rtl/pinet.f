// pinet RTL file list: one path per line, relative to the repository root, packages first.
// Read by CMake (cosim, testbenches, lint), Icarus, yosys scripts and Verilator alike.
rtl/rta_pkg.sv
rtl/rta_switch.sv
