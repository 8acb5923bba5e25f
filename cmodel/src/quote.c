/* quote.c - the one quoted form of user text in messages (pinet/quote.h). */
#include "pinet/quote.h"

#include <string.h>

#include "error_private.h"

/* The escape of byte c into out (at most 4 characters and a NUL); returns its length. */
static size_t escape_byte(unsigned char c, char out[5]) {
  static const char hex[] = "0123456789abcdef";
  switch (c) {
    case '\\': memcpy(out, "\\\\", 3); return 2;
    case '\'': memcpy(out, "\\'", 3); return 2;
    case '\t': memcpy(out, "\\t", 3); return 2;
    case '\n': memcpy(out, "\\n", 3); return 2;
    case '\r': memcpy(out, "\\r", 3); return 2;
    default: break;
  }
  if (c >= 0x20 && c < 0x7f) {
    out[0] = (char)c;
    out[1] = '\0';
    return 1;
  }
  out[0] = '\\';
  out[1] = 'x';
  out[2] = hex[c >> 4];
  out[3] = hex[c & 0xf];
  out[4] = '\0';
  return 4;
}

pinet_status pinet_quote_mem(const void *data, size_t len, char *buf, size_t size) {
  RETURN_ERROR_IF(buf == NULL || (data == NULL && len > 0), PINET_ERR_NULL);
  if (size > 0) buf[0] = '\0';
  RETURN_ERROR_IF(size == 0, PINET_ERR_SIZE);
  const unsigned char *in = data;
  const size_t n = len > PINET_QUOTE_MAX_INPUT ? PINET_QUOTE_MAX_INPUT : len;
  size_t used = 0;
  for (size_t i = 0; i <= n; i++) {
    char piece[5];
    size_t plen;
    if (i < n) {
      plen = escape_byte(in[i], piece);
    } else if (len > n) {
      memcpy(piece, "...", 4);
      plen = 3;
    } else {
      break;
    }
    RETURN_ERROR_IF(used + plen >= size, PINET_ERR_SIZE);
    memcpy(buf + used, piece, plen + 1);
    used += plen;
  }
  return PINET_OK;
}

pinet_status pinet_quote(const char *text, char *buf, size_t size) {
  RETURN_ERROR_IF(text == NULL, PINET_ERR_NULL);
  return pinet_quote_mem(text, strlen(text), buf, size);
}
