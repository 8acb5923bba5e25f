// cosim.h - what every pinet co-simulation harness shares.
//
// A harness drives its Verilated block and the block's cycle-level C model (libpinet) with the
// same stimulus, compares every output every cycle in a fixed order, and stops at the first
// mismatch. It ends with exactly one line:
//   PASS <block> matched <n> cycles seed <s>
//   FAIL <block> cycle <c> <signal> DUT <v> expected <v> seed <s>
// Exit status: the one table of docs/exit_codes.md (pinet/exit_codes.h), shared with `pinet`:
// 0 PASS, 1 FAIL (a mismatch), 2 usage (unknown option, malformed value), 3 invalid request (a
// size or value this harness cannot run), 4 a file that cannot be written (--wave, the coverage
// file, a harness's output options: checked before the run, so nothing is created; a write that
// still fails is reported after the PASS/FAIL line and removes what it wrote), 5 internal. Every
// error is one `cosim <block>: ...` line on stderr. The waveform (--wave FILE, FST) is closed
// before returning, so a failing run keeps it. SystemC harnesses print no copyright banner.
//
// Pattern (see cosim/rta/cosim_rta_switch.cpp):
//   pinet::cosim::Options opt("rta_switch", 200000);            // block name, default cycles
//   if (!opt.parse(argc, argv)) return opt.exit_code();
//   pinet::cosim::Sim<Vrta_switch> sim(opt);                     // context, model, waves
//   pinet::cosim::Scoreboard sb(opt);
//   for (uint64_t c = 0; c < opt.cycles() && !sb.failed(); c++) {
//     ... drive inputs, sim.eval(), model step ...
//     sb.check(c, "t1_o", dut, expected) && ...;
//     sim.tick();  sb.matched_cycle();
//   }
//   sim.close(); return sb.finish();
#ifndef PINET_COSIM_H
#define PINET_COSIM_H

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "verilated.h"
#include "wide_port.h"
#if VM_TRACE
#include "verilated_fst_c.h"
#endif
#if VM_COVERAGE
#include "verilated_cov.h"  // write_coverage(): VerilatedCovContext::write
#endif

#include "pinet/exit_codes.h"
#include "pinet/quote.h"
#include "pinet/rng.h"
#include "mismatch_window.h"  // PINET_MISMATCH_JSON: the values around the first mismatch
#include "fcov.h"             // PINET_FCOV_FILE: functional coverage bins, written on PASS

namespace pinet {
namespace cosim {

#if VM_SC
// SystemC prints its copyright banner on stderr when the kernel's simulation context is first
// made (sc_core::pln()), unless SYSTEMC_DISABLE_COPYRIGHT_MESSAGE is set by then. In a cosim that
// is before sc_main (during static initialisation: setenv() at the top of sc_main is too late),
// so the variable is set by a constructor of priority 101, which runs before the executable's
// ordinary static constructors. A value the user set is kept. Checked by
// cosim/common/check_exit_codes.sh (no banner without the variable).
__attribute__((constructor(101))) static void pinet_cosim_quiet_systemc() {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
}
#endif

// Text the user gave (an option value, a path, an environment variable's value) as a message
// repeats it: pinet_quote's form (pinet/quote.h), the same as `pinet`'s, so that no control byte
// reaches the terminal; a plain printable value is unchanged. Every message that repeats user
// text prints it through quoted() (tests/lint/check_quoting.py checks).
inline std::string quoted(const std::string &text) {
  char buf[PINET_QUOTE_SIZE];
  if (pinet_quote_mem(text.data(), text.size(), buf, sizeof buf) != PINET_OK) return "";
  return buf;
}

// Why `path` cannot be written, "" if it can (as far as one can tell without creating it: the
// file is writable, or it is absent and its directory exists and is writable).
inline std::string why_unwritable(const std::string &path) {
  if (path.empty()) return "empty path";
  struct stat st;
  if (stat(path.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return "is a directory";
    if (access(path.c_str(), W_OK) != 0) return std::strerror(errno);
    return "";
  }
  if (errno != ENOENT) return std::strerror(errno);
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
  if (stat(dir.c_str(), &st) != 0) return "directory '" + quoted(dir) + "': " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode)) return "'" + quoted(dir) + "' is not a directory";
  if (access(dir.c_str(), W_OK | X_OK) != 0) return "directory '" + quoted(dir) + "': " + std::strerror(errno);
  return "";
}

// A file error after the run has started (a write that failed although the path looked
// writable): reported at once, one line, and remembered so that Scoreboard::finish() returns
// PINET_EXIT_IO after a PASS.
inline int &late_file_status() {
  static int status = PINET_EXIT_OK;
  return status;
}
inline void file_error(const std::string &block, const std::string &msg) {
  std::fprintf(stderr, "cosim %s: %s\n", block.c_str(), msg.c_str());
  late_file_status() = PINET_EXIT_IO;
}

// Write the output `path` through a fresh directory beside it: write(tmp) writes the file tmp,
// which has path's name (and any companion files beside it: an Interfile header's .v data);
// then each file made is renamed into path's directory. When write() fails (returns a reason),
// or a rename does, everything it made is removed: nothing half-written is left. Returns "" or
// the reason.
inline std::string write_output(const std::string &path,
                                const std::function<std::string(const std::string &)> &write) {
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const std::string base = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string tmpl = (slash == std::string::npos ? std::string() : dir) + ".cosim-out-XXXXXX";
  std::vector<char> buf(tmpl.begin(), tmpl.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) return std::strerror(errno);
  const std::string tmp_dir = buf.data();
  std::string why = write(tmp_dir + "/" + base);
  std::vector<std::string> made;
  if (DIR *d = opendir(tmp_dir.c_str())) {
    while (struct dirent *e = readdir(d))
      if (std::strcmp(e->d_name, ".") != 0 && std::strcmp(e->d_name, "..") != 0) made.push_back(e->d_name);
    closedir(d);
  }
  std::vector<std::string> moved;
  for (const std::string &name : made) {
    const std::string from = tmp_dir + "/" + name, to = dir == "." ? name : dir + name;
    if (why.empty()) {
      if (std::rename(from.c_str(), to.c_str()) == 0)
        moved.push_back(to);
      else
        why = std::strerror(errno);
    }
    std::remove(from.c_str());  // after a failure: the rest are not moved
  }
  if (!why.empty())
    for (const std::string &to : moved) std::remove(to.c_str());  // no header without its data
  rmdir(tmp_dir.c_str());
  return why;
}

class Options;
// Open the FST trace `t` (VerilatedFstC, VerilatedFstSc) on opt.wave(). false, after a
// file_error(), if it did not open (parse() found the path writable; something changed since).
template <class Trace>
bool open_trace(Trace &t, const Options &opt);

// Command-line options shared by every harness: --seed S, --cycles C, --wave FILE, --quiet,
// --progress, plus named integer options a harness declares (e.g. --pes N).
class Options {
 public:
  Options(std::string block, uint64_t default_cycles)
      : block_(std::move(block)), cycles_(default_cycles) {}

  // Declare a harness-specific integer option before parse(); `help` is shown by --help.
  void add_int(const std::string &name, uint64_t def, const std::string &help) {
    ints_[name] = def;
    help_[name] = help;
  }

  // A string option (--name VALUE); `def` is its default, "" if it has none.
  void add_string(const std::string &name, const std::string &def, const std::string &help) {
    strings_[name] = def;
    help_[name] = help;
  }
  // A string option naming a file the harness writes: parse() checks it can be written (exit 4
  // before anything runs), as it does --wave.
  void add_output(const std::string &name, const std::string &help) {
    add_string(name, "", help);
    outputs_.push_back(name);
  }

  // Parse argv (Verilator's own +args are left for VerilatedContext::commandArgs).

  bool parse(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
      std::string a = argv[i];
      if (a.size() > 0 && a[0] == '+') continue;  // +verilator+... plusargs
      if (a == "--help" || a == "-h") {
        print_help();
        exit_code_ = PINET_EXIT_OK;
        return false;
      }
      if (a == "--quiet") { quiet_ = true; continue; }
      if (a == "--progress") { progress_ = true; continue; }
      std::string name = a.rfind("--", 0) == 0 ? a.substr(2) : std::string();
      std::string value;
      size_t eq = name.find('=');
      if (eq != std::string::npos) {
        value = name.substr(eq + 1);
        name = name.substr(0, eq);
      } else if (!name.empty() && i + 1 < argc) {
        value = argv[++i];
      } else {
        return usage_error("malformed or incomplete argument '" + quoted(a) + "'");
      }
      if (name == "wave") {
        wave_ = value;
      } else if (name == "seed") {
        if (!parse_u64(value, &seed_)) return usage_error("--seed: '" + quoted(value) + "' is not a number");
      } else if (name == "power-up") {
        if (value != "zero" && value != "random")
          return usage_error("--power-up: '" + quoted(value) + "' is not zero or random");
        power_up_random_ = value == "random";
      } else if (name == "wave-scope") {
        // SCOPE or SCOPE:LEVELS (Verilator's dumpvars: the signals LEVELS scopes deep under
        // SCOPE; default all below it)
        std::string scope = value;
        uint64_t levels = 99;
        const size_t colon = value.rfind(':');
        if (colon != std::string::npos) {
          scope = value.substr(0, colon);
          if (!parse_u64(value.substr(colon + 1), &levels) || levels == 0 || levels > 99)
            return usage_error("--wave-scope: '" + quoted(value) + "': the levels after ':' are not 1 .. 99");
        }
        if (scope.empty() || scope.find_first_of(" \t") != std::string::npos)
          return usage_error("--wave-scope: '" + quoted(value) + "' is not a scope such as top.rta_torus2d.g_row[3]");
        wave_scopes_.emplace_back((int)levels, scope);
      } else if (name == "wave-from" || name == "wave-to") {
        uint64_t v = 0;
        if (!parse_u64(value, &v)) return usage_error("--" + name + ": '" + quoted(value) + "' is not a cycle number");
        (name == "wave-from" ? wave_from_ : wave_to_) = v;
        wave_window_given_ = true;
      } else if (name == "cycles") {
        if (!parse_u64(value, &cycles_) || cycles_ == 0)
          return usage_error("--cycles: '" + quoted(value) + "' is not a positive number");
      } else if (strings_.count(name)) {
        strings_[name] = value;
      } else if (ints_.count(name)) {
        uint64_t v = 0;
        if (!parse_u64(value, &v)) return usage_error("--" + name + ": '" + quoted(value) + "' is not a number");
        ints_[name] = v;
      } else {
        return usage_error("unknown option '--" + quoted(name) + "'");
      }
    }
    if (wave_window_given_ && wave_.empty()) return usage_error("--wave-from/--wave-to need --wave");
    if (!wave_scopes_.empty() && wave_.empty()) return usage_error("--wave-scope needs --wave");
    if (wave_window_given_ && !wave_window_ok_)
      return usage_error("--wave-from/--wave-to: not in this harness (its SystemC trace records every cycle)");
    if (wave_from_ > wave_to_)
      return usage_error("--wave-from " + std::to_string(wave_from_) + " is after --wave-to " +
                         std::to_string(wave_to_));
    if (!wave_.empty() && !check_output("wave", wave_)) return false;
    for (const std::string &name : outputs_)
      if (!strings_[name].empty() && !check_output(name, strings_[name])) return false;
    if (fcov().on() && !check_output("coverage file (PINET_FCOV_FILE)", fcov().path(), false)) return false;
#if VM_COVERAGE
    const char *cov = std::getenv("PINET_COVERAGE_FILE");
    if (!check_output("coverage file (PINET_COVERAGE_FILE)", cov ? cov : "coverage.dat", false))
      return false;
#endif
    return true;
  }

  const std::string &block() const { return block_; }
  uint64_t seed() const { return seed_; }
  uint64_t cycles() const { return cycles_; }
  const std::string &wave() const { return wave_; }
  // The cycles the wave records (--wave-from .. --wave-to, both included; default all).
  uint64_t wave_from() const { return wave_from_; }
  uint64_t wave_to() const { return wave_to_; }
  // The scopes the wave records (--wave-scope, each (levels, scope)); empty: every signal.
  const std::vector<std::pair<int, std::string>> &wave_scopes() const { return wave_scopes_; }
  // A harness whose trace cannot skip cycles (SystemC's) calls this before parse(): the window
  // options are then a usage error.
  void no_wave_window() { wave_window_ok_ = false; }
  bool quiet() const { return quiet_; }
  bool progress() const { return progress_; }
  bool power_up_random() const { return power_up_random_; }
  uint64_t get(const std::string &name) const { return ints_.at(name); }
  const std::string &get_string(const std::string &name) const { return strings_.at(name); }
  int exit_code() const { return exit_code_; }

  // Reject an option (malformed, out of its fixed set of choices, missing, conflicting): a
  // usage error, exit 2. Returns false.
  bool reject(const std::string &msg) { return usage_error(msg); }
  // Reject a well-formed request this harness cannot run (a size not built, a value out of
  // range, too large for a memory): exit 3. Returns false.
  bool invalid(const std::string &msg) { return fail(msg, PINET_EXIT_INPUT); }
  // A file that cannot be read or written: exit 4. Returns false.
  bool file_error(const std::string &msg) { return fail(msg, PINET_EXIT_IO); }
  // An internal error (the C model failed where it must not): exit 5. Returns false.
  bool internal(const std::string &msg) { return fail(msg, PINET_EXIT_INTERNAL); }

 private:
  static bool parse_u64(const std::string &s, uint64_t *out) {
    if (s.empty() || s[0] == '-') return false;
    char *end = nullptr;
    unsigned long long v = std::strtoull(s.c_str(), &end, 0);
    if (*end != '\0') return false;
    *out = v;
    return true;
  }
  bool usage_error(const std::string &msg) {
    std::fprintf(stderr, "cosim %s: %s (try --help)\n", block_.c_str(), msg.c_str());
    exit_code_ = PINET_EXIT_USAGE;
    return false;
  }
  bool fail(const std::string &msg, int code) {
    std::fprintf(stderr, "cosim %s: %s\n", block_.c_str(), msg.c_str());
    exit_code_ = code;
    return false;
  }
  bool check_output(const std::string &what, const std::string &path, bool option = true) {
    const std::string why = why_unwritable(path);
    if (why.empty()) return true;
    return file_error((option ? "--" : "") + what + " '" + quoted(path) + "': cannot write: " + why);
  }
  void print_help() const {
    std::printf("usage: cosim_%s [--seed S] [--cycles C] [--wave FILE.fst%s] [--quiet] [--progress]"
                " [--power-up zero|random]",
                block_.c_str(), wave_window_ok_ ? " [--wave-from C] [--wave-to C] [--wave-scope S]" : " [--wave-scope S]");
    for (const auto &kv : strings_) std::printf(" [--%s S]", kv.first.c_str());
    for (const auto &kv : ints_) std::printf(" [--%s N]", kv.first.c_str());
    std::printf("\n  --seed S        stimulus seed (default 1)\n");
    std::printf("  --cycles C      cycles to compare (default %" PRIu64 ")\n", cycles_);
    std::printf("  --wave FILE     write an FST waveform (open with waves/%s.gtkw)\n", block_.c_str());
    if (wave_window_ok_)
      std::printf("  --wave-from C, --wave-to C\n"
                  "                  record only cycles C.. / ..C of the run in the wave (a failure at\n"
                  "                  cycle 9e6: --wave-from 8999900 --wave-to 9000010)\n");
    std::printf("  --wave-scope S[:L]\n"
                "                  record only the signals under scope S (L levels deep; repeat for\n"
                "                  more scopes), e.g. one ring of a large fabric:\n"
                "                  --wave-scope 'top.rta_torus2d.g_row[3]' --wave-scope top:1\n");
    std::printf("  --quiet         only the final PASS/FAIL line\n");
    std::printf("  --progress      print progress on stderr\n");
    std::printf("  --power-up P    the model's state before reset: zero (default) or random (seeded\n"
                "                  by --seed; a result that depends on it is a missing reset)\n");
    for (const auto &kv : strings_)
      std::printf("  --%-13s %s%s%s%s\n", kv.first.c_str(), help_.at(kv.first).c_str(),
                  kv.second.empty() ? "" : " (default ", kv.second.c_str(),
                  kv.second.empty() ? "" : ")");
    for (const auto &kv : ints_)
      std::printf("  --%-13s %s (default %" PRIu64 ")\n", kv.first.c_str(), help_.at(kv.first).c_str(),
                  kv.second);
    std::printf("exit codes: 0 ok (PASS), 1 check failed (FAIL), 2 usage, 3 invalid input, "
                "4 file error, 5 internal error (docs/exit_codes.md)\n");
  }

  std::string block_;
  uint64_t seed_ = 1;
  uint64_t cycles_;
  std::string wave_;
  uint64_t wave_from_ = 0;
  uint64_t wave_to_ = UINT64_MAX;
  bool wave_window_given_ = false;
  std::vector<std::pair<int, std::string>> wave_scopes_;
  bool wave_window_ok_ = true;
  bool quiet_ = false;
  bool progress_ = false;
  bool power_up_random_ = false;
  int exit_code_ = PINET_EXIT_OK;
  std::vector<std::string> outputs_;
  std::map<std::string, uint64_t> ints_;
  std::map<std::string, std::string> strings_;
  std::map<std::string, std::string> help_;
};

template <class Trace>
bool open_trace(Trace &t, const Options &opt) {
  for (const auto &s : opt.wave_scopes()) t.dumpvars(s.first, s.second);  // before open: declarations
  t.open(opt.wave().c_str());
  if (t.isOpen()) return true;
  file_error(opt.block(), "--wave '" + quoted(opt.wave()) + "': cannot write");
  return false;
}

// The assertion checkers bound into every Verilated model (rtl/assert/, verilated with --assert
// and PINET_ASSERT_DPI) call pinet_assertion_failed(name) through DPI-C when an assertion fails
// (defined below, after the namespace). The first name is kept here until a Scoreboard reports it.
inline std::string &fired_assertion() {
  static std::string name;
  return name;
}

// Compares DUT against model, keeps the first mismatch, counts matched cycles. A failed
// assertion (fired_assertion()) is the failure of the cycle whose values break it: fired before
// check(c) (while cycle c's inputs were evaluated), it is recorded there, at c; fired after the
// last check(c) and before matched_cycle() (at the clock edge, on the values the edge gives
// cycle c + 1), at c + 1. The run ends with
//   FAIL <block> cycle <c> assertion <name> seed <s>
// (exit 1) instead of a value comparison. An assertion that fires first wins over a mismatch
// seen in the same cycle: it names the cause.
class Scoreboard {
 public:
  explicit Scoreboard(const Options &opt) : block_(opt.block()), seed_(opt.seed()) {
    const std::string why = window_.on() ? why_unwritable(window_.path()) : "";
    if (!why.empty()) {
      file_error(block_,
                 "PINET_MISMATCH_JSON '" + quoted(window_.path()) + "': cannot write: " + why);
      window_.off();
    }
  }

  // Compare one value. Returns true when equal; on the first mismatch records it and returns
  // false (later calls are ignored and also return false).
  bool check(uint64_t cycle, const std::string &signal, uint64_t dut, uint64_t expected) {
    if (window_.on()) window_.record(cycle, signal, dut, expected, failed_);
    if (failed_) return false;
    last_cycle_ = cycle;
    if (take_assertion(cycle)) return false;
    if (dut == expected) return true;
    failed_ = true;
    fail_cycle_ = cycle;
    fail_signal_ = signal;
    fail_dut_ = dut;
    fail_expected_ = expected;
    return false;
  }

  // Record a failure that is not a value comparison (e.g. a protocol violation).
  void fail(uint64_t cycle, const std::string &what) { check(cycle, what, 1, 0); }

  void matched_cycle() {
    if (!failed_ && !take_assertion(last_cycle_ + 1)) matched_++;
  }
  bool failed() const { return failed_ || !fired_assertion().empty(); }
  uint64_t matched() const { return matched_; }
  MismatchWindow &window() { return window_; }

  // Print the one summary line and return the process exit status: PINET_EXIT_FAIL on a
  // mismatch, else PINET_EXIT_IO if a file_error() was reported during the run, else OK.
  int finish() const {
    if (!failed_ && !fired_assertion().empty()) {
      std::printf("FAIL %s cycle %" PRIu64 " assertion %s seed %" PRIu64 "\n", block_.c_str(),
                  last_cycle_ + 1, fired_assertion().c_str(), seed_);
      return PINET_EXIT_FAIL;
    }
    if (failed_ && assertion_) {
      std::printf("FAIL %s cycle %" PRIu64 " %s seed %" PRIu64 "\n", block_.c_str(), fail_cycle_,
                  fail_signal_.c_str(), seed_);
      return PINET_EXIT_FAIL;
    }
    if (failed_) {
      std::printf("FAIL %s cycle %" PRIu64 " %s DUT 0x%" PRIx64 " expected 0x%" PRIx64 " seed %" PRIu64 "\n",
                  block_.c_str(), fail_cycle_, fail_signal_.c_str(), fail_dut_, fail_expected_, seed_);
      const std::string why = window_.write(block_, seed_);
      if (!why.empty()) file_error(block_,
                                   "PINET_MISMATCH_JSON '" + quoted(window_.path()) + "': " + why);
      return PINET_EXIT_FAIL;
    }
    std::printf("PASS %s matched %" PRIu64 " cycles seed %" PRIu64 "\n", block_.c_str(), matched_, seed_);
    if (fcov().on()) {  // functional coverage (fcov.h): a passing run's only
      const std::string why = write_output(fcov().path(), [this](const std::string &p) {
        return fcov().write_to(p, block_, seed_);
      });
      if (!why.empty()) file_error(block_,
                                   "PINET_FCOV_FILE '" + quoted(fcov().path()) + "': " + why);
    }
    return late_file_status();
  }

 private:
  // Record a fired assertion as the failure of `cycle`; false if none has fired.
  bool take_assertion(uint64_t cycle) {
    if (fired_assertion().empty()) return false;
    failed_ = true;
    assertion_ = true;
    fail_cycle_ = cycle;
    fail_signal_ = "assertion " + fired_assertion();
    return true;
  }

  std::string block_;
  uint64_t seed_;
  bool failed_ = false;
  bool assertion_ = false;
  uint64_t last_cycle_ = 0;
  uint64_t matched_ = 0;
  uint64_t fail_cycle_ = 0;
  std::string fail_signal_;
  uint64_t fail_dut_ = 0;
  uint64_t fail_expected_ = 0;
  MismatchWindow window_;
};

// Writes the model's Verilator coverage (when built with coverage) to $PINET_COVERAGE_FILE, or
// coverage.dat; verify.sh --coverage sets the variable per run. Harnesses without Sim (SystemC)
// call it after the model's final().
inline void write_coverage(VerilatedContext *ctx) {
#if VM_COVERAGE
  const char *path = std::getenv("PINET_COVERAGE_FILE");
  ctx->coveragep()->write(path ? path : "coverage.dat");
#else
  (void)ctx;
#endif
}

// --power-up random: every variable of the model starts from a random value (the models are
// verilated with --x-initial unique), seeded by --seed, so that an output that depends on the
// power-up state (a flop without its reset) is a mismatch. Call before the model is built; the
// SystemC harnesses pass Verilated::defaultContextp().
inline void apply_power_up(VerilatedContext *ctx, const Options &opt) {
  if (!opt.power_up_random()) return;
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(opt.seed() % 0x7ffffffeu) + 1);  // 0 would mean "from the clock"
}

// Owns the VerilatedContext, the model and the optional FST trace. Time advances 1 unit per
// half clock period; tick() = falling edge (inputs are driven before it), rising edge.
template <class Model>
class Sim {
 public:
  explicit Sim(const Options &opt, int argc = 0, char **argv = nullptr)
      : ctx_(new VerilatedContext), quiet_(opt.quiet()), wave_from_(opt.wave_from()),
        wave_to_(opt.wave_to()) {
    if (argc > 0) ctx_->commandArgs(argc, argv);  // before the model is built
    apply_power_up(ctx_.get(), opt);
    model_.reset(new Model(ctx_.get(), "top"));
    if (!opt.wave().empty()) {
#if VM_TRACE
      ctx_->traceEverOn(true);
      trace_.reset(new VerilatedFstC);
      model_->trace(trace_.get(), 99);
      if (!open_trace(*trace_, opt)) trace_.reset();
#else
      std::fprintf(stderr, "cosim %s: built without tracing; --wave ignored\n", opt.block().c_str());
#endif
    }
  }
  ~Sim() { close(); }

  Model *operator->() { return model_.get(); }
  Model &dut() { return *model_; }

  // Evaluate combinational logic at the current time and dump it.
  void eval() {
    model_->eval();
    dump();
  }

  // For clocked blocks: the falling edge half (inputs settle), then the rising edge.
  // Requires the model to have a clk_i port.
  void tick_clocked() {
    ctx_->timeInc(1);
    model_->clk_i = 0;
    model_->eval();
    dump();
    ctx_->timeInc(1);
    model_->clk_i = 1;
    model_->eval();
    dump();
  }

  // For combinational blocks: advance one cycle of waveform time.
  void advance() { ctx_->timeInc(2); }

  uint64_t time() const { return ctx_->time(); }

  void close() {
#if VM_TRACE
    if (trace_) {
      trace_->close();
      trace_.reset();
    }
#endif
    if (model_) {
      model_->final();
      write_coverage();
      model_.reset();
    }
  }

 private:
  // Time advances 2 units a cycle: cycle c is times 2c and 2c + 1 (clocked: the falling edge
  // at 2c + 1, the rising edge at 2c + 2 = the next cycle's start, as the harnesses count).
  void dump() {
#if VM_TRACE
    if (!trace_) return;
    const uint64_t cycle = ctx_->time() / 2;
    if (cycle >= wave_from_ && cycle <= wave_to_) trace_->dump(ctx_->time());
#endif
  }
  void write_coverage() { pinet::cosim::write_coverage(ctx_.get()); }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> model_;
#if VM_TRACE
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  bool quiet_;
  uint64_t wave_from_, wave_to_;
};

// Progress on stderr for long runs, when enabled (--progress): a line at every tenth of the run
// and at least once a minute, with the rate, so that an overnight run (verify.sh --long) shows it
// is alive and when it will end:
//   cosim rta_ring: 40% (40000000 of 100000000 cycles, 1.2e+06 cycles/s, 50 s left)
class Progress {
 public:
  Progress(const Options &opt, uint64_t total)
      : on_(opt.progress()), total_(total), block_(opt.block()), start_(Clock::now()),
        last_line_(start_) {}
  void update(uint64_t done) {
    if (!on_ || total_ < 10) return;
    const uint64_t tenth = done * 10 / total_;
    // The clock is read once every 4096 cycles: cheap against a cycle of any harness.
    if (tenth == last_tenth_ && (done & 4095u) != 0) return;
    const auto now = Clock::now();
    if (tenth == last_tenth_ && now - last_line_ < std::chrono::seconds(60)) return;
    last_tenth_ = tenth;
    last_line_ = now;
    const double secs = std::chrono::duration<double>(now - start_).count();
    const double rate = secs > 0 ? (double)done / secs : 0.0;
    const double left = rate > 0 ? (double)(total_ - std::min(done, total_)) / rate : 0.0;
    std::fprintf(stderr, "cosim %s: %" PRIu64 "%% (%" PRIu64 " of %" PRIu64 " cycles, %.2g cycles/s, %.0f s left)\n",
                 block_.c_str(), done * 100 / total_, done, total_, rate, left);
  }

 private:
  using Clock = std::chrono::steady_clock;
  bool on_;
  uint64_t total_;
  uint64_t last_tenth_ = 0;
  std::string block_;
  Clock::time_point start_;
  Clock::time_point last_line_;
};

constexpr uint64_t kNoFault = UINT64_MAX;

// Every harness takes a hidden --inject-fault CYCLE (not listed by --help): the checker corrupts
// the first expected value it compares in that cycle, so that a test can see the FAIL line, the
// exit status and the kept waveform (cosim/<family>/check_fault_injection.sh).
// Remove "--inject-fault C" / "--inject-fault=C" from argv (argc shrinks). Returns false (and a
// message in *err) on a malformed value. *cycle stays kNoFault when the option is absent.
inline bool take_fault_option(int *argc, char **argv, uint64_t *cycle, std::string *err) {
  static const char kName[] = "--inject-fault";
  const size_t len = sizeof kName - 1;
  *cycle = kNoFault;
  int out = 1;
  for (int i = 1; i < *argc; i++) {
    const char *a = argv[i];
    const char *value = nullptr;
    if (std::strcmp(a, kName) == 0) {
      if (i + 1 >= *argc) {
        *err = "--inject-fault needs a cycle number";
        return false;
      }
      value = argv[++i];
    } else if (std::strncmp(a, kName, len) == 0 && a[len] == '=') {
      value = a + len + 1;
    } else {
      argv[out++] = argv[i];
      continue;
    }
    char *end = nullptr;
    if (value[0] == '\0' || value[0] == '-') {
      *err = std::string("--inject-fault: '") + quoted(value) + "' is not a cycle number";
      return false;
    }
    unsigned long long v = std::strtoull(value, &end, 0);
    if (*end != '\0') {
      *err = std::string("--inject-fault: '") + quoted(value) + "' is not a cycle number";
      return false;
    }
    *cycle = v;
  }
  *argc = out;
  argv[out] = nullptr;
  return true;
}

}  // namespace cosim
}  // namespace pinet

// The DPI-C function of rtl/assert/pinet_assert.svh: a failing assertion of a checker. Keeps the
// first name (the run stops at it; later ones are consequences). Weak: every harness source
// that includes this header defines it, the linker keeps one.
extern "C" __attribute__((weak)) void pinet_assertion_failed(const char *name) {
  if (pinet::cosim::fired_assertion().empty()) pinet::cosim::fired_assertion() = name ? name : "?";
}

// The cover properties of the checkers (`PINET_COVER, rtl/assert/pinet_assert.svh) call
// pinet_cover_hit(name) through DPI-C in the first cycle each instance hits its scenario: counted
// as the functional coverage bin rtl_<module>_<cover> of the run's block (fcov.h; one hit per
// instance). Weak, as above.
extern "C" __attribute__((weak)) void pinet_cover_hit(const char *name) {
  pinet::cosim::Fcov &f = pinet::cosim::fcov();
  if (f.on()) f.hit("rtl_" + pinet::cosim::bin_name(name ? name : "?"));
}

#endif  // PINET_COSIM_H
