// cosim_ps_network.cpp - rtl/ps_network.sv (N perfect-shuffle routers, the host port on PE 0)
// against the C model's cycle simulator (pinet_shuffle_cycle_*), N = 2, 4, 8, 16, 32, 64
// (--pes N; MemWords per N is set in cosim/ps/CMakeLists.txt).
//
// The harness is the host and every PE's processor:
//   1. after a power-on reset it writes every word of every memory through the local ports;
//   2. then, run after run: a collective (random, or --op K), M a random multiple of its quantum
//      (or --words M), a random base; it loads the image [base, base + M) of every memory with
//      random words (not in the first run: the fill has just written random words everywhere,
//      so the first command comes in cycle MemWords + 1 for any seed, where the save files
//      waves/ps_network_n<N>.gtkw open), fills the host's image with random words, pulses
//      cmd_start_i, answers every host request with the requested word in the next cycle, and
//      after done reads back the image (and 2 guard words each side; one run in eight the whole
//      memory) of every PE.
//   While a collective runs the local ports carry random writes (ignored while busy, which is
//   checked); now and then a command arrives while busy (err_o = busy, the run goes on; half of
//   them valid commands, placed in a setup cycle, a transfer cycle, a step's last word or the
//   run's last word), the reset aborts the run (the memories keep what was written), or (with
//   --link-fault 1) a link word is corrupted: the host drives a word on the host link in a cycle
//   where the schedule has none, or a router link's valid bit is inverted on its wire (the RTL's
//   link-fault hook, rtl/ps_network.sv: a word dropped or inserted on a forward or backward link),
//   which the receiving router's link check must answer with err_o = LINK (sticky; the run goes
//   on). Now and then a router link is corrupted while idle too: nothing may change but the
//   wire. One run in eight the next command comes in the done cycle (back to back, the image not
//   read back in between). Between runs (not before the
//   first), now and then a few reads, a reset, or a bad command: an op the RTL does not run
//   (custom, 9 .. 15), M = 0, M not a multiple of the quantum, an image that does not fit the
//   memory.
// Every cycle, in this order (NetworkChecker, ps_cosim.h): busy_o, done_o, err_o; every channel
// 0 .. 4N+1, valid then data ("ch[13]:6->5.valid"); host_req_o, host_req_addr_o, host_addr_o;
// while idle every PE's local read ("pe[3].mem[17]") against the shadow memories, which hold the
// C model's memories after every run; after an upload the host's image ("host.mem[5]").
//
// Extra options: --op K (0..7 one collective by pinet_shuffle_op value, 7 the ring exchange, 255
// all), --fast F (cmd_fast_i: 0 the paper's schedules, 1 the fast ones, 2 a coin per command;
// the fast ones are rtl_runs_fast's, the C model's pinet_shuffle_build_fast), --words M,
// --max-words W (cap of the random M), --runs R (stop after R collectives; --cycles stays the
// cap), --bad 0 (no bad commands), --disturb 0 (no command while busy, no reset), --link-fault 0
// (no corrupted link words), --compare 0 (drive only, no checking: a speed baseline).
// Functional coverage (PINET_FCOV_FILE, cosim/common/fcov.h): NetworkChecker's bins.
// Not --quiet: a statistics line, and per op "bench ..." lines (bench_ps_network.sh).
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <string>
#include <vector>

// The sizes this executable is built for (cosim/ps/CMakeLists.txt): ps_models.h includes their
// models and defines PS_MODELS(X), X(N, MemWords) each, and PS_MODELS_TEXT.
#include "ps_models.h"
#include "ps_cosim.h"

namespace {

namespace pc = pinet::cosim::ps;
using pinet::cosim::Options;
using pinet::cosim::Scoreboard;

struct RunConfig {
  uint32_t pes = 8;
  uint32_t mem_words = 0;
  uint64_t fault = pc::kNoFault;
  uint32_t op = pc::kOpAll;
  uint32_t fast = 0;       // 0 paper, 1 fast, 2 either (a coin per command)
  uint32_t words = 0;      // 0: random
  uint32_t max_words = 0;  // cap of the random M
  uint64_t runs = 0;       // 0: until --cycles
  bool compare = true;
  bool bad = true;
  bool disturb = true;  // commands while busy, resets between runs and in the middle
  bool link_fault = true;  // corrupted link words (host link, router links)
};

template <class Model>
class NetworkRun {
 public:
  NetworkRun(const Options &opt, int argc, char **argv, const RunConfig &cfg)
      : opt_(opt), cfg_(cfg), sb_(opt), sim_(opt, argc, argv), progress_(opt, opt.cycles()),
        chk_(sb_, cfg.pes, cfg.mem_words, cfg.fault) {
    pinet_rng_seed(&rng_, opt.seed());
    // The router-link faults draw from their own generator: the rest of the stimulus is the
    // same for a seed with or without them (and with or without the RTL's hook).
    pinet_rng_seed(&link_rng_, opt.seed() ^ 0x6c696e6b5f666c74ull);
    in_.lcl_we.assign(cfg.pes, 0);
    in_.lcl_wdata.assign(cfg.pes, 0);
    chk_.set_host_image([this] { return &host_img_; });
    for (auto &t : rtl_cycles_) t = 0;
  }

  int run() {
    const auto t0 = std::chrono::steady_clock::now();
    // Power-on: rst_ni rises at time 0 (not dumped); the first cycle pulls it low.
    sim_->clk_i = 1;
    sim_->rst_ni = 1;
    pc::drive_link_fault(sim_.dut(), -1);  // (its power-up value is random too)
    sim_.dut().eval();
    in_.rst_n = false;
    step();
    in_.rst_n = true;
    for (uint32_t a = 0; a < cfg_.mem_words && !stop(); a++) load_word(a);
    while (!stop()) one_run();
    if (sb_.failed()) sim_.tick_clocked();  // put the failing cycle's edges into the waveform
    sim_.close();
    secs_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!opt_.quiet()) report();
    return sb_.finish();
  }

 private:
  bool stop() const {
    return sb_.failed() || cycle_ >= opt_.cycles() || (cfg_.runs > 0 && completed_ >= cfg_.runs);
  }

  uint32_t rnd(uint64_t below) { return (uint32_t)pinet_rng_below(&rng_, below); }
  uint32_t rnd32() { return (uint32_t)pinet_rng_next(&rng_); }
  uint32_t link_rnd(uint64_t below) { return (uint32_t)pinet_rng_below(&link_rng_, below); }
  static constexpr bool kLinkHook = pc::has_link_fault_hook<Model>();

  // The router link to corrupt in this cycle: a coin picks a word the schedule puts on a link
  // now (dropped) or a link without one (a word inserted); while idle, any link.
  int32_t pick_router_link() {
    std::vector<uint32_t> on, off;
    for (uint32_t c = 0; c < 4 * cfg_.pes; c++) (chk_.scheduled(c) ? on : off).push_back(c);
    const std::vector<uint32_t> &from = (link_rnd(2) == 0 && !on.empty()) || off.empty() ? on : off;
    return (int32_t)from[link_rnd(from.size())];
  }

  // One cycle: the host answers last cycle's request, drive, evaluate, check, clock.
  bool step() {
    in_.host_valid = host_pending_;
    in_.host_data = host_pending_ ? host_img_[host_pending_addr_] : 0;
    in_.host_fault = false;
    if (fault_pending_ && !host_pending_ && in_.rst_n && chk_.running()) {  // a stray host word
      in_.host_valid = in_.host_fault = true;
      in_.host_data = rnd32();
      fault_pending_ = false;
    }
    in_.link_fault = -1;
    if (router_fault_pending_ && in_.rst_n && chk_.running()) {
      in_.link_fault = pick_router_link();
      router_fault_pending_ = false;
    } else if (kLinkHook && cfg_.link_fault && in_.rst_n && !chk_.running() && link_rnd(256) == 0) {
      in_.link_fault = pick_router_link();  // while idle: only the wire shows it
    }
    pc::drive_inputs(sim_.dut(), cfg_.pes, in_);
    sim_.dut().eval();  // (not dumped: the waveform shows the inputs from the falling edge on)
    pc::read_outputs(sim_.dut(), cfg_.pes, &out_);
    if (cfg_.compare && !chk_.cycle(cycle_, in_, out_)) return false;
    if (measuring_ && out_.done && cycle_ > start_cycle_) {  // the run's length as the RTL shows it
      rtl_cycles_[run_op_] = cycle_ - start_cycle_ - 1;
      measuring_ = false;
    }
    host_pending_ = in_.rst_n && out_.host_req;
    host_pending_addr_ = out_.host_req_addr;
    if (host_pending_ && host_pending_addr_ >= host_img_.size())
      host_img_.resize(host_pending_addr_ + 1, 0);
    sim_.tick_clocked();
    sb_.matched_cycle();
    cycle_++;
    progress_.update(cycle_);
    in_.start = false;
    in_.rst_n = true;
    std::fill(in_.lcl_we.begin(), in_.lcl_we.end(), 0);
    return true;
  }

  // Write random words at `addr` of every memory.
  void load_word(uint32_t addr) {
    in_.lcl_addr = addr;
    for (uint32_t j = 0; j < cfg_.pes; j++) {
      in_.lcl_we[j] = 1;
      in_.lcl_wdata[j] = rnd32();
    }
    step();
  }

  // Read `addr` of every memory (checked against the shadow).
  void read_word(uint32_t addr) {
    in_.lcl_addr = addr;
    for (auto &w : in_.lcl_wdata) w = rnd32();  // not written: lcl_we is low
    step();
  }

  // Random local-port traffic while a collective runs: the routers must ignore it.
  void noise() {
    in_.lcl_addr = rnd(cfg_.mem_words);
    for (uint32_t j = 0; j < cfg_.pes; j++) {
      in_.lcl_we[j] = rnd(4) == 0;
      in_.lcl_wdata[j] = rnd32();
    }
  }

  uint32_t quantum(uint32_t op, bool fast) const {
    uint32_t q = 0;
    pc::rtl_quantum(op, cfg_.pes, &q, fast);
    return q;
  }

  bool words_ok(uint32_t op, uint32_t words, bool fast) const {
    const uint32_t q = quantum(op, fast);
    return words > 0 && q > 0 && words % q == 0 && words <= cfg_.mem_words;
  }

  // Whether a fixed --words M suits one of the chosen ops under that schedule.
  bool words_fit(bool fast) const {
    for (uint32_t op = 0; op < pc::kNumOps; op++)
      if ((cfg_.op == pc::kOpAll || cfg_.op == op) && words_ok(op, cfg_.words, fast)) return true;
    return false;
  }

  // The schedule of the next command (no random draw unless --fast 2: the paper runs keep their
  // sequences). With --fast 2 and a fixed M that suits one schedule only, that one.
  bool choose_fast() {
    bool fast = cfg_.fast == 2 ? rnd(2) == 1 : cfg_.fast == 1;
    if (cfg_.fast == 2 && cfg_.words != 0 && !words_fit(fast)) fast = !fast;
    return fast;
  }

  // Every collective once in each round of eight runs, in a random order (with --words, the
  // ops that M does not suit are left out).
  uint32_t choose_op(bool fast) {
    if (cfg_.op != pc::kOpAll) return cfg_.op;
    for (;;) {
      if (deck_.empty()) {
        for (uint32_t op = 0; op < pc::kNumOps; op++) deck_.push_back(op);
        for (uint32_t i = pc::kNumOps - 1; i > 0; i--) std::swap(deck_[i], deck_[rnd(i + 1)]);
      }
      const uint32_t op = deck_.back();
      deck_.pop_back();
      if (cfg_.words == 0 || words_ok(op, cfg_.words, fast)) return op;
    }
  }

  uint32_t choose_words(uint32_t op, bool fast) {
    if (cfg_.words != 0) return cfg_.words;
    const uint32_t q = quantum(op, fast);
    const uint32_t cap = cfg_.max_words ? std::min(cfg_.max_words, cfg_.mem_words) : cfg_.mem_words;
    const uint32_t kmax = std::max(1u, cap / q);
    const uint32_t k = rnd(2) == 0 ? 1 + rnd(std::min(kmax, 8u)) : 1 + rnd(kmax);
    return k * q;
  }

  // A command the routers must refuse (the checker derives the code from the C model), often
  // right at the boundaries: base + M = MemWords + 1, M one power of two short of the quantum.
  void bad_command() {
    const uint32_t kind = rnd(5);
    const bool fast = choose_fast();
    uint32_t op = rnd(pc::kNumOps), words = 0, base = 0;
    uint32_t q = quantum(op, fast);
    switch (kind) {
      case 0:  // an op the RTL does not run: custom, 9 .. 15
        op = 8 + rnd(8);
        words = q * (1 + rnd(4));
        break;
      case 1:  // M = 0
        base = rnd(cfg_.mem_words);
        break;
      case 2: {  // M not a multiple of the quantum (N; log2 N for the broadcasts, when > 1; 4)
        if (q == 1) op = PINET_SHUFFLE_OP_SCATTER + rnd(5);
        q = quantum(op, fast);
        uint32_t r = 1 + rnd(q - 1);
        if (rnd(2) == 0 && (q & (q - 1)) == 0) r = 1u << rnd(__builtin_ctz(q));
        words = q * rnd(cfg_.mem_words / q) + r;
        break;
      }
      case 3:  // the image runs past the end of the memory, mostly by one word
        words = q * (1 + rnd(cfg_.mem_words / q));
        base = cfg_.mem_words - words + 1 + (rnd(2) ? 0 : rnd(64));
        break;
      default:  // 32-bit extremes (the checks must not wrap around)
        words = rnd(2) ? 0x80000000u + q * rnd(4) : q;
        base = rnd(2) ? 0xffffffffu : 0x80000000u;
        break;
    }
    in_.start = true;
    in_.fast = fast;
    in_.op = op;
    in_.words = words;
    in_.base = base;
    step();
    bad_++;
  }

  // A run cycle (begin: the steps' setup cycles B_s, then T): one time in five any, else one of
  // a phase chosen at random: the first setup cycle, a later step's setup cycle, a transfer
  // cycle inside a step, a step's last word, the run's last word; drawn from r.
  uint64_t pick_cycle(const std::vector<uint64_t> &begin, pinet_rng &r) {
    auto draw = [&r](uint64_t below) { return (uint64_t)pinet_rng_below(&r, below); };
    if (begin.size() < 2) return 0;
    const uint64_t total = begin.back();
    const uint64_t s = draw(begin.size() - 1);
    const uint64_t b = begin[s], e = begin[s + 1];  // step s: setup b, transfers b + 1 .. e - 1
    switch (draw(6)) {
      case 0: return 0;
      case 1: return b;
      case 2: return e - b > 2 ? b + 1 + draw(e - b - 2) : b;
      case 3: return e - 1;
      case 4: return total - 1;
      default: return draw(total + 1);
    }
  }

  // The first run starts right after the fill, in cycle MemWords + 1 whatever the seed (the save
  // files, waves/ps_network_n<N>.gtkw, open there): no reads, bad command or reset before it, and
  // no image load (the fill has just written random words everywhere, the checker's shadow
  // memories included). Later runs do all of it.
  void one_run() {
    const bool chained = chained_;  // this run's first command comes in the done cycle
    const bool first = first_run_ || chained;
    first_run_ = chained_ = false;
    for (uint32_t k = first ? 0 : rnd(3); k > 0 && !stop(); k--) read_word(rnd(cfg_.mem_words));
    for (uint32_t k = (!first || chained) && cfg_.bad && rnd(4) == 0 ? 1 + rnd(3) : 0; k > 0 && !stop(); k--)
      bad_command();
    // A reset between runs: status cleared, memories kept.
    if (!first && cfg_.disturb && rnd(16) == 0) {
      for (uint32_t k = 1 + rnd(2); k > 0 && !stop(); k--) {
        in_.rst_n = false;
        read_word(rnd(cfg_.mem_words));
      }
    }
    const bool fast = choose_fast();
    const uint32_t op = choose_op(fast);
    const uint32_t words = choose_words(op, fast);
    // The image anywhere, one run in eight right at the end of the memory, one in eight at 0.
    const uint32_t where = rnd(8);
    const uint32_t base = where == 0 ? cfg_.mem_words - words : where == 1 ? 0 : rnd(cfg_.mem_words - words + 1);
    for (uint32_t a = base; a < base + words && !first && !stop(); a++) load_word(a);
    host_img_.resize(words);
    for (auto &w : host_img_) w = rnd32();
    if (stop()) return;

    // How long the run takes (for placing the rare disturbances): the C model's T.
    uint64_t total = 0;
    std::vector<uint64_t> begin;  // the steps' setup cycles B_s, then T
    pinet_shuffle_schedule *sched = nullptr;
    if (pc::rtl_build(&sched, op, cfg_.pes, words, fast) == PINET_OK) {
      pinet_shuffle_cycle_total(sched, &total);
      begin.resize(pinet_shuffle_schedule_step_count(sched));
      for (uint32_t s = 0; s < begin.size(); s++) pinet_shuffle_cycle_step_start(sched, s, &begin[s]);
      begin.push_back(total);
    }
    pinet_shuffle_schedule_free(sched);
    // The reset aborting the run, a command while busy (half of them valid ones: the same
    // command, or another that would be accepted when idle) and the corrupted host word come
    // at a random cycle or in a phase of the run.
    const uint64_t abort_at = cfg_.disturb && rnd(16) == 0 ? pick_cycle(begin, rng_) : UINT64_MAX;
    uint64_t busy_at = cfg_.disturb && rnd(4) == 0 ? rnd(total + 1) : UINT64_MAX;
    const bool busy_valid = busy_at != UINT64_MAX && begin.size() > 1 && rnd(2) == 0;
    if (busy_valid) busy_at = pick_cycle(begin, rng_);
    uint32_t busy_op = op, busy_words = words, busy_base = base;
    bool busy_fast = fast;
    if (busy_valid && rnd(2) == 0) {
      busy_fast = choose_fast();
      busy_op = rnd(pc::kNumOps);
      busy_words = cfg_.words != 0 ? cfg_.words : choose_words(busy_op, busy_fast);
      if (words_ok(busy_op, busy_words, busy_fast)) {
        busy_base = rnd(cfg_.mem_words - busy_words + 1);
      } else {
        busy_op = op, busy_words = words, busy_fast = fast;
      }
    }
    const uint64_t fault_at = cfg_.link_fault && rnd(16) == 0 ? pick_cycle(begin, rng_) : UINT64_MAX;
    const uint64_t router_fault_at =
        kLinkHook && cfg_.link_fault && link_rnd(16) == 0 ? pick_cycle(begin, link_rng_) : UINT64_MAX;

    in_.start = true;
    in_.fast = fast;
    in_.op = op;
    in_.words = words;
    in_.base = base;
    if (std::getenv("PS_COSIM_DEBUG"))
      std::fprintf(stderr,
                   "cycle %" PRIu64 ": start %s%s M %u base %u (T %" PRIu64 ", abort at %" PRIu64
                   ", busy command at %" PRIu64 ")\n",
                   cycle_, pc::op_name(op), fast ? " (fast)" : "", words, base, total, abort_at,
                   busy_at);
    start_cycle_ = cycle_;
    run_op_ = op;
    measuring_ = true;
    if (!step()) return;
    bool aborted = false;
    // (Without the checker the DUT's done_o ends the run; in cycle 0 it shows the new run's 0.)
    for (uint64_t t = 0; !stop() && (cfg_.compare ? chk_.running() : (t == 0 || !out_.done)); t++) {
      noise();
      if (t == busy_at && busy_valid) {  // a valid command while busy: refused all the same
        in_.start = true;
        in_.fast = busy_fast;
        in_.op = busy_op;
        in_.words = busy_words;
        in_.base = busy_base;
      } else if (t == busy_at) {  // a command while busy: refused, the run goes on
        in_.start = true;
        in_.op = rnd(16);
        in_.words = rnd32();
        in_.base = rnd32();
      }
      if (t == fault_at) fault_pending_ = true;  // the next cycle without a host word
      if (t == router_fault_at) router_fault_pending_ = true;
      if (t == abort_at) {
        in_.rst_n = false;
        std::fill(in_.lcl_we.begin(), in_.lcl_we.end(), 0);
        aborted = true;
        measuring_ = false;
      }
      step();
      if (aborted) break;
    }
    fault_pending_ = router_fault_pending_ = false;
    if (stop()) return;
    // One run in eight (of a run not cut short, not counted by --runs) the next command comes
    // in the done cycle, back to back: no read-back in between.
    if (!aborted && cfg_.runs == 0 && rnd(8) == 0) {
      chained_ = true;
      return;
    }
    // Read the image back with two guard words on each side, or (one run in eight) everything.
    uint32_t lo = base >= 2 ? base - 2 : 0;
    uint32_t hi = std::min(cfg_.mem_words, base + words + 2);
    if (rnd(8) == 0) {
      lo = 0;
      hi = cfg_.mem_words;
    }
    for (uint32_t a = lo; a < hi && !stop(); a++) read_word(a);
    if (!aborted && !stop()) completed_++;  // (--runs counts runs read back in full)
  }

  void report() const {
    std::printf("cosim %s: N %u MemWords %u: %" PRIu64 " cycles in %.2f s (%.0f cycles/s, %s)\n",
                opt_.block().c_str(), cfg_.pes, cfg_.mem_words, cycle_, secs_,
                secs_ > 0 ? (double)cycle_ / secs_ : 0.0,
                cfg_.compare ? "every output compared every cycle" : "no comparison");
    if (cfg_.compare) {
      std::printf("cosim %s: collectives completed:", opt_.block().c_str());
      for (uint32_t op = 0; op < pc::kNumOps; op++)
        std::printf(" %s %" PRIu64, pc::op_name(op), chk_.stats(op).runs);
      std::printf("; refused commands %" PRIu64 " (while busy %" PRIu64
                  "), aborted by reset %" PRIu64 ", corrupted host-link words %" PRIu64 ", words moved %" PRIu64
                  ", memory words read back %" PRIu64 ", corrupted router-link words %" PRIu64 "%s\n",
                  chk_.refused(), chk_.busy_refused(), chk_.aborted(), chk_.link_faults(), chk_.words_moved(),
                  chk_.mem_reads(), chk_.router_link_faults(),
                  kLinkHook ? "" : " (the RTL has no link-fault hook: PINET_LINK_FAULT_HOOK)");
      if (cfg_.fast != 0)
        std::printf("cosim %s: runs of a fast schedule (cmd_fast_i = 1; ps_cosim.h rtl_runs_fast) "
                    "%" PRIu64 "\n",
                    opt_.block().c_str(), chk_.fast_runs());
    }
    for (uint32_t op = 0; op < pc::kNumOps; op++) {
      if (rtl_cycles_[op] == 0) continue;
      std::printf(
          "bench %s pes %u op %s words %u rtl_cycles %" PRIu64 " cycles %" PRIu64
          " seconds %.3f%s\n",
          opt_.block().c_str(), cfg_.pes, pc::op_name(op),
          cfg_.compare ? chk_.stats(op).last_words : cfg_.words, rtl_cycles_[op], cycle_, secs_,
          cfg_.fast == 1 ? " schedule fast" : cfg_.fast == 2 ? " schedule mixed" : "");
    }
  }

  const Options &opt_;
  RunConfig cfg_;
  Scoreboard sb_;
  pinet::cosim::Sim<Model> sim_;
  pinet::cosim::Progress progress_;
  pc::NetworkChecker chk_;
  pinet_rng rng_;
  pinet_rng link_rng_;
  pc::NetIn in_;
  pc::NetOut out_;
  std::vector<uint32_t> host_img_;
  std::vector<uint32_t> deck_;
  bool host_pending_ = false;
  uint32_t host_pending_addr_ = 0;
  uint64_t cycle_ = 0;
  uint64_t completed_ = 0;
  uint64_t bad_ = 0;
  uint64_t start_cycle_ = 0;
  uint32_t run_op_ = 0;
  bool measuring_ = false;
  bool first_run_ = true;
  bool chained_ = false;        // the next command in the done cycle
  bool fault_pending_ = false;  // drive a stray host word in the next cycle without one
  bool router_fault_pending_ = false;  // corrupt a router link in the next cycle of the run
  uint64_t rtl_cycles_[pc::kNumOps];
  double secs_ = 0;
};

template <class Model>
int run_network(const Options &opt, int argc, char **argv, const RunConfig &cfg) {
  NetworkRun<Model> r(opt, argc, argv, cfg);
  return r.run();
}

}  // namespace

int main(int argc, char **argv) {
  Options opt("ps_network", 100000);
  opt.add_int("pes", 8, "network size N: 2, 4, 8, 16, 32 or 64");
  opt.add_int("op", pc::kOpAll,
              "collective by pinet_shuffle_op value (0 bcast .. 6 upload, 7 ring-exchange), "
              "255 all");
  opt.add_int("fast", 0,
              "cmd_fast_i: 0 the paper's schedules, 1 the fast ones (all but integrate and the "
              "ring exchange), 2 a coin per command");
  opt.add_int("words", 0, "M for every run (0: random multiples of the quantum)");
  opt.add_int("max-words", 0, "cap of the random M (0: MemWords)");
  opt.add_int("runs", 0, "stop after this many collectives (0: run --cycles cycles)");
  opt.add_int("compare", 1, "1: check every output every cycle; 0: drive only (speed baseline)");
  opt.add_int("bad", 1, "1: bad commands between runs; 0: none");
  opt.add_int("disturb", 1, "1: commands while busy, resets (also aborting runs); 0: none");
  opt.add_int("link-fault", 1,
              "1: now and then a corrupted link word: a stray word on the host link or a word dropped "
              "or inserted on a router link during a run (err_o = LINK), or on a router link while "
              "idle; 0: none");
  RunConfig cfg;
  std::string err;
  if (!pc::take_fault_option(&argc, argv, &cfg.fault, &err)) {
    opt.reject(err);
    return opt.exit_code();
  }
  if (!opt.parse(argc, argv)) return opt.exit_code();
  cfg.pes = (uint32_t)opt.get("pes");
  switch (cfg.pes) {
#define MEM_WORDS_CASE(n, words) \
  case n:                          \
    cfg.mem_words = words;         \
    break;
    PS_MODELS(MEM_WORDS_CASE)
#undef MEM_WORDS_CASE
    default:
      opt.invalid("--pes " + std::to_string(opt.get("pes")) +
                  ": this executable has ps_network for N = " PS_MODELS_TEXT " only");
      return opt.exit_code();
  }
  if (opt.get("op") >= pc::kNumOps && opt.get("op") != pc::kOpAll) {
    opt.reject(
        "--op must be 0 .. 7 (bcast, bcast-host, scatter, integrate, allgather, gather, "
        "upload, ring-exchange) or 255");
    return opt.exit_code();
  }
  if (opt.get("compare") > 1 || opt.get("bad") > 1 || opt.get("disturb") > 1 ||
      opt.get("link-fault") > 1) {
    opt.reject("--compare, --bad, --disturb and --link-fault must be 0 or 1");
    return opt.exit_code();
  }
  if (opt.get("fast") > 2) {
    opt.reject("--fast must be 0 (paper), 1 (fast) or 2 (either)");
    return opt.exit_code();
  }
  if (opt.get("words") > cfg.mem_words || opt.get("max-words") > cfg.mem_words) {
    opt.invalid("--words / --max-words above MemWords = " + std::to_string(cfg.mem_words));
    return opt.exit_code();
  }
  cfg.op = (uint32_t)opt.get("op");
  cfg.fast = (uint32_t)opt.get("fast");
  cfg.words = (uint32_t)opt.get("words");
  cfg.max_words = (uint32_t)opt.get("max-words");
  cfg.runs = opt.get("runs");
  cfg.compare = opt.get("compare") == 1;
  cfg.bad = opt.get("bad") == 1;
  cfg.disturb = opt.get("disturb") == 1;
  cfg.link_fault = opt.get("link-fault") == 1;
  if (cfg.words != 0) {  // the fixed M must suit the chosen op (or at least one op)
    bool any = false;
    for (uint32_t op = 0; op < pc::kNumOps; op++) {
      for (uint32_t fast = 0; fast < 2; fast++) {
        uint32_t q = 0;
        pc::rtl_quantum(op, cfg.pes, &q, fast == 1);
        const bool mode = cfg.fast == 2 || cfg.fast == fast;
        if (mode && (cfg.op == pc::kOpAll || cfg.op == op) && q > 0 && cfg.words % q == 0)
          any = true;
      }
    }
    if (!any) {
      opt.invalid("--words " + std::to_string(cfg.words) +
                  " is not a multiple of the quantum (N, or log2 N for broadcasts, or 4 for "
                  "the ring exchange)");
      return opt.exit_code();
    }
  }
  if (!cfg.compare) cfg.bad = cfg.disturb = cfg.link_fault = false;
  switch (cfg.pes) {
#define RUN_CASE(n, words) \
  case n:                    \
    return run_network<Vps_network_n##n>(opt, argc, argv, cfg);
    PS_MODELS(RUN_CASE)
#undef RUN_CASE
    default: return PINET_EXIT_INTERNAL;  // not reached: refused above
  }
}
