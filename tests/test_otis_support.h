/* Shared helpers for the OTIS-Mesh unit tests (test_otis.c, test_otis_route.c,
 * test_otis_sort.c). Include after <cmocka.h> and "test_support.h".
 *
 * Each test executable is one translation unit, so the seed and case below are that
 * executable's own: CHECK and CHECK_EQ name both in every failure. Set PINET_SEED to replay a
 * random case. */
#ifndef PINET_TEST_OTIS_SUPPORT_H
#define PINET_TEST_OTIS_SUPPORT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "pinet/otis.h"
#include "pinet/rng.h"

/* (unused: a file that never calls CASE still builds with -Werror.) */
#if defined(__GNUC__)
#define OTIS_TEST_MAYBE_UNUSED __attribute__((unused))
#else
#define OTIS_TEST_MAYBE_UNUSED
#endif

static uint64_t g_seed;                         /* the seed of the running test */
static char g_case[256] OTIS_TEST_MAYBE_UNUSED; /* the case it is checking, set with CASE */

static inline uint64_t base_seed(void) {
  const char *s = getenv("PINET_SEED");
  return s ? strtoull(s, NULL, 10) : 20240917ull;
}

/* Starts a random test: its seed is base_seed() ^ salt, printed as "<what>: seed <seed>", and
 * rng is seeded with it. */
static inline void start_seed(pinet_rng *rng, const char *what, uint64_t salt) {
  g_seed = base_seed() ^ salt;
  printf("%s: seed %" PRIu64 "\n", what, g_seed);
  pinet_rng_seed(rng, g_seed);
}

#define CASE(...) snprintf(g_case, sizeof g_case, __VA_ARGS__)
#define CHECK(cond)                                                                      \
  do {                                                                                   \
    if (!(cond)) {                                                                       \
      fail_msg("%s failed (seed %" PRIu64 ", case: %s)", #cond, g_seed, g_case);         \
    }                                                                                    \
  } while (0)
#define CHECK_EQ(a, b)                                                                   \
  do {                                                                                   \
    int64_t a_ = (int64_t)(a), b_ = (int64_t)(b);                                        \
    if (a_ != b_) {                                                                      \
      fail_msg("%s = %" PRId64 ", expected %s = %" PRId64 " (seed %" PRIu64 ", case: %s)", \
               #a, a_, #b, b_, g_seed, g_case);                                          \
    }                                                                                    \
  } while (0)

/* sqrt(N) for the machine sizes the tests use (4, 16, 64, 256). */
static inline uint32_t side_of(uint32_t N) {
  return N == 4 ? 2 : N == 16 ? 4 : N == 64 ? 8 : 16;
}

static const uint32_t k_sizes[] = {4, 16, 64};
static const char *const k_model[] = {"simd", "mimd"};

static inline pinet_otis *machine(uint32_t N, pinet_otis_model model) {
  pinet_otis *m = NULL;
  assert_int_equal(pinet_otis_create(N, model, &m), PINET_OK);
  assert_non_null(m);
  return m;
}

/* The electronic and OTIS move counts since the last reset (configure or the start of an
 * operation). */
static inline void counts(pinet_otis *m, int64_t *e, int64_t *o) {
  pinet_otis_counts c;
  pinet_otis_get_counts(m, &c);
  *e = (int64_t)c.electronic;
  *o = (int64_t)c.otis;
}

/* sel[I] = 1 for each of the P processors with probability density / 100. */
static inline void select_random(pinet_rng *rng, uint8_t *sel, uint32_t P, uint64_t density) {
  for (uint32_t I = 0; I < P; I++) sel[I] = pinet_rng_below(rng, 100) < density;
}

#endif
