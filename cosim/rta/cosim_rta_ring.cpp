// cosim_rta_ring.cpp - rtl/rta_ring.sv (1D RTA fabric, combinational) against
// pinet_rta_fabric_eval(pinet_rta_route(bitmap)) for the ring sizes of PINET_RING_SIZES in
// cosim/rta/CMakeLists.txt (--pes N; --help lists those built), every
// output word every cycle. Stimulus and options: rta_fabric_harness.h.
#include <cstdio>
#include <string>

#include "rta_ring_models.h"  // the models of this build: PINET_RTA_RING_MODELS(X), X(size) each
#include "rta_fabric_harness.h"

int main(int argc, char **argv) {
  namespace rc = pinet::cosim::rta;
  pinet::cosim::Options opt("rta_ring", 100000);
  opt.add_int("pes", 8, "ring size N: " PINET_RTA_RING_MODELS_TEXT);
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
  cfg.dim = 1;
  cfg.side = (uint32_t)opt.get("pes");
  cfg.compare = opt.get("compare") == 1;
  switch (opt.get("pes")) {
#define RUN_CASE(size) \
  case size:           \
    return rc::run_fabric<Vrta_ring_n##size, 1>(opt, argc, argv, cfg);
    PINET_RTA_RING_MODELS(RUN_CASE)
#undef RUN_CASE
    default:
      opt.invalid("--pes " + std::to_string(opt.get("pes")) +
                  ": this executable has rta_ring for N = " PINET_RTA_RING_MODELS_TEXT " only");
      return opt.exit_code();
  }
}
