// cosim_recon_system.cpp - parallel PET reconstruction through the RTL: the SystemC system
// co-simulation of paper 000's parallel FBP (SPEC 6) in which every data exchange is executed by
// the Verilated rtl/ps_network (N = 2, 4, 8, 16; wrapped by recon_system_top.sv, which adds the
// phase for the waveform), compared every cycle with the C model, ending in an image checked bit
// for bit against pinet_fbp_parallel and the sequential fixed-point FBP (docs/system.md).
//
// Processes (one clock, 10 ns; every driver writes right after the rising edge):
//   host        SC_THREAD: downloads the sinogram (scatter of the views, float32 words), the
//               filter response and the fixed-point scale (bcast-host: each double as two words,
//               then the scale), starts the PE processors and waits, runs integration, all-to-all
//               broadcast and upload, finishes the image and checks it.
//   host_link   SC_METHOD: the host side of PE 0's host link (serves requests, keeps the words
//               that come up).
//   pe_port     SC_THREAD: the local ports (one address for all PEs): every PE reads its views
//               and the filter message out of its own router memory, then (after the compute)
//               writes its partial image back.
//   pe[j]       one SC_THREAD per PE: the C model's per-PE kernels (pinet_fbp_filter_views,
//               pinet_fbp_backproject_fixed) on what PE j read, then `--op-cycles` cycles per
//               pixel-view interpolation of simulated compute time.
//   scoreboard  SC_METHOD at every falling edge: pinet::cosim::ps::NetworkChecker (ps_cosim.h),
//               every channel, status, host request and local read against the C model.
// The last stdout line is the usual PASS/FAIL line (block recon_system).
// sc_spawn (one thread per PE) needs the dynamic-process API.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc.h>

#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "Vrecon_system_n16.h"
#include "Vrecon_system_n2.h"
#include "Vrecon_system_n4.h"
#include "Vrecon_system_n8.h"
#include "pinet/image.h"
#include "pinet/recon.h"
#include "pinet/recon_geom.h"
#include "pinet/recon_io.h"
#include "ps_cosim.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_fst_sc.h"
#endif

namespace {

namespace pc = pinet::cosim::ps;
using pinet::cosim::Options;
using pinet::cosim::Scoreboard;

constexpr uint32_t kMemWords = RS_MEMWORDS;  // words per router memory, every N

// The phases, as phase_i shows them (waves/filters/recon_phase.txt: same numbers and names).
enum Phase : uint32_t {
  kPhaseIdle = 0,
  kPhaseScatter = 1,
  kPhaseBcastHost = 2,
  kPhaseLoad = 3,
  kPhaseCompute = 4,
  kPhaseStore = 5,
  kPhaseIntegrate = 6,
  kPhaseAllgather = 7,
  kPhaseUpload = 8,
  kPhaseCount = 9,
};
const char *const kPhaseNames[kPhaseCount] = {"idle",    "scatter",   "bcast_host",
                                              "load",    "compute",   "store",
                                              "integrate", "allgather", "upload"};

// ---- the problem: sizes, data, references, computed before the simulation ------------------

struct Config {
  uint32_t pes = 0, size = 0, views = 0, iters = 0, op_cycles = 1;
  std::string algo, out, json, png;
  bool inject_mem_fault = false;
};

// Everything the host knows (it holds the sinogram) and what the checks compare against.
struct Problem {
  pinet_pb_geom g{};
  pinet_fbp *p = nullptr;              // the host's FBP object (scale, finish, references)
  std::vector<float> sino, phantom;    // V x D, S x S
  int frac_bits = 0;
  uint32_t vpp = 0;                    // views per PE (the last PEs may have fewer)
  uint32_t scatter_words = 0;          // vpp N D
  uint32_t filter_doubles = 0;         // P/2 + 1
  uint32_t filter_words = 0;           // 2 (P/2 + 1) + 1, rounded up to a multiple of log2 N
  uint32_t image_words = 0;            // S^2 rounded up to a multiple of N
  uint32_t base_filter = 0;            // scatter at 0, image at 0 (after the views are read)
  uint64_t disk = 0;                   // pixels of the reconstruction disk
  std::vector<uint32_t> scatter_msg;   // the host's scatter image
  std::vector<uint32_t> filter_msg;    // the host's bcast-host image
  std::vector<float> ref_parallel, ref_sequential;
  ~Problem() { pinet_fbp_free(p); }
};

uint32_t round_up(uint32_t x, uint32_t q) { return (x + q - 1) / q * q; }

uint32_t f32_bits(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

// Returns "" or a one-line reason (a usage error: exit 2).
std::string prepare(const Config &cfg, Problem *pr) {
  if (pinet_pb_geom_init(&pr->g, cfg.size, cfg.views, cfg.size) != PINET_OK)
    return "geometry " + std::to_string(cfg.size) + " x " + std::to_string(cfg.views) + " views";
  const uint32_t n = cfg.pes, d = cfg.size, v = cfg.views;
  uint32_t logn = 0;
  while ((1u << logn) < n) logn++;
  pr->vpp = (v + n - 1) / n;
  pr->scatter_words = pr->vpp * n * d;
  pr->image_words = round_up(cfg.size * cfg.size, n);
  if (pinet_fbp_create(&pr->g, PINET_FILTER_RAMP, &pr->p) != PINET_OK) return "FBP setup failed";
  pr->filter_doubles = pinet_fbp_padded_length(pr->p) / 2 + 1;
  pr->filter_words = round_up(2 * pr->filter_doubles + 1, logn);
  pr->base_filter = pr->scatter_words;
  const uint64_t need = std::max<uint64_t>((uint64_t)pr->scatter_words + pr->filter_words,
                                           pr->image_words);
  if (need > kMemWords)
    return "--size " + std::to_string(cfg.size) + " with --views " + std::to_string(v) +
           " needs " + std::to_string(need) + " words per router memory, MemWords is " +
           std::to_string(kMemWords);
  // The phantom's exact sinogram, as `pinet recon fbp --phantom shepp-logan` makes it.
  const pinet_ellipse *ell = nullptr;
  size_t nell = 0;
  (void)pinet_phantom_by_name("shepp-logan", &ell, &nell);
  pr->sino.assign((size_t)v * d, 0.0f);
  pr->phantom.assign((size_t)cfg.size * cfg.size, 0.0f);
  if (pinet_phantom_sinogram(ell, nell, &pr->g, 4, pr->sino.data()) != PINET_OK ||
      pinet_phantom_rasterize(ell, nell, cfg.size, pr->g.img_center, 4, pr->phantom.data()) !=
          PINET_OK)
    return "phantom sinogram failed";
  // The fixed-point scale, from every filtered view (the host has the whole sinogram).
  std::vector<float> filt((size_t)v * pinet_fbp_filtered_stride(pr->p));
  double largest = 0.0;
  if (pinet_fbp_filter_views(pr->p, nullptr, pr->sino.data(), v, filt.data()) != PINET_OK ||
      pinet_fbp_fixed_scale(pr->p, filt.data(), &pr->frac_bits, &largest) != PINET_OK)
    return "fixed-point scale failed";
  const double rad = (double)(cfg.size / 2u);
  for (uint32_t r = 0; r < cfg.size; r++)
    for (uint32_t c = 0; c < cfg.size; c++) {
      const double dr = r - pr->g.img_center, dc = c - pr->g.img_center;
      if (dr * dr + dc * dc <= rad * rad) pr->disk++;
    }
  // The two host messages.
  pr->scatter_msg.assign(pr->scatter_words, 0);
  for (size_t i = 0; i < pr->sino.size(); i++) pr->scatter_msg[i] = f32_bits(pr->sino[i]);
  pr->filter_msg.assign(pr->filter_words, 0);
  const double *h = pinet_fbp_response(pr->p);
  for (uint32_t k = 0; k < pr->filter_doubles; k++) {
    uint64_t bits;
    std::memcpy(&bits, &h[k], 8);
    pr->filter_msg[2 * k] = (uint32_t)bits;
    pr->filter_msg[2 * k + 1] = (uint32_t)(bits >> 32);
  }
  pr->filter_msg[2 * pr->filter_doubles] = (uint32_t)pr->frac_bits;
  // The references: the C model's parallel run and the sequential fixed-point FBP.
  const size_t npix = (size_t)cfg.size * cfg.size;
  pr->ref_parallel.assign(npix, 0.0f);
  pr->ref_sequential.assign(npix, 0.0f);
  if (pinet_fbp_parallel(pr->p, pr->sino.data(), n, PINET_RECON_FIXED, pr->frac_bits,
                         pr->ref_parallel.data(), nullptr, nullptr) != PINET_OK ||
      pinet_fbp_run_fixed(pr->p, pr->sino.data(), pr->frac_bits, pr->ref_sequential.data()) !=
          PINET_OK)
    return "C-model reference run failed";
  return "";
}

// ---- SystemC port types as Verilator makes them (bool; uint32_t to 32 bits; uint64_t to 64;
// sc_bv above), and 32-bit word access to each -------------------------------------------------

template <unsigned W>
using port_t =
    typename std::conditional<(W <= 32), uint32_t,
                              typename std::conditional<(W <= 64), uint64_t, sc_bv<W>>::type>::type;

inline uint32_t word_of(uint32_t v, unsigned i) { return i == 0 ? v : 0; }
inline uint32_t word_of(uint64_t v, unsigned i) { return (uint32_t)(v >> (32 * i)); }
template <int W>
inline uint32_t word_of(const sc_bv<W> &v, unsigned i) { return (uint32_t)v.get_word(i); }
inline bool bit_of(uint32_t v, unsigned i) { return (v >> i) & 1u; }
inline bool bit_of(uint64_t v, unsigned i) { return (v >> i) & 1u; }
template <int W>
inline bool bit_of(const sc_bv<W> &v, unsigned i) { return v[i].to_bool(); }
inline void set_word_of(uint32_t *v, unsigned i, uint32_t w) { if (i == 0) *v = w; }
inline void set_word_of(uint64_t *v, unsigned i, uint32_t w) {
  *v = (*v & ~((uint64_t)0xffffffffu << (32 * i))) | ((uint64_t)w << (32 * i));
}
template <int W>
inline void set_word_of(sc_bv<W> *v, unsigned i, uint32_t w) { v->set_word(i, w); }

// ---- the system ----------------------------------------------------------------------------

struct PhaseRecord {
  uint64_t cycles = 0, words = 0;
};

template <uint32_t N, class Dut>
struct ReconSystem : sc_module {
  static constexpr unsigned kCh = 4 * N + 2;
  // wires
  sc_clock clk{"clk", 10, SC_NS, 0.5, 0, SC_NS, true};
  sc_signal<bool> rst_n{"rst_n"}, start{"start"}, busy{"busy"}, done{"done"};
  sc_signal<uint32_t> phase{"phase"}, op{"op"}, words{"words"}, base{"base"}, err{"err"};
  sc_signal<bool> host_req{"host_req"}, host_valid_in{"host_valid_in"},
      host_valid_out{"host_valid_out"};
  sc_signal<uint32_t> host_req_addr{"host_req_addr"}, host_data_in{"host_data_in"};
  sc_signal<uint32_t> host_data_out{"host_data_out"}, host_addr{"host_addr"};
  sc_signal<uint32_t> lcl_we{"lcl_we"}, lcl_addr{"lcl_addr"};
  sc_signal<port_t<N * 32>> lcl_wdata{"lcl_wdata"}, lcl_rdata{"lcl_rdata"};
  sc_signal<port_t<kCh>> ch_valid{"ch_valid"};
  sc_signal<port_t<kCh * 32>> ch_data{"ch_data"};

  std::unique_ptr<Dut> dut;
  const Config &cfg;
  const Problem &pr;
  Scoreboard &sb;
  std::unique_ptr<pc::NetworkChecker> chk;
  uint64_t fault_cycle;

  // host state
  std::vector<uint32_t> host_image;  // what the host serves on its link
  std::vector<uint32_t> uploaded;    // what came up
  uint64_t cycle = 0;                // rising edges seen
  uint64_t sample_cycle = 0;         // falling edges sampled by the scoreboard
  bool all_done = false, run_ok = false;
  PhaseRecord phases[kPhaseCount];
  std::vector<float> image;          // the finished image (host)
  bool equals_parallel = false, equals_sequential = false;

  // PE state: what each PE read, its partial image, its work
  std::vector<std::vector<float>> pe_views;
  std::vector<std::vector<double>> pe_filter;
  std::vector<int32_t> pe_bits;
  std::vector<std::vector<int32_t>> pe_partial;
  std::vector<uint64_t> pe_work, pe_compute_cycles;
  std::vector<pinet_fbp *> pe_fbp;
  uint32_t pe_status[N] = {};

  SC_HAS_PROCESS(ReconSystem);
  ReconSystem(sc_module_name nm, const Config &c, const Problem &p, Scoreboard &s, uint64_t fault)
      : sc_module(nm), cfg(c), pr(p), sb(s), fault_cycle(fault), pe_views(N), pe_filter(N),
        pe_bits(N, 0), pe_partial(N), pe_work(N, 0), pe_compute_cycles(N, 0), pe_fbp(N, nullptr) {
    dut.reset(new Dut("dut"));
    dut->clk_i(clk);
    dut->rst_ni(rst_n);
    dut->phase_i(phase);
    dut->cmd_start_i(start);
    dut->cmd_op_i(op);
    dut->cmd_words_i(words);
    dut->cmd_base_i(base);
    dut->busy_o(busy);
    dut->done_o(done);
    dut->err_o(err);
    dut->host_req_o(host_req);
    dut->host_req_addr_o(host_req_addr);
    dut->host_valid_i(host_valid_in);
    dut->host_data_i(host_data_in);
    dut->host_valid_o(host_valid_out);
    dut->host_data_o(host_data_out);
    dut->host_addr_o(host_addr);
    dut->lcl_we_i(lcl_we);
    dut->lcl_addr_i(lcl_addr);
    dut->lcl_wdata_i(lcl_wdata);
    dut->lcl_rdata_o(lcl_rdata);
    dut->ch_valid_o(ch_valid);
    dut->ch_data_o(ch_data);
    chk.reset(new pc::NetworkChecker(sb, N, kMemWords, fault_cycle));
    chk->set_host_image([this] { return &host_image; });
    SC_THREAD(host_run);
    sensitive << clk.posedge_event();
    SC_METHOD(host_link);
    sensitive << clk.posedge_event();
    dont_initialize();
    SC_THREAD(pe_port);
    sensitive << clk.posedge_event();
    for (uint32_t j = 0; j < N; j++) {
      sc_spawn_options o;
      o.set_sensitivity(&clk.posedge_event());
      sc_spawn([this, j] { pe_run(j); }, sc_gen_unique_name("pe"), &o);
    }
    SC_METHOD(sample);
    sensitive << clk.negedge_event();
    dont_initialize();
  }
  ~ReconSystem() {
    for (auto *p : pe_fbp) pinet_fbp_free(p);
  }

  // ---- host -----------------------------------------------------------------------------

  void host_link() {
    const bool req = host_req.read();
    const uint32_t addr = host_req_addr.read();
    host_valid_in.write(req && rst_n.read());
    host_data_in.write(req && addr < host_image.size() ? host_image[addr] : 0);
    if (host_valid_out.read()) {
      const uint32_t a = host_addr.read();
      if (a < uploaded.size()) uploaded[a] = host_data_out.read();
    }
    cycle++;
  }

  // Run phase `ph` as one collective; false if refused.
  bool collective(Phase ph, uint32_t op_code, uint32_t m, uint32_t b) {
    const uint64_t c0 = cycle, w0 = chk->words_moved();
    phase.write(ph);
    op.write(op_code);
    words.write(m);
    base.write(b);
    start.write(true);
    wait();
    start.write(false);
    wait();  // the first cycle of the run: err_o shows the command's verdict
    if (err.read() != pc::kErrOk) {
      sb.fail(cycle, std::string("host:") + pc::op_name(op_code) + "_refused");
      return false;
    }
    while (!done.read()) wait();
    phases[ph].cycles += cycle - c0;
    phases[ph].words += chk->words_moved() - w0;
    return true;
  }

  // Let the PE side run one local phase (load, compute + store) and account it.
  void local_phase(Phase ph, sc_event &go, sc_event &finished) {
    const uint64_t c0 = cycle;
    phase.write(ph);
    go.notify(SC_ZERO_TIME);
    wait(finished);
    phases[ph].cycles += cycle - c0;
  }

  sc_event port_go, port_finished, compute_go, compute_finished;
  int port_job = 0;  // 1 load, 2 store

  void host_run() {
    phase.write(kPhaseIdle);
    rst_n.write(false);
    start.write(false);
    wait();
    wait();
    rst_n.write(true);
    wait();
    host_image = pr.scatter_msg;
    bool ok = collective(kPhaseScatter, PINET_SHUFFLE_OP_SCATTER, pr.scatter_words, 0);
    if (ok) {
      host_image = pr.filter_msg;
      ok = collective(kPhaseBcastHost, PINET_SHUFFLE_OP_BCAST_HOST, pr.filter_words,
                      pr.base_filter);
    }
    host_image.clear();
    if (ok) {
      port_job = 1;
      local_phase(kPhaseLoad, port_go, port_finished);
      local_phase(kPhaseCompute, compute_go, compute_finished);
      for (uint32_t j = 0; j < N; j++)
        if (pe_status[j] != PINET_OK) {
          sb.fail(cycle, "pe[" + std::to_string(j) + "]:kernel_status");
          ok = false;
        }
    }
    if (ok) {
      port_job = 2;
      if (cfg.inject_mem_fault) port_job = 3;  // the store of PE fault_pe() writes one flipped bit
      local_phase(kPhaseStore, port_go, port_finished);
      ok = collective(kPhaseIntegrate, PINET_SHUFFLE_OP_INTEGRATE, pr.image_words, 0);
    }
    if (ok) ok = collective(kPhaseAllgather, PINET_SHUFFLE_OP_ALLGATHER, pr.image_words, 0);
    if (ok) {
      uploaded.assign(pr.image_words, 0);
      host_image.assign(pr.image_words, 0);  // the host memory the upload fills (C model: zeros)
      ok = collective(kPhaseUpload, PINET_SHUFFLE_OP_UPLOAD, pr.image_words, 0);
      wait();
    }
    phase.write(kPhaseIdle);
    if (ok) finish_image();
    run_ok = ok;
    all_done = true;
    wait();
    sc_stop();
  }

  // The host's last step (pinet_fbp_finish_fixed on what came up), then the image checks.
  void finish_image() {
    const size_t npix = (size_t)cfg.size * cfg.size;
    image.assign(npix, 0.0f);
    std::vector<int32_t> acc(npix);
    for (size_t i = 0; i < npix; i++) acc[i] = (int32_t)uploaded[i];
    if (pinet_fbp_finish_fixed(pr.p, acc.data(), pr.frac_bits, image.data()) != PINET_OK) {
      sb.fail(cycle, "host:finish");
      return;
    }
    equals_parallel = std::memcmp(image.data(), pr.ref_parallel.data(), npix * 4) == 0;
    equals_sequential = std::memcmp(image.data(), pr.ref_sequential.data(), npix * 4) == 0;
    for (size_t i = 0; i < npix; i++) {
      if (f32_bits(image[i]) != f32_bits(pr.ref_parallel[i])) {
        sb.check(cycle, "host.image[" + std::to_string(i) + "]:vs_pinet_fbp_parallel",
                 f32_bits(image[i]), f32_bits(pr.ref_parallel[i]));
        break;
      }
    }
    if (equals_parallel && !equals_sequential) sb.fail(cycle, "host.image:vs_sequential_fixed_fbp");
  }

  // ---- PE side -------------------------------------------------------------------------

  // The PE whose stored partial image gets the injected memory fault (--inject-mem-fault).
  static constexpr uint32_t kFaultPe = N / 2;

  // Read `addr` of every router memory through the local port (combinational read).
  void read_row(uint32_t addr, std::vector<uint32_t> *row) {
    lcl_we.write(0);
    lcl_addr.write(addr);
    wait();
    const port_t<N * 32> v = lcl_rdata.read();
    for (uint32_t j = 0; j < N; j++) (*row)[j] = word_of(v, j);
  }

  void write_row(uint32_t addr, const std::vector<uint32_t> &row, uint32_t we) {
    port_t<N * 32> v{};
    for (uint32_t j = 0; j < N; j++) set_word_of(&v, j, row[j] ^ (j == hidden_flip_ ? 1u : 0u));
    lcl_we.write(we);
    lcl_addr.write(addr);
    lcl_wdata.write(v);
    wait();
  }

  void pe_port() {
    lcl_we.write(0);
    std::vector<uint32_t> row(N, 0);
    for (;;) {
      wait(port_go);
      wait();
      if (port_job == 1) {  // load: the views of PE j are words j seg .. (j+1) seg - 1
        const uint32_t seg = pr.vpp * pr.g.bins;
        for (uint32_t j = 0; j < N; j++) pe_views[j].assign(seg, 0.0f);
        for (uint32_t a = 0; a < pr.scatter_words; a++) {
          read_row(a, &row);
          const uint32_t j = a / seg;
          std::memcpy(&pe_views[j][a - j * seg], &row[j], 4);
        }
        std::vector<std::vector<uint32_t>> fw(N, std::vector<uint32_t>(pr.filter_words));
        for (uint32_t a = 0; a < pr.filter_words; a++) {
          read_row(pr.base_filter + a, &row);
          for (uint32_t j = 0; j < N; j++) fw[j][a] = row[j];
        }
        for (uint32_t j = 0; j < N; j++) {
          pe_filter[j].assign(pr.filter_doubles, 0.0);
          for (uint32_t k = 0; k < pr.filter_doubles; k++) {
            const uint64_t bits = (uint64_t)fw[j][2 * k] | ((uint64_t)fw[j][2 * k + 1] << 32);
            std::memcpy(&pe_filter[j][k], &bits, 8);
          }
          pe_bits[j] = (int32_t)fw[j][2 * pr.filter_doubles];
        }
      } else {  // store: PE j's partial image at 0 .. image_words - 1
        for (uint32_t a = 0; a < pr.image_words; a++) {
          for (uint32_t j = 0; j < N; j++)
            row[j] = a < pe_partial[j].size() ? (uint32_t)pe_partial[j][a] : 0;
          // The injected memory fault: PE kFaultPe's word of the image's middle goes into its
          // router memory with bit 0 flipped, while the scoreboard is shown the intended word
          // (a corrupted memory word that no local write explains): the run must fail where
          // the word is next used, and so must the image checks.
          hidden_flip_ = port_job == 3 && a == pr.image_words / 2 ? kFaultPe : UINT32_MAX;
          write_row(a, row, (1u << N) - 1);
          hidden_flip_ = UINT32_MAX;
        }
      }
      lcl_we.write(0);
      port_finished.notify(SC_ZERO_TIME);
    }
  }
  uint32_t hidden_flip_ = UINT32_MAX;  // the PE whose written word is flipped this cycle

  void pe_run(uint32_t j) {
    for (;;) {
      wait(compute_go);
      wait();
      const uint32_t first = j * pr.vpp;
      const uint32_t count =
          first >= cfg.views ? 0 : std::min(pr.vpp, cfg.views - first);
      pe_partial[j].assign(pr.image_words, 0);
      pe_status[j] = PINET_OK;
      pe_work[j] = 0;
      if (count > 0) {
        if (pe_fbp[j] == nullptr) pe_status[j] = pinet_fbp_create(&pr.g, PINET_FILTER_RAMP, &pe_fbp[j]);
        std::vector<float> filtered((size_t)count * pinet_fbp_filtered_stride(pr.p));
        if (pe_status[j] == PINET_OK)
          pe_status[j] = pinet_fbp_filter_views(pe_fbp[j], pe_filter[j].data(), pe_views[j].data(),
                                                count, filtered.data());
        if (pe_status[j] == PINET_OK)
          pe_status[j] = pinet_fbp_backproject_fixed(pe_fbp[j], filtered.data(), first, count,
                                                     pe_bits[j], pe_partial[j].data());
        pe_work[j] = (uint64_t)count * pr.disk;
      }
      pe_compute_cycles[j] = pe_work[j] * cfg.op_cycles;
      for (uint64_t c = 0; c < pe_compute_cycles[j]; c++) wait();
      if (++pe_done_count_ == N) {
        pe_done_count_ = 0;
        compute_finished.notify(SC_ZERO_TIME);
      }
    }
  }
  uint32_t pe_done_count_ = 0;

  // ---- scoreboard ------------------------------------------------------------------------

  pc::NetIn in;
  pc::NetOut out;

  void sample() {
    in.rst_n = rst_n.read();
    in.start = start.read();
    in.op = op.read();
    in.words = words.read();
    in.base = base.read();
    const uint32_t we = lcl_we.read();
    const port_t<N * 32> wdata = lcl_wdata.read();
    in.lcl_we.resize(N);
    in.lcl_wdata.resize(N);
    for (uint32_t j = 0; j < N; j++) {
      in.lcl_we[j] = (we >> j) & 1u;
      in.lcl_wdata[j] = word_of(wdata, j) ^ (j == hidden_flip_ ? 1u : 0u);  // hide the fault
    }
    in.lcl_addr = lcl_addr.read();
    in.host_valid = host_valid_in.read();
    in.host_data = host_data_in.read();
    out.busy = busy.read();
    out.done = done.read();
    out.err = err.read();
    const port_t<kCh> valid = ch_valid.read();
    const port_t<kCh * 32> data = ch_data.read();
    out.ch_valid.resize(kCh);
    out.ch_data.resize(kCh);
    for (uint32_t c = 0; c < kCh; c++) {
      out.ch_valid[c] = bit_of(valid, c);
      out.ch_data[c] = word_of(data, c);
    }
    out.host_req = host_req.read();
    out.host_req_addr = host_req_addr.read();
    out.host_addr = host_addr.read();
    const port_t<N * 32> rdata = lcl_rdata.read();
    out.lcl_rdata.resize(N);
    for (uint32_t j = 0; j < N; j++) out.lcl_rdata[j] = word_of(rdata, j);
    if (!sb.failed() && chk->cycle(sample_cycle, in, out)) sb.matched_cycle();
    sample_cycle++;
    // A failure stops the run, except with the injected memory fault: that run goes on to the
    // image checks, which must fail too.
    if (sb.failed() && !cfg.inject_mem_fault) sc_stop();
  }
};

}  // namespace

namespace {

// Remove the flag `name` from argv; true if it was there.
bool take_flag(int *argc, char **argv, const char *name) {
  bool found = false;
  int out = 1;
  for (int i = 1; i < *argc; i++) {
    if (std::strcmp(argv[i], name) == 0)
      found = true;
    else
      argv[out++] = argv[i];
  }
  *argc = out;
  return found;
}

// Phantom | reconstruction (both on the phantom's grey scale) | |difference| (on its own
// maximum, printed in the summary), side by side with 2-pixel gaps.
pinet_status write_png(const std::string &path, const Problem &pr, const std::vector<float> &img,
                       uint32_t s, double *diff_max) {
  const uint32_t gap = 2, w = 3 * s + 2 * gap;
  float lo = pr.phantom[0], hi = pr.phantom[0];
  for (float v : pr.phantom) lo = std::min(lo, v), hi = std::max(hi, v);
  double dm = 0.0;
  for (size_t i = 0; i < img.size(); i++) dm = std::max(dm, std::fabs((double)img[i] - pr.phantom[i]));
  *diff_max = dm;
  pinet_image *im = nullptr;
  pinet_status st = pinet_image_create(&im, w, s);
  if (st != PINET_OK) return st;
  auto clamp01 = [](double v) { return (float)std::min(1.0, std::max(0.0, v)); };
  for (uint32_t r = 0; r < s; r++)
    for (uint32_t c = 0; c < s; c++) {
      const size_t i = (size_t)r * s + c;
      float *row = im->pixels + (size_t)r * w;
      row[c] = clamp01((pr.phantom[i] - lo) / (hi - lo));
      row[s + gap + c] = clamp01((img[i] - lo) / (hi - lo));
      row[2 * (s + gap) + c] = clamp01(dm > 0 ? std::fabs((double)img[i] - pr.phantom[i]) / dm : 0);
    }
  for (uint32_t r = 0; r < s; r++)
    for (uint32_t g = 0; g < gap; g++) {
      im->pixels[(size_t)r * w + s + g] = 1.0f;
      im->pixels[(size_t)r * w + 2 * s + gap + g] = 1.0f;
    }
  pinet_image_write_opts o = {0, 0.0f, 1.0f, 8};
  st = pinet_image_write(im, path.c_str(), PINET_IMAGE_FORMAT_PNG, &o);
  pinet_image_free(im);
  return st;
}

template <uint32_t N, class Dut>
int run_system(const Config &cfg, const Problem &pr, const Options &opt, uint64_t fault) {
  Scoreboard sb(opt);
  ReconSystem<N, Dut> sys("system", cfg, pr, sb, fault);
  sc_start(SC_ZERO_TIME);
#if VM_TRACE
  std::unique_ptr<VerilatedFstSc> trace;
  if (!opt.wave().empty()) {
    trace.reset(new VerilatedFstSc);
    sys.dut->trace(trace.get(), 99);
    trace->open(opt.wave().c_str());
  }
#endif
  const auto t0 = std::chrono::steady_clock::now();
  sc_start(sc_time(10.0 * (double)opt.cycles(), SC_NS));
  const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (!sb.failed() && !sys.all_done) sb.fail(sys.sample_cycle, "timeout:run_unfinished_after_--cycles");
#if VM_TRACE
  if (trace) trace->close();
#endif
  sys.dut->final();
  pinet::cosim::write_coverage(sys.dut->contextp());

  // Figures: cycles per phase, compute, efficiencies (docs/system.md).
  uint64_t total = 0, io = 0;
  for (uint32_t ph = 1; ph < kPhaseCount; ph++) total += sys.phases[ph].cycles;
  for (Phase ph : {kPhaseScatter, kPhaseBcastHost, kPhaseLoad, kPhaseStore, kPhaseUpload})
    io += sys.phases[ph].cycles;
  uint64_t work = 0;
  for (uint32_t j = 0; j < N; j++) work += sys.pe_work[j];
  const double t_seq = (double)work * cfg.op_cycles;  // t0 of eq. (4), in cycles
  uint32_t logn = 0;
  while ((1u << logn) < N) logn++;
  const double eff_measured = total ? t_seq / ((double)N * (double)total) : 0.0;
  const double eff_model =
      t_seq / (t_seq + 2.0 * (N - 1) * (double)pr.image_words + 2.0 * N * logn + (double)N * io);
  const bool have_image = sys.image.size() == (size_t)cfg.size * cfg.size;
  const double rmse =
      have_image ? pinet_rmse_disk(sys.image.data(), pr.phantom.data(), cfg.size, pr.g.img_center)
                 : NAN;
  const bool pass = !sb.failed() && sys.run_ok;
  int rc_files = 0;
  if (pass && !cfg.out.empty()) {  // written only after a passing run: nothing half-made
    const pinet_status st =
        pinet_recon_image_write(cfg.out.c_str(), sys.image.data(), cfg.size, pr.g.img_center);
    if (st != PINET_OK) {
      std::fprintf(stderr, "cosim recon_system: cannot write '%s': %s\n", cfg.out.c_str(),
                   pinet_status_str(st));
      rc_files = 1;
    }
  }
  double diff_max = NAN;
  if (pass && !cfg.png.empty()) {
    const pinet_status st = write_png(cfg.png, pr, sys.image, cfg.size, &diff_max);
    if (st != PINET_OK) {
      std::fprintf(stderr, "cosim recon_system: cannot write '%s': %s\n", cfg.png.c_str(),
                   pinet_status_str(st));
      rc_files = 1;
    }
  }
  if (!cfg.json.empty()) {
    FILE *f = std::fopen(cfg.json.c_str(), "w");
    if (f == nullptr) {
      std::fprintf(stderr, "cosim recon_system: cannot write '%s'\n", cfg.json.c_str());
      rc_files = 1;
    } else {
      std::fprintf(f, "{\"algo\": \"%s\", \"pes\": %u, \"size\": %u, \"views\": %u, \"iters\": %u, ",
                   cfg.algo.c_str(), N, cfg.size, cfg.views, cfg.iters);
      std::fprintf(f, "\"cycles_total\": %" PRIu64 ", \"cycles_compute\": %" PRIu64 ", \"phases\": [",
                   total, sys.phases[kPhaseCompute].cycles);
      for (uint32_t ph = 1; ph < kPhaseCount; ph++)
        std::fprintf(f, "%s{\"name\": \"%s\", \"cycles\": %" PRIu64 ", \"words\": %" PRIu64 "}",
                     ph > 1 ? ", " : "", kPhaseNames[ph], sys.phases[ph].cycles, sys.phases[ph].words);
      std::fprintf(f, "], \"efficiency_measured\": %.6f, \"efficiency_model\": %.6f, ", eff_measured,
                   eff_model);
      if (std::isfinite(rmse)) std::fprintf(f, "\"rmse\": %.17g, ", rmse);
      else std::fprintf(f, "\"rmse\": null, ");
      std::fprintf(f, "\"op_cycles\": %u, \"mem_words\": %u, \"frac_bits\": %d, \"work\": %" PRIu64
                   ", \"image_equals_parallel\": %s, \"image_equals_sequential\": %s, "
                   "\"result\": \"%s\"}\n",
                   cfg.op_cycles, kMemWords, pr.frac_bits, work,
                   sys.equals_parallel ? "true" : "false", sys.equals_sequential ? "true" : "false",
                   pass ? "PASS" : "FAIL");
      if (std::fclose(f) != 0) rc_files = 1;
    }
  }
  if (!opt.quiet()) {
    std::printf("cosim recon_system: %s, N %u, %u x %u image, %u views (SystemC, MemWords %u, "
                "%u cycle(s) per pixel-view): %" PRIu64 " cycles in %.2f s (%.0f cycles/s)\n",
                cfg.algo.c_str(), N, cfg.size, cfg.size, cfg.views, kMemWords, cfg.op_cycles,
                sys.sample_cycle, secs, secs > 0 ? (double)sys.sample_cycle / secs : 0.0);
    std::printf("  %-11s %10s %10s\n", "phase", "cycles", "words");
    for (uint32_t ph = 1; ph < kPhaseCount; ph++)
      std::printf("  %-11s %10" PRIu64 " %10" PRIu64 "\n", kPhaseNames[ph], sys.phases[ph].cycles,
                  sys.phases[ph].words);
    std::printf("  %-11s %10" PRIu64 "\n", "total", total);
    std::printf("  image: %s pinet_fbp_parallel --fixed, %s the sequential fixed-point FBP; "
                "rmse vs phantom %.6f\n",
                sys.equals_parallel ? "equals" : "DIFFERS FROM",
                sys.equals_sequential ? "equals" : "DIFFERS FROM", rmse);
    std::printf("  efficiency: measured %.4f, eq. (4) model %.4f (a = 1, b = 0, c = 1 cycle; "
                "t_IO = host and local-port I/O cycles)\n", eff_measured, eff_model);
    if (std::isfinite(diff_max))
      std::printf("  %s: phantom | image | |difference| (white = %.4f)\n", cfg.png.c_str(), diff_max);
  }
  const int rc = sb.finish();
  return rc != 0 ? rc : rc_files;
}

}  // namespace

int sc_main(int argc, char **argv) {
  Options opt("recon_system", 20000000);
  opt.add_string("algo", "", "fbp (em: not yet)");
  opt.add_int("pes", 8, "PEs (routers): 2, 4, 8 or 16");
  opt.add_int("size", 32, "image side S (the sinogram has S bins)");
  opt.add_int("views", 32, "views V (at least N)");
  opt.add_int("iters", 0, "EM iterations");
  opt.add_int("op-cycles", 1, "simulated cycles per pixel-view interpolation of a PE");
  opt.add_string("out", "", "write the image as `pinet recon ... --out` does (after a PASS)");
  opt.add_string("json", "", "write the JSON summary");
  opt.add_string("png", "", "write phantom | image | difference as PNG (after a PASS)");
  uint64_t fault = pc::kNoFault;
  std::string err;
  if (!pc::take_fault_option(&argc, argv, &fault, &err)) {
    opt.reject(err);
    return opt.exit_code();
  }
  Config cfg;
  cfg.inject_mem_fault = take_flag(&argc, argv, "--inject-mem-fault");
  if (!opt.parse(argc, argv)) return opt.exit_code();
  cfg.algo = opt.get_string("algo");
  cfg.out = opt.get_string("out");
  cfg.json = opt.get_string("json");
  cfg.png = opt.get_string("png");
  const uint64_t pes = opt.get("pes"), size = opt.get("size"), views = opt.get("views");
  const uint64_t iters = opt.get("iters"), op_cycles = opt.get("op-cycles");
  if (cfg.algo.empty()) return opt.reject("--algo fbp is required"), opt.exit_code();
  if (cfg.algo == "em")
    return opt.reject("--algo em: the EM system run is not built yet (issue 10)"), opt.exit_code();
  if (cfg.algo != "fbp") return opt.reject("--algo '" + cfg.algo + "': expected fbp"), opt.exit_code();
  if (pes != 2 && pes != 4 && pes != 8 && pes != 16)
    return opt.reject("--pes " + std::to_string(pes) + ": the system is built for N = 2, 4, 8, 16"),
           opt.exit_code();
  if (size < 4 || size > 1024)
    return opt.reject("--size " + std::to_string(size) + ": expected 4 .. 1024"), opt.exit_code();
  if (views < pes || views > 4096)
    return opt.reject("--views " + std::to_string(views) + ": expected " + std::to_string(pes) +
                      " (N) .. 4096"),
           opt.exit_code();
  if (op_cycles > 1000)
    return opt.reject("--op-cycles " + std::to_string(op_cycles) + ": expected 0 .. 1000"),
           opt.exit_code();
  if (iters != 0) return opt.reject("--iters goes with --algo em"), opt.exit_code();
  cfg.pes = (uint32_t)pes;
  cfg.size = (uint32_t)size;
  cfg.views = (uint32_t)views;
  cfg.op_cycles = (uint32_t)op_cycles;
  Problem pr;
  const std::string why = prepare(cfg, &pr);
  if (!why.empty()) return opt.reject(why), opt.exit_code();

  // SystemC's own info messages ("Simulation stopped by user") would break the one-line output.
  sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
  Verilated::commandArgs(argc, argv);
  if (!opt.wave().empty()) Verilated::traceEverOn(true);
  switch (cfg.pes) {
    case 2: return run_system<2, Vrecon_system_n2>(cfg, pr, opt, fault);
    case 4: return run_system<4, Vrecon_system_n4>(cfg, pr, opt, fault);
    case 8: return run_system<8, Vrecon_system_n8>(cfg, pr, opt, fault);
    default: return run_system<16, Vrecon_system_n16>(cfg, pr, opt, fault);
  }
}
