/* cli_shuffle.c - `pinet shuffle run|ring|draw`: the static perfect-shuffle network.
 * The contract (options, JSON fields, input file format, exit codes) is documented in
 * docs/shuffle.md, section "CLI". */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"
#include "pinet/rng.h"
#include "pinet/shuffle.h"

extern char **environ;

int pinet_cli_shuffle(int argc, char **argv);

const char pinet_cli_shuffle_summary[] =
    "static perfect-shuffle network: data-sharing schedules, ring, DOT drawing";

/* The CLI simulates N memories of M words with N * M at most this many words (2^26; --help and
 * docs/shuffle.md). */
#define CLI_MAX_TOTAL_WORDS (1u << 26)

static const char *const k_run_ops[] = {"bcast",  "bcast-host", "scatter", "integrate",
                                        "allgather", "gather", "upload", NULL};
static const pinet_shuffle_op k_run_op_values[] = {
    PINET_SHUFFLE_OP_BCAST,     PINET_SHUFFLE_OP_BCAST_HOST, PINET_SHUFFLE_OP_SCATTER,
    PINET_SHUFFLE_OP_INTEGRATE, PINET_SHUFFLE_OP_ALLGATHER,  PINET_SHUFFLE_OP_GATHER,
    PINET_SHUFFLE_OP_UPLOAD};
static const char *const k_types[] = {"i32", "f32", "f64", NULL};
/* --schedule: the index is the pinet_shuffle_kind, 0 = PINET_SHUFFLE_PAPER (pinet_shuffle_build),
 * 1 = PINET_SHUFFLE_FAST (pinet_shuffle_build_fast_typed for --type) */
static const char *const k_schedules[] = {"paper", "fast", NULL};

static void print_area_help(FILE *out) {
  fprintf(out,
          "usage: pinet shuffle <command> [options]\n\n"
          "commands:\n"
          "  run    run a data-sharing schedule on N simulated PE memories\n"
          "  ring   the embedded Hamiltonian ring (or check one with --check FILE)\n"
          "  draw   write the network as Graphviz DOT (and SVG when `dot` is installed; above\n"
          "         N = 64 the PEs are pinned on a circle, rendered without layout)\n\n"
          "pinet shuffle <command> --help for the options of each.\n");
}

/* ---- input file: rows of values -------------------------------------------------------------- */

typedef struct {
  size_t len;  /* values on the line */
  size_t line; /* its 1-based line number */
} row_t;

typedef struct {
  double f;   /* the value as double (f32/f64) */
  uint32_t i; /* the value as 32 bits (i32) */
} value_t;

typedef struct {
  size_t rows;
  row_t *row;   /* one per non-blank line */
  size_t count;
  value_t *val; /* every value */
} rows_t;

static void rows_free(rows_t *r) {
  free(r->row);
  free(r->val);
  memset(r, 0, sizeof *r);
}

/* `buf` (*cap elements of `size` bytes) with room for element `used`: doubled if full. NULL when
 * out of memory (buf is still valid then). */
static void *reserve(void *buf, size_t used, size_t *cap, size_t size) {
  if (used < *cap) {
    return buf;
  }
  void *grown = realloc(buf, 2 * *cap * size);
  if (grown != NULL) {
    *cap *= 2;
  }
  return grown;
}

static char *slurp(const char *path, size_t *len) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (f == NULL) {
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap + 1);
  while (buf != NULL) {
    if (n == cap) {
      char *g = realloc(buf, 2 * cap + 1);
      if (g == NULL) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = g;
      cap *= 2;
    }
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (got == 0) {
      break;
    }
  }
  int bad = ferror(f);
  if (f != stdin) {
    fclose(f);
  }
  if (buf == NULL || bad) {
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* Parse `path` into rows; one line per row, blank lines skipped. Returns an exit code after
 * printing the error. */
static int read_rows(const char *ctx, const char *path, pinet_shuffle_elem elem, rows_t *r) {
  memset(r, 0, sizeof *r);
  int rc = pinet_cli_input_path(ctx, path);
  if (rc != PINET_EXIT_OK) {
    return rc;
  }
  size_t len = 0;
  char *text = slurp(path, &len);
  if (text == NULL) {
    return pinet_cli_fail(ctx, PINET_ERR_IO, "cannot read '%s': %s", PINET_CLI_Q(path),
                          errno ? strerror(errno) : "read error");
  }
  if (strlen(text) != len) {
    free(text);
    return pinet_cli_fail(ctx, PINET_ERR_PARSE, "%s: contains a NUL byte", PINET_CLI_Q(path));
  }
  size_t cap_rows = 16, cap_vals = 256;
  r->row = malloc(cap_rows * sizeof *r->row);
  r->val = malloc(cap_vals * sizeof *r->val);
  if (!r->row || !r->val) {
    rc = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "%s", PINET_CLI_Q(path));
  }
  size_t line = 1;
  char *p = text;
  while (rc == PINET_EXIT_OK && *p != '\0') {
    char *eol = strchr(p, '\n');
    char *next = eol ? eol + 1 : p + strlen(p);
    if (eol) {
      *eol = '\0';
    }
    size_t in_row = 0;
    char *tok = p;
    while (rc == PINET_EXIT_OK) {
      while (*tok == ' ' || *tok == '\t' || *tok == '\r' || *tok == '\v' || *tok == '\f') {
        tok++;
      }
      if (*tok == '\0') {
        break;
      }
      char *end = tok;
      while (*end != '\0' && *end != ' ' && *end != '\t' && *end != '\r' && *end != '\v' &&
             *end != '\f') {
        end++;
      }
      char save = *end;
      *end = '\0';
      char *stop = NULL;
      double fv = 0.0;
      uint32_t iv = 0;
      errno = 0;
      if (elem == PINET_SHUFFLE_I32) {
        long long v = strtoll(tok, &stop, 10);
        if (*stop != '\0' || stop == tok) {
          rc = pinet_cli_fail(ctx, PINET_ERR_PARSE, "%s line %zu: '%s' is not an integer",
                              PINET_CLI_Q(path), line, PINET_CLI_Q(tok));
        } else if (errno == ERANGE || v < INT32_MIN || v > (long long)UINT32_MAX) {
          rc = pinet_cli_fail(ctx, PINET_ERR_PARSE, "%s line %zu: %s is outside 32 bits",
                              PINET_CLI_Q(path), line, PINET_CLI_Q(tok));
        }
        iv = (uint32_t)(int64_t)v;
        fv = (double)(int32_t)iv;
      } else {
        fv = strtod(tok, &stop);
        if (*stop != '\0' || stop == tok || !isfinite(fv)) {
          rc = pinet_cli_fail(ctx, PINET_ERR_PARSE, "%s line %zu: '%s' is not a finite number",
                              PINET_CLI_Q(path), line, PINET_CLI_Q(tok));
        }
      }
      *end = save;
      tok = end;
      if (rc != PINET_EXIT_OK) {
        break;
      }
      value_t *val = reserve(r->val, r->count, &cap_vals, sizeof *val);
      if (val == NULL) {
        rc = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "%s", PINET_CLI_Q(path));
        break;
      }
      r->val = val;
      r->val[r->count++] = (value_t){fv, iv};
      in_row++;
    }
    if (rc == PINET_EXIT_OK && in_row > 0) {
      row_t *row = reserve(r->row, r->rows, &cap_rows, sizeof *row);
      if (row == NULL) {
        rc = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "%s", PINET_CLI_Q(path));
        break;
      }
      r->row = row;
      r->row[r->rows++] = (row_t){in_row, line};
    }
    line++;
    p = next;
  }
  free(text);
  if (rc != PINET_EXIT_OK) {
    rows_free(r);
  }
  return rc;
}

/* --pes N: a power of two in [2^min_log, PINET_SHUFFLE_MAX_PES]; *log2n receives log2 N. */
static int check_pes(const char *ctx, uint32_t pes, uint32_t min_log, uint32_t *log2n) {
  if (pinet_shuffle_log2(pes, log2n) != PINET_OK || *log2n < min_log) {
    return pinet_cli_fail(ctx, PINET_ERR_SIZE, "--pes %" PRIu32 " is not a power of two in [%u, %u]",
                          pes, 1u << min_log, PINET_SHUFFLE_MAX_PES);
  }
  return PINET_EXIT_OK;
}

/* ---- run ------------------------------------------------------------------------------------- */

/* Rows and values per row the input file of `op` must have; *host = 1 if the single row is the
 * host's data (else PE 0's, for bcast). */
static void input_shape(pinet_shuffle_op op, uint32_t pes, uint32_t words, size_t *rows,
                        size_t *cols) {
  switch (op) {
    case PINET_SHUFFLE_OP_INTEGRATE: *rows = pes; *cols = words; break;
    case PINET_SHUFFLE_OP_ALLGATHER:
    case PINET_SHUFFLE_OP_GATHER:
    case PINET_SHUFFLE_OP_UPLOAD: *rows = pes; *cols = words / pes; break;
    default: *rows = 1; *cols = words; break;
  }
}

static void store(pinet_shuffle_elem elem, void *mem, size_t at, const rows_t *r, size_t k) {
  switch (elem) {
    case PINET_SHUFFLE_I32: ((uint32_t *)mem)[at] = r->val[k].i; break;
    case PINET_SHUFFLE_F32: ((float *)mem)[at] = (float)r->val[k].f; break;
    default: ((double *)mem)[at] = r->val[k].f; break;
  }
}

static void json_elem(pinet_json *js, pinet_shuffle_elem elem, const void *mem, size_t at) {
  switch (elem) {
    case PINET_SHUFFLE_I32: pinet_json_i64(js, (int32_t)((const uint32_t *)mem)[at]); break;
    case PINET_SHUFFLE_F32: pinet_json_double(js, ((const float *)mem)[at]); break;
    default: pinet_json_double(js, ((const double *)mem)[at]); break;
  }
}

static void text_elem(FILE *out, pinet_shuffle_elem elem, const void *mem, size_t at) {
  switch (elem) {
    case PINET_SHUFFLE_I32: fprintf(out, " %" PRId32, (int32_t)((const uint32_t *)mem)[at]); break;
    case PINET_SHUFFLE_F32: fprintf(out, " %.9g", (double)((const float *)mem)[at]); break;
    default: fprintf(out, " %.17g", ((const double *)mem)[at]); break;
  }
}

static void json_memory(pinet_json *js, const pinet_shuffle_schedule *s, pinet_shuffle_elem elem,
                        const void *mem, int32_t pe) {
  uint32_t off = 0, w = 0;
  pinet_shuffle_schedule_output_region(s, pe, &off, &w);
  pinet_json_begin_array(js);
  for (uint32_t i = 0; i < w; i++) {
    json_elem(js, elem, mem, off + (size_t)i);
  }
  pinet_json_end_array(js);
}

/* [src, dst, words] of a transfer. */
static void json_route(pinet_json *js, const pinet_shuffle_transfer *t) {
  pinet_json_i64(js, t->src);
  pinet_json_i64(js, t->dst);
  pinet_json_u64(js, t->words);
}

/* [channel, src_offset, dst_offset, "add"|"copy"] of a transfer. */
static void json_placement(pinet_json *js, const pinet_shuffle_transfer *t) {
  pinet_json_u64(js, t->channel);
  pinet_json_u64(js, t->src_offset);
  pinet_json_u64(js, t->dst_offset);
  pinet_json_string(js, t->combine == PINET_SHUFFLE_ADD ? "add" : "copy");
}

/* The same with the start cycle appended: --schedule fast (the paper's output keeps its four). */
static void json_placement_start(pinet_json *js, const pinet_shuffle_transfer *t) {
  json_placement(js, t);
  pinet_json_u64(js, t->start);
}

/* The schedule's steps as an array of steps, each an array of transfers written by `put`. */
static void json_steps(pinet_json *js, const pinet_shuffle_schedule *s, uint32_t steps,
                       void (*put)(pinet_json *, const pinet_shuffle_transfer *)) {
  pinet_json_begin_array(js);
  for (uint32_t st = 0; st < steps; st++) {
    const pinet_shuffle_transfer *t = NULL;
    size_t nt = 0;
    pinet_shuffle_schedule_step(s, st, &t, &nt);
    pinet_json_begin_array(js);
    for (size_t i = 0; i < nt; i++) {
      pinet_json_begin_array(js);
      put(js, &t[i]);
      pinet_json_end_array(js);
    }
    pinet_json_end_array(js);
  }
  pinet_json_end_array(js);
}

/* ---- --summary: CRC-32 of each output region ---------------------------------------------------
 * CRC-32 of zlib / IEEE 802.3 (reflected polynomial 0xEDB88320, init and final xor 0xFFFFFFFF:
 * Python's zlib.crc32) over the words of a PE's output region in address order, each word as the
 * little-endian bytes of its type (i32: 4 bytes, two's complement; f32: 4, f64: 8, IEEE 754 bit
 * patterns), whatever the host's byte order. An empty region gives 0. */
typedef struct {
  uint32_t t[256];
} crc32_table;

static void crc32_table_init(crc32_table *tab) {
  for (uint32_t b = 0; b < 256u; b++) {
    uint32_t c = b;
    for (int k = 0; k < 8; k++) {
      c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    tab->t[b] = c;
  }
}

/* The CRC of region [off, off + w) of `mem`. */
static uint32_t crc32_region(const crc32_table *tab, pinet_shuffle_elem elem, const void *mem,
                             uint32_t off, uint32_t w) {
  const size_t esize = pinet_shuffle_elem_size(elem);
  uint32_t crc = 0xFFFFFFFFu;
  for (uint32_t i = 0; i < w; i++) {
    uint64_t bits = 0;
    if (esize == 8) {
      memcpy(&bits, (const unsigned char *)mem + (off + (size_t)i) * 8u, 8);
    } else {
      uint32_t b32 = 0;
      memcpy(&b32, (const unsigned char *)mem + (off + (size_t)i) * 4u, 4);
      bits = b32;
    }
    for (size_t k = 0; k < esize; k++) { /* least significant byte first */
      crc = (crc >> 8) ^ tab->t[(crc ^ (uint32_t)(bits >> (8u * k))) & 0xFFu];
    }
  }
  return crc ^ 0xFFFFFFFFu;
}

/* The checksum of PE pe's output region (PINET_SHUFFLE_HOST: the host's). */
static uint32_t region_crc32(const crc32_table *tab, const pinet_shuffle_schedule *s,
                             pinet_shuffle_elem elem, const void *mem, int32_t pe) {
  uint32_t off = 0, w = 0;
  pinet_shuffle_schedule_output_region(s, pe, &off, &w);
  return crc32_region(tab, elem, mem, off, w);
}

static void print_run_json(const pinet_shuffle_schedule *s, unsigned sched_index,
                           pinet_shuffle_elem elem, void *const *pe_mem, const void *host_mem,
                           const pinet_shuffle_cost_params *cp, const pinet_shuffle_report *rep,
                           const uint64_t *totals, uint64_t bound, int summary) {
  uint32_t N = pinet_shuffle_schedule_pes(s);
  pinet_shuffle_op op = pinet_shuffle_schedule_op(s);
  pinet_json js;
  pinet_json_begin_document(&js, stdout);
  pinet_json_key(&js, "op");
  pinet_json_string(&js, pinet_shuffle_op_name(op));
  pinet_json_key(&js, "pes");
  pinet_json_u64(&js, N);
  pinet_json_key(&js, "words");
  pinet_json_u64(&js, pinet_shuffle_schedule_words(s));
  pinet_json_key(&js, "type");
  pinet_json_string(&js, k_types[elem]);
  /* "schedule" already names the steps array below: the kind gets its own key */
  pinet_json_key(&js, "schedule_kind");
  pinet_json_string(&js, k_schedules[sched_index]);
  pinet_json_key(&js, "steps");
  pinet_json_u64(&js, rep->steps);
  pinet_json_key(&js, "pe_steps");
  pinet_json_u64(&js, rep->pe_steps);
  if (summary) { /* --summary: a checksum per memory instead of the schedule and the memories */
    crc32_table tab;
    crc32_table_init(&tab);
    pinet_json_key(&js, "memories_crc32");
    pinet_json_begin_array(&js);
    for (uint32_t i = 0; i < N; i++) {
      pinet_json_u64(&js, region_crc32(&tab, s, elem, pe_mem[i], (int32_t)i));
    }
    pinet_json_end_array(&js);
    if (op == PINET_SHUFFLE_OP_UPLOAD) {
      pinet_json_key(&js, "host_crc32");
      pinet_json_u64(&js, region_crc32(&tab, s, elem, host_mem, PINET_SHUFFLE_HOST));
    }
  } else {
    pinet_json_key(&js, "schedule");
    json_steps(&js, s, rep->steps, json_route);
    /* the same transfers with their channel, offset and combine */
    pinet_json_key(&js, "transfers");
    json_steps(&js, s, rep->steps, sched_index == 0 ? json_placement : json_placement_start);
    pinet_json_key(&js, "link_words");
    pinet_json_begin_array(&js);
    for (uint32_t c = 0; c < PINET_SHUFFLE_CHANNELS(N); c++) {
      if (totals[c] == 0) {
        continue;
      }
      int32_t a = 0, b = 0;
      pinet_shuffle_channel_ends(N, c, &a, &b);
      pinet_json_begin_array(&js);
      pinet_json_u64(&js, c);
      pinet_json_i64(&js, a);
      pinet_json_i64(&js, b);
      pinet_json_u64(&js, totals[c]);
      pinet_json_end_array(&js);
    }
    pinet_json_end_array(&js);
    pinet_json_key(&js, "memories");
    pinet_json_begin_array(&js);
    for (uint32_t i = 0; i < N; i++) {
      json_memory(&js, s, elem, pe_mem[i], (int32_t)i);
    }
    pinet_json_end_array(&js);
    if (op == PINET_SHUFFLE_OP_UPLOAD) {
      pinet_json_key(&js, "host");
      json_memory(&js, s, elem, host_mem, PINET_SHUFFLE_HOST);
    }
  }
  pinet_json_key(&js, "cycles");
  pinet_json_u64(&js, rep->cycles);
  pinet_json_key(&js, "bound");
  pinet_json_u64(&js, bound);
  pinet_json_key(&js, "ratio");
  pinet_json_double(&js, (double)rep->cycles / (double)bound);
  pinet_json_key(&js, "cost");
  pinet_json_begin_object(&js);
  pinet_json_key(&js, "c");
  pinet_json_double(&js, cp->c);
  pinet_json_key(&js, "a");
  pinet_json_double(&js, cp->a);
  pinet_json_key(&js, "b");
  pinet_json_double(&js, cp->b);
  pinet_json_key(&js, "total");
  pinet_json_double(&js, rep->cost);
  pinet_json_key(&js, "pe");
  pinet_json_double(&js, rep->cost_pe);
  pinet_json_key(&js, "link_time");
  pinet_json_u64(&js, rep->link_time);
  pinet_json_key(&js, "pe_link_time");
  pinet_json_u64(&js, rep->pe_link_time);
  pinet_json_key(&js, "sum_time");
  pinet_json_u64(&js, rep->sum_time);
  pinet_json_key(&js, "words_moved");
  pinet_json_u64(&js, rep->words_moved);
  pinet_json_key(&js, "words_summed");
  pinet_json_u64(&js, rep->words_summed);
  pinet_json_key(&js, "max_link_words");
  pinet_json_u64(&js, rep->max_channel_words);
  pinet_json_end_object(&js);
  pinet_json_key(&js, "bounds");
  pinet_json_begin_object(&js);
  pinet_json_key(&js, "hypercube");
  pinet_json_double(&js, rep->bound_hypercube);
  pinet_json_key(&js, "mesh");
  pinet_json_double(&js, rep->bound_mesh);
  pinet_json_end_object(&js);
  pinet_json_end_document(&js);
}

static void print_run_text(const pinet_shuffle_schedule *s, unsigned sched_index,
                           pinet_shuffle_elem elem, void *const *pe_mem, const void *host_mem,
                           const pinet_shuffle_report *rep, uint64_t bound, int summary) {
  uint32_t N = pinet_shuffle_schedule_pes(s);
  pinet_shuffle_op op = pinet_shuffle_schedule_op(s);
  printf("%s on %" PRIu32 " PEs, M = %" PRIu32 " words (%s%s): %" PRIu32 " steps (%" PRIu32
         " with PE-to-PE transfers), %" PRIu64 " cycles\n",
         pinet_shuffle_op_name(op), N, pinet_shuffle_schedule_words(s), k_types[elem],
         sched_index == 0 ? "" : ", fast schedule", rep->steps, rep->pe_steps, rep->cycles);
  for (uint32_t st = 0; !summary && st < rep->steps; st++) {
    const pinet_shuffle_transfer *t = NULL;
    size_t nt = 0;
    pinet_shuffle_schedule_step(s, st, &t, &nt);
    printf("step %" PRIu32 ":", st + 1);
    for (size_t i = 0; i < nt; i++) {
      char a[16], b[16];
      snprintf(a, sizeof a, t[i].src < 0 ? "host" : "%" PRId32, t[i].src);
      snprintf(b, sizeof b, t[i].dst < 0 ? "host" : "%" PRId32, t[i].dst);
      printf(" %s->%s[%" PRIu32 "+%" PRIu32 "%s]", a, b, t[i].dst_offset, t[i].words,
             t[i].combine == PINET_SHUFFLE_ADD ? ",add" : "");
      if (t[i].start != 0) { /* cut-through: the cycle offset in its step */
        printf("@%" PRIu32, t[i].start);
      }
    }
    printf("\n");
  }
  printf("cost: total %.6g (PE part %.6g); Table 1 bounds: hypercube %.6g, mesh %.6g\n", rep->cost,
         rep->cost_pe, rep->bound_hypercube, rep->bound_mesh);
  printf("bound: %" PRIu64 " cycles from link capacities (docs/shuffle.md section 12); "
         "cycles / bound = %.4f\n",
         bound, (double)rep->cycles / (double)bound);
  crc32_table tab; /* --summary's */
  crc32_table_init(&tab);
  for (int32_t i = (op == PINET_SHUFFLE_OP_UPLOAD ? -1 : 0); i < (int32_t)N; i++) {
    uint32_t off = 0, w = 0;
    pinet_shuffle_schedule_output_region(s, i, &off, &w);
    if (i < 0) {
      printf("host:");
    } else {
      printf("PE %" PRId32 ":", i);
    }
    const void *mem = i < 0 ? host_mem : pe_mem[i];
    if (summary) { /* the checksum instead of the words */
      printf(" crc32 0x%08" PRIx32, crc32_region(&tab, elem, mem, off, w));
    }
    for (uint32_t k = 0; !summary && k < w; k++) {
      text_elem(stdout, elem, mem, off + (size_t)k);
    }
    printf("\n");
  }
}

int pinet_cli_shuffle_run(int argc, char **argv, pinet_cli_shuffle_exec exec, void *exec_ctx) {
  const char *ctx = "shuffle run";
  pinet_cli_opt opts[] = {
      {"op", 1, "OP", "bcast|bcast-host|scatter|integrate|allgather|gather|upload", NULL, 0},
      {"pes", 1, "N", "number of PEs, a power of two in [2, 1024]", NULL, 0},
      {"words", 1, "M",
       "shared words (a multiple of N; of log2 N for paper bcast); N * M <= 2^26", NULL, 0},
      {"input", 1, "FILE", "input rows (see docs/shuffle.md; - = stdin)", NULL, 0},
      {"seed", 1, "S", "without --input: random values 0..999 from this seed (default 1)", NULL,
       0},
      {"type", 1, "T", "element type i32 (default, sums wrap mod 2^32) | f32 | f64", NULL, 0},
      {"schedule", 1, "S",
       "paper (default) | fast: bcast and bcast-host cut-through down spanning trees, at the "
       "link bound; scatter, upload and gather cut-through on a tree, allgather around the "
       "ring, near the bound; integrate around the ring for --type i32 (the default), the "
       "paper's schedule for f32 and f64 (its sum tree); docs/shuffle.md section 13",
       NULL, 0},
      {"c", 1, "X", "cost per step (link setup), >= 0, default 1", NULL, 0},
      {"a", 1, "X", "cost per word moved, >= 0, default 1", NULL, 0},
      {"b", 1, "X", "cost per word summed, >= 0, default 1", NULL, 0},
      {"json", 0, NULL, "machine-readable output", NULL, 0},
      {"summary", 0, NULL,
       "cycles, bound, ratio and per memory a CRC-32 (zlib's, as Python's zlib.crc32) of its "
       "output words, each little-endian of its type's size (i32, f32: 4 bytes, f64: 8), "
       "instead of the schedule and the memories (text and --json)",
       NULL, 0},
  };
  size_t nopt = sizeof opts / sizeof opts[0];
  int rc = pinet_cli_parse_or_help(ctx,
                                   "usage: pinet shuffle run --op OP --pes N --words M "
                                   "[--input FILE] [--type T] [--schedule S] [--json] "
                                   "[--summary]",
                                   opts, nopt, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  const char *v_op = NULL, *v_pes = NULL, *v_words = NULL;
  if ((rc = pinet_cli_require(ctx, opts, nopt, "op", &v_op)) != PINET_EXIT_OK ||
      (rc = pinet_cli_require(ctx, opts, nopt, "pes", &v_pes)) != PINET_EXIT_OK ||
      (rc = pinet_cli_require(ctx, opts, nopt, "words", &v_words)) != PINET_EXIT_OK) {
    return rc;
  }
  unsigned op_index = 0, type_index = 0, sched_index = 0;
  uint32_t pes = 0, words = 0;
  uint64_t seed = 1;
  pinet_shuffle_cost_params cp = pinet_shuffle_cost_unit();
  if ((rc = pinet_cli_parse_choice(ctx, "op", v_op, k_run_ops, &op_index)) != PINET_EXIT_OK ||
      (rc = pinet_cli_parse_u32(ctx, "pes", v_pes, &pes)) != PINET_EXIT_OK ||
      (rc = pinet_cli_parse_u32(ctx, "words", v_words, &words)) != PINET_EXIT_OK) {
    return rc;
  }
  if ((rc = pinet_cli_optional_choice(ctx, opts, nopt, "type", k_types, &type_index)) !=
          PINET_EXIT_OK ||
      (rc = pinet_cli_optional_choice(ctx, opts, nopt, "schedule", k_schedules, &sched_index)) !=
          PINET_EXIT_OK ||
      (rc = pinet_cli_optional_u64(ctx, opts, nopt, "seed", &seed)) != PINET_EXIT_OK ||
      (rc = pinet_cli_optional_double(ctx, opts, nopt, "c", &cp.c)) != PINET_EXIT_OK ||
      (rc = pinet_cli_optional_double(ctx, opts, nopt, "a", &cp.a)) != PINET_EXIT_OK ||
      (rc = pinet_cli_optional_double(ctx, opts, nopt, "b", &cp.b)) != PINET_EXIT_OK) {
    return rc;
  }
  const char *const cost_names[3] = {"c", "a", "b"};
  const double cost_values[3] = {cp.c, cp.a, cp.b};
  for (int k = 0; k < 3; k++) { /* finite already (pinet_cli_parse_double) */
    if (cost_values[k] < 0.0) {
      return pinet_cli_fail(ctx, PINET_ERR_RANGE, "--%s must be >= 0 (got %s)", cost_names[k],
                            PINET_CLI_Q(pinet_cli_find(opts, nopt, cost_names[k])->value));
    }
  }
  if (pinet_cli_find(opts, nopt, "input")->present && pinet_cli_find(opts, nopt, "seed")->present) {
    return pinet_cli_usage_error(ctx, "--input and --seed exclude each other");
  }
  pinet_shuffle_op op = k_run_op_values[op_index];
  pinet_shuffle_elem elem = (pinet_shuffle_elem)type_index;
  uint32_t n = 0;
  if ((rc = check_pes(ctx, pes, 1, &n)) != PINET_EXIT_OK) {
    return rc;
  }
  uint32_t quantum = 0;
  if (sched_index == 0) {
    pinet_shuffle_words_quantum(op, pes, &quantum);
  } else {
    pinet_shuffle_fast_words_quantum(op, pes, &quantum);
  }
  if (words == 0 || words % quantum != 0) {
    return pinet_cli_fail(ctx, PINET_ERR_MISMATCH,
                          "--words %" PRIu32 " is not a positive multiple of %" PRIu32
                          " (%s on %" PRIu32 " PEs needs M divisible by %s)",
                          words, quantum, k_run_ops[op_index], pes,
                          quantum == pes ? "N" : "log2 N");
  }
  if ((uint64_t)words * pes > CLI_MAX_TOTAL_WORDS) {
    return pinet_cli_fail(ctx, PINET_ERR_RANGE,
                          "N * M = %" PRIu32 " * %" PRIu32 " = %" PRIu64
                          " words is more than the CLI simulates (2^26 = %u)",
                          pes, words, (uint64_t)words * pes, CLI_MAX_TOTAL_WORDS);
  }
  pinet_shuffle_schedule *s = NULL;
  /* the fast integrate depends on the type: ring order for int32, the paper's tree for floats */
  pinet_status st =
      pinet_shuffle_build_kind_typed(&s, (pinet_shuffle_kind)sched_index, op, pes, words, elem);
  if (st != PINET_OK) {
    return pinet_cli_fail(ctx, st, "cannot build the %s schedule", k_run_ops[op_index]);
  }
  if (exec != NULL && pinet_shuffle_schedule_cut_through(s)) {
    /* another executor (pinet-mpi) runs a step as all reads then all writes: a cut-through
     * relay would forward words it has not received yet */
    pinet_shuffle_schedule_free(s);
    return pinet_cli_fail(ctx, PINET_ERR_ILLEGAL_STATE,
                          "--schedule fast: the %s schedule is cut-through, which only "
                          "pinet_shuffle_execute runs (use pinet shuffle run)",
                          k_run_ops[op_index]);
  }
  size_t rows = 0, cols = 0;
  input_shape(op, pes, words, &rows, &cols);
  rows_t in;
  memset(&in, 0, sizeof in);
  const pinet_cli_opt *o = pinet_cli_find(opts, nopt, "input");
  if (o->present) {
    rc = read_rows(ctx, o->value, elem, &in);
    if (rc == PINET_EXIT_OK && in.rows != rows) {
      rc = pinet_cli_fail(ctx, PINET_ERR_PARSE,
                          "%s: %s on %" PRIu32 " PEs needs %zu row%s of %zu values, found %zu rows",
                          PINET_CLI_Q(o->value), k_run_ops[op_index], pes, rows,
                          rows == 1 ? "" : "s", cols,
                          in.rows);
    }
    for (size_t r = 0; rc == PINET_EXIT_OK && r < in.rows; r++) {
      if (in.row[r].len != cols) {
        rc = pinet_cli_fail(ctx, PINET_ERR_PARSE, "%s line %zu: expected %zu values, found %zu",
                            PINET_CLI_Q(o->value), in.row[r].line, cols, in.row[r].len);
      }
    }
  } else { /* random values from the seed */
    in.rows = rows;
    in.count = rows * cols;
    in.val = malloc((in.count ? in.count : 1) * sizeof *in.val);
    if (in.val == NULL) {
      rc = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "input");
    } else {
      pinet_rng rng;
      pinet_rng_seed(&rng, seed);
      for (size_t k = 0; k < in.count; k++) {
        in.val[k].i = (uint32_t)pinet_rng_below(&rng, 1000);
        in.val[k].f = (double)in.val[k].i;
      }
    }
  }
  size_t esize = pinet_shuffle_elem_size(elem);
  void **pe_mem = NULL;
  void *host_mem = NULL;
  uint32_t host_words = pinet_shuffle_schedule_host_words(s);
  if (rc == PINET_EXIT_OK) {
    pe_mem = calloc(pes, sizeof *pe_mem);
    host_mem = calloc(host_words ? host_words : 1, esize);
    int ok = pe_mem != NULL && host_mem != NULL;
    for (uint32_t i = 0; ok && i < pes; i++) {
      pe_mem[i] = calloc(words, esize);
      ok = pe_mem[i] != NULL;
    }
    if (!ok) {
      rc = pinet_cli_fail(ctx, PINET_ERR_NOMEM, "memories");
    }
  }
  if (rc == PINET_EXIT_OK) { /* place the rows where the schedule wants its input */
    size_t k = 0;
    for (int32_t pe = -1; pe < (int32_t)pes; pe++) {
      uint32_t off = 0, w = 0;
      pinet_shuffle_schedule_input_region(s, pe, &off, &w);
      void *mem = pe < 0 ? host_mem : pe_mem[pe];
      for (uint32_t i = 0; i < w; i++) {
        store(elem, mem, off + (size_t)i, &in, k++);
      }
    }
    st = exec != NULL ? exec(exec_ctx, s, elem, pe_mem, host_mem)
                      : pinet_shuffle_execute(s, elem, pe_mem, host_mem);
    if (st != PINET_OK) {
      rc = pinet_cli_fail(ctx, st, "execution failed");
    }
  }
  if (rc == PINET_EXIT_OK) {
    pinet_shuffle_report rep;
    uint64_t bound = 0;
    uint64_t *totals = calloc(PINET_SHUFFLE_CHANNELS(pes), sizeof *totals);
    st = totals ? pinet_shuffle_report_compute(s, &cp, &rep) : PINET_ERR_NOMEM;
    if (st == PINET_OK) {
      st = pinet_shuffle_schedule_channel_words(s, totals);
    }
    if (st == PINET_OK) {
      st = sched_index == 0 ? pinet_shuffle_link_bound(op, pes, words, &bound)
                            : pinet_shuffle_link_bound_fast(op, pes, words, &bound);
    }
    const int summary = pinet_cli_find(opts, nopt, "summary")->present;
    if (st != PINET_OK) {
      rc = pinet_cli_fail(ctx, st, "report");
    } else if (pinet_cli_find(opts, nopt, "json")->present) {
      print_run_json(s, sched_index, elem, pe_mem, host_mem, &cp, &rep, totals, bound, summary);
    } else {
      print_run_text(s, sched_index, elem, pe_mem, host_mem, &rep, bound, summary);
    }
    free(totals);
  }
  if (pe_mem != NULL) {
    for (uint32_t i = 0; i < pes; i++) {
      free(pe_mem[i]);
    }
  }
  free(pe_mem);
  free(host_mem);
  rows_free(&in);
  pinet_shuffle_schedule_free(s);
  return rc;
}

/* ---- ring ------------------------------------------------------------------------------------ */

static int cmd_ring(int argc, char **argv) {
  const char *ctx = "shuffle ring";
  pinet_cli_opt opts[] = {
      {"pes", 1, "N", "number of PEs, a power of two in [4, 1024]", NULL, 0},
      {"check", 1, "FILE", "check the ring in FILE (PE numbers) instead of building one", NULL, 0},
      {"json", 0, NULL, "machine-readable output", NULL, 0},
  };
  size_t nopt = sizeof opts / sizeof opts[0];
  int rc = pinet_cli_parse_or_help(ctx, "usage: pinet shuffle ring --pes N [--check FILE] [--json]",
                                   opts, nopt, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  uint32_t pes = 0, n = 0;
  if ((rc = pinet_cli_required_u32(ctx, opts, nopt, "pes", &pes)) != PINET_EXIT_OK ||
      (rc = check_pes(ctx, pes, 2, &n)) != PINET_EXIT_OK) {
    return rc;
  }
  uint32_t *ring = NULL;
  size_t len = 0;
  int valid = 0;
  pinet_cli_opt *chk = pinet_cli_find(opts, nopt, "check");
  if (chk->present) {
    if ((rc = pinet_cli_input_path(ctx, chk->value)) != PINET_EXIT_OK) {
      return rc;
    }
    int64_t *vals = NULL;
    size_t bad_line = 0;
    pinet_status st = pinet_cli_read_i64_file(chk->value, &vals, &len, &bad_line);
    if (st == PINET_ERR_PARSE) {
      return pinet_cli_fail(ctx, st, "%s line %zu: not an integer", PINET_CLI_Q(chk->value),
                            bad_line);
    }
    if (st != PINET_OK) {
      return pinet_cli_fail(ctx, st, "cannot read '%s'", PINET_CLI_Q(chk->value));
    }
    ring = malloc((len ? len : 1) * sizeof *ring);
    if (ring == NULL) {
      free(vals);
      return pinet_cli_fail(ctx, PINET_ERR_NOMEM, "ring");
    }
    int in_range = 1;
    for (size_t i = 0; i < len; i++) {
      in_range = in_range && vals[i] >= 0 && vals[i] < (int64_t)pes;
      ring[i] = vals[i] >= 0 && vals[i] < (int64_t)pes ? (uint32_t)vals[i] : pes;
    }
    free(vals);
    st = pinet_shuffle_ring_check(pes, ring, len, &valid);
    valid = valid && in_range;
    if (st != PINET_OK) {
      free(ring);
      return pinet_cli_fail(ctx, st, "check");
    }
  } else {
    len = pes;
    ring = malloc(pes * sizeof *ring);
    pinet_status st = ring ? pinet_shuffle_ring(pes, ring) : PINET_ERR_NOMEM;
    if (st == PINET_OK) {
      st = pinet_shuffle_ring_check(pes, ring, len, &valid);
    }
    if (st != PINET_OK || !valid) {
      free(ring);
      return pinet_cli_fail(ctx, st != PINET_OK ? st : PINET_ERR_UNSUPPORTED, "ring construction");
    }
  }
  if (pinet_cli_find(opts, nopt, "json")->present) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "pes");
    pinet_json_u64(&js, pes);
    pinet_json_key(&js, "ring");
    pinet_json_begin_array(&js);
    for (size_t i = 0; i < len; i++) {
      pinet_json_u64(&js, ring[i]);
    }
    pinet_json_end_array(&js);
    pinet_json_key(&js, "valid");
    pinet_json_bool(&js, valid);
    pinet_json_end_document(&js);
  } else {
    for (size_t i = 0; i < len; i++) {
      printf("%s%" PRIu32, i ? " " : "", ring[i]);
    }
    printf("\n%s\n", valid ? "valid Hamiltonian ring" : "NOT a Hamiltonian ring");
  }
  free(ring);
  if (!valid) {
    fprintf(stderr, "pinet: %s: the ring is not a Hamiltonian cycle of the %" PRIu32
                    "-PE de Bruijn graph\n", ctx, pes);
    return PINET_EXIT_FAIL;
  }
  return PINET_EXIT_OK;
}

/* ---- draw ------------------------------------------------------------------------------------ */

/* Above this N Graphviz's circo layout takes seconds to minutes (5 s at 128, 43 s at 256): the
 * drawing pins the PEs on a circle itself and Graphviz only renders it (neato -n2). */
#define DRAW_MAX_CIRCO_PES 64u

static void write_dot(FILE *f, uint32_t pes, const uint32_t *ring) {
  const int pinned = pes > DRAW_MAX_CIRCO_PES;
  fprintf(f, "// static perfect-shuffle network, N = %" PRIu32 " (pinet shuffle draw)\n", pes);
  fprintf(f, "// edge label = link number l: PE floor(l/2) -> PE l mod N; links are bidirectional\n");
  fprintf(f, "digraph shuffle%" PRIu32 " {\n  layout=%s;\n  node [shape=circle];\n", pes,
          pinned ? "neato" : "circo");
  if (pinned) {
    /* PE i at angle 2 pi i / N, 40 points of circumference per PE; the host outside PE 0. */
    const double pi = 3.14159265358979323846, r = 40.0 * pes / (2.0 * pi);
    fprintf(f, "  // positions in points, pinned: render with neato -n2 (no layout)\n");
    fprintf(f, "  host [shape=box, pos=\"%.1f,0!\"];\n", r + 60.0);
    fprintf(f, "  host -> 0 [dir=both, style=bold, label=\"host\"];\n");
    for (uint32_t i = 0; i < pes; i++) {
      const double a = 2.0 * pi * i / pes;
      fprintf(f, "  %" PRIu32 " [pos=\"%.1f,%.1f!\"];\n", i, r * cos(a), r * sin(a));
    }
  } else {
    fprintf(f, "  host [shape=box];\n  host -> 0 [dir=both, style=bold, label=\"host\"];\n");
    for (uint32_t i = 0; i < pes; i++) {
      fprintf(f, "  %" PRIu32 ";\n", i);
    }
  }
  for (uint32_t l = 0; l < 2u * pes; l++) {
    uint32_t a = l / 2u, b = l % pes;
    int on_ring = 0;
    for (uint32_t r = 0; ring != NULL && r < pes; r++) {
      uint32_t x = ring[r], y = ring[(r + 1u) % pes];
      /* the ring exchange uses the forward link if x -> y is one, else y -> x */
      int fwd = (2u * x) % pes == y || (2u * x + 1u) % pes == y;
      uint32_t link = fwd ? ((2u * x) % pes == y ? 2u * x : 2u * x + 1u)
                          : ((2u * y) % pes == x ? 2u * y : 2u * y + 1u);
      on_ring = on_ring || link == l;
    }
    fprintf(f, "  %" PRIu32 " -> %" PRIu32 " [label=\"%" PRIu32 "\"%s];\n", a, b, l,
            on_ring ? ", color=red, penwidth=2" : "");
  }
  fprintf(f, "}\n");
}

/* The full path of `prog` on PATH, or 0. */
static int find_on_path(const char *prog, char *out, size_t cap) {
  const char *path = getenv("PATH");
  if (path == NULL) {
    return 0;
  }
  while (*path != '\0') {
    const char *colon = strchr(path, ':');
    size_t dlen = colon ? (size_t)(colon - path) : strlen(path);
    if (dlen > 0 && (size_t)snprintf(out, cap, "%.*s/%s", (int)dlen, path, prog) < cap &&
        access(out, X_OK) == 0) {
      return 1;
    }
    path += dlen + (colon ? 1 : 0);
  }
  return 0;
}

static int cmd_draw(int argc, char **argv) {
  const char *ctx = "shuffle draw";
  pinet_cli_opt opts[] = {
      {"pes", 1, "N", "number of PEs, a power of two in [2, 1024]", NULL, 0},
      {"out", 1, "PREFIX", "write PREFIX.dot (+ PREFIX.svg); '-' = DOT to stdout (default "
                           "shuffle-N)", NULL, 0},
      {"ring", 0, NULL, "highlight the embedded ring (N >= 4)", NULL, 0},
      {"json", 0, NULL, "machine-readable output (the files written)", NULL, 0},
  };
  size_t nopt = sizeof opts / sizeof opts[0];
  int rc = pinet_cli_parse_or_help(ctx, "usage: pinet shuffle draw --pes N [--out PREFIX] [--ring]",
                                   opts, nopt, argc, argv, 2);
  if (rc != PINET_CLI_CONTINUE) {
    return rc;
  }
  uint32_t pes = 0, n = 0;
  if ((rc = pinet_cli_required_u32(ctx, opts, nopt, "pes", &pes)) != PINET_EXIT_OK ||
      (rc = check_pes(ctx, pes, 1, &n)) != PINET_EXIT_OK) {
    return rc;
  }
  const pinet_cli_opt *out_opt = pinet_cli_find(opts, nopt, "out");
  if (out_opt->present && strcmp(out_opt->value, "-") == 0 &&
      pinet_cli_find(opts, nopt, "json")->present) {
    return pinet_cli_usage_error(ctx, "--json and --out - both write to stdout");
  }
  uint32_t *ring = NULL;
  if (pinet_cli_find(opts, nopt, "ring")->present) {
    if (n < 2) {
      return pinet_cli_fail(ctx, PINET_ERR_SIZE, "--ring needs N >= 4");
    }
    ring = malloc(pes * sizeof *ring);
    pinet_status st = ring ? pinet_shuffle_ring(pes, ring) : PINET_ERR_NOMEM;
    if (st != PINET_OK) {
      free(ring);
      return pinet_cli_fail(ctx, st, "ring");
    }
  }
  char prefix[4096];
  pinet_cli_opt *o = pinet_cli_find(opts, nopt, "out");
  snprintf(prefix, sizeof prefix, "%s", o->present ? o->value : "");
  if (!o->present) {
    snprintf(prefix, sizeof prefix, "shuffle-%" PRIu32, pes);
  }
  int json = pinet_cli_find(opts, nopt, "json")->present;
  if (strcmp(prefix, "-") == 0) {
    write_dot(stdout, pes, ring);
    free(ring);
    return PINET_EXIT_OK;
  }
  char dot_path[4200], svg_path[4200], dot_prog[4096];
  snprintf(dot_path, sizeof dot_path, "%s.dot", prefix);
  snprintf(svg_path, sizeof svg_path, "%s.svg", prefix);
  FILE *f = fopen(dot_path, "w");
  if (f == NULL) {
    free(ring);
    return pinet_cli_fail(ctx, PINET_ERR_IO, "cannot write '%s': %s", PINET_CLI_Q(dot_path),
                          strerror(errno));
  }
  write_dot(f, pes, ring);
  free(ring);
  if (fclose(f) != 0) {
    return pinet_cli_fail(ctx, PINET_ERR_IO, "cannot write '%s'", PINET_CLI_Q(dot_path));
  }
  int have_svg = 0;
  if (find_on_path("dot", dot_prog, sizeof dot_prog)) {
    char *circo_args[] = {dot_prog, "-Tsvg", dot_path, "-o", svg_path, NULL};
    char *pinned_args[] = {dot_prog, "-Kneato", "-n2", "-Tsvg", dot_path, "-o", svg_path, NULL};
    char **args = pes > DRAW_MAX_CIRCO_PES ? pinned_args : circo_args;
    pid_t pid;
    if (posix_spawn(&pid, dot_prog, NULL, NULL, args, environ) == 0) {
      int status = 0;
      if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        have_svg = 1;
      }
    }
    if (!have_svg) {
      fprintf(stderr, "pinet: %s: warning: dot failed, no SVG written\n", ctx);
    }
  }
  if (json) {
    pinet_json js;
    pinet_json_begin_document(&js, stdout);
    pinet_json_key(&js, "pes");
    pinet_json_u64(&js, pes);
    pinet_json_key(&js, "dot");
    pinet_json_string(&js, dot_path);
    pinet_json_key(&js, "svg");
    if (have_svg) {
      pinet_json_string(&js, svg_path);
    } else {
      pinet_json_null(&js);
    }
    pinet_json_end_document(&js);
  } else {
    printf("wrote %s%s%s\n", dot_path, have_svg ? " and " : "", have_svg ? svg_path : "");
  }
  return PINET_EXIT_OK;
}

int pinet_cli_shuffle(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    print_area_help(argc < 2 ? stderr : stdout);
    return argc < 2 ? PINET_EXIT_USAGE : PINET_EXIT_OK;
  }
  if (strcmp(argv[1], "run") == 0) {
    return pinet_cli_shuffle_run(argc, argv, NULL, NULL);
  }
  if (strcmp(argv[1], "ring") == 0) {
    return cmd_ring(argc, argv);
  }
  if (strcmp(argv[1], "draw") == 0) {
    return cmd_draw(argc, argv);
  }
  return pinet_cli_usage_error("shuffle", "unknown command '%s'", PINET_CLI_Q(argv[1]));
}
