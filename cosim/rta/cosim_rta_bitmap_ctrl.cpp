// cosim_rta_bitmap_ctrl.cpp - rtl/rta_bitmap_ctrl.sv against the controller's cycle model
// pinet_rta_ctrl (clock, reset, bitmap, mode, error), every cycle: bitmap_o as a whole (the
// first differing bit is reported, e.g. "bitmap_o[17]"), then mode_o, then err_o.
//
// Configurations (one executable): the sizes of cosim/rta/CMakeLists.txt's PINET_CTRL_SIZES
// (--dim 1 --side 8 | 64 | 256, --dim 2 --side 4 | 8 | 16 | 32; with PINET_LONG_TESTS also
// --dim 1 --side 4096 and --dim 2 --side 64), listed by --help.
// Stimulus per cycle: cmd_valid high 7 times in 8 (cmd fields random garbage when low); opcodes
// NOP, SET_MODE (modes 0..2 and bad ones), SET_LEVEL (1..L and out of range), ARTA_OFF/ON (nodes
// 1..nodes and out of range), WRITE_RAW and the undefined opcodes 6/7. Raw bitmaps are biased
// towards legality: SRTA patterns, ARTA states from random pinet_rta_arta_apply walks, the
// current bitmap, one of those with one bit flipped, an ARTA state with one whole node (2D:
// class) inverted, node-uniform random states (legal only when closed under descendants), or
// random bits. cmd_bitmap_i carries random garbage under every other opcode. A reset pulse
// (rst_ni low, asynchronous, 1..3 cycles) comes about once in 600 cycles.
//
// Cycle: drive inputs (clock high, after the previous rising edge), evaluate, compare the
// outputs against the model (state after the previous edge; reset is asynchronous, so a cycle
// with rst_ni low must already show the reset state), then the falling and rising edge, and
// pinet_rta_ctrl_clock for the edge (skipped while in reset).
// Functional coverage (PINET_FCOV_FILE, cosim/common/fcov.h; bins in
// docs/testplans/rta_bitmap_ctrl.json): every taken command by class x argument class x Dim
// (SET_LEVEL's level and the ARTA edits' node: first, mid, last, bad; SET_MODE's mode;
// WRITE_RAW legal or not in the current mode), every error code, every mode change, resets
// in every mode.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

#include "ctrl_models.h"  // the models of this build: PINET_CTRL_MODELS(X), X(dim, side) each
#include "rta_cosim.h"

namespace {

namespace rc = pinet::cosim::rta;
using pinet::cosim::Options;
using pinet::cosim::Scoreboard;

struct Command {
  int valid = 0;
  unsigned op = 0;
  uint32_t arg = 0;  // 16 bits
};

// An argument for a command whose legal range is 1..max: in range 4 times in 5, else 0, max+1,
// 0xffff or any 16-bit value.
// The class of an argument whose legal range is 1..max: first (1), mid, last (max), bad.
const char *arg_class(uint32_t arg, uint32_t max) {
  arg &= 0xffffu;
  return arg == 1 ? "first" : arg == max ? "last" : arg > 1 && arg < max ? "mid" : "bad";
}
const char *const kModeName[3] = {"srta", "arta", "rta"};

// The bins of one taken command (the model's state before and after it).
void cover_command(unsigned dim, const pinet_rta_geom &geom, const Command &c, unsigned mode_before,
                   unsigned mode_after, unsigned err) {
  pinet::cosim::Fcov &f = pinet::cosim::fcov();
  const std::string d = "_d" + std::to_string(dim);
  const char *err_name = pinet_rta_ctrl_err_name(err);
  f.hit("err_" + pinet::cosim::bin_name(err_name ? err_name : "unknown") + d);
  if (mode_before != mode_after) f.hit(std::string("mode_") + kModeName[mode_before % 3] + "_to_" + kModeName[mode_after % 3] + d);
  switch (c.op & 7u) {
    case PINET_RTA_CMD_NOP: f.hit("ctrl_nop" + d); break;
    case PINET_RTA_CMD_SET_MODE:
      f.hit(std::string("ctrl_set_mode_") + ((c.arg & 0xffffu) <= 2 ? kModeName[c.arg & 3u] : "bad") +
            (err == PINET_RTA_CTRL_ILLEGAL ? "_illegal" : "") + d);
      break;
    case PINET_RTA_CMD_SET_LEVEL: f.hit(std::string("ctrl_set_level_") + arg_class(c.arg, geom.levels) + d); break;
    case PINET_RTA_CMD_ARTA_OFF:
    case PINET_RTA_CMD_ARTA_ON: {
      const std::string name = (c.op & 7u) == PINET_RTA_CMD_ARTA_ON ? "ctrl_arta_on_" : "ctrl_arta_off_";
      f.hit(name + (mode_before == PINET_RTA_MODE_SRTA ? "srta" : arg_class(c.arg, geom.nodes)) + d);
      break;
    }
    case PINET_RTA_CMD_WRITE_RAW:
      f.hit(std::string("ctrl_write_raw_") + (err == PINET_RTA_CTRL_OK ? "legal_" : "illegal_") +
            kModeName[mode_before % 3] + d);
      break;
    default: f.hit("ctrl_bad_opcode" + d); break;
  }
}

// The planned bins (docs/testplans/rta_bitmap_ctrl.json).
void plan_coverage(unsigned dim) {
  pinet::cosim::Fcov &f = pinet::cosim::fcov();
  if (!f.on()) return;
  const std::string d = "_d" + std::to_string(dim);
  for (unsigned e = 0; e <= PINET_RTA_CTRL_BAD_MODE; e++)
    f.plan("err_" + pinet::cosim::bin_name(pinet_rta_ctrl_err_name(e)) + d);
  for (unsigned a = 0; a < 3; a++) {
    f.plan(std::string("reset_in_") + kModeName[a] + d);
    f.plan(std::string("ctrl_set_mode_") + kModeName[a] + d);
    if (a != PINET_RTA_MODE_RTA) f.plan(std::string("ctrl_set_mode_") + kModeName[a] + "_illegal" + d);
    for (unsigned b = 0; b < 3; b++)
      if (a != b) f.plan(std::string("mode_") + kModeName[a] + "_to_" + kModeName[b] + d);
    f.plan(std::string("ctrl_write_raw_legal_") + kModeName[a] + d);
    if (a != PINET_RTA_MODE_RTA) f.plan(std::string("ctrl_write_raw_illegal_") + kModeName[a] + d);
  }
  f.plan("ctrl_set_mode_bad" + d);
  for (const char *k : {"first", "mid", "last", "bad"}) {
    f.plan(std::string("ctrl_set_level_") + k + d);
    f.plan(std::string("ctrl_arta_on_") + k + d);
    f.plan(std::string("ctrl_arta_off_") + k + d);
  }
  f.plan("ctrl_arta_on_srta" + d);
  f.plan("ctrl_arta_off_srta" + d);
  f.plan("ctrl_nop" + d);
  f.plan("ctrl_bad_opcode" + d);
}

uint32_t pick_arg(pinet_rng *rng, uint32_t max) {
  if (pinet_rng_below(rng, 5) != 0) return 1 + (uint32_t)pinet_rng_below(rng, max);
  switch (pinet_rng_below(rng, 4)) {
    case 0: return 0;
    case 1: return max + 1;
    case 2: return 0xffffu;
    default: return (uint32_t)pinet_rng_below(rng, 0x10000);
  }
}

template <class Model>
int run_ctrl(const Options &opt, int argc, char **argv, unsigned dim, uint32_t side,
             uint64_t fault_cycle) {
  Scoreboard sb(opt);
  pinet_rta_geom geom;
  if (!rc::model_ok(sb, 0, "pinet_rta_geom_init",
                    pinet_rta_geom_init(&geom, dim, dim == 1 ? side : side * side)))
    return sb.finish();
  pinet_rta_ctrl *ctrl = nullptr;
  if (!rc::model_ok(sb, 0, "pinet_rta_ctrl_create", pinet_rta_ctrl_create(&ctrl, &geom)))
    return sb.finish();

  pinet::cosim::Sim<Model> sim(opt, argc, argv);
  pinet::cosim::Progress progress(opt, opt.cycles());
  pinet_rng rng;
  pinet_rng_seed(&rng, opt.seed());
  const unsigned nsw = geom.switches;
  std::vector<uint8_t> raw(nsw), arta(nsw), dut_bits(nsw), expected_bits(nsw);
  uint64_t taken_err[8] = {0}, taken_op[8] = {0}, resets = 0;
  const bool cov = pinet::cosim::fcov().on();
  plan_coverage(dim);

  rc::NodeMap nodes;
  rc::model_ok(sb, 0, "pinet_rta_srta_bitmap", pinet_rta_srta_bitmap(&geom, geom.levels, arta.data()));
  rc::model_ok(sb, 0, "node map", nodes.init(geom));
  // Power-on: a falling rst_ni edge at time 0 resets the flops asynchronously (not dumped).
  sim->clk_i = 1;
  sim->rst_ni = 1;
  sim.dut().eval();
  unsigned reset_left = 2;

  for (uint64_t cycle = 0; cycle < opt.cycles() && !sb.failed(); cycle++) {
    if (reset_left == 0 && pinet_rng_below(&rng, 600) == 0) {
      reset_left = 1 + (unsigned)pinet_rng_below(&rng, 3);
      resets++;
      if (cov && cycle > 0)
        pinet::cosim::fcov().hit(std::string("reset_in_") + kModeName[pinet_rta_ctrl_mode(ctrl) % 3] + "_d" +
                                 std::to_string(dim));
    }
    const bool in_reset = reset_left > 0;
    if (reset_left > 0) reset_left--;

    // ---- the command ----------------------------------------------------------------------
    Command c;
    c.valid = pinet_rng_below(&rng, 8) != 0;
    const uint64_t r = pinet_rng_below(&rng, 100);
    if (!c.valid) {
      c.op = (unsigned)pinet_rng_below(&rng, 8);
      c.arg = (uint32_t)pinet_rng_below(&rng, 0x10000);
    } else if (r < 5) {
      c.op = PINET_RTA_CMD_NOP;
      c.arg = (uint32_t)pinet_rng_below(&rng, 0x10000);
    } else if (r < 17) {
      c.op = PINET_RTA_CMD_SET_MODE;
      c.arg = pinet_rng_below(&rng, 8) != 0 ? (uint32_t)pinet_rng_below(&rng, 3)
                                              : 3 + (uint32_t)pinet_rng_below(&rng, 0x10000 - 3);
    } else if (r < 32) {
      c.op = PINET_RTA_CMD_SET_LEVEL;
      c.arg = pick_arg(&rng, geom.levels);
    } else if (r < 47) {
      c.op = PINET_RTA_CMD_ARTA_OFF;
      c.arg = pick_arg(&rng, geom.nodes);
    } else if (r < 62) {
      c.op = PINET_RTA_CMD_ARTA_ON;
      c.arg = pick_arg(&rng, geom.nodes);
    } else if (r < 94) {
      c.op = PINET_RTA_CMD_WRITE_RAW;
      c.arg = (uint32_t)pinet_rng_below(&rng, 0x10000);
    } else {
      c.op = 6 + (unsigned)pinet_rng_below(&rng, 2);
      c.arg = (uint32_t)pinet_rng_below(&rng, 0x10000);
    }

    // ---- the raw bitmap (meaningful under WRITE_RAW only) -----------------------------------
    pinet_status st = PINET_OK;
    if (c.valid && c.op == PINET_RTA_CMD_WRITE_RAW) {
      const uint64_t k = pinet_rng_below(&rng, 12);
      if (k < 3) {
        st = pinet_rta_srta_bitmap(&geom, 1 + (uint32_t)pinet_rng_below(&rng, geom.levels), raw.data());
      } else if (k < 6) {
        st = rc::random_arta_walk(geom, &rng, 1 + (unsigned)pinet_rng_below(&rng, 4), arta.data());
        raw = arta;
      } else if (k < 7) {
        std::copy(pinet_rta_ctrl_bitmap(ctrl), pinet_rta_ctrl_bitmap(ctrl) + nsw, raw.begin());
      } else if (k < 9) {  // an ARTA state, the current bitmap or an SRTA pattern, one bit off
        const uint64_t base = pinet_rng_below(&rng, 3);
        if (base == 0)
          raw = arta;
        else if (base == 1)
          std::copy(pinet_rta_ctrl_bitmap(ctrl), pinet_rta_ctrl_bitmap(ctrl) + nsw, raw.begin());
        else
          st = pinet_rta_srta_bitmap(&geom, 1 + (uint32_t)pinet_rng_below(&rng, geom.levels), raw.data());
        raw[pinet_rng_below(&rng, nsw)] ^= 1u;
      } else if (k < 10) {  // an ARTA state with one whole node (2D: class) inverted
        raw = arta;
        nodes.flip_node(&rng, raw.data());
      } else if (k < 11) {  // node-uniform, mostly ON: legal only if closed under descendants
        nodes.random_uniform(&rng, 50 + (unsigned)pinet_rng_below(&rng, 50), raw.data());
      } else {
        rc::random_raw_bitmap(&rng, nsw, raw.data());
      }
      if (!rc::model_ok(sb, cycle, "bitmap generation", st)) break;
    } else {
      rc::random_raw_bitmap(&rng, nsw, raw.data());
    }

    // ---- drive, evaluate, compare ----------------------------------------------------------
    sim->rst_ni = in_reset ? 0 : 1;
    sim->cmd_valid_i = c.valid;
    sim->cmd_op_i = c.op;
    sim->cmd_arg_i = c.arg;
    rc::put_bitmap(sim->cmd_bitmap_i, raw.data(), nsw);
    sim.dut().eval();
    if (in_reset) pinet_rta_ctrl_reset(ctrl);

    std::copy(pinet_rta_ctrl_bitmap(ctrl), pinet_rta_ctrl_bitmap(ctrl) + nsw, expected_bits.begin());
    if (cycle == fault_cycle) expected_bits[0] ^= 1u;  // deliberate failure: bitmap_o[0]
    rc::get_bitmap(sim->bitmap_o, dut_bits.data(), nsw);
    if (!rc::check_bitmap(sb, cycle, "bitmap_o", dut_bits.data(), expected_bits.data(), nsw)) break;
    if (!sb.check(cycle, "mode_o", sim->mode_o, (uint64_t)pinet_rta_ctrl_mode(ctrl))) break;
    if (!sb.check(cycle, "err_o", sim->err_o, pinet_rta_ctrl_error(ctrl))) break;

    sim.tick_clocked();
    if (!in_reset) {
      const unsigned mode_before = pinet_rta_ctrl_mode(ctrl);
      st = pinet_rta_ctrl_clock(ctrl, c.valid, c.op, c.arg, raw.data());
      if (!rc::model_ok(sb, cycle, "pinet_rta_ctrl_clock", st)) break;
      if (c.valid) {
        taken_op[c.op & 7]++;
        taken_err[pinet_rta_ctrl_error(ctrl) & 7]++;
        if (cov) cover_command(dim, geom, c, mode_before, pinet_rta_ctrl_mode(ctrl), pinet_rta_ctrl_error(ctrl));
      }
    }
    sb.matched_cycle();
    progress.update(cycle + 1);
  }
  if (sb.failed()) sim.tick_clocked();  // put the failing cycle's inputs into the waveform
  sim.close();
  pinet_rta_ctrl_free(ctrl);
  if (!opt.quiet()) {
    std::printf("cosim %s: dim %u side %u, %u switches, %u nodes; %" PRIu64 " resets; commands taken:",
                opt.block().c_str(), dim, side, nsw, geom.nodes, resets);
    for (unsigned op = 0; op < 8; op++) {
      const char *name = pinet_rta_cmd_name(op);
      std::printf(" %s %" PRIu64, name ? name : (op == 6 ? "OP6" : "OP7"), taken_op[op]);
    }
    std::printf("; errors:");
    for (unsigned e = 0; e < 7; e++) {
      const char *name = pinet_rta_ctrl_err_name(e);
      std::printf(" %s %" PRIu64, name ? name : "?", taken_err[e]);
    }
    std::printf("\n");
  }
  return sb.finish();
}

}  // namespace

int main(int argc, char **argv) {
  Options opt("rta_bitmap_ctrl", 100000);
  opt.add_int("dim", 1, "1 (ring) or 2 (torus)");
  opt.add_int("side", 8, "PEs per ring (built: " PINET_CTRL_MODELS_TEXT ")");
  uint64_t fault = rc::kNoFault;
  std::string err;
  if (!rc::take_fault_option(&argc, argv, &fault, &err)) {
    opt.reject(err);
    return opt.exit_code();
  }
  if (!opt.parse(argc, argv)) return opt.exit_code();
  const uint64_t dim = opt.get("dim"), side = opt.get("side");
#define RUN_IF_BUILT(d, s) \
  if (dim == d && side == s) return run_ctrl<Vrta_bitmap_ctrl_d##d##_s##s>(opt, argc, argv, d, s, fault);
  PINET_CTRL_MODELS(RUN_IF_BUILT)
#undef RUN_IF_BUILT
  opt.invalid("--dim " + std::to_string(dim) + " --side " + std::to_string(side) +
              ": this executable has rta_bitmap_ctrl for " PINET_CTRL_MODELS_TEXT " only");
  return opt.exit_code();
}
