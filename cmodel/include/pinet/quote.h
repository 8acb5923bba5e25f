/* pinet/quote.h - quoting text that a message repeats from its user.
 *
 * Every message that repeats something the user gave (a token of an input file, a file name, an
 * option value, a regular expression) prints it through pinet_quote, so that no byte of it can
 * reach the terminal as a control sequence. The form (docs/exit_codes.md, "Quoted values"), in
 * the spirit of git's quote_c_style:
 *   - printable ASCII (0x20..0x7e) as it is, except the backslash and the single quote, which are
 *     escaped: \\ and \' ;
 *   - tab, newline and carriage return as \t, \n, \r ;
 *   - every other byte below 0x20, 0x7f and every byte of 0x80 and above as \xHH (two lower-case
 *     hex digits): bytes, not decoded UTF-8, so the result is plain ASCII;
 *   - a value longer than PINET_QUOTE_MAX_INPUT bytes is cut after that many bytes and "..." is
 *     appended.
 * The result carries no surrounding quotes: a message writes them ('%s') where it always has, so
 * that a plain printable value prints exactly as it did before. No allocation, no global state.
 * The scripts use the same form: scripts/pinet_quote.py. */
#ifndef PINET_QUOTE_H
#define PINET_QUOTE_H

#include <stddef.h>

#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Input bytes quoted before a value is cut with "...". */
#define PINET_QUOTE_MAX_INPUT 64
/* A buffer of this many bytes holds any result: 4 bytes per input byte, "..." and the NUL. */
#define PINET_QUOTE_SIZE (4 * PINET_QUOTE_MAX_INPUT + 3 + 1)

/* Quote the `len` bytes at `data` (NUL bytes included) into `buf` of `size` bytes, NUL-terminated.
 * Returns PINET_OK; PINET_ERR_NULL if buf is NULL, or data is NULL with len > 0; PINET_ERR_SIZE if
 * the result does not fit (never with size >= PINET_QUOTE_SIZE): buf then holds the longest
 * prefix of whole escapes that fits (if size > 0). */
pinet_status pinet_quote_mem(const void *data, size_t len, char *buf, size_t size);

/* pinet_quote_mem of the NUL-terminated string `text`. PINET_ERR_NULL if text or buf is NULL. */
pinet_status pinet_quote(const char *text, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* PINET_QUOTE_H */
