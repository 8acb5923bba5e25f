/* test_otis_route.c - concentrate, distribute and generalize on the OTIS-Mesh (paper §2.10-2.12).
 *
 * Results against sequential references; counts against the paper's optimal expressions: at
 * most 7(sqrt N - 1) electronic + 2 OTIS (SIMD), 4(sqrt N - 1) + 2 (MIMD) on every instance,
 * and exactly that on the lower-bound instance of Table 1 (built here from the paper's text) and
 * its inverse. Random cases print their seed; set PINET_SEED to replay one. */
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

static int64_t bound(int model, uint32_t N) {
  return (model == 0 ? 7 : 4) * ((int64_t)side_of(N) - 1);
}

/* The counts of the last operation: exactly the bound on the lower-bound instances (exact),
 * at most the bound elsewhere; 2 OTIS moves when anything moved (moved), none otherwise. */
static void check_route_counts(pinet_otis *m, uint32_t N, int model, int exact, int moved) {
  int64_t e, o;
  counts(m, &e, &o);
  if (exact) {
    CHECK_EQ(e, bound(model, N));
  } else {
    CHECK(e <= bound(model, N));
  }
  CHECK_EQ(o, moved ? 2 : 0);
}

/* dest[0..q) = the selected processors in index order, the rest of dest[0..P) = -1. */
static void dests_of(const uint8_t *sel, uint32_t P, int64_t *dest) {
  uint32_t q = 0;
  for (uint32_t I = 0; I < P; I++) dest[I] = -1;
  for (uint32_t I = 0; I < P; I++) if (sel[I]) dest[q++] = I;
}

/* Table 1 of the paper (its OCR is damaged; rebuilt from the text): the selected processors are
 * rows 0..sqrtN-2 of group (0,0), row 0 of group (0,1), row 0 of every group with
 * 1 <= Gx <= sqrtN-2, row 0 minus its last processor of group (sqrtN-1, 0) and b =
 * (sqrtN-1, 0, sqrtN-1, 0), row 0 of the groups (sqrtN-1, Gy >= 1), and a = (sqrtN-1, ..., sqrtN-1).
 * The ranks the paper states follow: c = (0,1,0,0) has N - sqrtN, b has N^1.5 - N + sqrtN - 1,
 * a has N^1.5. */
static void table1(uint32_t N, uint8_t *sel) {
  uint32_t n = side_of(N);
  memset(sel, 0, (size_t)N * N);
#define AT(gx, gy, px, py) sel[((gx) * n + (gy)) * N + (px) * n + (py)] = 1
  for (uint32_t px = 0; px + 1 < n; px++)
    for (uint32_t py = 0; py < n; py++) AT(0, 0, px, py);
  for (uint32_t gx = 0; gx < n; gx++)
    for (uint32_t gy = 0; gy < n; gy++) {
      if (gx == 0 && gy == 0) continue;
      if (gx == 0 && gy != 1) continue;
      for (uint32_t py = 0; py < n; py++) {
        if (gx == n - 1 && gy == 0 && py == n - 1) continue;
        AT(gx, gy, 0, py);
      }
    }
  AT(n - 1, 0, n - 1, 0);
  AT(n - 1, n - 1, n - 1, n - 1);
#undef AT
}

static void test_otis_route_table1_ranks_match_paper(void **state) {
  (void)state;
  for (size_t k = 0; k < 4; k++) {
    uint32_t N = k < 3 ? k_sizes[k] : 256, n = side_of(N), P = N * N;
    uint8_t *sel = xmalloc(P);
    table1(N, sel);
    int64_t r = 0, ra = -1, rb = -1, rc = -1;
    uint32_t a = P - 1, b = ((n - 1) * n) * N + (n - 1) * n, c = 1 * N;
    for (uint32_t I = 0; I < P; I++) {
      if (!sel[I]) continue;
      if (I == a) ra = r;
      if (I == b) rb = r;
      if (I == c) rc = r;
      r++;
    }
    assert_int_equal(ra, (int64_t)n * N);
    assert_int_equal(rb, (int64_t)n * N - N + n - 1);
    assert_int_equal(rc, (int64_t)N - n);
    free(sel);
  }
}

/* Concentrate: value[i] to processor rank[i]. */
static void check_concentrate(pinet_otis *m, uint32_t N, int model, const uint8_t *sel,
                              pinet_rng *rng, int exact) {
  uint32_t P = N * N;
  int64_t *val = xmalloc(P * sizeof *val), *rank = xmalloc(P * sizeof *rank);
  int64_t *out = xmalloc(P * sizeof *out);
  uint8_t *has = xmalloc(P);
  int64_t b = 0;
  for (uint32_t I = 0; I < P; I++) {
    val[I] = (int64_t)pinet_rng_next(rng);
    rank[I] = sel[I] ? b++ : -1;
  }
  CHECK_EQ(pinet_otis_concentrate(m, val, rank, out, has), PINET_OK);
  for (uint32_t I = 0; I < P; I++) {
    if (sel[I]) CHECK(has[rank[I]] && out[rank[I]] == val[I]);
  }
  for (uint32_t J = 0; J < P; J++) CHECK_EQ(has[J], J < b);
  check_route_counts(m, N, model, exact, b > 0);
  free(val);
  free(rank);
  free(out);
  free(has);
}

static void test_otis_concentrate_random_and_table1(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "concentrate", 0xc0);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], P = N * N;
    uint8_t *sel = xmalloc(P);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      CASE("N %u Table 1 %s", N, k_model[model]);
      table1(N, sel);
      check_concentrate(m, N, model, sel, &rng, 1);
      for (int trial = 0; trial < (N == 64 ? 8 : 30); trial++) {
        uint64_t density = pinet_rng_below(&rng, 101);
        CASE("N %u trial %d density %" PRIu64 " %s", N, trial, density, k_model[model]);
        select_random(&rng, sel, P, density);
        check_concentrate(m, N, model, sel, &rng, 0);
      }
      /* Ranks must be 0, 1, ... in index order. */
      int64_t val[16] = {0}, rank[16], out[16];
      if (N == 4) {
        for (int i = 0; i < 16; i++) rank[i] = -1;
        rank[3] = 1;
        rank[5] = 0;
        assert_int_equal(pinet_otis_concentrate(m, val, rank, out, NULL), PINET_ERR_RANGE);
        rank[3] = 0;
        rank[5] = 2;
        assert_int_equal(pinet_otis_concentrate(m, val, rank, out, NULL), PINET_ERR_RANGE);
        rank[5] = -2;
        assert_int_equal(pinet_otis_concentrate(m, val, rank, out, NULL), PINET_ERR_RANGE);
      }
      pinet_otis_free(m);
    }
    free(sel);
  }
}

/* Distribute / generalize on destinations dest[0..q] (strictly increasing). */
static void check_dist_gen(pinet_otis *m, uint32_t N, int model, const int64_t *dest,
                           pinet_rng *rng, int generalize, int exact) {
  uint32_t P = N * N;
  int64_t *val = xmalloc(P * sizeof *val), *out = xmalloc(P * sizeof *out);
  uint8_t *has = xmalloc(P);
  int64_t q = 0;
  while (q < (int64_t)P && dest[q] >= 0) q++;
  for (uint32_t I = 0; I < P; I++) val[I] = (int64_t)pinet_rng_next(rng);
  pinet_status st = generalize ? pinet_otis_generalize(m, val, dest, out, has)
                               : pinet_otis_distribute(m, val, dest, out, has);
  CHECK_EQ(st, PINET_OK);
  if (!generalize) {
    uint8_t *hit = xcalloc(P, 1);
    for (int64_t i = 0; i < q; i++) {
      CHECK(has[dest[i]] && out[dest[i]] == val[i]);
      hit[dest[i]] = 1;
    }
    for (uint32_t J = 0; J < P; J++) CHECK_EQ(has[J], hit[J]);
    free(hit);
  } else {
    int64_t i = -1;
    for (uint32_t J = 0; J < P; J++) {
      while (i + 1 < q && dest[i + 1] <= (int64_t)J) i++;
      CHECK_EQ(has[J], i >= 0);
      if (i >= 0) CHECK_EQ(out[J], val[i]);
    }
  }
  check_route_counts(m, N, model, exact, q > 0);
  free(val);
  free(out);
  free(has);
}

static void run_dist_gen(pinet_rng *rng, int generalize) {
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], P = N * N;
    uint8_t *sel = xmalloc(P);
    int64_t *dest = xmalloc(P * sizeof *dest);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int trial = -1; trial < (N == 64 ? 8 : 30); trial++) {
        if (trial < 0) {
          table1(N, sel); /* the inverse of Table 1: the worst case */
          CASE("N %u inverse Table 1 %s", N, k_model[model]);
        } else {
          uint64_t density = pinet_rng_below(rng, 101);
          select_random(rng, sel, P, density);
          if (trial % 3 == 0) sel[0] = 0; /* processors before the first destination */
          CASE("N %u trial %d density %" PRIu64 " %s", N, trial, density, k_model[model]);
        }
        dests_of(sel, P, dest);
        check_dist_gen(m, N, model, dest, rng, generalize, trial < 0);
      }
      /* Bad layouts: a gap, a non-increasing pair, an index out of range. */
      for (uint32_t I = 0; I < P; I++) dest[I] = -1;
      dest[0] = 3;
      dest[2] = 5;
      int64_t *val = xcalloc(P, sizeof *val), *out = xmalloc(P * sizeof *out);
      pinet_status (*op)(pinet_otis *, const int64_t *, const int64_t *, int64_t *, uint8_t *) =
          generalize ? pinet_otis_generalize : pinet_otis_distribute;
      assert_int_equal(op(m, val, dest, out, NULL), PINET_ERR_RANGE);
      dest[1] = 3;
      assert_int_equal(op(m, val, dest, out, NULL), PINET_ERR_RANGE);
      dest[1] = 4;
      dest[2] = P;
      assert_int_equal(op(m, val, dest, out, NULL), PINET_ERR_RANGE);
      dest[2] = -7;
      assert_int_equal(op(m, val, dest, out, NULL), PINET_ERR_RANGE);
      free(val);
      free(out);
      pinet_otis_free(m);
    }
    free(sel);
    free(dest);
  }
}

static void test_otis_distribute_random_and_inverse_table1(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "distribute", 0xd1);
  run_dist_gen(&rng, 0);
}

static void test_otis_generalize_random_and_inverse_table1(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "generalize", 0x6e);
  run_dist_gen(&rng, 1);
}

/* One run at the largest size: Table 1 and its inverse are exact at N = 256 too. */
static void test_otis_route_table1_n256(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "route N=256", 0x256);
  const uint32_t N = 256, P = N * N;
  uint8_t *sel = xmalloc(P);
  int64_t *dest = xmalloc(P * sizeof *dest);
  table1(N, sel);
  dests_of(sel, P, dest);
  pinet_otis *m = machine(N, PINET_OTIS_SIMD);
  CASE("N 256 Table 1 simd");
  check_concentrate(m, N, 0, sel, &rng, 1);
  CASE("N 256 inverse Table 1 generalize simd");
  check_dist_gen(m, N, 0, dest, &rng, 1, 1);
  pinet_otis_free(m);
  free(sel);
  free(dest);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_otis_route_table1_ranks_match_paper),
      cmocka_unit_test(test_otis_concentrate_random_and_table1),
      cmocka_unit_test(test_otis_distribute_random_and_inverse_table1),
      cmocka_unit_test(test_otis_generalize_random_and_inverse_table1),
      cmocka_unit_test(test_otis_route_table1_n256),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
