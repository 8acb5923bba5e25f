/* otis_sort.c - sorting into row-major order by Leighton's column sort (paper §2.13).
 *
 * The machine is read as an n x n^3 array: "column" j of Leighton's r x s matrix (r = n^3,
 * s = n; r >= 2(s - 1)^2 holds for every n >= 2) is the subarray Gx = j, and element i of it
 * sits at (Gx, Gy, Px, Py) = (j, i1, i0, i2) where i = i2 n^2 + i1 n + i0. With this layout the
 * transformation of Leighton's Step 2 is the BPC "OTIS move then transpose each group" and its
 * inverse "transpose then OTIS"; a third BPC takes the sorted matrix to row-major order.
 *
 *   1. sort every subarray          5. sort every subarray, even j ascending, odd j descending
 *   2. BPC T                        6. compare-exchange subarrays j, j+1 (both parities)
 *   3. sort every subarray          7. sort every subarray
 *   4. BPC T^-1                     8. BPC F
 *
 * Subarrays are sorted with Batcher's bitonic network on the 3h key bits (h = log2 n); a
 * compare-exchange along a Px or Py bit is an exchange between processors 2^b apart, along a
 * Gy bit the same between two OTIS moves. Step 6 is the alternating-order variant of Leighton's
 * last steps shown in the paper's Figure 4 (by the 0-1 principle: after Step 5 the unsorted
 * region spans at most two adjacent subarrays, which one bitonic split of the two fixes). */
#include <stdlib.h>
#include <string.h>

#include "otis_private.h"

typedef struct {
  uint32_t w, e, f, a, b, c, d; /* value, copy, partner, movers (a, b: w+2) , BPC scratch */
} sort_regs;

/* Leighton coordinates of the word at processor p (transposed: it came over an OTIS link). */
static void coords(const pinet_otis *m, uint32_t p, int transposed, uint32_t *j, uint32_t *i) {
  uint32_t g = otis_grp(m, p), q = otis_pos(m, p);
  if (transposed) {
    uint32_t t = g;
    g = q;
    q = t;
  }
  uint32_t n = m->n, gx = g / n, gy = g % n, px = q / n, py = q % n;
  *j = gx;
  *i = (py * n + gy) * n + px;
}

/* Exchange words of r->w between partners 2^bit apart along the axis (processors with
 * part[p] = 0 take no part) and let each keep min or max: keep_min[p] says which. The lower
 * partner's copy travels in r->e towards larger coordinates, the upper's in r->f towards smaller
 * ones, all in lockstep: 2^bit steps in MIMD, twice that in SIMD. */
static pinet_status exchange(pinet_otis *m, const sort_regs *r, otis_axis axis, uint32_t bit,
                             const uint8_t *part, const uint8_t *keep_min) {
  const pinet_otis_dir dneg = axis == OTIS_AXIS_ROW ? PINET_OTIS_LEFT : PINET_OTIS_UP;
  const pinet_otis_dir dpos = axis == OTIS_AXIS_ROW ? PINET_OTIS_RIGHT : PINET_OTIS_DOWN;
  const uint32_t d = 1u << bit;
  for (uint32_t p = 0; p < m->procs; p++) {
    if (part[p]) {
      uint32_t c = axis == OTIS_AXIS_ROW ? otis_py(m, p) : otis_px(m, p);
      otis_put(m, (c >> bit) & 1u ? r->f : r->e, p, otis_w(m, r->w, p));
    }
  }
  for (uint32_t t = 0; t < d; t++) {
    FORWARD_IF_ERROR(otis_step_chains(m, dneg, r->f, dpos, r->e));
  }
  for (uint32_t p = 0; p < m->procs; p++) {
    if (!part[p]) {
      continue;
    }
    uint32_t c = axis == OTIS_AXIS_ROW ? otis_py(m, p) : otis_px(m, p);
    uint32_t rr = (c >> bit) & 1u ? r->e : r->f; /* where the partner's word arrived */
    RETURN_ERROR_IF(!otis_has(m, rr, p), PINET_ERR_ILLEGAL_STATE);
    const int64_t *other = otis_w(m, rr, p);
    const int64_t *own = otis_w(m, r->w, p);
    int take = keep_min[p] ? other[0] < own[0] : other[0] > own[0];
    if (take) {
      otis_put(m, r->w, p, other);
    }
    otis_clear(m, rr, p);
  }
  return PINET_OK;
}

/* Bitonic sort of every subarray; desc_odd: odd subarrays sort descending. */
static pinet_status bitonic(pinet_otis *m, const sort_regs *r, int desc_odd, uint8_t *part,
                            uint8_t *keep_min) {
  const uint32_t h = m->h, K = 3 * h;
  for (uint32_t k = 1; k <= K; k++) {
    int transposed = 0;
    for (int32_t b = (int32_t)k - 1; b >= 0; b--) {
      int want_t = (uint32_t)b >= h && (uint32_t)b < 2 * h;
      if (want_t != transposed) {
        FORWARD_IF_ERROR(otis_otis_all(m, r->w, r->e));
        for (uint32_t p = 0; p < m->procs; p++) {
          FORWARD_IF_ERROR(otis_local_move(m, r->e, r->w, p));
        }
        transposed = want_t;
      }
      for (uint32_t p = 0; p < m->procs; p++) {
        uint32_t j, i;
        coords(m, p, transposed, &j, &i);
        int asc = ((i >> k) & 1u) == 0;
        if (desc_odd && (j & 1u)) {
          asc = !asc;
        }
        int lower = ((i >> b) & 1u) == 0;
        part[p] = 1;
        keep_min[p] = (uint8_t)(lower == asc);
      }
      otis_axis axis;
      uint32_t bit;
      if ((uint32_t)b < h) {
        axis = OTIS_AXIS_COL; /* i0 = Px */
        bit = (uint32_t)b;
      } else if ((uint32_t)b < 2 * h) {
        axis = OTIS_AXIS_ROW; /* i1 = Gy, a column coordinate after the OTIS move */
        bit = (uint32_t)b - h;
      } else {
        axis = OTIS_AXIS_ROW; /* i2 = Py */
        bit = (uint32_t)b - 2 * h;
      }
      FORWARD_IF_ERROR(exchange(m, r, axis, bit, part, keep_min));
    }
    if (transposed) {
      FORWARD_IF_ERROR(otis_otis_all(m, r->w, r->e));
      for (uint32_t p = 0; p < m->procs; p++) {
        FORWARD_IF_ERROR(otis_local_move(m, r->e, r->w, p));
      }
    }
  }
  return PINET_OK;
}

/* Step 6: compare-exchange subarray j with j + 1 at equal i, first even j, then odd j. After an
 * OTIS move subarray j is mesh row j of every group. */
static pinet_status merge_neighbours(pinet_otis *m, const sort_regs *r, uint8_t *part,
                                     uint8_t *keep_min) {
  FORWARD_IF_ERROR(otis_otis_all(m, r->w, r->e));
  for (uint32_t p = 0; p < m->procs; p++) {
    FORWARD_IF_ERROR(otis_local_move(m, r->e, r->w, p));
  }
  for (uint32_t parity = 0; parity < 2; parity++) {
    for (uint32_t p = 0; p < m->procs; p++) {
      uint32_t j = otis_px(m, p);
      uint32_t lowj = (j % 2 == parity) ? j : j - 1; /* the lower subarray of j's pair */
      int ok = (j % 2 == parity) ? j + 1 < m->n : j >= 1;
      part[p] = (uint8_t)ok;
      keep_min[p] = (uint8_t)(j == lowj);
    }
    /* Pairs (j, j+1) are one row apart: an exchange at distance 1 along the column, with the
     * pair's lower row playing the role of bit 0 = 0. */
    for (uint32_t p = 0; p < m->procs; p++) {
      if (part[p]) {
        otis_put(m, r->e, p, otis_w(m, r->w, p));
      }
    }
    otis_ml_reset(m);
    for (uint32_t p = 0; p < m->procs; p++) {
      if (part[p]) {
        FORWARD_IF_ERROR(otis_ml_push(m, p, keep_min[p] ? PINET_OTIS_DOWN : PINET_OTIS_UP, r->e,
                                      r->f, 0));
      }
    }
    FORWARD_IF_ERROR(otis_ml_commit(m));
    for (uint32_t p = 0; p < m->procs; p++) {
      if (!otis_has(m, r->f, p)) {
        continue;
      }
      const int64_t *other = otis_w(m, r->f, p);
      const int64_t *own = otis_w(m, r->w, p);
      if (keep_min[p] ? other[0] < own[0] : other[0] > own[0]) {
        otis_put(m, r->w, p, other);
      }
      otis_clear(m, r->f, p);
    }
  }
  FORWARD_IF_ERROR(otis_otis_all(m, r->w, r->e));
  for (uint32_t p = 0; p < m->procs; p++) {
    FORWARD_IF_ERROR(otis_local_move(m, r->e, r->w, p));
  }
  return PINET_OK;
}

/* The three BPC vectors (per source bit). Bits: Py [0, h), Px [h, 2h), Gy [2h, 3h), Gx [3h, 4h). */
static void make_bpc(const pinet_otis *m, int which, pinet_otis_bpc *v) {
  const uint32_t h = m->h;
  memset(v, 0, sizeof *v);
  v->bits = 4 * h;
  for (uint32_t b = 0; b < h; b++) {
    uint32_t py = b, px = h + b, gy = 2 * h + b, gx = 3 * h + b;
    if (which == 0) { /* T: Px -> Gx, Py -> Gy, Gy -> Px, Gx -> Py */
      v->dest_bit[px] = (uint8_t)gx;
      v->dest_bit[py] = (uint8_t)gy;
      v->dest_bit[gy] = (uint8_t)px;
      v->dest_bit[gx] = (uint8_t)py;
    } else if (which == 1) { /* T^-1 */
      v->dest_bit[gx] = (uint8_t)px;
      v->dest_bit[gy] = (uint8_t)py;
      v->dest_bit[px] = (uint8_t)gy;
      v->dest_bit[py] = (uint8_t)gx;
    } else { /* F: (j, i1, i0, i2) -> (j, i2, i1, i0) */
      v->dest_bit[gx] = (uint8_t)gx;
      v->dest_bit[py] = (uint8_t)gy;
      v->dest_bit[gy] = (uint8_t)px;
      v->dest_bit[px] = (uint8_t)py;
    }
  }
}

static pinet_status run_bpc(pinet_otis *m, const sort_regs *r, int which,
                            pinet_otis_counts *acc) {
  pinet_otis_bpc v;
  make_bpc(m, which, &v);
  pinet_otis_counts before = m->counts;
  FORWARD_IF_ERROR(otis_bpc_words(m, &v, r->w, r->a, r->b, r->c, r->d));
  acc->electronic += m->counts.electronic - before.electronic;
  acc->otis += m->counts.otis - before.otis;
  acc->words += m->counts.words - before.words;
  return PINET_OK;
}

pinet_status otis_sort_words(pinet_otis *m, uint32_t r_w, uint32_t r_e, uint32_t r_f,
                             uint32_t r_a, uint32_t r_b, uint32_t r_c, uint32_t r_d,
                             pinet_otis_counts *bpc_counts) {
  for (uint32_t p = 0; p < m->procs; p++) {
    RETURN_ERROR_IF(!otis_has(m, r_w, p), PINET_ERR_ILLEGAL_STATE);
  }
  const sort_regs r = {r_w, r_e, r_f, r_a, r_b, r_c, r_d};
  pinet_otis_counts acc = {0, 0, 0};
  uint8_t *part = calloc(m->procs, 1), *keep_min = calloc(m->procs, 1);
  pinet_status st = (part && keep_min) ? PINET_OK : PINET_ERR_NOMEM;
  if (st == PINET_OK) st = bitonic(m, &r, 0, part, keep_min);
  if (st == PINET_OK) st = run_bpc(m, &r, 0, &acc);
  if (st == PINET_OK) st = bitonic(m, &r, 0, part, keep_min);
  if (st == PINET_OK) st = run_bpc(m, &r, 1, &acc);
  if (st == PINET_OK) st = bitonic(m, &r, 1, part, keep_min);
  if (st == PINET_OK) st = merge_neighbours(m, &r, part, keep_min);
  if (st == PINET_OK) st = bitonic(m, &r, 0, part, keep_min);
  if (st == PINET_OK) st = run_bpc(m, &r, 2, &acc);
  free(part);
  free(keep_min);
  if (st == PINET_OK && bpc_counts != NULL) {
    *bpc_counts = acc;
  }
  return st;
}

pinet_status pinet_otis_sort(pinet_otis *m, const int64_t *in, int64_t *out,
                             pinet_otis_counts *bpc_counts) {
  RETURN_ERROR_IF(m == NULL || in == NULL || out == NULL, PINET_ERR_NULL);
  const uint32_t widths[7] = {1, 1, 1, 3, 3, 5, 5};
  FORWARD_IF_ERROR(otis_setup(m, 7, widths));
  for (uint32_t p = 0; p < m->procs; p++) {
    otis_put(m, 0, p, &in[p]);
  }
  FORWARD_IF_ERROR(otis_sort_words(m, 0, 1, 2, 3, 4, 5, 6, bpc_counts));
  for (uint32_t p = 0; p < m->procs; p++) {
    out[p] = otis_w(m, 0, p)[0];
  }
  return PINET_OK;
}
