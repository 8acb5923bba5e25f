// cosim_rta_torus2d.cpp - rtl/rta_torus2d.sv (2D RTA fabric, combinational) against
// pinet_rta_fabric_eval(pinet_rta_route(bitmap)) for the sides of PINET_TORUS_SIZES in
// cosim/rta/CMakeLists.txt (--side S, side x side PEs; --help lists those built),
// every output word every cycle. ARTA states are random walks over the switching classes.
// Stimulus and options: rta_fabric_harness.h.
#include <cstdio>
#include <string>

#include "rta_torus2d_models.h"  // the models of this build: PINET_RTA_TORUS2D_MODELS(X), X(size) each
#include "rta_fabric_harness.h"

int main(int argc, char **argv) {
  namespace rc = pinet::cosim::rta;
  pinet::cosim::Options opt("rta_torus2d", 50000);
  opt.add_int("side", 4, "PEs per row and column: " PINET_RTA_TORUS2D_MODELS_TEXT);
  opt.add_int("compare", 1, "1: compare against the C model every cycle; 0: drive only (benchmark)");
  rc::FabricRunConfig cfg;
  std::string err;
  if (!rc::take_fault_option(&argc, argv, &cfg.fault_cycle, &err)) {
    opt.reject(err);
    return opt.exit_code();
  }
  if (!opt.parse(argc, argv)) return opt.exit_code();
  if (opt.get("compare") > 1) {
    opt.reject("--compare must be 0 or 1");
    return opt.exit_code();
  }
  cfg.dim = 2;
  cfg.side = (uint32_t)opt.get("side");
  cfg.compare = opt.get("compare") == 1;
  switch (opt.get("side")) {
#define RUN_CASE(size) \
  case size:           \
    return rc::run_fabric<Vrta_torus2d_s##size, 2>(opt, argc, argv, cfg);
    PINET_RTA_TORUS2D_MODELS(RUN_CASE)
#undef RUN_CASE
    default:
      opt.invalid("--side " + std::to_string(opt.get("side")) +
                  ": this executable has rta_torus2d for side " PINET_RTA_TORUS2D_MODELS_TEXT " only");
      return opt.exit_code();
  }
}
