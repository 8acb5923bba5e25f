// fcov.h - the functional coverage recorder of a cosim harness: named bins with hit counters.
//
// A harness declares the bins it plans up front (plan), so that a bin never hit is still written,
// with 0 hits, and counts events as they happen (hit). At the end of a passing run
// (Scoreboard::finish, cosim.h) the bins go to the file named by $PINET_FCOV_FILE, one line per
// bin, in the format docs/verification.md ("Functional coverage") describes and
// scripts/verify_report.py and scripts/fcov_check.py read:
//   # pinet functional coverage: <block> seed <s>
//   <block> <bin> <hits>
// A bin name is an identifier ([A-Za-z_][A-Za-z0-9_]*; bin_name() makes one of any text).
// verify.sh sets the variable per run (waves/fcov/<run>[_s<seed>].txt). Without it nothing is
// recorded: plan() and hit() return after one test of a flag, so a harness may call them in
// any cycle; build a bin's name only when on() (names are strings).
// A failing run writes no file: its coverage does not count.
#ifndef PINET_COSIM_FCOV_H
#define PINET_COSIM_FCOV_H

#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace pinet {
namespace cosim {

class Fcov {
 public:
  Fcov() {
    const char *p = std::getenv("PINET_FCOV_FILE");
    if (p != nullptr && p[0] != '\0') path_ = p;
  }
  bool on() const { return !path_.empty(); }
  const std::string &path() const { return path_; }

  // Declare a planned bin (0 hits until hit).
  void plan(const std::string &bin) {
    if (on()) bins_.emplace(bin, 0);
  }
  // Count `n` hits of a bin (declared or not: an unplanned bin is written too).
  void hit(const std::string &bin, uint64_t n = 1) {
    if (on()) bins_[bin] += n;
  }
  void hit(const char *bin, uint64_t n = 1) {  // a literal: no string made when off
    if (on()) bins_[bin] += n;
  }
  uint64_t hits(const std::string &bin) const {
    auto it = bins_.find(bin);
    return it == bins_.end() ? 0 : it->second;
  }
  const std::map<std::string, uint64_t> &bins() const { return bins_; }

  // The file's text for `block` (sorted by bin).
  std::string text(const std::string &block, uint64_t seed) const {
    std::string s = "# pinet functional coverage: " + block + " seed " + std::to_string(seed) + "\n";
    for (const auto &kv : bins_) s += block + " " + kv.first + " " + std::to_string(kv.second) + "\n";
    return s;
  }

  // Write the bins to `path` (the caller writes through write_output, so nothing is
  // half-written). Returns "" or the reason.
  std::string write_to(const std::string &path, const std::string &block, uint64_t seed) const {
    FILE *f = std::fopen(path.c_str(), "w");
    if (f == nullptr) return "cannot open";
    const std::string s = text(block, seed);
    const bool ok = std::fwrite(s.data(), 1, s.size(), f) == s.size();
    return std::fclose(f) == 0 && ok ? "" : "write failed";
  }

 private:
  std::string path_;
  std::map<std::string, uint64_t> bins_;
};

// The process's recorder (one harness per process).
inline Fcov &fcov() {
  static Fcov f;
  return f;
}

// An identifier made of `s`: every character outside [A-Za-z0-9_] becomes '_'
// ("bcast-host" -> "bcast_host").
inline std::string bin_name(std::string s) {
  for (char &c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) c = '_';
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) s = "_" + s;
  return s;
}

}  // namespace cosim
}  // namespace pinet

#endif  // PINET_COSIM_FCOV_H
