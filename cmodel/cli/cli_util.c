/* cli_util.c - option parsing, error reporting, input files and JSON output for the CLI. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

int pinet_cli_exit_for(pinet_status st) {
  switch (st) {
    case PINET_OK: return PINET_EXIT_OK;
    case PINET_ERR_IO:
    case PINET_ERR_PARSE: return PINET_EXIT_IO;
    case PINET_ERR_NOMEM:
    case PINET_ERR_NULL: return PINET_EXIT_INTERNAL;
    default: return PINET_EXIT_INPUT;
  }
}

int pinet_cli_fail(const char *context, pinet_status st, const char *detail_fmt, ...) {
  fprintf(stderr, "pinet: %s: ", context);
  if (detail_fmt != NULL && detail_fmt[0] != '\0') {
    va_list ap;
    va_start(ap, detail_fmt);
    vfprintf(stderr, detail_fmt, ap);
    va_end(ap);
    fprintf(stderr, " (%s)\n", pinet_status_str(st));
  } else {
    fprintf(stderr, "%s\n", pinet_status_str(st));
  }
  return pinet_cli_exit_for(st);
}

int pinet_cli_usage_error(const char *context, const char *fmt, ...) {
  fprintf(stderr, "pinet: %s: ", context);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fprintf(stderr, " (try --help)\n");
  return PINET_EXIT_USAGE;
}

const char *pinet_cli_quote(const char *text, char buf[PINET_QUOTE_SIZE]) {
  if (pinet_quote(text != NULL ? text : "", buf, PINET_QUOTE_SIZE) != PINET_OK) {
    buf[0] = '\0'; /* not reached: the buffer holds any result */
  }
  return buf;
}

pinet_cli_opt *pinet_cli_find(pinet_cli_opt *opts, size_t n_opts, const char *name) {
  for (size_t i = 0; i < n_opts; i++) {
    if (strcmp(opts[i].name, name) == 0) {
      return &opts[i];
    }
  }
  return NULL;
}

int pinet_cli_parse(const char *context, pinet_cli_opt *opts, size_t n_opts, int argc, char **argv,
                    int first, int *help) {
  *help = 0;
  for (size_t i = 0; i < n_opts; i++) {
    opts[i].value = NULL;
    opts[i].present = 0;
  }
  for (int i = first; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
      *help = 1;
      continue;
    }
    if (strncmp(arg, "--", 2) != 0) {
      return pinet_cli_usage_error(context, "unexpected argument '%s'", PINET_CLI_Q(arg));
    }
    char name[64];
    const char *eq = strchr(arg + 2, '=');
    size_t len = eq ? (size_t)(eq - (arg + 2)) : strlen(arg + 2);
    if (len == 0 || len >= sizeof name) {
      return pinet_cli_usage_error(context, "malformed option '%s'", PINET_CLI_Q(arg));
    }
    memcpy(name, arg + 2, len);
    name[len] = '\0';
    pinet_cli_opt *opt = pinet_cli_find(opts, n_opts, name);
    if (opt == NULL) {
      return pinet_cli_usage_error(context, "unknown option '--%s'", PINET_CLI_Q(name));
    }
    if (opt->present) {
      return pinet_cli_usage_error(context, "option '--%s' given twice", PINET_CLI_Q(name));
    }
    opt->present = 1;
    if (opt->takes_value) {
      if (eq != NULL) {
        opt->value = eq + 1;
      } else if (i + 1 < argc) {
        opt->value = argv[++i];
      } else {
        return pinet_cli_usage_error(context, "option '--%s' needs a value", PINET_CLI_Q(name));
      }
    } else if (eq != NULL) {
      return pinet_cli_usage_error(context, "option '--%s' takes no value", PINET_CLI_Q(name));
    }
  }
  return PINET_EXIT_OK;
}

void pinet_cli_print_help(FILE *out, const char *usage, const pinet_cli_opt *opts, size_t n_opts) {
  fprintf(out, "%s\n", usage);
  if (n_opts > 0) {
    fprintf(out, "\noptions:\n");
  }
  for (size_t i = 0; i < n_opts; i++) {
    char left[64];
    snprintf(left, sizeof left, "--%s%s%s", opts[i].name, opts[i].takes_value ? " " : "",
             opts[i].takes_value ? (opts[i].metavar ? opts[i].metavar : "VALUE") : "");
    fprintf(out, "  %-24s %s\n", left, opts[i].help ? opts[i].help : "");
  }
  fprintf(out, "  %-24s %s\n", "--help", "show this help");
}

int pinet_cli_parse_or_help(const char *context, const char *usage, pinet_cli_opt *opts,
                            size_t n_opts, int argc, char **argv, int first) {
  int help = 0;
  int rc = pinet_cli_parse(context, opts, n_opts, argc, argv, first, &help);
  if (rc != PINET_EXIT_OK) {
    return rc;
  }
  if (help) {
    pinet_cli_print_help(stdout, usage, opts, n_opts);
    return PINET_EXIT_OK;
  }
  return PINET_CLI_CONTINUE;
}

int pinet_cli_require(const char *context, pinet_cli_opt *opts, size_t n_opts, const char *name,
                      const char **value) {
  pinet_cli_opt *opt = pinet_cli_find(opts, n_opts, name);
  if (opt == NULL || !opt->present || opt->value == NULL) {
    return pinet_cli_usage_error(context, "missing required option '--%s'", PINET_CLI_Q(name));
  }
  *value = opt->value;
  return PINET_EXIT_OK;
}

int pinet_cli_parse_i64(const char *context, const char *name, const char *text, int64_t *out) {
  char *end = NULL;
  errno = 0;
  long long v = strtoll(text, &end, 10);
  if (text[0] == '\0' || isspace((unsigned char)text[0]) || *end != '\0') {
    return pinet_cli_usage_error(context, "--%s: '%s' is not an integer", name, PINET_CLI_Q(text));
  }
  if (errno == ERANGE) {
    return pinet_cli_usage_error(context, "--%s: '%s' is out of range", name, PINET_CLI_Q(text));
  }
  *out = (int64_t)v;
  return PINET_EXIT_OK;
}

int pinet_cli_parse_u64(const char *context, const char *name, const char *text, uint64_t *out) {
  char *end = NULL;
  errno = 0;
  if (text[0] == '-' || text[0] == '\0' || isspace((unsigned char)text[0])) {
    return pinet_cli_usage_error(context, "--%s: '%s' is not a non-negative integer", name,
                                 PINET_CLI_Q(text));
  }
  unsigned long long v = strtoull(text, &end, 10);
  if (*end != '\0') {
    return pinet_cli_usage_error(context, "--%s: '%s' is not a non-negative integer", name,
                                 PINET_CLI_Q(text));
  }
  if (errno == ERANGE) {
    return pinet_cli_usage_error(context, "--%s: '%s' is out of range", name, PINET_CLI_Q(text));
  }
  *out = (uint64_t)v;
  return PINET_EXIT_OK;
}

int pinet_cli_parse_u32(const char *context, const char *name, const char *text, uint32_t *out) {
  uint64_t v = 0;
  int rc = pinet_cli_parse_u64(context, name, text, &v);
  if (rc != PINET_EXIT_OK) {
    return rc;
  }
  if (v > UINT32_MAX) {
    return pinet_cli_usage_error(context, "--%s: '%s' is out of range", name, PINET_CLI_Q(text));
  }
  *out = (uint32_t)v;
  return PINET_EXIT_OK;
}

int pinet_cli_parse_double(const char *context, const char *name, const char *text, double *out) {
  char *end = NULL;
  errno = 0;
  double v = strtod(text, &end);
  if (text[0] == '\0' || isspace((unsigned char)text[0]) || *end != '\0' || !isfinite(v)) {
    return pinet_cli_usage_error(context, "--%s: '%s' is not a finite number", name,
                                 PINET_CLI_Q(text));
  }
  *out = v;
  return PINET_EXIT_OK;
}

int pinet_cli_parse_choice(const char *context, const char *name, const char *text,
                           const char *const *choices, unsigned *index) {
  for (unsigned i = 0; choices[i] != NULL; i++) {
    if (strcmp(text, choices[i]) == 0) {
      *index = i;
      return PINET_EXIT_OK;
    }
  }
  char list[256] = "";
  for (unsigned i = 0; choices[i] != NULL; i++) {
    strncat(list, i ? "|" : "", sizeof list - strlen(list) - 1);
    strncat(list, choices[i], sizeof list - strlen(list) - 1);
  }
  return pinet_cli_usage_error(context, "--%s: '%s' is not one of %s", name, PINET_CLI_Q(text),
                               list);
}

/* The option `name` if it was given, else NULL. */
static const pinet_cli_opt *given(pinet_cli_opt *opts, size_t n_opts, const char *name) {
  const pinet_cli_opt *opt = pinet_cli_find(opts, n_opts, name);
  return opt != NULL && opt->present ? opt : NULL;
}

int pinet_cli_optional_u32(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, uint32_t *out) {
  const pinet_cli_opt *opt = given(opts, n_opts, name);
  return opt ? pinet_cli_parse_u32(context, name, opt->value, out) : PINET_EXIT_OK;
}

int pinet_cli_optional_u64(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, uint64_t *out) {
  const pinet_cli_opt *opt = given(opts, n_opts, name);
  return opt ? pinet_cli_parse_u64(context, name, opt->value, out) : PINET_EXIT_OK;
}

int pinet_cli_optional_i64(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, int64_t *out) {
  const pinet_cli_opt *opt = given(opts, n_opts, name);
  return opt ? pinet_cli_parse_i64(context, name, opt->value, out) : PINET_EXIT_OK;
}

int pinet_cli_optional_double(const char *context, pinet_cli_opt *opts, size_t n_opts,
                              const char *name, double *out) {
  const pinet_cli_opt *opt = given(opts, n_opts, name);
  return opt ? pinet_cli_parse_double(context, name, opt->value, out) : PINET_EXIT_OK;
}

int pinet_cli_optional_choice(const char *context, pinet_cli_opt *opts, size_t n_opts,
                              const char *name, const char *const *choices, unsigned *index) {
  const pinet_cli_opt *opt = given(opts, n_opts, name);
  return opt ? pinet_cli_parse_choice(context, name, opt->value, choices, index) : PINET_EXIT_OK;
}

int pinet_cli_required_u32(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, uint32_t *out) {
  const char *text = NULL;
  int rc = pinet_cli_require(context, opts, n_opts, name, &text);
  return rc != PINET_EXIT_OK ? rc : pinet_cli_parse_u32(context, name, text, out);
}

int pinet_cli_required_u64(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, uint64_t *out) {
  const char *text = NULL;
  int rc = pinet_cli_require(context, opts, n_opts, name, &text);
  return rc != PINET_EXIT_OK ? rc : pinet_cli_parse_u64(context, name, text, out);
}

int pinet_cli_required_i64(const char *context, pinet_cli_opt *opts, size_t n_opts,
                           const char *name, int64_t *out) {
  const char *text = NULL;
  int rc = pinet_cli_require(context, opts, n_opts, name, &text);
  return rc != PINET_EXIT_OK ? rc : pinet_cli_parse_i64(context, name, text, out);
}

int pinet_cli_input_path(const char *context, const char *path) {
  struct stat sb;
  if (strcmp(path, "-") != 0 && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode)) {
    return pinet_cli_fail(context, PINET_ERR_IO, "'%s' is a directory", PINET_CLI_Q(path));
  }
  return PINET_EXIT_OK;
}

static double monotonic_s(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0) return 0;
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void pinet_cli_progress_begin(pinet_cli_progress *p, const char *context) {
  const char *env = getenv("PINET_PROGRESS");
  p->context = context;
  p->start = monotonic_s();
  p->shown = 0;
  if (env != NULL && strcmp(env, "0") == 0) p->mode = 0;
  else if (env != NULL && strcmp(env, "1") == 0) p->mode = 2;
  else p->mode = isatty(STDERR_FILENO) ? 1 : 0;
}

void pinet_cli_progress_step(pinet_cli_progress *p, uint64_t done, uint64_t total,
                             const char *what) {
  if (p->mode == 0) return;
  const double now = monotonic_s();
  if (p->mode == 1 && (now - p->start < 1.0 || now - p->shown < 0.1)) return;
  fprintf(stderr, "\rpinet: %s: %" PRIu64 "/%" PRIu64 "%s%s\033[K", p->context, done, total,
          what != NULL ? " " : "", what != NULL ? what : "");
  fflush(stderr);
  p->shown = now > 0 ? now : 1e-9;
}

void pinet_cli_progress_end(pinet_cli_progress *p) {
  if (p->mode != 0 && p->shown > 0) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
  p->shown = 0;
}

/* MemAvailable of /proc/meminfo in bytes, or 0 where there is none (not Linux, or unreadable). */
static uint64_t memory_available(void) {
  FILE *f = fopen("/proc/meminfo", "r");
  if (f == NULL) return 0;
  char line[128];
  uint64_t kib = 0;
  while (fgets(line, sizeof line, f) != NULL) {
    if (sscanf(line, "MemAvailable: %" SCNu64 " kB", &kib) == 1) break;
  }
  fclose(f);
  return kib > UINT64_MAX / 1024 ? UINT64_MAX : kib * 1024;
}

int pinet_cli_memory_limit(const char *context, uint64_t *limit) {
  *limit = 0;
  const char *env = getenv("PINET_MAX_MEMORY");
  if (env == NULL || env[0] == '\0') {
    *limit = memory_available();
    return PINET_EXIT_OK;
  }
  char *end = NULL;
  errno = 0;
  unsigned long long v = isdigit((unsigned char)env[0]) ? strtoull(env, &end, 10) : 0;
  unsigned shift = 0;
  if (end != NULL && end != env && errno == 0) {
    switch (toupper((unsigned char)*end)) {
      case 'K': shift = 10; end++; break;
      case 'M': shift = 20; end++; break;
      case 'G': shift = 30; end++; break;
      case 'T': shift = 40; end++; break;
      default: break;
    }
  }
  if (end == NULL || end == env || *end != '\0' || errno != 0 || v == 0 ||
      v > (UINT64_MAX >> shift)) {
    return pinet_cli_usage_error(context, "PINET_MAX_MEMORY='%s' is not a size in bytes "
                                 "(a positive integer, optionally with K, M, G or T)",
                                 PINET_CLI_Q(env));
  }
  *limit = (uint64_t)v << shift;
  return PINET_EXIT_OK;
}

/* "12.3 GiB", "4.0 MiB", "2.5 KiB" or "100 bytes" into buf. */
static void format_bytes(char *buf, size_t len, double bytes) {
  static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB"};
  if (bytes < 1024) {
    snprintf(buf, len, "%.0f bytes", bytes);
    return;
  }
  unsigned u = 0;
  bytes /= 1024;
  while (bytes >= 1024 && u + 1 < sizeof units / sizeof units[0]) {
    bytes /= 1024;
    u++;
  }
  snprintf(buf, len, "%.1f %s", bytes, units[u]);
}

int pinet_cli_memory_check(const char *context, double bytes, const char *what_fmt, ...) {
  uint64_t limit = 0;
  int rc = pinet_cli_memory_limit(context, &limit);
  if (rc != PINET_EXIT_OK || limit == 0 || bytes <= (double)limit) return rc;
  const char *env = getenv("PINET_MAX_MEMORY");
  fprintf(stderr, "pinet: %s: ", context);
  va_list ap;
  va_start(ap, what_fmt);
  vfprintf(stderr, what_fmt, ap);
  va_end(ap);
  char need[32], have[32];
  format_bytes(need, sizeof need, bytes);
  format_bytes(have, sizeof have, (double)limit);
  fprintf(stderr, " needs about %s, more than the %s %s\n", need, have,
          env != NULL && env[0] != '\0' ? "of PINET_MAX_MEMORY"
                                        : "this machine has available (set PINET_MAX_MEMORY to "
                                          "change the limit)");
  return PINET_EXIT_INPUT;
}

pinet_status pinet_cli_read_i64_file(const char *path, int64_t **values, size_t *count,
                                     size_t *bad_line) {
  *values = NULL;
  *count = 0;
  *bad_line = 0;
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "r");
  if (f == NULL) {
    return PINET_ERR_IO;
  }
  size_t cap = 64, n = 0, line = 1;
  int64_t *buf = malloc(cap * sizeof *buf);
  pinet_status st = buf ? PINET_OK : PINET_ERR_NOMEM;
  char tok[64];
  size_t tlen = 0;
  int c;
  while (st == PINET_OK) {
    c = fgetc(f);
    if (c == EOF || isspace(c)) {
      if (tlen > 0) {
        tok[tlen] = '\0';
        char *end = NULL;
        errno = 0;
        long long v = strtoll(tok, &end, 10);
        if (*end != '\0' || errno == ERANGE) {
          st = PINET_ERR_PARSE;
          *bad_line = line;
          break;
        }
        if (n == cap) {
          int64_t *grown = realloc(buf, 2 * cap * sizeof *buf);
          if (grown == NULL) {
            st = PINET_ERR_NOMEM;
            break;
          }
          buf = grown;
          cap *= 2;
        }
        buf[n++] = (int64_t)v;
        tlen = 0;
      }
      if (c == '\n') {
        line++;
      }
      if (c == EOF) {
        break;
      }
    } else if (tlen + 1 < sizeof tok) {
      tok[tlen++] = (char)c;
    } else {
      st = PINET_ERR_PARSE; /* a token longer than any integer */
      *bad_line = line;
    }
  }
  if (st == PINET_OK && ferror(f)) {
    st = PINET_ERR_IO;
  }
  if (f != stdin) {
    fclose(f);
  }
  if (st != PINET_OK) {
    free(buf);
    return st;
  }
  *values = buf;
  *count = n;
  return PINET_OK;
}

/* ---- JSON ------------------------------------------------------------------------------------ */

void pinet_json_init(pinet_json *js, FILE *out) {
  memset(js, 0, sizeof *js);
  js->out = out;
}

static void json_value_prefix(pinet_json *js) {
  if (js->after_key) {
    js->after_key = 0;
    return;
  }
  if (js->depth > 0 && js->need_comma[js->depth]) {
    fputc(',', js->out);
  }
  if (js->depth > 0) {
    js->need_comma[js->depth] = 1;
  }
}

static void json_open(pinet_json *js, char c) {
  json_value_prefix(js);
  fputc(c, js->out);
  if (js->depth < 31) {
    js->depth++;
  }
  js->need_comma[js->depth] = 0;
}

static void json_close(pinet_json *js, char c) {
  fputc(c, js->out);
  if (js->depth > 0) {
    js->depth--;
  }
}

void pinet_json_begin_object(pinet_json *js) { json_open(js, '{'); }
void pinet_json_end_object(pinet_json *js) { json_close(js, '}'); }
void pinet_json_begin_array(pinet_json *js) { json_open(js, '['); }
void pinet_json_end_array(pinet_json *js) { json_close(js, ']'); }

static void json_write_string(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
      case '"': fputs("\\\"", out); break;
      case '\\': fputs("\\\\", out); break;
      case '\n': fputs("\\n", out); break;
      case '\t': fputs("\\t", out); break;
      case '\r': fputs("\\r", out); break;
      default:
        if (*p < 0x20) {
          fprintf(out, "\\u%04x", *p);
        } else {
          fputc(*p, out);
        }
    }
  }
  fputc('"', out);
}

void pinet_json_key(pinet_json *js, const char *key) {
  json_value_prefix(js);
  json_write_string(js->out, key);
  fputc(':', js->out);
  js->after_key = 1;
}

void pinet_json_string(pinet_json *js, const char *s) {
  json_value_prefix(js);
  json_write_string(js->out, s);
}

void pinet_json_i64(pinet_json *js, int64_t v) {
  json_value_prefix(js);
  fprintf(js->out, "%" PRId64, v);
}

void pinet_json_u64(pinet_json *js, uint64_t v) {
  json_value_prefix(js);
  fprintf(js->out, "%" PRIu64, v);
}

void pinet_json_double(pinet_json *js, double v) {
  json_value_prefix(js);
  if (isfinite(v)) {
    fprintf(js->out, "%.17g", v);
  } else {
    fputs("null", js->out);
  }
}

void pinet_json_bool(pinet_json *js, int v) {
  json_value_prefix(js);
  fputs(v ? "true" : "false", js->out);
}

void pinet_json_null(pinet_json *js) {
  json_value_prefix(js);
  fputs("null", js->out);
}

void pinet_json_finish(pinet_json *js) { fputc('\n', js->out); }

void pinet_json_begin_document(pinet_json *js, FILE *out) {
  pinet_json_init(js, out);
  pinet_json_begin_object(js);
}

void pinet_json_end_document(pinet_json *js) {
  pinet_json_end_object(js);
  pinet_json_finish(js);
}

/* ---- output files ---------------------------------------------------------------------------- */

int pinet_cli_files_parse(pinet_cli_files *fl, const char *context, const char *usage, int argc,
                          char **argv, int first) {
  pinet_cli_opt opts[] = {
      {"out", 1, "DIR", "directory for the CSV and SVG files (default: .)", NULL, 0},
      {"json", 0, NULL, "print {\"files\": [...]}", NULL, 0},
  };
  int rc = pinet_cli_parse_or_help(context, usage, opts, sizeof opts / sizeof opts[0], argc, argv,
                                   first);
  fl->dir = opts[0].present ? opts[0].value : ".";
  fl->json = opts[1].present;
  if (rc != PINET_CLI_CONTINUE) return rc;
  /* Refuse an unusable directory before the first file, so that --json never stops half-way
   * through its list. */
  struct stat sb;
  if (stat(fl->dir, &sb) != 0) {
    return pinet_cli_fail(context, PINET_ERR_IO, "--out '%s': cannot write: %s",
                          PINET_CLI_Q(fl->dir), strerror(errno));
  }
  if (!S_ISDIR(sb.st_mode)) {
    return pinet_cli_fail(context, PINET_ERR_IO, "--out '%s': cannot write: not a directory",
                          PINET_CLI_Q(fl->dir));
  }
  if (access(fl->dir, W_OK) != 0) {
    return pinet_cli_fail(context, PINET_ERR_IO, "--out '%s': cannot write: %s",
                          PINET_CLI_Q(fl->dir), strerror(errno));
  }
  return rc;
}

void pinet_cli_files_begin(pinet_cli_files *fl) {
  pinet_json_init(&fl->js, stdout);
  if (fl->json) {
    pinet_json_begin_object(&fl->js);
    pinet_json_key(&fl->js, "files");
    pinet_json_begin_array(&fl->js);
  }
}

void pinet_cli_files_add(pinet_cli_files *fl, const char *path) {
  if (fl->json) {
    pinet_json_string(&fl->js, path);
  } else {
    printf("wrote %s\n", path);
  }
}

void pinet_cli_files_end(pinet_cli_files *fl) {
  if (fl->json) {
    pinet_json_end_array(&fl->js);
    pinet_json_end_document(&fl->js);
  }
}

FILE *pinet_cli_files_open(const char *context, const char *path) {
  FILE *f = fopen(path, "w");
  if (f == NULL) {
    pinet_cli_fail(context, PINET_ERR_IO, "%s: cannot write: %s", PINET_CLI_Q(path),
                   strerror(errno));
  }
  return f;
}

int pinet_cli_files_close(pinet_cli_files *fl, const char *context, FILE *f, const char *path) {
  if (fclose(f) != 0) {
    return pinet_cli_fail(context, PINET_ERR_IO, "%s: cannot write", PINET_CLI_Q(path));
  }
  pinet_cli_files_add(fl, path);
  return PINET_EXIT_OK;
}

int pinet_cli_files_svg(pinet_cli_files *fl, const char *context, const char *path,
                        const pinet_plot *plot) {
  pinet_status st = pinet_image_plot_svg_write(plot, path);
  if (st != PINET_OK) {
    return pinet_cli_fail(context, st, "%s: cannot write", PINET_CLI_Q(path));
  }
  pinet_cli_files_add(fl, path);
  return PINET_EXIT_OK;
}
