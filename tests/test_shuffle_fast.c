/* test_shuffle_fast.c - unit tests of the cut-through transfers and the fast schedules (issue 11,
 * docs/shuffle.md section 13): the fast broadcasts deliver the root's (host's) words to every PE
 * for i32/f32/f64, finish exactly at the link-capacity bound, use only de Bruijn channels
 * between their ends (never a self-loop), carry at most one word per channel per cycle, and the
 * cycle simulator ends with the engine's memories; the fast scatter, upload, gather and
 * allgather leave what the ops' definitions say (and what the paper schedules leave) in their
 * output regions,
 * take the cycle counts derived here and stay within 5% of the bound at N = 64; so does the
 * int32 integrate around the ring, whose sums are computed here (floats keep the paper's
 * schedule, and a case shows why); the cycle-exact
 * validity rules on hand-made schedules; the argument checks. Random data print their seed
 * (override with PINET_TEST_SEED) and every failure names the seed and case. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/rng.h"
#include "pinet/shuffle.h"
#include "test_support.h"

static uint64_t g_seed = 20241125u;

#define CHECK(cond, ...) CHECK_SEED(g_seed, cond, __VA_ARGS__)

/* Words per run at most (N * M), so that N = 1024 stays fast: M is capped to this / N. */
#define WORD_BUDGET (1u << 20)
/* Channel-cycle pairs walked with pinet_shuffle_cycle_word at most per case. */
#define WALK_BUDGET (1u << 22)

static uint32_t lg(uint32_t n) {
  uint32_t k = 0;
  while ((1u << k) < n) {
    k++;
  }
  return k;
}

/* Independent de Bruijn check of a transfer's ends: a forward channel goes p -> 2p + b mod N,
 * a backward one back, the host link host <-> PE 0 (section 1 of docs/shuffle.md). Returns 1 if
 * (src, dst) are joined by channel ch in that direction and src != dst. */
static int ref_debruijn(uint32_t N, uint32_t ch, int32_t src, int32_t dst) {
  if (ch == 4u * N) {
    return src == PINET_SHUFFLE_HOST && dst == 0;
  }
  if (ch == 4u * N + 1u) {
    return src == 0 && dst == PINET_SHUFFLE_HOST;
  }
  if (src < 0 || dst < 0 || src == dst || ch >= 4u * N) {
    return 0;
  }
  uint32_t l = ch < 2u * N ? ch : ch - 2u * N; /* the link */
  uint32_t tail = l / 2u, head = l % N;         /* the shuffle edge tail -> head = 2 tail + b */
  if (head != (2u * tail) % N && head != (2u * tail + 1u) % N) {
    return 0;
  }
  return ch < 2u * N ? (uint32_t)src == tail && (uint32_t)dst == head
                     : (uint32_t)src == head && (uint32_t)dst == tail;
}

static uint64_t ceil_half(uint64_t x) { return x / 2u + (x & 1u); }

/* The bound of section 12, written out here for any M (pinet_shuffle_link_bound wants the
 * paper's packet quantum; it is compared too when M is a multiple of it). */
static uint64_t ref_bound(pinet_shuffle_op op, uint32_t N, uint32_t M) {
  uint32_t n = lg(N);
  switch (op) {
    case PINET_SHUFFLE_OP_BCAST: return ceil_half(M) + n; /* PE 0's two out-channels, n hops */
    case PINET_SHUFFLE_OP_BCAST_HOST: return (uint64_t)M + n + 1u;
    case PINET_SHUFFLE_OP_GATHER:
    case PINET_SHUFFLE_OP_ALLGATHER: return ceil_half(M - M / N) + 1u; /* PE 0's in-channels */
    default: return (uint64_t)M + 1u; /* scatter, upload: every word crosses the host link */
  }
}

/* The done cycle of the fast scatter, upload and gather, from docs/shuffle.md section 13
 * (S = M/N): one setup cycle per step plus the step lengths. Scatter and upload: n + 1 steps,
 * step d >= 1 ends when the last word of P_d (2^(d-1) S words) has crossed the host link and d
 * tree hops (d cycles behind), step 0 is S: (n + 1) + M + n(n+1)/2. Gather, N >= 4: n steps; step
 * 1 is floor(S/2) + 1 (the relay via PE N/2 costs a cycle), step d >= 2 is 2^(d-2) S + d (half of
 * P_d, d - 1 hops behind PE 1 plus the relay): n + floor(S/2) + 1 + (M/2 - S) + n(n+1)/2 - 1 =
 * M/2 - ceil(S/2) + n(n+3)/2. Gather, N = 2: one step, ceil(S/2) words on each of two channels. */
static uint64_t ref_fast_cycles(pinet_shuffle_op op, uint32_t N, uint32_t M) {
  uint64_t n = lg(N), S = M / N;
  if (op == PINET_SHUFFLE_OP_ALLGATHER) {
    /* N/2 steps around the ring: N/2 - 1 of S words, the last of ceil(S/2) */
    return (N / 2u - 1u) * (1u + S) + 1u + ceil_half(S);
  }
  if (op != PINET_SHUFFLE_OP_GATHER) {
    return (n + 1u) + M + n * (n + 1u) / 2u;
  }
  return N == 2u ? 1u + ceil_half(S) : M / 2u - ceil_half(S) + n * (n + 3u) / 2u;
}

/* Structure: one transfer per channel per step, de Bruijn channels only, no self-loop; the
 * per-channel word count from the cycle walk equals the transfers' words, at most one word per
 * channel per cycle, the last word crosses in cycle T - 1. */
static void check_structure(const pinet_shuffle_schedule *s, const char *what, uint64_t T) {
  uint32_t N = pinet_shuffle_schedule_pes(s), nch = PINET_SHUFFLE_CHANNELS(N);
  uint64_t *want = xcalloc(nch, sizeof *want);
  for (uint32_t st = 0; st < pinet_shuffle_schedule_step_count(s); st++) {
    const pinet_shuffle_transfer *t = NULL;
    size_t nt = 0;
    assert_int_equal(pinet_shuffle_schedule_step(s, st, &t, &nt), PINET_OK);
    uint8_t *used = xcalloc(nch, 1);
    for (size_t i = 0; i < nt; i++) {
      CHECK(ref_debruijn(N, t[i].channel, t[i].src, t[i].dst),
            "%s: transfer %zu on channel %u from %d to %d is not a de Bruijn channel", what, i,
            t[i].channel, t[i].src, t[i].dst);
      CHECK(!used[t[i].channel], "%s: channel %u twice in step %u", what, t[i].channel, st);
      used[t[i].channel] = 1;
      want[t[i].channel] += t[i].words;
    }
    free(used);
  }
  if ((uint64_t)nch * T <= WALK_BUDGET) {
    uint64_t *seen = xcalloc(nch, sizeof *seen);
    uint64_t last = 0;
    for (uint64_t c = 0; c < T + 2u; c++) {
      for (uint32_t ch = 0; ch < nch; ch++) {
        pinet_shuffle_word w;
        assert_int_equal(pinet_shuffle_cycle_word(s, c, ch, &w), PINET_OK);
        /* cycle_word answers one word per (cycle, channel): counting them checks that no
         * transfer's words hide behind another's on the same channel */
        seen[ch] += (uint64_t)(w.valid != 0);
        last = w.valid && c > last ? c : last;
        CHECK(!w.valid || c < T, "%s: word on channel %u in cycle %" PRIu64 " >= T", what, ch, c);
      }
    }
    for (uint32_t ch = 0; ch < nch; ch++) {
      CHECK(seen[ch] == want[ch], "%s: channel %u carries %" PRIu64 " words in the walk, %" PRIu64
            " in the transfers", what, ch, seen[ch], want[ch]);
    }
    CHECK(last + 1u == T, "%s: last word in cycle %" PRIu64 ", T = %" PRIu64, what, last, T);
    free(seen);
  }
  free(want);
}

/* `count` random elements of type `elem` into out. */
static void random_elems(pinet_shuffle_elem elem, pinet_rng *rng, void *out, size_t count) {
  size_t es = pinet_shuffle_elem_size(elem);
  unsigned char *o = out;
  for (size_t i = 0; i < count; i++) {
    uint32_t v = (uint32_t)pinet_rng_below(rng, 1u << 30);
    if (elem == PINET_SHUFFLE_I32) {
      memcpy(o + i * es, &v, es);
    } else if (elem == PINET_SHUFFLE_F32) {
      float f = (float)v * 0.25f;
      memcpy(o + i * es, &f, es);
    } else {
      double d = (double)v * 0.125;
      memcpy(o + i * es, &d, es);
    }
  }
}

/* Execute on `elem` with random input at the schedule's input region; every PE's [0, M) must
 * equal the input. For i32 also the cycle simulator's final memories must equal the engine's. */
static void check_results(const pinet_shuffle_schedule *s, pinet_shuffle_elem elem,
                          pinet_rng *rng, const char *what) {
  uint32_t N = pinet_shuffle_schedule_pes(s), M = pinet_shuffle_schedule_words(s);
  uint32_t hw = pinet_shuffle_schedule_host_words(s);
  size_t es = pinet_shuffle_elem_size(elem);
  void **pe = mems_alloc(N, M, es);
  unsigned char *host = xcalloc(hw ? hw : 1, es);
  unsigned char *input = xcalloc(M, es);
  random_elems(elem, rng, input, M);
  int32_t root = pinet_shuffle_schedule_op(s) == PINET_SHUFFLE_OP_BCAST_HOST ? PINET_SHUFFLE_HOST : 0;
  uint32_t off = 1, w = 0;
  assert_int_equal(pinet_shuffle_schedule_input_region(s, root, &off, &w), PINET_OK);
  CHECK(off == 0 && w == M, "%s: input region", what);
  memcpy(root < 0 ? host : (unsigned char *)pe[0], input, (size_t)M * es);
  /* the cycle simulator starts from the same memories */
  pinet_shuffle_cycle *sim = NULL;
  if (elem == PINET_SHUFFLE_I32) {
    assert_int_equal(pinet_shuffle_cycle_create(&sim, s, (const uint32_t *const *)pe,
                                                hw ? (const uint32_t *)(void *)host : NULL),
                     PINET_OK);
  }
  assert_int_equal(pinet_shuffle_execute(s, elem, pe, hw ? host : NULL), PINET_OK);
  for (uint32_t p = 0; p < N; p++) {
    assert_int_equal(pinet_shuffle_schedule_output_region(s, (int32_t)p, &off, &w), PINET_OK);
    CHECK(off == 0 && w == M, "%s: output region of PE %u", what, p);
    CHECK(memcmp(pe[p], input, (size_t)M * es) == 0, "%s: PE %u does not hold the input", what, p);
  }
  if (sim != NULL) {
    assert_int_equal(pinet_shuffle_cycle_run(sim), PINET_OK);
    uint64_t T = 0;
    assert_int_equal(pinet_shuffle_cycle_total(s, &T), PINET_OK);
    CHECK(pinet_shuffle_cycle_now(sim) == T, "%s: simulator done at %" PRIu64 ", T = %" PRIu64,
          what, pinet_shuffle_cycle_now(sim), T);
    for (uint32_t p = 0; p < N; p++) {
      CHECK(memcmp(pinet_shuffle_cycle_mem(sim, (int32_t)p), pe[p], (size_t)M * 4u) == 0,
            "%s: simulator memory of PE %u differs from the engine's", what, p);
    }
    if (hw > 0) {
      CHECK(memcmp(pinet_shuffle_cycle_mem(sim, PINET_SHUFFLE_HOST), host, (size_t)hw * 4u) == 0,
            "%s: simulator host memory differs", what);
    }
    pinet_shuffle_cycle_free(sim);
  }
  mems_free(pe, N);
  free(host);
  free(input);
}

static void check_fast_bcast(pinet_shuffle_op op, uint32_t N, uint32_t M, pinet_rng *rng) {
  char what[96];
  snprintf(what, sizeof what, "fast %s N=%u M=%u", pinet_shuffle_op_name(op), N, M);
  pinet_shuffle_schedule *s = NULL;
  pinet_status st = pinet_shuffle_build_fast(&s, op, N, M);
  CHECK(st == PINET_OK, "%s: build status %d", what, (int)st);
  CHECK(pinet_shuffle_schedule_step_count(s) == 1, "%s: %u steps", what,
        pinet_shuffle_schedule_step_count(s));
  /* N = 2 from PE 0: both trees are one hop, all starts 0 */
  int want_ct = op == PINET_SHUFFLE_OP_BCAST_HOST || N > 2u;
  CHECK(pinet_shuffle_schedule_cut_through(s) == want_ct, "%s: cut_through", what);
  uint64_t T = 0, bound = 0;
  assert_int_equal(pinet_shuffle_cycle_total(s, &T), PINET_OK);
  CHECK(T == ref_bound(op, N, M), "%s: T = %" PRIu64 ", bound %" PRIu64, what, T,
        ref_bound(op, N, M));
  assert_int_equal(pinet_shuffle_link_bound_fast(op, N, M, &bound), PINET_OK);
  CHECK(T == bound, "%s: T = %" PRIu64 ", pinet_shuffle_link_bound_fast %" PRIu64, what, T, bound);
  if (M % lg(N) == 0) {
    assert_int_equal(pinet_shuffle_link_bound(op, N, M, &bound), PINET_OK);
    CHECK(T == bound, "%s: T = %" PRIu64 ", pinet_shuffle_link_bound %" PRIu64, what, T, bound);
  }
  pinet_shuffle_report rep;
  assert_int_equal(pinet_shuffle_report_compute(s, NULL, &rep), PINET_OK);
  CHECK(rep.cycles == T && rep.link_time + rep.steps == T, "%s: report cycles %" PRIu64
        " link_time %" PRIu64, what, rep.cycles, rep.link_time);
  check_structure(s, what, T);
  check_results(s, PINET_SHUFFLE_I32, rng, what);
  check_results(s, PINET_SHUFFLE_F32, rng, what);
  check_results(s, PINET_SHUFFLE_F64, rng, what);
  pinet_shuffle_schedule_free(s);
}

/* Every op of ops for N = 2 .. max_pes and M in {1, 2, 3, 7} times the quantum (1, or N when
 * any_m is 0) and 64N, 128N, N * M capped at WORD_BUDGET (the cap, 2^20 / N, is a multiple of N
 * for N <= 1024); a size capped to the one before is skipped. */
static void sweep_sizes_to(uint32_t max_pes, const pinet_shuffle_op *ops, int nops, int any_m,
                           void (*check)(pinet_shuffle_op, uint32_t, uint32_t, pinet_rng *)) {
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed);
  for (uint32_t N = 2; N <= max_pes; N *= 2u) {
    uint32_t q = any_m ? 1u : N;
    const uint32_t sizes[6] = {q, 2u * q, 3u * q, 7u * q, 64u * N, 128u * N};
    for (int o = 0; o < nops; o++) {
      uint32_t prev = 0;
      for (int k = 0; k < 6; k++) {
        uint32_t M = sizes[k] <= WORD_BUDGET / N ? sizes[k] : WORD_BUDGET / N;
        if (M != prev) {
          check(ops[o], N, M, &rng);
        }
        prev = M;
      }
    }
  }
}

static void sweep_sizes(const pinet_shuffle_op *ops, int nops, int any_m,
                        void (*check)(pinet_shuffle_op, uint32_t, uint32_t, pinet_rng *)) {
  sweep_sizes_to(PINET_SHUFFLE_MAX_PES, ops, nops, any_m, check);
}

static void test_shuffle_fast_bcast(void **state) {
  (void)state;
  const pinet_shuffle_op ops[2] = {PINET_SHUFFLE_OP_BCAST, PINET_SHUFFLE_OP_BCAST_HOST};
  sweep_sizes(ops, 2, 1, check_fast_bcast);
}

/* The two trees of bcast at N = 8 literally (docs/shuffle.md section 13's picture). */
static void test_shuffle_fast_bcast_n8_literal(void **state) {
  (void)state;
  pinet_shuffle_schedule *s = NULL;
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_BCAST, 8, 5), PINET_OK);
  const pinet_shuffle_transfer *t = NULL;
  size_t nt = 0;
  assert_int_equal(pinet_shuffle_schedule_step(s, 0, &t, &nt), PINET_OK);
  /* {src, dst, channel, offset, words, start} */
  static const uint32_t want[14][6] = {
      /* F: 0 -> 1 -> 2, 3; 2 -> 4, 5; 3 -> 6, 7 on forward channels, words [0, 3) */
      {0, 1, 1, 0, 3, 0}, {1, 2, 2, 0, 3, 1}, {1, 3, 3, 0, 3, 1}, {2, 4, 4, 0, 3, 2},
      {2, 5, 5, 0, 3, 2}, {3, 6, 6, 0, 3, 2}, {3, 7, 7, 0, 3, 2},
      /* B: 0 -> 4 -> 2, 6; 2 -> 1, 5; 6 -> 3, 7 on backward channels, words [3, 5) */
      {0, 4, 24, 3, 2, 0}, {4, 2, 20, 3, 2, 1}, {4, 6, 28, 3, 2, 1}, {2, 1, 18, 3, 2, 2},
      {2, 5, 26, 3, 2, 2}, {6, 3, 22, 3, 2, 2}, {6, 7, 30, 3, 2, 2}};
  assert_int_equal(nt, 14);
  for (size_t i = 0; i < nt; i++) {
    CHECK((uint32_t)t[i].src == want[i][0] && (uint32_t)t[i].dst == want[i][1] &&
              t[i].channel == want[i][2] && t[i].src_offset == want[i][3] &&
              t[i].dst_offset == want[i][3] && t[i].words == want[i][4] &&
              t[i].start == want[i][5] && t[i].combine == PINET_SHUFFLE_COPY,
          "N=8 transfer %zu: %d -> %d ch %u off %u words %u start %u", i, t[i].src, t[i].dst,
          t[i].channel, t[i].src_offset, t[i].words, t[i].start);
  }
  uint64_t T = 0;
  assert_int_equal(pinet_shuffle_cycle_total(s, &T), PINET_OK);
  assert_int_equal(T, 3 + 3); /* ceil(5/2) + n */
  pinet_shuffle_schedule_free(s);
}

/* ---- fast scatter, upload, gather, allgather (the segment ops) --------------------------- */

/* The regions of the ops' definitions (docs/shuffle.md section 2, S = M/N): input (output = 0)
 * or output region of `pe` (-1 = host); words 0 = none. scatter: host [0,M) -> PE j [jS,S);
 * upload: PE j [jS,S) -> host [0,M) and PE 0 [0,M); gather: PE j [jS,S) -> PE 0 [0,M);
 * allgather: PE j [jS,S) -> every PE [0,M); integrate: every PE [0,M) -> PE j [jS,S). */
static void ref_region(pinet_shuffle_op op, uint32_t N, uint32_t M, int32_t pe, int output,
                       uint32_t *off, uint32_t *words) {
  int scatter = op == PINET_SHUFFLE_OP_SCATTER;
  *off = 0;
  *words = 0;
  if (op == PINET_SHUFFLE_OP_INTEGRATE) {
    *off = output && pe >= 0 ? (uint32_t)pe * (M / N) : 0;
    *words = pe < 0 ? 0 : output ? M / N : M;
  } else if (scatter && !output) {
    *words = pe < 0 ? M : 0;
  } else if (scatter || !output) { /* the segment side */
    *off = pe < 0 ? 0 : (uint32_t)pe * (M / N);
    *words = pe < 0 ? 0 : M / N;
  } else {
    *words = pe == 0 || (pe > 0 && op == PINET_SHUFFLE_OP_ALLGATHER) ||
                     (pe < 0 && op == PINET_SHUFFLE_OP_UPLOAD)
                 ? M
                 : 0;
  }
}

/* Every PE's (and the host's) input and output region of the fast schedule s are the paper's
 * schedule's and the definition's (ref_region). */
static void check_regions(const pinet_shuffle_schedule *s, const pinet_shuffle_schedule *paper,
                          pinet_shuffle_op op, uint32_t N, uint32_t M, const char *what) {
  for (int32_t p = -1; p < (int32_t)N; p++) {
    for (int output = 0; output < 2; output++) {
      uint32_t fo = 0, fw = 0, po = 0, pw = 0, ro = 0, rw = 0;
      pinet_status (*region)(const pinet_shuffle_schedule *, int32_t, uint32_t *, uint32_t *) =
          output ? pinet_shuffle_schedule_output_region : pinet_shuffle_schedule_input_region;
      assert_int_equal(region(s, p, &fo, &fw), PINET_OK);
      assert_int_equal(region(paper, p, &po, &pw), PINET_OK);
      ref_region(op, N, M, p, output, &ro, &rw);
      CHECK(fw == rw && (rw == 0 || fo == ro) && fw == pw && fo == po,
            "%s: %s region of %d: fast [%u+%u), paper [%u+%u), definition [%u+%u)", what,
            output ? "output" : "input", p, fo, fw, po, pw, ro, rw);
    }
  }
}

/* mems[0..N-1] are the PEs', mems[N] the host's. */
static unsigned char *mem_at(void **mems, uint32_t N, int32_t pe) {
  return mems[pe < 0 ? N : (uint32_t)pe];
}

/* Run the fast and the paper schedule of one op on the same memories: random data placed at the
 * input regions of the definition, every other word random too (a word that is never written
 * shows). Both must leave, in every output region of the definition, the data of its addresses;
 * for 4-byte elements the cycle simulator (32-bit words) must end with the fast engine's
 * memories, host included. */
static void check_segment_results(const pinet_shuffle_schedule *fast,
                              const pinet_shuffle_schedule *paper, pinet_shuffle_elem elem,
                              pinet_rng *rng, const char *what) {
  pinet_shuffle_op op = pinet_shuffle_schedule_op(fast);
  uint32_t N = pinet_shuffle_schedule_pes(fast), M = pinet_shuffle_schedule_words(fast);
  uint32_t hw = pinet_shuffle_schedule_host_words(fast), off = 0, w = 0;
  size_t es = pinet_shuffle_elem_size(elem);
  unsigned char *data = xcalloc(M, es);
  random_elems(elem, rng, data, M);
  void **mf = mems_alloc(N + 1u, M, es), **mp = mems_alloc(N + 1u, M, es);
  for (uint32_t p = 0; p <= N; p++) {
    random_elems(elem, rng, mf[p], M);
  }
  for (int32_t p = -1; p < (int32_t)N; p++) {
    ref_region(op, N, M, p, 0, &off, &w);
    memcpy(mem_at(mf, N, p) + (size_t)off * es, data + (size_t)off * es, (size_t)w * es);
  }
  for (uint32_t p = 0; p <= N; p++) {
    memcpy(mp[p], mf[p], (size_t)M * es);
  }
  pinet_shuffle_cycle *sim = NULL;
  if (es == 4u) {
    assert_int_equal(pinet_shuffle_cycle_create(&sim, fast, (const uint32_t *const *)mf,
                                                hw ? (const uint32_t *)mf[N] : NULL),
                     PINET_OK);
  }
  assert_int_equal(pinet_shuffle_execute(fast, elem, mf, hw ? mf[N] : NULL), PINET_OK);
  assert_int_equal(pinet_shuffle_execute(paper, elem, mp, hw ? mp[N] : NULL), PINET_OK);
  for (int32_t p = -1; p < (int32_t)N; p++) {
    ref_region(op, N, M, p, 1, &off, &w);
    size_t at = (size_t)off * es, len = (size_t)w * es;
    CHECK(memcmp(mem_at(mf, N, p) + at, data + at, len) == 0,
          "%s: fast: memory %d [%u, %u) is not the data", what, p, off, off + w);
    CHECK(memcmp(mem_at(mp, N, p) + at, data + at, len) == 0,
          "%s: paper: memory %d [%u, %u) is not the data", what, p, off, off + w);
    CHECK(memcmp(mem_at(mf, N, p) + at, mem_at(mp, N, p) + at, len) == 0,
          "%s: memory %d: fast output differs from the paper's", what, p);
  }
  if (sim != NULL) {
    uint64_t T = 0;
    assert_int_equal(pinet_shuffle_cycle_run(sim), PINET_OK);
    assert_int_equal(pinet_shuffle_cycle_total(fast, &T), PINET_OK);
    CHECK(pinet_shuffle_cycle_now(sim) == T, "%s: simulator done at %" PRIu64 ", T = %" PRIu64,
          what, pinet_shuffle_cycle_now(sim), T);
    for (int32_t p = hw ? -1 : 0; p < (int32_t)N; p++) {
      CHECK(memcmp(pinet_shuffle_cycle_mem(sim, p), mem_at(mf, N, p), (size_t)M * 4u) == 0,
            "%s: simulator memory %d differs from the engine's", what, p);
    }
    pinet_shuffle_cycle_free(sim);
  }
  mems_free(mf, N + 1u);
  mems_free(mp, N + 1u);
  free(data);
}

static void check_fast_segment_op(pinet_shuffle_op op, uint32_t N, uint32_t M, pinet_rng *rng) {
  char what[96];
  snprintf(what, sizeof what, "fast %s N=%u M=%u", pinet_shuffle_op_name(op), N, M);
  pinet_shuffle_schedule *s = NULL, *paper = NULL;
  pinet_status st = pinet_shuffle_build_fast(&s, op, N, M);
  CHECK(st == PINET_OK, "%s: build status %d", what, (int)st);
  assert_int_equal(pinet_shuffle_build(&paper, op, N, M), PINET_OK);
  /* as many steps as the paper's: n + 1 with the host, n for gather; allgather: N/2 ring hops */
  uint32_t n = lg(N), want_steps = op == PINET_SHUFFLE_OP_GATHER      ? n
                                   : op == PINET_SHUFFLE_OP_ALLGATHER ? N / 2u
                                                                      : n + 1u;
  CHECK(pinet_shuffle_schedule_step_count(s) == want_steps, "%s: %u steps", what,
        pinet_shuffle_schedule_step_count(s));
  /* N = 2 gather: PE 1 sends on two channels at once, nothing to relay; allgather forwards
   * only what arrived in an earlier step */
  int want_ct = !(op == PINET_SHUFFLE_OP_GATHER && N == 2u) && op != PINET_SHUFFLE_OP_ALLGATHER;
  CHECK(pinet_shuffle_schedule_cut_through(s) == want_ct, "%s: cut_through", what);
  uint64_t T = 0, bound = 0;
  assert_int_equal(pinet_shuffle_cycle_total(s, &T), PINET_OK);
  CHECK(T == ref_fast_cycles(op, N, M), "%s: T = %" PRIu64 ", want %" PRIu64, what, T,
        ref_fast_cycles(op, N, M));
  assert_int_equal(pinet_shuffle_link_bound(op, N, M, &bound), PINET_OK);
  CHECK(bound == ref_bound(op, N, M), "%s: bound %" PRIu64 ", want %" PRIu64, what, bound,
        ref_bound(op, N, M));
  CHECK(T >= bound, "%s: T = %" PRIu64 " beats the bound %" PRIu64, what, T, bound);
  pinet_shuffle_report rep;
  assert_int_equal(pinet_shuffle_report_compute(s, NULL, &rep), PINET_OK);
  CHECK(rep.cycles == T && rep.link_time + rep.steps == T, "%s: report cycles %" PRIu64
        " link_time %" PRIu64, what, rep.cycles, rep.link_time);
  check_regions(s, paper, op, N, M, what);
  check_structure(s, what, T);
  check_segment_results(s, paper, PINET_SHUFFLE_I32, rng, what);
  check_segment_results(s, paper, PINET_SHUFFLE_F32, rng, what);
  check_segment_results(s, paper, PINET_SHUFFLE_F64, rng, what);
  pinet_shuffle_schedule_free(s);
  pinet_shuffle_schedule_free(paper);
}

static const pinet_shuffle_op k_segment_ops[4] = {PINET_SHUFFLE_OP_SCATTER, PINET_SHUFFLE_OP_UPLOAD,
                                              PINET_SHUFFLE_OP_GATHER, PINET_SHUFFLE_OP_ALLGATHER};

static void test_shuffle_fast_segment_ops(void **state) {
  (void)state;
  sweep_sizes(k_segment_ops, 4, 0, check_fast_segment_op); /* M a multiple of N */
}

/* Within 5% of the bound at N = 64 for large M (and well ahead of the paper schedules). */
static void test_shuffle_fast_segment_ops_near_bound(void **state) {
  (void)state;
  const uint32_t N = 64;
  for (int o = 0; o < 4; o++) {
    for (uint32_t mult = 64; mult <= 128; mult *= 2u) {
      uint32_t M = mult * N;
      const char *name = pinet_shuffle_op_name(k_segment_ops[o]);
      pinet_shuffle_schedule *s = NULL, *paper = NULL;
      assert_int_equal(pinet_shuffle_build_fast(&s, k_segment_ops[o], N, M), PINET_OK);
      assert_int_equal(pinet_shuffle_build(&paper, k_segment_ops[o], N, M), PINET_OK);
      uint64_t T = 0, Tp = 0, bound = 0;
      assert_int_equal(pinet_shuffle_cycle_total(s, &T), PINET_OK);
      assert_int_equal(pinet_shuffle_cycle_total(paper, &Tp), PINET_OK);
      assert_int_equal(pinet_shuffle_link_bound(k_segment_ops[o], N, M, &bound), PINET_OK);
      CHECK(T >= bound && 100u * T <= 105u * bound,
            "%s N=%u M=%u: T = %" PRIu64 ", bound %" PRIu64, name, N, M, T, bound);
      CHECK(T < Tp, "%s N=%u M=%u: fast T = %" PRIu64 ", paper %" PRIu64, name, N, M, T, Tp);
      pinet_shuffle_schedule_free(s);
      pinet_shuffle_schedule_free(paper);
    }
  }
}

/* ---- fast integrate of int32 data: the ring, backwards ------------------------------------- */

static int same_transfers(const pinet_shuffle_schedule *a, const pinet_shuffle_schedule *b);

/* Every PE holds M random int32 words; PE j must end with segment j summed over the PEs modulo
 * 2^32, computed here word by word (and equal to the paper schedule's result, whose tree order
 * cannot matter for int32); the cycle simulator must end with the engine's memories. */
static void check_integrate_results(const pinet_shuffle_schedule *fast,
                                    const pinet_shuffle_schedule *paper, pinet_rng *rng,
                                    const char *what) {
  uint32_t N = pinet_shuffle_schedule_pes(fast), M = pinet_shuffle_schedule_words(fast);
  uint32_t S = M / N;
  void **mf = mems_alloc(N, M, 4), **mp = mems_alloc(N, M, 4);
  uint32_t *want = xcalloc(M, sizeof *want);
  for (uint32_t p = 0; p < N; p++) {
    uint32_t *x = mf[p];
    for (uint32_t a = 0; a < M; a++) {
      /* full 32-bit words: the sums wrap */
      x[a] = (uint32_t)(pinet_rng_next(rng) >> 32);
      want[a] += x[a];
    }
    memcpy(mp[p], mf[p], (size_t)M * 4u);
  }
  pinet_shuffle_cycle *sim = NULL;
  assert_int_equal(pinet_shuffle_cycle_create(&sim, fast, (const uint32_t *const *)mf, NULL),
                   PINET_OK);
  assert_int_equal(pinet_shuffle_execute(fast, PINET_SHUFFLE_I32, mf, NULL), PINET_OK);
  assert_int_equal(pinet_shuffle_execute(paper, PINET_SHUFFLE_I32, mp, NULL), PINET_OK);
  for (uint32_t j = 0; j < N; j++) {
    const uint32_t *f = mf[j], *pp = mp[j];
    for (uint32_t i = 0; i < S; i++) {
      uint32_t a = j * S + i;
      CHECK(f[a] == want[a], "%s: PE %u word %u = %u, the sum is %u", what, j, a, f[a], want[a]);
      CHECK(pp[a] == want[a], "%s: paper: PE %u word %u = %u, the sum is %u", what, j, a, pp[a],
            want[a]);
    }
  }
  uint64_t T = 0;
  assert_int_equal(pinet_shuffle_cycle_run(sim), PINET_OK);
  assert_int_equal(pinet_shuffle_cycle_total(fast, &T), PINET_OK);
  CHECK(pinet_shuffle_cycle_now(sim) == T, "%s: simulator done at %" PRIu64 ", T = %" PRIu64, what,
        pinet_shuffle_cycle_now(sim), T);
  for (uint32_t p = 0; p < N; p++) {
    CHECK(memcmp(pinet_shuffle_cycle_mem(sim, (int32_t)p), mf[p], (size_t)M * 4u) == 0,
          "%s: simulator memory of PE %u differs from the engine's", what, p);
  }
  pinet_shuffle_cycle_free(sim);
  mems_free(mf, N);
  mems_free(mp, N);
  free(want);
}

/* T of the int32 integrate: N/2 setup cycles, step 1 ceil(S/2) words, steps 2 .. N/2 S words
 * each (the fast allgather's T, its steps in reverse order). */
static uint64_t ref_integrate_cycles(uint32_t N, uint32_t M) {
  uint64_t S = M / N;
  return N / 2u + ceil_half(S) + (N / 2u - 1u) * S;
}

static void check_fast_integrate(pinet_shuffle_op op, uint32_t N, uint32_t M, pinet_rng *rng) {
  char what[96];
  snprintf(what, sizeof what, "fast %s (i32) N=%u M=%u", pinet_shuffle_op_name(op), N, M);
  pinet_shuffle_schedule *s = NULL, *paper = NULL;
  pinet_status st = pinet_shuffle_build_fast_typed(&s, op, N, M, PINET_SHUFFLE_I32);
  CHECK(st == PINET_OK, "%s: build status %d", what, (int)st);
  assert_int_equal(pinet_shuffle_build(&paper, op, N, M), PINET_OK);
  CHECK(pinet_shuffle_schedule_step_count(s) == N / 2u, "%s: %u steps", what,
        pinet_shuffle_schedule_step_count(s));
  CHECK(!pinet_shuffle_schedule_cut_through(s), "%s: cut_through", what);
  uint64_t T = 0, bound = 0;
  assert_int_equal(pinet_shuffle_cycle_total(s, &T), PINET_OK);
  CHECK(T == ref_integrate_cycles(N, M), "%s: T = %" PRIu64 ", want %" PRIu64, what, T,
        ref_integrate_cycles(N, M));
  assert_int_equal(pinet_shuffle_link_bound(op, N, M, &bound), PINET_OK);
  CHECK(bound == ceil_half(M - M / N) + 1u, "%s: bound %" PRIu64, what, bound);
  CHECK(T >= bound, "%s: T = %" PRIu64 " beats the bound %" PRIu64, what, T, bound);
  check_regions(s, paper, op, N, M, what);
  check_structure(s, what, T);
  check_integrate_results(s, paper, rng, what);
  pinet_shuffle_schedule_free(s);
  pinet_shuffle_schedule_free(paper);
}

/* N = 2 .. 256: the walk is allgather's (ring_walk), which the segment sweep runs up to
 * N = 1024; N = 512 and 1024 here would double this file's time under the sanitizers. */
static void test_shuffle_fast_integrate_i32(void **state) {
  (void)state;
  const pinet_shuffle_op ops[1] = {PINET_SHUFFLE_OP_INTEGRATE};
  sweep_sizes_to(256, ops, 1, 0, check_fast_integrate);
}

/* At N = 64, M = 64N and 128N: within 5% of the bound and ahead of the paper's. For f32 and f64
 * the typed builder gives the paper's schedule, transfer for transfer (and so does the untyped
 * pinet_shuffle_build_fast), because ring order changes float sums: shown on values where it
 * does, (1 + 2^24) + ... in float. */
static void test_shuffle_fast_integrate_types(void **state) {
  (void)state;
  for (uint32_t mult = 64; mult <= 128; mult *= 2u) {
    uint32_t N = 64, M = mult * N;
    pinet_shuffle_schedule *s = NULL, *paper = NULL;
    assert_int_equal(
        pinet_shuffle_build_fast_typed(&s, PINET_SHUFFLE_OP_INTEGRATE, N, M, PINET_SHUFFLE_I32),
        PINET_OK);
    assert_int_equal(pinet_shuffle_build(&paper, PINET_SHUFFLE_OP_INTEGRATE, N, M), PINET_OK);
    uint64_t T = 0, Tp = 0, bound = 0;
    assert_int_equal(pinet_shuffle_cycle_total(s, &T), PINET_OK);
    assert_int_equal(pinet_shuffle_cycle_total(paper, &Tp), PINET_OK);
    assert_int_equal(pinet_shuffle_link_bound(PINET_SHUFFLE_OP_INTEGRATE, N, M, &bound),
                     PINET_OK);
    CHECK(T >= bound && 100u * T <= 105u * bound, "integrate N=%u M=%u: T = %" PRIu64
          ", bound %" PRIu64, N, M, T, bound);
    CHECK(T < Tp, "integrate N=%u M=%u: fast T = %" PRIu64 ", paper %" PRIu64, N, M, T, Tp);
    pinet_shuffle_schedule_free(s);
    pinet_shuffle_schedule_free(paper);
  }
  const pinet_shuffle_elem floats[2] = {PINET_SHUFFLE_F32, PINET_SHUFFLE_F64};
  for (uint32_t N = 2; N <= 64; N *= 2u) {
    pinet_shuffle_schedule *ring = NULL, *paper = NULL, *f = NULL;
    assert_int_equal(pinet_shuffle_build_fast_typed(&ring, PINET_SHUFFLE_OP_INTEGRATE, N, 4u * N,
                                                    PINET_SHUFFLE_I32),
                     PINET_OK);
    assert_int_equal(pinet_shuffle_build(&paper, PINET_SHUFFLE_OP_INTEGRATE, N, 4u * N), PINET_OK);
    CHECK(!same_transfers(ring, paper), "N=%u: the int32 integrate is the paper's", N);
    for (int e = 0; e < 2; e++) {
      assert_int_equal(pinet_shuffle_build_fast_typed(&f, PINET_SHUFFLE_OP_INTEGRATE, N, 4u * N,
                                                      floats[e]),
                       PINET_OK);
      CHECK(same_transfers(f, paper), "N=%u elem %d: not the paper's", N, (int)floats[e]);
      pinet_shuffle_schedule_free(f);
    }
    pinet_shuffle_schedule_free(ring);
    pinet_shuffle_schedule_free(paper);
  }
  /* why: N = 4, M = 4 (one word per segment), float; one PE holds 2^24 in every word, the others
   * 1. Such sums depend on the order (2^24 + 1 rounds to 2^24, 2^24 + 2 is exact): the paper's
   * (x0 + x2) + (x1 + x3) and the ring's order must differ somewhere. */
  pinet_shuffle_schedule *ring = NULL, *paper = NULL;
  assert_int_equal(pinet_shuffle_build_fast_typed(&ring, PINET_SHUFFLE_OP_INTEGRATE, 4, 4,
                                                  PINET_SHUFFLE_I32),
                   PINET_OK);
  assert_int_equal(pinet_shuffle_build(&paper, PINET_SHUFFLE_OP_INTEGRATE, 4, 4), PINET_OK);
  int differs = 0;
  for (uint32_t big = 0; big < 4; big++) { /* 2^24 at each PE in turn */
    void **mr = mems_alloc(4, 4, 4), **mp = mems_alloc(4, 4, 4);
    for (uint32_t p = 0; p < 4; p++) {
      for (uint32_t a = 0; a < 4; a++) {
        ((float *)mr[p])[a] = p == big ? 16777216.0f : 1.0f;
        ((float *)mp[p])[a] = ((float *)mr[p])[a];
      }
    }
    assert_int_equal(pinet_shuffle_execute(ring, PINET_SHUFFLE_F32, mr, NULL), PINET_OK);
    assert_int_equal(pinet_shuffle_execute(paper, PINET_SHUFFLE_F32, mp, NULL), PINET_OK);
    for (uint32_t j = 0; j < 4; j++) {
      differs += ((float *)mr[j])[j] != ((float *)mp[j])[j];
    }
    mems_free(mr, 4);
    mems_free(mp, 4);
  }
  CHECK(differs > 0, "ring order gave the paper's float sums on every case: the reason for "
        "keeping the paper's schedule on floats is not shown");
  pinet_shuffle_schedule_free(ring);
  pinet_shuffle_schedule_free(paper);
}

/* Gather at N = 8, M = 64 (S = 8) literally, worked out by hand from section 13. Channels:
 * 2N + q = 16 + q is q's tree link back to floor(q/2), 3N + 1 = 25 is PE 1 -> PE 4 (= N/2),
 * N = 8 is PE 4 -> PE 0. */
static void test_shuffle_fast_gather_n8_literal(void **state) {
  (void)state;
  pinet_shuffle_schedule *s = NULL;
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_GATHER, 8, 64), PINET_OK);
  /* {src, dst, channel, offset, words, start} */
  static const uint32_t step1[3][6] = {
      /* PE 1's segment [8, 16): [8, 12) direct, [12, 16) via PE 4, one cycle later */
      {1, 0, 17, 8, 4, 0}, {1, 4, 25, 12, 4, 0}, {4, 0, 8, 12, 4, 1}};
  static const uint32_t step2[5][6] = {
      /* P_2 = [16, 32): L = PE 2's segment, U = PE 3's, 8 words each */
      {2, 1, 18, 16, 8, 0}, {3, 1, 19, 24, 8, 0},
      {1, 0, 17, 16, 8, 1}, {1, 4, 25, 24, 8, 1}, {4, 0, 8, 24, 8, 2}};
  static const uint32_t step3[9][6] = {
      /* P_3 = [32, 64): L = [32, 48) (PEs 4, 5), U = [48, 64) (PEs 6, 7); PE 5's words follow
       * PE 4's on into PE 2, so they start 8 cycles later */
      {4, 2, 20, 32, 8, 0}, {5, 2, 21, 40, 8, 8}, {6, 3, 22, 48, 8, 0}, {7, 3, 23, 56, 8, 8},
      {2, 1, 18, 32, 16, 1}, {3, 1, 19, 48, 16, 1},
      {1, 0, 17, 32, 16, 2}, {1, 4, 25, 48, 16, 2}, {4, 0, 8, 48, 16, 3}};
  const uint32_t(*want[3])[6] = {step1, step2, step3};
  const size_t count[3] = {3, 5, 9};
  assert_int_equal(pinet_shuffle_schedule_step_count(s), 3);
  for (uint32_t st = 0; st < 3; st++) {
    const pinet_shuffle_transfer *t = NULL;
    size_t nt = 0;
    assert_int_equal(pinet_shuffle_schedule_step(s, st, &t, &nt), PINET_OK);
    assert_int_equal(nt, count[st]);
    for (size_t i = 0; i < nt; i++) {
      const uint32_t *w = want[st][i];
      CHECK((uint32_t)t[i].src == w[0] && (uint32_t)t[i].dst == w[1] && t[i].channel == w[2] &&
                t[i].src_offset == w[3] && t[i].dst_offset == w[3] && t[i].words == w[4] &&
                t[i].start == w[5] && t[i].combine == PINET_SHUFFLE_COPY,
            "gather N=8 step %u transfer %zu: %d -> %d ch %u off %u words %u start %u", st + 1u,
            i, t[i].src, t[i].dst, t[i].channel, t[i].src_offset, t[i].words, t[i].start);
    }
  }
  uint64_t T = 0;
  assert_int_equal(pinet_shuffle_cycle_total(s, &T), PINET_OK);
  /* 3 setup cycles + L = 5 (4 relayed words + 1) + 10 (8 + 2) + 19 (16 + 3) */
  assert_int_equal(T, 3 + 5 + 10 + 19);
  pinet_shuffle_schedule_free(s);
}

/* Integrate from the untyped builder (its schedule may run on floats): the paper's, transfer for
 * transfer. The ring exchange (already at its bound) has no op builder, fast or paper: both
 * refuse it alike. */
static void test_shuffle_fast_others_are_paper(void **state) {
  (void)state;
  const pinet_shuffle_op ops[1] = {PINET_SHUFFLE_OP_INTEGRATE};
  for (uint32_t N = 2; N <= 64; N *= 2u) {
    for (int o = 0; o < 1; o++) {
      pinet_shuffle_schedule *a = NULL, *b = NULL;
      assert_int_equal(pinet_shuffle_build(&a, ops[o], N, 4u * N), PINET_OK);
      assert_int_equal(pinet_shuffle_build_fast(&b, ops[o], N, 4u * N), PINET_OK);
      CHECK(pinet_shuffle_schedule_step_count(a) == pinet_shuffle_schedule_step_count(b),
            "%s N=%u steps", pinet_shuffle_op_name(ops[o]), N);
      CHECK(!pinet_shuffle_schedule_cut_through(b), "%s N=%u start", pinet_shuffle_op_name(ops[o]),
            N);
      for (uint32_t st = 0; st < pinet_shuffle_schedule_step_count(a); st++) {
        const pinet_shuffle_transfer *ta = NULL, *tb = NULL;
        size_t na = 0, nb = 0;
        assert_int_equal(pinet_shuffle_schedule_step(a, st, &ta, &na), PINET_OK);
        assert_int_equal(pinet_shuffle_schedule_step(b, st, &tb, &nb), PINET_OK);
        CHECK(na == nb && memcmp(ta, tb, na * sizeof *ta) == 0, "%s N=%u step %u",
              pinet_shuffle_op_name(ops[o]), N, st);
      }
      pinet_shuffle_schedule_free(a);
      pinet_shuffle_schedule_free(b);
    }
    pinet_shuffle_schedule *r = NULL;
    assert_int_equal(pinet_shuffle_build(&r, PINET_SHUFFLE_OP_RING_EXCHANGE, N, 4u * N),
                     PINET_ERR_RANGE);
    assert_int_equal(pinet_shuffle_build_fast(&r, PINET_SHUFFLE_OP_RING_EXCHANGE, N, 4u * N),
                     PINET_ERR_RANGE);
    uint64_t bp = 0, bf = 0;
    assert_int_equal(pinet_shuffle_link_bound(PINET_SHUFFLE_OP_RING_EXCHANGE, N, 4u * N, &bp),
                     PINET_OK);
    assert_int_equal(
        pinet_shuffle_link_bound_fast(PINET_SHUFFLE_OP_RING_EXCHANGE, N, 4u * N, &bf), PINET_OK);
    assert_int_equal(bp, bf);
  }
  /* and the paper broadcasts have no cut-through transfer */
  pinet_shuffle_schedule *p = NULL;
  assert_int_equal(pinet_shuffle_build(&p, PINET_SHUFFLE_OP_BCAST_HOST, 64, 6 * 64), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_cut_through(p), 0);
  pinet_shuffle_schedule_free(p);
  assert_int_equal(pinet_shuffle_schedule_cut_through(NULL), 0);
}

static void test_shuffle_fast_bad_input(void **state) {
  (void)state;
  pinet_shuffle_schedule *s = NULL;
  assert_int_equal(pinet_shuffle_build_fast(NULL, PINET_SHUFFLE_OP_BCAST, 8, 8), PINET_ERR_NULL);
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_BCAST, 6, 8), PINET_ERR_SIZE);
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_BCAST, 2048, 8), PINET_ERR_SIZE);
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_BCAST, 8, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_BCAST_HOST, 8,
                                            PINET_SHUFFLE_MAX_WORDS + 1u),
                   PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_RING_EXCHANGE, 8, 8),
                   PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_CUSTOM, 8, 8), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_fast(&s, (pinet_shuffle_op)99, 8, 8), PINET_ERR_RANGE);
  /* the other ops keep their quantum, N */
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_INTEGRATE, 8, 12),
                   PINET_ERR_MISMATCH);
  assert_null(s);
  /* the typed builder: the same checks for the int32 integrate, and an unknown type */
  const pinet_shuffle_op integ = PINET_SHUFFLE_OP_INTEGRATE;
  const pinet_shuffle_elem i32 = PINET_SHUFFLE_I32;
  assert_int_equal(pinet_shuffle_build_fast_typed(&s, integ, 8, 12, i32), PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_build_fast_typed(&s, integ, 8, 0, i32), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_fast_typed(&s, integ, 8, PINET_SHUFFLE_MAX_WORDS + 8u, i32),
                   PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_fast_typed(&s, integ, 12, 24, i32), PINET_ERR_SIZE);
  assert_int_equal(pinet_shuffle_build_fast_typed(NULL, integ, 8, 8, i32), PINET_ERR_NULL);
  assert_int_equal(pinet_shuffle_build_fast_typed(&s, integ, 8, 8, (pinet_shuffle_elem)7),
                   PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_fast_typed(&s, PINET_SHUFFLE_OP_BCAST, 8, 8,
                                                  (pinet_shuffle_elem)-1),
                   PINET_ERR_RANGE);
  assert_null(s);
  for (int o = 0; o < 3; o++) {
    uint32_t q = 0;
    assert_int_equal(pinet_shuffle_fast_words_quantum(k_segment_ops[o], 8, &q), PINET_OK);
    assert_int_equal(q, 8);
    assert_int_equal(pinet_shuffle_build_fast(&s, k_segment_ops[o], 8, 12), PINET_ERR_MISMATCH);
    assert_int_equal(pinet_shuffle_build_fast(&s, k_segment_ops[o], 8, 0), PINET_ERR_RANGE);
    assert_int_equal(pinet_shuffle_build_fast(&s, k_segment_ops[o], 8, PINET_SHUFFLE_MAX_WORDS + 8u),
                     PINET_ERR_RANGE);
    assert_int_equal(pinet_shuffle_build_fast(&s, k_segment_ops[o], 12, 24), PINET_ERR_SIZE);
    assert_int_equal(pinet_shuffle_build_fast(NULL, k_segment_ops[o], 8, 8), PINET_ERR_NULL);
    assert_null(s);
  }
  /* the fast broadcasts have none: M = 8 on N = 8 is not a multiple of n = 3 */
  assert_int_equal(pinet_shuffle_build_fast(&s, PINET_SHUFFLE_OP_BCAST, 8, 8), PINET_OK);
  pinet_shuffle_schedule_free(s);
  s = NULL;
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_BCAST, 8, 8), PINET_ERR_MISMATCH);
  /* the bound for the fast schedules' M: any M for the broadcasts, the quantum for the others */
  uint64_t b = 0;
  assert_int_equal(pinet_shuffle_link_bound_fast(PINET_SHUFFLE_OP_BCAST, 8, 8, &b), PINET_OK);
  assert_int_equal(b, 4 + 3);
  assert_int_equal(pinet_shuffle_link_bound_fast(PINET_SHUFFLE_OP_BCAST_HOST, 8, 7, &b), PINET_OK);
  assert_int_equal(b, 7 + 3 + 1);
  assert_int_equal(pinet_shuffle_link_bound(PINET_SHUFFLE_OP_BCAST, 8, 8, &b), PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_link_bound_fast(PINET_SHUFFLE_OP_GATHER, 8, 12, &b),
                   PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_link_bound_fast(PINET_SHUFFLE_OP_BCAST, 8, 0, &b),
                   PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_link_bound_fast(PINET_SHUFFLE_OP_BCAST, 8, 8, NULL),
                   PINET_ERR_NULL);
}

/* ---- cut-through validity on hand-made schedules -------------------------------------------- */

static pinet_shuffle_transfer xfer(uint32_t N, uint32_t ch, uint32_t off, uint32_t words,
                                   pinet_shuffle_combine cmb, uint32_t start) {
  pinet_shuffle_transfer t;
  memset(&t, 0, sizeof t);
  assert_int_equal(pinet_shuffle_channel_ends(N, ch, &t.src, &t.dst), PINET_OK);
  t.channel = ch;
  t.src_offset = off;
  t.dst_offset = off;
  t.words = words;
  t.combine = cmb;
  t.start = start;
  return t;
}

/* One step of `count` transfers on N = 4, M = 8: the finish status, and when valid the engine
 * and the cycle simulator agree and PE 3's [0, 4) is `expect3` (NULL = not checked). */
static void run_custom(const pinet_shuffle_transfer *t, size_t count, pinet_status expect,
                       const uint32_t *expect3, const char *what) {
  const uint32_t N = 4, M = 8;
  pinet_shuffle_schedule *s = NULL;
  assert_int_equal(pinet_shuffle_schedule_create(&s, N, M, 0), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_add_step(s), PINET_OK);
  for (size_t i = 0; i < count; i++) {
    assert_int_equal(pinet_shuffle_schedule_add(s, &t[i]), PINET_OK);
  }
  pinet_status st = pinet_shuffle_schedule_finish(s);
  CHECK(st == expect, "%s: finish status %d, want %d", what, (int)st, (int)expect);
  if (st == PINET_OK) {
    /* PE p holds 100 p + address */
    void **pe = mems_alloc(N, M, 4);
    for (uint32_t p = 0; p < N; p++) {
      for (uint32_t a = 0; a < M; a++) {
        ((uint32_t *)pe[p])[a] = 100u * p + a;
      }
    }
    pinet_shuffle_cycle *sim = NULL;
    assert_int_equal(pinet_shuffle_cycle_create(&sim, s, (const uint32_t *const *)pe, NULL),
                     PINET_OK);
    assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, pe, NULL), PINET_OK);
    assert_int_equal(pinet_shuffle_cycle_run(sim), PINET_OK);
    for (uint32_t p = 0; p < N; p++) {
      CHECK(memcmp(pinet_shuffle_cycle_mem(sim, (int32_t)p), pe[p], M * 4u) == 0,
            "%s: PE %u engine != cycle model", what, p);
    }
    if (expect3 != NULL) {
      CHECK(memcmp(pe[3], expect3, 4 * 4u) == 0, "%s: PE 3 holds %u %u %u %u", what,
            ((uint32_t *)pe[3])[0], ((uint32_t *)pe[3])[1], ((uint32_t *)pe[3])[2],
            ((uint32_t *)pe[3])[3]);
    }
    pinet_shuffle_cycle_free(sim);
    mems_free(pe, N);
  }
  pinet_shuffle_schedule_free(s);
}

static void test_shuffle_fast_cut_through_rules(void **state) {
  (void)state;
  const uint32_t N = 4;
  /* N = 4 channels: 1 = 0 -> 1, 3 = 1 -> 3, 5 = 2 -> 1 (forward links 1, 3, 5). PE 1 relays
   * words of PE 0 to PE 3; PE p holds 100 p + address before the step. */
  const pinet_shuffle_combine C = PINET_SHUFFLE_COPY, A = PINET_SHUFFLE_ADD;
  const uint32_t from0[4] = {0, 1, 2, 3};        /* PE 0's words, relayed */
  const uint32_t old1[4] = {100, 101, 102, 103}; /* PE 1's own words */
  const uint32_t sum02[4] = {200, 202, 204, 206}; /* PE 0's + PE 2's */
  /* one cycle later: word i lands in PE 1 in cycle i, leaves in cycle i + 1: legal */
  pinet_shuffle_transfer later[2] = {xfer(N, 1, 0, 4, C, 0), xfer(N, 3, 0, 4, C, 1)};
  run_custom(later, 2, PINET_OK, from0, "cut-through one cycle later");
  /* the same with the forwarding hop listed first (results never depend on the list order) */
  pinet_shuffle_transfer later_swapped[2] = {later[1], later[0]};
  run_custom(later_swapped, 2, PINET_OK, from0, "cut-through, list order swapped");
  /* three cycles later is as good: every write before the read */
  pinet_shuffle_transfer much_later[2] = {xfer(N, 1, 0, 4, C, 0), xfer(N, 3, 0, 4, C, 3)};
  run_custom(much_later, 2, PINET_OK, from0, "cut-through three cycles later");
  /* read in the cycle the word is written, by a cut-through transfer: refused */
  pinet_shuffle_transfer same[2] = {xfer(N, 1, 0, 4, C, 1), xfer(N, 3, 0, 4, C, 1)};
  run_custom(same, 2, PINET_ERR_ILLEGAL_MOVE, NULL, "cut-through read in the write's cycle");
  /* a cut-through read before every write: legal, sees PE 1's old words */
  pinet_shuffle_transfer before[2] = {xfer(N, 1, 0, 4, C, 2), xfer(N, 3, 0, 4, C, 1)};
  run_custom(before, 2, PINET_OK, old1, "cut-through read before the write");
  /* store-and-forward in the write's cycle: legal as in the paper rules, sees the old words */
  pinet_shuffle_transfer saf_same[2] = {xfer(N, 1, 0, 4, C, 0), xfer(N, 3, 0, 4, C, 0)};
  run_custom(saf_same, 2, PINET_OK, old1, "store-and-forward, same cycle");
  /* the old hazard, all starts 0: PE 1 receives into [1,5) and sends [0,4): address a written
   * in cycle a - 1, read in cycle a: still refused */
  pinet_shuffle_transfer old_hazard[2] = {xfer(N, 1, 1, 4, C, 0), xfer(N, 3, 0, 4, C, 0)};
  run_custom(old_hazard, 2, PINET_ERR_ILLEGAL_MOVE, NULL, "old read-after-write hazard");
  /* the same pattern with start 1 on both: the reader is cut-through, it reads address a in
   * cycle a + 1, one cycle after the word landed: legal (address 0 is never written) */
  const uint32_t mixed[4] = {100, 1, 2, 3};
  pinet_shuffle_transfer shifted[2] = {xfer(N, 1, 1, 4, C, 1), xfer(N, 3, 0, 4, C, 1)};
  run_custom(shifted, 2, PINET_OK, mixed, "the old hazard's pattern, cut-through");
  /* a cut-through read between two writes of one address: PE 1's address 1 gets an ADD from
   * PE 2 in cycle 0 and one from PE 0 in cycle 3, and is read in cycle 2: refused */
  pinet_shuffle_transfer half[3] = {xfer(N, 5, 1, 1, A, 0), xfer(N, 1, 1, 1, A, 3),
                                    xfer(N, 3, 0, 4, C, 1)};
  run_custom(half, 3, PINET_ERR_ILLEGAL_MOVE, NULL, "cut-through read between two writes");
  /* cut-through after an integration adder: COPY from PE 0 and ADD from PE 2 land in cycles
   * 0..3, PE 1 forwards the sums from cycle 1 on */
  pinet_shuffle_transfer adder[3] = {xfer(N, 1, 0, 4, C, 0), xfer(N, 5, 0, 4, A, 0),
                                     xfer(N, 3, 0, 4, C, 1)};
  run_custom(adder, 3, PINET_OK, sum02, "cut-through after the adder");
  /* start + words beyond 2^32 - 1 */
  pinet_shuffle_schedule *s = NULL;
  assert_int_equal(pinet_shuffle_schedule_create(&s, N, 8, 0), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_add_step(s), PINET_OK);
  pinet_shuffle_transfer big = xfer(N, 1, 0, 4, C, UINT32_MAX - 3u);
  assert_int_equal(pinet_shuffle_schedule_add(s, &big), PINET_ERR_RANGE);
  big.start = UINT32_MAX - 4u;
  assert_int_equal(pinet_shuffle_schedule_add(s, &big), PINET_OK);
  pinet_shuffle_schedule_free(s);
}

/* 1 if a and b have the same steps, transfer for transfer (every field, start included). */
static int same_transfers(const pinet_shuffle_schedule *a, const pinet_shuffle_schedule *b) {
  if (pinet_shuffle_schedule_step_count(a) != pinet_shuffle_schedule_step_count(b) ||
      pinet_shuffle_schedule_words(a) != pinet_shuffle_schedule_words(b) ||
      pinet_shuffle_schedule_host_words(a) != pinet_shuffle_schedule_host_words(b)) {
    return 0;
  }
  for (uint32_t st = 0; st < pinet_shuffle_schedule_step_count(a); st++) {
    const pinet_shuffle_transfer *ta = NULL, *tb = NULL;
    size_t na = 0, nb = 0;
    if (pinet_shuffle_schedule_step(a, st, &ta, &na) != PINET_OK ||
        pinet_shuffle_schedule_step(b, st, &tb, &nb) != PINET_OK || na != nb ||
        memcmp(ta, tb, na * sizeof *ta) != 0) {
      return 0;
    }
  }
  return 1;
}

/* The kind builder's PAPER and FAST schedules of (op, N, M) are pinet_shuffle_build's and the
 * fast builder's, transfer for transfer: for elem < 0 pinet_shuffle_build_kind against
 * pinet_shuffle_build_fast, else pinet_shuffle_build_kind_typed against _build_fast_typed. */
static void check_kind_builds(pinet_shuffle_op op, uint32_t N, uint32_t M, int elem) {
  const pinet_shuffle_elem e = elem < 0 ? PINET_SHUFFLE_F64 : (pinet_shuffle_elem)elem;
  pinet_shuffle_schedule *want_p = NULL, *want_f = NULL, *got_p = NULL, *got_f = NULL;
  assert_int_equal(pinet_shuffle_build(&want_p, op, N, M), PINET_OK);
  if (elem < 0) {
    assert_int_equal(pinet_shuffle_build_fast(&want_f, op, N, M), PINET_OK);
    assert_int_equal(pinet_shuffle_build_kind(&got_p, PINET_SHUFFLE_PAPER, op, N, M), PINET_OK);
    assert_int_equal(pinet_shuffle_build_kind(&got_f, PINET_SHUFFLE_FAST, op, N, M), PINET_OK);
  } else {
    assert_int_equal(pinet_shuffle_build_fast_typed(&want_f, op, N, M, e), PINET_OK);
    assert_int_equal(pinet_shuffle_build_kind_typed(&got_p, PINET_SHUFFLE_PAPER, op, N, M, e),
                     PINET_OK);
    assert_int_equal(pinet_shuffle_build_kind_typed(&got_f, PINET_SHUFFLE_FAST, op, N, M, e),
                     PINET_OK);
  }
  CHECK(same_transfers(got_p, want_p), "build_kind paper %s type %d N=%u M=%u",
        pinet_shuffle_op_name(op), elem, N, M);
  CHECK(same_transfers(got_f, want_f), "build_kind fast %s type %d N=%u M=%u",
        pinet_shuffle_op_name(op), elem, N, M);
  pinet_shuffle_schedule_free(want_p);
  pinet_shuffle_schedule_free(want_f);
  pinet_shuffle_schedule_free(got_p);
  pinet_shuffle_schedule_free(got_f);
}

/* pinet_shuffle_build_kind: PAPER is pinet_shuffle_build's schedule and FAST
 * pinet_shuffle_build_fast's, transfer for transfer, and their errors (M = 5 on 8 PEs: not a
 * multiple of N for scatter, accepted by the fast broadcast, refused by the paper's); another kind
 * is PINET_ERR_RANGE with *out set to NULL. */
static void test_shuffle_fast_build_kind(void **state) {
  (void)state;
  const pinet_shuffle_op ops[7] = {PINET_SHUFFLE_OP_BCAST,     PINET_SHUFFLE_OP_BCAST_HOST,
                                   PINET_SHUFFLE_OP_SCATTER,   PINET_SHUFFLE_OP_INTEGRATE,
                                   PINET_SHUFFLE_OP_ALLGATHER, PINET_SHUFFLE_OP_GATHER,
                                   PINET_SHUFFLE_OP_UPLOAD};
  for (uint32_t N = 2; N <= 64; N *= 2u) {
    const uint32_t M = 6u * N * lg(N); /* a multiple of N and of log2 N: every op builds */
    for (int o = 0; o < 7; o++) check_kind_builds(ops[o], N, M, -1);
  }
  /* the schedules differ where they should: the check above can tell them apart */
  pinet_shuffle_schedule *p = NULL, *f = NULL;
  assert_int_equal(pinet_shuffle_build_kind(&p, PINET_SHUFFLE_PAPER, PINET_SHUFFLE_OP_SCATTER, 8,
                                            64), PINET_OK);
  assert_int_equal(pinet_shuffle_build_kind(&f, PINET_SHUFFLE_FAST, PINET_SHUFFLE_OP_SCATTER, 8,
                                            64), PINET_OK);
  assert_false(same_transfers(p, f));
  assert_int_equal(pinet_shuffle_schedule_cut_through(p), 0);
  assert_int_equal(pinet_shuffle_schedule_cut_through(f), 1);
  pinet_shuffle_schedule_free(p);
  pinet_shuffle_schedule_free(f);
  /* each builder's own errors */
  assert_int_equal(pinet_shuffle_build_kind(&p, PINET_SHUFFLE_PAPER, PINET_SHUFFLE_OP_SCATTER, 8,
                                            5), PINET_ERR_MISMATCH);
  assert_null(p);
  assert_int_equal(pinet_shuffle_build_kind(&p, PINET_SHUFFLE_PAPER, PINET_SHUFFLE_OP_BCAST, 8, 5),
                   PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_build_kind(&f, PINET_SHUFFLE_FAST, PINET_SHUFFLE_OP_BCAST, 8, 5),
                   PINET_OK);
  pinet_shuffle_schedule_free(f);
  assert_int_equal(pinet_shuffle_build_kind(&p, PINET_SHUFFLE_FAST, PINET_SHUFFLE_OP_SCATTER, 3, 6),
                   PINET_ERR_SIZE);
  /* another kind: refused, *out cleared (it held a stale pointer) */
  pinet_shuffle_schedule *stale = (pinet_shuffle_schedule *)&p;
  p = stale;
  assert_int_equal(pinet_shuffle_build_kind(&p, (pinet_shuffle_kind)2, PINET_SHUFFLE_OP_SCATTER, 8,
                                            64), PINET_ERR_RANGE);
  assert_null(p);
  p = stale;
  assert_int_equal(pinet_shuffle_build_kind(&p, (pinet_shuffle_kind)-1, PINET_SHUFFLE_OP_BCAST, 8,
                                            64), PINET_ERR_RANGE);
  assert_null(p);
  assert_int_equal(pinet_shuffle_build_kind(NULL, PINET_SHUFFLE_PAPER, PINET_SHUFFLE_OP_BCAST, 8,
                                            6), PINET_ERR_NULL);
}

/* pinet_shuffle_build_kind_typed: PAPER is pinet_shuffle_build's schedule for every type, FAST
 * pinet_shuffle_build_fast_typed's for that type (so the i32 integrate is the ring's, which the
 * untyped builder's is not: the check below can tell them apart); an unknown elem or kind is
 * PINET_ERR_RANGE with *out cleared, a NULL out PINET_ERR_NULL. */
static void test_shuffle_fast_build_kind_typed(void **state) {
  (void)state;
  const pinet_shuffle_op ops[3] = {PINET_SHUFFLE_OP_INTEGRATE, PINET_SHUFFLE_OP_ALLGATHER,
                                   PINET_SHUFFLE_OP_SCATTER};
  const pinet_shuffle_elem elems[3] = {PINET_SHUFFLE_I32, PINET_SHUFFLE_F32, PINET_SHUFFLE_F64};
  for (uint32_t N = 2; N <= 32; N *= 2u) {
    const uint32_t M = 4u * N;
    for (int o = 0; o < 3; o++) {
      for (int t = 0; t < 3; t++) check_kind_builds(ops[o], N, M, (int)elems[t]);
    }
  }
  pinet_shuffle_schedule *i32 = NULL, *any = NULL;
  assert_int_equal(pinet_shuffle_build_kind_typed(&i32, PINET_SHUFFLE_FAST,
                                                  PINET_SHUFFLE_OP_INTEGRATE, 8, 64,
                                                  PINET_SHUFFLE_I32),
                   PINET_OK);
  assert_int_equal(pinet_shuffle_build_kind(&any, PINET_SHUFFLE_FAST, PINET_SHUFFLE_OP_INTEGRATE,
                                            8, 64),
                   PINET_OK);
  assert_false(same_transfers(i32, any));
  pinet_shuffle_schedule_free(i32);
  pinet_shuffle_schedule_free(any);
  pinet_shuffle_schedule *p = NULL, *stale = (pinet_shuffle_schedule *)&p;
  for (int k = 0; k < 2; k++) {
    p = stale;
    assert_int_equal(pinet_shuffle_build_kind_typed(&p, (pinet_shuffle_kind)k,
                                                    PINET_SHUFFLE_OP_SCATTER, 8, 64,
                                                    (pinet_shuffle_elem)3),
                     PINET_ERR_RANGE);
    assert_null(p);
  }
  p = stale;
  assert_int_equal(pinet_shuffle_build_kind_typed(&p, (pinet_shuffle_kind)2,
                                                  PINET_SHUFFLE_OP_SCATTER, 8, 64,
                                                  PINET_SHUFFLE_I32),
                   PINET_ERR_RANGE);
  assert_null(p);
  assert_int_equal(pinet_shuffle_build_kind_typed(NULL, PINET_SHUFFLE_FAST, PINET_SHUFFLE_OP_BCAST,
                                                  8, 6, PINET_SHUFFLE_I32),
                   PINET_ERR_NULL);
}

int main(void) {
  g_seed = test_seed("test_shuffle_fast", g_seed);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shuffle_fast_bcast),
      cmocka_unit_test(test_shuffle_fast_bcast_n8_literal),
      cmocka_unit_test(test_shuffle_fast_segment_ops),
      cmocka_unit_test(test_shuffle_fast_segment_ops_near_bound),
      cmocka_unit_test(test_shuffle_fast_integrate_i32),
      cmocka_unit_test(test_shuffle_fast_integrate_types),
      cmocka_unit_test(test_shuffle_fast_gather_n8_literal),
      cmocka_unit_test(test_shuffle_fast_others_are_paper),
      cmocka_unit_test(test_shuffle_fast_bad_input),
      cmocka_unit_test(test_shuffle_fast_cut_through_rules),
      cmocka_unit_test(test_shuffle_fast_build_kind),
      cmocka_unit_test(test_shuffle_fast_build_kind_typed),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
