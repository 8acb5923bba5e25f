// rta_fabric_harness.h - the combinational fabric cosim shared by cosim_rta_ring (1D) and
// cosim_rta_torus2d (2D): rtl/rta_ring.sv or rtl/rta_torus2d.sv against
// pinet_rta_fabric_eval(pinet_rta_route(bitmap)), every output word, every cycle.
//
// Stimulus: the bitmap changes every 1..8 cycles (the route table is computed once per bitmap
// and cached, SRTA tables stay cached for the whole run); each new bitmap is, with equal odds,
//   - the next SRTA level in turn (1, 2, ..., L, 1, ...),
//   - a legal ARTA state: the running ARTA state after 1..4 random pinet_rta_arta_apply edits
//     (restarted now and then from a random SRTA level),
//   - a raw bitmap (uniform, sparse or dense random bits; sometimes a legal state with one bit
//     flipped).
// Every PE input port gets a fresh random word every cycle.
// Functional coverage (PINET_FCOV_FILE, cosim/common/fcov.h; docs/testplans/rta_ring.json,
// rta_torus2d.json): one hit per new bitmap, by kind: bitmap_srta_first (level 1),
// bitmap_srta_mid (1 < l < L), bitmap_srta_last (level L: every switch ON), bitmap_arta (an
// ARTA walk state), bitmap_raw_flip (a legal state one bit off), bitmap_raw_random.
// With --compare 0 the C model is not run and nothing is compared (benchmark baseline; the
// PASS line then reports 0 matched cycles).
#ifndef PINET_COSIM_RTA_FABRIC_HARNESS_H
#define PINET_COSIM_RTA_FABRIC_HARNESS_H

#include <cinttypes>
#include <cstdio>
#include <vector>

#include "rta_cosim.h"

namespace pinet {
namespace cosim {
namespace rta {

struct FabricRunConfig {
  unsigned dim = 1;  // must match the Dim template argument of run_fabric
  uint32_t side = 0;  // PEs per ring
  uint64_t fault_cycle = kNoFault;
  bool compare = true;
};

template <class Model, unsigned Dim>
int run_fabric(const Options &opt, int argc, char **argv, const FabricRunConfig &cfg) {
  Scoreboard sb(opt);
  pinet_rta_geom geom;
  const uint32_t pes = cfg.dim == 1 ? cfg.side : cfg.side * cfg.side;
  if (!model_ok(sb, 0, "pinet_rta_geom_init", pinet_rta_geom_init(&geom, cfg.dim, pes)))
    return sb.finish();

  Sim<Model> sim(opt, argc, argv);
  Progress progress(opt, opt.cycles());
  pinet_rng rng;
  pinet_rng_seed(&rng, opt.seed());
  const PortView view = view_of<Dim>(sim.dut());
  const size_t nports = (size_t)pes * geom.ports_per_pe;
  const unsigned nsw = geom.switches;

  std::vector<uint8_t> bitmap(nsw), arta(nsw);
  std::vector<uint32_t> in(nports), expected(nports);
  // SRTA levels and a few hundred recent ARTA states repeat: keep their route tables.
  RouteCache routes(geom, 512);
  const pinet_rta_port_ref *peer = nullptr;

  model_ok(sb, 0, "pinet_rta_srta_bitmap", pinet_rta_srta_bitmap(&geom, geom.levels, arta.data()));
  uint32_t next_level = 1;
  uint64_t hold = 0;
  uint64_t kind_cycles[3] = {0, 0, 0};  // SRTA, ARTA, raw
  unsigned kind = 0;
  Fcov &fc = fcov();
  for (const char *b : {"bitmap_srta_first", "bitmap_srta_mid", "bitmap_srta_last", "bitmap_arta",
                        "bitmap_raw_flip", "bitmap_raw_random"})
    fc.plan(b);

  for (uint64_t cycle = 0; cycle < opt.cycles() && !sb.failed(); cycle++) {
    if (hold == 0) {
      // ---- a new bitmap -------------------------------------------------------------------
      kind = (unsigned)pinet_rng_below(&rng, 3);
      hold = 1 + pinet_rng_below(&rng, 8);
      pinet_status st = PINET_OK;
      if (kind == 0) {
        st = pinet_rta_srta_bitmap(&geom, next_level, bitmap.data());
        if (fc.on())
          fc.hit(next_level == 1 ? "bitmap_srta_first"
                                 : next_level == geom.levels ? "bitmap_srta_last" : "bitmap_srta_mid");
        next_level = next_level % geom.levels + 1;
      } else if (kind == 1) {
        if (pinet_rng_below(&rng, 16) == 0)
          st = pinet_rta_srta_bitmap(&geom, 1 + (uint32_t)pinet_rng_below(&rng, geom.levels), arta.data());
        if (st == PINET_OK)
          st = random_arta_walk(geom, &rng, 1 + (unsigned)pinet_rng_below(&rng, 4), arta.data());
        bitmap = arta;
        fc.hit("bitmap_arta");
      } else if (pinet_rng_below(&rng, 4) == 0) {
        bitmap = arta;  // a legal state one bit away from legality
        bitmap[pinet_rng_below(&rng, nsw)] ^= 1u;
        fc.hit("bitmap_raw_flip");
      } else {
        random_raw_bitmap(&rng, nsw, bitmap.data());
        fc.hit("bitmap_raw_random");
      }
      if (!model_ok(sb, cycle, "bitmap generation", st)) break;
      put_bitmap(sim->bitmap_i, bitmap.data(), nsw);
      if (cfg.compare) {
        peer = routes.get(bitmap.data(), &st);
        if (!model_ok(sb, cycle, "pinet_rta_route", st)) break;
      }
    }
    hold--;
    kind_cycles[kind]++;

    // ---- drive, evaluate, compare ----------------------------------------------------------
    random_words(&rng, nports, in.data());
    drive_ports(view, pes, in.data());
    sim.eval();
    if (cfg.compare) {
      if (!model_ok(sb, cycle, "pinet_rta_fabric_eval",
                    pinet_rta_fabric_eval(&geom, peer, in.data(), expected.data())))
        break;
      if (cycle == cfg.fault_cycle) expected[0] ^= 1u;  // deliberate failure: l_o[0]
      if (!check_ports(sb, cycle, view, pes, expected.data())) break;
      sb.matched_cycle();
    }
    sim.advance();
    progress.update(cycle + 1);
  }
  sim.close();
  if (!opt.quiet())
    std::printf("cosim %s: %s %u, %u switches; cycles with SRTA %" PRIu64 ", ARTA %" PRIu64
                ", raw %" PRIu64 " bitmaps; route tables computed %" PRIu64 ", reused %" PRIu64 "\n",
                opt.block().c_str(), cfg.dim == 1 ? "N" : "side", cfg.side, nsw, kind_cycles[0],
                kind_cycles[1], kind_cycles[2], routes.misses(), routes.hits());
  return sb.finish();
}

}  // namespace rta
}  // namespace cosim
}  // namespace pinet

#endif  // PINET_COSIM_RTA_FABRIC_HARNESS_H
