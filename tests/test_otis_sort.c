/* test_otis_sort.c - sorting (Leighton's column sort with BPC permutations), random access read
 * and random access write on the OTIS-Mesh (paper §2.13-2.15).
 *
 * Results against sequential references (qsort, direct reads and writes). The paper gives only
 * leading terms for these operations; the counts are printed beside them, and the part of the
 * sort spent in BPC permutations is checked against the paper's 22 sqrt N (SIMD) / 11 sqrt N
 * (MIMD). Random cases print their seed; set PINET_SEED to replay one. */
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

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* ---- sort ----------------------------------------------------------------------------------- */

static void check_sort(pinet_otis *m, uint32_t N, int model, const int64_t *in, int report) {
  uint32_t P = N * N;
  int64_t *out = xmalloc(P * sizeof *out), *ref = xmalloc(P * sizeof *ref);
  memcpy(ref, in, P * sizeof *ref);
  qsort(ref, P, sizeof *ref, cmp64);
  pinet_otis_counts bpc, all;
  CHECK_EQ(pinet_otis_sort(m, in, out, &bpc), PINET_OK);
  for (uint32_t I = 0; I < P; I++) CHECK_EQ(out[I], ref[I]);
  pinet_otis_get_counts(m, &all);
  int64_t n = side_of(N);
  CHECK((int64_t)bpc.electronic <= (model == 0 ? 22 : 11) * n); /* the paper's leading term */
  CHECK(bpc.otis <= all.otis && bpc.electronic <= all.electronic);
  if (report) {
    printf("  sort N=%u %s: %" PRIu64 " electronic + %" PRIu64 " OTIS (BPC part %" PRIu64
           " + %" PRIu64 "); paper %s: %" PRId64 " sqrtN = %" PRId64 " + o(sqrtN) electronic\n",
           N, k_model[model], all.electronic, all.otis, bpc.electronic, bpc.otis,
           k_model[model], model == 0 ? (int64_t)22 : (int64_t)11,
           (model == 0 ? 22 : 11) * n);
  }
  free(out);
  free(ref);
}

static void test_otis_sort_random_and_patterns(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "sort", 0x50);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], P = N * N;
    int64_t *in = xmalloc(P * sizeof *in);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      int trials = N == 64 ? 6 : 12;
      for (int t = 0; t < trials; t++) {
        CASE("N %u pattern %d %s", N, t, k_model[model]);
        for (uint32_t I = 0; I < P; I++) {
          switch (t) {
            case 0: in[I] = I; break;                              /* sorted */
            case 1: in[I] = (int64_t)P - I; break;                 /* reversed */
            case 2: in[I] = 42; break;                             /* all equal */
            case 3: in[I] = (int64_t)pinet_rng_below(&rng, 3) - 1; break; /* many duplicates */
            case 4: in[I] = (I % 7) * (I % 2 ? -1 : 1); break;
            default: in[I] = (int64_t)pinet_rng_next(&rng); break;  /* full 64-bit range */
          }
        }
        check_sort(m, N, model, in, t == trials - 1);
      }
      pinet_otis_free(m);
    }
    free(in);
  }
}

/* The sort is a fixed network of compare-exchanges and permutations (oblivious), so by the 0-1
 * principle it sorts everything if it sorts every 0-1 input: many random 0-1 inputs, with every
 * number of ones, on the two smaller machines. */
static void test_otis_sort_zero_one_inputs(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "sort 0-1", 0x01);
  for (uint32_t N = 4; N <= 16; N *= 4) {
    uint32_t P = N * N;
    int64_t *in = xmalloc(P * sizeof *in);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      int trials = N == 4 ? 600 : 120;
      for (int t = 0; t < trials; t++) {
        uint32_t ones = (uint32_t)(t % (P + 1));
        CASE("N %u trial %d ones %u %s", N, t, ones, k_model[model]);
        for (uint32_t I = 0; I < P; I++) in[I] = 0;
        for (uint32_t placed = 0; placed < ones;) { /* a random set of `ones` positions */
          uint32_t I = (uint32_t)pinet_rng_below(&rng, P);
          if (!in[I]) {
            in[I] = 1;
            placed++;
          }
        }
        check_sort(m, N, model, in, 0);
      }
      pinet_otis_free(m);
    }
    free(in);
  }
}

/* ---- random access read / write -------------------------------------------------------------- */

/* Random data, then addresses (-1 = no access) by pattern. */
static void fill_access(pinet_rng *rng, uint32_t P, int pattern, int64_t *data, int64_t *addr) {
  for (uint32_t I = 0; I < P; I++) data[I] = (int64_t)pinet_rng_next(rng);
  for (uint32_t I = 0; I < P; I++) {
    switch (pattern) {
      case 0: addr[I] = (int64_t)pinet_rng_below(rng, P); break;               /* random */
      case 1: addr[I] = (int64_t)pinet_rng_below(rng, 3); break;               /* hot spots */
      case 2: addr[I] = pinet_rng_below(rng, 4) ? -1 : (int64_t)pinet_rng_below(rng, P); break;
      case 3: addr[I] = (int64_t)(P - 1 - I); break;                           /* a permutation */
      case 4: addr[I] = -1; break;                                             /* nobody */
      default: addr[I] = 7 % P; break;                                         /* everyone, one cell */
    }
  }
}

/* Prints the counts of the last operation beside the paper's leading term, coef (sqrt N - 1). */
static void report_counts(const char *op, pinet_otis *m, uint32_t N, int model, int64_t coef) {
  pinet_otis_counts c;
  pinet_otis_get_counts(m, &c);
  int64_t n = side_of(N);
  printf("  %s N=%u %s: %" PRIu64 " electronic + %" PRIu64 " OTIS; paper: %" PRId64
         " electronic (leading term)\n",
         op, N, k_model[model], c.electronic, c.otis, coef * (n - 1));
}

static void test_otis_rar_patterns(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "rar", 0x4a);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], P = N * N;
    int64_t *data = xmalloc(P * sizeof *data), *addr = xmalloc(P * sizeof *addr);
    int64_t *out = xmalloc(P * sizeof *out);
    uint8_t *has = xmalloc(P);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int pat = 0; pat < (N == 64 ? 1 : 6); pat++) {
        CASE("N %u pattern %d %s", N, pat, k_model[model]);
        fill_access(&rng, P, pat, data, addr);
        CHECK_EQ(pinet_otis_rar(m, data, addr, out, has), PINET_OK);
        for (uint32_t I = 0; I < P; I++) {
          CHECK_EQ(has[I], addr[I] >= 0);
          if (addr[I] >= 0) CHECK_EQ(out[I], data[addr[I]]);
        }
        if (pat == 0) report_counts("rar", m, N, model, model == 0 ? 79 : 45);
      }
      addr[0] = (int64_t)P;
      CHECK_EQ(pinet_otis_rar(m, data, addr, out, has), PINET_ERR_RANGE);
      addr[0] = -2;
      CHECK_EQ(pinet_otis_rar(m, data, addr, out, has), PINET_ERR_RANGE);
      pinet_otis_free(m);
    }
    free(data);
    free(addr);
    free(out);
    free(has);
  }
}

static void test_otis_raw_priority_and_arbitrary(void **state) {
  (void)state;
  pinet_rng rng;
  start_seed(&rng, "raw", 0x3a);
  for (size_t k = 0; k < 3; k++) {
    uint32_t N = k_sizes[k], P = N * N;
    int64_t *data = xmalloc(P * sizeof *data), *addr = xmalloc(P * sizeof *addr);
    int64_t *out = xmalloc(P * sizeof *out);
    uint8_t *has = xmalloc(P);
    int64_t *first = xmalloc(P * sizeof *first);
    for (int model = 0; model < 2; model++) {
      pinet_otis *m = machine(N, (pinet_otis_model)model);
      for (int rule = 0; rule < 2; rule++) {
        for (int pat = 0; pat < (N == 64 ? 1 : 6); pat++) {
          CASE("N %u pattern %d rule %d %s", N, pat, rule, k_model[model]);
          fill_access(&rng, P, pat, data, addr);
          CHECK_EQ(pinet_otis_raw(m, data, addr, (pinet_otis_write_rule)rule, out, has), PINET_OK);
          for (uint32_t J = 0; J < P; J++) first[J] = -1;
          for (uint32_t I = P; I-- > 0;) {
            if (addr[I] >= 0) first[addr[I]] = I; /* ends with the smallest writer */
          }
          for (uint32_t J = 0; J < P; J++) {
            CHECK_EQ(has[J], first[J] >= 0);
            if (first[J] < 0) continue;
            if (rule == PINET_OTIS_WRITE_PRIORITY) {
              CHECK_EQ(out[J], data[first[J]]);
            } else { /* arbitrary: the value of some writer of J */
              int found = 0;
              for (uint32_t I = 0; I < P && !found; I++) found = addr[I] == J && data[I] == out[J];
              CHECK(found);
            }
          }
          if (pat == 0 && rule == 0) report_counts("raw", m, N, model, model == 0 ? 43 : 26);
        }
      }
      addr[1] = (int64_t)P + 5;
      CHECK_EQ(pinet_otis_raw(m, data, addr, PINET_OTIS_WRITE_PRIORITY, out, has), PINET_ERR_RANGE);
      addr[1] = 0;
      CHECK_EQ(pinet_otis_raw(m, data, addr, (pinet_otis_write_rule)5, out, has), PINET_ERR_RANGE);
      pinet_otis_free(m);
    }
    free(data);
    free(addr);
    free(out);
    free(has);
    free(first);
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_otis_sort_random_and_patterns),
      cmocka_unit_test(test_otis_sort_zero_one_inputs),
      cmocka_unit_test(test_otis_rar_patterns),
      cmocka_unit_test(test_otis_raw_priority_and_arbitrary),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
