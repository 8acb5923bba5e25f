/* test_quote.c - pinet_quote: the one quoted form of user text in messages (pinet/quote.h). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "pinet/quote.h"

/* The quoted form of `len` bytes at `data`, checked to be PINET_OK, into buf. */
static const char *quoted(const void *data, size_t len, char buf[PINET_QUOTE_SIZE]) {
  assert_int_equal(pinet_quote_mem(data, len, buf, PINET_QUOTE_SIZE), PINET_OK);
  return buf;
}

/* Printable ASCII other than \ and ' is kept byte for byte: plain messages do not change. */
static void test_quote_printable_unchanged(void **state) {
  (void)state;
  char buf[PINET_QUOTE_SIZE];
  for (int c = 0x20; c < 0x7f; c++) {
    if (c == '\\' || c == '\'') continue;
    const char in[2] = {(char)c, '\0'};
    assert_int_equal(pinet_quote(in, buf, sizeof buf), PINET_OK);
    assert_string_equal(buf, in);
  }
  assert_int_equal(pinet_quote("bad1.txt", buf, sizeof buf), PINET_OK);
  assert_string_equal(buf, "bad1.txt");
  assert_int_equal(pinet_quote("", buf, sizeof buf), PINET_OK);
  assert_string_equal(buf, "");
}

/* Each byte's escape, against a table written from the documented form. */
static void test_quote_every_byte(void **state) {
  (void)state;
  char buf[PINET_QUOTE_SIZE], want[8];
  for (int c = 0; c < 256; c++) {
    const unsigned char in = (unsigned char)c;
    switch (c) {
      case '\\': strcpy(want, "\\\\"); break;
      case '\'': strcpy(want, "\\'"); break;
      case '\t': strcpy(want, "\\t"); break;
      case '\n': strcpy(want, "\\n"); break;
      case '\r': strcpy(want, "\\r"); break;
      default:
        if (c >= 0x20 && c <= 0x7e) snprintf(want, sizeof want, "%c", c);
        else snprintf(want, sizeof want, "\\x%02x", (unsigned)c);
    }
    assert_string_equal(quoted(&in, 1, buf), want);
    /* the result is printable ASCII */
    for (const char *p = buf; *p; p++) assert_true(*p >= 0x20 && *p < 0x7f);
  }
}

/* The examples, a lone UTF-8 continuation byte and an overlong sequence (bytes, not
 * decoded characters), an embedded NUL. */
static void test_quote_examples(void **state) {
  (void)state;
  static const struct {
    const char *text;
    const char *want;
  } cases[] = {
      {"6\x1b[31m4", "6\\x1b[31m4"},
      {"8\x1b[2J", "8\\x1b[2J"},
      {"it's a\\b", "it\\'s a\\\\b"},
      {"\x80", "\\x80"},
      {"\xc0\xaf", "\\xc0\\xaf"},
      {"\xc3\xa9t\xc3\xa9", "\\xc3\\xa9t\\xc3\\xa9"},
  };
  char buf[PINET_QUOTE_SIZE];
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    assert_int_equal(pinet_quote(cases[i].text, buf, sizeof buf), PINET_OK);
    assert_string_equal(buf, cases[i].want);
  }
  assert_string_equal(quoted("a\0b", 3, buf), "a\\x00b");
  assert_string_equal(quoted("\t\n\r\x7f", 4, buf), "\\t\\n\\r\\x7f");
}

/* 64 bytes are kept whole; 65 are cut to 64 and "..."; the worst case fills PINET_QUOTE_SIZE. */
static void test_quote_cut_at_64(void **state) {
  (void)state;
  char in[200], buf[PINET_QUOTE_SIZE], want[100];
  memset(in, 'a', sizeof in);
  assert_string_equal(quoted(in, 64, buf), (memset(want, 'a', 64), want[64] = '\0', want));
  assert_string_equal(quoted(in, 65, buf), (memcpy(want + 64, "...", 4), want));
  assert_string_equal(quoted(in, 200, buf), want);
  memset(in, 0x1b, sizeof in);
  assert_string_equal(quoted(in, 200, buf) + 4 * 64, "...");
  assert_int_equal(strlen(buf), PINET_QUOTE_SIZE - 1);
}

/* NULL arguments and a small buffer are errors; the buffer then holds whole escapes only. */
static void test_quote_errors(void **state) {
  (void)state;
  char buf[PINET_QUOTE_SIZE];
  assert_int_equal(pinet_quote(NULL, buf, sizeof buf), PINET_ERR_NULL);
  assert_int_equal(pinet_quote("x", NULL, 10), PINET_ERR_NULL);
  assert_int_equal(pinet_quote_mem(NULL, 1, buf, sizeof buf), PINET_ERR_NULL);
  assert_int_equal(pinet_quote_mem(NULL, 0, buf, sizeof buf), PINET_OK);
  assert_string_equal(buf, "");
  assert_int_equal(pinet_quote("x", buf, 0), PINET_ERR_SIZE);
  assert_int_equal(pinet_quote("ab\x1b", buf, 5), PINET_ERR_SIZE);
  assert_string_equal(buf, "ab");
  assert_int_equal(pinet_quote("abcd", buf, 5), PINET_OK);
  assert_string_equal(buf, "abcd");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_quote_printable_unchanged),
      cmocka_unit_test(test_quote_every_byte),
      cmocka_unit_test(test_quote_examples),
      cmocka_unit_test(test_quote_cut_at_64),
      cmocka_unit_test(test_quote_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
