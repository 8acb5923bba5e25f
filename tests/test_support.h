/* Shared helpers for the cmocka unit tests.
 *
 * Test allocations are checked like the library's: a test that cannot get memory stops at once
 * with a message instead of writing through NULL (abort() is noreturn, so the compiler also knows
 * a returned pointer is valid, which keeps -Wmaybe-uninitialized quiet under -O2 + sanitizers). */
#ifndef PINET_TEST_SUPPORT_H
#define PINET_TEST_SUPPORT_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static inline void *test_alloc_or_abort(void *p, size_t bytes) {
  if (p == NULL) {
    fprintf(stderr, "test: out of memory allocating %zu bytes\n", bytes);
    abort();
  }
  return p;
}

/* Zero-filled, so that a test never reads indeterminate bytes by accident. */
static inline void *xmalloc(size_t bytes) {
  return test_alloc_or_abort(calloc(bytes ? bytes : 1, 1), bytes);
}

static inline void *xcalloc(size_t count, size_t size) {
  return test_alloc_or_abort(calloc(count ? count : 1, size ? size : 1), count * size);
}

static inline void *xrealloc(void *p, size_t bytes) {
  return test_alloc_or_abort(realloc(p, bytes ? bytes : 1), bytes);
}

/* `count` zero-filled memories of `words` elements of `esize` bytes each (PE memories). */
static inline void **mems_alloc(uint32_t count, size_t words, size_t esize) {
  void **m = xcalloc(count, sizeof *m);
  for (uint32_t i = 0; i < count; i++) {
    m[i] = xcalloc(words ? words : 1, esize);
  }
  return m;
}

static inline void mems_free(void **m, uint32_t count) {
  if (m == NULL) {
    return;
  }
  for (uint32_t i = 0; i < count; i++) {
    free(m[i]);
  }
  free(m);
}

/* The seed of a test with random cases: PINET_TEST_SEED when set, else `fallback`. Printed with
 * the test's name, so that a failure can be replayed. */
static inline uint64_t test_seed(const char *test, uint64_t fallback) {
  const char *env = getenv("PINET_TEST_SEED");
  uint64_t seed = (env != NULL && env[0] != '\0') ? strtoull(env, NULL, 0) : fallback;
  printf("%s: seed %" PRIu64 " (set PINET_TEST_SEED to change)\n", test, seed);
  fflush(stdout);
  return seed;
}

/* A check that names the seed and a formatted message when it fails (cmocka.h comes first). */
#define CHECK_SEED(seed, cond, ...)                                     \
  do {                                                                  \
    if (!(cond)) {                                                      \
      print_error("seed %" PRIu64 ": ", (seed));                        \
      print_error(__VA_ARGS__);                                         \
      print_error("\n");                                                \
      fail_msg("check failed: %s (%s:%d)", #cond, __FILE__, __LINE__); \
    }                                                                   \
  } while (0)

#endif
