/* otis_basic.c - broadcast, window broadcast, prefix sum (simple and improved), data sum and
 * rank (paper §2.1-2.5). Sums wrap modulo 2^64. */
#include <stdlib.h>
#include <string.h>

#include "otis_private.h"

static int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static int64_t wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }

/* Registers shared by the width-1 operations of this file. */
enum { V = 0, T = 1, U = 2, X = 3, Y = 4, Z = 5, Q = 6, OUT = 7, MN = 8, MP = 9, S = 10,
       NREG = 11 };

static pinet_status setup1(pinet_otis *m) {
  uint32_t widths[NREG];
  for (uint32_t r = 0; r < NREG; r++) {
    widths[r] = 1;
  }
  widths[MN] = widths[MP] = 3;
  widths[S] = 2; /* a stream word (value, origin) */
  return otis_setup(m, NREG, widths);
}


static int64_t rd(pinet_otis *m, uint32_t r, uint32_t p) { return otis_w(m, r, p)[0]; }
static void wr(pinet_otis *m, uint32_t r, uint32_t p, int64_t v) { otis_put(m, r, p, &v); }

/* ---- broadcast inside lines (line phases with the whole line as interval) ------------------ */

static int span_all(pinet_otis *m, void *ctx, uint32_t proc, const int64_t *word, int32_t *lo,
                    int32_t *hi) {
  (void)ctx;
  (void)proc;
  (void)word;
  *lo = 0;
  *hi = (int32_t)m->n - 1;
  return 1;
}

/* Broadcast the word of register r (one source per group) to the whole group, row first;
 * the result is in r. Uses `tmp`, MN, MP. */
static pinet_status group_broadcast(pinet_otis *m, uint32_t r, uint32_t tmp) {
  otis_line_spec sp = {OTIS_AXIS_ROW, r, tmp, MN, MP, span_all, NULL, OTIS_PARK_EXCLUSIVE, 0, 0, 0};
  FORWARD_IF_ERROR(otis_line_phase(m, &sp));
  otis_line_spec sc = {OTIS_AXIS_COL, tmp, r, MN, MP, span_all, NULL, OTIS_PARK_EXCLUSIVE, 0, 0, 0};
  return otis_line_phase(m, &sc);
}

pinet_status pinet_otis_broadcast(pinet_otis *m, const int64_t *in, uint32_t source, int64_t *out) {
  RETURN_ERROR_IF(m == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(source >= m->procs, PINET_ERR_RANGE);
  FORWARD_IF_ERROR(setup1(m));
  wr(m, V, source, in[source]);
  /* Step 1: broadcast inside the source group. Step 2: OTIS. Step 3: broadcast from processor
   * G of every group. */
  FORWARD_IF_ERROR(group_broadcast(m, V, T));
  FORWARD_IF_ERROR(otis_otis_all(m, V, U));
  FORWARD_IF_ERROR(group_broadcast(m, U, T));
  for (uint32_t p = 0; p < m->procs; p++) {
    out[p] = rd(m, U, p);
  }
  return PINET_OK;
}

/* ---- window broadcast --------------------------------------------------------------------- */

/* Tile a w x w window inside one group along one axis: a stream of the window's values moves
 * n - w steps; each processor keeps the value whose origin matches its coordinate mod w. A
 * stream word is (value, origin), register S. */
static pinet_status tile_axis(pinet_otis *m, uint32_t group, uint32_t w, otis_axis axis) {
  const uint32_t n = m->n;
  const pinet_otis_dir dir = axis == OTIS_AXIS_ROW ? PINET_OTIS_RIGHT : PINET_OTIS_DOWN;
  for (uint32_t p = group * m->N; p < (group + 1) * m->N; p++) {
    uint32_t along = axis == OTIS_AXIS_ROW ? otis_py(m, p) : otis_px(m, p);
    if (otis_has(m, V, p) && along < w) {
      int64_t sw[2] = {rd(m, V, p), along};
      otis_put(m, S, p, sw);
    }
  }
  for (uint32_t t = 1; t + w <= n; t++) {
    FORWARD_IF_ERROR(pinet_otis_step_uniform(m, dir, S, S, NULL, 0));
    for (uint32_t p = group * m->N; p < (group + 1) * m->N; p++) {
      if (!otis_has(m, S, p)) {
        continue;
      }
      uint32_t along = axis == OTIS_AXIS_ROW ? otis_py(m, p) : otis_px(m, p);
      const int64_t *sw = otis_w(m, S, p);
      if ((uint32_t)sw[1] == along % w) {
        wr(m, V, p, sw[0]);
      }
      if (along == n - 1) { /* the end of the line: nothing beyond */
        otis_clear(m, S, p);
      }
    }
  }
  otis_clear_reg(m, S);
  return PINET_OK;
}

pinet_status pinet_otis_window_broadcast(pinet_otis *m, const int64_t *in, uint32_t group,
                                         uint32_t w, int64_t *out) {
  RETURN_ERROR_IF(m == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(group >= m->N || w == 0 || w > m->n || m->n % w != 0, PINET_ERR_RANGE);
  FORWARD_IF_ERROR(setup1(m));
  for (uint32_t x = 0; x < w; x++) {
    for (uint32_t y = 0; y < w; y++) {
      uint32_t p = group * m->N + x * m->n + y;
      wr(m, V, p, in[p]);
    }
  }
  /* Step 1: window broadcast inside the group (2(n - w) moves). */
  FORWARD_IF_ERROR(tile_axis(m, group, w, OTIS_AXIS_ROW));
  FORWARD_IF_ERROR(tile_axis(m, group, w, OTIS_AXIS_COL));
  /* Step 2: OTIS. Step 3: broadcast from processor `group` of every group. Step 4: OTIS. */
  FORWARD_IF_ERROR(otis_otis_all(m, V, U));
  FORWARD_IF_ERROR(group_broadcast(m, U, T));
  FORWARD_IF_ERROR(otis_otis_all(m, U, OUT));
  for (uint32_t p = 0; p < m->procs; p++) {
    out[p] = rd(m, OUT, p);
  }
  return PINET_OK;
}

/* ---- chains along lines --------------------------------------------------------------------- */

/* Register set of the prefix machinery (all width 1). */
typedef struct {
  uint32_t v;   /* input values (every processor holds one) */
  uint32_t out; /* result */
  uint32_t u, q, t, x, y, z; /* scratch */
} pfx_set;

/* Group filter: all groups (-1) or one. */
static int in_group(const pinet_otis *m, int64_t only, uint32_t p) {
  return only < 0 || (int64_t)otis_grp(m, p) == only;
}

/* Inclusive prefix of register `a` along every row into `a` (n - 1 RIGHT moves). */
static pinet_status row_prefix(pinet_otis *m, const pfx_set *r, int64_t only, uint32_t a) {
  for (uint32_t t = 1; t < m->n; t++) {
    otis_ml_reset(m);
    for (uint32_t p = 0; p < m->procs; p++) {
      if (in_group(m, only, p) && otis_py(m, p) == t - 1) {
        FORWARD_IF_ERROR(otis_ml_push(m, p, PINET_OTIS_RIGHT, a, r->t, 1));
      }
    }
    FORWARD_IF_ERROR(otis_ml_commit(m));
    for (uint32_t p = 0; p < m->procs; p++) {
      if (otis_has(m, r->t, p)) {
        wr(m, a, p, wadd(rd(m, a, p), rd(m, r->t, p)));
        otis_clear(m, r->t, p);
      }
    }
  }
  return PINET_OK;
}

/* Down column n - 1: e[x] = sum of a over rows < x of the column (exclusive prefix), written to
 * register `e` of column n - 1 (n - 1 DOWN moves). The running inclusive sum travels in z. */
static pinet_status col_exclusive(pinet_otis *m, const pfx_set *r, int64_t only, uint32_t a,
                                  uint32_t e) {
  const uint32_t n = m->n;
  for (uint32_t p = 0; p < m->procs; p++) {
    if (in_group(m, only, p) && otis_py(m, p) == n - 1) {
      wr(m, e, p, 0);
      if (otis_px(m, p) == 0) {
        wr(m, r->z, p, rd(m, a, p));
      }
    }
  }
  for (uint32_t t = 1; t < n; t++) {
    otis_ml_reset(m);
    for (uint32_t p = 0; p < m->procs; p++) {
      if (in_group(m, only, p) && otis_py(m, p) == n - 1 && otis_px(m, p) == t - 1) {
        FORWARD_IF_ERROR(otis_ml_push(m, p, PINET_OTIS_DOWN, r->z, r->t, 0));
      }
    }
    FORWARD_IF_ERROR(otis_ml_commit(m));
    for (uint32_t p = 0; p < m->procs; p++) {
      if (otis_has(m, r->t, p)) {
        int64_t before = rd(m, r->t, p);
        wr(m, e, p, before);
        wr(m, r->z, p, wadd(before, rd(m, a, p)));
        otis_clear(m, r->t, p);
      }
    }
  }
  otis_clear_reg(m, r->z);
  return PINET_OK;
}

/* Copy register `reg` of column n - 1 leftwards along every row, or (up) of processor
 * (n - 1, n - 1) upwards along column n - 1: n - 1 moves. */
static pinet_status chain_copy(pinet_otis *m, int64_t only, uint32_t reg, int up) {
  const uint32_t n = m->n;
  for (uint32_t t = 1; t < n; t++) {
    otis_ml_reset(m);
    for (uint32_t p = 0; p < m->procs; p++) {
      if (!in_group(m, only, p)) {
        continue;
      }
      if (up ? (otis_py(m, p) == n - 1 && otis_px(m, p) == n - t) : (otis_py(m, p) == n - t)) {
        FORWARD_IF_ERROR(
            otis_ml_push(m, p, up ? PINET_OTIS_UP : PINET_OTIS_LEFT, reg, reg, 1));
      }
    }
    FORWARD_IF_ERROR(otis_ml_commit(m));
  }
  return PINET_OK;
}

/* Prefix in row-major order inside groups (3(n - 1) moves): `dst` = inclusive (or exclusive)
 * prefix of register a. Uses x (row prefix) and y (row offsets). */
static pinet_status group_prefix(pinet_otis *m, const pfx_set *r, int64_t only, uint32_t a,
                                 uint32_t dst, int exclusive) {
  for (uint32_t p = 0; p < m->procs; p++) {
    if (in_group(m, only, p)) {
      wr(m, r->x, p, rd(m, a, p));
    }
  }
  FORWARD_IF_ERROR(row_prefix(m, r, only, r->x));
  FORWARD_IF_ERROR(col_exclusive(m, r, only, r->x, r->y));
  FORWARD_IF_ERROR(chain_copy(m, only, r->y, 0));
  for (uint32_t p = 0; p < m->procs; p++) {
    if (in_group(m, only, p)) {
      int64_t v = wadd(rd(m, r->y, p), rd(m, r->x, p));
      wr(m, dst, p, exclusive ? wsub(v, rd(m, a, p)) : v);
    }
  }
  otis_clear_reg(m, r->x);
  otis_clear_reg(m, r->y);
  return PINET_OK;
}

/* One OTIS move of register `from` between (G, N-1) and (N-1, G): from the corners into group
 * N - 1 (into_last_group) or back. */
static pinet_status otis_corner(pinet_otis *m, uint32_t from, uint32_t to, int into_last_group) {
  otis_ml_reset(m);
  for (uint32_t p = 0; p < m->procs; p++) {
    int sel = into_last_group ? otis_pos(m, p) == m->N - 1 : otis_grp(m, p) == m->N - 1;
    if (sel && otis_has(m, from, p)) {
      FORWARD_IF_ERROR(otis_ml_push(m, p, PINET_OTIS_LINK, from, to, 0));
    }
  }
  return otis_ml_commit(m);
}

/* ---- prefix sum ------------------------------------------------------------------------------ */

/* The improved algorithm (7(n - 1) electronic, 2 OTIS): inclusive prefix of r->v into r->out. */
static pinet_status prefix_improved(pinet_otis *m, const pfx_set *r) {
  const uint32_t n = m->n, last = m->N - 1;
  /* Step 1: row prefix sums R (in u). */
  for (uint32_t p = 0; p < m->procs; p++) {
    wr(m, r->u, p, rd(m, r->v, p));
  }
  FORWARD_IF_ERROR(row_prefix(m, r, -1, r->u));
  /* Step 2: column n - 1 computes the exclusive prefix E (in q) of its R values. */
  FORWARD_IF_ERROR(col_exclusive(m, r, -1, r->u, r->q));
  /* Step 3: OTIS the group totals E + R of (G, N-1) to (N-1, G). */
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_pos(m, p) == last) {
      wr(m, r->z, p, wadd(rd(m, r->q, p), rd(m, r->u, p)));
    }
  }
  FORWARD_IF_ERROR(otis_corner(m, r->z, r->out, 1));
  /* Step 4: group N - 1 computes the exclusive prefix of the totals (in z). */
  FORWARD_IF_ERROR(group_prefix(m, r, last, r->out, r->z, 1));
  otis_clear_reg(m, r->out);
  /* Step 5: OTIS back to (G, N-1). */
  FORWARD_IF_ERROR(otis_corner(m, r->z, r->out, 0));
  otis_clear_reg(m, r->z);
  /* Step 6: broadcast it up column n - 1. Step 7: add the exclusive row-total prefix E. */
  FORWARD_IF_ERROR(chain_copy(m, -1, r->out, 1));
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_py(m, p) == n - 1) {
      wr(m, r->out, p, wadd(rd(m, r->out, p), rd(m, r->q, p)));
    }
  }
  /* Step 8: broadcast along rows. Step 9: add R. */
  FORWARD_IF_ERROR(chain_copy(m, -1, r->out, 0));
  for (uint32_t p = 0; p < m->procs; p++) {
    wr(m, r->out, p, wadd(rd(m, r->out, p), rd(m, r->u, p)));
  }
  otis_clear_reg(m, r->u);
  otis_clear_reg(m, r->q);
  return PINET_OK;
}

/* The simple algorithm (8(n - 1) electronic, 2 OTIS). */
static pinet_status prefix_simple(pinet_otis *m, const pfx_set *r) {
  const uint32_t last = m->N - 1;
  /* Step 1: local prefix sums L (in u). */
  FORWARD_IF_ERROR(group_prefix(m, r, -1, r->v, r->u, 0));
  /* Step 2: OTIS L of (G, N-1). Step 3: exclusive prefix in group N - 1. Step 4: OTIS back. */
  for (uint32_t p = 0; p < m->procs; p++) {
    if (otis_pos(m, p) == last) {
      wr(m, r->z, p, rd(m, r->u, p));
    }
  }
  FORWARD_IF_ERROR(otis_corner(m, r->z, r->q, 1));
  FORWARD_IF_ERROR(group_prefix(m, r, last, r->q, r->z, 1));
  otis_clear_reg(m, r->q);
  FORWARD_IF_ERROR(otis_corner(m, r->z, r->out, 0));
  otis_clear_reg(m, r->z);
  /* Step 5: broadcast from processor N - 1 of every group (up, then left). Step 6: add. */
  FORWARD_IF_ERROR(chain_copy(m, -1, r->out, 1));
  FORWARD_IF_ERROR(chain_copy(m, -1, r->out, 0));
  for (uint32_t p = 0; p < m->procs; p++) {
    wr(m, r->out, p, wadd(rd(m, r->out, p), rd(m, r->u, p)));
  }
  otis_clear_reg(m, r->u);
  return PINET_OK;
}

static const pfx_set k_pfx = {V, OUT, U, Q, T, X, Y, Z};

pinet_status pinet_otis_prefix_sum(pinet_otis *m, const int64_t *in, int improved, int64_t *out) {
  RETURN_ERROR_IF(m == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(setup1(m));
  for (uint32_t p = 0; p < m->procs; p++) {
    wr(m, V, p, in[p]);
  }
  FORWARD_IF_ERROR(improved ? prefix_improved(m, &k_pfx) : prefix_simple(m, &k_pfx));
  for (uint32_t p = 0; p < m->procs; p++) {
    out[p] = rd(m, OUT, p);
  }
  return PINET_OK;
}

pinet_status pinet_otis_rank(pinet_otis *m, const uint8_t *selected, int64_t *rank) {
  RETURN_ERROR_IF(m == NULL || selected == NULL || rank == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(setup1(m));
  for (uint32_t p = 0; p < m->procs; p++) {
    wr(m, V, p, selected[p] ? 1 : 0);
  }
  FORWARD_IF_ERROR(prefix_improved(m, &k_pfx));
  for (uint32_t p = 0; p < m->procs; p++) {
    rank[p] = selected[p] ? rd(m, OUT, p) - 1 : -1;
  }
  return PINET_OK;
}

/* ---- data sum --------------------------------------------------------------------------------- */

/* Sum of register `a` of every group, first into the middle processor (c, c), c = n / 2, by
 * chains from both sides of each row and then of column c; then broadcast back. Result in a. */
static pinet_status group_sum(pinet_otis *m, uint32_t a) {
  const uint32_t n = m->n, c = n / 2;
  for (int axis = 0; axis < 2; axis++) {
    for (uint32_t t = 1; t < n; t++) {
      otis_ml_reset(m);
      for (uint32_t p = 0; p < m->procs; p++) {
        uint32_t along = axis == 0 ? otis_py(m, p) : otis_px(m, p);
        uint32_t across = axis == 0 ? otis_px(m, p) : otis_py(m, p);
        if (axis == 1 && across != c) {
          continue;
        }
        (void)across;
        if (along == t - 1 && along < c) {
          FORWARD_IF_ERROR(otis_ml_push(m, p, axis == 0 ? PINET_OTIS_RIGHT : PINET_OTIS_DOWN, a,
                                        T, 0));
        }
        if (along == n - t && along > c) {
          FORWARD_IF_ERROR(otis_ml_push(m, p, axis == 0 ? PINET_OTIS_LEFT : PINET_OTIS_UP, a, U,
                                        0));
        }
      }
      if (m->ml_len == 0) {
        break;
      }
      FORWARD_IF_ERROR(otis_ml_commit(m));
      for (uint32_t p = 0; p < m->procs; p++) {
        if (otis_has(m, T, p)) {
          wr(m, a, p, wadd(rd(m, a, p), rd(m, T, p)));
          otis_clear(m, T, p);
        }
        if (otis_has(m, U, p)) {
          wr(m, a, p, wadd(rd(m, a, p), rd(m, U, p)));
          otis_clear(m, U, p);
        }
      }
    }
  }
  /* (c, c) holds the group sum; broadcast it back along column c, then along rows. */
  otis_line_spec sc = {OTIS_AXIS_COL, a, X, MN, MP, span_all, NULL, OTIS_PARK_EXCLUSIVE, 0, 0, 0};
  FORWARD_IF_ERROR(otis_line_phase(m, &sc));
  otis_line_spec sr = {OTIS_AXIS_ROW, X, a, MN, MP, span_all, NULL, OTIS_PARK_EXCLUSIVE, 0, 0, 0};
  return otis_line_phase(m, &sr);
}

pinet_status pinet_otis_data_sum(pinet_otis *m, const int64_t *in, int64_t *out) {
  RETURN_ERROR_IF(m == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(setup1(m));
  for (uint32_t p = 0; p < m->procs; p++) {
    wr(m, V, p, in[p]);
  }
  /* Step 1: each group sums. Step 2: OTIS. Step 3: each group sums the N group sums. */
  FORWARD_IF_ERROR(group_sum(m, V));
  FORWARD_IF_ERROR(otis_otis_all(m, V, Q));
  FORWARD_IF_ERROR(group_sum(m, Q));
  for (uint32_t p = 0; p < m->procs; p++) {
    out[p] = rd(m, Q, p);
  }
  return PINET_OK;
}

/* ---- prefix for other files (rank inside RAR / RAW) ------------------------------------------- */

pinet_status otis_prefix_words(pinet_otis *m, uint32_t r_v, uint32_t r_out, const uint32_t tmp[6]) {
  const pfx_set r = {r_v, r_out, tmp[0], tmp[1], tmp[2], tmp[3], tmp[4], tmp[5]};
  return prefix_improved(m, &r);
}
