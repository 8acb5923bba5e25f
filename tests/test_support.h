/* Shared helpers for the cmocka unit tests.
 *
 * Test allocations are checked like the library's: a test that cannot get memory stops at once
 * with a message instead of writing through NULL (abort() is noreturn, so the compiler also knows
 * a returned pointer is valid, which keeps -Wmaybe-uninitialized quiet under -O2 + sanitizers). */
#ifndef PINET_TEST_SUPPORT_H
#define PINET_TEST_SUPPORT_H

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

#endif
