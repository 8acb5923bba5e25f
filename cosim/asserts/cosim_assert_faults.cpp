// cosim_assert_faults.cpp - each assertion of the checkers can fire (cosim/asserts/CMakeLists.txt):
// `--fault <module>.<property>` runs the model of that RTL module with that property's deliberate
// fault switched on (pinet_fault_on(), below) under pseudo-random inputs (assert_fault_top.sv,
// seeded by --seed) until its checker's assertion fires, and ends as every cosim does:
// "FAIL <module> cycle <c> assertion <name> seed <s>", exit 1, the wave (--wave) closed and kept.
// `--block <module>` alone runs the module's first fault; `--fault none --block <module>` the
// model with no fault on (every checker must stay quiet: PASS). A model whose checker never fires
// in --cycles ends with PASS (exit 0): then the fault went unnoticed, which check_assert_faults.sh
// reports.
#include <cstdint>
#include <cstring>
#include <string>

#include "assert_fault_models.h"
#include "cosim.h"
#include "svdpi.h"

namespace {

constexpr uint64_t kResetCycles = 2;

struct Fault {
  const char *property;
  const char *module;
  unsigned number;  // K of pinet_fault_on(K) in its module's model
};

const Fault kFaults[] = {
#include "assert_fault_list.h"
};

// The fault switched on in this run (0: none). A run is one model, one fault, one thread.
unsigned &selected_fault() {
  static unsigned number = 0;
  return number;
}

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

// The value after `--name` in argv, or "" (read before the options: it names the run's block).
std::string arg_value(int argc, char **argv, const char *name) {
  for (int i = 1; i + 1 < argc; i++)
    if (std::strcmp(argv[i], name) == 0) return argv[i + 1];
  return "";
}

}  // namespace

// Called by the faulty RTL copies: is fault k of this model the one switched on?
extern "C" svBit pinet_fault_on(unsigned int k) { return k == selected_fault(); }

int main(int argc, char **argv) {
  std::string block = arg_value(argc, argv, "--block");
  const std::string fault = arg_value(argc, argv, "--fault");
  const Fault *chosen = nullptr;
  for (const Fault &f : kFaults) {
    if (fault == f.property || (fault.empty() && !chosen && block == f.module)) chosen = &f;
  }
  if (chosen && block.empty()) block = chosen->module;
  pinet::cosim::Options opt(block.empty() ? "assert_faults" : pinet::cosim::quoted(block), 1000);
  opt.add_string("block", "", "the module whose faulty model runs: " PINET_FAULT_MODELS_TEXT);
  opt.add_string("fault", "",
                 "the fault switched on, named by the property it breaks (<module>.<property>), "
                 "or none; default: the block's first");
  if (!opt.parse(argc, argv)) return opt.exit_code();
  if (fault != "none" && !fault.empty() && !chosen) {
    opt.reject("--fault: '" + pinet::cosim::quoted(fault) + "' is not a property with a fault (cosim/asserts/CMakeLists.txt)");
    return opt.exit_code();
  }
  if (chosen && block != chosen->module) {
    opt.reject("--fault: " + pinet::cosim::quoted(fault) + " is a fault of " + chosen->module +
               ", not of --block " + pinet::cosim::quoted(block));
    return opt.exit_code();
  }
  selected_fault() = chosen ? chosen->number : 0;
#define X(name, Model) \
  if (block == #name) return run<Model>(opt, argc, argv);
  PINET_FAULT_MODELS(X)
#undef X
  opt.reject("--block: '" + pinet::cosim::quoted(block) + "' is not one of " PINET_FAULT_MODELS_TEXT);
  return opt.exit_code();
}
