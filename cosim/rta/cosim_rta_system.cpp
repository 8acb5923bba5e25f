// cosim_rta_system.cpp - rtl/rta_system1d.sv / rta_system2d.sv (bitmap controller + fabric)
// running the basic parallel transfer (reduce to PE 0, paper 004 §3.4 / §4.2), with the PEs
// modelled here in the harness.
//
// Configurations: --dim 1 --side N (N PEs), --dim 2 --side S (S x S PEs), the sizes of
// PINET_SYSTEM_SIZES in cosim/rta/CMakeLists.txt (--help lists those built).
// For op = sum, max, min, sort in turn on fresh random values (in [-2^20, 2^20): no 32-bit sum
// can overflow), every step s of pinet_rta_reduce_step_info:
//   1. (sometimes an idle cycle: cmd_valid low with garbage fields, a valid NOP, or a valid
//      command the controller refuses: bad opcode, level, mode or node, ARTA in SRTA mode)
//   2. one cycle issuing SET_LEVEL <level of step s>; every PE port carries random noise;
//   3. after its one-cycle latency the senders drive their holdings on the step's ports, one
//      word per cycle (sum/max/min: one word; sort: the whole sorted list), while every other
//      port carries noise (nobody listens to it);
//   4. the harness PEs combine what their receiving port shows (add, max, min, merge) and the
//      senders go idle; then the C reduce model executes the step.
// Checked every cycle, in this order: bitmap_o (first differing bit), mode_o, err_o against
// pinet_rta_ctrl; every fabric output against pinet_rta_fabric_eval under the controller
// model's bitmap; the words each receiver sees against the list the C reduce model says its
// sender holds ("pe[0].r_o.word[3]"). After every step: the controller's bitmap is the step's
// SRTA pattern, the route joins every transfer's ports, and every PE's holdings equal
// pinet_rta_reduce_pe_values ("pe[3].count", "pe[3].value[0]").
// Between reduces the harness sometimes switches the controller to ARTA or RTA mode (SET_LEVEL
// works in every mode) or pulses the asynchronous reset.
// Functional coverage (PINET_FCOV_FILE, cosim/common/fcov.h; docs/testplans/rta_system.json):
// every op x step class x Dim (reduce_<op>_step_<first|mid|last>_d<D>: the first step, a middle
// one, the last), every op completed in each mode (reduce_<op>_in_<mode>_d<D>), the refused
// commands of the idle cycles (err_<code>_d<D>), resets between reduces.
#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "rta_cosim.h"
#include "system_models.h"  // the models of this build: PINET_SYSTEM_MODELS(X), X(dim, side, Vname)

namespace {

namespace rc = pinet::cosim::rta;
using pinet::cosim::Options;
using pinet::cosim::Scoreboard;
using pinet::cosim::bin_name;
using pinet::cosim::Fcov;
using pinet::cosim::fcov;

const char *const kPortName[4] = {"l_o", "r_o", "u_o", "d_o"};
const char *const kOpName[4] = {"sum", "max", "min", "sort"};

template <class Model, unsigned Dim>
class SystemRun {
 public:
  SystemRun(const Options &opt, int argc, char **argv, unsigned dim, uint32_t side, uint64_t fault)
      : opt_(opt), sb_(opt), sim_(opt, argc, argv), progress_(opt, opt.cycles()), dim_(dim),
        side_(side), fault_(fault) {
    pinet_rng_seed(&rng_, opt.seed());
  }
  ~SystemRun() { pinet_rta_ctrl_free(ctrl_); }

  int run() {
    if (!rc::model_ok(sb_, 0, "pinet_rta_geom_init",
                      pinet_rta_geom_init(&geom_, dim_, dim_ == 1 ? side_ : side_ * side_)) ||
        !rc::model_ok(sb_, 0, "pinet_rta_ctrl_create", pinet_rta_ctrl_create(&ctrl_, &geom_))) {
      sim_.close();
      return sb_.finish();
    }
    view_ = rc::view_of<Dim>(sim_.dut());
    pes_ = geom_.pes;
    ppp_ = geom_.ports_per_pe;
    in_.assign((size_t)pes_ * ppp_, 0);
    expected_.assign(in_.size(), 0);
    dut_bits_.assign(geom_.switches, 0);
    routes_.reset(new rc::RouteCache(geom_, 64));

    // Power-on: rst_ni rises at time 0 (not dumped); the first cycle pulls it low.
    sim_->clk_i = 1;
    sim_->rst_ni = 1;
    sim_.dut().eval();
    reset_cycles_ = 1;
    plan_coverage();
    for (unsigned k = 0; !done(); k++) {
      if (k > 0 && pinet_rng_below(&rng_, 8) == 0) {
        reset_cycles_ = 1 + (unsigned)pinet_rng_below(&rng_, 2);
        fcov().hit("reset_between_reduces" + dsfx());
      }
      while (reset_cycles_ > 0 && !done()) idle_cycle();  // commands are lost while in reset
      if (done()) break;
      if (k > 0 && pinet_rng_below(&rng_, 4) == 0) {  // change to a mode every SRTA state is legal in
        noise();
        if (!cycle_with_command(1, PINET_RTA_CMD_SET_MODE, (uint32_t)pinet_rng_below(&rng_, 3))) break;
      }
      reduce((pinet_rta_op)(k % 4));
    }
    if (sb_.failed()) sim_.tick_clocked();  // put the failing cycle's inputs into the waveform
    sim_.close();
    if (!opt_.quiet())
      std::printf("cosim %s: dim %u side %u; reduces completed: sum %" PRIu64 ", max %" PRIu64
                  ", min %" PRIu64 ", sort %" PRIu64 "; steps %" PRIu64 ", words received %" PRIu64 "\n",
                  opt_.block().c_str(), dim_, side_, reduces_[0], reduces_[1], reduces_[2],
                  reduces_[3], steps_, words_);
    return sb_.finish();
  }

 private:
  bool done() const { return sb_.failed() || cycle_ >= opt_.cycles(); }

  // ---- functional coverage (fcov.h) -------------------------------------------------------
  std::string dsfx() const { return "_d" + std::to_string(dim_); }
  static const char *mode_name(unsigned m) {
    static const char *const n[3] = {"srta", "arta", "rta"};
    return n[m % 3];
  }
  void plan_coverage() {
    Fcov &f = fcov();
    if (!f.on()) return;
    for (const char *op : kOpName) {
      for (const char *k : {"first", "mid", "last"}) f.plan(std::string("reduce_") + op + "_step_" + k + dsfx());
      for (unsigned m = 0; m < 3; m++) f.plan(std::string("reduce_") + op + "_in_" + mode_name(m) + dsfx());
    }
    for (unsigned e = 0; e <= PINET_RTA_CTRL_BAD_MODE; e++)  // (no command here is ILLEGAL)
      if (e != PINET_RTA_CTRL_ILLEGAL) f.plan("err_" + bin_name(pinet_rta_ctrl_err_name(e)) + dsfx());
    f.plan("reset_between_reduces" + dsfx());
  }

  void noise() { rc::random_words(&rng_, in_.size(), in_.data()); }

  // Drive the command and in_[], evaluate, compare the controller and the whole fabric.
  bool drive_and_compare(int valid, unsigned op, uint32_t arg) {
    const bool in_reset = reset_cycles_ > 0;
    sim_->rst_ni = in_reset ? 0 : 1;
    sim_->cmd_valid_i = valid;
    sim_->cmd_op_i = op;
    sim_->cmd_arg_i = arg;
    garbage_.resize(geom_.switches);
    rc::random_raw_bitmap(&rng_, geom_.switches, garbage_.data());  // only read by WRITE_RAW
    rc::put_bitmap(sim_->cmd_bitmap_i, garbage_.data(), geom_.switches);
    rc::drive_ports(view_, pes_, in_.data());
    sim_.dut().eval();
    if (in_reset) pinet_rta_ctrl_reset(ctrl_);

    const uint8_t *bits = pinet_rta_ctrl_bitmap(ctrl_);
    expected_bits_.assign(bits, bits + geom_.switches);
    if (cycle_ == fault_) expected_bits_[0] ^= 1u;  // deliberate failure: bitmap_o[0]
    rc::get_bitmap(sim_->bitmap_o, dut_bits_.data(), geom_.switches);
    if (!rc::check_bitmap(sb_, cycle_, "bitmap_o", dut_bits_.data(), expected_bits_.data(), geom_.switches) ||
        !sb_.check(cycle_, "mode_o", sim_->mode_o, (uint64_t)pinet_rta_ctrl_mode(ctrl_)) ||
        !sb_.check(cycle_, "err_o", sim_->err_o, pinet_rta_ctrl_error(ctrl_)))
      return false;
    pinet_status st;
    const pinet_rta_port_ref *peer = routes_->get(bits, &st);
    if (!rc::model_ok(sb_, cycle_, "pinet_rta_route", st) ||
        !rc::model_ok(sb_, cycle_, "pinet_rta_fabric_eval",
                      pinet_rta_fabric_eval(&geom_, peer, in_.data(), expected_.data())))
      return false;
    return rc::check_ports(sb_, cycle_, view_, pes_, expected_.data());
  }

  // Falling and rising edge; the controller model takes the same command at the edge.
  bool clock(int valid, unsigned op, uint32_t arg) {
    sim_.tick_clocked();
    if (reset_cycles_ > 0) {
      reset_cycles_--;
    } else if (!rc::model_ok(sb_, cycle_, "pinet_rta_ctrl_clock",
                             pinet_rta_ctrl_clock(ctrl_, valid, op, arg, garbage_.data()))) {
      return false;
    } else if (valid && fcov().on()) {
      const char *e = pinet_rta_ctrl_err_name(pinet_rta_ctrl_error(ctrl_));
      fcov().hit("err_" + bin_name(e ? e : "unknown") + dsfx());
    }
    sb_.matched_cycle();
    cycle_++;
    progress_.update(cycle_);
    return true;
  }

  bool cycle_with_command(int valid, unsigned op, uint32_t arg) {
    return drive_and_compare(valid, op, arg) && clock(valid, op, arg);
  }

  // A cycle that leaves the controller's bitmap and mode alone: cmd_valid low with garbage, a
  // valid NOP, or a valid command the controller must refuse, which only sets err_o: no such
  // opcode, level 0 or above L, mode above 2, ARTA node 0 or beyond the tree (or any ARTA
  // command in SRTA mode). Node and level numbers from 0x8000 on exceed every geometry's.
  bool idle_cycle() {
    noise();
    uint32_t arg = (uint32_t)pinet_rng_below(&rng_, 0x10000);
    if (pinet_rng_below(&rng_, 2) == 0)
      return cycle_with_command(0, (unsigned)pinet_rng_below(&rng_, 8), arg);
    const uint32_t out_of_range =
        pinet_rng_below(&rng_, 2) ? 0 : 0x8000 + (uint32_t)pinet_rng_below(&rng_, 0x8000);
    unsigned op = PINET_RTA_CMD_NOP;
    switch (pinet_rng_below(&rng_, 8)) {
      case 0: op = 6 + (unsigned)pinet_rng_below(&rng_, 2); break;
      case 1: op = PINET_RTA_CMD_SET_LEVEL, arg = out_of_range; break;
      case 2:
        op = PINET_RTA_CMD_SET_MODE, arg = 3 + (uint32_t)pinet_rng_below(&rng_, 0x10000 - 3);
        break;
      case 3:
        op = PINET_RTA_CMD_ARTA_OFF + (unsigned)pinet_rng_below(&rng_, 2), arg = out_of_range;
        break;
      default: break;
    }
    return cycle_with_command(1, op, arg);
  }

  // Every harness PE's holdings against pinet_rta_reduce_pe_values.
  bool check_holdings(const pinet_rta_reduce *red) {
    for (uint32_t pe = 0; pe < pes_; pe++) {
      const int64_t *vals = nullptr;
      size_t count = 0;
      if (!rc::model_ok(sb_, cycle_, "pinet_rta_reduce_pe_values",
                        pinet_rta_reduce_pe_values(red, pe, &vals, &count)))
        return false;
      const std::string name = "pe[" + std::to_string(pe) + "]";
      if (!sb_.check(cycle_, name + ".count", hold_[pe].size(), count)) return false;
      for (size_t k = 0; k < count; k++)
        if (!sb_.check(cycle_, name + ".value[" + std::to_string(k) + "]", (uint64_t)hold_[pe][k],
                       (uint64_t)vals[k]))
          return false;
    }
    return true;
  }

  void reduce(pinet_rta_op op) {
    std::vector<int64_t> values(pes_);
    for (auto &v : values) v = (int64_t)pinet_rng_below(&rng_, 1u << 21) - (1 << 20);
    pinet_rta_reduce *red = nullptr;
    if (!rc::model_ok(sb_, cycle_, "pinet_rta_reduce_create",
                      pinet_rta_reduce_create(&red, &geom_, op, values.data())))
      return;
    hold_.assign(pes_, {});
    for (uint32_t pe = 0; pe < pes_; pe++) hold_[pe].push_back(values[pe]);
    bool ok = check_holdings(red);
    const uint32_t steps = pinet_rta_reduce_step_count(red);
    for (uint32_t s = 0; ok && s < steps && !done(); s++) ok = step(red, op, s);
    if (ok && !done() && pinet_rta_reduce_steps_done(red) == steps) {
      reduces_[op]++;
      if (fcov().on())
        fcov().hit(std::string("reduce_") + kOpName[op] + "_in_" + mode_name(pinet_rta_ctrl_mode(ctrl_)) + dsfx());
    }
    pinet_rta_reduce_free(red);
  }

  bool step(pinet_rta_reduce *red, pinet_rta_op op, uint32_t s) {
    uint32_t level = 0, axis = 0;
    const pinet_rta_transfer *tr = nullptr;
    size_t ntr = 0;
    if (!rc::model_ok(sb_, cycle_, "pinet_rta_reduce_step_info",
                      pinet_rta_reduce_step_info(red, s, &level, &axis, &tr, &ntr)))
      return false;

    // ---- SET_LEVEL, then its one-cycle latency --------------------------------------------
    if (pinet_rng_below(&rng_, 4) == 0 && !idle_cycle()) return false;
    if (done()) return false;
    noise();
    if (!cycle_with_command(1, PINET_RTA_CMD_SET_LEVEL, level)) return false;
    std::vector<uint8_t> srta(geom_.switches);
    if (!rc::model_ok(sb_, cycle_, "pinet_rta_srta_bitmap", pinet_rta_srta_bitmap(&geom_, level, srta.data())) ||
        !rc::check_bitmap(sb_, cycle_, ("ctrl_model.bitmap_at_level_" + std::to_string(level)).c_str(),
                          pinet_rta_ctrl_bitmap(ctrl_), srta.data(), geom_.switches))
      return false;
    pinet_status st;
    const pinet_rta_port_ref *peer = routes_->get(srta.data(), &st);
    if (!rc::model_ok(sb_, cycle_, "pinet_rta_route", st)) return false;

    // ---- what the C model says each sender holds; the route must join the ports -------------
    std::vector<std::vector<int64_t>> sent(ntr), received(ntr);
    size_t words = 0;
    for (size_t t = 0; t < ntr; t++) {
      const int64_t *vals = nullptr;
      size_t count = 0;
      if (!rc::model_ok(sb_, cycle_, "pinet_rta_reduce_pe_values",
                        pinet_rta_reduce_pe_values(red, tr[t].src, &vals, &count)))
        return false;
      sent[t].assign(vals, vals + count);
      words = std::max(words, hold_[tr[t].src].size());
      const pinet_rta_port_ref p = peer[(size_t)tr[t].dst * ppp_ + tr[t].dst_port];
      const std::string where = "route:pe[" + std::to_string(tr[t].dst) + "]." + kPortName[tr[t].dst_port];
      if (!sb_.check(cycle_, where + ".pe", p.pe, tr[t].src) ||
          !sb_.check(cycle_, where + ".port", p.port, tr[t].src_port))
        return false;
    }

    // ---- the senders drive their lists, one word per cycle ----------------------------------
    for (size_t k = 0; k < words; k++) {
      if (done()) return false;
      noise();
      for (size_t t = 0; t < ntr; t++)
        if (k < hold_[tr[t].src].size())
          in_[(size_t)tr[t].src * ppp_ + tr[t].src_port] = (uint32_t)hold_[tr[t].src][k];
      const unsigned op_garbage = (unsigned)pinet_rng_below(&rng_, 8);
      const uint32_t arg_garbage = (uint32_t)pinet_rng_below(&rng_, 0x10000);
      if (!drive_and_compare(0, op_garbage, arg_garbage)) return false;
      for (size_t t = 0; t < ntr; t++) {
        if (k >= sent[t].size()) continue;
        const uint32_t w = view_.out[tr[t].dst_port][tr[t].dst];
        const std::string name = "pe[" + std::to_string(tr[t].dst) + "]." + kPortName[tr[t].dst_port] +
                                 ".word[" + std::to_string(k) + "]";
        if (w != (uint32_t)sent[t][k] && !sb_.check(cycle_, name, w, (uint32_t)sent[t][k])) return false;
        received[t].push_back((int32_t)w);
        words_++;
      }
      if (!clock(0, op_garbage, arg_garbage)) return false;
    }

    // ---- the harness PEs combine; the C model steps; compare holdings ----------------------
    for (size_t t = 0; t < ntr; t++) {
      std::vector<int64_t> &mine = hold_[tr[t].dst];
      const std::vector<int64_t> &rx = received[t];
      if (op == PINET_RTA_OP_SORT) {
        std::vector<int64_t> merged(mine.size() + rx.size());
        std::merge(mine.begin(), mine.end(), rx.begin(), rx.end(), merged.begin());
        mine.swap(merged);
      } else if (!mine.empty() && !rx.empty()) {
        if (op == PINET_RTA_OP_SUM) mine[0] += rx[0];
        if (op == PINET_RTA_OP_MAX) mine[0] = std::max(mine[0], rx[0]);
        if (op == PINET_RTA_OP_MIN) mine[0] = std::min(mine[0], rx[0]);
      } else if (mine.empty()) {
        mine = rx;
      }
      hold_[tr[t].src].clear();
    }
    if (!rc::model_ok(sb_, cycle_, "pinet_rta_reduce_step", pinet_rta_reduce_step(red))) return false;
    steps_++;
    if (fcov().on()) {
      const uint32_t steps = pinet_rta_reduce_step_count(red);
      fcov().hit(std::string("reduce_") + kOpName[op] + "_step_" +
                 (s == 0 ? "first" : s + 1 == steps ? "last" : "mid") + dsfx());
    }
    return check_holdings(red);
  }

  const Options &opt_;
  Scoreboard sb_;
  pinet::cosim::Sim<Model> sim_;
  pinet::cosim::Progress progress_;
  unsigned dim_;
  uint32_t side_;
  uint64_t fault_;
  pinet_rng rng_;
  pinet_rta_geom geom_{};
  pinet_rta_ctrl *ctrl_ = nullptr;
  rc::PortView view_;
  uint32_t pes_ = 0, ppp_ = 0;
  std::vector<uint32_t> in_, expected_;
  std::vector<uint8_t> dut_bits_, expected_bits_, garbage_;
  std::unique_ptr<rc::RouteCache> routes_;
  std::vector<std::vector<int64_t>> hold_;
  uint64_t cycle_ = 0;
  unsigned reset_cycles_ = 0;
  uint64_t reduces_[4] = {0, 0, 0, 0};
  uint64_t steps_ = 0, words_ = 0;
};

}  // namespace

int main(int argc, char **argv) {
  Options opt("rta_system", 20000);
  opt.add_int("dim", 1, "1 (rta_system1d) or 2 (rta_system2d)");
  opt.add_int("side", 8, "PEs per ring; built: " PINET_SYSTEM_MODELS_TEXT);
  uint64_t fault = rc::kNoFault;
  std::string err;
  if (!rc::take_fault_option(&argc, argv, &fault, &err)) {
    opt.reject(err);
    return opt.exit_code();
  }
  if (!opt.parse(argc, argv)) return opt.exit_code();
  const uint64_t dim = opt.get("dim"), side = opt.get("side");
#define RUN_CASE(d, s, model) \
  if (dim == d && side == s) return SystemRun<model, d>(opt, argc, argv, d, s, fault).run();
  PINET_SYSTEM_MODELS(RUN_CASE)
#undef RUN_CASE
  opt.invalid("--dim " + std::to_string(dim) + " --side " + std::to_string(side) +
              ": this executable has " PINET_SYSTEM_MODELS_TEXT " only");
  return opt.exit_code();
}
