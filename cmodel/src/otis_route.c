/* otis_route.c - movement inside groups (line phases, group routing) and the data-movement
 * operations built on it: concentrate, distribute, generalize (paper §2.10-2.12), and the shift
 * of every word to the next index used by RAR / RAW. */
#include <stdlib.h>
#include <string.h>

#include "otis_private.h"

/* ---- line phases ---------------------------------------------------------------------------- */

static uint32_t coord_of(const pinet_otis *m, otis_axis axis, uint32_t proc) {
  return axis == OTIS_AXIS_ROW ? otis_py(m, proc) : otis_px(m, proc);
}

static pinet_status park(pinet_otis *m, const otis_line_spec *sp, uint32_t proc,
                         const int64_t *word) {
  if (!otis_has(m, sp->r_out, proc)) {
    otis_put(m, sp->r_out, proc, word);
    return PINET_OK;
  }
  RETURN_ERROR_IF(sp->park == OTIS_PARK_EXCLUSIVE, PINET_ERR_ILLEGAL_MOVE);
  int64_t *res = otis_w(m, sp->r_out, proc);
  if (word[sp->key_field] > res[sp->key_field]) {
    otis_put(m, sp->r_out, proc, word);
  }
  return PINET_OK;
}

/* Does a resident word with a larger key stop the mover here? */
static int killed(pinet_otis *m, const otis_line_spec *sp, uint32_t proc, const int64_t *word) {
  if (sp->park != OTIS_PARK_MAXKEY || !otis_has(m, sp->r_out, proc)) {
    return 0;
  }
  return otis_w(m, sp->r_out, proc)[sp->key_field] > word[sp->key_field];
}

pinet_status otis_line_phase(pinet_otis *m, const otis_line_spec *sp) {
  const uint32_t w = m->width[sp->r_in];
  RETURN_ERROR_IF(m->width[sp->r_out] != w || m->width[sp->r_neg] != w + 2 ||
                      m->width[sp->r_pos] != w + 2,
                  PINET_ERR_MISMATCH);
  const pinet_otis_dir dneg = sp->axis == OTIS_AXIS_ROW ? PINET_OTIS_LEFT : PINET_OTIS_UP;
  const pinet_otis_dir dpos = sp->axis == OTIS_AXIS_ROW ? PINET_OTIS_RIGHT : PINET_OTIS_DOWN;
  const int32_t last = (int32_t)m->n - 1;
  int64_t buf[PINET_OTIS_MAX_WIDTH];
  /* Start: park the copy due here, split the rest into a negative and a positive mover. */
  for (uint32_t p = 0; p < m->procs; p++) {
    if (!otis_has(m, sp->r_in, p)) {
      continue;
    }
    const int64_t *word = otis_w(m, sp->r_in, p);
    int32_t lo = 0, hi = 0;
    int keep = sp->span(m, sp->ctx, p, word, &lo, &hi);
    if (lo < 0) lo = 0;
    if (hi > last) hi = last;
    if (keep && lo <= hi) {
      int32_t c = (int32_t)coord_of(m, sp->axis, p);
      memcpy(buf, word, w * sizeof *buf);
      buf[w] = lo;
      buf[w + 1] = hi;
      if (lo <= c && c <= hi) {
        FORWARD_IF_ERROR(park(m, sp, p, buf));
      }
      if (lo < c) {
        otis_put(m, sp->r_neg, p, buf);
      }
      if (hi > c) {
        otis_put(m, sp->r_pos, p, buf);
      }
    }
    otis_clear(m, sp->r_in, p);
  }
  /* Lockstep: every mover advances one link per step until its end of the interval. */
  size_t movers = 0;
  for (uint32_t p = 0; p < m->procs; p++) {
    movers += (size_t)otis_has(m, sp->r_neg, p) + (size_t)otis_has(m, sp->r_pos, p);
  }
  while (movers > 0) {
    FORWARD_IF_ERROR(otis_step_chains(m, dneg, sp->r_neg, dpos, sp->r_pos));
    movers = 0;
    for (uint32_t p = 0; p < m->procs; p++) {
      int32_t c = -1;
      if (otis_has(m, sp->r_neg, p)) {
        int64_t *word = otis_w(m, sp->r_neg, p);
        c = (int32_t)coord_of(m, sp->axis, p);
        if (sp->kill_neg && killed(m, sp, p, word)) {
          otis_clear(m, sp->r_neg, p);
        } else {
          if (word[w] <= c && c <= word[w + 1]) {
            FORWARD_IF_ERROR(park(m, sp, p, word));
          }
          if (c <= word[w]) {
            otis_clear(m, sp->r_neg, p);
          }
        }
      }
      if (otis_has(m, sp->r_pos, p)) {
        int64_t *word = otis_w(m, sp->r_pos, p);
        c = (int32_t)coord_of(m, sp->axis, p);
        if (sp->kill_pos && killed(m, sp, p, word)) {
          otis_clear(m, sp->r_pos, p);
        } else {
          if (word[w] <= c && c <= word[w + 1]) {
            FORWARD_IF_ERROR(park(m, sp, p, word));
          }
          if (c >= word[w + 1]) {
            otis_clear(m, sp->r_pos, p);
          }
        }
      }
      movers += (size_t)otis_has(m, sp->r_neg, p) + (size_t)otis_has(m, sp->r_pos, p);
    }
  }
  return PINET_OK;
}

/* Move every word of `from` into `to` inside its processor (free). */
static pinet_status local_all(pinet_otis *m, uint32_t from, uint32_t to) {
  for (uint32_t p = 0; p < m->procs; p++) {
    FORWARD_IF_ERROR(otis_local_move(m, from, to, p));
  }
  return PINET_OK;
}

/* ---- routing to a target position inside the group ------------------------------------------ */

typedef struct {
  uint32_t field;
} target_ctx;

static int span_target_col(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word,
                           int32_t *lo, int32_t *hi) {
  (void)proc;
  int64_t t = word[((target_ctx *)ctx)->field];
  *lo = *hi = (int32_t)(t % m->n);
  return t >= 0 && t < (int64_t)m->N;
}

static int span_target_row(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word,
                           int32_t *lo, int32_t *hi) {
  (void)proc;
  int64_t t = word[((target_ctx *)ctx)->field];
  *lo = *hi = (int32_t)(t / m->n);
  return t >= 0 && t < (int64_t)m->N;
}

static pinet_status run_phase(pinet_otis *m, otis_axis axis, uint32_t r_in, uint32_t r_out,
                              uint32_t r_neg, uint32_t r_pos, otis_span_fn fn, void *ctx) {
  otis_line_spec sp = {axis, r_in, r_out, r_neg, r_pos, fn, ctx, OTIS_PARK_EXCLUSIVE, 0, 0, 0};
  return otis_line_phase(m, &sp);
}

pinet_status otis_group_route(pinet_otis *m, uint32_t r_in, uint32_t r_out, uint32_t r_neg,
                              uint32_t r_pos, uint32_t target_field, int rows_first) {
  target_ctx tc = {target_field};
  /* rows_first: move along the row to the target column, then along the column. */
  otis_axis a1 = rows_first ? OTIS_AXIS_ROW : OTIS_AXIS_COL;
  otis_axis a2 = rows_first ? OTIS_AXIS_COL : OTIS_AXIS_ROW;
  otis_span_fn f1 = rows_first ? span_target_col : span_target_row;
  otis_span_fn f2 = rows_first ? span_target_row : span_target_col;
  FORWARD_IF_ERROR(run_phase(m, a1, r_in, r_out, r_neg, r_pos, f1, &tc));
  FORWARD_IF_ERROR(local_all(m, r_out, r_in));
  return run_phase(m, a2, r_in, r_out, r_neg, r_pos, f2, &tc);
}

/* ---- a bit-permute-and-XOR map inside every group, in three line phases --------------------- */

typedef struct {
  uint32_t field;
  uint32_t e_src[PINET_OTIS_MAX_BITS]; /* position bits (row part) feeding ... */
  uint32_t e_dst[PINET_OTIS_MAX_BITS]; /* ... these column bits */
  uint32_t e_count;
} bitmap_ctx;

static int span_bitmap_first(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word,
                             int32_t *lo, int32_t *hi) {
  (void)word;
  const bitmap_ctx *bc = ctx;
  uint32_t pos = otis_pos(m, proc);
  uint32_t y1 = otis_py(m, proc);
  for (uint32_t j = 0; j < bc->e_count; j++) {
    y1 ^= ((pos >> bc->e_src[j]) & 1u) << bc->e_dst[j];
  }
  *lo = *hi = (int32_t)y1;
  return 1;
}

pinet_status otis_group_bitmap_stage(pinet_otis *m, uint32_t r_in, uint32_t r_out, uint32_t r_neg,
                                     uint32_t r_pos, uint32_t target_field, const uint8_t *pi) {
  /* Position bits 0..h-1 are the column (Y) bits, h..2h-1 the row (X) bits. Row bits that land
   * in column bits (XY) are paired with column bits that land in row bits (YX); the first row
   * phase XORs each XY bit into its partner column, which makes the column phase and the second
   * row phase collision-free (a three-stage Clos decomposition of the bit map). */
  bitmap_ctx bc;
  memset(&bc, 0, sizeof bc);
  bc.field = target_field;
  const uint32_t h = m->h;
  uint32_t ny = 0;
  uint32_t yx[PINET_OTIS_MAX_BITS];
  for (uint32_t b = 0; b < h; b++) {
    if (pi[b] >= h) {
      yx[ny++] = b;
    }
  }
  for (uint32_t b = h; b < 2 * h; b++) {
    if (pi[b] < h) {
      bc.e_src[bc.e_count] = b;
      bc.e_dst[bc.e_count] = yx[bc.e_count];
      bc.e_count++;
    }
  }
  RETURN_ERROR_IF(bc.e_count != ny, PINET_ERR_RANGE);
  target_ctx tc = {target_field};
  FORWARD_IF_ERROR(run_phase(m, OTIS_AXIS_ROW, r_in, r_out, r_neg, r_pos, span_bitmap_first, &bc));
  FORWARD_IF_ERROR(local_all(m, r_out, r_in));
  FORWARD_IF_ERROR(run_phase(m, OTIS_AXIS_COL, r_in, r_out, r_neg, r_pos, span_target_row, &tc));
  FORWARD_IF_ERROR(local_all(m, r_out, r_in));
  return run_phase(m, OTIS_AXIS_ROW, r_in, r_out, r_neg, r_pos, span_target_col, &tc);
}

/* ---- concentrate / distribute ------------------------------------------------------------- */

/* Copy the words of r_w into r_a with one extra (target) field and two spare fields. */
static pinet_status widen(pinet_otis *m, uint32_t r_w, uint32_t r_a) {
  const uint32_t w = m->width[r_w];
  RETURN_ERROR_IF(m->width[r_a] != w + 2, PINET_ERR_MISMATCH);
  int64_t buf[PINET_OTIS_MAX_WIDTH] = {0};
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_has(m, r_w, p)) {
      memcpy(buf, otis_w(m, r_w, p), w * sizeof *buf);
      buf[w] = buf[w + 1] = 0;
      otis_put(m, r_a, p, buf);
      otis_clear(m, r_w, p);
    }
  }
  return PINET_OK;
}

static void narrow(pinet_otis *m, uint32_t r_a, uint32_t r_w) {
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_has(m, r_a, p)) {
      otis_put(m, r_w, p, otis_w(m, r_a, p)); /* copies width(r_w) fields */
      otis_clear(m, r_a, p);
    }
  }
}

/* Set the target field (index w) of every word of r from field `src_field`: value / div or
 * value % mod. */
static void set_target(pinet_otis *m, uint32_t r, uint32_t tf, uint32_t src_field, int use_div) {
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_has(m, r, p)) {
      int64_t *wd = otis_w(m, r, p);
      wd[tf] = use_div ? wd[src_field] / (int64_t)m->N : wd[src_field] % (int64_t)m->N;
    }
  }
}

pinet_status otis_concentrate_words(pinet_otis *m, uint32_t r_w, uint32_t rank_field,
                                    uint32_t r_a, uint32_t r_b, uint32_t r_c, uint32_t r_d) {
  const uint32_t w = m->width[r_w];
  FORWARD_IF_ERROR(widen(m, r_w, r_a));
  /* Step 1: to processor r mod N of the current group (mesh concentrate: rows, then columns). */
  set_target(m, r_a, w, rank_field, 0);
  FORWARD_IF_ERROR(otis_group_route(m, r_a, r_b, r_c, r_d, w, 1));
  /* Step 2: OTIS. Step 3: to processor floor(r / N). Step 4: OTIS. */
  FORWARD_IF_ERROR(otis_otis_all(m, r_b, r_a));
  set_target(m, r_a, w, rank_field, 1);
  FORWARD_IF_ERROR(otis_group_route(m, r_a, r_b, r_c, r_d, w, 1));
  FORWARD_IF_ERROR(otis_otis_all(m, r_b, r_a));
  narrow(m, r_a, r_w);
  return PINET_OK;
}

pinet_status otis_distribute_words(pinet_otis *m, uint32_t r_w, uint32_t dest_field,
                                   uint32_t r_a, uint32_t r_b, uint32_t r_c, uint32_t r_d) {
  /* The concentrate run backwards: OTIS, route to floor(d / N), OTIS, route to d mod N, each
   * routing column phase first (the inverse of the concentrate's row-then-column order). */
  const uint32_t w = m->width[r_w];
  FORWARD_IF_ERROR(widen(m, r_w, r_b));
  FORWARD_IF_ERROR(otis_otis_all(m, r_b, r_a));
  set_target(m, r_a, w, dest_field, 1);
  FORWARD_IF_ERROR(otis_group_route(m, r_a, r_b, r_c, r_d, w, 0));
  FORWARD_IF_ERROR(otis_otis_all(m, r_b, r_a));
  set_target(m, r_a, w, dest_field, 0);
  FORWARD_IF_ERROR(otis_group_route(m, r_a, r_b, r_c, r_d, w, 0));
  narrow(m, r_b, r_w);
  return PINET_OK;
}

/* ---- generalize ----------------------------------------------------------------------------- */

/* A record with key d (its destination index) is valid at group position x when its start
 * position s <= x, where s = floor(d / N) in the first stage (positions stand for groups) and
 * s = d - g N in the second (g = the group it is in; records from earlier groups start at 0).
 * Every position keeps the valid record with the largest key. */
typedef struct {
  uint32_t key_field;
  int second; /* 0: start = floor(d / N); 1: start = max(d - g N, 0) */
} gen_ctx;

static int gen_start(const pinet_otis *m, const gen_ctx *gc, uint32_t proc, const int64_t *word,
                     int64_t *start) {
  int64_t d = word[gc->key_field];
  if (!gc->second) {
    *start = d / (int64_t)m->N;
  } else {
    int64_t base = (int64_t)otis_grp(m, proc) * (int64_t)m->N;
    *start = d > base ? d - base : 0;
  }
  return *start >= 0 && *start < (int64_t)m->N;
}

static int span_gen_col(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word, int32_t *lo,
                        int32_t *hi) {
  int64_t s;
  if (!gen_start(m, ctx, proc, word, &s)) {
    return 0;
  }
  *lo = (int32_t)(s / m->n); /* every row from the start row down may need the record */
  *hi = (int32_t)m->n - 1;
  return 1;
}

static int span_gen_row(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word, int32_t *lo,
                        int32_t *hi) {
  int64_t s;
  if (!gen_start(m, ctx, proc, word, &s)) {
    return 0;
  }
  int64_t row = otis_px(m, proc), srow = s / m->n;
  if (srow > row) {
    return 0;
  }
  *lo = srow == row ? (int32_t)(s % m->n) : 0;
  *hi = (int32_t)m->n - 1;
  return 1;
}

static pinet_status gen_stage(pinet_otis *m, uint32_t r_in, uint32_t r_out, uint32_t r_neg,
                              uint32_t r_pos, uint32_t key_field, int second) {
  gen_ctx gc = {key_field, second};
  /* Column phase: copies go up to the start row and down until a later record is met. */
  otis_line_spec sp = {OTIS_AXIS_COL, r_in, r_out, r_neg, r_pos, span_gen_col, &gc,
                       OTIS_PARK_MAXKEY, key_field, 1, 0};
  FORWARD_IF_ERROR(otis_line_phase(m, &sp));
  FORWARD_IF_ERROR(local_all(m, r_out, r_in));
  /* Row phase: left down to the start column, right until a later valid record is met. */
  otis_line_spec sr = {OTIS_AXIS_ROW, r_in, r_out, r_neg, r_pos, span_gen_row, &gc,
                       OTIS_PARK_MAXKEY, key_field, 1, 0};
  return otis_line_phase(m, &sr);
}

pinet_status otis_generalize_words(pinet_otis *m, uint32_t r_w, uint32_t dest_field,
                                   uint32_t r_a, uint32_t r_b, uint32_t r_c, uint32_t r_d) {
  /* Step 1: OTIS. Step 2: in group P' (records i = P' mod N at positions floor(i / N)) each
   * position g gets the latest record starting in a group <= g (only down, right, left moves).
   * Step 3: OTIS. Step 4: in group g each position gets the valid record with the largest d. */
  FORWARD_IF_ERROR(widen(m, r_w, r_b));
  FORWARD_IF_ERROR(otis_otis_all(m, r_b, r_a));
  FORWARD_IF_ERROR(gen_stage(m, r_a, r_b, r_c, r_d, dest_field, 0));
  FORWARD_IF_ERROR(otis_otis_all(m, r_b, r_a));
  FORWARD_IF_ERROR(gen_stage(m, r_a, r_b, r_c, r_d, dest_field, 1));
  narrow(m, r_b, r_w);
  return PINET_OK;
}

/* ---- every word to the next index ----------------------------------------------------------- */

pinet_status otis_index_shift(pinet_otis *m, uint32_t r_w, uint32_t r_a, uint32_t r_b,
                              uint32_t r_c, uint32_t r_d) {
  const uint32_t w = m->width[r_w];
  const uint32_t N = m->N, last = N - 1;
  RETURN_ERROR_IF(m->width[r_a] != w + 2 || m->width[r_b] != w + 2 || m->width[r_c] != w + 4 ||
                      m->width[r_d] != w + 4,
                  PINET_ERR_MISMATCH);
  int64_t buf[PINET_OTIS_MAX_WIDTH] = {0};
  /* Words at group position N-1 take the long way (via OTIS links): set them apart in r_w. */
  for (uint32_t p = 0; p < m->procs; p++) {
    if (!otis_has(m, r_w, p)) {
      continue;
    }
    if (otis_pos(m, p) == last) {
      continue;
    }
    memcpy(buf, otis_w(m, r_w, p), w * sizeof *buf);
    buf[w] = otis_pos(m, p) + 1; /* target position in the same group */
    buf[w + 1] = 0;
    otis_put(m, r_a, p, buf);
    otis_clear(m, r_w, p);
  }
  /* Inside groups: (x, y) -> (x, y + 1), and (x, n - 1) -> (x + 1, 0). */
  FORWARD_IF_ERROR(otis_group_route(m, r_a, r_b, r_c, r_d, w, 1));
  /* Group ends: (G, N-1) -> OTIS -> (N-1, G) -> (N-1, G+1) -> OTIS -> (G+1, N-1) -> (G+1, 0). */
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_has(m, r_w, p)) {
      if (otis_grp(m, p) == last) {
        otis_clear(m, r_w, p); /* the word of the last processor has nowhere to go */
        continue;
      }
      memcpy(buf, otis_w(m, r_w, p), w * sizeof *buf);
      buf[w] = buf[w + 1] = 0;
      otis_put(m, r_a, p, buf);
      otis_clear(m, r_w, p);
    }
  }
  /* r_b holds the finished words; move them back to r_w (free) before reusing r_b. */
  narrow(m, r_b, r_w);
  FORWARD_IF_ERROR(otis_otis_all(m, r_a, r_b));
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_has(m, r_b, p)) {
      otis_w(m, r_b, p)[w] = otis_pos(m, p) + 1;
    }
  }
  FORWARD_IF_ERROR(local_all(m, r_b, r_a));
  FORWARD_IF_ERROR(otis_group_route(m, r_a, r_b, r_c, r_d, w, 1));
  FORWARD_IF_ERROR(otis_otis_all(m, r_b, r_a));
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_has(m, r_a, p)) {
      otis_w(m, r_a, p)[w] = 0;
    }
  }
  FORWARD_IF_ERROR(otis_group_route(m, r_a, r_b, r_c, r_d, w, 1));
  /* Merge: the group-end words now sit at position 0, which no other word reaches. */
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_has(m, r_b, p)) {
      RETURN_ERROR_IF(otis_has(m, r_w, p), PINET_ERR_ILLEGAL_MOVE);
      otis_put(m, r_w, p, otis_w(m, r_b, p));
      otis_clear(m, r_b, p);
    }
  }
  return PINET_OK;
}

/* ---- public wrappers ------------------------------------------------------------------------ */

enum { R_W = 0, R_A = 1, R_B = 2, R_C = 3, R_D = 4 };

static pinet_status setup_route(pinet_otis *m, uint32_t w) {
  const uint32_t widths[5] = {w, w + 2, w + 2, w + 4, w + 4};
  return otis_setup(m, 5, widths);
}

static void read_out(pinet_otis *m, uint32_t field, int64_t *out, uint8_t *out_has) {
  for (uint32_t p = 0; p < m->procs; p++) {
    int has = otis_has(m, R_W, p);
    out[p] = has ? otis_w(m, R_W, p)[field] : 0;
    if (out_has) {
      out_has[p] = (uint8_t)has;
    }
  }
}

pinet_status pinet_otis_concentrate(pinet_otis *m, const int64_t *value, const int64_t *rank,
                                    int64_t *out, uint8_t *out_has) {
  RETURN_ERROR_IF(m == NULL || value == NULL || rank == NULL || out == NULL, PINET_ERR_NULL);
  int64_t next = 0;
  for (uint32_t p = 0; p < m->procs; p++) {
    if (rank[p] >= 0) {
      RETURN_ERROR_IF(rank[p] != next, PINET_ERR_RANGE);
      next++;
    } else {
      RETURN_ERROR_IF(rank[p] != -1, PINET_ERR_RANGE);
    }
  }
  FORWARD_IF_ERROR(setup_route(m, 2));
  for (uint32_t p = 0; p < m->procs; p++) {
    if (rank[p] >= 0) {
      int64_t wd[2] = {value[p], rank[p]};
      otis_put(m, R_W, p, wd);
    }
  }
  FORWARD_IF_ERROR(otis_concentrate_words(m, R_W, 1, R_A, R_B, R_C, R_D));
  read_out(m, 0, out, out_has);
  return PINET_OK;
}

/* Destinations: processors 0..q hold strictly increasing destinations < N^2, the rest -1. */
static pinet_status check_dest_layout(const pinet_otis *m, const int64_t *dest) {
  int ended = 0;
  int64_t prev = -1;
  for (uint32_t p = 0; p < m->procs; p++) {
    if (dest[p] == -1) {
      ended = 1;
      continue;
    }
    RETURN_ERROR_IF(ended || dest[p] <= prev || dest[p] >= (int64_t)m->procs, PINET_ERR_RANGE);
    prev = dest[p];
  }
  return PINET_OK;
}

static pinet_status dist_or_gen(pinet_otis *m, const int64_t *value, const int64_t *dest,
                                int64_t *out, uint8_t *out_has, int generalize) {
  RETURN_ERROR_IF(m == NULL || value == NULL || dest == NULL || out == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(check_dest_layout(m, dest));
  FORWARD_IF_ERROR(setup_route(m, 2));
  for (uint32_t p = 0; p < m->procs; p++) {
    if (dest[p] >= 0) {
      int64_t wd[2] = {value[p], dest[p]};
      otis_put(m, R_W, p, wd);
    }
  }
  if (generalize) {
    FORWARD_IF_ERROR(otis_generalize_words(m, R_W, 1, R_A, R_B, R_C, R_D));
  } else {
    FORWARD_IF_ERROR(otis_distribute_words(m, R_W, 1, R_A, R_B, R_C, R_D));
  }
  read_out(m, 0, out, out_has);
  return PINET_OK;
}

pinet_status pinet_otis_distribute(pinet_otis *m, const int64_t *value, const int64_t *dest,
                                   int64_t *out, uint8_t *out_has) {
  return dist_or_gen(m, value, dest, out, out_has, 0);
}

pinet_status pinet_otis_generalize(pinet_otis *m, const int64_t *value, const int64_t *dest,
                                   int64_t *out, uint8_t *out_has) {
  return dist_or_gen(m, value, dest, out, out_has, 1);
}
