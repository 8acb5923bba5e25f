/* test_otis.c - the OTIS-Mesh machine (geometry, step engine, BPC permutations) and the basic
 * operations broadcast, window broadcast, prefix sums, data sum, rank, shifts, data
 * accumulation, adjacent and consecutive sums (paper 002, SPEC §5).
 *
 * Every result is checked against a sequential reference written here from the paper's
 * definitions, and every move count against the paper's expression (or, where the paper's
 * figure is below a lower bound, against that bound; see test_otis_accumulation_*). Random
 * cases print their seed; set PINET_SEED to replay one. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/otis.h"
#include "pinet/rng.h"
#include "test_support.h"
#include "test_otis_support.h"

/* ---- helpers ------------------------------------------------------------------------------- */

/* The last operation on m made exactly want_e electronic and want_o OTIS moves. */
#define CHECK_COUNTS(m, want_e, want_o) \
  do {                                  \
    int64_t electronic, otis;           \
    counts((m), &electronic, &otis);    \
    CHECK_EQ(electronic, want_e);       \
    CHECK_EQ(otis, want_o);             \
  } while (0)

typedef struct {
  uint32_t gx, gy, px, py;
} co;

static co coords(uint32_t N, uint32_t I) {
  uint32_t n = side_of(N), G = I / N, P = I % N;
  co c = {G / n, G % n, P / n, P % n};
  return c;
}

static uint32_t index_of(uint32_t N, co c) {
  uint32_t n = side_of(N);
  return (c.gx * n + c.gy) * N + c.px * n + c.py;
}

static uint32_t *coord_ref(co *c, int dim) {
  return dim == 0 ? &c->gx : dim == 1 ? &c->gy : dim == 2 ? &c->px : &c->py;
}

static void fill_random(pinet_rng *rng, int64_t *v, size_t count, int64_t lo, int64_t hi) {
  uint64_t span = (uint64_t)hi - (uint64_t)lo + 1u; /* 0 means the full 64-bit range */
  for (size_t i = 0; i < count; i++) {
    uint64_t r = span ? pinet_rng_below(rng, span) : pinet_rng_next(rng);
    v[i] = (int64_t)((uint64_t)lo + r);
  }
}

static int64_t max64(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t ecc(int64_t x, int64_t n) { return max64(x, n - 1 - x); }

/* ---- geometry ---------------------------------------------------------------------------------- */

static void test_otis_geometry_index_roundtrip(void **state) {
  (void)state;
  for (size_t k = 0; k < 4; k++) {
    uint32_t N = k < 3 ? k_sizes[k] : 256, n = side_of(N);
    for (uint32_t I = 0; I < N * N; I += (N == 256 ? 97 : 1)) {
      uint32_t gx, gy, px, py, back;
      assert_int_equal(pinet_otis_coords(N, I, &gx, &gy, &px, &py), PINET_OK);
      co c = coords(N, I);
      assert_true(gx == c.gx && gy == c.gy && px == c.px && py == c.py);
      assert_int_equal(pinet_otis_index(N, gx, gy, px, py, &back), PINET_OK);
      assert_int_equal(back, I);
      assert_int_equal(back, (gx * n + gy) * N + px * n + py);
    }
  }
}

static void test_otis_geometry_rejects_bad_sizes(void **state) {
  (void)state;
  const uint32_t bad[] = {0, 1, 2, 3, 8, 12, 32, 128, 512, 1024};
  uint32_t idx;
  pinet_otis *m = (pinet_otis *)&idx;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    assert_int_equal(pinet_otis_check_n(bad[i]), PINET_ERR_SIZE);
    assert_int_equal(pinet_otis_create(bad[i], PINET_OTIS_SIMD, &m), PINET_ERR_SIZE);
    assert_null(m);
    m = (pinet_otis *)&idx;
    assert_int_equal(pinet_otis_index(bad[i], 0, 0, 0, 0, &idx), PINET_ERR_SIZE);
  }
  assert_int_equal(pinet_otis_create(16, (pinet_otis_model)7, &m), PINET_ERR_RANGE);
  assert_int_equal(pinet_otis_index(16, 4, 0, 0, 0, &idx), PINET_ERR_RANGE);
  assert_int_equal(pinet_otis_index(16, 0, 0, 0, 4, &idx), PINET_ERR_RANGE);
  assert_int_equal(pinet_otis_coords(16, 256, NULL, NULL, NULL, NULL), PINET_ERR_RANGE);
  pinet_otis_free(NULL);
}

/* ---- step engine ------------------------------------------------------------------------------ */

/* Every link: a word sent from each processor lands where the coordinates say, and a move off
 * the mesh is rejected without changing anything. */
static void test_otis_engine_links_follow_coordinates(void **state) {
  (void)state;
  const uint32_t N = 16, n = 4;
  pinet_otis *m = machine(N, PINET_OTIS_SIMD);
  const uint32_t w[2] = {1, 1};
  for (int dir = 0; dir < 5; dir++) {
    for (uint32_t I = 0; I < N * N; I++) {
      CASE("dir %d from %u", dir, I);
      assert_int_equal(pinet_otis_configure(m, 2, w), PINET_OK);
      int64_t v = 1000 + I;
      assert_int_equal(pinet_otis_reg_set(m, 0, I, &v), PINET_OK);
      co c = coords(N, I), d = c;
      int ok = 1;
      switch (dir) {
        case PINET_OTIS_UP: ok = c.px > 0; d.px--; break;
        case PINET_OTIS_DOWN: ok = c.px + 1 < n; d.px++; break;
        case PINET_OTIS_LEFT: ok = c.py > 0; d.py--; break;
        case PINET_OTIS_RIGHT: ok = c.py + 1 < n; d.py++; break;
        default: d.gx = c.px; d.gy = c.py; d.px = c.gx; d.py = c.gy; break;
      }
      pinet_otis_move mv = {I, (uint8_t)dir, 0, 1, 0};
      pinet_status st = pinet_otis_step(m, &mv, 1);
      int present = 0;
      int64_t got = 0;
      if (!ok) {
        CHECK_EQ(st, PINET_ERR_ILLEGAL_MOVE);
        assert_int_equal(pinet_otis_reg_get(m, 0, I, &got, &present), PINET_OK);
        CHECK(present && got == v); /* unchanged */
        continue;
      }
      CHECK_EQ(st, PINET_OK);
      uint32_t to = index_of(N, d);
      assert_int_equal(pinet_otis_reg_get(m, 1, to, &got, &present), PINET_OK);
      CHECK(present && got == v);
      assert_int_equal(pinet_otis_reg_get(m, 0, I, &got, &present), PINET_OK);
      CHECK(!present || to == I);
      CHECK_COUNTS(m, dir == PINET_OTIS_LINK ? 0 : 1, dir == PINET_OTIS_LINK ? 1 : 0);
    }
  }
  pinet_otis_free(m);
}

static void test_otis_engine_rejects_collisions(void **state) {
  (void)state;
  pinet_otis *m = machine(16, PINET_OTIS_MIMD);
  const uint32_t w[3] = {1, 1, 2};
  int64_t v = 7, got;
  int present;
  assert_int_equal(pinet_otis_configure(m, 3, w), PINET_OK);
  /* Processors 0 and 2 both send into register 1 of processor 1. */
  assert_int_equal(pinet_otis_reg_set(m, 0, 0, &v), PINET_OK);
  assert_int_equal(pinet_otis_reg_set(m, 0, 2, &v), PINET_OK);
  pinet_otis_move two[2] = {{0, PINET_OTIS_RIGHT, 0, 1, 0}, {2, PINET_OTIS_LEFT, 0, 1, 0}};
  assert_int_equal(pinet_otis_step(m, two, 2), PINET_ERR_ILLEGAL_MOVE);
  assert_int_equal(pinet_otis_reg_get(m, 0, 0, &got, &present), PINET_OK);
  assert_true(present); /* nothing moved */
  /* A word landing on a register whose word stays. */
  assert_int_equal(pinet_otis_reg_set(m, 0, 1, &v), PINET_OK);
  pinet_otis_move one = {0, PINET_OTIS_RIGHT, 0, 0, 0};
  assert_int_equal(pinet_otis_step(m, &one, 1), PINET_ERR_ILLEGAL_MOVE);
  /* ... is fine when that word leaves in the same step (a chain shift 0 -> 1 -> 2 -> 3). */
  pinet_otis_move chain[3] = {{0, PINET_OTIS_RIGHT, 0, 0, 0}, {1, PINET_OTIS_RIGHT, 0, 0, 0},
                              {2, PINET_OTIS_RIGHT, 0, 0, 0}};
  assert_int_equal(pinet_otis_step(m, chain, 2), PINET_ERR_ILLEGAL_MOVE); /* 2 stays */
  assert_int_equal(pinet_otis_step(m, chain, 3), PINET_OK);
  assert_int_equal(pinet_otis_reg_get(m, 0, 0, &got, &present), PINET_OK);
  assert_false(present);
  /* ... but not when the leaving word only leaves a copy (keep = 1). */
  pinet_otis_move keep[2] = {{1, PINET_OTIS_RIGHT, 0, 0, 0}, {2, PINET_OTIS_RIGHT, 0, 0, 1}};
  assert_int_equal(pinet_otis_step(m, keep, 2), PINET_ERR_ILLEGAL_MOVE);
  /* Sending from an empty register, the same link twice, mismatched widths. */
  pinet_otis_move empty = {5, PINET_OTIS_RIGHT, 0, 1, 0};
  assert_int_equal(pinet_otis_step(m, &empty, 1), PINET_ERR_ILLEGAL_MOVE);
  pinet_otis_move twice[2] = {{1, PINET_OTIS_RIGHT, 0, 1, 1}, {1, PINET_OTIS_RIGHT, 0, 1, 1}};
  assert_int_equal(pinet_otis_step(m, twice, 2), PINET_ERR_ILLEGAL_MOVE);
  pinet_otis_move wide = {1, PINET_OTIS_RIGHT, 0, 2, 0};
  assert_int_equal(pinet_otis_step(m, &wide, 1), PINET_ERR_MISMATCH);
  pinet_otis_move badreg = {1, PINET_OTIS_RIGHT, 0, 9, 0};
  assert_int_equal(pinet_otis_step(m, &badreg, 1), PINET_ERR_RANGE);
  /* Uniform steps obey the same rules: everyone right in register 0 hits the mesh edge. */
  assert_int_equal(pinet_otis_step_uniform(m, PINET_OTIS_RIGHT, 0, 0, NULL, 0),
                   PINET_ERR_ILLEGAL_MOVE);
  int64_t e, o;
  counts(m, &e, &o);
  assert_int_equal(e, 1); /* only the chain shift counted */
  assert_int_equal(o, 0);
  pinet_otis_free(m);
}

static void test_otis_engine_simd_rejects_mixed_directions(void **state) {
  (void)state;
  const uint32_t w[1] = {1};
  int64_t v = 1;
  for (int model = 0; model < 2; model++) {
    pinet_otis *m = machine(16, (pinet_otis_model)model);
    assert_int_equal(pinet_otis_configure(m, 1, w), PINET_OK);
    assert_int_equal(pinet_otis_reg_set(m, 0, 5, &v), PINET_OK);
    assert_int_equal(pinet_otis_reg_set(m, 0, 10, &v), PINET_OK);
    pinet_otis_move mix[2] = {{5, PINET_OTIS_LEFT, 0, 0, 0}, {10, PINET_OTIS_RIGHT, 0, 0, 0}};
    assert_int_equal(pinet_otis_step(m, mix, 2),
                     model == PINET_OTIS_SIMD ? PINET_ERR_ILLEGAL_MOVE : PINET_OK);
    /* OTIS and electronic moves never share a step. */
    pinet_otis_move eo[2] = {{5 + (model ? -1 : 0), PINET_OTIS_LINK, 0, 0, 0},
                             {10 + (model ? 1 : 0), PINET_OTIS_UP, 0, 0, 0}};
    assert_int_equal(pinet_otis_step(m, eo, 2), PINET_ERR_ILLEGAL_MOVE);
    pinet_otis_free(m);
  }
}

/* Processor (G, G) is its own OTIS partner: an OTIS step keeps its word in place. */
static void test_otis_engine_otis_self_link(void **state) {
  (void)state;
  pinet_otis *m = machine(4, PINET_OTIS_SIMD);
  const uint32_t w[1] = {1};
  assert_int_equal(pinet_otis_configure(m, 1, w), PINET_OK);
  for (uint32_t I = 0; I < 16; I++) {
    int64_t v = 100 + I;
    assert_int_equal(pinet_otis_reg_set(m, 0, I, &v), PINET_OK);
  }
  assert_int_equal(pinet_otis_step_uniform(m, PINET_OTIS_LINK, 0, 0, NULL, 0), PINET_OK);
  /* A copy (keep) onto an occupied partner register is a collision, except on the self-link. */
  assert_int_equal(pinet_otis_step_uniform(m, PINET_OTIS_LINK, 0, 0, NULL, 1),
                   PINET_ERR_ILLEGAL_MOVE);
  uint8_t diag[16] = {0};
  for (uint32_t G = 0; G < 4; G++) diag[G * 4 + G] = 1;
  assert_int_equal(pinet_otis_step_uniform(m, PINET_OTIS_LINK, 0, 0, diag, 1), PINET_OK);
  for (uint32_t I = 0; I < 16; I++) {
    int64_t got;
    int present;
    uint32_t G = I / 4, P = I % 4;
    assert_int_equal(pinet_otis_reg_get(m, 0, I, &got, &present), PINET_OK);
    assert_true(present);
    assert_int_equal(got, 100 + P * 4 + G); /* transposed once, the copy step is a no-op */
  }
  pinet_otis_free(m);
}

static void test_otis_engine_counts_and_trace(void **state) {
  (void)state;
  pinet_otis *m = machine(16, PINET_OTIS_MIMD);
  const uint32_t w[2] = {1, 1};
  assert_int_equal(pinet_otis_configure(m, 2, w), PINET_OK);
  assert_int_equal(pinet_otis_set_trace(m, 2), PINET_OK);
  assert_int_equal(pinet_otis_set_trace(m, 3), PINET_ERR_RANGE);
  int64_t v = 3;
  for (uint32_t I = 0; I < 256; I += 17) {
    assert_int_equal(pinet_otis_reg_set(m, 0, I, &v), PINET_OK);
  }
  /* 16 words along OTIS, then the same 16 words down where possible. */
  assert_int_equal(pinet_otis_step_uniform(m, PINET_OTIS_LINK, 0, 1, NULL, 0), PINET_OK);
  uint8_t mask[256];
  size_t can = 0;
  for (uint32_t I = 0; I < 256; I++) {
    mask[I] = coords(16, I).px < 3;
    int64_t g;
    int pr;
    pinet_otis_reg_get(m, 1, I, &g, &pr);
    can += pr && mask[I];
  }
  assert_int_equal(pinet_otis_step_uniform(m, PINET_OTIS_DOWN, 1, 0, mask, 1), PINET_OK);
  pinet_otis_counts c;
  pinet_otis_get_counts(m, &c);
  assert_int_equal(c.otis, 1);
  assert_int_equal(c.electronic, 1);
  assert_int_equal(c.words, 16 + can);
  const pinet_otis_trace_step *ts;
  const pinet_otis_trace_move *tm;
  assert_int_equal(pinet_otis_trace_steps(m, &ts), 2);
  assert_int_equal(ts[0].otis, 1);
  assert_int_equal(ts[0].words, 16);
  assert_int_equal(ts[1].dir_mask, 1u << PINET_OTIS_DOWN);
  assert_int_equal(pinet_otis_trace_moves(m, &tm), 16 + can);
  for (size_t k = 16; k < 16 + can; k++) {
    assert_int_equal(tm[k].to, tm[k].from + 4); /* DOWN is +sqrt(N) */
  }
  /* A step that moves nothing is not a step. */
  uint8_t none[256] = {0};
  assert_int_equal(pinet_otis_step_uniform(m, PINET_OTIS_DOWN, 1, 0, none, 1), PINET_OK);
  pinet_otis_get_counts(m, &c);
  assert_int_equal(c.electronic, 1);
  pinet_otis_reset_counts(m);
  pinet_otis_get_counts(m, &c);
  assert_int_equal(c.electronic + c.otis + c.words, 0);
  assert_int_equal(pinet_otis_trace_steps(m, NULL), 0);
  pinet_otis_free(m);
}

/* ---- BPC ---------------------------------------------------------------------------------------- */

/* Table 3 of the paper: A = [-0, 1, 2, -3] on a 16-processor OTIS-Mesh. */
static const uint32_t k_table3[16] = {9, 1, 13, 5, 11, 3, 15, 7, 8, 0, 12, 4, 10, 2, 14, 6};

static void test_otis_bpc_table3(void **state) {
  (void)state;
  pinet_otis_bpc v;
  assert_int_equal(pinet_otis_bpc_parse(4, "[-0, 1, 2, -3]", &v), PINET_OK);
  for (uint32_t I = 0; I < 16; I++) {
    uint32_t d;
    assert_int_equal(pinet_otis_bpc_dest(&v, I, &d), PINET_OK);
    assert_int_equal(d, k_table3[I]);
  }
  for (int model = 0; model < 2; model++) {
    pinet_otis *m = machine(4, (pinet_otis_model)model);
    int64_t in[16], out[16];
    for (uint32_t I = 0; I < 16; I++) in[I] = 500 + I;
    assert_int_equal(pinet_otis_bpc_route(m, &v, in, out), PINET_OK);
    for (uint32_t I = 0; I < 16; I++) assert_int_equal(out[k_table3[I]], 500 + I);
    pinet_otis_free(m);
  }
  /* -0 and +0 differ: with +0 bit 3 is copied, not complemented. */
  assert_int_equal(pinet_otis_bpc_parse(4, "0, 1, 2, -3", &v), PINET_OK);
  uint32_t d;
  assert_int_equal(pinet_otis_bpc_dest(&v, 0, &d), PINET_OK);
  assert_int_equal(d, 8); /* 0000 -> d3 = ~m0 = 1, d0 = m3 = 0 */
}

static void test_otis_bpc_parse_rejects_malformed(void **state) {
  (void)state;
  pinet_otis_bpc v;
  const char *bad[] = {"",          "[]",          "[-0, 1, 2]",      "[-0, 1, 2, 3, 4]",
                       "[0, 1, 1, 3]", "[0, 1, 2, 4]", "[0, 1, 2, x]", "[0 1 2 3",
                       "0,1,2,3]",  "[0,,1,2,3]",  "[--0, 1, 2, 3]", "[0, 1, 2, 3] junk"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    pinet_status st = pinet_otis_bpc_parse(4, bad[i], &v);
    if (st != PINET_ERR_PARSE && st != PINET_ERR_SIZE && st != PINET_ERR_RANGE) {
      fail_msg("'%s' parsed (status %d)", bad[i], st);
    }
  }
  assert_int_equal(pinet_otis_bpc_parse(5, "[0,1,2,3]", &v), PINET_ERR_SIZE);
  assert_int_equal(pinet_otis_bpc_parse(4, "[0,1,2]", &v), PINET_ERR_SIZE);
  assert_int_equal(pinet_otis_bpc_parse(4, "[0,1,1,3]", &v), PINET_ERR_RANGE);
  assert_int_equal(pinet_otis_bpc_parse(4, "[0,1,x,3]", &v), PINET_ERR_PARSE);
  assert_int_equal(pinet_otis_bpc_parse(4, "[0,1,2,3]", &v), PINET_OK);
  assert_int_equal(pinet_otis_bpc_parse(4, "[ 3 , -2 ,1,0 ]", &v), PINET_OK);
}

/* Random vectors: the routed data land where the definition (computed here) says. */
static void test_otis_bpc_random_vectors(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "bpc", 0xb9c);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], P = N * N, q = N == 4 ? 4 : N == 16 ? 8 : 12;
    int64_t *in = xmalloc(P * sizeof *in), *out = xmalloc(P * sizeof *out);
    for (int trial = 0; trial < (N == 64 ? 6 : 25); trial++) {
      pinet_otis_bpc v;
      memset(&v, 0, sizeof v);
      v.bits = q;
      uint8_t perm[16];
      for (uint32_t i = 0; i < q; i++) perm[i] = (uint8_t)i;
      for (uint32_t i = q - 1; i > 0; i--) {
        uint32_t j = (uint32_t)pinet_rng_below(&rng, i + 1);
        uint8_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
      }
      for (uint32_t i = 0; i < q; i++) {
        v.dest_bit[i] = perm[i];
        v.complement[i] = (uint8_t)pinet_rng_below(&rng, 2);
      }
      for (int model = 0; model < 2; model++) {
        CASE("N %u trial %d %s", N, trial, k_model[model]);
        pinet_otis *m = machine(N, (pinet_otis_model)model);
        fill_random(&rng, in, P, -1000, 1000);
        CHECK_EQ(pinet_otis_bpc_route(m, &v, in, out), PINET_OK);
        for (uint32_t I = 0; I < P; I++) {
          uint32_t d = 0;
          for (uint32_t i = 0; i < q; i++) d |= (((I >> i) & 1u) ^ v.complement[i]) << v.dest_bit[i];
          CHECK_EQ(out[d], in[I]);
        }
        pinet_otis_free(m);
      }
    }
    free(in);
    free(out);
  }
}

/* ---- broadcast, window broadcast ---------------------------------------------------------------- */

static void test_otis_broadcast_every_source(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "broadcast", 0xb0);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], n = side_of(N), P = N * N;
    int64_t *in = xmalloc(P * sizeof *in), *out = xmalloc(P * sizeof *out);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (uint32_t src = 0; src < P; src += (N == 64 ? 37 : 1)) {
        CASE("N %u source %u %s", N, src, k_model[model]);
        fill_random(&rng, in, P, INT64_MIN / 2, INT64_MAX / 2);
        CHECK_EQ(pinet_otis_broadcast(m, in, src, out), PINET_OK);
        for (uint32_t I = 0; I < P; I++) CHECK_EQ(out[I], in[src]);
        int64_t e, o;
        counts(m, &e, &o);
        co c = coords(N, src);
        /* SIMD: 4(sqrt N - 1) + 1 from every source. MIMD: eccentricity of P inside its group
         * plus that of processor G (in every group), at most the SIMD figure. */
        int64_t want = model == 0 ? 4 * ((int64_t)n - 1)
                                  : ecc(c.px, n) + ecc(c.py, n) + ecc(c.gx, n) + ecc(c.gy, n);
        CHECK_EQ(e, want);
        CHECK_EQ(o, 1);
        if (src == 0 || src == P - 1) CHECK_EQ(e, 4 * ((int64_t)n - 1)); /* worst case */
      }
      pinet_otis_free(m);
    }
    free(in);
    free(out);
  }
  pinet_otis *m = machine(4, PINET_OTIS_SIMD);
  int64_t in[16] = {0}, out[16];
  assert_int_equal(pinet_otis_broadcast(m, in, 16, out), PINET_ERR_RANGE);
  pinet_otis_free(m);
}

static void test_otis_window_broadcast_all_windows(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "window broadcast", 0x3b);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], n = side_of(N), P = N * N;
    int64_t *in = xmalloc(P * sizeof *in), *out = xmalloc(P * sizeof *out);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (uint32_t w = 1; w <= n; w *= 2) {
        for (uint32_t g = 0; g < N; g += (N == 64 ? 21 : N == 16 ? 5 : 1)) {
          CASE("N %u w %u group %u %s", N, w, g, k_model[model]);
          fill_random(&rng, in, P, -99, 99);
          CHECK_EQ(pinet_otis_window_broadcast(m, in, g, w, out), PINET_OK);
          for (uint32_t I = 0; I < P; I++) {
            co c = coords(N, I);
            co s = {g / n, g % n, c.px % w, c.py % w};
            CHECK_EQ(out[I], in[index_of(N, s)]);
          }
          int64_t e, o;
          counts(m, &e, &o);
          /* 2(sqrt N - w) to tile the group, then a broadcast from processor g of every group:
           * 2(sqrt N - 1) in SIMD, its eccentricity in MIMD (the paper's 4 sqrt N - 2w - 2 for a
           * corner group). */
          int64_t tile = 2 * ((int64_t)n - w);
          int64_t bc = model == 0 ? 2 * ((int64_t)n - 1) : ecc(g / n, n) + ecc(g % n, n);
          CHECK_EQ(e, tile + bc);
          CHECK_EQ(o, 2);
          if (g == 0) CHECK_EQ(e, 4 * (int64_t)n - 2 * (int64_t)w - 2);
        }
      }
      CHECK_EQ(pinet_otis_window_broadcast(m, in, 0, 3, out), PINET_ERR_RANGE);
      CHECK_EQ(pinet_otis_window_broadcast(m, in, 0, 0, out), PINET_ERR_RANGE);
      CHECK_EQ(pinet_otis_window_broadcast(m, in, 0, 2 * n, out), PINET_ERR_RANGE);
      CHECK_EQ(pinet_otis_window_broadcast(m, in, N, 1, out), PINET_ERR_RANGE);
      pinet_otis_free(m);
    }
    free(in);
    free(out);
  }
}

/* ---- prefix sums, data sum, rank ---------------------------------------------------------------- */

static void test_otis_prefix_sum_both_algorithms(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "prefix sum", 0x9f);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], n = side_of(N), P = N * N;
    int64_t *in = xmalloc(P * sizeof *in), *out = xmalloc(P * sizeof *out);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int trial = 0; trial < 6; trial++) {
        for (int improved = 0; improved < 2; improved++) {
          CASE("N %u trial %d improved %d %s", N, trial, improved, k_model[model]);
          if (trial == 0) {
            fill_random(&rng, in, P, INT64_MAX - 100, INT64_MAX); /* sums wrap */
          } else {
            fill_random(&rng, in, P, -1000000, 1000000);
          }
          CHECK_EQ(pinet_otis_prefix_sum(m, in, improved, out), PINET_OK);
          uint64_t s = 0;
          for (uint32_t I = 0; I < P; I++) {
            s += (uint64_t)in[I];
            CHECK_EQ(out[I], (int64_t)s);
          }
          CHECK_COUNTS(m, (improved ? 7 : 8) * ((int64_t)n - 1), 2);
        }
      }
      pinet_otis_free(m);
    }
    free(in);
    free(out);
  }
}

static void test_otis_data_sum_counts(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "data sum", 0xd5);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], n = side_of(N), P = N * N;
    int64_t *in = xmalloc(P * sizeof *in), *out = xmalloc(P * sizeof *out);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int trial = 0; trial < 4; trial++) {
        CASE("N %u trial %d %s", N, trial, k_model[model]);
        fill_random(&rng, in, P, trial ? -5000 : INT64_MIN, trial ? 5000 : INT64_MAX);
        CHECK_EQ(pinet_otis_data_sum(m, in, out), PINET_OK);
        uint64_t s = 0;
        for (uint32_t I = 0; I < P; I++) s += (uint64_t)in[I];
        for (uint32_t I = 0; I < P; I++) CHECK_EQ(out[I], (int64_t)s);
        /* SIMD 8(sqrt N - 1); MIMD 4 sqrt N (sqrt N even, sums meet in the middle processor). */
        CHECK_COUNTS(m, model == 0 ? 8 * ((int64_t)n - 1) : 4 * (int64_t)n, 1);
      }
      pinet_otis_free(m);
    }
    free(in);
    free(out);
  }
}

static void test_otis_rank_random_flags(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "rank", 0x7a);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], n = side_of(N), P = N * N;
    uint8_t *sel = xmalloc(P);
    int64_t *rank = xmalloc(P * sizeof *rank);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int trial = 0; trial < 5; trial++) {
        CASE("N %u trial %d %s", N, trial, k_model[model]);
        uint64_t density = (uint64_t)trial * 25; /* 0%, 25%, ..., 100% */
        select_random(&rng, sel, P, density);
        CHECK_EQ(pinet_otis_rank(m, sel, rank), PINET_OK);
        int64_t before = 0;
        for (uint32_t I = 0; I < P; I++) {
          CHECK_EQ(rank[I], sel[I] ? before : -1);
          before += sel[I];
        }
        CHECK_COUNTS(m, 7 * ((int64_t)n - 1), 2);
      }
      pinet_otis_free(m);
    }
    free(sel);
    free(rank);
  }
}

/* ---- shifts ------------------------------------------------------------------------------------- */

static void test_otis_shift_all_kinds(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "shift", 0x5f);
  /* kind -> dimension (0 Gx, 1 Gy, 2 Px, 3 Py) and circular. */
  static const int dim[8] = {3, 2, 3, 2, 1, 0, 1, 0};
  static const int circ[8] = {0, 0, 1, 1, 0, 0, 1, 1};
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], P = N * N;
    int32_t n = (int32_t)side_of(N);
    int64_t *in = xmalloc(P * sizeof *in), *out = xmalloc(P * sizeof *out);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int kind = 0; kind < 8; kind++) {
        for (int32_t s = -n + 1; s < n; s++) {
          CASE("N %u kind %c s %d %s", N, 'a' + kind, s, k_model[model]);
          if (s == 0) {
            CHECK_EQ(pinet_otis_shift(m, in, (pinet_otis_shift_kind)kind, 0, out), PINET_ERR_RANGE);
            continue;
          }
          fill_random(&rng, in, P, 1, 1000000);
          CHECK_EQ(pinet_otis_shift(m, in, (pinet_otis_shift_kind)kind, s, out), PINET_OK);
          for (uint32_t I = 0; I < P; I++) {
            co c = coords(N, I);
            int32_t from = (int32_t)*coord_ref(&c, dim[kind]) - s;
            int64_t want = 0;
            if (circ[kind]) {
              from = ((from % n) + n) % n;
            }
            if (from >= 0 && from < n) {
              *coord_ref(&c, dim[kind]) = (uint32_t)from;
              want = in[index_of(N, c)];
            }
            CHECK_EQ(out[I], want);
          }
          int64_t a = s < 0 ? -s : s;
          int64_t want_e = !circ[kind] ? a : (model == 0 ? n : max64(a, n - a));
          CHECK_COUNTS(m, want_e, kind >= 4 ? 2 : 0);
        }
      }
      CHECK_EQ(pinet_otis_shift(m, in, PINET_OTIS_SHIFT_A, n, out), PINET_ERR_RANGE);
      CHECK_EQ(pinet_otis_shift(m, in, PINET_OTIS_SHIFT_A, -n, out), PINET_ERR_RANGE);
      CHECK_EQ(pinet_otis_shift(m, in, (pinet_otis_shift_kind)8, 1, out), PINET_ERR_RANGE);
      pinet_otis_free(m);
    }
    free(in);
    free(out);
  }
}

/* ---- data accumulation, adjacent sum ------------------------------------------------------------- */

/* Counts. The paper gives data accumulation "the complexity of the circular shift by -M":
 * sqrt(N) (SIMD), max(M, sqrt(N) - M) (MIMD). Both are below a lower bound for M >= 2: the
 * processor at coordinate sqrt(N) - 1 needs the value at coordinate 0 (sqrt(N) - 1 moves in
 * one direction; other paths through OTIS links are no shorter), and the one at 0 needs the
 * value at M - 1 (M - 1 moves the other way, which a SIMD step cannot overlap). The machine
 * meets these bounds exactly: SIMD sqrt(N) + M - 2, MIMD sqrt(N) - 1; for M = 2 the SIMD count
 * is the paper's sqrt(N). M = 1 needs no move. */
static int64_t accum_expected(int model, int64_t n, int64_t M) {
  if (M == 1) return 0;
  return model == 0 ? n + M - 2 : n - 1;
}

static void run_accumulation(pinet_rng *rng, int sum) {
  for (size_t k = 0; k < 2; k++) {
    uint32_t N = k_sizes[k], n = side_of(N), P = N * N;
    int64_t *in = xmalloc(P * sizeof *in), *out = xmalloc((size_t)P * n * sizeof *out);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int dim = 0; dim < 4; dim++) {
        for (uint32_t M = 1; M <= n; M++) {
          CASE("N %u dim %d M %u %s sum %d", N, dim, M, k_model[model], sum);
          fill_random(rng, in, P, -1000, 1000);
          pinet_status st = sum ? pinet_otis_adjacent_sum(m, in, (pinet_otis_dim)dim, M, out)
                                : pinet_otis_data_accumulation(m, in, (pinet_otis_dim)dim, M, out);
          CHECK_EQ(st, PINET_OK);
          for (uint32_t I = 0; I < P; I++) {
            int64_t total = 0;
            for (uint32_t i = 0; i < M; i++) {
              co c = coords(N, I);
              uint32_t *x = coord_ref(&c, dim);
              *x = (*x + i) % n;
              int64_t v = in[index_of(N, c)];
              total += v;
              if (!sum) CHECK_EQ(out[(size_t)I * M + i], v);
            }
            if (sum) CHECK_EQ(out[I], total);
          }
          int64_t e, o;
          counts(m, &e, &o);
          CHECK_EQ(e, accum_expected(model, n, M));
          CHECK_EQ(o, dim <= 1 ? 2 : 0);
          if (model == 0 && M == 2) CHECK_EQ(e, (int64_t)n); /* the paper's SIMD figure */
        }
        CHECK_EQ(sum ? pinet_otis_adjacent_sum(m, in, (pinet_otis_dim)dim, 0, out)
                     : pinet_otis_data_accumulation(m, in, (pinet_otis_dim)dim, n + 1, out),
                 PINET_ERR_RANGE);
      }
      pinet_otis_free(m);
    }
    free(in);
    free(out);
  }
}

static void test_otis_accumulation_all_dims(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "data accumulation", 0xacc);
  run_accumulation(&rng, 0);
}

static void test_otis_adjacent_sum_all_dims(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "adjacent sum", 0xad);
  run_accumulation(&rng, 1);
}

/* ---- consecutive sum ---------------------------------------------------------------------------- */

static void test_otis_consecutive_sum_all_blocks(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "consecutive sum", 0xc5);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], n = side_of(N), P = N * N;
    int64_t *x = xmalloc((size_t)P * n * sizeof *x), *out = xmalloc(P * sizeof *out);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int dim = 0; dim < 4; dim++) {
        for (uint32_t M = 1; M <= n; M *= 2) {
          CASE("N %u dim %d M %u %s", N, dim, M, k_model[model]);
          fill_random(&rng, x, (size_t)P * M, -500, 500);
          CHECK_EQ(pinet_otis_consecutive_sum(m, x, (pinet_otis_dim)dim, M, out), PINET_OK);
          for (uint32_t I = 0; I < P; I++) {
            co c = coords(N, I);
            uint32_t pos = *coord_ref(&c, dim), i = pos % M;
            int64_t want = 0;
            for (uint32_t j = 0; j < M; j++) {
              co b = c;
              *coord_ref(&b, dim) = pos - i + j; /* processor j of the block */
              want += x[(size_t)index_of(N, b) * M + i];
            }
            CHECK_EQ(out[I], want);
          }
          CHECK_COUNTS(m, (model == 0 ? 4 : 2) * ((int64_t)M - 1), dim <= 1 ? 2 : 0);
        }
      }
      if (n > 2) CHECK_EQ(pinet_otis_consecutive_sum(m, x, PINET_OTIS_DIM_PY, 3, out), PINET_ERR_RANGE);
      CHECK_EQ(pinet_otis_consecutive_sum(m, x, PINET_OTIS_DIM_PY, 0, out), PINET_ERR_RANGE);
      CHECK_EQ(pinet_otis_consecutive_sum(m, x, (pinet_otis_dim)4, 1, out), PINET_ERR_RANGE);
      pinet_otis_free(m);
    }
    free(x);
    free(out);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_otis_geometry_index_roundtrip),
      cmocka_unit_test(test_otis_geometry_rejects_bad_sizes),
      cmocka_unit_test(test_otis_engine_links_follow_coordinates),
      cmocka_unit_test(test_otis_engine_rejects_collisions),
      cmocka_unit_test(test_otis_engine_simd_rejects_mixed_directions),
      cmocka_unit_test(test_otis_engine_otis_self_link),
      cmocka_unit_test(test_otis_engine_counts_and_trace),
      cmocka_unit_test(test_otis_bpc_table3),
      cmocka_unit_test(test_otis_bpc_parse_rejects_malformed),
      cmocka_unit_test(test_otis_bpc_random_vectors),
      cmocka_unit_test(test_otis_broadcast_every_source),
      cmocka_unit_test(test_otis_window_broadcast_all_windows),
      cmocka_unit_test(test_otis_prefix_sum_both_algorithms),
      cmocka_unit_test(test_otis_data_sum_counts),
      cmocka_unit_test(test_otis_rank_random_flags),
      cmocka_unit_test(test_otis_shift_all_kinds),
      cmocka_unit_test(test_otis_accumulation_all_dims),
      cmocka_unit_test(test_otis_adjacent_sum_all_dims),
      cmocka_unit_test(test_otis_consecutive_sum_all_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
