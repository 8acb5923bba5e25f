/* test_shuffle.c - unit tests of pinet/shuffle.h (static perfect-shuffle network, paper 000).
 *
 * Every check is against an independent computation written here: the de Bruijn formulas, the
 * step counts and link loads of Propositions 1-4 and SPEC §2, the literal N = 8 scatter of
 * SPEC §2, direct sums / concatenations of random data, a tree-order float recursion, a
 * Hamiltonian-cycle checker, and the paper's N = 32 ring. Random tests print their seed
 * (override with PINET_TEST_SEED) and every failure names the seed and case. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/rng.h"
#include "pinet/shuffle.h"
#include "test_support.h"

/* ---- helpers ----------------------------------------------------------------------------- */

static uint64_t g_seed = 20240611u;

#define CHECK(cond, ...) CHECK_SEED(g_seed, cond, __VA_ARGS__)

static uint32_t lg(uint32_t n) {
  uint32_t k = 0;
  while ((1u << k) < n) {
    k++;
  }
  return k;
}

static pinet_shuffle_schedule *build_ok(pinet_shuffle_op op, uint32_t pes, uint32_t words) {
  pinet_shuffle_schedule *s = NULL;
  pinet_status st = pinet_shuffle_build(&s, op, pes, words);
  CHECK(st == PINET_OK, "build %s N=%u M=%u: status %d", pinet_shuffle_op_name(op), pes, words,
        (int)st);
  return s;
}

/* Independent channel model: the ends of channel c (SPEC §2 + the header's numbering). */
static void ref_channel(uint32_t N, uint32_t c, int32_t *src, int32_t *dst) {
  if (c < 2 * N) {
    *src = (int32_t)(c / 2);
    *dst = (int32_t)((2 * (c / 2) + (c % 2)) % N);
  } else if (c < 4 * N) {
    uint32_t l = c - 2 * N;
    *src = (int32_t)((2 * (l / 2) + (l % 2)) % N);
    *dst = (int32_t)(l / 2);
  } else if (c == 4 * N) {
    *src = -1;
    *dst = 0;
  } else {
    *src = 0;
    *dst = -1;
  }
}

static const pinet_shuffle_op k_ops[] = {
    PINET_SHUFFLE_OP_BCAST,     PINET_SHUFFLE_OP_BCAST_HOST, PINET_SHUFFLE_OP_SCATTER,
    PINET_SHUFFLE_OP_INTEGRATE, PINET_SHUFFLE_OP_ALLGATHER,  PINET_SHUFFLE_OP_GATHER,
    PINET_SHUFFLE_OP_UPLOAD};
#define N_OPS (sizeof k_ops / sizeof k_ops[0])

/* Step counts from the paper (SPEC §2) and the header's definitions. */
static uint32_t ref_steps(pinet_shuffle_op op, uint32_t n, uint32_t *pe_steps) {
  switch (op) {
    case PINET_SHUFFLE_OP_BCAST: *pe_steps = 2 * n - 1; return 2 * n - 1;
    case PINET_SHUFFLE_OP_BCAST_HOST: *pe_steps = 2 * n - 1; return 2 * n;
    case PINET_SHUFFLE_OP_SCATTER: *pe_steps = n; return n + 1;
    case PINET_SHUFFLE_OP_UPLOAD: *pe_steps = n; return n + 1;
    default: *pe_steps = n; return n;
  }
}

/* A word count valid for op on N PEs: k times the quantum the paper's algorithm needs. */
static uint32_t ref_words(pinet_shuffle_op op, uint32_t N, uint32_t k) {
  if (op == PINET_SHUFFLE_OP_BCAST || op == PINET_SHUFFLE_OP_BCAST_HOST) {
    return lg(N) * k;
  }
  return N * k;
}

/* ---- topology ---------------------------------------------------------------------------- */

static void test_shuffle_topology(void **state) {
  (void)state;
  for (uint32_t n = 1; n <= 10; n++) {
    uint32_t N = 1u << n, got_n = 0;
    assert_int_equal(pinet_shuffle_log2(N, &got_n), PINET_OK);
    assert_int_equal(got_n, n);
    for (uint32_t i = 0; i < N; i++) {
      uint32_t succ[2], pred[2];
      assert_int_equal(pinet_shuffle_successors(N, i, succ), PINET_OK);
      CHECK(succ[0] == (2 * i) % N && succ[1] == (2 * i + 1) % N, "succ N=%u i=%u", N, i);
      assert_int_equal(pinet_shuffle_predecessors(N, i, pred), PINET_OK);
      /* brute force: the PEs p whose successors include i */
      uint32_t found[2], nf = 0;
      for (uint32_t p = 0; p < N; p++) {
        for (uint32_t b = 0; b < 2; b++) {
          if ((2 * p + b) % N == i) {
            CHECK(nf < 2, "more than 2 predecessors N=%u i=%u", N, i);
            found[nf++] = p;
          }
        }
      }
      CHECK(nf == 2 && found[0] == pred[0] && found[1] == pred[1], "pred N=%u i=%u", N, i);
      int loop = 0;
      assert_int_equal(pinet_shuffle_self_loop(N, i, &loop), PINET_OK);
      int ref_loop = (2 * i) % N == i || (2 * i + 1) % N == i;
      CHECK(loop == ref_loop, "self loop N=%u i=%u", N, i);
      CHECK(ref_loop == (i == 0 || i == N - 1), "self loops only at 0 and N-1, N=%u", N);
    }
    /* channels: ends, ports, and the channels between every pair */
    uint32_t nch = PINET_SHUFFLE_CHANNELS(N);
    uint32_t *out_seen = xcalloc(nch, sizeof *out_seen), *in_seen = xcalloc(nch, sizeof *in_seen);
    assert_non_null(out_seen);
    assert_non_null(in_seen);
    for (uint32_t c = 0; c < nch; c++) {
      int32_t a, b, ra, rb;
      assert_int_equal(pinet_shuffle_channel_ends(N, c, &a, &b), PINET_OK);
      ref_channel(N, c, &ra, &rb);
      CHECK(a == ra && b == rb, "channel ends N=%u c=%u: %d->%d vs %d->%d", N, c, a, b, ra, rb);
    }
    int32_t a, b;
    assert_int_equal(pinet_shuffle_channel_ends(N, nch, &a, &b), PINET_ERR_RANGE);
    for (uint32_t j = 0; j < N; j++) {
      uint32_t oc[4], ic[4];
      assert_int_equal(pinet_shuffle_pe_ports(N, j, oc, ic), PINET_OK);
      for (int p = 0; p < 4; p++) {
        int32_t s1, d1;
        ref_channel(N, oc[p], &s1, &d1);
        CHECK(s1 == (int32_t)j, "out port %d of PE %u N=%u", p, j, N);
        ref_channel(N, ic[p], &s1, &d1);
        CHECK(d1 == (int32_t)j, "in port %d of PE %u N=%u", p, j, N);
        out_seen[oc[p]]++;
        in_seen[ic[p]]++;
      }
      /* out 0/1 go to the successors, out 2/3 to the predecessors */
      int32_t s1, d1;
      ref_channel(N, oc[0], &s1, &d1);
      CHECK(d1 == (int32_t)((2 * j) % N), "out 0 N=%u j=%u", N, j);
      ref_channel(N, oc[3], &s1, &d1);
      CHECK(d1 == (int32_t)(j / 2 + N / 2), "out 3 N=%u j=%u", N, j);
    }
    for (uint32_t c = 0; c < 4 * N; c++) {
      CHECK(out_seen[c] == 1 && in_seen[c] == 1, "channel %u on exactly one port each, N=%u", c, N);
    }
    free(out_seen);
    free(in_seen);
    if (N <= 64) {
      for (int32_t x = -1; x < (int32_t)N; x++) {
        for (int32_t y = -1; y < (int32_t)N; y++) {
          uint32_t got[4];
          size_t cnt = 9;
          assert_int_equal(pinet_shuffle_channels_between(N, x, y, got, &cnt), PINET_OK);
          size_t k = 0;
          for (uint32_t c = 0; c < nch; c++) {
            int32_t ra, rb;
            ref_channel(N, c, &ra, &rb);
            if (ra == x && rb == y) {
              CHECK(k < cnt && got[k] == c, "channels_between N=%u %d->%d", N, x, y);
              k++;
            }
          }
          CHECK(k == cnt, "channels_between count N=%u %d->%d", N, x, y);
        }
      }
    }
  }
}

static void test_shuffle_bad_input(void **state) {
  (void)state;
  uint32_t n = 0;
  const uint32_t bad_pes[] = {0, 1, 3, 6, 12, 1000, 2048, 1u << 31, UINT32_MAX};
  for (size_t i = 0; i < sizeof bad_pes / sizeof bad_pes[0]; i++) {
    assert_int_equal(pinet_shuffle_log2(bad_pes[i], &n), PINET_ERR_SIZE);
    pinet_shuffle_schedule *s = (pinet_shuffle_schedule *)&n; /* must be reset to NULL */
    assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_INTEGRATE, bad_pes[i], 64),
                     PINET_ERR_SIZE);
    assert_null(s);
    uint32_t ring[8];
    assert_int_equal(pinet_shuffle_ring(bad_pes[i], ring), PINET_ERR_SIZE);
  }
  assert_int_equal(pinet_shuffle_log2(8, NULL), PINET_ERR_NULL);
  pinet_shuffle_schedule *s = NULL;
  /* M not divisible as the mode needs */
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_INTEGRATE, 8, 12), PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_ALLGATHER, 8, 4), PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_SCATTER, 16, 24), PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_GATHER, 4, 6), PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_BCAST, 8, 7), PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_BCAST_HOST, 1024, 25),
                   PINET_ERR_MISMATCH);
  assert_null(s);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_INTEGRATE, 8, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_SCATTER, 8, 1u << 29),
                   PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_RING_EXCHANGE, 8, 8), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build(&s, PINET_SHUFFLE_OP_CUSTOM, 8, 8), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build(&s, (pinet_shuffle_op)99, 8, 8), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build(NULL, PINET_SHUFFLE_OP_SCATTER, 8, 8), PINET_ERR_NULL);
  /* quantum: N, or log2 N for the broadcasts */
  uint32_t q = 0;
  assert_int_equal(pinet_shuffle_words_quantum(PINET_SHUFFLE_OP_BCAST, 32, &q), PINET_OK);
  assert_int_equal(q, 5);
  assert_int_equal(pinet_shuffle_words_quantum(PINET_SHUFFLE_OP_UPLOAD, 32, &q), PINET_OK);
  assert_int_equal(q, 32);
  /* names */
  pinet_shuffle_op op;
  assert_int_equal(pinet_shuffle_op_from_name("integrate", &op), PINET_OK);
  assert_int_equal(op, PINET_SHUFFLE_OP_INTEGRATE);
  assert_int_equal(pinet_shuffle_op_from_name("reduce", &op), PINET_ERR_RANGE);
  assert_null(pinet_shuffle_op_name((pinet_shuffle_op)42));
  assert_int_equal(pinet_shuffle_elem_size((pinet_shuffle_elem)7), 0);
  /* execution with missing memories or a bad element type */
  s = build_ok(PINET_SHUFFLE_OP_SCATTER, 4, 8);
  void **m = mems_alloc(4, 8, 4);
  assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, m, NULL), PINET_ERR_NULL);
  uint32_t host[8] = {0};
  assert_int_equal(pinet_shuffle_execute(s, (pinet_shuffle_elem)5, m, host), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_execute_steps(s, PINET_SHUFFLE_I32, m, host, 2, 5),
                   PINET_ERR_RANGE);
  void *saved = m[2];
  m[2] = NULL;
  assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, m, host), PINET_ERR_NULL);
  m[2] = saved;
  mems_free(m, 4);
  pinet_shuffle_schedule_free(s);
  pinet_shuffle_schedule_free(NULL);
  pinet_shuffle_cycle_free(NULL);
}

/* ---- schedules: SPEC literal, step counts, link volumes ----------------------------------- */

/* SPEC §2, N = 8: step 1 host->0 (data of PEs 4-7); step 2 0->1 (4-7), host->0 (2-3); step 3 1->2
 * (4-5), 1->3 (6-7), 0->1 (2-3), host->0 (1); step 4 2->4, 2->5, 3->6, 3->7, 1->2, 1->3, 0->1,
 * host->0. Each entry: src, dst, first segment, number of segments. */
static void test_shuffle_scatter_n8_literal(void **state) {
  (void)state;
  static const int lit[4][8][4] = {
      {{-1, 0, 4, 4}},
      {{0, 1, 4, 4}, {-1, 0, 2, 2}},
      {{1, 2, 4, 2}, {1, 3, 6, 2}, {0, 1, 2, 2}, {-1, 0, 1, 1}},
      {{2, 4, 4, 1}, {2, 5, 5, 1}, {3, 6, 6, 1}, {3, 7, 7, 1},
       {1, 2, 2, 1}, {1, 3, 3, 1}, {0, 1, 1, 1}, {-1, 0, 0, 1}}};
  static const size_t lit_count[4] = {1, 2, 4, 8};
  const uint32_t S = 3, M = 8 * S;
  pinet_shuffle_schedule *s = build_ok(PINET_SHUFFLE_OP_SCATTER, 8, M);
  assert_int_equal(pinet_shuffle_schedule_step_count(s), 4);
  for (uint32_t st = 0; st < 4; st++) {
    const pinet_shuffle_transfer *t = NULL;
    size_t cnt = 0;
    assert_int_equal(pinet_shuffle_schedule_step(s, st, &t, &cnt), PINET_OK);
    CHECK(cnt == lit_count[st], "step %u has %zu transfers", st + 1, cnt);
    for (size_t i = 0; i < cnt; i++) {
      const int *e = lit[st][i];
      CHECK(t[i].src == e[0] && t[i].dst == e[1], "step %u transfer %zu: %d->%d", st + 1, i,
            t[i].src, t[i].dst);
      CHECK(t[i].src_offset == (uint32_t)e[2] * S && t[i].dst_offset == (uint32_t)e[2] * S &&
                t[i].words == (uint32_t)e[3] * S,
            "step %u transfer %zu: segments", st + 1, i);
      CHECK(t[i].combine == PINET_SHUFFLE_COPY, "scatter copies");
      int32_t a, b;
      ref_channel(8, t[i].channel, &a, &b);
      CHECK(a == e[0] && b == e[1], "step %u transfer %zu channel %u", st + 1, i, t[i].channel);
    }
  }
  const pinet_shuffle_transfer *t = NULL;
  size_t cnt = 0;
  assert_int_equal(pinet_shuffle_schedule_step(s, 4, &t, &cnt), PINET_ERR_RANGE);
  pinet_shuffle_schedule_free(s);
}

static void test_shuffle_step_counts(void **state) {
  (void)state;
  for (uint32_t n = 1; n <= 10; n++) {
    uint32_t N = 1u << n;
    for (size_t o = 0; o < N_OPS; o++) {
      uint32_t M = ref_words(k_ops[o], N, 2);
      pinet_shuffle_schedule *s = build_ok(k_ops[o], N, M);
      uint32_t ref_pe = 0, ref = ref_steps(k_ops[o], n, &ref_pe);
      pinet_shuffle_report r;
      assert_int_equal(pinet_shuffle_report_compute(s, NULL, &r), PINET_OK);
      CHECK(pinet_shuffle_schedule_step_count(s) == ref && r.steps == ref && r.pe_steps == ref_pe,
            "%s N=%u: %u steps (%u PE), expected %u (%u)", pinet_shuffle_op_name(k_ops[o]), N,
            r.steps, r.pe_steps, ref, ref_pe);
      CHECK(pinet_shuffle_schedule_pes(s) == N && pinet_shuffle_schedule_words(s) == M &&
                pinet_shuffle_schedule_mem_words(s) == M,
            "accessors %s N=%u", pinet_shuffle_op_name(k_ops[o]), N);
      pinet_shuffle_schedule_free(s);
    }
  }
  /* explicitly: scatter log N + 1 = ceil(log2(N + 1)), bcast 2 log N - 1 */
  for (uint32_t n = 1; n <= 10; n++) {
    uint32_t N = 1u << n;
    pinet_shuffle_schedule *s = build_ok(PINET_SHUFFLE_OP_SCATTER, N, N);
    CHECK(pinet_shuffle_schedule_step_count(s) == (uint32_t)ceil(log2((double)N + 1.0)),
          "scatter N=%u = ceil(log(N+1))", N);
    pinet_shuffle_schedule_free(s);
    s = build_ok(PINET_SHUFFLE_OP_BCAST, N, n);
    CHECK(pinet_shuffle_schedule_step_count(s) == 2 * n - 1, "bcast N=%u", N);
    pinet_shuffle_schedule_free(s);
  }
}

/* Per-channel totals and per-step loads against the propositions. */
static void test_shuffle_link_volumes(void **state) {
  (void)state;
  for (uint32_t n = 1; n <= 10; n++) {
    uint32_t N = 1u << n, nch = PINET_SHUFFLE_CHANNELS(N);
    uint64_t *tot = xcalloc(nch, sizeof *tot);
    assert_non_null(tot);
    uint32_t k = 3;
    /* integration: all 2N forward channels (self-loops included) carry (1 - 1/N) M, step k
     * carries M / 2^k on each; nothing else moves. All-to-all broadcast: same on the backward
     * channels. */
    for (int rev = 0; rev < 2; rev++) {
      pinet_shuffle_op op = rev ? PINET_SHUFFLE_OP_ALLGATHER : PINET_SHUFFLE_OP_INTEGRATE;
      uint32_t M = N * k;
      pinet_shuffle_schedule *s = build_ok(op, N, M);
      assert_int_equal(pinet_shuffle_schedule_channel_words(s, tot), PINET_OK);
      uint64_t expect = (uint64_t)M - M / N; /* (1 - 1/N) M */
      for (uint32_t c = 0; c < nch; c++) {
        int busy = rev ? (c >= 2 * N && c < 4 * N) : (c < 2 * N);
        CHECK(tot[c] == (busy ? expect : 0), "%s N=%u channel %u: %" PRIu64 " words",
              pinet_shuffle_op_name(op), N, c, tot[c]);
      }
      for (uint32_t st = 0; st < n; st++) {
        const pinet_shuffle_transfer *t = NULL;
        size_t cnt = 0;
        assert_int_equal(pinet_shuffle_schedule_step(s, st, &t, &cnt), PINET_OK);
        CHECK(cnt == 2 * N, "%s N=%u step %u: all four links of every PE busy",
              pinet_shuffle_op_name(op), N, st + 1);
        uint32_t w = rev ? M >> (n - st) : M >> (st + 1);
        for (size_t i = 0; i < cnt; i++) {
          CHECK(t[i].words == w, "%s N=%u step %u: %u words per link, expected %u",
                pinet_shuffle_op_name(op), N, st + 1, t[i].words, w);
        }
      }
      pinet_shuffle_report r;
      pinet_shuffle_cost_params cp = {2.0, 3.0, 5.0};
      assert_int_equal(pinet_shuffle_report_compute(s, &cp, &r), PINET_OK);
      double b = rev ? 0.0 : cp.b;
      double ref_cost = cp.c * n + (cp.a + b) * (double)expect; /* Propositions 3 and 4 */
      CHECK(fabs(r.cost - ref_cost) < 1e-9 && fabs(r.cost_pe - ref_cost) < 1e-9,
            "%s N=%u cost %.17g expected %.17g", pinet_shuffle_op_name(op), N, r.cost, ref_cost);
      double ref_hc = cp.c * n + (cp.a + b) * (double)expect;
      double ref_mesh = cp.c * sqrt((double)N) + (cp.a + b) * (double)expect;
      CHECK(fabs(r.bound_hypercube - ref_hc) < 1e-9 && fabs(r.bound_mesh - ref_mesh) < 1e-9,
            "%s N=%u Table 1 bounds", pinet_shuffle_op_name(op), N);
      CHECK(r.link_time == expect && r.pe_link_time == expect, "link time N=%u", N);
      CHECK(r.sum_time == (rev ? 0 : expect), "sum time N=%u", N);
      CHECK(r.words_moved == 2 * (uint64_t)N * expect, "words moved N=%u", N);
      CHECK(r.words_summed == (rev ? 0 : (uint64_t)N * expect), "words summed N=%u", N);
      CHECK(r.max_channel_words == expect, "max channel words N=%u", N);
      pinet_shuffle_schedule_free(s);
    }
    /* scatter: host link carries M; from step 2 on the busiest link carries M / 2^(i-1) at step
     * i, summing to (1 - 1/N) M (Proposition 2). Gather is the mirror image. */
    {
      uint32_t M = N * k;
      pinet_shuffle_schedule *s = build_ok(PINET_SHUFFLE_OP_SCATTER, N, M);
      assert_int_equal(pinet_shuffle_schedule_channel_words(s, tot), PINET_OK);
      CHECK(tot[4 * N] == M && tot[4 * N + 1] == 0, "scatter host link N=%u", N);
      uint64_t pe_sum = 0;
      for (uint32_t st = 1; st <= n + 1; st++) {
        const pinet_shuffle_transfer *t = NULL;
        size_t cnt = 0;
        assert_int_equal(pinet_shuffle_schedule_step(s, st - 1, &t, &cnt), PINET_OK);
        uint32_t mx = 0;
        for (size_t i = 0; i < cnt; i++) {
          if (t[i].src >= 0) {
            mx = t[i].words > mx ? t[i].words : mx;
          }
        }
        uint32_t ref = st >= 2 ? M >> (st - 1) : 0;
        CHECK(mx == ref, "scatter N=%u step %u: busiest PE link %u, expected %u", N, st, mx, ref);
        pe_sum += mx;
      }
      CHECK(pe_sum == (uint64_t)M - M / N, "scatter N=%u: PE link time", N);
      /* each PE j >= 1 receives exactly the segments of its subtree: (subtree size) * S */
      for (uint32_t j = 1; j < N; j++) {
        uint64_t subtree = 0; /* PEs q with q >> x == j for some x, brute force */
        for (uint32_t q = 1; q < N; q++) {
          uint32_t x = q;
          while (x > j) {
            x >>= 1;
          }
          subtree += x == j;
        }
        uint64_t in = 0;
        for (uint32_t c = 0; c < 2 * N; c++) {
          int32_t a, b;
          ref_channel(N, c, &a, &b);
          if (b == (int32_t)j) {
            in += tot[c];
          }
        }
        CHECK(in == subtree * (M / N), "scatter N=%u PE %u receives %" PRIu64, N, j, in);
      }
      pinet_shuffle_report r;
      assert_int_equal(pinet_shuffle_report_compute(s, NULL, &r), PINET_OK);
      CHECK(fabs(r.cost_pe - (n + (double)(M - M / N))) < 1e-9, "scatter N=%u Proposition 2", N);
      CHECK(fabs(r.bound_hypercube - r.cost_pe) < 1e-9, "scatter N=%u matches the hypercube", N);
      pinet_shuffle_schedule_free(s);

      s = build_ok(PINET_SHUFFLE_OP_GATHER, N, M);
      assert_int_equal(pinet_shuffle_report_compute(s, NULL, &r), PINET_OK);
      CHECK(r.link_time == (uint64_t)M - M / N && r.steps == n, "gather N=%u", N);
      assert_int_equal(pinet_shuffle_schedule_channel_words(s, tot), PINET_OK);
      CHECK(tot[2 * N + 1] == (uint64_t)M - M / N, "gather N=%u: PE 1 -> PE 0 carries the rest",
            N);
      pinet_shuffle_schedule_free(s);
    }
    /* broadcast: packets of M / log N, every tree link carries M, 2 log N - 1 steps */
    {
      uint32_t M = n * k;
      pinet_shuffle_schedule *s = build_ok(PINET_SHUFFLE_OP_BCAST, N, M);
      assert_int_equal(pinet_shuffle_schedule_channel_words(s, tot), PINET_OK);
      for (uint32_t c = 0; c < nch; c++) {
        int tree = c == 1 || (c >= 2 && c < N); /* 0->1 and p->2p, 2p+1 for 1 <= p < N/2 */
        CHECK(tot[c] == (tree ? M : 0), "bcast N=%u channel %u: %" PRIu64, N, c, tot[c]);
      }
      for (uint32_t st = 0; st < 2 * n - 1; st++) {
        const pinet_shuffle_transfer *t = NULL;
        size_t cnt = 0;
        assert_int_equal(pinet_shuffle_schedule_step(s, st, &t, &cnt), PINET_OK);
        for (size_t i = 0; i < cnt; i++) {
          CHECK(t[i].words == M / n, "bcast N=%u step %u: packet of M/log N", N, st + 1);
        }
      }
      pinet_shuffle_report r;
      assert_int_equal(pinet_shuffle_report_compute(s, NULL, &r), PINET_OK);
      CHECK(fabs(r.cost - ((2.0 * n - 1) + (2.0 * n - 1) * (M / n))) < 1e-9,
            "bcast N=%u Proposition 1", N);
      pinet_shuffle_schedule_free(s);
      s = build_ok(PINET_SHUFFLE_OP_BCAST_HOST, N, M);
      assert_int_equal(pinet_shuffle_schedule_channel_words(s, tot), PINET_OK);
      CHECK(tot[4 * N] == M, "bcast-host N=%u: the host sends M", N);
      assert_int_equal(pinet_shuffle_report_compute(s, NULL, &r), PINET_OK);
      CHECK(fabs(r.cost_pe - ((2.0 * n - 1) + (2.0 * n - 1) * (M / n))) < 1e-9,
            "bcast-host N=%u: the PE part is Proposition 1", N);
      pinet_shuffle_schedule_free(s);
    }
    free(tot);
  }
}

/* ---- results on random data -------------------------------------------------------------- */

static void place_input(const pinet_shuffle_schedule *s, void **pe, void *host, size_t esize,
                        const unsigned char *data) {
  /* data holds the inputs in the order host, PE 0, PE 1, ... of the input regions */
  size_t k = 0;
  for (int32_t i = -1; i < (int32_t)pinet_shuffle_schedule_pes(s); i++) {
    uint32_t off = 0, w = 0;
    assert_int_equal(pinet_shuffle_schedule_input_region(s, i, &off, &w), PINET_OK);
    unsigned char *m = (unsigned char *)(i < 0 ? host : pe[i]);
    memcpy(m + (size_t)off * esize, data + k * esize, (size_t)w * esize);
    k += w;
  }
}

/* Run op on random 32-bit data and check every output region against a direct computation. */
static void check_i32(pinet_shuffle_op op, uint32_t N, uint32_t M, pinet_rng *rng) {
  pinet_shuffle_schedule *s = build_ok(op, N, M);
  uint32_t S = M / N;
  void **pe = mems_alloc(N, M, 4);
  uint32_t *host = xcalloc(M, 4);
  assert_non_null(host);
  /* the shared data: rows[i] is PE i's replicated copy (integrate) or the single data vector */
  size_t nin = op == PINET_SHUFFLE_OP_INTEGRATE ? (size_t)N * M : M;
  uint32_t *in = xmalloc(nin * 4);
  assert_non_null(in);
  for (size_t i = 0; i < nin; i++) {
    in[i] = (uint32_t)pinet_rng_next(rng); /* full range: sums wrap */
  }
  /* garbage in every memory first: outputs must not depend on it */
  for (uint32_t i = 0; i < N; i++) {
    for (uint32_t w = 0; w < M; w++) {
      ((uint32_t *)pe[i])[w] = 0xdead0000u + w;
    }
  }
  place_input(s, pe, host, 4, (const unsigned char *)in);
  /* ... but for the input order above: integrate = rows; allgather/gather/upload = segment j of
   * PE j in order = the vector; scatter/bcast-host = host vector; bcast = PE 0 vector. */
  assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, pe, host), PINET_OK);
  for (int32_t i = -1; i < (int32_t)N; i++) {
    uint32_t off = 0, w = 0;
    assert_int_equal(pinet_shuffle_schedule_output_region(s, i, &off, &w), PINET_OK);
    const uint32_t *m = i < 0 ? host : pe[i];
    for (uint32_t x = off; x < off + w; x++) {
      uint32_t ref;
      if (op == PINET_SHUFFLE_OP_INTEGRATE) {
        ref = 0;
        for (uint32_t p = 0; p < N; p++) {
          ref += in[(size_t)p * M + x]; /* direct sum, modulo 2^32 */
        }
      } else {
        ref = in[x]; /* concatenation / copy of the data vector */
      }
      CHECK(m[x] == ref, "%s N=%u M=%u: memory %d word %u = %" PRIu32 ", expected %" PRIu32,
            pinet_shuffle_op_name(op), N, M, i, x, m[x], ref);
    }
    /* the regions themselves, from the definitions of the modes */
    uint32_t eo = 0, ew = 0;
    switch (op) {
      case PINET_SHUFFLE_OP_INTEGRATE:
      case PINET_SHUFFLE_OP_SCATTER:
        eo = i < 0 ? 0 : (uint32_t)i * S;
        ew = i < 0 ? 0 : S;
        break;
      case PINET_SHUFFLE_OP_GATHER: ew = i == 0 ? M : 0; break;
      case PINET_SHUFFLE_OP_UPLOAD: ew = i <= 0 ? M : 0; break;
      default: ew = i < 0 ? 0 : M; break;
    }
    CHECK((ew == 0 || off == eo) && w == ew, "%s N=%u output region of %d: [%u,+%u)",
          pinet_shuffle_op_name(op), N, i, off, w);
  }
  free(in);
  free(host);
  mems_free(pe, N);
  pinet_shuffle_schedule_free(s);
}

static void test_shuffle_results_i32(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed);
  print_message("seed %" PRIu64 "\n", g_seed);
  for (uint32_t n = 1; n <= 10; n++) {
    uint32_t N = 1u << n;
    for (size_t o = 0; o < N_OPS; o++) {
      uint32_t kmax = n >= 9 ? 2 : 4;
      uint32_t k = 1 + (uint32_t)pinet_rng_below(&rng, kmax);
      check_i32(k_ops[o], N, ref_words(k_ops[o], N, k), &rng);
    }
  }
}

/* Integration over float and double: bit-exact against the paper's order of summation written
 * here as a recursion (after step k PE j holds pred_lo's half + pred_hi's half), and close to a
 * direct sum. */
static void test_shuffle_results_float(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed ^ 0xf10a7u);
  print_message("seed %" PRIu64 "\n", g_seed ^ 0xf10a7u);
  for (uint32_t n = 1; n <= 10; n++) {
    uint32_t N = 1u << n, M = N * (n >= 9 ? 1u : 3u);
    pinet_shuffle_schedule *s = build_ok(PINET_SHUFFLE_OP_INTEGRATE, N, M);
    float *fin = xmalloc((size_t)N * M * sizeof *fin), *fa = xmalloc((size_t)N * M * sizeof *fa),
          *fb = xmalloc((size_t)N * M * sizeof *fb);
    double *din = xmalloc((size_t)N * M * sizeof *din), *da = xmalloc((size_t)N * M * sizeof *da),
           *db = xmalloc((size_t)N * M * sizeof *db);
    assert_true(fin && fa && fb && din && da && db);
    for (size_t i = 0; i < (size_t)N * M; i++) {
      din[i] = 0.5 + pinet_rng_unit(&rng); /* positive: relative error bounded by n u */
      fin[i] = (float)din[i];
    }
    /* reference recursion, step by step over all PEs and words */
    memcpy(fa, fin, (size_t)N * M * sizeof *fa);
    memcpy(da, din, (size_t)N * M * sizeof *da);
    for (uint32_t k = 1; k <= n; k++) {
      for (uint32_t j = 0; j < N; j++) {
        uint32_t lo = j / 2, hi = j / 2 + N / 2;
        for (uint32_t x = 0; x < M; x++) {
          fb[(size_t)j * M + x] = fa[(size_t)lo * M + x] + fa[(size_t)hi * M + x];
          db[(size_t)j * M + x] = da[(size_t)lo * M + x] + da[(size_t)hi * M + x];
        }
      }
      float *tf = fa;
      fa = fb;
      fb = tf;
      double *td = da;
      da = db;
      db = td;
    }
    void **pf = mems_alloc(N, M, sizeof(float)), **pd = mems_alloc(N, M, sizeof(double));
    for (uint32_t i = 0; i < N; i++) {
      memcpy(pf[i], fin + (size_t)i * M, M * sizeof(float));
      memcpy(pd[i], din + (size_t)i * M, M * sizeof(double));
    }
    assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_F32, pf, NULL), PINET_OK);
    assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_F64, pd, NULL), PINET_OK);
    uint32_t S = M / N;
    for (uint32_t j = 0; j < N; j++) {
      for (uint32_t x = j * S; x < (j + 1) * S; x++) {
        float gf = ((float *)pf[j])[x];
        double gd = ((double *)pd[j])[x];
        CHECK(gf == fa[(size_t)j * M + x], "f32 N=%u PE %u word %u: %.9g vs tree order %.9g", N,
              j, x, (double)gf, (double)fa[(size_t)j * M + x]);
        CHECK(gd == da[(size_t)j * M + x], "f64 N=%u PE %u word %u: tree order", N, j, x);
        double direct = 0.0; /* direct sum in PE order */
        for (uint32_t p = 0; p < N; p++) {
          direct += (double)fin[(size_t)p * M + x];
        }
        CHECK(fabs((double)gf - direct) <= 1e-6 * direct, "f32 N=%u PE %u word %u: %.9g vs %.9g",
              N, j, x, (double)gf, direct);
        double ddirect = 0.0;
        for (uint32_t p = 0; p < N; p++) {
          ddirect += din[(size_t)p * M + x];
        }
        CHECK(fabs(gd - ddirect) <= 1e-12 * ddirect, "f64 N=%u PE %u word %u", N, j, x);
      }
    }
    /* copies are bit exact for every type: allgather on double */
    pinet_shuffle_schedule *ag = build_ok(PINET_SHUFFLE_OP_ALLGATHER, N, M);
    for (uint32_t i = 0; i < N; i++) {
      memcpy((double *)pd[i] + (size_t)i * S, din + (size_t)i * S, S * sizeof(double));
    }
    assert_int_equal(pinet_shuffle_execute(ag, PINET_SHUFFLE_F64, pd, NULL), PINET_OK);
    for (uint32_t i = 0; i < N; i++) {
      CHECK(memcmp(pd[i], din, M * sizeof(double)) == 0, "f64 allgather N=%u PE %u", N, i);
    }
    pinet_shuffle_schedule_free(ag);
    mems_free(pf, N);
    mems_free(pd, N);
    free(fin);
    free(fa);
    free(fb);
    free(din);
    free(da);
    free(db);
    pinet_shuffle_schedule_free(s);
  }
}

/* Executing step by step equals executing at once. */
static void test_shuffle_execute_steps(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed + 7);
  uint32_t N = 16, M = 64;
  pinet_shuffle_schedule *s = build_ok(PINET_SHUFFLE_OP_INTEGRATE, N, M);
  void **a = mems_alloc(N, M, 4), **b = mems_alloc(N, M, 4);
  for (uint32_t i = 0; i < N; i++) {
    for (uint32_t w = 0; w < M; w++) {
      ((uint32_t *)a[i])[w] = ((uint32_t *)b[i])[w] = (uint32_t)pinet_rng_next(&rng);
    }
  }
  assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, a, NULL), PINET_OK);
  for (uint32_t st = 0; st < 4; st++) {
    assert_int_equal(pinet_shuffle_execute_steps(s, PINET_SHUFFLE_I32, b, NULL, st, 1), PINET_OK);
  }
  for (uint32_t i = 0; i < N; i++) {
    CHECK(memcmp(a[i], b[i], M * 4) == 0, "step-by-step PE %u", i);
  }
  mems_free(a, N);
  mems_free(b, N);
  pinet_shuffle_schedule_free(s);
}

/* ---- the cycle model --------------------------------------------------------------------- */

/* The done cycle from the contract (one setup cycle per step + the longest transfer), with the
 * per-step longest transfer taken from the paper's formulas, not from the schedule. */
static uint64_t ref_done_cycle(pinet_shuffle_op op, uint32_t N, uint32_t M) {
  uint32_t n = lg(N), S = M / N;
  uint64_t T = 0;
  switch (op) {
    case PINET_SHUFFLE_OP_BCAST: return (2ull * n - 1) * (1 + M / n);
    case PINET_SHUFFLE_OP_BCAST_HOST: return 2ull * n * (1 + M / n);
    case PINET_SHUFFLE_OP_INTEGRATE:
    case PINET_SHUFFLE_OP_ALLGATHER:
      for (uint32_t k = 1; k <= n; k++) {
        T += 1 + (M >> k);
      }
      return T;
    case PINET_SHUFFLE_OP_SCATTER: /* step 1: the host sends M/2; step i >= 2: M/2^(i-1) */
      T = 1 + M / 2;
      for (uint32_t i = 2; i <= n + 1; i++) {
        T += 1 + (M >> (i - 1));
      }
      return T;
    case PINET_SHUFFLE_OP_GATHER: /* step g moves 2^(g-1) segments per busiest link */
    case PINET_SHUFFLE_OP_UPLOAD:
      for (uint32_t g = 1; g <= n; g++) {
        T += 1 + ((uint64_t)S << (g - 1));
      }
      return op == PINET_SHUFFLE_OP_UPLOAD ? T + 1 + M / 2 : T;
    default: return 0;
  }
}

/* Run the cycle simulator and the engine on the same random data; compare cycle by cycle with
 * the contract and at the end with the engine. */
static void check_cycle(const pinet_shuffle_schedule *s, pinet_rng *rng, const char *what,
                        const uint64_t *expect_channel) {
  uint32_t N = pinet_shuffle_schedule_pes(s), M = pinet_shuffle_schedule_mem_words(s);
  uint32_t H = pinet_shuffle_schedule_host_words(s), nch = PINET_SHUFFLE_CHANNELS(N);
  void **pe = mems_alloc(N, M, 4);
  uint32_t *host = xcalloc(H ? H : 1, 4);
  assert_non_null(host);
  for (uint32_t i = 0; i < N; i++) {
    for (uint32_t w = 0; w < M; w++) {
      ((uint32_t *)pe[i])[w] = (uint32_t)pinet_rng_next(rng);
    }
  }
  for (uint32_t w = 0; w < H; w++) {
    host[w] = (uint32_t)pinet_rng_next(rng);
  }
  pinet_shuffle_cycle *sim = NULL;
  assert_int_equal(pinet_shuffle_cycle_create(&sim, s, (const uint32_t *const *)pe, host),
                   PINET_OK);
  assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, pe, host), PINET_OK);
  uint64_t done = 0;
  assert_int_equal(pinet_shuffle_cycle_total(s, &done), PINET_OK);
  uint64_t *count = xcalloc(nch, sizeof *count);
  uint8_t *valid = xcalloc(nch, 1);
  uint32_t *data = xcalloc(nch, 4);
  assert_true(count && valid && data);
  uint32_t steps = pinet_shuffle_schedule_step_count(s);
  uint32_t step = 0;
  uint64_t step_start = 0, active_in_step = 0, longest = 0;
  for (uint64_t c = 0; c < done + 3; c++) {
    CHECK(pinet_shuffle_cycle_now(sim) == c, "%s: cycle counter", what);
    CHECK(pinet_shuffle_cycle_done(sim) == (c >= done), "%s: done at cycle %" PRIu64, what, c);
    assert_int_equal(pinet_shuffle_cycle_channels(sim, valid, data), PINET_OK);
    int any = 0;
    for (uint32_t ch = 0; ch < nch; ch++) {
      pinet_shuffle_word w;
      assert_int_equal(pinet_shuffle_cycle_word(s, c, ch, &w), PINET_OK);
      CHECK(w.valid == valid[ch], "%s: cycle %" PRIu64 " channel %u valid", what, c, ch);
      if (valid[ch]) {
        any = 1;
        count[ch]++;
        CHECK(w.step == step, "%s: cycle %" PRIu64 " step %u vs %u", what, c, w.step, step);
        /* word order: index = cycles since the setup cycle - 1, addresses ascending */
        CHECK(w.index == c - step_start - 1, "%s: cycle %" PRIu64 " ch %u word index", what, c, ch);
        const pinet_shuffle_transfer *t = NULL;
        size_t cnt = 0;
        assert_int_equal(pinet_shuffle_schedule_step(s, step, &t, &cnt), PINET_OK);
        CHECK(t[w.transfer].channel == ch && w.src_addr == t[w.transfer].src_offset + w.index,
              "%s: cycle %" PRIu64 " ch %u address", what, c, ch);
      }
    }
    if (c >= done) {
      CHECK(!any, "%s: a word after done (cycle %" PRIu64 ")", what, c);
    } else if (c == step_start) {
      CHECK(!any, "%s: a word in the setup cycle %" PRIu64, what, c);
      longest = 0;
      const pinet_shuffle_transfer *t = NULL;
      size_t cnt = 0;
      assert_int_equal(pinet_shuffle_schedule_step(s, step, &t, &cnt), PINET_OK);
      for (size_t i = 0; i < cnt; i++) {
        longest = t[i].words > longest ? t[i].words : longest;
      }
    } else {
      CHECK(any, "%s: idle cycle %" PRIu64 " inside step %u", what, c, step);
      active_in_step++;
      if (c == step_start + longest) { /* the step ends with its longest transfer */
        step++;
        step_start = c + 1;
        active_in_step = 0;
      }
    }
    assert_int_equal(pinet_shuffle_cycle_clock(sim), PINET_OK);
  }
  CHECK(step == steps, "%s: %u steps seen, %u scheduled", what, step, steps);
  uint64_t *tot = xcalloc(nch, sizeof *tot);
  assert_non_null(tot);
  assert_int_equal(pinet_shuffle_schedule_channel_words(s, tot), PINET_OK);
  for (uint32_t ch = 0; ch < nch; ch++) {
    CHECK(count[ch] == tot[ch], "%s: channel %u carried %" PRIu64 " words, schedule %" PRIu64,
          what, ch, count[ch], tot[ch]);
    if (expect_channel != NULL) {
      CHECK(count[ch] == expect_channel[ch], "%s: channel %u carried %" PRIu64 ", formula %" PRIu64,
            what, ch, count[ch], expect_channel[ch]);
    }
  }
  for (int32_t i = -1; i < (int32_t)N; i++) {
    const uint32_t *m = pinet_shuffle_cycle_mem(sim, i);
    assert_non_null(m);
    size_t words = i < 0 ? H : M;
    CHECK(words == 0 || memcmp(m, i < 0 ? (void *)host : pe[i], words * 4) == 0,
          "%s: memory %d after the cycle model differs from the engine", what, i);
  }
  assert_null(pinet_shuffle_cycle_mem(sim, (int32_t)N));
  free(tot);
  free(count);
  free(valid);
  free(data);
  free(host);
  mems_free(pe, N);
  pinet_shuffle_cycle_free(sim);
}

static void test_shuffle_cycle_model(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed + 11);
  print_message("seed %" PRIu64 "\n", g_seed + 11);
  for (uint32_t n = 1; n <= 7; n++) {
    uint32_t N = 1u << n, nch = PINET_SHUFFLE_CHANNELS(N);
    uint64_t *expect = xcalloc(nch, sizeof *expect);
    assert_non_null(expect);
    for (size_t o = 0; o < N_OPS; o++) {
      pinet_shuffle_op op = k_ops[o];
      uint32_t M = ref_words(op, N, 1 + (uint32_t)pinet_rng_below(&rng, 3));
      pinet_shuffle_schedule *s = build_ok(op, N, M);
      char what[64];
      snprintf(what, sizeof what, "%s N=%u M=%u", pinet_shuffle_op_name(op), N, M);
      uint64_t done = 0;
      assert_int_equal(pinet_shuffle_cycle_total(s, &done), PINET_OK);
      CHECK(done == ref_done_cycle(op, N, M), "%s: done at %" PRIu64 ", contract %" PRIu64, what,
            done, ref_done_cycle(op, N, M));
      pinet_shuffle_report r;
      assert_int_equal(pinet_shuffle_report_compute(s, NULL, &r), PINET_OK);
      CHECK(r.cycles == done && done == r.steps + r.link_time, "%s: T = steps + sum L_s", what);
      uint64_t b0 = 1;
      assert_int_equal(pinet_shuffle_cycle_step_start(s, 0, &b0), PINET_OK);
      CHECK(b0 == 0, "%s: step 0 starts in cycle 0", what);
      /* per-channel totals from the formulas where the paper gives them */
      const uint64_t *exp_ptr = NULL;
      if (op == PINET_SHUFFLE_OP_INTEGRATE || op == PINET_SHUFFLE_OP_ALLGATHER) {
        for (uint32_t c = 0; c < nch; c++) {
          int busy = op == PINET_SHUFFLE_OP_ALLGATHER ? (c >= 2 * N && c < 4 * N) : c < 2 * N;
          expect[c] = busy ? (uint64_t)M - M / N : 0;
        }
        exp_ptr = expect;
      }
      check_cycle(s, &rng, what, exp_ptr);
      pinet_shuffle_schedule_free(s);
    }
    free(expect);
  }
  /* one large case */
  pinet_shuffle_schedule *s = build_ok(PINET_SHUFFLE_OP_INTEGRATE, 1024, 2048);
  check_cycle(s, &rng, "integrate N=1024 M=2048", NULL);
  pinet_shuffle_schedule_free(s);
}

/* ---- ring -------------------------------------------------------------------------------- */

/* Independent checker: a permutation of 0..N-1 in which consecutive PEs (cyclically) are joined
 * by a de Bruijn edge in one direction or the other. */
static int ref_ring_ok(uint32_t N, const uint32_t *ring, size_t len) {
  if (len != N) {
    return 0;
  }
  char *seen = xcalloc(N, 1);
  assert_non_null(seen);
  int ok = 1;
  for (size_t i = 0; i < len; i++) {
    if (ring[i] >= N || seen[ring[i]]) {
      ok = 0;
      break;
    }
    seen[ring[i]] = 1;
  }
  for (size_t i = 0; ok && i < len; i++) {
    uint32_t a = ring[i], b = ring[(i + 1) % len];
    int edge = 0;
    for (uint32_t bit = 0; bit < 2; bit++) {
      edge |= (a * 2 + bit) % N == b || (b * 2 + bit) % N == a;
    }
    ok = edge && a != b;
  }
  free(seen);
  return ok;
}

static void test_shuffle_ring(void **state) {
  (void)state;
  /* the paper's N = 32 ring (section 4.2.3, SPEC §2) */
  static const uint32_t paper[32] = {16, 0,  1,  2,  5,  18, 4,  9,  19, 25, 12,
                                     6,  13, 26, 29, 30, 31, 15, 7,  3,  17, 8,
                                     20, 10, 21, 11, 22, 27, 23, 14, 28, 24};
  assert_true(ref_ring_ok(32, paper, 32));
  int valid = 0;
  assert_int_equal(pinet_shuffle_ring_check(32, paper, 32, &valid), PINET_OK);
  assert_true(valid);
  for (uint32_t n = 2; n <= 10; n++) {
    uint32_t N = 1u << n;
    uint32_t *ring = xmalloc(N * sizeof *ring);
    assert_non_null(ring);
    assert_int_equal(pinet_shuffle_ring(N, ring), PINET_OK);
    CHECK(ref_ring_ok(N, ring, N), "ring N=%u is not a Hamiltonian cycle", N);
    assert_int_equal(pinet_shuffle_ring_check(N, ring, N, &valid), PINET_OK);
    CHECK(valid, "library check of its own ring N=%u", N);
    /* broken rings: a swap, a duplicate, a short one, an out-of-range PE */
    pinet_rng rng;
    pinet_rng_seed(&rng, g_seed + n);
    for (int trial = 0; trial < 20; trial++) {
      uint32_t i = (uint32_t)pinet_rng_below(&rng, N), j = (uint32_t)pinet_rng_below(&rng, N);
      uint32_t t = ring[i];
      ring[i] = ring[j];
      ring[j] = t;
      assert_int_equal(pinet_shuffle_ring_check(N, ring, N, &valid), PINET_OK);
      CHECK(valid == ref_ring_ok(N, ring, N), "ring check N=%u after swapping %u,%u", N, i, j);
      ring[j] = ring[i];
      ring[i] = t;
    }
    uint32_t keep = ring[1];
    ring[1] = ring[0];
    assert_int_equal(pinet_shuffle_ring_check(N, ring, N, &valid), PINET_OK);
    CHECK(!valid, "duplicate accepted N=%u", N);
    ring[1] = N;
    assert_int_equal(pinet_shuffle_ring_check(N, ring, N, &valid), PINET_OK);
    CHECK(!valid, "PE N accepted N=%u", N);
    ring[1] = keep;
    assert_int_equal(pinet_shuffle_ring_check(N, ring, N - 1, &valid), PINET_OK);
    CHECK(!valid, "short ring accepted N=%u", N);
    free(ring);
  }
  uint32_t r2[2];
  assert_int_equal(pinet_shuffle_ring(2, r2), PINET_ERR_SIZE);
  assert_int_equal(pinet_shuffle_ring_check(2, r2, 2, &valid), PINET_ERR_SIZE);
}

/* Neighbour exchange along the ring: default layout (COPY) and exchange-and-add. */
static void test_shuffle_ring_exchange(void **state) {
  (void)state;
  static const uint32_t paper[32] = {16, 0,  1,  2,  5,  18, 4,  9,  19, 25, 12,
                                     6,  13, 26, 29, 30, 31, 15, 7,  3,  17, 8,
                                     20, 10, 21, 11, 22, 27, 23, 14, 28, 24};
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed + 23);
  print_message("seed %" PRIu64 "\n", g_seed + 23);
  for (uint32_t n = 2; n <= 10; n++) {
    uint32_t N = 1u << n, w = 1 + (uint32_t)pinet_rng_below(&rng, 4);
    for (int variant = 0; variant < 3; variant++) {
      const uint32_t *ring_in = variant == 2 && N == 32 ? paper : NULL;
      if (variant == 2 && N != 32) {
        continue;
      }
      uint32_t *ring = xmalloc(N * sizeof *ring);
      assert_non_null(ring);
      if (ring_in) {
        memcpy(ring, ring_in, N * sizeof *ring);
      } else {
        assert_int_equal(pinet_shuffle_ring(N, ring), PINET_OK);
      }
      pinet_shuffle_ring_xchg x = pinet_shuffle_ring_xchg_default(w);
      if (variant == 1) { /* boundary exchange-and-add: [0,w) is the shared box's partial */
        x.mem_words = 2 * w;
        x.next_src = 0;
        x.prev_dst = 0;
        x.prev_src = w;
        x.next_dst = w;
        x.combine = PINET_SHUFFLE_ADD;
      }
      pinet_shuffle_schedule *s = NULL;
      assert_int_equal(pinet_shuffle_build_ring_exchange(&s, N, ring_in, &x), PINET_OK);
      CHECK(pinet_shuffle_schedule_step_count(s) == 1, "ring exchange is one step N=%u", N);
      void **pe = mems_alloc(N, x.mem_words, 4);
      uint32_t *init = xmalloc((size_t)N * x.mem_words * 4);
      assert_non_null(init);
      for (size_t i = 0; i < (size_t)N * x.mem_words; i++) {
        init[i] = (uint32_t)pinet_rng_next(&rng);
      }
      for (uint32_t i = 0; i < N; i++) {
        memcpy(pe[i], init + (size_t)i * x.mem_words, x.mem_words * 4);
      }
      assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, pe, NULL), PINET_OK);
      for (uint32_t r = 0; r < N; r++) {
        uint32_t me = ring[r], prev = ring[(r + N - 1) % N], next = ring[(r + 1) % N];
        const uint32_t *m = pe[me], *im = init + (size_t)me * x.mem_words,
                       *ip = init + (size_t)prev * x.mem_words,
                       *in = init + (size_t)next * x.mem_words;
        for (uint32_t k = 0; k < w; k++) {
          if (variant == 1) {
            CHECK(m[k] == im[k] + in[w + k] && m[w + k] == im[w + k] + ip[k],
                  "exchange-add N=%u ring position %u word %u", N, r, k);
          } else {
            CHECK(m[k] == im[k] && m[w + k] == im[w + k], "own blocks kept N=%u", N);
            CHECK(m[2 * w + k] == ip[k], "from predecessor N=%u position %u", N, r);
            CHECK(m[3 * w + k] == in[w + k], "from successor N=%u position %u", N, r);
          }
        }
      }
      check_cycle(s, &rng, "ring exchange", NULL);
      free(init);
      mems_free(pe, N);
      free(ring);
      pinet_shuffle_schedule_free(s);
    }
  }
  /* bad rings and layouts */
  pinet_shuffle_ring_xchg x = pinet_shuffle_ring_xchg_default(2);
  pinet_shuffle_schedule *s = NULL;
  uint32_t bad[8] = {0, 1, 2, 3, 4, 5, 6, 7}; /* 3 -> 4 is not an edge for N = 8 */
  assert_int_equal(pinet_shuffle_build_ring_exchange(&s, 8, bad, &x), PINET_ERR_ILLEGAL_STATE);
  x.next_dst = 7;
  assert_int_equal(pinet_shuffle_build_ring_exchange(&s, 8, NULL, &x), PINET_ERR_RANGE);
  x = pinet_shuffle_ring_xchg_default(2);
  x.next_dst = 1; /* writes [1,3) while [0,2) is read in the same cycles: hazard */
  assert_int_equal(pinet_shuffle_build_ring_exchange(&s, 8, NULL, &x), PINET_ERR_ILLEGAL_MOVE);
  assert_null(s);
  x = pinet_shuffle_ring_xchg_default(2);
  assert_int_equal(pinet_shuffle_build_ring_exchange(&s, 2, NULL, &x), PINET_ERR_SIZE);
}

/* The ring exchange the RTL runs (op ring-exchange, M = 4W): which PE's words arrive where is
 * read off tagged data (PE j's word k is j << 16 | k), then checked against what a ring exchange
 * must be: the predecessor map a single N-cycle, its edges forward de Bruijn links, successor and
 * predecessor consistent; for N = 8 the ring of the prefer-one de Bruijn sequence 00011101
 * (windows 0, 1, 3, 7, 6, 5, 2, 4); for N = 2 the four channels joining PE 0 and PE 1. */
/* pinet_shuffle_apply: COPY copies, ADD adds element by element with int32 wrap-around and
 * float rounding as C computes it here; bad arguments are refused. */
static void test_shuffle_apply(void **state) {
  (void)state;
  uint32_t d32[3] = {1u, 0xFFFFFFFFu, 7u}, s32[3] = {2u, 3u, 0u};
  assert_int_equal(pinet_shuffle_apply(PINET_SHUFFLE_I32, PINET_SHUFFLE_ADD, d32, s32, 3),
                   PINET_OK);
  assert_int_equal(d32[0], 3u);
  assert_int_equal(d32[1], 2u); /* 2^32 - 1 + 3 wraps to 2 */
  assert_int_equal(d32[2], 7u);
  float df[2] = {1.0f, 16777216.0f}, sf[2] = {0.5f, 1.0f};
  assert_int_equal(pinet_shuffle_apply(PINET_SHUFFLE_F32, PINET_SHUFFLE_ADD, df, sf, 2), PINET_OK);
  assert_true(df[0] == 1.5f && df[1] == 16777216.0f); /* 2^24 + 1 rounds back in float */
  double dd[2] = {0, 0}, sd[2] = {0.25, -8.0};
  assert_int_equal(pinet_shuffle_apply(PINET_SHUFFLE_F64, PINET_SHUFFLE_COPY, dd, sd, 2), PINET_OK);
  assert_true(dd[0] == 0.25 && dd[1] == -8.0);
  assert_int_equal(pinet_shuffle_apply(PINET_SHUFFLE_I32, PINET_SHUFFLE_ADD, NULL, s32, 1),
                   PINET_ERR_NULL);
  assert_int_equal(pinet_shuffle_apply((pinet_shuffle_elem)9, PINET_SHUFFLE_ADD, d32, s32, 1),
                   PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_apply(PINET_SHUFFLE_I32, (pinet_shuffle_combine)2, d32, s32, 1),
                   PINET_ERR_RANGE);
}

static void test_shuffle_ring_exchange_default(void **state) {
  (void)state;
  static const uint32_t prefer_one8[8] = {0, 1, 3, 7, 6, 5, 2, 4};
  for (uint32_t n = 1; n <= 6; n++) {
    const uint32_t N = 1u << n;
    for (uint32_t w = 1; w <= 5; w += 2) {
      const uint32_t M = 4 * w;
      pinet_shuffle_schedule *s = NULL;
      assert_int_equal(pinet_shuffle_build_ring_exchange_default(&s, N, M), PINET_OK);
      CHECK(pinet_shuffle_schedule_step_count(s) == 1, "one step N=%u", N);
      uint64_t done = 0;
      assert_int_equal(pinet_shuffle_cycle_total(s, &done), PINET_OK);
      CHECK(done == w + 1, "done in cycle W + 1 N=%u W=%u (got %" PRIu64 ")", N, w, done);
      void **pe = mems_alloc(N, M, 4);
      for (uint32_t j = 0; j < N; j++) {
        for (uint32_t k = 0; k < M; k++) ((uint32_t *)pe[j])[k] = j << 16 | k;
      }
      assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, pe, NULL), PINET_OK);
      uint32_t *pred = xmalloc(N * sizeof *pred), *succ = xmalloc(N * sizeof *succ);
      for (uint32_t j = 0; j < N; j++) {
        const uint32_t *m = pe[j];
        pred[j] = m[2 * w] >> 16;
        succ[j] = m[3 * w] >> 16;
        CHECK(pred[j] < N && succ[j] < N, "sources are PEs N=%u PE %u", N, j);
        for (uint32_t k = 0; k < w; k++) {
          CHECK(m[k] == (j << 16 | k) && m[w + k] == (j << 16 | (w + k)), "own blocks N=%u", N);
          CHECK(m[2 * w + k] == (pred[j] << 16 | k), "predecessor's [0,W) N=%u PE %u", N, j);
          CHECK(m[3 * w + k] == (succ[j] << 16 | (w + k)), "successor's [W,2W) N=%u PE %u", N, j);
        }
        CHECK(j == (2 * pred[j]) % N || j == (2 * pred[j] + 1) % N,
              "PE %u's predecessor %u is not a forward link N=%u", j, pred[j], N);
      }
      uint32_t x = 0, len = 0;
      do {
        CHECK(succ[pred[x]] == x, "successor of the predecessor of %u N=%u", x, N);
        x = pred[x];
        len++;
      } while (x != 0 && len <= N);
      CHECK(len == N, "the predecessor map is one cycle through all %u PEs (got %u)", N, len);
      if (N == 8) {
        for (uint32_t r = 0; r < 8; r++) {
          CHECK(succ[prefer_one8[r]] == prefer_one8[(r + 1) % 8], "N=8 prefer-one ring at %u", r);
        }
      }
      if (N == 2) { /* PE 0 -> 1: channels 1 and 2N + 2; PE 1 -> 0: channels 2 and 2N + 1 */
        const pinet_shuffle_transfer *t = NULL;
        size_t count = 0;
        assert_int_equal(pinet_shuffle_schedule_step(s, 0, &t, &count), PINET_OK);
        assert_int_equal(count, 4);
        uint32_t want[4] = {1, 6, 2, 5};
        for (size_t i = 0; i < 4; i++) {
          CHECK(t[i].channel == want[i], "N=2 transfer %zu on channel %u", i, t[i].channel);
        }
      }
      free(pred);
      free(succ);
      mems_free(pe, N);
      pinet_shuffle_schedule_free(s);
    }
  }
  pinet_shuffle_schedule *s = NULL;
  assert_int_equal(pinet_shuffle_build_ring_exchange_default(&s, 8, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_ring_exchange_default(&s, 8, 6), PINET_ERR_MISMATCH);
  assert_int_equal(pinet_shuffle_build_ring_exchange_default(&s, 8, 1u << 30), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_build_ring_exchange_default(&s, 12, 8), PINET_ERR_SIZE);
  assert_int_equal(pinet_shuffle_build_ring_exchange_default(&s, 1, 8), PINET_ERR_SIZE);
  assert_null(s);
  assert_int_equal(pinet_shuffle_build_ring_exchange_default(NULL, 8, 8), PINET_ERR_NULL);
}

/* ---- custom schedules and the validity rules --------------------------------------------- */

static pinet_shuffle_transfer xfer(uint32_t N, uint32_t ch, uint32_t so, uint32_t d0, uint32_t w,
                                   pinet_shuffle_combine cmb) {
  pinet_shuffle_transfer t;
  ref_channel(N, ch, &t.src, &t.dst);
  t.channel = ch;
  t.src_offset = so;
  t.dst_offset = d0;
  t.words = w;
  t.combine = cmb;
  t.start = 0; /* store-and-forward (the field came with cut-through, issue 11) */
  return t;
}

static void test_shuffle_custom_rules(void **state) {
  (void)state;
  const uint32_t N = 4, M = 8;
  pinet_shuffle_schedule *s = NULL;
  assert_int_equal(pinet_shuffle_schedule_create(&s, 6, M, 0), PINET_ERR_SIZE);
  assert_int_equal(pinet_shuffle_schedule_create(&s, N, 0, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_shuffle_schedule_create(&s, N, M, 0), PINET_OK);
  pinet_shuffle_transfer t = xfer(N, 1, 0, 0, 4, PINET_SHUFFLE_COPY); /* 0 -> 1 */
  assert_int_equal(pinet_shuffle_schedule_add(s, &t), PINET_ERR_ILLEGAL_STATE); /* no step */
  assert_int_equal(pinet_shuffle_schedule_finish(s), PINET_ERR_ILLEGAL_STATE);   /* no steps */
  assert_int_equal(pinet_shuffle_schedule_add_step(s), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_add(s, &t), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_add(s, &t), PINET_ERR_ILLEGAL_MOVE); /* channel twice */
  pinet_shuffle_transfer bad = t;
  bad.dst = 2;
  assert_int_equal(pinet_shuffle_schedule_add(s, &bad), PINET_ERR_RANGE); /* not its ends */
  bad = xfer(N, 2, 6, 0, 4, PINET_SHUFFLE_COPY);
  assert_int_equal(pinet_shuffle_schedule_add(s, &bad), PINET_ERR_RANGE); /* beyond memory */
  bad = xfer(N, 2, 0, 0, 0, PINET_SHUFFLE_COPY);
  assert_int_equal(pinet_shuffle_schedule_add(s, &bad), PINET_ERR_RANGE); /* zero words */
  bad = xfer(N, 4 * N, 0, 0, 1, PINET_SHUFFLE_COPY);
  assert_int_equal(pinet_shuffle_schedule_add(s, &bad), PINET_ERR_RANGE); /* no host memory */
  bad = xfer(N, 4 * N + 2, 0, 0, 1, PINET_SHUFFLE_COPY);
  assert_int_equal(pinet_shuffle_schedule_add(s, &bad), PINET_ERR_RANGE); /* no such channel */
  assert_int_equal(pinet_shuffle_schedule_add_step(s), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_finish(s), PINET_ERR_ILLEGAL_STATE); /* empty step */
  pinet_shuffle_schedule_free(s);

  /* hazards, each in a fresh one-step schedule around PE 1 of N = 4. Channels: 1 = 0->1 and
   * 5 = 2->1 (forward links 1, 5), 10 = 2->1 (backward of link 2), 2 = 1->2 (forward link 2). */
  struct {
    pinet_shuffle_transfer a, b;
    pinet_status expect;
    const char *what;
  } cases[] = {
      /* PE 1 reads [0,4) and receives into [2,6): address 2 written in cycle 0, read in cycle 2 */
      {xfer(N, 2, 0, 0, 4, PINET_SHUFFLE_COPY), xfer(N, 1, 0, 2, 4, PINET_SHUFFLE_COPY),
       PINET_ERR_ILLEGAL_MOVE, "read after write"},
      /* receives into [0,4) while reading [2,6): every address is read before it is written */
      {xfer(N, 2, 2, 2, 4, PINET_SHUFFLE_COPY), xfer(N, 1, 0, 0, 4, PINET_SHUFFLE_COPY), PINET_OK,
       "write after read"},
      /* two COPYs into PE 1 overlapping */
      {xfer(N, 1, 0, 0, 4, PINET_SHUFFLE_COPY), xfer(N, 5, 0, 2, 4, PINET_SHUFFLE_COPY),
       PINET_ERR_ILLEGAL_MOVE, "two copies"},
      /* COPY at [0,4) lands on address 2 in cycle 2, after the ADD at [2,6) did in cycle 0 */
      {xfer(N, 1, 0, 0, 4, PINET_SHUFFLE_COPY), xfer(N, 5, 0, 2, 4, PINET_SHUFFLE_ADD),
       PINET_ERR_ILLEGAL_MOVE, "copy after add"},
      /* COPY at [2,6), ADD at [0,4): on addresses 2, 3 the copy lands first */
      {xfer(N, 1, 0, 2, 4, PINET_SHUFFLE_COPY), xfer(N, 5, 0, 0, 4, PINET_SHUFFLE_ADD), PINET_OK,
       "add after copy"},
      /* the integration adder: COPY and ADD on the same addresses in the same cycles */
      {xfer(N, 1, 0, 0, 4, PINET_SHUFFLE_COPY), xfer(N, 10, 0, 0, 4, PINET_SHUFFLE_ADD), PINET_OK,
       "adder"},
      /* two ADDs overlapping are fine (sequential adds) */
      {xfer(N, 5, 0, 0, 4, PINET_SHUFFLE_ADD), xfer(N, 10, 0, 1, 4, PINET_SHUFFLE_ADD), PINET_OK,
       "two adds"},
  };
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed + 31);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_int_equal(pinet_shuffle_schedule_create(&s, N, M, 0), PINET_OK);
    assert_int_equal(pinet_shuffle_schedule_add_step(s), PINET_OK);
    assert_int_equal(pinet_shuffle_schedule_add(s, &cases[i].a), PINET_OK);
    assert_int_equal(pinet_shuffle_schedule_add(s, &cases[i].b), PINET_OK);
    void **pe = mems_alloc(N, M, 4);
    assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, pe, NULL),
                     PINET_ERR_ILLEGAL_STATE); /* not finished */
    mems_free(pe, N);
    pinet_status st = pinet_shuffle_schedule_finish(s);
    CHECK(st == cases[i].expect, "custom case %zu (%s): status %d", i, cases[i].what, (int)st);
    if (st == PINET_OK) {
      assert_int_equal(pinet_shuffle_schedule_finish(s), PINET_OK); /* idempotent */
      pinet_shuffle_transfer t2 = xfer(N, 0, 0, 0, 1, PINET_SHUFFLE_COPY);
      assert_int_equal(pinet_shuffle_schedule_add(s, &t2), PINET_ERR_ILLEGAL_STATE);
      assert_int_equal(pinet_shuffle_schedule_add_step(s), PINET_ERR_ILLEGAL_STATE);
      check_cycle(s, &rng, cases[i].what, NULL); /* engine == cycle model when valid */
    }
    pinet_shuffle_schedule_free(s);
  }
  /* a self-loop that reads [0,4) and writes [1,5) of the same PE is a hazard; [1,5) -> [0,4) not */
  assert_int_equal(pinet_shuffle_schedule_create(&s, N, M, 0), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_add_step(s), PINET_OK);
  t = xfer(N, 0, 0, 1, 4, PINET_SHUFFLE_COPY);
  assert_int_equal(pinet_shuffle_schedule_add(s, &t), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_finish(s), PINET_ERR_ILLEGAL_MOVE);
  pinet_shuffle_schedule_free(s);
  assert_int_equal(pinet_shuffle_schedule_create(&s, N, M, 0), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_add_step(s), PINET_OK);
  t = xfer(N, 0, 1, 0, 4, PINET_SHUFFLE_COPY);
  assert_int_equal(pinet_shuffle_schedule_add(s, &t), PINET_OK);
  assert_int_equal(pinet_shuffle_schedule_finish(s), PINET_OK);
  void **pe = mems_alloc(N, M, 4);
  for (uint32_t w = 0; w < M; w++) {
    ((uint32_t *)pe[0])[w] = 10 + w;
  }
  assert_int_equal(pinet_shuffle_execute(s, PINET_SHUFFLE_I32, pe, NULL), PINET_OK);
  for (uint32_t w = 0; w < 4; w++) {
    CHECK(((uint32_t *)pe[0])[w] == 11 + w, "self-loop shift word %u", w);
  }
  mems_free(pe, N);
  check_cycle(s, &rng, "self-loop shift", NULL);
  pinet_shuffle_schedule_free(s);
}

/* Each built-in is valid under the rules: re-build it as a custom schedule transfer by transfer
 * and finish it (the validity checker then re-derives every rule). */
static void test_shuffle_builtins_pass_rules(void **state) {
  (void)state;
  for (uint32_t n = 1; n <= 8; n++) {
    uint32_t N = 1u << n;
    for (size_t o = 0; o < N_OPS; o++) {
      uint32_t M = ref_words(k_ops[o], N, 2);
      pinet_shuffle_schedule *b = build_ok(k_ops[o], N, M), *c = NULL;
      assert_int_equal(pinet_shuffle_schedule_create(&c, N, M, pinet_shuffle_schedule_host_words(b)),
                       PINET_OK);
      for (uint32_t st = 0; st < pinet_shuffle_schedule_step_count(b); st++) {
        const pinet_shuffle_transfer *t = NULL;
        size_t cnt = 0;
        assert_int_equal(pinet_shuffle_schedule_step(b, st, &t, &cnt), PINET_OK);
        assert_int_equal(pinet_shuffle_schedule_add_step(c), PINET_OK);
        for (size_t i = 0; i < cnt; i++) {
          assert_int_equal(pinet_shuffle_schedule_add(c, &t[i]), PINET_OK);
          CHECK(t[i].src_offset == t[i].dst_offset, "global addressing %s N=%u",
                pinet_shuffle_op_name(k_ops[o]), N);
        }
      }
      CHECK(pinet_shuffle_schedule_finish(c) == PINET_OK, "%s N=%u as custom",
            pinet_shuffle_op_name(k_ops[o]), N);
      CHECK(pinet_shuffle_schedule_op(c) == PINET_SHUFFLE_OP_CUSTOM, "custom op");
      pinet_shuffle_schedule_free(b);
      pinet_shuffle_schedule_free(c);
    }
  }
}

int main(void) {
  g_seed = test_seed("test_shuffle", g_seed);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_shuffle_topology),
      cmocka_unit_test(test_shuffle_bad_input),
      cmocka_unit_test(test_shuffle_scatter_n8_literal),
      cmocka_unit_test(test_shuffle_step_counts),
      cmocka_unit_test(test_shuffle_link_volumes),
      cmocka_unit_test(test_shuffle_results_i32),
      cmocka_unit_test(test_shuffle_results_float),
      cmocka_unit_test(test_shuffle_execute_steps),
      cmocka_unit_test(test_shuffle_cycle_model),
      cmocka_unit_test(test_shuffle_ring),
      cmocka_unit_test(test_shuffle_ring_exchange),
      cmocka_unit_test(test_shuffle_ring_exchange_default),
      cmocka_unit_test(test_shuffle_apply),
      cmocka_unit_test(test_shuffle_custom_rules),
      cmocka_unit_test(test_shuffle_builtins_pass_rules),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
