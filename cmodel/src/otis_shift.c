/* otis_shift.c - shifts (a)-(h), data accumulation, adjacent sum and consecutive sum (paper
 * §2.6-2.9). Operations along Gx / Gy run along Px / Py between two OTIS moves. */
#include <string.h>

#include "otis_private.h"

static int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }

/* Axis used after the optional OTIS move for a dimension. */
static otis_axis axis_of(pinet_otis_dim dim) {
  return (dim == PINET_OTIS_DIM_PY || dim == PINET_OTIS_DIM_GY) ? OTIS_AXIS_ROW : OTIS_AXIS_COL;
}
static int is_group_dim(pinet_otis_dim dim) {
  return dim == PINET_OTIS_DIM_GX || dim == PINET_OTIS_DIM_GY;
}
static uint32_t along(const pinet_otis *m, otis_axis axis, uint32_t p) {
  return axis == OTIS_AXIS_ROW ? otis_py(m, p) : otis_px(m, p);
}
static pinet_otis_dir neg_dir(otis_axis axis) {
  return axis == OTIS_AXIS_ROW ? PINET_OTIS_LEFT : PINET_OTIS_UP;
}
static pinet_otis_dir pos_dir(otis_axis axis) {
  return axis == OTIS_AXIS_ROW ? PINET_OTIS_RIGHT : PINET_OTIS_DOWN;
}

/* Move every word of `from` into `to` inside its processor (free). */
static pinet_status local_all(pinet_otis *m, uint32_t from, uint32_t to) {
  for (uint32_t p = 0; p < m->procs; p++) {
    FORWARD_IF_ERROR(otis_local_move(m, from, to, p));
  }
  return PINET_OK;
}

/* ---- shifts ---------------------------------------------------------------------------------- */

typedef struct {
  int32_t s;
  int circular;
} shift_ctx;

static int span_shift_axis(pinet_otis *m, const shift_ctx *sc, int32_t c, int32_t *lo,
                           int32_t *hi) {
  int32_t n = (int32_t)m->n, t = c + sc->s;
  if (sc->circular) {
    t = ((t % n) + n) % n;
  } else if (t < 0 || t >= n) {
    return 0; /* end discard */
  }
  *lo = *hi = t;
  return 1;
}

static int span_shift_row(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word,
                          int32_t *lo, int32_t *hi) {
  (void)word;
  return span_shift_axis(m, ctx, (int32_t)otis_py(m, proc), lo, hi);
}

static int span_shift_col(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word,
                          int32_t *lo, int32_t *hi) {
  (void)word;
  return span_shift_axis(m, ctx, (int32_t)otis_px(m, proc), lo, hi);
}

enum { SV = 0, SO = 1, SN = 2, SP = 3, SNREG = 4 };

pinet_status pinet_otis_shift(pinet_otis *m, const int64_t *in, pinet_otis_shift_kind kind,
                              int32_t s, int64_t *out) {
  RETURN_ERROR_IF(m == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF((unsigned)kind > PINET_OTIS_SHIFT_H, PINET_ERR_RANGE);
  RETURN_ERROR_IF(s == 0 || s <= -(int32_t)m->n || s >= (int32_t)m->n, PINET_ERR_RANGE);
  static const pinet_otis_dim k_dims[8] = {
      PINET_OTIS_DIM_PY, PINET_OTIS_DIM_PX, PINET_OTIS_DIM_PY, PINET_OTIS_DIM_PX,
      PINET_OTIS_DIM_GY, PINET_OTIS_DIM_GX, PINET_OTIS_DIM_GY, PINET_OTIS_DIM_GX};
  static const int k_circ[8] = {0, 0, 1, 1, 0, 0, 1, 1};
  const pinet_otis_dim dim = k_dims[kind];
  const uint32_t widths[SNREG] = {1, 1, 3, 3};
  FORWARD_IF_ERROR(otis_setup(m, SNREG, widths));
  for (uint32_t p = 0; p < m->procs; p++) {
    otis_put(m, SV, p, &in[p]);
  }
  /* (e)-(h): Step 1 OTIS, Step 2 the shift along Py (for Gy) or Px (for Gx), Step 3 OTIS. */
  if (is_group_dim(dim)) {
    FORWARD_IF_ERROR(otis_otis_all(m, SV, SO));
    FORWARD_IF_ERROR(local_all(m, SO, SV));
  }
  shift_ctx sc = {s, k_circ[kind]};
  otis_axis axis = axis_of(dim);
  otis_line_spec sp = {axis, SV, SO, SN, SP,
                       axis == OTIS_AXIS_ROW ? span_shift_row : span_shift_col,
                       &sc, OTIS_PARK_EXCLUSIVE, 0, 0, 0};
  FORWARD_IF_ERROR(otis_line_phase(m, &sp));
  if (is_group_dim(dim)) {
    FORWARD_IF_ERROR(otis_otis_all(m, SO, SV));
    FORWARD_IF_ERROR(local_all(m, SV, SO));
  }
  for (uint32_t p = 0; p < m->procs; p++) {
    out[p] = otis_has(m, SO, p) ? otis_w(m, SO, p)[0] : 0; /* zero fill */
  }
  return PINET_OK;
}

/* ---- data accumulation and adjacent sum ----------------------------------------------------- */

/* A[i] = D(c + i mod n), 0 <= i < M, along the axis. A left stream runs M - 1 steps (every
 * value reaches the M - 1 processors before it); a right stream of the values D(0..M-2) runs
 * n - 1 steps to reach the processors that wrap around. Both streams share the steps in MIMD.
 * `sum` keeps only the sum of the A[i]. */
enum { AV = 0, AA = 1, AL = 2, AR = 3, AT = 4, ANREG = 5 };

static pinet_status accumulate(pinet_otis *m, const int64_t *in, pinet_otis_dim dim,
                               uint32_t mcount, int sum, int64_t *out) {
  RETURN_ERROR_IF(m == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF((unsigned)dim > PINET_OTIS_DIM_PY, PINET_ERR_RANGE);
  RETURN_ERROR_IF(mcount == 0 || mcount > m->n, PINET_ERR_RANGE);
  const uint32_t n = m->n, M = mcount;
  const uint32_t aw = sum ? 1 : M;
  const uint32_t widths[ANREG] = {1, aw, 1, 2, aw};
  FORWARD_IF_ERROR(otis_setup(m, ANREG, widths));
  for (uint32_t p = 0; p < m->procs; p++) {
    otis_put(m, AV, p, &in[p]);
  }
  if (is_group_dim(dim)) {
    FORWARD_IF_ERROR(otis_otis_all(m, AV, AL));
    FORWARD_IF_ERROR(local_all(m, AL, AV));
  }
  const otis_axis axis = axis_of(dim);
  int64_t acc[PINET_OTIS_MAX_WIDTH];
  for (uint32_t p = 0; p < m->procs; p++) {
    memset(acc, 0, sizeof acc);
    acc[0] = otis_w(m, AV, p)[0];
    otis_put(m, AA, p, acc);
    otis_put(m, AL, p, acc);
    uint32_t c = along(m, axis, p);
    if (M >= 2 && c + 2 <= M) {
      int64_t rw[2] = {acc[0], c};
      otis_put(m, AR, p, rw);
    }
  }
  for (uint32_t t = 1; t < n; t++) {
    int left = t < M;
    otis_ml_reset(m);
    for (uint32_t p = 0; p < m->procs; p++) {
      uint32_t c = along(m, axis, p);
      if (left && otis_has(m, AL, p)) {
        if (c == 0) {
          otis_clear(m, AL, p); /* nothing left of the line's start needs it */
        } else {
          FORWARD_IF_ERROR(otis_ml_push(m, p, neg_dir(axis), AL, AL, 0));
        }
      }
      if (otis_has(m, AR, p)) {
        if (c == n - 1) {
          otis_clear(m, AR, p);
        } else {
          FORWARD_IF_ERROR(otis_ml_push(m, p, pos_dir(axis), AR, AR, 0));
        }
      }
    }
    if (m->ml_len == 0) {
      break;
    }
    FORWARD_IF_ERROR(otis_ml_commit(m));
    for (uint32_t p = 0; p < m->procs; p++) {
      int64_t *a = otis_w(m, AA, p);
      if (left && otis_has(m, AL, p)) { /* D(c + t) */
        int64_t v = otis_w(m, AL, p)[0];
        if (sum) {
          a[0] = wadd(a[0], v);
        } else {
          a[t] = v;
        }
      }
      if (otis_has(m, AR, p)) { /* D(c - t), index n - t when that is < M */
        uint32_t i = n - t;
        if (i < M) {
          int64_t v = otis_w(m, AR, p)[0];
          if (sum) {
            a[0] = wadd(a[0], v);
          } else {
            a[i] = v;
          }
        }
      }
    }
    if (!left) {
      otis_clear_reg(m, AL);
    }
  }
  otis_clear_reg(m, AL);
  otis_clear_reg(m, AR);
  uint32_t res = AA;
  if (is_group_dim(dim)) {
    FORWARD_IF_ERROR(otis_otis_all(m, AA, AT));
    res = AT;
  }
  for (uint32_t p = 0; p < m->procs; p++) {
    memcpy(out + (size_t)p * aw, otis_w(m, res, p), aw * sizeof *out);
  }
  return PINET_OK;
}

pinet_status pinet_otis_data_accumulation(pinet_otis *m, const int64_t *in, pinet_otis_dim dim,
                                          uint32_t mcount, int64_t *out) {
  return accumulate(m, in, dim, mcount, 0, out);
}

pinet_status pinet_otis_adjacent_sum(pinet_otis *m, const int64_t *in, pinet_otis_dim dim,
                                     uint32_t mcount, int64_t *out) {
  return accumulate(m, in, dim, mcount, 1, out);
}

/* ---- consecutive sum ------------------------------------------------------------------------- */

/* Tokens (paper §2.8): token i of a block collects X_j[i] of every processor j of the block on
 * its rightward visits. Tokens 0..M-2 start right-bound, token M-1 left-bound; a token turns at
 * the block's ends (free, inside the processor). Every step all tokens move: in MIMD the right-
 * and left-bound ones at once (2(M - 1) steps), in SIMD in alternating steps (4(M - 1)).
 * Token word: (sum, id, moves, visited mask). */
enum { CX = 0, CX2 = 1, CR = 2, CL = 3, CD = 4, CT = 5, CNREG = 6 };

pinet_status pinet_otis_consecutive_sum(pinet_otis *m, const int64_t *x, pinet_otis_dim dim,
                                        uint32_t mcount, int64_t *out) {
  RETURN_ERROR_IF(m == NULL || x == NULL || out == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF((unsigned)dim > PINET_OTIS_DIM_PY, PINET_ERR_RANGE);
  RETURN_ERROR_IF(mcount == 0 || mcount > m->n || m->n % mcount != 0, PINET_ERR_RANGE);
  const uint32_t M = mcount;
  const int64_t total = 2 * ((int64_t)M - 1);
  const uint32_t widths[CNREG] = {M, M, 4, 4, 1, 1};
  FORWARD_IF_ERROR(otis_setup(m, CNREG, widths));
  for (uint32_t p = 0; p < m->procs; p++) {
    otis_put(m, CX, p, x + (size_t)p * M);
  }
  /* Gx / Gy blocks: one OTIS move brings each block into a mesh column / row. */
  if (is_group_dim(dim)) {
    FORWARD_IF_ERROR(otis_otis_all(m, CX, CX2));
    FORWARD_IF_ERROR(local_all(m, CX2, CX));
  }
  const otis_axis axis = axis_of(dim);
  for (uint32_t p = 0; p < m->procs; p++) {
    uint32_t j = along(m, axis, p) % M;
    int64_t tok[4] = {otis_w(m, CX, p)[j], j, 0, (int64_t)1 << j};
    if (M == 1) {
      otis_put(m, CD, p, tok);
    } else {
      otis_put(m, j + 1 < M ? CR : CL, p, tok);
    }
  }
  for (;;) {
    otis_ml_reset(m);
    for (uint32_t p = 0; p < m->procs; p++) {
      if (otis_has(m, CR, p)) {
        FORWARD_IF_ERROR(otis_ml_push(m, p, pos_dir(axis), CR, CR, 0));
      }
      if (otis_has(m, CL, p)) {
        FORWARD_IF_ERROR(otis_ml_push(m, p, neg_dir(axis), CL, CL, 0));
      }
    }
    if (m->ml_len == 0) {
      break;
    }
    FORWARD_IF_ERROR(otis_ml_commit(m));
    for (uint32_t p = 0; p < m->procs; p++) {
      uint32_t j = along(m, axis, p) % M;
      /* Every token moved once; a token that made its 2(M - 1) moves is home. */
      for (uint32_t r = CR; r <= CL; r++) {
        if (!otis_has(m, r, p)) {
          continue;
        }
        int64_t *tok = otis_w(m, r, p);
        if (++tok[2] == total) {
          RETURN_ERROR_IF(tok[1] != (int64_t)j || tok[3] != ((int64_t)1 << M) - 1,
                          PINET_ERR_ILLEGAL_STATE);
          otis_put(m, CD, p, tok);
          otis_clear(m, r, p);
        }
      }
      /* Turn at the left end, add on rightward visits, turn at the right end. */
      if (j == 0 && otis_has(m, CL, p)) {
        FORWARD_IF_ERROR(otis_local_move(m, CL, CR, p));
      }
      if (otis_has(m, CR, p)) {
        int64_t *tok = otis_w(m, CR, p);
        if (!(tok[3] & ((int64_t)1 << j))) {
          tok[0] = wadd(tok[0], otis_w(m, CX, p)[tok[1]]);
          tok[3] |= (int64_t)1 << j;
        }
      }
      if (j == M - 1 && otis_has(m, CR, p)) {
        FORWARD_IF_ERROR(otis_local_move(m, CR, CL, p));
      }
    }
  }
  uint32_t res = CD;
  if (is_group_dim(dim)) {
    FORWARD_IF_ERROR(otis_otis_all(m, CD, CT));
    res = CT;
  }
  for (uint32_t p = 0; p < m->procs; p++) {
    out[p] = otis_w(m, res, p)[0];
  }
  return PINET_OK;
}
