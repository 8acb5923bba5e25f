/* test_dpi.c - libpinet_dpi (pinet/dpi.h) against the C API it wraps.
 *
 * The DPI functions take only plain types (no svdpi.h, no open arrays), so this program calls
 * exactly the functions a simulator calls. Every function is checked against the C model run
 * alongside it (same results, cycle by cycle where there are cycles), and every bad input
 * against its status code. Random cases use pinet_rng with a printed seed; a failure names the
 * seed and the case. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "../test_support.h"
#include "pinet/dpi.h"
#include "pinet/recon.h"
#include "pinet/recon_geom.h"
#include "pinet/rng.h"
#include "pinet/rta.h"
#include "pinet/shuffle.h"

#define SEED 20240517u

static const uint32_t k_rtl_ops[] = {0, 1, 2, 3, 4, 5, 6, 7};

/* ---- status --------------------------------------------------------------------------------- */

static void test_dpi_status_str(void **state) {
  (void)state;
  for (int s = 0; s <= PINET_STATUS_MAX; s++) {
    assert_string_equal(pinet_dpi_status_str(s), pinet_status_str((pinet_status)s));
  }
  assert_string_equal(pinet_dpi_status_str(-1), "unknown status");
  assert_string_equal(pinet_dpi_status_str(PINET_STATUS_MAX + 1), "unknown status");
}

/* ---- perfect shuffle: tables ------------------------------------------------------------------ */

/* The RTL's rule, computed here from the C model's quantum (independent of pinet_shuffle_build). */
static unsigned rule_error(uint32_t pes, uint32_t mw, uint32_t op, uint32_t words, uint32_t base) {
  if (op > 7) return PINET_DPI_PS_ERR_BAD_OP;
  if (words == 0) return PINET_DPI_PS_ERR_WORDS;
  if ((uint64_t)base + words > mw) return PINET_DPI_PS_ERR_MEMORY;
  uint32_t q = 4;
  if (op != PINET_SHUFFLE_OP_RING_EXCHANGE) {
    assert_int_equal(pinet_shuffle_words_quantum((pinet_shuffle_op)op, pes, &q), PINET_OK);
  }
  return words % q ? PINET_DPI_PS_ERR_QUANTUM : PINET_DPI_PS_ERR_OK;
}

static void test_dpi_ps_expected_error(void **state) {
  (void)state;
  const uint32_t mw = 40;
  for (uint32_t pes = 2; pes <= 16; pes *= 2) {
    for (uint32_t op = 0; op < 16; op++) {
      for (uint32_t words = 0; words <= mw + 1; words++) {
        for (uint32_t base = 0; base <= mw; base += 7) {
          unsigned e = 99;
          assert_int_equal(pinet_dpi_ps_expected_error(pes, mw, op, words, base, &e), PINET_OK);
          if (e != rule_error(pes, mw, op, words, base)) {
            fail_msg("N %u op %u M %u base %u: err %u, rule %u", pes, op, words, base, e,
                     rule_error(pes, mw, op, words, base));
          }
        }
      }
    }
  }
  unsigned e = 0;
  assert_int_equal(pinet_dpi_ps_expected_error(8, 64, 0, 3, 0, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expected_error(6, 64, 0, 3, 0, &e), PINET_ERR_SIZE);
  assert_int_equal(pinet_dpi_ps_expected_error(2048, 64, 0, 3, 0, &e), PINET_ERR_SIZE);
}

static void test_dpi_ps_channel_ends(void **state) {
  (void)state;
  for (uint32_t pes = 2; pes <= 64; pes *= 2) {
    for (uint32_t ch = 0; ch < PINET_SHUFFLE_CHANNELS(pes); ch++) {
      int s = 0, d = 0;
      int32_t s2 = 0, d2 = 0;
      assert_int_equal(pinet_dpi_ps_channel_ends(pes, ch, &s, &d), PINET_OK);
      assert_int_equal(pinet_shuffle_channel_ends(pes, ch, &s2, &d2), PINET_OK);
      assert_int_equal(s, s2);
      assert_int_equal(d, d2);
    }
    int s = 0, d = 0;
    assert_int_equal(pinet_dpi_ps_channel_ends(pes, PINET_SHUFFLE_CHANNELS(pes), &s, &d),
                     PINET_ERR_RANGE);
  }
  int s = 0;
  assert_int_equal(pinet_dpi_ps_channel_ends(8, 0, &s, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_channel_ends(12, 0, &s, &s), PINET_ERR_SIZE);
}

/* ---- perfect shuffle: the cycle model against pinet_shuffle_cycle ----------------------------- */

static uint32_t op_quantum(uint32_t op, uint32_t pes) {
  uint32_t q = 4;
  if (op != PINET_SHUFFLE_OP_RING_EXCHANGE) {
    assert_int_equal(pinet_shuffle_words_quantum((pinet_shuffle_op)op, pes, &q), PINET_OK);
  }
  return q;
}

static pinet_shuffle_schedule *build_rtl(uint32_t op, uint32_t pes, uint32_t words) {
  pinet_shuffle_schedule *s = NULL;
  pinet_status st = op == PINET_SHUFFLE_OP_RING_EXCHANGE
                        ? pinet_shuffle_build_ring_exchange_default(&s, pes, words)
                        : pinet_shuffle_build(&s, (pinet_shuffle_op)op, pes, words);
  assert_int_equal(st, PINET_OK);
  return s;
}

/* One collective through the DPI model, edge by edge, against a pinet_shuffle_cycle run of the
 * same schedule from the same memories; then the same collective at once on a second handle
 * (pinet_dpi_ps_collective) and through pinet_shuffle_execute. */
static void check_run(pinet_rng *rng, uint32_t pes, uint32_t mw, uint32_t op, uint32_t words,
                      uint32_t base, const char *label) {
  void *h = NULL, *txn = NULL;
  assert_int_equal(pinet_dpi_ps_create(&h, pes, mw), PINET_OK);
  assert_int_equal(pinet_dpi_ps_create(&txn, pes, mw), PINET_OK);
  uint32_t *mem = xcalloc((size_t)pes * mw, sizeof *mem);
  uint32_t *host = xcalloc(mw, sizeof *host);
  for (uint32_t j = 0; j < pes; j++) {
    for (uint32_t a = 0; a < mw; a++) {
      mem[(size_t)j * mw + a] = (uint32_t)pinet_rng_next(rng);
      assert_int_equal(pinet_dpi_ps_local_write(h, j, a, mem[(size_t)j * mw + a]), PINET_OK);
      assert_int_equal(pinet_dpi_ps_local_write(txn, j, a, mem[(size_t)j * mw + a]), PINET_OK);
    }
  }
  for (uint32_t a = 0; a < mw; a++) {
    host[a] = (uint32_t)pinet_rng_next(rng);
    assert_int_equal(pinet_dpi_ps_set_host_word(h, a, host[a]), PINET_OK);
    assert_int_equal(pinet_dpi_ps_set_host_word(txn, a, host[a]), PINET_OK);
  }
  /* The reference: the C model's cycle simulator on [base, base + M). */
  pinet_shuffle_schedule *sched = build_rtl(op, pes, words);
  const uint32_t **init = xcalloc(pes, sizeof *init);
  for (uint32_t j = 0; j < pes; j++) init[j] = &mem[(size_t)j * mw + base];
  const int uses_host = pinet_shuffle_schedule_host_words(sched) > 0;
  pinet_shuffle_cycle *sim = NULL;
  assert_int_equal(pinet_shuffle_cycle_create(&sim, sched, init, uses_host ? host : NULL),
                   PINET_OK);
  uint64_t total = 0;
  assert_int_equal(pinet_shuffle_cycle_total(sched, &total), PINET_OK);

  assert_int_equal(pinet_dpi_ps_edge(h, 1, 1, op, words, base), PINET_OK);
  const uint32_t nch = PINET_SHUFFLE_CHANNELS(pes);
  uint32_t *before = xcalloc((size_t)(pes + 1) * words, sizeof *before);
  for (uint64_t t = 0; t < total; t++) {
    unsigned char busy = 0, done = 1;
    unsigned err = 9;
    assert_int_equal(pinet_dpi_ps_expect_status(h, &busy, &done, &err), PINET_OK);
    if (!busy || done || err != 0) fail_msg("%s cycle %llu: status", label, (unsigned long long)t);
    unsigned long long rc = 0;
    assert_int_equal(pinet_dpi_ps_run_cycle(h, &rc), PINET_OK);
    assert_int_equal(rc, t);
    for (uint32_t c = 0; c < nch; c++) {
      unsigned char v = 0;
      unsigned d = 0;
      int v2 = 0;
      uint32_t d2 = 0;
      assert_int_equal(pinet_dpi_ps_expect_channel(h, c, &v, &d), PINET_OK);
      assert_int_equal(pinet_shuffle_cycle_channel(sim, c, &v2, &d2), PINET_OK);
      if (v != (v2 != 0) || d != d2) {
        fail_msg("%s cycle %llu ch %u: DPI %u/0x%x, model %d/0x%x", label, (unsigned long long)t,
                 c, v, d, v2, d2);
      }
    }
    unsigned char req = 0;
    unsigned req_addr = 0, up_addr = 0;
    assert_int_equal(pinet_dpi_ps_expect_host(h, &req, &req_addr, &up_addr), PINET_OK);
    pinet_shuffle_word next, up;
    assert_int_equal(pinet_shuffle_cycle_word(sched, t + 1, PINET_SHUFFLE_CH_HOST_DOWN(pes), &next),
                     PINET_OK);
    assert_int_equal(pinet_shuffle_cycle_word(sched, t, PINET_SHUFFLE_CH_HOST_UP(pes), &up),
                     PINET_OK);
    assert_int_equal(req, next.valid != 0);
    assert_int_equal(req_addr, next.valid ? next.src_addr : 0);
    assert_int_equal(up_addr, up.valid ? up.dst_addr : 0);
    /* A local write while running is ignored (as the RTL does). */
    assert_int_equal(pinet_dpi_ps_local_write(h, 0, base, 0xdeadbeefu), PINET_OK);
    /* The edge: every word the model's clock changes is listed, with its new value. */
    for (int32_t j = -1; j < (int32_t)pes; j++) {
      memcpy(&before[(size_t)(j + 1) * words], pinet_shuffle_cycle_mem(sim, j),
             (size_t)(j < 0 && !uses_host ? 0 : words) * sizeof *before);
    }
    assert_int_equal(pinet_dpi_ps_edge(h, 1, 0, 0, 0, 0), PINET_OK);
    assert_int_equal(pinet_shuffle_cycle_clock(sim), PINET_OK);
    unsigned count = 0;
    assert_int_equal(pinet_dpi_ps_write_count(h, &count), PINET_OK);
    for (unsigned i = 0; i < count; i++) {
      int pe = 0;
      unsigned addr = 0, data = 0;
      assert_int_equal(pinet_dpi_ps_write_get(h, i, &pe, &addr, &data), PINET_OK);
      const uint32_t a = pe < 0 ? addr : addr - base;
      assert_true(a < words);
      assert_int_equal(data, pinet_shuffle_cycle_mem(sim, pe)[a]);
    }
    int pe = 0;
    unsigned addr = 0, data = 0;
    assert_int_equal(pinet_dpi_ps_write_get(h, count, &pe, &addr, &data), PINET_ERR_RANGE);
    for (int32_t j = -1; j < (int32_t)pes; j++) {
      if (j < 0 && !uses_host) continue;
      const uint32_t *now = pinet_shuffle_cycle_mem(sim, j);
      for (uint32_t a = 0; a < words; a++) {
        if (now[a] == before[(size_t)(j + 1) * words + a]) continue;
        int listed = 0;
        for (unsigned i = 0; i < count; i++) {
          assert_int_equal(pinet_dpi_ps_write_get(h, i, &pe, &addr, &data), PINET_OK);
          listed |= pe == j && addr == (j < 0 ? a : a + base);
        }
        if (!listed) fail_msg("%s cycle %llu: write PE %d word %u not listed", label,
                              (unsigned long long)t, j, a);
      }
    }
  }
  assert_true(pinet_shuffle_cycle_done(sim));
  unsigned char busy = 1, done = 0;
  unsigned err = 9;
  assert_int_equal(pinet_dpi_ps_expect_status(h, &busy, &done, &err), PINET_OK);
  assert_int_equal(busy, 0);
  assert_int_equal(done, 1);
  assert_int_equal(err, 0);

  /* Transaction level, and the engine itself. */
  assert_int_equal(pinet_dpi_ps_collective(txn, op, words, base, &err), PINET_OK);
  assert_int_equal(err, 0);
  uint32_t *eng = xcalloc((size_t)pes * mw, sizeof *eng);
  uint32_t *eng_host = xcalloc(mw, sizeof *eng_host);
  memcpy(eng, mem, (size_t)pes * mw * sizeof *eng);
  memcpy(eng_host, host, mw * sizeof *eng_host);
  void **ptr = xcalloc(pes, sizeof *ptr);
  for (uint32_t j = 0; j < pes; j++) ptr[j] = &eng[(size_t)j * mw + base];
  assert_int_equal(pinet_shuffle_execute(sched, PINET_SHUFFLE_I32, ptr, uses_host ? eng_host : NULL),
                   PINET_OK);
  for (uint32_t j = 0; j < pes; j++) {
    for (uint32_t a = 0; a < mw; a++) {
      unsigned d1 = 0, d2 = 0;
      unsigned char k1 = 0, k2 = 0;
      assert_int_equal(pinet_dpi_ps_expect_mem(h, j, a, &d1, &k1), PINET_OK);
      assert_int_equal(pinet_dpi_ps_expect_mem(txn, j, a, &d2, &k2), PINET_OK);
      assert_int_equal(k1, 1);
      assert_int_equal(k2, 1);
      const uint32_t want = a >= base && a < base + words
                                ? pinet_shuffle_cycle_mem(sim, (int32_t)j)[a - base]
                                : mem[(size_t)j * mw + a];
      if (d1 != want || d2 != want || eng[(size_t)j * mw + a] != want) {
        fail_msg("%s PE %u word %u: cycle DPI 0x%x, collective DPI 0x%x, engine 0x%x, model 0x%x",
                 label, j, a, d1, d2, eng[(size_t)j * mw + a], want);
      }
    }
  }
  for (uint32_t a = 0; a < mw; a++) {
    unsigned d1 = 0, d2 = 0;
    assert_int_equal(pinet_dpi_ps_host_word(h, a, &d1), PINET_OK);
    assert_int_equal(pinet_dpi_ps_host_word(txn, a, &d2), PINET_OK);
    const uint32_t want = uses_host && a < words ? pinet_shuffle_cycle_mem(sim, -1)[a] : host[a];
    assert_int_equal(d1, want);
    assert_int_equal(d2, want);
    assert_int_equal(eng_host[a], want);
  }
  free(ptr);
  free(eng);
  free(eng_host);
  free(before);
  pinet_shuffle_cycle_free(sim);
  free(init);
  pinet_shuffle_schedule_free(sched);
  free(mem);
  free(host);
  pinet_dpi_ps_free(h);
  pinet_dpi_ps_free(txn);
}

static void test_dpi_ps_cycle_matches_model(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, SEED);
  printf("test_dpi_ps_cycle_matches_model: seed %u\n", SEED);
  for (uint32_t pes = 2; pes <= 16; pes *= 2) {
    const uint32_t mw = 4 * pes + 8;
    for (size_t k = 0; k < sizeof k_rtl_ops / sizeof k_rtl_ops[0]; k++) {
      const uint32_t op = k_rtl_ops[k];
      const uint32_t q = op_quantum(op, pes);
      for (int rep = 0; rep < 2; rep++) {
        uint32_t words = q * (1 + (uint32_t)pinet_rng_below(&rng, (mw / 2) / q));
        uint32_t base = (uint32_t)pinet_rng_below(&rng, mw - words + 1);
        char label[96];
        snprintf(label, sizeof label, "seed %u N %u op %u M %u base %u", SEED, pes, op, words,
                 base);
        check_run(&rng, pes, mw, op, words, base, label);
      }
    }
  }
}

/* Reset, refused commands, a start while busy, and two handles side by side. */
static void test_dpi_ps_edge_semantics(void **state) {
  (void)state;
  void *a = NULL, *b = NULL;
  assert_int_equal(pinet_dpi_ps_create(&a, 8, 64), PINET_OK);
  assert_int_equal(pinet_dpi_ps_create(&b, 4, 16), PINET_OK);
  unsigned char busy = 0, done = 0, known = 1;
  unsigned err = 0, data = 1;
  /* Refused: err set, nothing starts. */
  assert_int_equal(pinet_dpi_ps_edge(a, 1, 1, 3, 9, 0), PINET_OK);
  assert_int_equal(pinet_dpi_ps_expect_status(a, &busy, &done, &err), PINET_OK);
  assert_int_equal(busy, 0);
  assert_int_equal(err, PINET_DPI_PS_ERR_QUANTUM);
  /* Integrate at M = 8: a start while busy gives BUSY, the run goes on to done. */
  assert_int_equal(pinet_dpi_ps_edge(a, 1, 1, 3, 8, 0), PINET_OK);
  assert_int_equal(pinet_dpi_ps_expect_status(a, &busy, &done, &err), PINET_OK);
  assert_int_equal(busy, 1);
  assert_int_equal(err, 0);
  assert_int_equal(pinet_dpi_ps_collective(a, 3, 8, 0, &err), PINET_ERR_ILLEGAL_STATE);
  assert_int_equal(pinet_dpi_ps_edge(a, 1, 1, 0, 3, 0), PINET_OK);
  assert_int_equal(pinet_dpi_ps_expect_status(a, &busy, &done, &err), PINET_OK);
  assert_int_equal(busy, 1);
  assert_int_equal(err, PINET_DPI_PS_ERR_BUSY);
  int guard = 0;
  while (busy && guard++ < 1000) {
    assert_int_equal(pinet_dpi_ps_edge(a, 1, 0, 0, 0, 0), PINET_OK);
    assert_int_equal(pinet_dpi_ps_expect_status(a, &busy, &done, &err), PINET_OK);
  }
  assert_int_equal(done, 1);
  assert_int_equal(err, PINET_DPI_PS_ERR_BUSY);
  /* The other handle has seen nothing. */
  assert_int_equal(pinet_dpi_ps_expect_status(b, &busy, &done, &err), PINET_OK);
  assert_int_equal(busy + done + err, 0);
  assert_int_equal(pinet_dpi_ps_expect_mem(b, 3, 15, &data, &known), PINET_OK);
  assert_int_equal(data, 0);
  assert_int_equal(known, 0);
  /* Reset in the middle of a run: stops, done and err clear, memories keep their words. */
  assert_int_equal(pinet_dpi_ps_edge(b, 1, 1, 4, 8, 0), PINET_OK);
  assert_int_equal(pinet_dpi_ps_edge(b, 1, 0, 0, 0, 0), PINET_OK);
  assert_int_equal(pinet_dpi_ps_reset(b), PINET_OK);
  assert_int_equal(pinet_dpi_ps_expect_status(b, &busy, &done, &err), PINET_OK);
  assert_int_equal(busy + done + err, 0);
  assert_int_equal(pinet_dpi_ps_expect_mem(b, 0, 0, &data, &known), PINET_OK);
  assert_int_equal(known, 1);
  assert_int_equal(pinet_dpi_ps_edge(b, 0, 1, 4, 8, 0), PINET_OK); /* rst_n low wins */
  assert_int_equal(pinet_dpi_ps_expect_status(b, &busy, &done, &err), PINET_OK);
  assert_int_equal(busy, 0);
  /* Collective refused: err, done 0, memories untouched. */
  assert_int_equal(pinet_dpi_ps_collective(b, 9, 8, 0, &err), PINET_OK);
  assert_int_equal(err, PINET_DPI_PS_ERR_BAD_OP);
  assert_int_equal(pinet_dpi_ps_expect_status(b, &busy, &done, &err), PINET_OK);
  assert_int_equal(err, PINET_DPI_PS_ERR_BAD_OP);
  assert_int_equal(done, 0);
  pinet_dpi_ps_free(a);
  pinet_dpi_ps_free(b);
}

static void test_dpi_ps_bad_inputs(void **state) {
  (void)state;
  void *h = (void *)1;
  unsigned char c = 0;
  unsigned u = 0;
  int i = 0;
  unsigned long long ull = 0;
  assert_int_equal(pinet_dpi_ps_create(NULL, 8, 64), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_create(&h, 6, 64), PINET_ERR_SIZE);
  assert_null(h);
  assert_int_equal(pinet_dpi_ps_create(&h, 8, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_create(&h, 8, PINET_SHUFFLE_MAX_WORDS + 1u), PINET_ERR_RANGE);
  pinet_dpi_ps_free(NULL);
  /* NULL handle everywhere. */
  assert_int_equal(pinet_dpi_ps_set_host_word(NULL, 0, 0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_host_word(NULL, 0, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_reset(NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expect_status(NULL, &c, &c, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expect_channel(NULL, 0, &c, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expect_host(NULL, &c, &u, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expect_mem(NULL, 0, 0, &u, &c), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_local_write(NULL, 0, 0, 0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_edge(NULL, 1, 0, 0, 0, 0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_run_cycle(NULL, &ull), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_write_count(NULL, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_write_get(NULL, 0, &i, &u, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_collective(NULL, 0, 3, 0, &u), PINET_ERR_NULL);
  /* Ranges and NULL outputs on a real handle. */
  assert_int_equal(pinet_dpi_ps_create(&h, 8, 64), PINET_OK);
  assert_int_equal(pinet_dpi_ps_set_host_word(h, 64, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_host_word(h, 64, &u), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_host_word(h, 0, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expect_status(h, &c, NULL, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expect_channel(h, 34, &c, &u), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_expect_channel(h, 0, NULL, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expect_host(h, &c, NULL, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_expect_mem(h, 8, 0, &u, &c), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_expect_mem(h, 0, 64, &u, &c), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_expect_mem(h, 0, 0, &u, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_local_write(h, 8, 0, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_local_write(h, 0, 64, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_run_cycle(h, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_write_count(h, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_write_get(h, 0, &i, &u, &u), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_ps_write_get(h, 0, &i, NULL, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_ps_collective(h, 0, 3, 0, NULL), PINET_ERR_NULL);
  pinet_dpi_ps_free(h);
}

/* ---- RTA ------------------------------------------------------------------------------------- */

static void check_rta(pinet_rng *rng, unsigned dim, uint32_t pes) {
  pinet_rta_geom g;
  assert_int_equal(pinet_rta_geom_init(&g, dim, pes), PINET_OK);
  void *h = NULL;
  assert_int_equal(pinet_dpi_rta_create(&h, dim, pes), PINET_OK);
  unsigned sw = 0, side = 0, ports = 0, nodes = 0;
  assert_int_equal(pinet_dpi_rta_geom(h, &sw, &side, &ports, &nodes), PINET_OK);
  assert_int_equal(sw, g.switches);
  assert_int_equal(side, g.side);
  assert_int_equal(ports, g.pes * g.ports_per_pe);
  assert_int_equal(nodes, g.nodes);
  unsigned peer = 0, data = 0;
  assert_int_equal(pinet_dpi_rta_peer(h, 0, &peer), PINET_ERR_ILLEGAL_STATE);
  assert_int_equal(pinet_dpi_rta_out(h, 0, &data), PINET_ERR_ILLEGAL_STATE);
  uint8_t *bits = xcalloc(sw, 1);
  uint32_t *in = xcalloc(ports, sizeof *in), *out = xcalloc(ports, sizeof *out);
  pinet_rta_port_ref *ref = xcalloc(ports, sizeof *ref);
  for (int rep = 0; rep < 12; rep++) {
    /* Random bitmaps, every SRTA level, and ARTA-legal ones. */
    if (rep < 6) {
      for (uint32_t b = 0; b < sw; b++) bits[b] = (uint8_t)pinet_rng_below(rng, 2);
    } else if (rep < 6 + (int)g.levels) {
      assert_int_equal(pinet_rta_srta_bitmap(&g, (uint32_t)(rep - 6 + 1), bits), PINET_OK);
    } else {
      memset(bits, 0, sw);
      const uint32_t node = 1 + (uint32_t)pinet_rng_below(rng, g.nodes);
      assert_int_equal(pinet_rta_arta_apply(&g, node, 1, bits), PINET_OK);
    }
    for (uint32_t b = 0; b < sw; b++) {
      assert_int_equal(pinet_dpi_rta_set_bit(h, b, (unsigned char)(bits[b] ? 1 + rep : 0)),
                       PINET_OK);
    }
    for (uint32_t p = 0; p < ports; p++) {
      in[p] = (uint32_t)pinet_rng_next(rng);
      assert_int_equal(pinet_dpi_rta_set_in(h, p, in[p]), PINET_OK);
    }
    assert_int_equal(pinet_dpi_rta_eval(h), PINET_OK);
    assert_int_equal(pinet_rta_route(&g, bits, ref), PINET_OK);
    assert_int_equal(pinet_rta_fabric_eval(&g, ref, in, out), PINET_OK);
    for (uint32_t p = 0; p < ports; p++) {
      assert_int_equal(pinet_dpi_rta_peer(h, p, &peer), PINET_OK);
      assert_int_equal(peer, ref[p].pe * g.ports_per_pe + ref[p].port);
      assert_int_equal(pinet_dpi_rta_out(h, p, &data), PINET_OK);
      assert_int_equal(data, out[p]);
    }
    for (unsigned mode = 0; mode < 3; mode++) {
      unsigned char legal = 9;
      int legal2 = 0;
      assert_int_equal(pinet_dpi_rta_legal(h, mode, &legal), PINET_OK);
      assert_int_equal(pinet_rta_bitmap_is_legal(&g, (pinet_rta_mode)mode, bits, &legal2),
                       PINET_OK);
      assert_int_equal(legal, legal2 != 0);
    }
  }
  /* The controller: random commands against a pinet_rta_ctrl of our own. */
  pinet_rta_ctrl *ctrl = NULL;
  assert_int_equal(pinet_rta_ctrl_create(&ctrl, &g), PINET_OK);
  for (int cyc = 0; cyc < 400; cyc++) {
    const int valid = pinet_rng_below(rng, 4) != 0;
    const unsigned op = (unsigned)pinet_rng_below(rng, 8);
    uint32_t arg = (uint32_t)pinet_rng_below(rng, g.nodes + 3);
    if (op == PINET_RTA_CMD_SET_MODE) arg = (uint32_t)pinet_rng_below(rng, 4);
    if (op == PINET_RTA_CMD_SET_LEVEL) arg = (uint32_t)pinet_rng_below(rng, g.levels + 2);
    if (pinet_rng_below(rng, 50) == 0) arg |= 0x10000u; /* above ArgWidth: dropped */
    if (op == PINET_RTA_CMD_WRITE_RAW) {
      if (pinet_rng_below(rng, 2)) {
        assert_int_equal(pinet_rta_srta_bitmap(&g, 1 + (uint32_t)pinet_rng_below(rng, g.levels),
                                               bits), PINET_OK);
      } else {
        for (uint32_t b = 0; b < sw; b++) bits[b] = (uint8_t)pinet_rng_below(rng, 2);
      }
      for (uint32_t b = 0; b < sw; b++) {
        assert_int_equal(pinet_dpi_rta_ctrl_raw_bit(h, b, bits[b]), PINET_OK);
      }
    }
    if (cyc == 200) {
      assert_int_equal(pinet_dpi_rta_ctrl_reset(h), PINET_OK);
      pinet_rta_ctrl_reset(ctrl);
    } else {
      assert_int_equal(pinet_dpi_rta_ctrl_clock(h, (unsigned char)valid, op, arg), PINET_OK);
      assert_int_equal(pinet_rta_ctrl_clock(ctrl, valid, op, arg, bits), PINET_OK);
    }
    unsigned mode = 9, err = 9;
    assert_int_equal(pinet_dpi_rta_ctrl_state(h, &mode, &err), PINET_OK);
    if (mode != (unsigned)pinet_rta_ctrl_mode(ctrl) || err != pinet_rta_ctrl_error(ctrl)) {
      fail_msg("seed %u dim %u N %u cycle %d: mode %u err %u, model %u %u", SEED, dim, pes, cyc,
               mode, err, (unsigned)pinet_rta_ctrl_mode(ctrl), pinet_rta_ctrl_error(ctrl));
    }
    for (uint32_t b = 0; b < sw; b++) {
      unsigned char on = 9;
      assert_int_equal(pinet_dpi_rta_ctrl_bit(h, b, &on), PINET_OK);
      assert_int_equal(on, pinet_rta_ctrl_bitmap(ctrl)[b]);
    }
  }
  pinet_rta_ctrl_free(ctrl);
  /* Bad inputs on a real handle. */
  unsigned char c = 0;
  assert_int_equal(pinet_dpi_rta_set_bit(h, sw, 1), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_rta_ctrl_raw_bit(h, sw, 1), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_rta_ctrl_bit(h, sw, &c), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_rta_ctrl_bit(h, 0, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_set_in(h, ports, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_rta_peer(h, ports, &peer), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_rta_out(h, ports, &data), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_rta_out(h, 0, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_legal(h, 3, &c), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_rta_legal(h, 0, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_geom(h, &sw, &side, NULL, &nodes), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_ctrl_state(h, NULL, &data), PINET_ERR_NULL);
  free(bits);
  free(in);
  free(out);
  free(ref);
  pinet_dpi_rta_free(h);
}

static void test_dpi_rta_matches_model(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, SEED);
  printf("test_dpi_rta_matches_model: seed %u\n", SEED);
  check_rta(&rng, 1, 8);
  check_rta(&rng, 1, 64);
  check_rta(&rng, 2, 16);
  check_rta(&rng, 2, 64);
}

static void test_dpi_rta_bad_inputs(void **state) {
  (void)state;
  void *h = (void *)1;
  unsigned u = 0;
  unsigned char c = 0;
  assert_int_equal(pinet_dpi_rta_create(NULL, 1, 8), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_create(&h, 3, 8), PINET_ERR_RANGE);
  assert_null(h);
  assert_int_equal(pinet_dpi_rta_create(&h, 1, 12), PINET_ERR_SIZE);
  assert_int_equal(pinet_dpi_rta_create(&h, 2, 32), PINET_ERR_SIZE);
  pinet_dpi_rta_free(NULL);
  assert_int_equal(pinet_dpi_rta_geom(NULL, &u, &u, &u, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_set_bit(NULL, 0, 1), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_legal(NULL, 0, &c), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_set_in(NULL, 0, 0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_eval(NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_peer(NULL, 0, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_out(NULL, 0, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_ctrl_raw_bit(NULL, 0, 1), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_ctrl_reset(NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_ctrl_clock(NULL, 1, 0, 0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_ctrl_state(NULL, &u, &u), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_rta_ctrl_bit(NULL, 0, &c), PINET_ERR_NULL);
}

/* ---- reconstruction ---------------------------------------------------------------------------- */

static void test_dpi_fbp_matches_model(void **state) {
  (void)state;
  const uint32_t size = 24, views = 16, bins = 24;
  void *h = NULL;
  int st = pinet_dpi_fbp_create(&h, size, views, bins, PINET_FILTER_HANN);
  if (st == PINET_ERR_UNSUPPORTED) {
    skip(); /* built without FFTW */
  }
  assert_int_equal(st, PINET_OK);
  double v = 0.0;
  int acc = 0;
  assert_int_equal(pinet_dpi_fbp_pixel(h, 0, 0, &v), PINET_ERR_ILLEGAL_STATE);
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, size, views, bins), PINET_OK);
  const pinet_ellipse *ell = NULL;
  size_t nell = 0;
  assert_int_equal(pinet_phantom_by_name("shepp-logan", &ell, &nell), PINET_OK);
  float *sino = xcalloc((size_t)views * bins, sizeof *sino);
  assert_int_equal(pinet_phantom_sinogram(ell, nell, &g, 2, sino), PINET_OK);
  for (uint32_t k = 0; k < views; k++) {
    for (uint32_t b = 0; b < bins; b++) {
      assert_int_equal(pinet_dpi_fbp_set_sino(h, k, b, sino[(size_t)k * bins + b]), PINET_OK);
    }
  }
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_HANN, &p), PINET_OK);
  float *img = xcalloc((size_t)size * size, sizeof *img);
  /* Float path. */
  assert_int_equal(pinet_dpi_fbp_run(h, 0, 0), PINET_OK);
  assert_int_equal(pinet_fbp_run(p, sino, img), PINET_OK);
  for (uint32_t i = 0; i < size * size; i++) {
    assert_int_equal(pinet_dpi_fbp_pixel(h, i / size, i % size, &v), PINET_OK);
    assert_true(v == (double)img[i]);
  }
  assert_int_equal(pinet_dpi_fbp_accum(h, 0, 0, &acc), PINET_ERR_ILLEGAL_STATE);
  /* Fixed path: the bits, the image bit for bit, the accumulators. */
  float *filt = xcalloc((size_t)views * pinet_fbp_filtered_stride(p), sizeof *filt);
  assert_int_equal(pinet_fbp_filter_views(p, NULL, sino, views, filt), PINET_OK);
  const int bits = pinet_fbp_fixed_bits(p, filt);
  int dpi_bits = 0;
  assert_int_equal(pinet_dpi_fbp_fixed_bits(h, &dpi_bits), PINET_OK);
  assert_int_equal(dpi_bits, bits);
  int32_t *acc_ref = xcalloc((size_t)size * size, sizeof *acc_ref);
  assert_int_equal(pinet_fbp_backproject_fixed(p, filt, 0, views, bits, acc_ref), PINET_OK);
  assert_int_equal(pinet_dpi_fbp_run(h, 1, bits), PINET_OK);
  assert_int_equal(pinet_fbp_run_fixed(p, sino, bits, img), PINET_OK);
  for (uint32_t i = 0; i < size * size; i++) {
    assert_int_equal(pinet_dpi_fbp_pixel(h, i / size, i % size, &v), PINET_OK);
    assert_true(v == (double)img[i]);
    assert_int_equal(pinet_dpi_fbp_accum(h, i / size, i % size, &acc), PINET_OK);
    assert_int_equal(acc, acc_ref[i]);
  }
  /* Bad inputs. */
  void *h2 = (void *)1;
  assert_int_equal(pinet_dpi_fbp_create(NULL, size, views, bins, 0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_fbp_create(&h2, size, views, bins, PINET_FILTER_COUNT),
                   PINET_ERR_RANGE);
  assert_null(h2);
  assert_int_equal(pinet_dpi_fbp_create(&h2, 0, views, bins, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_fbp_set_sino(h, views, 0, 1.0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_fbp_set_sino(h, 0, bins, 1.0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_fbp_pixel(h, size, 0, &v), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_fbp_pixel(h, 0, 0, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_fbp_accum(h, 0, size, &acc), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_fbp_set_sino(h, 0, 0, NAN), PINET_OK);
  assert_int_equal(pinet_dpi_fbp_run(h, 0, 0), PINET_ERR_RANGE); /* the filter refuses NaN */
  assert_int_equal(pinet_dpi_fbp_pixel(h, 0, 0, &v), PINET_ERR_ILLEGAL_STATE);
  assert_int_equal(pinet_dpi_fbp_fixed_bits(h, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_fbp_set_sino(NULL, 0, 0, 0.0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_fbp_run(NULL, 0, 0), PINET_ERR_NULL);
  pinet_dpi_fbp_free(NULL);
  free(acc_ref);
  free(filt);
  free(img);
  free(sino);
  pinet_fbp_free(p);
  pinet_dpi_fbp_free(h);
}

static void check_em(unsigned fixed) {
  const uint32_t size = 12, views = 10, bins = 12;
  void *h = NULL;
  assert_int_equal(pinet_dpi_em_create(&h, size, views, bins, fixed), PINET_OK);
  double v = 0.0, ll = 0.0, ll2 = 0.0;
  assert_int_equal(pinet_dpi_em_pixel(h, 0, 0, &v), PINET_ERR_ILLEGAL_STATE);
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, size, views, bins), PINET_OK);
  pinet_sysmat *m = NULL;
  assert_int_equal(pinet_sysmat_create_parallel(&g, PINET_BOXES_DISK, &m), PINET_OK);
  const uint32_t tubes = pinet_sysmat_tubes(m);
  const uint32_t *line = pinet_sysmat_tube_line(m);
  const uint32_t *view = pinet_sysmat_tube_view(m);
  double *counts = xcalloc(tubes, sizeof *counts);
  pinet_rng rng;
  pinet_rng_seed(&rng, SEED + fixed);
  for (uint32_t t = 0; t < tubes; t++) {
    assert_int_equal(view[t], line[t] / bins); /* one line per (view, bin), view-major */
    counts[t] = (double)pinet_rng_below(&rng, 50);
  }
  /* Every (view, bin): set its count (a line without a tube is accepted and ignored). */
  for (uint32_t k = 0; k < views; k++) {
    for (uint32_t b = 0; b < bins; b++) {
      double c = 7.0;
      for (uint32_t t = 0; t < tubes; t++) {
        if (line[t] == k * bins + b) c = counts[t];
      }
      assert_int_equal(pinet_dpi_em_set_count(h, k, b, c), PINET_OK);
    }
  }
  const pinet_em_opts opts = {1, (pinet_recon_arith)fixed, 0};
  pinet_em *em = NULL;
  assert_int_equal(pinet_em_create(m, counts, &opts, &em), PINET_OK);
  for (int i = 0; i < 3; i++) assert_int_equal(pinet_em_iterate(em, &ll2), PINET_OK);
  assert_int_equal(pinet_dpi_em_iterate(h, 3, &ll), PINET_OK);
  assert_true(ll == ll2);
  float *img = xcalloc((size_t)size * size, sizeof *img);
  pinet_em_to_image(m, pinet_em_image(em), img);
  for (uint32_t i = 0; i < size * size; i++) {
    assert_int_equal(pinet_dpi_em_pixel(h, i / size, i % size, &v), PINET_OK);
    assert_true(v == (double)img[i]);
  }
  /* A new count restarts from the uniform image. */
  assert_int_equal(pinet_dpi_em_set_count(h, 0, bins / 2, 3.0), PINET_OK);
  assert_int_equal(pinet_dpi_em_pixel(h, 0, 0, &v), PINET_ERR_ILLEGAL_STATE);
  /* Bad inputs. */
  assert_int_equal(pinet_dpi_em_set_count(h, views, 0, 1.0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_em_set_count(h, 0, bins, 1.0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_em_set_count(h, 0, 0, -1.0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_em_set_count(h, 0, 0, INFINITY), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_em_iterate(h, 1, NULL), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_em_pixel(h, size, 0, &v), PINET_ERR_RANGE);
  free(img);
  free(counts);
  pinet_em_free(em);
  pinet_sysmat_free(m);
  pinet_dpi_em_free(h);
}

static void test_dpi_em_matches_model(void **state) {
  (void)state;
  check_em(PINET_RECON_FLOAT);
  check_em(PINET_RECON_FIXED);
  void *h = (void *)1;
  double v = 0.0;
  assert_int_equal(pinet_dpi_em_create(NULL, 8, 8, 8, 0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_em_create(&h, 8, 8, 8, 2), PINET_ERR_RANGE);
  assert_null(h);
  assert_int_equal(pinet_dpi_em_create(&h, 8, 0, 8, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_dpi_em_set_count(NULL, 0, 0, 1.0), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_em_iterate(NULL, 1, &v), PINET_ERR_NULL);
  assert_int_equal(pinet_dpi_em_pixel(NULL, 0, 0, &v), PINET_ERR_NULL);
  pinet_dpi_em_free(NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dpi_status_str),
      cmocka_unit_test(test_dpi_ps_expected_error),
      cmocka_unit_test(test_dpi_ps_channel_ends),
      cmocka_unit_test(test_dpi_ps_cycle_matches_model),
      cmocka_unit_test(test_dpi_ps_edge_semantics),
      cmocka_unit_test(test_dpi_ps_bad_inputs),
      cmocka_unit_test(test_dpi_rta_matches_model),
      cmocka_unit_test(test_dpi_rta_bad_inputs),
      cmocka_unit_test(test_dpi_fbp_matches_model),
      cmocka_unit_test(test_dpi_em_matches_model),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
