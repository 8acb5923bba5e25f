// cosim_ps_system.cpp - the SystemC co-simulation: rtl/ps_network.sv (N = 8, Verilated as a
// SystemC module) inside a small parallel filtered-backprojection machine (paper 000, FBP
// partitioned by view; SPEC 6), with the C model as a scoreboard.
//
// Modules (one clock, 10 ns; every driver writes right after the rising edge):
//   Host       SC_THREAD: per scenario scatters the projections (op scatter: PE j gets views
//              j V/N .. (j+1) V/N - 1), broadcasts the filter (bcast-host), starts the PEs'
//              computation and waits for it, then runs integration, all-to-all broadcast and
//              upload, and checks the uploaded image against its own direct computation over all
//              views. An SC_METHOD answers PE 0's host requests one cycle later and collects the
//              words that go up.
//   PeArray    SC_THREAD: the N PE processors on the local ports: clear the memories, read the
//              projections and the filter, filter each own view (circular convolution), back-
//              project it into a partial image (integer stand-in for the ray sums:
//              image[y G + x] += filtered[(x + v y) mod D]) and write the partial image.
//   Scoreboard SC_METHOD at every falling edge: every input and output of the network into
//              pinet::cosim::ps::NetworkChecker (ps_cosim.h), the same C-model checker as
//              cosim_ps_network: status, every channel, host request and address, every local
//              read against the shadow memories (which take the C model's memories after each
//              collective). The host image for the C model comes from the Host module.
// Ends with the usual PASS/FAIL line (block ps_system); --cycles is the time limit, --scenarios
// the number of FBP rounds (each with new sizes, data and memory layout).
#include <systemc.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "Vps_network_sc.h"
#include "ps_cosim.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_sc.h"
#endif

namespace {

namespace pc = pinet::cosim::ps;
using pinet::cosim::Options;
using pinet::cosim::Scoreboard;

constexpr uint32_t kPes = PS_SC_PES;
constexpr uint32_t kMemWords = PS_SC_MEMWORDS;
constexpr uint32_t kLogPes = 3;
static_assert((1u << kLogPes) == kPes, "kLogPes");

// One FBP round: sizes and memory layout (bases of the three images in every PE memory).
struct Scenario {
  uint32_t views_per_pe = 1, bins = 8, taps = 3, side = 8;
  uint32_t base_proj = 0, base_filter = 0, base_image = 0;
  std::vector<uint32_t> proj;    // views x bins, view-major: PE j's views are segment j
  std::vector<uint32_t> filter;  // taps
  uint32_t views() const { return views_per_pe * kPes; }
  uint32_t proj_words() const { return views() * bins; }
  uint32_t image_words() const { return side * side; }
};

// filtered_v[d] = sum_k filter[k] proj[v][(d + k) mod D]; image[y G + x] += filtered_v[(x + v y)
// mod D] (all modulo 2^32), over the views [first, last).
void backproject(const Scenario &sc, const uint32_t *proj, const uint32_t *filter, uint32_t first,
                 uint32_t last, std::vector<uint32_t> *image) {
  image->assign(sc.image_words(), 0);
  std::vector<uint32_t> f(sc.bins);
  for (uint32_t v = first; v < last; v++) {
    for (uint32_t d = 0; d < sc.bins; d++) {
      uint32_t s = 0;
      for (uint32_t k = 0; k < sc.taps; k++)
        s += filter[k] * proj[(size_t)v * sc.bins + (d + k) % sc.bins];
      f[d] = s;
    }
    for (uint32_t y = 0; y < sc.side; y++)
      for (uint32_t x = 0; x < sc.side; x++) (*image)[y * sc.side + x] += f[(x + v * y) % sc.bins];
  }
}

// The wires between the modules and the network.
struct Wires {
  sc_clock clk{"clk", 10, SC_NS, 0.5, 0, SC_NS, true};
  sc_signal<bool> rst_n{"rst_n"}, start{"start"}, busy{"busy"}, done{"done"};
  sc_signal<bool> fast{"fast"};  // cmd_fast_i: the paper's schedules (this run's FBP rounds)
  sc_signal<uint32_t> op{"op"}, words{"words"}, base{"base"}, err{"err"};
  sc_signal<bool> host_req{"host_req"}, host_valid_in{"host_valid_in"},
      host_valid_out{"host_valid_out"};
  sc_signal<uint32_t> host_req_addr{"host_req_addr"}, host_data_in{"host_data_in"};
  sc_signal<uint32_t> host_data_out{"host_data_out"}, host_addr{"host_addr"};
  sc_signal<uint32_t> lcl_we{"lcl_we"}, lcl_addr{"lcl_addr"};
  sc_signal<sc_bv<kPes * 32>> lcl_wdata{"lcl_wdata"}, lcl_rdata{"lcl_rdata"};
  sc_signal<uint64_t> ch_valid{"ch_valid"};
  sc_signal<sc_bv<(4 * kPes + 2) * 32>> ch_data{"ch_data"};
};

// ---- the PE processors ----------------------------------------------------------------------

SC_MODULE(PeArray) {
  sc_in<bool> clk;
  Wires *w = nullptr;
  sc_event go, finished;
  const Scenario *job = nullptr;  // nullptr: clear every memory
  uint64_t words_read = 0, words_written = 0;

  SC_CTOR(PeArray) {
    SC_THREAD(run);
    sensitive << clk.pos();
  }

  void write_all(uint32_t addr, const std::vector<uint32_t> &data) {
    sc_bv<kPes * 32> bv;
    for (uint32_t j = 0; j < kPes; j++) bv.set_word(j, data[j]);
    w->lcl_we.write((1u << kPes) - 1);
    w->lcl_addr.write(addr);
    w->lcl_wdata.write(bv);
    wait();
    words_written += kPes;
  }

  // Read `addr` of every memory (the port is combinational: the word is there in the same cycle).
  void read_all(uint32_t addr, std::vector<uint32_t> * data) {
    w->lcl_we.write(0);
    w->lcl_addr.write(addr);
    wait();
    const sc_bv<kPes * 32> bv = w->lcl_rdata.read();
    data->resize(kPes);
    for (uint32_t j = 0; j < kPes; j++) (*data)[j] = bv.get_word(j);
    words_read += kPes;
  }

  void run() {
    w->lcl_we.write(0);
    for (;;) {
      wait(go);
      wait();  // start on a clock edge
      std::vector<uint32_t> row(kPes, 0);
      if (job == nullptr) {
        for (uint32_t a = 0; a < kMemWords; a++) write_all(a, row);
      } else {
        const Scenario &sc = *job;
        // Every PE reads the projection image (keeping its own views) and the whole filter.
        std::vector<std::vector<uint32_t>> proj(kPes, std::vector<uint32_t>(sc.proj_words(), 0));
        std::vector<std::vector<uint32_t>> filter(kPes, std::vector<uint32_t>(sc.taps, 0));
        const uint32_t seg = sc.proj_words() / kPes;
        for (uint32_t a = 0; a < sc.proj_words(); a++) {
          read_all(sc.base_proj + a, &row);
          for (uint32_t j = 0; j < kPes; j++)
            if (a / seg == j) proj[j][a] = row[j];
        }
        for (uint32_t a = 0; a < sc.taps; a++) {
          read_all(sc.base_filter + a, &row);
          for (uint32_t j = 0; j < kPes; j++) filter[j][a] = row[j];
        }
        std::vector<std::vector<uint32_t>> partial(kPes);
        for (uint32_t j = 0; j < kPes; j++)
          backproject(sc, proj[j].data(), filter[j].data(), j * sc.views_per_pe,
                      (j + 1) * sc.views_per_pe, &partial[j]);
        for (uint32_t a = 0; a < sc.image_words(); a++) {
          for (uint32_t j = 0; j < kPes; j++) row[j] = partial[j][a];
          write_all(sc.base_image + a, row);
        }
      }
      w->lcl_we.write(0);
      finished.notify(SC_ZERO_TIME);
    }
  }
};

// ---- the host ------------------------------------------------------------------------------

SC_MODULE(Host) {
  sc_in<bool> clk;
  Wires *w = nullptr;
  PeArray *pes = nullptr;
  Scoreboard *sb = nullptr;
  pinet_rng rng;
  uint32_t scenarios = 1;
  uint32_t completed = 0;
  bool all_done = false;
  std::vector<uint32_t> image;   // what the host serves on its link (the current collective's)
  std::vector<uint32_t> upload;  // what came up
  uint64_t cycle = 0;            // rising edges seen
  uint64_t collectives = 0;

  SC_CTOR(Host) {
    SC_THREAD(run);
    sensitive << clk.pos();
    SC_METHOD(link);
    sensitive << clk.pos();
    dont_initialize();
  }

  uint32_t rnd(uint64_t below) {
    return (uint32_t)pinet_rng_below(&rng, below);
  }

  // The host side of the link, at every rising edge: answer the request of the cycle that ends
  // (the word is on the link in the next cycle), keep the word that came up in it.
  void link() {
    const bool req = w->host_req.read();
    const uint32_t addr = w->host_req_addr.read();
    w->host_valid_in.write(req && w->rst_n.read());
    w->host_data_in.write(req && addr < image.size() ? image[addr] : 0);
    if (w->host_valid_out.read()) {
      const uint32_t a = w->host_addr.read();
      if (a >= upload.size()) upload.resize(a + 1, 0);
      upload[a] = w->host_data_out.read();
    }
    cycle++;
  }

  // Issue one collective and wait for done; false (and a scoreboard failure) if it is refused.
  bool collective(uint32_t op, uint32_t words, uint32_t base) {
    w->op.write(op);
    w->words.write(words);
    w->base.write(base);
    w->start.write(true);
    wait();
    w->start.write(false);
    wait();  // the first cycle of the run: err_o shows the command's verdict
    if (w->err.read() != pc::kErrOk) {
      sb->fail(cycle, std::string("host:") + pc::op_name(op) + "_refused");
      return false;
    }
    while (!w->done.read()) wait();
    collectives++;
    return true;
  }

  void make_scenario(Scenario * sc) {
    sc->views_per_pe = 1 + rnd(4);
    sc->bins = rnd(2) ? 8 : 16;
    sc->taps = kLogPes * (1 + rnd(3));  // bcast-host needs a multiple of log2 N
    sc->side = rnd(2) ? 8 : 16;         // G^2 is a multiple of N
    sc->proj.resize(sc->proj_words());
    for (auto &x : sc->proj) x = (uint32_t)pinet_rng_next(&rng);
    sc->filter.resize(sc->taps);
    for (auto &x : sc->filter) x = rnd(2000) - 1000;
    // Three disjoint images in a random order with random gaps.
    const uint32_t sizes[3] = {sc->proj_words(), sc->taps, sc->image_words()};
    uint32_t order[3] = {0, 1, 2};
    for (uint32_t i = 2; i > 0; i--) std::swap(order[i], order[rnd(i + 1)]);
    uint32_t slack = kMemWords - sizes[0] - sizes[1] - sizes[2];
    uint32_t at = 0, bases[3] = {0, 0, 0};
    for (uint32_t i = 0; i < 3; i++) {
      const uint32_t gap = rnd(slack / 2 + 1);
      slack -= gap;
      at += gap;
      bases[order[i]] = at;
      at += sizes[order[i]];
    }
    sc->base_proj = bases[0];
    sc->base_filter = bases[1];
    sc->base_image = bases[2];
  }

  void run() {
    w->rst_n.write(false);
    w->start.write(false);
    wait();
    wait();
    w->rst_n.write(true);
    wait();
    pes->job = nullptr;  // the PE processors clear their memories
    pes->go.notify(SC_ZERO_TIME);
    wait(pes->finished);
    wait();
    for (uint32_t s = 0; s < scenarios && !sb->failed(); s++) {
      Scenario sc;
      make_scenario(&sc);
      image = sc.proj;
      if (!collective(PINET_SHUFFLE_OP_SCATTER, sc.proj_words(), sc.base_proj)) break;
      image = sc.filter;
      if (!collective(PINET_SHUFFLE_OP_BCAST_HOST, sc.taps, sc.base_filter)) break;
      image.clear();
      pes->job = &sc;
      pes->go.notify(SC_ZERO_TIME);
      wait(pes->finished);
      wait();
      if (!collective(PINET_SHUFFLE_OP_INTEGRATE, sc.image_words(), sc.base_image)) break;
      if (!collective(PINET_SHUFFLE_OP_ALLGATHER, sc.image_words(), sc.base_image)) break;
      upload.assign(sc.image_words(), 0);
      image.assign(sc.image_words(), 0);  // the host memory the upload fills (C model: zeros)
      if (!collective(PINET_SHUFFLE_OP_UPLOAD, sc.image_words(), sc.base_image)) break;
      wait();
      // The uploaded image against the host's own computation over every view.
      std::vector<uint32_t> expect;
      backproject(sc, sc.proj.data(), sc.filter.data(), 0, sc.views(), &expect);
      for (uint32_t a = 0; a < sc.image_words(); a++) {
        if (!sb->check(cycle, "host.image[" + std::to_string(a) + "]", upload[a], expect[a])) break;
      }
      if (!sb->failed()) completed++;
    }
    all_done = true;
    sc_stop();
  }
};

// ---- the C-model scoreboard ----------------------------------------------------------------

SC_MODULE(ScoreboardModule) {
  sc_in<bool> clk;
  Wires *w = nullptr;
  Scoreboard *sb = nullptr;
  std::unique_ptr<pc::NetworkChecker> chk;
  pc::NetIn in;
  pc::NetOut out;
  uint64_t cycle = 0;

  SC_CTOR(ScoreboardModule) {
    SC_METHOD(sample);
    sensitive << clk.neg();
    dont_initialize();
  }

  // Mid-cycle: everything driven after the rising edge has settled.
  void sample() {
    if (sb->failed()) return;
    in.rst_n = w->rst_n.read();
    in.start = w->start.read();
    in.op = w->op.read();
    in.fast = w->fast.read();
    in.words = w->words.read();
    in.base = w->base.read();
    const uint32_t we = w->lcl_we.read();
    const sc_bv<kPes * 32> wdata = w->lcl_wdata.read();
    in.lcl_we.resize(kPes);
    in.lcl_wdata.resize(kPes);
    for (uint32_t j = 0; j < kPes; j++) {
      in.lcl_we[j] = (we >> j) & 1u;
      in.lcl_wdata[j] = wdata.get_word(j);
    }
    in.lcl_addr = w->lcl_addr.read();
    in.host_valid = w->host_valid_in.read();
    in.host_data = w->host_data_in.read();
    out.busy = w->busy.read();
    out.done = w->done.read();
    out.err = w->err.read();
    const uint32_t nch = 4 * kPes + 2;
    const uint64_t valid = w->ch_valid.read();
    const sc_bv<nch * 32> data = w->ch_data.read();
    out.ch_valid.resize(nch);
    out.ch_data.resize(nch);
    for (uint32_t c = 0; c < nch; c++) {
      out.ch_valid[c] = (valid >> c) & 1u;
      out.ch_data[c] = data.get_word(c);
    }
    out.host_req = w->host_req.read();
    out.host_req_addr = w->host_req_addr.read();
    out.host_addr = w->host_addr.read();
    const sc_bv<kPes * 32> rdata = w->lcl_rdata.read();
    out.lcl_rdata.resize(kPes);
    for (uint32_t j = 0; j < kPes; j++) out.lcl_rdata[j] = rdata.get_word(j);
    if (chk->cycle(cycle, in, out)) sb->matched_cycle();
    cycle++;
    if (sb->failed()) sc_stop();
  }
};

}  // namespace

int sc_main(int argc, char **argv) {
  Options opt("ps_system", 400000);
  opt.no_wave_window();
  opt.add_int("scenarios", 3,
              "FBP rounds (scatter, bcast-host, compute, integrate, allgather, upload)");
  uint64_t fault = pc::kNoFault;
  std::string err;
  if (!pc::take_fault_option(&argc, argv, &fault, &err)) {
    opt.reject(err);
    return opt.exit_code();
  }
  if (!opt.parse(argc, argv)) return opt.exit_code();
  if (opt.get("scenarios") == 0 || opt.get("scenarios") > 1000) {
    opt.invalid("--scenarios must be 1 .. 1000");
    return opt.exit_code();
  }
  // SystemC's own info messages ("Simulation stopped by user") would break the one-line output.
  sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
  Verilated::commandArgs(argc, argv);
  pinet::cosim::apply_power_up(Verilated::defaultContextp(), opt);
  if (!opt.wave().empty()) Verilated::traceEverOn(true);

  Scoreboard sb(opt);
  Wires w;
  std::unique_ptr<Vps_network_sc> dut(new Vps_network_sc("dut"));
  dut->clk_i(w.clk);
  dut->rst_ni(w.rst_n);
  dut->cmd_start_i(w.start);
  dut->cmd_op_i(w.op);
  dut->cmd_fast_i(w.fast);
  dut->cmd_words_i(w.words);
  dut->cmd_base_i(w.base);
  dut->busy_o(w.busy);
  dut->done_o(w.done);
  dut->err_o(w.err);
  dut->host_req_o(w.host_req);
  dut->host_req_addr_o(w.host_req_addr);
  dut->host_valid_i(w.host_valid_in);
  dut->host_data_i(w.host_data_in);
  dut->host_valid_o(w.host_valid_out);
  dut->host_data_o(w.host_data_out);
  dut->host_addr_o(w.host_addr);
  dut->lcl_we_i(w.lcl_we);
  dut->lcl_addr_i(w.lcl_addr);
  dut->lcl_wdata_i(w.lcl_wdata);
  dut->lcl_rdata_o(w.lcl_rdata);
  dut->ch_valid_o(w.ch_valid);
  dut->ch_data_o(w.ch_data);

  PeArray pes("pes");
  pes.clk(w.clk);
  pes.w = &w;
  Host host("host");
  host.clk(w.clk);
  host.w = &w;
  host.pes = &pes;
  host.sb = &sb;
  host.scenarios = (uint32_t)opt.get("scenarios");
  pinet_rng_seed(&host.rng, opt.seed());
  ScoreboardModule score("scoreboard");
  score.clk(w.clk);
  score.w = &w;
  score.sb = &sb;
  score.chk.reset(new pc::NetworkChecker(sb, kPes, kMemWords, fault));
  score.chk->set_host_image([&host] { return &host.image; });

  sc_start(SC_ZERO_TIME);
#if VM_TRACE
  std::unique_ptr<VerilatedFstSc> trace;
  if (!opt.wave().empty()) {
    trace.reset(new VerilatedFstSc);
    dut->trace(trace.get(), 99);
    if (!pinet::cosim::open_trace(*trace, opt)) trace.reset();
  }
#endif
  const auto t0 = std::chrono::steady_clock::now();
  sc_start(sc_time(10.0 * (double)opt.cycles(), SC_NS));
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!sb.failed() && !host.all_done)
    sb.fail(score.cycle, "timeout:scenarios_unfinished_after_--cycles");
#if VM_TRACE
  if (trace) trace->close();
#endif
  dut->final();
  pinet::cosim::write_coverage(dut->contextp());
  if (!opt.quiet()) {
    std::printf(
        "cosim %s: N %u MemWords %u (SystemC): %u of %u scenarios, %" PRIu64
        " collectives, %" PRIu64 " cycles in %.2f s (%.0f cycles/s); PE words read %" PRIu64
        ", written %" PRIu64 "; words moved %" PRIu64 ", memory words checked %" PRIu64 "\n",
        opt.block().c_str(), kPes, kMemWords, host.completed, host.scenarios, host.collectives,
        score.cycle, secs, secs > 0 ? (double)score.cycle / secs : 0.0, pes.words_read,
        pes.words_written, score.chk->words_moved(), score.chk->mem_reads());
  }
  return sb.finish();
}
