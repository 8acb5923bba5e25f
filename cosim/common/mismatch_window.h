// mismatch_window.h - the values around a cosim's first mismatch, for the verification report.
//
// Opt-in: when the environment variable PINET_MISMATCH_JSON names a file, the Scoreboard
// (cosim.h) hands every compared value to a MismatchWindow, which keeps the last kBefore cycles
// before the current one in a ring of per-cycle slots (slots and their names are reused, so a
// cycle costs no allocation once the ring is warm). On the first mismatch the run stops (the
// harnesses stop there), and finish() writes one small JSON document: the failing signal and up
// to 2 kNeighbours others compared around it (before it in the failing cycle, after it there or,
// as the harness stopped, in the cycle before), each with its DUT and expected value in every
// kept cycle (null where it was not compared). scripts/verify_report.py
// draws it as a timing diagram. Without the variable, on() is false and a compare costs one
// branch. verify.sh sets the variable only when it re-runs a failing run alone.
//
// Harnesses whose fast path compares a whole port array without the Scoreboard (the RTA fabrics)
// feed the window themselves while on(): record_indexed(cycle, "l_o", i, dut, expected) keeps
// the name as a pointer and an index, made into "l_o[i]" only when the document is written.
//
// The document (values are hex strings: 64-bit values do not fit a JSON number):
//   {"block": "rta_ring", "seed": 7, "cycle": 50, "signal": "l_o[0]",
//    "dut": "0x..", "expected": "0x..", "cycles": [42, ..., 50],
//    "signals": [{"name": "l_o[0]", "failing": true, "dut": ["0x..", ...],
//                 "expected": ["0x..", ...]}, ...]}
#ifndef PINET_COSIM_MISMATCH_WINDOW_H
#define PINET_COSIM_MISMATCH_WINDOW_H

#include <algorithm>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace pinet {
namespace cosim {

// Defined in cosim.h (which includes this header): writes a file through a fresh directory
// beside it, nothing half-written on failure.
inline std::string write_output(const std::string &path,
                                const std::function<std::string(const std::string &)> &write);

class MismatchWindow {
 public:
  static constexpr unsigned kBefore = 8;        // cycles kept before the failing one
  static constexpr size_t kMaxPerCycle = 1u << 16;  // compares kept per cycle (the first ones)
  static constexpr unsigned kNeighbours = 3;    // signals shown on each side of the failing one

  MismatchWindow() {
    const char *p = std::getenv("PINET_MISMATCH_JSON");
    if (p != nullptr && p[0] != '\0') {
      path_ = p;
      slots_.resize(kBefore + 1);
    }
  }

  bool on() const { return !path_.empty(); }
  // Stop recording (the file cannot be written: reported once, by the caller).
  void off() {
    path_.clear();
    slots_.clear();
  }
  const std::string &path() const { return path_; }

  // One compared value, in compare order. `failed_before`: the scoreboard already holds a
  // mismatch (then only the rest of the failing cycle is kept).
  void record(uint64_t cycle, const std::string &signal, uint64_t dut, uint64_t expected,
              bool failed_before) {
    if (!on()) return;
    if ((failed_before || failed_) && cycle != fail_cycle_) return;
    if (failed_ && name_of(slots_[fail_slot_].e[fail_index_]) == signal) return;  // kept already
    const bool failing = !failed_before && !failed_ && dut != expected;
    if (failing) {
      // The same value may have been fed by record_indexed() already: mark that one.
      Slot &s = slot(cycle);
      for (size_t i = 0; i < s.n; i++)
        if (name_of(s.e[i]) == signal) {
          s.e[i].dut = dut;
          s.e[i].expected = expected;
          mark(cycle, i);
          return;
        }
    }
    Entry *e = next(cycle);
    if (e == nullptr) return;
    e->base = nullptr;
    e->name = signal;
    e->dut = dut;
    e->expected = expected;
    if (failing) mark(cycle, slot(cycle).n - 1);
  }

  // One element `index` of the port array `base` (a string literal or other lasting name).
  void record_indexed(uint64_t cycle, const char *base, uint32_t index, uint64_t dut,
                      uint64_t expected) {
    if (!on() || (failed_ && cycle != fail_cycle_)) return;
    Entry *e = next(cycle);
    if (e == nullptr) return;
    e->base = base;
    e->index = index;
    e->dut = dut;
    e->expected = expected;
  }

  // Write the document (after a mismatch). Returns "" or why it could not be written.
  std::string write(const std::string &block, uint64_t seed) const {
    if (!on() || !failed_) return "";
    // The kept cycles, oldest first.
    std::vector<const Slot *> cycles;
    for (unsigned k = 1; k <= kBefore + 1; k++) {
      const Slot &s = slots_[(cur_ + k) % slots_.size()];
      if (s.used) cycles.push_back(&s);
    }
    const Slot &fs = slots_[fail_slot_];
    const Entry &fe = fs.e[fail_index_];
    // The signals: the failing one and its neighbours in compare order, distinct names: up to
    // kNeighbours compared before it in its cycle, then those after it (the harness stopped at
    // the mismatch: after it in the cycle before).
    std::vector<std::string> names;
    names.push_back(name_of(fe));
    auto add = [&names](const Entry &e) {
      if (names.size() > 2 * kNeighbours) return;
      const std::string n = name_of(e);
      for (const std::string &m : names)
        if (m == n) return;
      names.push_back(n);
    };
    for (size_t i = fail_index_ >= kNeighbours ? fail_index_ - kNeighbours : 0; i < fail_index_; i++)
      add(fs.e[i]);
    for (size_t i = fail_index_ + 1; i < std::min(fs.n, fail_index_ + kNeighbours + 1); i++) add(fs.e[i]);
    const Slot &ps = slots_[(fail_slot_ + slots_.size() - 1) % slots_.size()];
    if (ps.used && ps.cycle != fs.cycle) {
      size_t from = 0;
      for (size_t i = 0; i < ps.n; i++)
        if (name_of(ps.e[i]) == names[0]) {
          from = i + 1;
          break;
        }
      for (size_t i = from; i < std::min(ps.n, from + 2 * kNeighbours); i++) add(ps.e[i]);
    }
    std::string j = "{\"block\": " + quote(block) + ", \"seed\": " + std::to_string(seed) +
                    ", \"cycle\": " + std::to_string(fail_cycle_) + ", \"signal\": " +
                    quote(names[0]) + ", \"dut\": \"" + hex(fe.dut) + "\", \"expected\": \"" +
                    hex(fe.expected) + "\",\n \"cycles\": [";
    for (size_t c = 0; c < cycles.size(); c++)
      j += (c ? ", " : "") + std::to_string(cycles[c]->cycle);
    j += "],\n \"signals\": [";
    for (size_t k = 0; k < names.size(); k++) {
      std::string dut = "[", exp = "[";
      for (size_t c = 0; c < cycles.size(); c++) {
        const Entry *e = find(*cycles[c], names[k]);
        const char *sep = c ? ", " : "";
        dut += sep + (e ? "\"" + hex(e->dut) + "\"" : std::string("null"));
        exp += sep + (e ? "\"" + hex(e->expected) + "\"" : std::string("null"));
      }
      j += std::string(k ? ",\n  " : "\n  ") + "{\"name\": " + quote(names[k]) +
           ", \"failing\": " + (k == 0 ? "true" : "false") + ", \"dut\": " + dut +
           "], \"expected\": " + exp + "]}";
    }
    j += "]}\n";
    return write_output(path_, [&j](const std::string &tmp) -> std::string {
      std::FILE *f = std::fopen(tmp.c_str(), "w");
      if (f == nullptr) return "cannot create";
      const bool ok = std::fwrite(j.data(), 1, j.size(), f) == j.size();
      return (std::fclose(f) == 0 && ok) ? "" : "write failed";
    });
  }

 private:
  struct Entry {
    const char *base = nullptr;  // record_indexed: base[index]; else name
    uint32_t index = 0;
    std::string name;
    uint64_t dut = 0, expected = 0;
  };
  struct Slot {
    bool used = false;
    uint64_t cycle = 0;
    size_t n = 0;
    std::vector<Entry> e;
  };

  static std::string name_of(const Entry &e) {
    return e.base ? std::string(e.base) + "[" + std::to_string(e.index) + "]" : e.name;
  }
  static std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%" PRIx64, v);
    return b;
  }
  static std::string quote(const std::string &s) {
    std::string q = "\"";
    for (char ch : s) {
      if (ch == '"' || ch == '\\') q += '\\';
      if ((unsigned char)ch < 0x20) ch = ' ';
      q += ch;
    }
    return q + "\"";
  }
  static const Entry *find(const Slot &s, const std::string &name) {
    for (size_t i = 0; i < s.n; i++)
      if (name_of(s.e[i]) == name) return &s.e[i];
    return nullptr;
  }
  // The slot of `cycle`: the current one, or the next of the ring, emptied.
  Slot &slot(uint64_t cycle) {
    Slot *s = &slots_[cur_];
    if (!s->used || s->cycle != cycle) {
      if (s->used) cur_ = (cur_ + 1) % slots_.size();
      s = &slots_[cur_];
      s->used = true;
      s->cycle = cycle;
      s->n = 0;
    }
    return *s;
  }
  Entry *next(uint64_t cycle) {
    Slot &s = slot(cycle);
    if (s.n >= kMaxPerCycle) return nullptr;
    if (s.n == s.e.size()) s.e.emplace_back();
    return &s.e[s.n++];
  }
  void mark(uint64_t cycle, size_t index) {
    failed_ = true;
    fail_cycle_ = cycle;
    fail_slot_ = cur_;
    fail_index_ = index;
  }

  std::string path_;
  std::vector<Slot> slots_;
  size_t cur_ = 0;
  bool failed_ = false;
  uint64_t fail_cycle_ = 0;
  size_t fail_slot_ = 0, fail_index_ = 0;
};

}  // namespace cosim
}  // namespace pinet

#endif  // PINET_COSIM_MISMATCH_WINDOW_H
