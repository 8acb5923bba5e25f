// cosim_rta_ring.cpp - rtl/rta_ring.sv (1D RTA fabric, combinational) against
// pinet_rta_fabric_eval(pinet_rta_route(bitmap)) for N = 4, 8, 16, 64, 256 PEs (--pes N), every
// output word every cycle. Stimulus and options: rta_fabric_harness.h.
#include <cstdio>
#include <string>

#include "Vrta_ring_n16.h"
#include "Vrta_ring_n256.h"
#include "Vrta_ring_n4.h"
#include "Vrta_ring_n64.h"
#include "Vrta_ring_n8.h"
#include "rta_fabric_harness.h"

int main(int argc, char **argv) {
  namespace rc = pinet::cosim::rta;
  pinet::cosim::Options opt("rta_ring", 100000);
  opt.add_int("pes", 8, "ring size N: 4, 8, 16, 64 or 256");
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
    case 4: return rc::run_fabric<Vrta_ring_n4, 1>(opt, argc, argv, cfg);
    case 8: return rc::run_fabric<Vrta_ring_n8, 1>(opt, argc, argv, cfg);
    case 16: return rc::run_fabric<Vrta_ring_n16, 1>(opt, argc, argv, cfg);
    case 64: return rc::run_fabric<Vrta_ring_n64, 1>(opt, argc, argv, cfg);
    case 256: return rc::run_fabric<Vrta_ring_n256, 1>(opt, argc, argv, cfg);
    default:
      opt.invalid("--pes " + std::to_string(opt.get("pes")) +
                  ": this executable has rta_ring for N = 4, 8, 16, 64, 256 only");
      return opt.exit_code();
  }
}
