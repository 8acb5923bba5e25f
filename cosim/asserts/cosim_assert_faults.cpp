// cosim_assert_faults.cpp - the assertion checkers can fire (cosim/asserts/CMakeLists.txt): runs
// the model of one RTL module with a deliberate fault (--block MODULE) under pseudo-random
// inputs (assert_fault_tops.sv, seeded by --seed) until its checker's assertion fires, and ends
// as every cosim does: "FAIL <module> cycle <c> assertion <name> seed <s>", exit 1, the wave
// (--wave) closed and kept. A model whose checker never fires in --cycles ends with PASS (exit 0):
// then the fault went unnoticed, which check_assert_faults.sh reports.
#include <cstdint>
#include <cstring>
#include <string>

#include "assert_fault_models.h"
#include "cosim.h"

namespace {

constexpr uint64_t kResetCycles = 2;

template <class Model>
int run(const pinet::cosim::Options &opt, int argc, char **argv) {
  pinet::cosim::Sim<Model> sim(opt, argc, argv);
  pinet::cosim::Scoreboard sb(opt);
  sim->seed_i = opt.seed();
  sim->clk_i = 0;
  for (uint64_t cycle = 0; cycle < opt.cycles() && !sb.failed(); cycle++) {
    sim->rst_ni = cycle >= kResetCycles;
    sim->eval();  // the cycle's values (not dumped: tick_clocked dumps both halves of the cycle)
    sb.check(cycle, "rst_ni", sim->rst_ni, cycle >= kResetCycles);
    sim.tick_clocked();
    sb.matched_cycle();
  }
  sim.close();
  return sb.finish();
}

}  // namespace

int main(int argc, char **argv) {
  // The block named by --block is the block of the result line: find it before the options.
  std::string block;
  for (int i = 1; i + 1 < argc; i++)
    if (std::strcmp(argv[i], "--block") == 0) block = argv[i + 1];
  pinet::cosim::Options opt(block.empty() ? "assert_faults" : block, 1000);
  opt.add_string("block", "", "the module whose faulty model runs: " PINET_FAULT_MODELS_TEXT);
  if (!opt.parse(argc, argv)) return opt.exit_code();
#define X(name, Model) \
  if (block == #name) return run<Model>(opt, argc, argv);
  PINET_FAULT_MODELS(X)
#undef X
  opt.reject("--block: '" + block + "' is not one of " PINET_FAULT_MODELS_TEXT);
  return opt.exit_code();
}
