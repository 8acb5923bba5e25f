// pinet RTL file list: one path per line, relative to the repository root, packages first.
// Read by CMake (cosim, testbenches, lint), Icarus, yosys scripts and Verilator alike.
// The modules include rtl/pinet_param.svh (the parameter-range guard macro): give Verilator
// +incdir+rtl and Icarus -I rtl (yosys finds it beside the including file).
rtl/rta_pkg.sv
rtl/rta_switch.sv
rtl/rta_ring.sv
rtl/rta_torus2d.sv
rtl/rta_bitmap_ctrl.sv
rtl/rta_system1d.sv
rtl/rta_system2d.sv
rtl/ps_pkg.sv
rtl/ps_router_mem.sv
rtl/ps_router_seq.sv
rtl/ps_router_planner.sv
rtl/ps_router.sv
rtl/ps_network.sv
