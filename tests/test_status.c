/* test_status.c - the pinned status codes and the PRNG shared by tests and cosims. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "pinet/pinet.h"

/* Every pinned code has its own non-empty name and text; unknown values do not crash. */
static void test_status_names_distinct(void **state) {
  (void)state;
  for (int a = 0; a <= PINET_STATUS_MAX; a++) {
    const char *na = pinet_status_name((pinet_status)a);
    assert_true(strlen(pinet_status_str((pinet_status)a)) > 0);
    assert_string_not_equal(na, "unknown");
    for (int b = a + 1; b <= PINET_STATUS_MAX; b++) {
      assert_string_not_equal(na, pinet_status_name((pinet_status)b));
    }
  }
  assert_string_equal(pinet_status_str((pinet_status)(PINET_STATUS_MAX + 1)), "unknown status");
  assert_string_equal(pinet_status_name((pinet_status)-1), "unknown");
}

/* Values pinned by the CLI exit codes and the RTL error registers must not move. */
static void test_status_values_pinned(void **state) {
  (void)state;
  assert_int_equal(PINET_OK, 0);
  assert_int_equal(PINET_ERR_SIZE, 3);
  assert_int_equal(PINET_ERR_ILLEGAL_STATE, 5);
  assert_int_equal(PINET_ERR_ILLEGAL_MOVE, 10);
}

/* splitmix64 against the reference stream for seed 0 (Vigna's splitmix64.c output). */
static void test_status_rng_reference_stream(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, 0);
  assert_int_equal(pinet_rng_next(&rng), 0xe220a8397b1dcdafULL);
  assert_int_equal(pinet_rng_next(&rng), 0x6e789e6aa1b965f4ULL);
  assert_int_equal(pinet_rng_next(&rng), 0x06c45d188009454fULL);
}

/* pinet_rng_below stays in range and reaches every residue of a small bound. */
static void test_status_rng_below_covers_range(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, 12345);
  int seen[7] = {0};
  for (int i = 0; i < 7000; i++) {
    uint64_t v = pinet_rng_below(&rng, 7);
    assert_true(v < 7);
    seen[v]++;
  }
  for (int i = 0; i < 7; i++) {
    assert_in_range(seen[i], 800, 1200);
  }
  assert_int_equal(pinet_rng_below(&rng, 0), 0);
  double u = pinet_rng_unit(&rng);
  assert_true(u >= 0.0 && u < 1.0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_status_names_distinct),
      cmocka_unit_test(test_status_values_pinned),
      cmocka_unit_test(test_status_rng_reference_stream),
      cmocka_unit_test(test_status_rng_below_covers_range),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
