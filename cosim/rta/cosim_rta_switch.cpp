// cosim_rta_switch.cpp - rtl/rta_switch.sv against pinet_rta_switch_eval, every cycle, every
// output. Each cycle draws a state (both states, random order) and four random words.
// Functional coverage (PINET_FCOV_FILE, cosim/common/fcov.h): state_off, state_on (cycles in each
// state), state_toggle (cycles whose state differs from the previous cycle's).
#include <algorithm>
#include <cstdint>
#include <string>

#include "Vrta_switch.h"
#include "cosim.h"
#include "pinet/rta.h"

int main(int argc, char **argv) {
  pinet::cosim::Options opt("rta_switch", 200000);
  if (!opt.parse(argc, argv)) return opt.exit_code();

  pinet::cosim::Sim<Vrta_switch> sim(opt, argc, argv);
  pinet::cosim::Scoreboard sb(opt);
  pinet::cosim::Progress progress(opt, opt.cycles());
  pinet_rng rng;
  pinet_rng_seed(&rng, opt.seed());

  static const char *const kOutNames[4] = {"t1_o", "t2_o", "t3_o", "t4_o"};
  uint64_t cycles_on = 0, toggles = 0;
  int last_on = -1;
  for (uint64_t cycle = 0; cycle < opt.cycles() && !sb.failed(); cycle++) {
    uint32_t in[4], expected[4];
    const int on = (int)(pinet_rng_next(&rng) & 1u);
    cycles_on += (uint64_t)on;
    toggles += (uint64_t)(last_on >= 0 && on != last_on);
    last_on = on;
    for (auto &w : in) w = (uint32_t)pinet_rng_next(&rng);

    sim->on_i = on;
    sim->t1_i = in[0];
    sim->t2_i = in[1];
    sim->t3_i = in[2];
    sim->t4_i = in[3];
    sim.eval();
    pinet_rta_switch_eval(on, in, expected);

    const uint32_t dut[4] = {sim->t1_o, sim->t2_o, sim->t3_o, sim->t4_o};
    for (int t = 0; t < 4; t++) sb.check(cycle, kOutNames[t], dut[t], expected[t]);
    sb.matched_cycle();
    sim.advance();
    progress.update(cycle);
  }
  sim.close();
  pinet::cosim::Fcov &f = pinet::cosim::fcov();
  f.hit("state_on", cycles_on);
  f.hit("state_off", sb.matched() - std::min(sb.matched(), cycles_on));
  f.hit("state_toggle", toggles);
  return sb.finish();
}
