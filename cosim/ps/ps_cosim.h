// ps_cosim.h - what the perfect-shuffle co-simulations share (cosim_ps_network.cpp, the Verilator
// C++ harness, and cosim_ps_system.cpp, the SystemC one), on top of cosim/common/cosim.h:
//
// - NetworkChecker: the reference for rtl/ps_network.sv built on the C model. It takes the
//   network's inputs and outputs of one cycle, compares every output against what the C model
//   says (pinet_shuffle_cycle_* while a collective runs: every channel's valid and data, the host
//   request and address; the status; the local read port against a shadow of every PE memory),
//   then advances over the clock edge (model clock, memory writes, commands). The shadow
//   memories take the C model's memories at the end of every run, so the local port reads check
//   every memory word the run was meant to leave. Expected error codes come from the C model's
//   own validation (rtl_quantum / rtl_build below) plus the RTL's memory rule.
//   It also records the functional coverage of the network (fcov.h, bins named in
//   docs/testplans/ps_network.json and docs/verification.md "Functional coverage"): op x
//   schedule x N, memory-size class x base, refusal kind x op, a valid command in each phase of
//   a running collective, back-to-back commands, resets mid-run, every err_o code, link faults.
// - Port access for any Verilated width: cosim/common/wide_port.h (through cosim.h).
// - The hidden --inject-fault CYCLE option (removed from argv before Options::parse, so --help
//   does not list it): the checker flips bit 0 of the first expected value it compares in that
//   cycle (busy_o), which must give a FAIL line (cosim/ps/check_fault_injection.sh).
#ifndef PINET_COSIM_PS_COSIM_H
#define PINET_COSIM_PS_COSIM_H

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cosim.h"
#include "pinet/shuffle.h"
#include "pinet/status.h"

namespace pinet {
namespace cosim {
namespace ps {

// The hidden --inject-fault option: cosim/common/cosim.h.
using pinet::cosim::kNoFault;
using pinet::cosim::take_fault_option;

// err_o codes: rtl/ps_pkg.sv ps_err_e (pinned there).
enum PsErr : uint32_t {
  kErrOk = 0,
  kErrBadOp = 1,
  kErrWords = 2,
  kErrMemory = 3,
  kErrQuantum = 4,
  kErrBusy = 5,
  kErrLink = 6,
};
constexpr uint32_t kNumOps = 8;   // bcast .. ring-exchange: what the RTL runs
constexpr uint32_t kOpAll = 255;  // --op default: every collective

inline const char *err_name(uint32_t e) {
  static const char *const names[] = {"ok", "bad_op", "words_0", "memory", "quantum", "busy", "link"};
  return e <= kErrLink ? names[e] : "unknown";
}

inline const char *op_name(uint32_t op) {
  const char *s =
      op < PINET_SHUFFLE_OP_COUNT ? pinet_shuffle_op_name((pinet_shuffle_op)op) : nullptr;
  return s ? s : "bad-op";
}

// What ps_router runs for cmd_fast_i = 1: pinet_shuffle_build_fast_typed's for int32 (the RTL's
// adder): the broadcasts, scatter, upload, gather, allgather and integrate around the ring; the
// ring exchange has one schedule.
inline bool rtl_runs_fast(uint32_t op, bool fast) {
  return fast && op != PINET_SHUFFLE_OP_RING_EXCHANGE;
}

// The RTL's op set in C-model terms: the built-in collectives (pinet_shuffle_words_quantum,
// pinet_shuffle_build; with `fast`, rtl_runs_fast: pinet_shuffle_fast_words_quantum,
// pinet_shuffle_build_fast_typed for int32) and the ring exchange along the built-in ring
// (quantum 4, pinet_shuffle_build_ring_exchange_default); custom and unknown ops give
// PINET_ERR_RANGE.
inline pinet_status rtl_quantum(uint32_t op, uint32_t pes, uint32_t *quantum, bool fast = false) {
  if (op == PINET_SHUFFLE_OP_RING_EXCHANGE) {
    uint32_t n = 0;
    pinet_status st = pinet_shuffle_log2(pes, &n);
    *quantum = st == PINET_OK ? 4 : 0;
    return st;
  }
  if (op > 15) return PINET_ERR_RANGE;
  if (rtl_runs_fast(op, fast))
    return pinet_shuffle_fast_words_quantum((pinet_shuffle_op)op, pes, quantum);
  return pinet_shuffle_words_quantum((pinet_shuffle_op)op, pes, quantum);
}

inline pinet_status rtl_build(pinet_shuffle_schedule **sched, uint32_t op, uint32_t pes,
                              uint32_t words, bool fast = false) {
  if (op == PINET_SHUFFLE_OP_RING_EXCHANGE)
    return pinet_shuffle_build_ring_exchange_default(sched, pes, words);
  if (op > 15) return PINET_ERR_RANGE;
  if (rtl_runs_fast(op, fast))
    return pinet_shuffle_build_fast_typed(sched, (pinet_shuffle_op)op, pes, words,
                                          PINET_SHUFFLE_I32);
  return pinet_shuffle_build(sched, (pinet_shuffle_op)op, pes, words);
}

// The err_o a command must give. The op and quantum checks are the C model's (rtl_quantum:
// PINET_ERR_RANGE for custom and unknown ops; rtl_build: PINET_ERR_MISMATCH for M not a multiple
// of the quantum); M = 0 and the image not fitting the memory (base + M > MemWords) are checked
// here, in the RTL's order. Returns UINT32_MAX if the C model answers something unexpected.
inline uint32_t expected_error(uint32_t op, uint32_t words, uint32_t base, uint32_t pes,
                               uint32_t mem_words, bool fast) {
  uint32_t quantum = 0;
  pinet_status st = rtl_quantum(op, pes, &quantum, fast);
  if (st == PINET_ERR_RANGE) return kErrBadOp;
  if (st != PINET_OK) return UINT32_MAX;
  if (words == 0) return kErrWords;
  if ((uint64_t)base + words > mem_words) return kErrMemory;
  pinet_shuffle_schedule *sched = nullptr;
  st = rtl_build(&sched, op, pes, words, fast);
  pinet_shuffle_schedule_free(sched);
  if (st == PINET_ERR_MISMATCH) return kErrQuantum;
  return st == PINET_OK ? kErrOk : UINT32_MAX;
}

// Verilated port access (get_bit, set_bit, get_word, set_word, clear_bits): cosim/common/wide_port.h.

// The link-fault hook (rtl/ps_network.sv, PINET_LINK_FAULT_HOOK): the model's public variable
// link_fault, or nullptr when the RTL has none (a verify.sh --rtl copy without the hook).
template <class R>
inline auto link_fault_var(R *root, int) -> decltype(&root->ps_network__DOT__link_fault) {
  return &root->ps_network__DOT__link_fault;
}
template <class R>
inline std::nullptr_t link_fault_var(R *, long) {
  return nullptr;
}
template <class M>
constexpr bool has_link_fault_hook() {
  return !std::is_same<decltype(link_fault_var(std::declval<M &>().rootp, 0)), std::nullptr_t>::value;
}
// Invert channel c's valid on its wire in this cycle (c < 0: no channel), if the RTL has the hook.
template <class M>
inline void drive_link_fault(M &m, int32_t c) {
  if constexpr (has_link_fault_hook<M>()) {
    auto *v = link_fault_var(m.rootp, 0);
    clear_bits(*v);
    if (c >= 0) set_bit(*v, (unsigned)c, true);
  } else {
    (void)m;
    (void)c;
  }
}

// ---- one cycle of the network ------------------------------------------------------------

// The inputs of ps_network in one cycle.
struct NetIn {
  bool rst_n = true;
  bool start = false;
  bool fast = false;  // cmd_fast_i
  uint32_t op = 0, words = 0, base = 0;
  std::vector<uint8_t> lcl_we;  // N
  uint32_t lcl_addr = 0;
  std::vector<uint32_t> lcl_wdata;  // N
  bool host_valid = false;
  uint32_t host_data = 0;
  // A corrupted host-link word: the host drives host_valid_i in a cycle of a run where the
  // schedule has no host word. Router 0's link check must answer err_o = LINK (sticky until the
  // next accepted command; the run goes on, the word is written nowhere).
  bool host_fault = false;
  // A corrupted word on a router's link (the RTL's link-fault hook, drive_link_fault): channel
  // link_fault (< 4N) shows its valid bit inverted on its wire, or -1 for none. During a run its
  // receiving router's link check must answer err_o = LINK (the run goes on; a dropped word's
  // data is still written, by the schedule); while idle nothing else changes.
  int32_t link_fault = -1;
};

// Its outputs.
struct NetOut {
  bool busy = false, done = false;
  uint32_t err = 0;
  std::vector<uint8_t> ch_valid;  // 4N + 2
  std::vector<uint32_t> ch_data;  // 4N + 2
  bool host_req = false;
  uint32_t host_req_addr = 0;
  uint32_t host_addr = 0;           // address of the word on channel 4N + 1
  std::vector<uint32_t> lcl_rdata;  // N
};

// Read every output of a Verilated ps_network (Width = 32) into `o`.
template <class M>
inline void read_outputs(const M &m, uint32_t pes, NetOut *o) {
  const uint32_t nch = 4 * pes + 2;
  o->busy = m.busy_o;
  o->done = m.done_o;
  o->err = m.err_o;
  o->ch_valid.resize(nch);
  o->ch_data.resize(nch);
  for (uint32_t c = 0; c < nch; c++) {
    o->ch_valid[c] = get_bit(m.ch_valid_o, c);
    o->ch_data[c] = get_word(m.ch_data_o, c);
  }
  o->host_req = m.host_req_o;
  o->host_req_addr = m.host_req_addr_o;
  o->host_addr = m.host_addr_o;
  o->lcl_rdata.resize(pes);
  for (uint32_t j = 0; j < pes; j++) o->lcl_rdata[j] = get_word(m.lcl_rdata_o, j);
}

// Drive every input of a Verilated ps_network from `in` (not the clock).
template <class M>
inline void drive_inputs(M &m, uint32_t pes, const NetIn &in) {
  m.rst_ni = in.rst_n;
  m.cmd_start_i = in.start;
  m.cmd_op_i = in.op;
  m.cmd_fast_i = in.fast;
  m.cmd_words_i = in.words;
  m.cmd_base_i = in.base;
  for (uint32_t j = 0; j < pes; j++) {
    set_bit(m.lcl_we_i, j, in.lcl_we[j] != 0);
    set_word(m.lcl_wdata_i, j, in.lcl_wdata[j]);
  }
  m.lcl_addr_i = in.lcl_addr;
  m.host_valid_i = in.host_valid;
  m.host_data_i = in.host_data;
  drive_link_fault(m, in.link_fault);
}

// Per-op statistics of completed runs.
struct OpStats {
  uint64_t runs = 0;
  uint64_t cycles = 0;       // sum of T
  uint64_t words = 0;        // sum of M
  uint64_t last_cycles = 0;  // T of the last run
  uint32_t last_words = 0;
};

class NetworkChecker {
 public:
  NetworkChecker(Scoreboard &sb, uint32_t pes, uint32_t mem_words, uint64_t fault_cycle)
      : sb_(sb), pes_(pes), mem_words_(mem_words), fault_(fault_cycle), nch_(4 * pes + 2),
        shadow_((size_t)pes * mem_words, 0), known_((size_t)pes * mem_words, 0), exp_valid_(nch_),
        exp_data_(nch_) {
    plan_coverage();
  }
  ~NetworkChecker() { drop_model(); }
  NetworkChecker(const NetworkChecker &) = delete;
  NetworkChecker &operator=(const NetworkChecker &) = delete;

  // Where the host's image (M words) comes from when a collective that uses the host link is
  // accepted (the host is the harness: what the model cannot predict). Without it the host
  // image is all zero; shorter than M words is a harness failure ("harness:host_image_words").
  void set_host_image(std::function<const std::vector<uint32_t> *()> f) {
    host_image_ = std::move(f);
  }

  // Compare the outputs of cycle `cycle` (inputs `in`), then take the closing clock edge.
  // Returns false at the first mismatch (recorded in the scoreboard).
  bool cycle(uint64_t cycle, const NetIn &in, const NetOut &out) {
    cycle_ = cycle;
    first_ = true;
    if (!in.rst_n && running()) {  // asynchronous reset: the run stops, the memories keep the
      take_model_memories(false);  // words written up to the last edge
      drop_model();
      aborted_++;
      if (cov_) cover("reset_mid_run_" + phase_name(t_));
    } else if (!in.rst_n && cov_) {
      cover("reset_idle");
    }
    if (!compare(in, out)) return false;
    return advance(in, out);
  }

  bool running() const { return sim_ != nullptr; }
  bool done() const { return done_; }
  uint32_t err() const { return err_; }
  uint64_t run_cycle() const { return t_; }  // cycle of the running collective
  uint32_t shadow(uint32_t pe, uint32_t addr) const {
    return shadow_[(size_t)pe * mem_words_ + addr];
  }
  bool known(uint32_t pe, uint32_t addr) const {
    return known_[(size_t)pe * mem_words_ + addr] != 0;
  }
  const OpStats &stats(uint32_t op) const { return stats_[op]; }
  uint64_t fast_runs() const { return fast_runs_; }  // completed runs of a fast schedule
  uint64_t refused() const { return refused_; }
  uint64_t busy_refused() const { return busy_refused_; }
  uint64_t aborted() const { return aborted_; }
  uint64_t link_faults() const { return link_faults_; }
  uint64_t router_link_faults() const { return router_link_faults_; }
  // Whether the running collective's schedule puts a word on channel c in this cycle.
  bool scheduled(uint32_t c) const {
    pinet_shuffle_word w{};
    return running() && pinet_shuffle_cycle_word(sched_, t_, c, &w) == PINET_OK && w.valid != 0;
  }
  uint64_t mem_reads() const { return mem_reads_; }
  uint64_t words_moved() const { return words_moved_; }

 private:
  // Compare one value; the first comparison of the fault cycle sees its expected bit 0 flipped.
  bool chk(const char *name, uint64_t dut, uint64_t exp) {
    if (first_) {
      first_ = false;
      if (cycle_ == fault_) exp ^= 1u;
    }
    return sb_.check(cycle_, name, dut, exp);
  }
  bool chk(const std::string &name, uint64_t dut, uint64_t exp) {
    return chk(name.c_str(), dut, exp);
  }

  std::string ch_name(uint32_t c, const char *field) const {
    int32_t src = 0, dst = 0;
    pinet_shuffle_channel_ends(pes_, c, &src, &dst);
    auto end = [](int32_t pe) { return pe < 0 ? std::string("host") : std::to_string(pe); };
    return "ch[" + std::to_string(c) + "]:" + end(src) + "->" + end(dst) + "." + field;
  }

  bool compare(const NetIn &in, const NetOut &out) {
    const bool run = running();
    if (!chk("busy_o", out.busy, run)) return false;
    if (!chk("done_o", out.done, in.rst_n && done_)) return false;
    if (!chk("err_o", out.err, in.rst_n ? err_ : kErrOk)) return false;
    // Channels: the model's while running, else idle (the host link passes the host's input).
    if (run) {
      if (!model_ok("pinet_shuffle_cycle_channels",
                    pinet_shuffle_cycle_channels(sim_, exp_valid_.data(), exp_data_.data())))
        return false;
    } else {
      std::fill(exp_valid_.begin(), exp_valid_.end(), 0);
      std::fill(exp_data_.begin(), exp_data_.end(), 0);
      exp_valid_[4 * pes_] = in.host_valid;
      exp_data_[4 * pes_] = in.host_data;
    }
    if (run && in.host_fault) {  // the corrupted word passes through on the host link
      exp_valid_[4 * pes_] = 1;
      exp_data_[4 * pes_] = in.host_data;
    }
    if (in.link_fault >= 0) exp_valid_[in.link_fault] ^= 1;  // the wire shows the inverted valid
    for (uint32_t c = 0; c < nch_; c++) {
      if (out.ch_valid[c] != exp_valid_[c])
        if (!chk(ch_name(c, "valid"), out.ch_valid[c], exp_valid_[c])) return false;
      if (out.ch_data[c] != exp_data_[c])
        if (!chk(ch_name(c, "data"), out.ch_data[c], exp_data_[c])) return false;
    }
    // Host request for the next cycle's word, and the address of the word going up.
    pinet_shuffle_word next{}, up{};
    if (run) {
      if (!model_ok("pinet_shuffle_cycle_word",
                    pinet_shuffle_cycle_word(sched_, t_ + 1, 4 * pes_, &next)) ||
          !model_ok("pinet_shuffle_cycle_word",
                    pinet_shuffle_cycle_word(sched_, t_, 4 * pes_ + 1, &up)))
        return false;
    }
    if (!chk("host_req_o", out.host_req, next.valid != 0) ||
        !chk("host_req_addr_o", out.host_req_addr, next.valid ? next.src_addr : 0) ||
        !chk("host_addr_o", out.host_addr, up.valid ? up.dst_addr : 0))
      return false;
    // Local reads of every PE memory (not meaningful while busy).
    if (!run && in.lcl_addr < mem_words_) {
      for (uint32_t j = 0; j < pes_; j++) {
        if (!known(j, in.lcl_addr)) continue;
        const uint32_t e = shadow(j, in.lcl_addr);
        if (out.lcl_rdata[j] != e &&
            !chk("pe[" + std::to_string(j) + "].mem[" + std::to_string(in.lcl_addr) + "]",
                 out.lcl_rdata[j], e))
          return false;
        mem_reads_++;
      }
    }
    return true;
  }

  bool advance(const NetIn &in, const NetOut &out) {
    if (!in.rst_n) {
      done_ = false;
      err_ = kErrOk;
      local_writes(in);
      return true;
    }
    if (running()) {
      if (exp_valid_[4 * pes_ + 1]) host_seen_[out.host_addr] = exp_data_[4 * pes_ + 1];
      for (uint32_t c = 0; c < nch_; c++) words_moved_ += exp_valid_[c];
      if (in.host_fault) {
        err_ = kErrLink;
        link_faults_++;
        if (cov_) {
          cover("link_fault_host_" + phase_name(t_));
          cover("err_link");
        }
      }
      if (in.link_fault >= 0) {
        err_ = kErrLink;
        router_link_faults_++;
        if (cov_) cover_router_link_fault(in.link_fault, out.ch_valid[in.link_fault] != 0);
      }
      if (in.start) {
        err_ = kErrBusy;
        busy_refused_++;
        if (cov_) cover_busy_command(in);
      }
      if (!model_ok("pinet_shuffle_cycle_clock", pinet_shuffle_cycle_clock(sim_))) return false;
      t_++;
      if (pinet_shuffle_cycle_done(sim_)) {
        done_ = true;
        done_cycle_ = cycle_ + 1;
        take_model_memories(true);
        if (!check_host_image()) return false;
        OpStats &s = stats_[op_];
        s.runs++;
        s.cycles += t_;
        s.words += words_;
        s.last_cycles = t_;
        s.last_words = words_;
        if (rtl_runs_fast(op_, fast_)) fast_runs_++;
        if (cov_ && err_ == kErrLink) cover("link_err_kept_to_done");
        drop_model();
      }
      return true;
    }
    if (in.link_fault >= 0 && cov_) cover("link_fault_idle");
    local_writes(in);
    if (in.start) {
      const uint32_t e = expected_error(in.op, in.words, in.base, pes_, mem_words_, in.fast);
      if (e == UINT32_MAX) {
        sb_.fail(cycle_, "cmodel:expected_error");
        return false;
      }
      if (cov_) cover_idle_command(in, e);
      err_ = e;
      done_ = false;
      if (e != kErrOk) {
        refused_++;
        return true;
      }
      return start_model(in);
    }
    return true;
  }

  void local_writes(const NetIn &in) {
    if (in.lcl_addr >= mem_words_) return;
    for (uint32_t j = 0; j < pes_; j++) {
      if (!in.lcl_we[j]) continue;
      const size_t k = (size_t)j * mem_words_ + in.lcl_addr;
      shadow_[k] = in.lcl_wdata[j];
      known_[k] = 1;
    }
  }

  bool start_model(const NetIn &in) {
    op_ = in.op;
    fast_ = in.fast;
    words_ = in.words;
    base_ = in.base;
    if (!model_ok("pinet_shuffle_build", rtl_build(&sched_, op_, pes_, words_, fast_)))
      return false;
    std::vector<const uint32_t *> init(pes_);
    for (uint32_t j = 0; j < pes_; j++) init[j] = &shadow_[(size_t)j * mem_words_ + base_];
    const uint32_t *host = nullptr;
    const uint32_t host_words = pinet_shuffle_schedule_host_words(sched_);
    if (host_words > 0 && host_image_) {
      const std::vector<uint32_t> *image = host_image_();
      if (!sb_.check(cycle_, "harness:host_image_words", image->size() >= host_words, 1))
        return false;
      host = image->data();
    }
    if (!model_ok("pinet_shuffle_cycle_create",
                  pinet_shuffle_cycle_create(&sim_, sched_, init.data(), host)))
      return false;
    t_ = 0;
    host_seen_.assign(words_, 0);
    if (cov_) {
      const uint32_t steps = pinet_shuffle_schedule_step_count(sched_);
      step_begin_.assign(steps + 1, 0);
      for (uint32_t s = 0; s < steps; s++)
        if (!model_ok("pinet_shuffle_cycle_step_start",
                      pinet_shuffle_cycle_step_start(sched_, s, &step_begin_[s])))
          return false;
      if (!model_ok("pinet_shuffle_cycle_total", pinet_shuffle_cycle_total(sched_, &step_begin_[steps])))
        return false;
    }
    return true;
  }

  // ---- functional coverage (fcov.h) -------------------------------------------------------
  // Bin names: docs/verification.md "Functional coverage"; the plan: docs/testplans/ps_network.json.
  static const char *const *phases() {
    static const char *const p[] = {"setup_first", "setup", "mid_step", "last_word", "last_word_final"};
    return p;
  }
  static constexpr unsigned kPhases = 5;
  static const char *const *size_classes() {
    static const char *const c[] = {"quantum", "small", "large", "full"};
    return c;
  }
  static const char *const *base_classes() {
    static const char *const c[] = {"zero", "mid", "top"};
    return c;
  }
  std::string op_bin(uint32_t op) const { return bin_name(op_name(op)); }

  void cover(const std::string &bin) { fcov().hit(bin); }
  void cover(const char *bin) { fcov().hit(bin); }

  void plan_coverage() {
    Fcov &f = fcov();
    if (!cov_) return;
    for (uint32_t op = 0; op < kNumOps; op++) {
      const std::string o = op_bin(op);
      for (const char *sched : {"paper", "fast"})
        f.plan("op_" + o + "_" + sched + "_n" + std::to_string(pes_));
      for (const char *kind : {"words_0", "memory", "quantum", "busy"})
        f.plan(std::string("refuse_") + kind + "_" + o);
    }
    f.plan("refuse_bad_op_custom");
    f.plan("refuse_bad_op_undefined");
    for (unsigned s = 0; s < 3; s++)
      for (unsigned b = 0; b < 3; b++)
        f.plan(std::string("mem_") + size_classes()[s] + "_" + base_classes()[b]);
    f.plan("mem_full_zero");
    for (unsigned p = 0; p < kPhases; p++) {
      f.plan(std::string("cmd_valid_in_") + phases()[p]);
      f.plan(std::string("reset_mid_run_") + phases()[p]);
      f.plan(std::string("link_fault_host_") + phases()[p]);
      for (const char *dir : {"fwd", "bwd"}) f.plan(std::string("link_fault_") + dir + "_" + phases()[p]);
    }
    for (const char *b : {"link_fault_drop", "link_fault_insert", "link_fault_to_pe0",
                          "link_fault_to_other_pe", "link_fault_idle"})
      f.plan(b);
    for (const char *b : {"cmd_invalid_while_busy", "cmd_back_to_back", "cmd_refused_in_done_cycle",
                          "reset_idle", "link_err_cleared_by_command", "link_err_kept_to_done",
                          "sched_paper_then_fast", "sched_fast_then_paper"})
      f.plan(b);
    for (uint32_t e = 0; e <= kErrLink; e++) f.plan(std::string("err_") + err_name(e));
  }

  // The phase of run cycle t of the running collective: the setup cycle of the first step or of
  // a later one, a transfer cycle inside a step, the last transfer cycle of a step, or that of
  // the last step.
  std::string phase_name(uint64_t t) const {
    const size_t steps = step_begin_.empty() ? 0 : step_begin_.size() - 1;
    for (size_t s = 0; s < steps; s++) {
      if (t < step_begin_[s] || t >= step_begin_[s + 1]) continue;
      if (t == step_begin_[s]) return s == 0 ? phases()[0] : phases()[1];
      if (t + 1 < step_begin_[s + 1]) return phases()[2];
      return s + 1 == steps ? phases()[4] : phases()[3];
    }
    return "unknown";
  }

  // A corrupted word on router link c during a run: forward or backward link x phase, a word
  // dropped or one inserted (the wire's valid now), the receiving router PE 0 (whose own err_o is
  // the network's) or another (whose LINK reaches err_o only through the network's OR).
  void cover_router_link_fault(int32_t c, bool inserted) {
    cover(std::string("link_fault_") + ((uint32_t)c < 2 * pes_ ? "fwd_" : "bwd_") + phase_name(t_));
    cover(inserted ? "link_fault_insert" : "link_fault_drop");
    int32_t src = 0, dst = 0;
    pinet_shuffle_channel_ends(pes_, (uint32_t)c, &src, &dst);
    cover(dst == 0 ? "link_fault_to_pe0" : "link_fault_to_other_pe");
    cover("err_link");
  }

  // A command while a collective runs (refused: busy): valid (one that would be accepted when
  // idle) in which phase, or not.
  void cover_busy_command(const NetIn &in) {
    cover("refuse_busy_" + op_bin(op_));
    cover("err_busy");
    if (expected_error(in.op, in.words, in.base, pes_, mem_words_, in.fast) == kErrOk)
      cover("cmd_valid_in_" + phase_name(t_));
    else
      cover("cmd_invalid_while_busy");
  }

  // A command while idle: accepted (op x schedule x N, memory class x base, back to back,
  // schedule changes, a LINK status cleared) or refused (kind x op).
  void cover_idle_command(const NetIn &in, uint32_t e) {
    const bool in_done_cycle = done_ && cycle_ == done_cycle_;
    cover(std::string("err_") + err_name(e));
    if (e != kErrOk) {
      if (in_done_cycle) cover("cmd_refused_in_done_cycle");
      if (e == kErrBadOp)
        cover(in.op == (uint32_t)PINET_SHUFFLE_OP_CUSTOM ? "refuse_bad_op_custom" : "refuse_bad_op_undefined");
      else
        cover(std::string("refuse_") + err_name(e) + "_" + op_bin(in.op));
      return;
    }
    const bool fast = rtl_runs_fast(in.op, in.fast);
    cover("op_" + op_bin(in.op) + (fast ? "_fast" : "_paper") + "_n" + std::to_string(pes_));
    if (accepted_any_ && fast != last_fast_) cover(fast ? "sched_paper_then_fast" : "sched_fast_then_paper");
    accepted_any_ = true;
    last_fast_ = fast;
    if (in_done_cycle) cover("cmd_back_to_back");
    if (err_ == kErrLink) cover("link_err_cleared_by_command");
    uint32_t q = 0;
    rtl_quantum(in.op, pes_, &q, in.fast);
    const unsigned size = in.words == mem_words_ ? 3 : in.words == q ? 0 : in.words <= 8 * q ? 1 : 2;
    const unsigned base = in.base == 0 ? 0 : in.base + in.words == mem_words_ ? 2 : 1;
    if (size == 3)
      cover("mem_full_zero");
    else
      cover(std::string("mem_") + size_classes()[size] + "_" + base_classes()[base]);
  }

  // The image of every PE memory is the model's now. A word is known (the RTL's value is
  // predictable) if it was before the run or a transfer copied into it: the model started the
  // unknown words at 0, the RTL at their power-up value (--power-up random), so a word added to
  // while unknown stays unknown. (A copied word is known: the link checks compared it on its
  // way.) After a run cut short by a reset (completed false) no word becomes known: which of its
  // transfers had written is not tracked.
  void take_model_memories(bool completed) {
    const uint32_t steps = completed ? pinet_shuffle_schedule_step_count(sched_) : 0;
    for (uint32_t j = 0; j < pes_; j++) {
      const uint32_t *m = pinet_shuffle_cycle_mem(sim_, (int32_t)j);
      std::memcpy(&shadow_[(size_t)j * mem_words_ + base_], m, (size_t)words_ * sizeof(uint32_t));
    }
    for (uint32_t s = 0; s < steps; s++) {
      const pinet_shuffle_transfer *t = nullptr;
      size_t n = 0;
      if (pinet_shuffle_schedule_step(sched_, s, &t, &n) != PINET_OK) continue;
      for (size_t i = 0; i < n; i++) {
        if (t[i].dst < 0 || t[i].combine != PINET_SHUFFLE_COPY || t[i].dst_offset >= words_) continue;
        const uint32_t len = std::min(t[i].words, words_ - t[i].dst_offset);
        std::memset(&known_[(size_t)t[i].dst * mem_words_ + base_ + t[i].dst_offset], 1, len);
      }
    }
  }

  // After an upload, the words that went up (by their address) are the model's host memory.
  bool check_host_image() {
    if (op_ != PINET_SHUFFLE_OP_UPLOAD) return true;
    const uint32_t *h = pinet_shuffle_cycle_mem(sim_, -1);
    for (uint32_t a = 0; a < words_; a++)
      if (host_seen_[a] != h[a] && !chk("host.mem[" + std::to_string(a) + "]", host_seen_[a], h[a]))
        return false;
    return true;
  }

  bool model_ok(const char *what, pinet_status st) {
    if (st == PINET_OK) return true;
    return sb_.check(cycle_, std::string("cmodel:") + what, (uint64_t)st, 0);
  }

  void drop_model() {
    pinet_shuffle_cycle_free(sim_);
    sim_ = nullptr;
    pinet_shuffle_schedule_free(sched_);
    sched_ = nullptr;
  }

  Scoreboard &sb_;
  uint32_t pes_, mem_words_;
  uint64_t fault_;
  uint32_t nch_;
  std::vector<uint32_t> shadow_;
  std::vector<uint8_t> known_;
  std::vector<uint8_t> exp_valid_;
  std::vector<uint32_t> exp_data_;
  std::vector<uint32_t> host_seen_;
  std::function<const std::vector<uint32_t> *()> host_image_;
  pinet_shuffle_schedule *sched_ = nullptr;
  pinet_shuffle_cycle *sim_ = nullptr;
  uint32_t op_ = 0, words_ = 0, base_ = 0;
  bool fast_ = false;
  uint64_t t_ = 0;
  bool done_ = false;
  uint32_t err_ = kErrOk;
  uint64_t cycle_ = 0;
  bool first_ = true;
  OpStats stats_[kNumOps];
  uint64_t refused_ = 0, busy_refused_ = 0, aborted_ = 0, mem_reads_ = 0, words_moved_ = 0;
  uint64_t fast_runs_ = 0;
  uint64_t link_faults_ = 0, router_link_faults_ = 0;
  // Functional coverage: on when PINET_FCOV_FILE is set.
  bool cov_ = fcov().on();
  std::vector<uint64_t> step_begin_;  // B_0 .. B_{S-1}, T of the running collective
  uint64_t done_cycle_ = UINT64_MAX;  // the cycle done_o rose in
  bool accepted_any_ = false, last_fast_ = false;
};

}  // namespace ps
}  // namespace cosim
}  // namespace pinet

#endif  // PINET_COSIM_PS_COSIM_H
