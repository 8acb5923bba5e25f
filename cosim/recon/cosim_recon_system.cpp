// cosim_recon_system.cpp - parallel PET reconstruction through the RTL: the SystemC system
// co-simulation of paper 000's parallel FBP and EM (SPEC 6) in which every data exchange is
// executed by the Verilated rtl/ps_network (N = 2, 4, 8, 16; 32 in long builds; wrapped by
// recon_system_top.sv, which adds the phase and the EM iteration for the waveform), compared
// every cycle with the C model, ending in an image checked bit for bit against the C model's
// parallel run and its sequential fixed-point run (docs/system.md).
//
// Processes (one clock, 10 ns; every driver writes right after the rising edge):
//   host        SC_THREAD: the algorithm's sequence of phases (fbp_host / em_host): collectives
//               on the network, local phases on the PE side; at the end it finishes the image
//               and checks it.
//   host_link   SC_METHOD: the host side of PE 0's host link (serves requests, keeps the words
//               that come up).
//   pe_port     SC_THREAD: the local ports (one address for all PEs): runs the host's current
//               port job (which rows to read into the PEs' state or write from it).
//   pe[j]       one SC_THREAD per PE: runs the current compute job on PE j's own state (the C
//               model's per-PE kernels), then waits `--op-cycles` cycles per unit of work.
//   scoreboard  SC_METHOD at every falling edge: pinet::cosim::ps::NetworkChecker (ps_cosim.h),
//               every channel, status, host request and local read against the C model.
// FBP: scatter of the views, bcast-host of the filter; per PE filtering and backprojection into
// a replicated fixed-point image; integrate, allgather, upload. EM (modified partition by box,
// fixed point): bcast-host of the counts; per iteration S1 -> integrate -> S2 -> allgather ->
// S3 -> ring exchange -> S4; then the image is integrated and uploaded.
// The last stdout line is the usual PASS/FAIL line (block recon_system).
// sc_spawn (one thread per PE) needs the dynamic-process API.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include <systemc.h>

#include <cerrno>
#include <chrono>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "recon_models.h"  // RECON_MODELS(X): X(N, Vname, MemWords) per model of this build
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

// Words per router memory of the model for N PEs (0: no such model in this build).
constexpr uint32_t mem_words_of(uint32_t n) {
#define RS_MEM_WORDS(n_pes, vname, words) (n == (n_pes)) ? (uint32_t)(words) :
  return RECON_MODELS(RS_MEM_WORDS) 0u;
#undef RS_MEM_WORDS
}
constexpr uint32_t kEmDefaultIters = 10;     // as `pinet recon em`

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
  kPhaseRingExchange = 9,
  kPhaseIntegrateImage = 10,
  kPhaseCount = 11,
};
const char *const kPhaseNames[kPhaseCount] = {
    "idle",      "scatter", "bcast_host", "load",          "compute",        "store",
    "integrate", "allgather", "upload",   "ring_exchange", "integrate_image"};

// The phases each algorithm reports (JSON "phases", the table), in run order.
const std::vector<Phase> kFbpPhases = {kPhaseScatter, kPhaseBcastHost, kPhaseLoad,
                                       kPhaseCompute, kPhaseStore,     kPhaseIntegrate,
                                       kPhaseAllgather, kPhaseUpload};
const std::vector<Phase> kEmPhases = {kPhaseBcastHost,  kPhaseLoad,          kPhaseCompute,
                                      kPhaseStore,      kPhaseIntegrate,     kPhaseAllgather,
                                      kPhaseRingExchange, kPhaseIntegrateImage, kPhaseUpload};

// ---- the problem: sizes, data, references, computed before the simulation ------------------

struct Config {
  uint32_t pes = 0, size = 0, views = 0, iters = 0, op_cycles = 1;
  std::string algo, out, json, png;
  bool inject_mem_fault = false;
  bool em() const { return algo == "em"; }
};

// Everything the host knows (it holds the sinogram) and what the checks compare against.
struct Problem {
  pinet_pb_geom g{};
  std::vector<float> phantom;          // S x S
  std::vector<float> ref_parallel, ref_sequential;  // the final images of the references
  int frac_bits = 0;                   // the fixed-point scale (FBP: of the filtered views)
  uint64_t disk = 0;                   // pixels of the reconstruction disk
  // FBP
  pinet_fbp *p = nullptr;              // the host's FBP object (scale, finish, references)
  std::vector<float> sino;             // V x D
  uint32_t vpp = 0;                    // views per PE (the last PEs may have fewer)
  uint32_t scatter_words = 0;          // vpp N D
  uint32_t filter_doubles = 0;         // P/2 + 1
  uint32_t filter_words = 0;           // 2 (P/2 + 1) + 1, rounded up to a multiple of log2 N
  uint32_t image_words = 0;            // S^2 rounded up to a multiple of N
  uint32_t base_filter = 0;            // scatter at 0, image at 0 (after the views are read)
  std::vector<uint32_t> scatter_msg;   // the host's scatter image
  std::vector<uint32_t> filter_msg;    // the host's bcast-host image
  // EM
  pinet_sysmat *m = nullptr;
  pinet_csr bb{};                      // the matrix by box
  uint32_t tubes = 0, boxes = 0;
  uint32_t tpad = 0, bpad = 0;         // tubes, boxes rounded up to a multiple of N
  uint32_t counts_words = 0;           // the counts message: T + 3, a multiple of log2 N
  std::vector<double> counts;          // per tube (float32 values)
  double v0 = 0.0;                     // the uniform start image
  std::vector<pinet_em_segment> seg;   // seg[r]: ring position r
  std::vector<uint32_t> counts_msg;    // the host's bcast-host image: counts, v0, bits
  std::vector<double> lam_parallel, lam_sequential;  // per box
  uint32_t fault_tube = 0;             // the tube whose S1 sum --inject-mem-fault flips
  ~Problem() {
    pinet_fbp_free(p);
    pinet_sysmat_free(m);
  }
};

uint32_t round_up(uint32_t x, uint32_t q) { return (x + q - 1) / q * q; }

uint32_t f32_bits(float f) {
  uint32_t w;
  std::memcpy(&w, &f, 4);
  return w;
}

float f32_of(uint32_t w) {
  float f;
  std::memcpy(&f, &w, 4);
  return f;
}

uint64_t f64_bits(double d) {
  uint64_t w;
  std::memcpy(&w, &d, 8);
  return w;
}

double f64_of(uint32_t lo, uint32_t hi) {
  const uint64_t w = (uint64_t)lo | ((uint64_t)hi << 32);
  double d;
  std::memcpy(&d, &w, 8);
  return d;
}

uint32_t log2_of(uint32_t n) {
  uint32_t k = 0;
  while ((1u << k) < n) k++;
  return k;
}

// Why a request cannot be prepared: PINET_EXIT_INPUT (it does not fit the system) or
// PINET_EXIT_INTERNAL (the C model failed on a request it accepts), and a one-line reason.
struct Refusal {
  int code = PINET_EXIT_OK;
  std::string msg;
};
Refusal refuse(int code, const std::string &msg) { return Refusal{code, msg}; }

std::string too_large(const Config &cfg, uint64_t need) {
  return "--size " + std::to_string(cfg.size) + " with --views " + std::to_string(cfg.views) +
         " needs " + std::to_string(need) + " words per router memory, MemWords is " +
         std::to_string(mem_words_of(cfg.pes));
}

// The phantom and its reconstruction disk (both algorithms).
Refusal prepare_phantom(const Config &cfg, Problem *pr) {
  const pinet_ellipse *ell = nullptr;
  size_t nell = 0;
  (void)pinet_phantom_by_name("shepp-logan", &ell, &nell);
  pr->phantom.assign((size_t)cfg.size * cfg.size, 0.0f);
  if (pinet_phantom_rasterize(ell, nell, cfg.size, pr->g.img_center, 4, pr->phantom.data()) !=
      PINET_OK)
    return refuse(PINET_EXIT_INTERNAL, "phantom failed");
  const double rad = (double)(cfg.size / 2u);
  for (uint32_t r = 0; r < cfg.size; r++)
    for (uint32_t c = 0; c < cfg.size; c++) {
      const double dr = r - pr->g.img_center, dc = c - pr->g.img_center;
      if (dr * dr + dc * dc <= rad * rad) pr->disk++;
    }
  return {};
}

// Returns {} or the exit code and a one-line reason.
Refusal prepare_fbp(const Config &cfg, Problem *pr) {
  const uint32_t n = cfg.pes, d = cfg.size, v = cfg.views;
  const uint32_t logn = log2_of(n);
  pr->vpp = (v + n - 1) / n;
  pr->scatter_words = pr->vpp * n * d;
  pr->image_words = round_up(cfg.size * cfg.size, n);
  if (pinet_fbp_create(&pr->g, PINET_FILTER_RAMP, &pr->p) != PINET_OK)
    return refuse(PINET_EXIT_INTERNAL, "FBP setup failed");
  pr->filter_doubles = pinet_fbp_padded_length(pr->p) / 2 + 1;
  pr->filter_words = round_up(2 * pr->filter_doubles + 1, logn);
  pr->base_filter = pr->scatter_words;
  const uint64_t need = std::max<uint64_t>((uint64_t)pr->scatter_words + pr->filter_words,
                                           pr->image_words);
  if (need > mem_words_of(n)) return refuse(PINET_EXIT_INPUT, too_large(cfg, need));
  // The phantom's exact sinogram, as `pinet recon fbp --phantom shepp-logan` makes it.
  const pinet_ellipse *ell = nullptr;
  size_t nell = 0;
  (void)pinet_phantom_by_name("shepp-logan", &ell, &nell);
  pr->sino.assign((size_t)v * d, 0.0f);
  if (pinet_phantom_sinogram(ell, nell, &pr->g, 4, pr->sino.data()) != PINET_OK)
    return refuse(PINET_EXIT_INTERNAL, "phantom sinogram failed");
  // The fixed-point scale, from every filtered view (the host has the whole sinogram).
  std::vector<float> filt((size_t)v * pinet_fbp_filtered_stride(pr->p));
  double largest = 0.0;
  if (pinet_fbp_filter_views(pr->p, nullptr, pr->sino.data(), v, filt.data()) != PINET_OK ||
      pinet_fbp_fixed_scale(pr->p, filt.data(), &pr->frac_bits, &largest) != PINET_OK)
    return refuse(PINET_EXIT_INTERNAL, "fixed-point scale failed");
  // The two host messages.
  pr->scatter_msg.assign(pr->scatter_words, 0);
  for (size_t i = 0; i < pr->sino.size(); i++) pr->scatter_msg[i] = f32_bits(pr->sino[i]);
  pr->filter_msg.assign(pr->filter_words, 0);
  const double *h = pinet_fbp_response(pr->p);
  for (uint32_t k = 0; k < pr->filter_doubles; k++) {
    const uint64_t bits = f64_bits(h[k]);
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
    return refuse(PINET_EXIT_INTERNAL, "C-model reference run failed");
  return {};
}

Refusal prepare_em(const Config &cfg, Problem *pr) {
  const uint32_t n = cfg.pes;
  if (pinet_sysmat_create_parallel(&pr->g, PINET_BOXES_DISK, &pr->m) != PINET_OK)
    return refuse(PINET_EXIT_INTERNAL, "system matrix failed");
  pr->bb = pinet_sysmat_by_box(pr->m);
  pr->tubes = pinet_sysmat_tubes(pr->m);
  pr->boxes = pinet_sysmat_boxes(pr->m);
  pr->tpad = round_up(pr->tubes, n);
  pr->bpad = round_up(pr->boxes, n);
  pr->counts_words = round_up(pr->tubes + 3, log2_of(n));
  // One image at base 0 per phase: the counts message, the S1 sums (int32), the correction
  // factors and the final image (doubles, two words each), the ring's 4 words.
  const uint64_t need = std::max<uint64_t>(
      {pr->counts_words, 2ull * pr->tpad, 2ull * pr->bpad, 4ull});
  if (need > mem_words_of(n)) return refuse(PINET_EXIT_INPUT, too_large(cfg, need));
  pr->seg.resize(n);
  if (pinet_em_segments(pr->m, n, PINET_EM_PARTITION_MODIFIED, pr->seg.data()) != PINET_OK)
    return refuse(PINET_EXIT_INPUT, "--pes " + std::to_string(n) +
                                        " is too many PEs for this matrix (a box would span "
                                        "three PEs)");
  // The counts, as `pinet recon em --phantom shepp-logan` makes them: each tube's count is the
  // exact line integral of its line (float32).
  const pinet_ellipse *ell = nullptr;
  size_t nell = 0;
  (void)pinet_phantom_by_name("shepp-logan", &ell, &nell);
  std::vector<float> line_vals(pinet_sysmat_lines(pr->m));
  if (pinet_phantom_sinogram(ell, nell, &pr->g, 1, line_vals.data()) != PINET_OK)
    return refuse(PINET_EXIT_INTERNAL, "phantom sinogram failed");
  const uint32_t *tline = pinet_sysmat_tube_line(pr->m);
  pr->counts.assign(pr->tubes, 0.0);
  double total = 0.0, largest = -1.0;
  for (uint32_t t = 0; t < pr->tubes; t++) {
    pr->counts[t] = line_vals[tline[t]];
    total += pr->counts[t];
    if (pr->counts[t] > largest) largest = pr->counts[t], pr->fault_tube = t;
  }
  if (!pinet_em_fixed_total_ok(total))
    return refuse(PINET_EXIT_INPUT, "the counts' total leaves the fixed-point range");
  pr->frac_bits = pinet_em_fixed_bits(total);
  std::vector<double> sens(pr->boxes);
  pinet_em_sensitivity(&pr->bb, sens.data());
  double stot = 0.0;
  for (uint32_t b = 0; b < pr->boxes; b++) stot += sens[b];
  pr->v0 = (total > 0 && stot > 0) ? total / stot : 1.0;  // pinet_em_parallel's start image
  // The host message: the counts as float32 words, the start value, the scale.
  pr->counts_msg.assign(pr->counts_words, 0);
  for (uint32_t t = 0; t < pr->tubes; t++) pr->counts_msg[t] = f32_bits(line_vals[tline[t]]);
  const uint64_t vbits = f64_bits(pr->v0);
  pr->counts_msg[pr->tubes] = (uint32_t)vbits;
  pr->counts_msg[pr->tubes + 1] = (uint32_t)(vbits >> 32);
  pr->counts_msg[pr->tubes + 2] = (uint32_t)pr->frac_bits;
  // The references: the C model's parallel EM (modified partition, as the CLI's default) and
  // the sequential fixed-point EM, K iterations each.
  pr->lam_parallel.assign(pr->boxes, 0.0);
  if (pinet_em_parallel(pr->m, pr->counts.data(), cfg.iters, n, PINET_EM_PARTITION_MODIFIED,
                        PINET_RECON_FIXED, pr->lam_parallel.data(), nullptr, nullptr,
                        nullptr) != PINET_OK)
    return refuse(PINET_EXIT_INTERNAL, "C-model reference run failed");
  pinet_em *em = nullptr;
  const pinet_em_opts o = {1, PINET_RECON_FIXED, 0};
  pinet_status st = pinet_em_create(pr->m, pr->counts.data(), &o, &em);
  for (uint32_t it = 0; it < cfg.iters && st == PINET_OK; it++) st = pinet_em_iterate(em, nullptr);
  if (st == PINET_OK) pr->lam_sequential.assign(pinet_em_image(em), pinet_em_image(em) + pr->boxes);
  pinet_em_free(em);
  if (st != PINET_OK) return refuse(PINET_EXIT_INTERNAL, "C-model sequential reference failed");
  const size_t npix = (size_t)cfg.size * cfg.size;
  pr->ref_parallel.assign(npix, 0.0f);
  pr->ref_sequential.assign(npix, 0.0f);
  pinet_em_to_image(pr->m, pr->lam_parallel.data(), pr->ref_parallel.data());
  pinet_em_to_image(pr->m, pr->lam_sequential.data(), pr->ref_sequential.data());
  return {};
}

Refusal prepare(const Config &cfg, Problem *pr) {
  if (pinet_pb_geom_init(&pr->g, cfg.size, cfg.views, cfg.size) != PINET_OK)
    return refuse(PINET_EXIT_INPUT, "geometry " + std::to_string(cfg.size) + " x " +
                                        std::to_string(cfg.views) + " views");
  Refusal why = cfg.em() ? prepare_em(cfg, pr) : prepare_fbp(cfg, pr);
  if (why.code == PINET_EXIT_OK) why = prepare_phantom(cfg, pr);
  return why;
}

// ---- SystemC port types as Verilator makes them (bool; uint32_t to 32 bits; uint64_t to 64;
// sc_bv above) ---------------------------------------------------------------------------------

template <unsigned W>
using port_t =
    typename std::conditional<(W <= 32), uint32_t,
                              typename std::conditional<(W <= 64), uint64_t, sc_bv<W>>::type>::type;

// Bit and word access to each: cosim/common/wide_port.h (through ps_cosim.h).
using pinet::cosim::get_bit;
using pinet::cosim::get_word;
using pinet::cosim::set_word;

// ---- the system ----------------------------------------------------------------------------

struct PhaseRecord {
  uint64_t cycles = 0, words = 0;
};

// One PE's own state (its processor's memory, apart from its router's).
struct PeState {
  pinet_status status = PINET_OK;
  uint64_t work = 0;             // units of --op-cycles done (all phases)
  // FBP
  std::vector<float> views;
  std::vector<double> filter;
  int32_t bits = 0;
  std::vector<int32_t> partial;  // the replicated fixed-point image
  pinet_fbp *fbp = nullptr;
  // EM
  std::vector<double> counts;    // every tube's count (from the broadcast)
  std::vector<double> lam;       // every box (only the segment's boxes are kept current)
  std::vector<int32_t> nbar;     // S1: the replicated projection (tpad), then the own segment
  std::vector<double> ratio;     // S2/S3: every tube's correction factor (tpad)
  std::vector<int32_t> upart;    // S3: the fixed-point backprojection of the segment's boxes
  uint32_t ring_words[4] = {};   // the ring exchange's image (default layout, W = 1)
  const pinet_em_segment *seg = nullptr;
};

template <uint32_t N, class Dut>
struct ReconSystem : sc_module {
  static constexpr unsigned kCh = 4 * N + 2;
  static constexpr uint32_t kMemWords = mem_words_of(N);
  // wires
  sc_clock clk{"clk", 10, SC_NS, 0.5, 0, SC_NS, true};
  sc_signal<bool> rst_n{"rst_n"}, start{"start"}, busy{"busy"}, done{"done"};
  sc_signal<uint32_t> phase{"phase"}, iter{"iter"}, op{"op"}, words{"words"}, base{"base"},
      err{"err"};
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

  PeState pe[N];

  SC_HAS_PROCESS(ReconSystem);
  ReconSystem(sc_module_name nm, const Config &c, const Problem &p, Scoreboard &s, uint64_t fault)
      : sc_module(nm), cfg(c), pr(p), sb(s), fault_cycle(fault) {
    dut.reset(new Dut("dut"));
    dut->clk_i(clk);
    dut->rst_ni(rst_n);
    dut->phase_i(phase);
    dut->iter_i(iter);
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
    for (auto &s : pe) pinet_fbp_free(s.fbp);
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

  // A local phase: the port job (load, store) or the compute job on every PE; the host waits.
  sc_event port_go, port_finished, compute_go, compute_finished;
  std::function<void()> port_job;
  std::function<void(uint32_t)> compute_job;

  void local_phase(Phase ph, sc_event &go, sc_event &finished) {
    const uint64_t c0 = cycle;
    phase.write(ph);
    go.notify(SC_ZERO_TIME);
    wait(finished);
    phases[ph].cycles += cycle - c0;
  }
  void port_phase(Phase ph, std::function<void()> job) {
    port_job = std::move(job);
    local_phase(ph, port_go, port_finished);
  }
  // false if a PE's kernel failed
  bool compute_phase(std::function<void(uint32_t)> job) {
    compute_job = std::move(job);
    local_phase(kPhaseCompute, compute_go, compute_finished);
    bool ok = true;
    for (uint32_t j = 0; j < N; j++)
      if (pe[j].status != PINET_OK) {
        sb.fail(cycle, "pe[" + std::to_string(j) + "]:kernel_status");
        ok = false;
      }
    return ok;
  }

  void host_run() {
    phase.write(kPhaseIdle);
    iter.write(0);
    rst_n.write(false);
    start.write(false);
    wait();
    wait();
    rst_n.write(true);
    wait();
    const bool ok = cfg.em() ? em_host() : fbp_host();
    phase.write(kPhaseIdle);
    if (ok) cfg.em() ? em_finish() : fbp_finish();
    run_ok = ok;
    all_done = true;
    wait();
    sc_stop();
  }

  // The upload of the final image's M words (the host memory the upload fills: zeros).
  bool upload(uint32_t m) {
    uploaded.assign(m, 0);
    host_image.assign(m, 0);
    const bool ok = collective(kPhaseUpload, PINET_SHUFFLE_OP_UPLOAD, m, 0);
    if (ok) wait();
    return ok;
  }

  // The images against the references, bit for bit.
  void check_image() {
    const size_t npix = (size_t)cfg.size * cfg.size;
    equals_parallel = std::memcmp(image.data(), pr.ref_parallel.data(), npix * 4) == 0;
    equals_sequential = std::memcmp(image.data(), pr.ref_sequential.data(), npix * 4) == 0;
    const char *ref = cfg.em() ? "vs_pinet_em_parallel" : "vs_pinet_fbp_parallel";
    for (size_t i = 0; i < npix; i++) {
      if (f32_bits(image[i]) != f32_bits(pr.ref_parallel[i])) {
        sb.check(cycle, "host.image[" + std::to_string(i) + "]:" + ref, f32_bits(image[i]),
                 f32_bits(pr.ref_parallel[i]));
        break;
      }
    }
    if (equals_parallel && !equals_sequential)
      sb.fail(cycle, cfg.em() ? "host.image:vs_sequential_fixed_em"
                              : "host.image:vs_sequential_fixed_fbp");
    // Functional coverage (fcov.h; docs/testplans/recon_system.json): a reconstruction whose
    // image matched both references.
    if (equals_parallel && equals_sequential)
      pinet::cosim::fcov().hit(cfg.em() ? "em_image_done" : "fbp_image_done");
  }

  // ---- FBP ------------------------------------------------------------------------------

  bool fbp_host() {
    host_image = pr.scatter_msg;
    bool ok = collective(kPhaseScatter, PINET_SHUFFLE_OP_SCATTER, pr.scatter_words, 0);
    if (ok) {
      host_image = pr.filter_msg;
      ok = collective(kPhaseBcastHost, PINET_SHUFFLE_OP_BCAST_HOST, pr.filter_words,
                      pr.base_filter);
    }
    host_image.clear();
    if (ok) {
      port_phase(kPhaseLoad, [this] { fbp_load(); });
      ok = compute_phase([this](uint32_t j) { fbp_compute(j); });
    }
    if (ok) {
      port_phase(kPhaseStore, [this] { fbp_store(); });
      ok = collective(kPhaseIntegrate, PINET_SHUFFLE_OP_INTEGRATE, pr.image_words, 0);
    }
    if (ok) ok = collective(kPhaseAllgather, PINET_SHUFFLE_OP_ALLGATHER, pr.image_words, 0);
    if (ok) ok = upload(pr.image_words);
    return ok;
  }

  // The host's last step (pinet_fbp_finish_fixed on what came up), then the image checks.
  void fbp_finish() {
    const size_t npix = (size_t)cfg.size * cfg.size;
    image.assign(npix, 0.0f);
    std::vector<int32_t> acc(npix);
    for (size_t i = 0; i < npix; i++) acc[i] = (int32_t)uploaded[i];
    if (pinet_fbp_finish_fixed(pr.p, acc.data(), pr.frac_bits, image.data()) != PINET_OK) {
      sb.fail(cycle, "host:finish");
      return;
    }
    check_image();
  }

  // The views of PE j are words j seg .. (j+1) seg - 1; then the filter message.
  void fbp_load() {
    std::vector<uint32_t> row(N, 0);
    const uint32_t seg = pr.vpp * pr.g.bins;
    for (uint32_t j = 0; j < N; j++) pe[j].views.assign(seg, 0.0f);
    for (uint32_t a = 0; a < pr.scatter_words; a++) {
      read_row(a, &row);
      const uint32_t j = a / seg;
      pe[j].views[a - j * seg] = f32_of(row[j]);
    }
    std::vector<std::vector<uint32_t>> fw(N, std::vector<uint32_t>(pr.filter_words));
    for (uint32_t a = 0; a < pr.filter_words; a++) {
      read_row(pr.base_filter + a, &row);
      for (uint32_t j = 0; j < N; j++) fw[j][a] = row[j];
    }
    for (uint32_t j = 0; j < N; j++) {
      pe[j].filter.assign(pr.filter_doubles, 0.0);
      for (uint32_t k = 0; k < pr.filter_doubles; k++)
        pe[j].filter[k] = f64_of(fw[j][2 * k], fw[j][2 * k + 1]);
      pe[j].bits = (int32_t)fw[j][2 * pr.filter_doubles];
    }
  }

  void fbp_compute(uint32_t j) {
    PeState &s = pe[j];
    const uint32_t first = j * pr.vpp;
    const uint32_t count = first >= cfg.views ? 0 : std::min(pr.vpp, cfg.views - first);
    s.partial.assign(pr.image_words, 0);
    if (count == 0) return;
    if (s.fbp == nullptr) s.status = pinet_fbp_create(&pr.g, PINET_FILTER_RAMP, &s.fbp);
    std::vector<float> filtered((size_t)count * pinet_fbp_filtered_stride(pr.p));
    if (s.status == PINET_OK)
      s.status = pinet_fbp_filter_views(s.fbp, s.filter.data(), s.views.data(), count,
                                        filtered.data());
    if (s.status == PINET_OK)
      s.status = pinet_fbp_backproject_fixed(s.fbp, filtered.data(), first, count, s.bits,
                                             s.partial.data());
    s.work += (uint64_t)count * pr.disk;  // pixel-view interpolations
  }

  // PE j's partial image at 0 .. image_words - 1. The injected memory fault: PE kFaultPe's word
  // of the image's middle goes into its router memory with bit 0 flipped.
  void fbp_store() {
    std::vector<uint32_t> row(N, 0);
    for (uint32_t a = 0; a < pr.image_words; a++) {
      for (uint32_t j = 0; j < N; j++) row[j] = (uint32_t)pe[j].partial[a];
      write_row(a, row, kAllPes, cfg.inject_mem_fault && a == pr.image_words / 2 ? 1u : 0u);
    }
  }

  // ---- EM -------------------------------------------------------------------------------

  bool em_host() {
    for (uint32_t r = 0; r < N; r++) pe[pr.seg[r].pe].seg = &pr.seg[r];
    host_image = pr.counts_msg;
    bool ok = collective(kPhaseBcastHost, PINET_SHUFFLE_OP_BCAST_HOST, pr.counts_words, 0);
    host_image.clear();
    if (ok) port_phase(kPhaseLoad, [this] { em_load_counts(); });
    for (uint32_t it = 0; it < cfg.iters && ok; it++) {
      iter.write(it + 1);
      // S1 into the replicated projections, integrated over the tubes
      ok = compute_phase([this](uint32_t j) { em_s1(j); });
      if (ok) {
        port_phase(kPhaseStore, [this, it] { em_store_s1(it); });
        ok = collective(kPhaseIntegrate, PINET_SHUFFLE_OP_INTEGRATE, pr.tpad, 0);
      }
      // S2 on each PE's tube segment, the correction factors to every PE
      if (ok) {
        port_phase(kPhaseLoad, [this] { em_load_s1(); });
        ok = compute_phase([this](uint32_t j) { em_s2(j); });
      }
      if (ok) {
        port_phase(kPhaseStore, [this] { em_store_s2(); });
        ok = collective(kPhaseAllgather, PINET_SHUFFLE_OP_ALLGATHER, 2 * pr.tpad, 0);
      }
      // S3 and S4 of the unshared boxes; the split boxes' partial sums over the ring; their S4
      if (ok) {
        port_phase(kPhaseLoad, [this] { em_load_s2(); });
        ok = compute_phase([this](uint32_t j) { em_s3(j); });
      }
      if (ok) {
        port_phase(kPhaseStore, [this] { em_store_ring(); });
        ok = collective(kPhaseRingExchange, PINET_SHUFFLE_OP_RING_EXCHANGE, 4, 0);
      }
      if (ok) {
        port_phase(kPhaseLoad, [this] { em_load_ring(); });
        ok = compute_phase([this](uint32_t j) { em_s4_split(j); });
      }
      if (ok && it == 0) pinet::cosim::fcov().hit("em_iteration_1");  // (fcov.h)
      if (ok && it + 1 == cfg.iters) pinet::cosim::fcov().hit("em_iteration_last");
    }
    iter.write(0);
    // the image: each PE's own boxes (doubles, zeros elsewhere), summed, up to the host
    if (ok) {
      port_phase(kPhaseStore, [this] { em_store_image(); });
      ok = collective(kPhaseIntegrateImage, PINET_SHUFFLE_OP_INTEGRATE, 2 * pr.bpad, 0);
    }
    if (ok) ok = upload(2 * pr.bpad);
    return ok;
  }

  void em_finish() {
    std::vector<double> lam(pr.boxes);
    for (uint32_t b = 0; b < pr.boxes; b++) lam[b] = f64_of(uploaded[2 * b], uploaded[2 * b + 1]);
    image.assign((size_t)cfg.size * cfg.size, 0.0f);
    pinet_em_to_image(pr.m, lam.data(), image.data());
    check_image();
  }

  // Every PE reads the whole counts message (one address for all).
  void em_load_counts() {
    std::vector<uint32_t> row(N, 0);
    std::vector<std::vector<uint32_t>> msg(N, std::vector<uint32_t>(pr.counts_words));
    for (uint32_t a = 0; a < pr.counts_words; a++) {
      read_row(a, &row);
      for (uint32_t j = 0; j < N; j++) msg[j][a] = row[j];
    }
    for (uint32_t j = 0; j < N; j++) {
      PeState &s = pe[j];
      s.counts.assign(pr.tubes, 0.0);
      for (uint32_t t = 0; t < pr.tubes; t++) s.counts[t] = f32_of(msg[j][t]);
      s.lam.assign(pr.boxes, f64_of(msg[j][pr.tubes], msg[j][pr.tubes + 1]));
      s.bits = (int32_t)msg[j][pr.tubes + 2];
    }
  }

  // S1: the segment's entries into a replicated int32 projection (pinet_em_parallel's kernel).
  void em_s1(uint32_t j) {
    PeState &s = pe[j];
    s.nbar.assign(pr.tpad, 0);
    pinet_em_s1_entries_fixed(&pr.bb, s.seg->box0, s.seg->e0, s.seg->e1, s.lam.data(), s.bits,
                              s.nbar.data());
    s.work += s.seg->e1 - s.seg->e0;  // box-tube pairs
  }

  // The replicated projections at 0 .. tpad - 1. The injected memory fault (first iteration):
  // PE kFaultPe's sum for the tube with the largest count goes in with bit 20 flipped. (Bit 0,
  // one unit of the fixed-point scale, is absorbed: the factor of that tube changes too little
  // for S3's rounded terms to change, and the image stays bit-identical (seen at 32 x 32, N 4).
  // The link check sees any bit.)
  void em_store_s1(uint32_t it) {
    std::vector<uint32_t> row(N, 0);
    for (uint32_t a = 0; a < pr.tpad; a++) {
      for (uint32_t j = 0; j < N; j++) row[j] = (uint32_t)pe[j].nbar[a];
      write_row(a, row, kAllPes, cfg.inject_mem_fault && it == 0 && a == pr.fault_tube ? kEmFlip : 0u);
    }
  }
  static constexpr uint32_t kEmFlip = 1u << 20;

  // PE j keeps its segment j of the integrated sums (the words of the other segments pass by:
  // one address for all PEs).
  void em_load_s1() {
    std::vector<uint32_t> row(N, 0);
    const uint32_t sw = pr.tpad / N;
    for (uint32_t a = 0; a < pr.tpad; a++) {
      read_row(a, &row);
      const uint32_t j = a / sw;
      pe[j].nbar[a] = (int32_t)row[j];
    }
  }

  // S2 on the tube segment j (as pinet_em_parallel: the int32 sum scaled back to a double).
  void em_s2(uint32_t j) {
    PeState &s = pe[j];
    const uint32_t sw = pr.tpad / N;
    const double inv = std::ldexp(1.0, -s.bits);
    s.ratio.assign(pr.tpad, 0.0);
    for (uint32_t t = j * sw; t < (j + 1) * sw; t++) {
      const double nbv = (double)s.nbar[t] * inv;
      s.ratio[t] = t < pr.tubes ? (nbv > 0.0 ? s.counts[t] / nbv : 0.0) : 0.0;
    }
  }

  // Each PE writes its segment's correction factors (two words each) where the allgather takes
  // them: segment j of the 2 tpad words.
  void em_store_s2() {
    std::vector<uint32_t> row(N, 0);
    const uint32_t sw2 = 2 * pr.tpad / N;
    for (uint32_t a = 0; a < 2 * pr.tpad; a++) {
      const uint32_t j = a / sw2;
      const uint64_t w = f64_bits(pe[j].ratio[a / 2]);
      row[j] = (uint32_t)(a % 2 == 0 ? w : w >> 32);
      write_row(a, row, 1u << j, 0u);
    }
  }

  void em_load_s2() {
    std::vector<uint32_t> row(N, 0), lo(N, 0);
    for (uint32_t a = 0; a < 2 * pr.tpad; a++) {
      read_row(a, &row);
      if (a % 2 == 0) {
        lo = row;
        continue;
      }
      for (uint32_t j = 0; j < N; j++) pe[j].ratio[a / 2] = f64_of(lo[j], row[j]);
    }
  }

  // S3 on the segment's entries, S4 for its unshared boxes; the split boxes' partial sums go
  // into the ring exchange's words 0 (to the ring successor) and 1 (to the predecessor).
  void em_s3(uint32_t j) {
    PeState &s = pe[j];
    const pinet_em_segment &g = *s.seg;
    const uint32_t b0 = g.first_box, b1 = g.e1 > g.e0 ? g.last_box + 1 : b0;
    s.upart.assign(pr.boxes, 0);
    pinet_em_s3_entries_fixed(&pr.bb, g.box0, g.e0, g.e1, s.lam.data(), s.ratio.data(), s.bits,
                              s.upart.data());
    s.work += g.e1 - g.e0;
    s.ring_words[0] = g.split_next ? (uint32_t)s.upart[g.last_box] : 0;
    s.ring_words[1] = g.split_prev ? (uint32_t)s.upart[g.first_box] : 0;
    s.ring_words[2] = s.ring_words[3] = 0;
    const std::vector<double> sens = sensitivity();
    for (uint32_t b = b0; b < b1; b++) {
      const bool shared = (g.split_prev && b == g.first_box) || (g.split_next && b == g.last_box);
      if (!shared) pinet_em_s4_fixed(s.upart.data(), s.bits, sens.data(), b, b + 1, s.lam.data());
    }
    for (uint32_t b = g.own0; b < g.own1; b++)  // boxes no tube meets
      if (pr.bb.ptr[b + 1] == pr.bb.ptr[b]) s.lam[b] = 0.0;
  }

  void em_store_ring() {
    std::vector<uint32_t> row(N, 0);
    for (uint32_t a = 0; a < 4; a++) {
      for (uint32_t j = 0; j < N; j++) row[j] = pe[j].ring_words[a];
      write_row(a, row, kAllPes, 0u);
    }
  }

  void em_load_ring() {
    std::vector<uint32_t> row(N, 0);
    for (uint32_t a = 2; a < 4; a++) {
      read_row(a, &row);
      for (uint32_t j = 0; j < N; j++) pe[j].ring_words[a] = row[j];
    }
  }

  // S4 for the split boxes: both PEs form (predecessor's part) + (successor's part), the same
  // int32 sum, and the same update.
  void em_s4_split(uint32_t j) {
    PeState &s = pe[j];
    const pinet_em_segment &g = *s.seg;
    const std::vector<double> sens = sensitivity();
    const uint32_t *x = s.ring_words;
    if (g.split_next) {
      const int32_t u = (int32_t)(x[0] + x[3]);
      pinet_em_s4_fixed(&u, s.bits, sens.data() + g.last_box, 0, 1, s.lam.data() + g.last_box);
    }
    if (g.split_prev) {
      const int32_t u = (int32_t)(x[2] + x[1]);
      pinet_em_s4_fixed(&u, s.bits, sens.data() + g.first_box, 0, 1, s.lam.data() + g.first_box);
    }
  }

  // s(b) of every box: what each PE computes of its own boxes from its share of the matrix
  // (the same per-box sums; computed once here).
  const std::vector<double> &sensitivity() {
    if (sens_.empty()) {
      sens_.assign(pr.boxes, 0.0);
      pinet_em_sensitivity(&pr.bb, sens_.data());
    }
    return sens_;
  }
  std::vector<double> sens_;

  // Each PE's own boxes as doubles (two words each), zeros elsewhere: the integration's sum of
  // one nonzero word and zeros is that word, so the image crosses as raw bits.
  void em_store_image() {
    std::vector<uint32_t> row(N, 0);
    for (uint32_t a = 0; a < 2 * pr.bpad; a++) {
      const uint32_t b = a / 2;
      for (uint32_t j = 0; j < N; j++) {
        const pinet_em_segment &g = *pe[j].seg;
        const uint64_t w = b >= g.own0 && b < g.own1 ? f64_bits(pe[j].lam[b]) : 0;
        row[j] = (uint32_t)(a % 2 == 0 ? w : w >> 32);
      }
      write_row(a, row, kAllPes, 0u);
    }
  }

  // ---- PE side -------------------------------------------------------------------------

  // The PE whose stored word gets the injected memory fault (--inject-mem-fault).
  static constexpr uint32_t kFaultPe = N / 2;
  static constexpr uint32_t kAllPes = (uint32_t)((1ull << N) - 1);

  // Read `addr` of every router memory through the local port (combinational read).
  void read_row(uint32_t addr, std::vector<uint32_t> *row) {
    lcl_we.write(0);
    lcl_addr.write(addr);
    wait();
    const port_t<N * 32> v = lcl_rdata.read();
    for (uint32_t j = 0; j < N; j++) (*row)[j] = get_word(v, j);
  }

  // Write `row` at `addr` of the memories of the PEs in `we`. With a `flip` mask, PE kFaultPe's
  // word goes in with those bits flipped while the scoreboard is shown the intended word (a
  // corrupted memory word that no local write explains): the run must fail where the word is
  // next used, and so must the image checks.
  void write_row(uint32_t addr, const std::vector<uint32_t> &row, uint32_t we, uint32_t flip) {
    hidden_flip_ = flip;
    port_t<N * 32> v{};
    for (uint32_t j = 0; j < N; j++) set_word(v, j, row[j] ^ hidden(j));
    lcl_we.write(we);
    lcl_addr.write(addr);
    lcl_wdata.write(v);
    wait();
    hidden_flip_ = 0;
  }
  uint32_t hidden_flip_ = 0;  // the bits of PE kFaultPe's word flipped this cycle
  uint32_t hidden(uint32_t j) const { return j == kFaultPe ? hidden_flip_ : 0u; }

  void pe_port() {
    lcl_we.write(0);
    for (;;) {
      wait(port_go);
      wait();
      port_job();
      lcl_we.write(0);
      port_finished.notify(SC_ZERO_TIME);
    }
  }

  // PE j: the compute job on its own state, then --op-cycles cycles per unit of work it did.
  void pe_run(uint32_t j) {
    for (;;) {
      wait(compute_go);
      wait();
      const uint64_t w0 = pe[j].work;
      pe[j].status = PINET_OK;
      compute_job(j);
      const uint64_t cycles = (pe[j].work - w0) * cfg.op_cycles;
      for (uint64_t c = 0; c < cycles; c++) wait();
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
      in.lcl_wdata[j] = get_word(wdata, j) ^ hidden(j);  // hide the fault
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
      out.ch_valid[c] = get_bit(valid, c);
      out.ch_data[c] = get_word(data, c);
    }
    out.host_req = host_req.read();
    out.host_req_addr = host_req_addr.read();
    out.host_addr = host_addr.read();
    const port_t<N * 32> rdata = lcl_rdata.read();
    out.lcl_rdata.resize(N);
    for (uint32_t j = 0; j < N; j++) out.lcl_rdata[j] = get_word(rdata, j);
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
  constexpr uint32_t kMemWords = mem_words_of(N);
  Scoreboard sb(opt);
  ReconSystem<N, Dut> sys("system", cfg, pr, sb, fault);
  sc_start(SC_ZERO_TIME);
#if VM_TRACE
  std::unique_ptr<VerilatedFstSc> trace;
  if (!opt.wave().empty()) {
    trace.reset(new VerilatedFstSc);
    sys.dut->trace(trace.get(), 99);
    if (!pinet::cosim::open_trace(*trace, opt)) trace.reset();
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

  // Figures: cycles per phase, compute, efficiencies (docs/system.md). t_IO: the host's and the
  // local ports' cycles (everything but compute and the exchanges of eq. (4) / (6)).
  const std::vector<Phase> &shown = cfg.em() ? kEmPhases : kFbpPhases;
  uint64_t total = 0, io = 0;
  for (Phase ph : shown) total += sys.phases[ph].cycles;
  for (Phase ph : {kPhaseScatter, kPhaseBcastHost, kPhaseLoad, kPhaseStore, kPhaseIntegrateImage,
                   kPhaseUpload})
    io += sys.phases[ph].cycles;
  uint64_t work = 0;
  for (uint32_t j = 0; j < N; j++) work += sys.pe[j].work;
  const double t_seq = (double)work * cfg.op_cycles;  // n_i t0 of eq. (4) / (6), in cycles
  const double logn = log2_of(N);
  const double eff_measured = total ? t_seq / ((double)N * (double)total) : 0.0;
  // eq. (4): (2a + b)(N - 1)M + 2cN log N, a = c = 1 cycle, b = 0, M the image words. eq. (6)
  // per iteration: alpha (N - 1) M + 2cN log N, M the (padded) tubes, alpha = 3 words per tube
  // (the int32 sum integrated, the double factor all-gathered), plus the ring exchange's step
  // (1 setup cycle + 1 word per PE).
  const double comm =
      cfg.em() ? cfg.iters * (3.0 * (N - 1) * pr.tpad + 2.0 * N * logn + 2.0 * N)
               : 2.0 * (N - 1) * (double)pr.image_words + 2.0 * N * logn;
  const double eff_model = t_seq / (t_seq + comm + (double)N * io);
  const bool have_image = sys.image.size() == (size_t)cfg.size * cfg.size;
  const double rmse =
      have_image ? pinet_rmse_disk(sys.image.data(), pr.phantom.data(), cfg.size, pr.g.img_center)
                 : NAN;
  const bool pass = !sb.failed() && sys.run_ok;
  // Each file goes through pinet::cosim::write_output (nothing half-written is left); parse()
  // found every path writable, so a failure here is late: one line, and exit 4 after a PASS.
  auto report = [&](const char *option, const std::string &path, const std::string &why) {
    if (!why.empty())
      pinet::cosim::file_error(opt.block(),
                               std::string("--") + option + " '" + pinet::cosim::quoted(path) +
                                                "': cannot write: " + why);
  };
  if (pass && !cfg.out.empty())  // written only after a passing run: nothing half-made
    report("out", cfg.out, pinet::cosim::write_output(cfg.out, [&](const std::string &tmp) {
      const pinet_status st =
          pinet_recon_image_write(tmp.c_str(), sys.image.data(), cfg.size, pr.g.img_center);
      return std::string(st == PINET_OK ? "" : pinet_status_str(st));
    }));
  double diff_max = NAN;
  if (pass && !cfg.png.empty())
    report("png", cfg.png, pinet::cosim::write_output(cfg.png, [&](const std::string &tmp) {
      const pinet_status st = write_png(tmp, pr, sys.image, cfg.size, &diff_max);
      return std::string(st == PINET_OK ? "" : pinet_status_str(st));
    }));
  if (!cfg.json.empty())
    report("json", cfg.json, pinet::cosim::write_output(cfg.json, [&](const std::string &tmp) {
      FILE *f = std::fopen(tmp.c_str(), "w");
      if (f == nullptr) return std::string(std::strerror(errno));
      std::fprintf(f, "{\"algo\": \"%s\", \"pes\": %u, \"size\": %u, \"views\": %u, \"iters\": %u, ",
                   cfg.algo.c_str(), N, cfg.size, cfg.views, cfg.iters);
      std::fprintf(f, "\"cycles_total\": %" PRIu64 ", \"cycles_compute\": %" PRIu64 ", \"phases\": [",
                   total, sys.phases[kPhaseCompute].cycles);
      for (size_t k = 0; k < shown.size(); k++)
        std::fprintf(f, "%s{\"name\": \"%s\", \"cycles\": %" PRIu64 ", \"words\": %" PRIu64 "}",
                     k > 0 ? ", " : "", kPhaseNames[shown[k]], sys.phases[shown[k]].cycles,
                     sys.phases[shown[k]].words);
      std::fprintf(f, "], \"efficiency_measured\": %.6f, \"efficiency_model\": %.6f, ", eff_measured,
                   eff_model);
      if (std::isfinite(rmse)) std::fprintf(f, "\"rmse\": %.17g, ", rmse);
      else std::fprintf(f, "\"rmse\": null, ");
      if (cfg.em())
        std::fprintf(f, "\"tubes\": %u, \"boxes\": %u, \"nnz\": %" PRIu64 ", ", pr.tubes, pr.boxes,
                     pr.bb.nnz);
      std::fprintf(f, "\"op_cycles\": %u, \"mem_words\": %u, \"frac_bits\": %d, \"work\": %" PRIu64
                   ", \"image_equals_parallel\": %s, \"image_equals_sequential\": %s, "
                   "\"result\": \"%s\"}\n",
                   cfg.op_cycles, kMemWords, pr.frac_bits, work,
                   sys.equals_parallel ? "true" : "false", sys.equals_sequential ? "true" : "false",
                   pass ? "PASS" : "FAIL");
      const bool bad = std::ferror(f) != 0;
      if (std::fclose(f) != 0 || bad) return std::string("write error");
      return std::string();
    }));
  if (!opt.quiet()) {
    if (cfg.em())
      std::printf("cosim recon_system: em, N %u, %u x %u image, %u views, %u iterations "
                  "(SystemC, MemWords %u, %u cycle(s) per box-tube pair): %" PRIu64
                  " cycles in %.2f s (%.0f cycles/s)\n",
                  N, cfg.size, cfg.size, cfg.views, cfg.iters, kMemWords, cfg.op_cycles,
                  sys.sample_cycle, secs, secs > 0 ? (double)sys.sample_cycle / secs : 0.0);
    else
      std::printf("cosim recon_system: %s, N %u, %u x %u image, %u views (SystemC, MemWords %u, "
                  "%u cycle(s) per pixel-view): %" PRIu64 " cycles in %.2f s (%.0f cycles/s)\n",
                  cfg.algo.c_str(), N, cfg.size, cfg.size, cfg.views, kMemWords, cfg.op_cycles,
                  sys.sample_cycle, secs, secs > 0 ? (double)sys.sample_cycle / secs : 0.0);
    std::printf("  %-15s %10s %10s\n", "phase", "cycles", "words");
    for (Phase ph : shown)
      std::printf("  %-15s %10" PRIu64 " %10" PRIu64 "\n", kPhaseNames[ph], sys.phases[ph].cycles,
                  sys.phases[ph].words);
    std::printf("  %-15s %10" PRIu64 "\n", "total", total);
    const char *what = cfg.em() ? "em" : "fbp";
    std::printf("  image: %s pinet_%s_parallel --fixed, %s the sequential fixed-point %s; "
                "rmse vs phantom %.6f\n",
                sys.equals_parallel ? "equals" : "DIFFERS FROM", what,
                sys.equals_sequential ? "equals" : "DIFFERS FROM", cfg.em() ? "EM" : "FBP", rmse);
    std::printf("  efficiency: measured %.4f, eq. (%d) model %.4f (%s, c = 1 cycle; "
                "t_IO = host and local-port I/O cycles)\n", eff_measured, cfg.em() ? 6 : 4,
                eff_model, cfg.em() ? "alpha = 3 cycles per tube" : "a = 1, b = 0");
    if (std::isfinite(diff_max))
      std::printf("  %s: phantom | image | |difference| (white = %.4f)\n", cfg.png.c_str(), diff_max);
  }
  return sb.finish();
}

}  // namespace

int sc_main(int argc, char **argv) {
  Options opt("recon_system", 100000000);
  opt.no_wave_window();
  opt.add_string("algo", "", "fbp or em");
  opt.add_int("pes", 8, "PEs (routers): " RECON_MODELS_TEXT);
  opt.add_int("size", 32, "image side S (the sinogram has S bins)");
  opt.add_int("views", 32, "views V (at least N)");
  opt.add_int("iters", 0, "EM iterations (0: 10, as pinet recon em)");
  opt.add_int("op-cycles", 1,
              "simulated cycles per pixel-view interpolation (FBP) or box-tube pair of S1 and "
              "S3 (EM) of a PE");
  opt.add_output("out", "write the image as `pinet recon ... --out` does (after a PASS)");
  opt.add_output("json", "write the JSON summary");
  opt.add_output("png", "write phantom | image | difference as PNG (after a PASS)");
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
  if (cfg.algo.empty()) return opt.reject("--algo fbp|em is required"), opt.exit_code();
  if (cfg.algo != "fbp" && cfg.algo != "em")
    return opt.reject("--algo '" + pinet::cosim::quoted(cfg.algo) + "': expected fbp or em"), opt.exit_code();
  if (pes > 0xffffffffu || mem_words_of((uint32_t)pes) == 0)
    return opt.invalid("--pes " + std::to_string(pes) + ": the system is built for N = " RECON_MODELS_TEXT),
           opt.exit_code();
  if (size < 4 || size > 1024)
    return opt.invalid("--size " + std::to_string(size) + ": expected 4 .. 1024"), opt.exit_code();
  if (views < pes || views > 4096)
    return opt.invalid("--views " + std::to_string(views) + ": expected " + std::to_string(pes) +
                      " (N) .. 4096"),
           opt.exit_code();
  if (op_cycles > 1000)
    return opt.invalid("--op-cycles " + std::to_string(op_cycles) + ": expected 0 .. 1000"),
           opt.exit_code();
  if (iters != 0 && !cfg.em()) return opt.reject("--iters goes with --algo em"), opt.exit_code();
  if (iters > 1000)
    return opt.invalid("--iters " + std::to_string(iters) + ": expected 1 .. 1000"), opt.exit_code();
  cfg.pes = (uint32_t)pes;
  cfg.size = (uint32_t)size;
  cfg.views = (uint32_t)views;
  cfg.op_cycles = (uint32_t)op_cycles;
  cfg.iters = cfg.em() ? (iters ? (uint32_t)iters : kEmDefaultIters) : 0;
  for (const char *b : cfg.em() ? std::vector<const char *>{"em_image_done", "em_iteration_1", "em_iteration_last"}
                                : std::vector<const char *>{"fbp_image_done"})
    pinet::cosim::fcov().plan(b);  // functional coverage (fcov.h): written with 0 if never hit
  Problem pr;
  const Refusal why = prepare(cfg, &pr);
  if (why.code == PINET_EXIT_INTERNAL) return opt.internal(why.msg), opt.exit_code();
  if (why.code != PINET_EXIT_OK) return opt.invalid(why.msg), opt.exit_code();

  // SystemC's own info messages ("Simulation stopped by user") would break the one-line output.
  sc_report_handler::set_actions(SC_INFO, SC_DO_NOTHING);
  Verilated::commandArgs(argc, argv);
  pinet::cosim::apply_power_up(Verilated::defaultContextp(), opt);
  if (!opt.wave().empty()) Verilated::traceEverOn(true);
#define RS_RUN(n_pes, vname, words) \
  if (cfg.pes == (n_pes)) return run_system<(n_pes), vname>(cfg, pr, opt, fault);
  RECON_MODELS(RS_RUN)
#undef RS_RUN
  return opt.internal("no model for --pes " + std::to_string(cfg.pes)), opt.exit_code();
}
