// bench_scaling_main.cpp - model-only speed of a Verilated RTA fabric (rta_ring or rta_torus2d),
// for cosim/rta/bench_scaling.sh. No C model, no compare: each cycle new random words on every
// input port and a new random bitmap, then eval(). Prints cycles/s and PE-cycles/s (CPU time).
// Build defines: BENCH_TOP (Vrta_ring / Vrta_torus2d), BENCH_HDR, BENCH_PES, BENCH_TORUS (0/1),
// BENCH_BITMAP_BITS; BENCH_WAVE 1 (a model built with --trace-fst): every cycle is dumped to the
// FST file argv[2], and the wall-clock rates are printed too (with --trace-threads the writer's
// thread adds CPU time that the wall clock does not see); BENCH_WAVE_SCOPE "S": only the signals
// under scope S are dumped (a PE window, as the cosims' --wave-scope S). The model's scope is
// `top`, as in the cosims.
#include BENCH_HDR
#include "verilated.h"
#if BENCH_WAVE
#include "verilated_fst_c.h"
#endif

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <memory>
#include <type_traits>

static uint64_t g_s = 0x9e3779b97f4a7c15ull;
static inline uint32_t rnd() {
  g_s ^= g_s << 13; g_s ^= g_s >> 7; g_s ^= g_s << 17;
  return (uint32_t)g_s;
}

// Fill a port of `bits` bits with random words (upper bits of the last word clear).
template <class T> static void fill(T& p, int bits) {
  if constexpr (std::is_integral_v<T>) {
    uint64_t v = ((uint64_t)rnd() << 32) | rnd();
    if (bits < 64) v &= (1ull << bits) - 1;
    p = (T)v;
  } else {
    int words = (bits + 31) / 32;
    for (int i = 0; i < words; i++) p[i] = rnd();
    if (bits % 32) p[words - 1] &= (1u << (bits % 32)) - 1;
  }
}

template <class T> static uint32_t fold(const T& p, int bits) {
  if constexpr (std::is_integral_v<T>) {
    return (uint32_t)p ^ (uint32_t)((uint64_t)p >> 32);
  } else {
    uint32_t x = 0;
    for (int i = 0; i < (bits + 31) / 32; i++) x ^= p[i];
    return x;
  }
}

int main(int argc, char** argv) {
  double secs = argc > 1 ? atof(argv[1]) : 2.0;
  auto ctx = std::make_unique<VerilatedContext>();
  auto m = std::make_unique<BENCH_TOP>(ctx.get(), "top");
#if BENCH_WAVE
  ctx->traceEverOn(true);
  auto fst = std::make_unique<VerilatedFstC>();
  m->trace(fst.get(), 99);
#ifdef BENCH_WAVE_SCOPE
  fst->dumpvars(99, BENCH_WAVE_SCOPE);  // before open: the declarations
#endif
  fst->open(argc > 2 ? argv[2] : "bench.fst");
  if (!fst->isOpen()) {
    fprintf(stderr, "bench: cannot write %s\n", argc > 2 ? argv[2] : "bench.fst");
    return 4;
  }
#endif
  const int pe_bits = BENCH_PES * 32;
  uint32_t sink = 0;
  long cycles = 0;
  clock_t t0 = clock(), t1;
  const auto w0 = std::chrono::steady_clock::now();
  for (;;) {
    for (int k = 0; k < 64; k++) {
      fill(m->bitmap_i, BENCH_BITMAP_BITS);
      fill(m->l_i, pe_bits);
      fill(m->r_i, pe_bits);
#if BENCH_TORUS
      fill(m->u_i, pe_bits);
      fill(m->d_i, pe_bits);
#endif
      m->eval();
#if BENCH_WAVE
      fst->dump((uint64_t)(cycles + k));
#endif
      sink ^= m->l_o[0] ^ m->r_o[(pe_bits / 32) - 1];
    }
    cycles += 64;
    t1 = clock();
    if ((double)(t1 - t0) / CLOCKS_PER_SEC >= secs) break;
  }
#if BENCH_WAVE
  fst->close();  // the writer thread's backlog counts
#endif
  double t = (double)(t1 - t0) / CLOCKS_PER_SEC;
  double w = std::chrono::duration<double>(std::chrono::steady_clock::now() - w0).count();
  printf("pes %d cycles %ld cpu %.3f s cycles/s %.4g PE-cycles/s %.4g wall %.3f s wall-cycles/s %.4g"
         " (sink %08x)\n", BENCH_PES, cycles, t, cycles / t, cycles * (double)BENCH_PES / t, w,
         cycles / w, sink);
  m->final();
  return 0;
}
