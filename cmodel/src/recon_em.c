/* recon_em.c - Shepp-Vardi EM (steps S1-S4 as separate kernels), its log-likelihood, OSEM and
 * the fixed-point variants of the summed terms (pinet/recon.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/recon.h"
#include "recon_simd.h"

void pinet_em_sensitivity(const pinet_csr *by_box, double *sens) {
  for (uint32_t b = 0; b < by_box->rows; b++) {
    double s = 0.0;
    for (uint64_t e = by_box->ptr[b]; e < by_box->ptr[b + 1]; e++) s += by_box->val[e];
    sens[b] = s;
  }
}

/* sum_{e in [e0, e1)} val[e] * x[idx[e]] with four partial sums (the adds do not wait on each
 * other), combined as (s0 + s1) + (s2 + s3). */
static double row_dot(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                      const double *x) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
  uint64_t e = e0;
  for (; e + 4 <= e1; e += 4) {
    s0 += (double)val[e] * x[idx[e]];
    s1 += (double)val[e + 1] * x[idx[e + 1]];
    s2 += (double)val[e + 2] * x[idx[e + 2]];
    s3 += (double)val[e + 3] * x[idx[e + 3]];
  }
  for (; e < e1; e++) s0 += (double)val[e] * x[idx[e]];
  return (s0 + s1) + (s2 + s3);
}

void pinet_em_s1(const pinet_csr *by_tube, const double *lambda, double *nbar) {
  for (uint32_t t = 0; t < by_tube->rows; t++) {
    nbar[t] = row_dot(by_tube->idx, by_tube->val, by_tube->ptr[t], by_tube->ptr[t + 1], lambda);
  }
}

void pinet_em_s1_entries(const pinet_csr *by_box, uint32_t box0, uint64_t e0, uint64_t e1,
                         const double *lambda, double *nbar) {
  uint32_t b = box0;
  for (uint64_t e = e0; e < e1;) {
    while (by_box->ptr[b + 1] <= e) b++;
    uint64_t end = by_box->ptr[b + 1] < e1 ? by_box->ptr[b + 1] : e1;
    const double lb = lambda[b];
    for (; e < end; e++) nbar[by_box->idx[e]] += (double)by_box->val[e] * lb;
  }
}

void pinet_em_s123_by_tube(const pinet_csr *by_tube, const double *counts, const double *lambda,
                           double *nbar, double *ratio, double *d) {
  const uint32_t *idx = by_tube->idx;
  const float *val = by_tube->val;
  for (uint32_t t = 0; t < by_tube->rows; t++) {
    const uint64_t e0 = by_tube->ptr[t], e1 = by_tube->ptr[t + 1];
    const double nb = row_dot(idx, val, e0, e1, lambda);
    const double r = nb > 0.0 ? counts[t] / nb : 0.0;
    nbar[t] = nb;
    ratio[t] = r;
    if (r == 0.0) continue;
    for (uint64_t e = e0; e < e1; e++) d[idx[e]] += (double)val[e] * r; /* the row is in cache */
  }
}

/* The fused sweep with 16-bit column indices (the forward projection by the object's kernel:
 * the same sums on every ISA). */
static void s123_idx16(const pinet_csr *bt, const uint16_t *idx, const double *counts,
                       const double *lambda, const pinet_simd_kernels *kern, double *nbar,
                       double *ratio, double *d) {
  const float *val = bt->val;
  for (uint32_t t = 0; t < bt->rows; t++) {
    const uint64_t e0 = bt->ptr[t], e1 = bt->ptr[t + 1];
    uint64_t e;
    const double nb = kern->dot16(idx, val, e0, e1, lambda);
    const double r = nb > 0.0 ? counts[t] / nb : 0.0;
    nbar[t] = nb;
    ratio[t] = r;
    if (r == 0.0) continue;
    for (e = e0; e + 4 <= e1; e += 4) { /* four independent read-modify-writes per step */
      const uint16_t j0 = idx[e], j1 = idx[e + 1], j2 = idx[e + 2], j3 = idx[e + 3];
      const double p0 = (double)val[e] * r, p1 = (double)val[e + 1] * r;
      const double p2 = (double)val[e + 2] * r, p3 = (double)val[e + 3] * r;
      d[j0] += p0;
      d[j1] += p1;
      d[j2] += p2;
      d[j3] += p3;
    }
    for (; e < e1; e++) d[idx[e]] += (double)val[e] * r;
  }
}

/* ---- the square's symmetries ----------------------------------------------------------------------
 * A parallel-beam matrix over a square grid (and a disk of boxes) is invariant under the 8
 * symmetries g of the square: the row of tube g(t) is the row of t with every box b moved to g(b)
 * and the same lengths. Where that holds bit for bit (checked when the EM object is made, never
 * assumed), one representative row serves its whole orbit. With lam8(b, g) = lambda(g(b)):
 *   S1  nbar(g(t)) = sum_e p_e lam8(b_e, g), eight tubes per pass over the row (8 contiguous
 *       doubles per entry: no gather), and r8(o, g) = n / nbar for the orbit o of t;
 *   S3  by box, over the same entries sorted by box: D(b, g) = sum_e p_e r8(o_e, g) in registers,
 *       into lam8's row of b (lam8 is not read again before the new image replaces it; a lane
 *       with no g(b) keeps its D, read only by idle lanes, whose count 0 makes the ratio 0);
 *   S4  per box y: d(y) += D(b, g) over the lanes with g(b) = y (the inverse lists), as
 *       pinet_em_s4, and the new lambda(y) written back into those same lanes: lam8 is ready for
 *       the next S1 in the same pass (no gather of the image).
 * The order of the work is chosen for the caches and changes no sum:
 *   - S1 sweeps the orbits by their rays' offset from the centre, then angle: rays of one offset
 *     a view apart cross nearly the same boxes, so most of their rows are still in L1 (in tube
 *     order, neighbouring offsets, which share no boxes, follow each other);
 *   - S4 goes through the boxes by groups of symmetric images (sym_s4_order), whose eight-lane
 *     rows hold one another's D: each row comes into L1 once, not once per lane, and a group of
 *     eight is one kernel call (one permute per row each way, not 64 indexed lanes);
 *   - S3's entries of a box stay in the order the orbits were found, and S4 adds in a fixed
 *     order, so the numbers do not depend on either order (or on the threads).
 * The products are the plain sweep's; only the order of the sums differs. A tube whose images
 * are not exact (rows cut by the grid's edge, lengths that differ in the last bit, repeats of the
 * tube itself) leaves an idle lane (count 0, so ratio 0); a tube with no exact image at all runs
 * through the plain fused sweep, from a compact copy of its row. */

#define SYM_LANES 8u
#define SYM_NONE UINT32_MAX
#define SYM_PERM (2u * SYM_LANES * SYM_LANES) /* a full group's lane indices (s4group) */

typedef struct em_sym {
  uint32_t tubes, boxes, orbits, n_exc;
  uint64_t nnz, exc_nnz;
  uint64_t *ptr;     /* by orbit: orbits + 1 */
  uint32_t *off;     /* 8 * box of each entry */
  float *val;        /* its length (the matrix's float; the kernels widen it exactly) */
  uint64_t *bptr;    /* by box: boxes + 1 */
  uint32_t *borb;    /* 8 * orbit of each entry */
  float *bval;
  uint32_t *tube;    /* orbits * 8: the tube of each lane; `tubes` (a scratch index) if idle */
  double *counts8;   /* orbits * 8: its count (0 if idle) */
  uint32_t *exc;     /* tubes in no orbit, their rows copied: */
  uint64_t *exc_ptr; /* n_exc + 1 */
  uint32_t *exc_idx; /* box */
  float *exc_val;
  double *lam8;      /* boxes * 8, 64-byte aligned; D(b, g) between S3 and S4 */
  double *r8;        /* orbits * 8, 64-byte aligned */
  uint32_t *s4_box;  /* boxes: S4's order of the boxes, the first 8 * groups in full groups */
  uint32_t *s4_pos;  /* boxes: each box's place in that order */
  double *sens4;     /* boxes: s(b) in S4's order */
  double *d4;        /* boxes: d(b) in S4's order (the symmetric sweep's S3 sums) */
  uint32_t groups;
  uint8_t *gperm;    /* SYM_PERM per full group: its lane indices (pinet_simd_s4group) */
  uint64_t *inv_ptr; /* boxes + 1: per box y in S4's order, */
  uint32_t *inv_src; /* the lanes 8 b + g with g(b) = y, increasing (the order S4 adds them in) */
} em_sym;

static void sym_free(em_sym *s) {
  if (s == NULL) return;
  free(s->ptr);
  free(s->off);
  free(s->val);
  free(s->bptr);
  free(s->borb);
  free(s->bval);
  free(s->tube);
  free(s->counts8);
  free(s->exc);
  free(s->exc_ptr);
  free(s->exc_idx);
  free(s->exc_val);
  free(s->lam8);
  free(s->r8);
  free(s->s4_box);
  free(s->s4_pos);
  free(s->sens4);
  free(s->d4);
  free(s->gperm);
  free(s->inv_ptr);
  free(s->inv_src);
  free(s);
}

static uint64_t row_hash(const uint32_t *idx, uint64_t n) {
  uint64_t h = 0x9e3779b97f4a7c15u ^ n;
  for (uint64_t k = 0; k < n; k++) {
    h ^= idx[k];
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 29;
  }
  return h;
}

/* Insertion sort by index (the image of a sorted row is nearly sorted or nearly reversed). */
static void sort_pairs(uint32_t *idx, float *val, uint64_t n) {
  if (n > 1 && idx[0] > idx[n - 1]) {
    for (uint64_t i = 0, j = n - 1; i < j; i++, j--) {
      uint32_t ti = idx[i];
      idx[i] = idx[j];
      idx[j] = ti;
      float tv = val[i];
      val[i] = val[j];
      val[j] = tv;
    }
  }
  for (uint64_t i = 1; i < n; i++) {
    uint32_t ki = idx[i];
    float kv = val[i];
    uint64_t j = i;
    while (j > 0 && idx[j - 1] > ki) {
      idx[j] = idx[j - 1];
      val[j] = val[j - 1];
      j--;
    }
    idx[j] = ki;
    val[j] = kv;
  }
}

/* Box maps of the 8 symmetries about the centre cc / 2 (pixel coordinates): g & 4 transposes, then
 * g & 1 mirrors the row, g & 2 the column. gmap[8 b + g] = g(b) or -1. */
static void sym_box_maps(const pinet_sysmat *m, uint32_t cc, const int32_t *pixel_box,
                         int32_t *gmap) {
  const uint32_t n = pinet_sysmat_size(m), boxes = pinet_sysmat_boxes(m);
  const uint32_t *bp = pinet_sysmat_box_pixel(m);
  for (uint32_t b = 0; b < boxes; b++) {
    for (uint32_t g = 0; g < SYM_LANES; g++) {
      int64_t r = bp[b] / n, c = bp[b] % n;
      if (g & 4u) {
        int64_t x = r;
        r = c;
        c = x;
      }
      if (g & 1u) r = (int64_t)cc - r;
      if (g & 2u) c = (int64_t)cc - c;
      gmap[(size_t)b * SYM_LANES + g] =
          (r >= 0 && c >= 0 && r < n && c < n) ? pixel_box[(size_t)r * n + (size_t)c] : -1;
    }
  }
}

/* The tubes of t's orbit: lane[g] = the tube whose row is t's with every box b moved to g(b),
 * exactly (SYM_NONE: none, an idle lane), each marked 2 in covered; returns the number of lanes
 * in use (t's own counts). ti, tv: scratch for a row. */
static uint32_t orbit_lanes(const pinet_csr *bt, const int32_t *gmap, const uint64_t *hash,
                            const uint32_t *table, size_t tsize, uint32_t t, uint8_t *covered,
                            uint32_t *ti, float *tv, uint32_t *lane) {
  const uint64_t e0 = bt->ptr[t], len = bt->ptr[t + 1] - e0;
  uint32_t active = 1;
  for (uint32_t g = 0; g < SYM_LANES; g++) lane[g] = SYM_NONE;
  lane[0] = t;
  covered[t] = 2; /* 2: a lane of the orbit being built */
  for (uint32_t g = 1; g < SYM_LANES; g++) {
    int ok = 1;
    for (uint64_t k = 0; k < len && ok; k++) {
      const int32_t x = gmap[(size_t)bt->idx[e0 + k] * SYM_LANES + g];
      if (x < 0) ok = 0; /* the image leaves the box set: an idle lane */
      ti[k] = (uint32_t)x;
      tv[k] = bt->val[e0 + k];
    }
    if (!ok) continue;
    sort_pairs(ti, tv, len);
    const uint64_t h = row_hash(ti, len);
    for (size_t k = (size_t)h & (tsize - 1); table[k] != SYM_NONE; k = (k + 1) & (tsize - 1)) {
      const uint32_t u = table[k];
      if (hash[u] != h || covered[u] != 0 || bt->ptr[u + 1] - bt->ptr[u] != len) continue;
      if (memcmp(bt->idx + bt->ptr[u], ti, len * sizeof *ti) != 0 ||
          memcmp(bt->val + bt->ptr[u], tv, len * sizeof *tv) != 0) continue;
      lane[g] = u; /* no fresh match (a repeat of t, a last-bit difference): an idle lane */
      covered[u] = 2;
      active++;
      break;
    }
  }
  return active;
}

/* How often t's row steps to a box that is not the next one: the sweeps read the eight-lane rows
 * of its boxes in this order, so a row along the grid's rows reads memory nearly in sequence. */
static uint64_t row_jumps(const pinet_csr *bt, uint32_t t) {
  uint64_t jumps = 0;
  for (uint64_t e = bt->ptr[t] + 1; e < bt->ptr[t + 1]; e++) jumps += bt->idx[e] != bt->idx[e - 1] + 1;
  return jumps;
}

/* An orbit's place in S1's sweep: its representative ray's offset from the centre in whole boxes,
 * then its angle (the reverse way on odd offsets, so the sweep turns back instead of jumping),
 * estimated from the row alone: the length-weighted centroid of its boxes lies on the ray, and
 * its first and last boxes (the row is by box, so the top and bottom ends) give the direction. */
typedef struct sweep_key {
  int64_t offset;
  double angle;
  uint32_t found; /* the orbit's number in the order found (ties: any fixed order will do) */
} sweep_key;

static sweep_key orbit_sweep_key(const pinet_csr *bt, const uint32_t *box_pixel, uint32_t n,
                                 double centre, uint32_t t, uint32_t found) {
  const uint64_t e0 = bt->ptr[t], e1 = bt->ptr[t + 1];
  double w = 0.0, r = 0.0, c = 0.0;
  for (uint64_t e = e0; e < e1; e++) {
    w += bt->val[e];
    r += bt->val[e] * (double)(box_pixel[bt->idx[e]] / n);
    c += bt->val[e] * (double)(box_pixel[bt->idx[e]] % n);
  }
  const uint32_t p0 = box_pixel[bt->idx[e0]], p1 = box_pixel[bt->idx[e1 - 1]];
  const double dr = (double)(p1 / n) - (double)(p0 / n), dc = (double)(p1 % n) - (double)(p0 % n);
  const double len = sqrt(dr * dr + dc * dc);
  sweep_key k = {0, 0.0, found};
  if (w > 0.0 && len > 0.0) {
    k.offset = (int64_t)floor(((c / w - centre) * dr - (r / w - centre) * dc) / len + 0.5);
    k.angle = atan2(dr, dc); /* [0, pi): the first box is the upper one */
  }
  if (k.offset & 1) k.angle = -k.angle;
  return k;
}

static int sweep_key_cmp(const void *pa, const void *pb) {
  const sweep_key *a = pa, *b = pb;
  if (a->offset != b->offset) return a->offset < b->offset ? -1 : 1;
  if (a->angle != b->angle) return a->angle < b->angle ? -1 : 1;
  return a->found < b->found ? -1 : a->found > b->found;
}

/* The group of b's symmetric images among the boxes not yet placed (pos[c] == SYM_NONE), b
 * first (the smallest of them), sorted; marks them placed. Returns its size (1 .. 8). */
static uint32_t sym_group(const int32_t *gmap, uint32_t b, uint32_t *pos, uint32_t *group) {
  uint32_t m = 0;
  group[m++] = b;
  pos[b] = 0;
  for (uint32_t g = 0; g < SYM_LANES; g++) {
    const int32_t c = gmap[(size_t)b * SYM_LANES + g];
    if (c < 0 || pos[c] != SYM_NONE) continue;
    uint32_t j = m;
    while (j > 0 && group[j - 1] > (uint32_t)c) j--;
    memmove(group + j + 1, group + j, (m - j) * sizeof *group);
    group[j] = (uint32_t)c;
    pos[c] = 0;
    m++;
  }
  return m;
}

/* Whether the eight boxes of group hold one another's lanes, each row one lane for each box (so
 * for a group of eight from sym_box_maps' exact maps; checked, not assumed), and if so the lane
 * indices pinet_simd_s4group takes (perm: SYM_PERM). */
static int sym_group_full(const int32_t *gmap, const uint32_t *group, uint8_t *perm) {
  for (uint32_t i = 0; i < SYM_LANES; i++) {
    uint32_t seen = 0;
    for (uint32_t g = 0; g < SYM_LANES; g++) {
      const int32_t y = gmap[(size_t)group[i] * SYM_LANES + g];
      uint32_t j = 0;
      while (j < SYM_LANES && (y < 0 || group[j] != (uint32_t)y)) j++;
      if (j == SYM_LANES || (seen >> j & 1u)) return 0;
      seen |= 1u << j;
      perm[SYM_LANES * i + j] = (uint8_t)g;
      perm[SYM_PERM / 2 + SYM_LANES * i + g] = (uint8_t)j;
    }
  }
  return 1;
}

/* S4's order of the boxes: the full groups first (eight boxes that are one another's symmetric
 * images, sym_group_full: S4 takes them eight at a time, pinet_simd_s4group), then every other
 * box next to its images; groups in order of their first box. Either way a group's boxes are
 * summed from the lanes of the group's own rows, which then stay in L1. gmap: as sym_box_maps;
 * order[pos[b]] = b. Sets s->s4_box, s->groups, s->gperm. PINET_ERR_NOMEM. */
static pinet_status sym_s4_order(em_sym *s, const int32_t *gmap, uint32_t *pos) {
  const uint32_t boxes = s->boxes;
  uint32_t group[SYM_LANES], full = 0;
  uint8_t perm[SYM_PERM];
  for (int pass = 0; pass < 2; pass++) { /* count, then place */
    for (uint32_t b = 0; b < boxes; b++) pos[b] = SYM_NONE;
    uint32_t at_full = 0, at_rest = SYM_LANES * full;
    for (uint32_t b = 0; b < boxes; b++) {
      if (pos[b] != SYM_NONE) continue;
      const uint32_t m = sym_group(gmap, b, pos, group);
      const int is_full = m == SYM_LANES && sym_group_full(gmap, group, perm);
      if (pass == 0) {
        full += (uint32_t)is_full;
        continue;
      }
      uint32_t *at = is_full ? &at_full : &at_rest;
      if (is_full) memcpy(s->gperm + (size_t)(at_full / SYM_LANES) * SYM_PERM, perm, SYM_PERM);
      for (uint32_t j = 0; j < m; j++) {
        pos[group[j]] = *at;
        s->s4_box[(*at)++] = group[j];
      }
    }
    if (pass == 0) {
      s->groups = full;
      s->gperm = malloc((full ? full : 1) * (size_t)SYM_PERM);
      if (s->gperm == NULL) return PINET_ERR_NOMEM;
    }
  }
  return PINET_OK;
}

/* The inverse of gmap: per box y in S4's order (pos[y], as sym_s4_order), the lanes 8 b + g with
 * g(b) = y, increasing (inv_ptr, inv_src). PINET_ERR_NOMEM. */
static pinet_status sym_inverse(em_sym *s, const int32_t *gmap, const uint32_t *pos) {
  const size_t slots = (size_t)s->boxes * SYM_LANES;
  s->inv_ptr = calloc((size_t)s->boxes + 1, sizeof *s->inv_ptr);
  s->inv_src = malloc((slots ? slots : 1) * sizeof *s->inv_src);
  if (s->inv_ptr == NULL || s->inv_src == NULL) return PINET_ERR_NOMEM;
  for (size_t k = 0; k < slots; k++) {
    if (gmap[k] >= 0) s->inv_ptr[pos[gmap[k]] + 1]++;
  }
  for (uint32_t i = 0; i < s->boxes; i++) s->inv_ptr[i + 1] += s->inv_ptr[i];
  for (size_t k = 0; k < slots; k++) { /* k increasing: each list comes out sorted */
    if (gmap[k] >= 0) s->inv_src[s->inv_ptr[pos[gmap[k]]]++] = (uint32_t)k;
  }
  for (uint32_t i = s->boxes; i > 0; i--) s->inv_ptr[i] = s->inv_ptr[i - 1];
  s->inv_ptr[0] = 0;
  return PINET_OK;
}

/* Find the orbits (greedily, in tube order). *out stays NULL when fewer than half the tubes are in
 * exact orbits. Errors: PINET_ERR_NOMEM. */
static pinet_status sym_build(const pinet_sysmat *m, const double *counts, const double *sens,
                               em_sym **out) {
  *out = NULL;
  const pinet_csr bt = pinet_sysmat_by_tube(m);
  const uint32_t n = pinet_sysmat_size(m), boxes = bt.cols, tubes = bt.rows;
  const uint32_t *bp = pinet_sysmat_box_pixel(m);
  if (tubes < 2 * SYM_LANES || tubes == UINT32_MAX || boxes == 0 ||
      (uint64_t)boxes * SYM_LANES > INT32_MAX || (uint64_t)tubes * SYM_LANES > UINT32_MAX) {
    return PINET_OK;
  }
  uint64_t maxrow = 0;
  for (uint32_t t = 0; t < tubes; t++) {
    if (bt.ptr[t + 1] - bt.ptr[t] > maxrow) maxrow = bt.ptr[t + 1] - bt.ptr[t];
  }
  size_t tsize = 16;
  while (tsize < 2 * (size_t)tubes) tsize *= 2;
  em_sym *s = calloc(1, sizeof *s);
  int32_t *pixel_box = malloc((size_t)n * n * sizeof *pixel_box);
  uint32_t best_cc = n;    /* twice the centre of the symmetries */
  sweep_key *sweep = NULL; /* S1's order of the orbits */
  int32_t *gmap = malloc((size_t)boxes * SYM_LANES * sizeof *gmap);
  uint64_t *hash = malloc((size_t)tubes * sizeof *hash);
  uint32_t *table = malloc(tsize * sizeof *table);
  uint8_t *covered = calloc(tubes, 1);
  uint32_t *ti = malloc((maxrow ? maxrow : 1) * sizeof *ti);
  float *tv = malloc((maxrow ? maxrow : 1) * sizeof *tv);
  uint32_t *lanes = malloc((size_t)tubes * SYM_LANES * sizeof *lanes); /* at most tubes orbits */
  uint32_t *reps = malloc((size_t)tubes * sizeof *reps);
  pinet_status st = PINET_ERR_NOMEM;
  if (s == NULL || pixel_box == NULL || gmap == NULL || hash == NULL || table == NULL ||
      covered == NULL || ti == NULL || tv == NULL || lanes == NULL || reps == NULL) goto done;
  s->exc = malloc((size_t)tubes * sizeof *s->exc);
  if (s->exc == NULL) goto done;
  for (size_t p = 0; p < (size_t)n * n; p++) pixel_box[p] = -1;
  for (uint32_t b = 0; b < boxes; b++) pixel_box[bp[b]] = (int32_t)b;
  { /* the centre: the mirror (2 c0 = n or n - 1) that keeps more boxes inside the set */
    uint32_t best = 0;
    for (uint32_t cc = n - 1; cc <= n; cc++) {
      uint32_t kept = 0;
      for (uint32_t b = 0; b < boxes; b++) {
        int64_t r = (int64_t)cc - bp[b] / n, c = (int64_t)cc - bp[b] % n;
        kept += r >= 0 && c >= 0 && r < n && c < n && pixel_box[(size_t)r * n + (size_t)c] >= 0;
      }
      if (kept > best) {
        best = kept;
        best_cc = cc;
      }
    }
    sym_box_maps(m, best_cc, pixel_box, gmap);
  }
  for (size_t k = 0; k < tsize; k++) table[k] = SYM_NONE;
  for (uint32_t t = 0; t < tubes; t++) {
    hash[t] = row_hash(bt.idx + bt.ptr[t], bt.ptr[t + 1] - bt.ptr[t]);
    size_t k = (size_t)hash[t] & (tsize - 1);
    while (table[k] != SYM_NONE) k = (k + 1) & (tsize - 1);
    table[k] = t;
  }
  uint32_t orbits = 0, n_exc = 0;
  uint64_t nnz = 0, exc_nnz = 0, covered_tubes = 0;
  for (uint32_t t = 0; t < tubes; t++) {
    if (covered[t]) continue;
    uint32_t *lane = lanes + (size_t)orbits * SYM_LANES;
    uint32_t rep = t, active = orbit_lanes(&bt, gmap, hash, table, tsize, t, covered, ti, tv, lane);
    if (active >= 2) { /* represented by the lane whose row reads the boxes most nearly in order */
      uint32_t best = t;
      uint64_t best_jumps = row_jumps(&bt, t);
      for (uint32_t g = 1; g < SYM_LANES; g++) {
        if (lane[g] == SYM_NONE) continue;
        const uint64_t jumps = row_jumps(&bt, lane[g]);
        if (jumps < best_jumps) {
          best = lane[g];
          best_jumps = jumps;
        }
      }
      if (best != t) { /* the same orbit seen from best (exact images are mutual) */
        uint32_t keep[SYM_LANES];
        memcpy(keep, lane, sizeof keep);
        for (uint32_t g = 0; g < SYM_LANES; g++) {
          if (lane[g] != SYM_NONE) covered[lane[g]] = 0;
        }
        const uint32_t again = orbit_lanes(&bt, gmap, hash, table, tsize, best, covered, ti, tv, lane);
        if (again == active) {
          rep = best;
        } else { /* not expected; t's orbit as found first */
          for (uint32_t g = 0; g < SYM_LANES; g++) {
            if (lane[g] != SYM_NONE) covered[lane[g]] = 0;
            if (keep[g] != SYM_NONE) covered[keep[g]] = 2;
          }
          memcpy(lane, keep, sizeof keep);
        }
      }
    }
    const uint64_t len = bt.ptr[rep + 1] - bt.ptr[rep];
    if (active >= 2) { /* an orbit: its idle lanes have count 0, so ratio 0 */
      for (uint32_t g = 0; g < SYM_LANES; g++) {
        if (lane[g] != SYM_NONE) covered[lane[g]] = 1;
      }
      covered_tubes += active;
      reps[orbits++] = rep;
      nnz += len;
    } else { /* t alone: the plain sweep */
      covered[t] = 1;
      s->exc[n_exc++] = t;
      exc_nnz += len;
    }
  }
  if (covered_tubes < (uint64_t)tubes / 2) { /* not worth it */
    st = PINET_OK;
    goto done;
  }
  sweep = malloc((orbits ? orbits : 1) * sizeof *sweep);
  s->s4_pos = malloc((size_t)boxes * sizeof *s->s4_pos);
  s->s4_box = malloc((size_t)boxes * sizeof *s->s4_box);
  s->sens4 = malloc((size_t)boxes * sizeof *s->sens4);
  s->d4 = malloc((size_t)boxes * sizeof *s->d4);
  if (sweep == NULL || s->s4_pos == NULL || s->s4_box == NULL || s->sens4 == NULL ||
      s->d4 == NULL) {
    goto done;
  }
  for (uint32_t i = 0; i < orbits; i++) {
    sweep[i] = orbit_sweep_key(&bt, bp, n, best_cc / 2.0, reps[i], i);
  }
  qsort(sweep, orbits, sizeof *sweep, sweep_key_cmp);
  s->tubes = tubes;
  s->boxes = boxes;
  s->orbits = orbits;
  s->n_exc = n_exc;
  s->nnz = nnz;
  s->exc_nnz = exc_nnz;
  const size_t on = orbits ? orbits : 1, en = nnz ? nnz : 1;
  s->ptr = malloc((on + 1) * sizeof *s->ptr);
  s->off = malloc(en * sizeof *s->off);
  s->val = malloc(en * sizeof *s->val);
  s->bptr = calloc((size_t)boxes + 1, sizeof *s->bptr);
  s->borb = malloc(en * sizeof *s->borb);
  s->bval = malloc(en * sizeof *s->bval);
  s->tube = malloc(on * SYM_LANES * sizeof *s->tube);
  s->counts8 = malloc(on * SYM_LANES * sizeof *s->counts8);
  s->exc_ptr = malloc(((size_t)n_exc + 1) * sizeof *s->exc_ptr);
  s->exc_idx = malloc((exc_nnz ? exc_nnz : 1) * sizeof *s->exc_idx);
  s->exc_val = malloc((exc_nnz ? exc_nnz : 1) * sizeof *s->exc_val);
  s->lam8 = aligned_alloc(64, (size_t)boxes * SYM_LANES * sizeof(double)); /* multiples of 64 */
  s->r8 = aligned_alloc(64, on * SYM_LANES * sizeof(double));
  if (s->ptr == NULL || s->off == NULL || s->val == NULL || s->bptr == NULL || s->borb == NULL ||
      s->bval == NULL || s->tube == NULL || s->counts8 == NULL || s->exc_ptr == NULL ||
      s->exc_idx == NULL || s->exc_val == NULL || s->lam8 == NULL || s->r8 == NULL) goto done;
  memset(s->r8, 0, on * SYM_LANES * sizeof(double));
  memset(s->lam8, 0, (size_t)boxes * SYM_LANES * sizeof(double));
  s->ptr[0] = 0;
  for (uint32_t o = 0; o < orbits; o++) { /* orbit o: the one found sweep[o].found-th */
    const uint32_t i = sweep[o].found, t = reps[i];
    uint64_t q = s->ptr[o];
    for (uint64_t e = bt.ptr[t]; e < bt.ptr[t + 1]; e++, q++) {
      s->off[q] = bt.idx[e] * SYM_LANES;
      s->val[q] = bt.val[e];
      s->bptr[bt.idx[e] + 1]++;
    }
    s->ptr[o + 1] = q;
    for (uint32_t g = 0; g < SYM_LANES; g++) {
      const uint32_t u = lanes[(size_t)i * SYM_LANES + g];
      s->tube[(size_t)o * SYM_LANES + g] = u == SYM_NONE ? tubes : u;
      s->counts8[(size_t)o * SYM_LANES + g] = u == SYM_NONE ? 0.0 : counts[u];
    }
  }
  for (uint32_t b = 0; b < boxes; b++) s->bptr[b + 1] += s->bptr[b];
  for (uint32_t o = 0; o < orbits; o++) reps[sweep[o].found] = o; /* reps: found -> swept */
  for (uint32_t i = 0; i < orbits; i++) { /* by box, orbits in the order found within each box */
    const uint32_t o = reps[i];
    for (uint64_t q = s->ptr[o]; q < s->ptr[o + 1]; q++) {
      const uint64_t dst = s->bptr[s->off[q] / SYM_LANES]++;
      s->borb[dst] = o * SYM_LANES;
      s->bval[dst] = s->val[q];
    }
  }
  for (uint32_t b = boxes; b > 0; b--) s->bptr[b] = s->bptr[b - 1];
  s->bptr[0] = 0;
  s->exc_ptr[0] = 0;
  for (uint32_t k = 0; k < n_exc; k++) {
    const uint32_t t = s->exc[k];
    const uint64_t len = bt.ptr[t + 1] - bt.ptr[t];
    memcpy(s->exc_idx + s->exc_ptr[k], bt.idx + bt.ptr[t], len * sizeof *s->exc_idx);
    memcpy(s->exc_val + s->exc_ptr[k], bt.val + bt.ptr[t], len * sizeof *s->exc_val);
    s->exc_ptr[k + 1] = s->exc_ptr[k] + len;
  }
  if (sym_s4_order(s, gmap, s->s4_pos) != PINET_OK ||
      sym_inverse(s, gmap, s->s4_pos) != PINET_OK) {
    goto done;
  }
  for (uint32_t i = 0; i < boxes; i++) s->sens4[i] = sens[s->s4_box[i]];
  *out = s;
  s = NULL;
  st = PINET_OK;
done:
  sym_free(s);
  free(pixel_box);
  free(gmap);
  free(hash);
  free(table);
  free(covered);
  free(ti);
  free(tv);
  free(lanes);
  free(reps);
  free(sweep);
  return st;
}

/* lam8(b, g) = lambda(g(b)), by the inverse lists as S4 writes it (a lane with no g(b) keeps
 * what it holds: 0 from sym_build, then D; only idle lanes read it). */
static void sym_load_image(em_sym *s, const double *lambda) {
  for (uint32_t i = 0; i < s->boxes; i++) {
    const double v = lambda[s->s4_box[i]];
    for (uint64_t q = s->inv_ptr[i]; q < s->inv_ptr[i + 1]; q++) s->lam8[s->inv_src[q]] = v;
  }
}

/* An orbit's lanes after S1: r8 (0 where nbar <= 0, as pinet_em_s2), and nbar per tube unless
 * nbar is NULL (only the log-likelihood reads it; S3 reads r8, so no per-tube ratio is kept). */
static void sym_lanes_out(em_sym *s, const pinet_simd_kernels *kern, uint32_t o,
                          const double *nb8, double *nbar) {
  const uint32_t *tube = s->tube + (size_t)o * SYM_LANES;
  kern->ratio8(s->counts8 + (size_t)o * SYM_LANES, nb8, s->r8 + (size_t)o * SYM_LANES);
  if (nbar == NULL) return;
  for (uint32_t g = 0; g < SYM_LANES; g++) {
    if (tube[g] != s->tubes) nbar[tube[g]] = nb8[g]; /* an idle lane has no tube */
  }
}

/* S1 takes this many rows a kernel call (their sums wait in a buffer on the stack). */
#define SYM_ROWS 32u

/* S1 + S2 over the orbits [o0, o1) (nbar: as sym_lanes_out). */
static void sym_s1(em_sym *s, const pinet_simd_kernels *kern, uint32_t o0, uint32_t o1,
                   double *nbar) {
  double t8[SYM_ROWS * SYM_LANES];
  for (uint32_t o = o0; o < o1; o += SYM_ROWS) {
    const uint32_t n = o1 - o < SYM_ROWS ? o1 - o : SYM_ROWS;
    kern->sum8(s->ptr, o, o + n, s->off, s->val, s->lam8, t8);
    for (uint32_t i = 0; i < n; i++) sym_lanes_out(s, kern, o + i, t8 + i * SYM_LANES, nbar);
  }
}

/* S3 for the boxes [x0, x1): D(b, g) into lam8's rows. */
static void sym_s3(em_sym *s, const pinet_simd_kernels *kern, uint32_t x0, uint32_t x1) {
  kern->sum8(s->bptr, x0, x1, s->borb, s->bval, s->r8, s->lam8 + (size_t)x0 * SYM_LANES);
}

/* S4 after S3 for the box y = s4_box[i]: d4[i] += D(b, g) over g(b) = y in increasing 8 b + g
 * (one fixed order, whatever the threads), the new lambda(y), and lam8(b, g) = lambda(y) in the
 * same lanes. */
static void sym_update_one(em_sym *s, uint32_t i, double *lambda) {
  const uint32_t y = s->s4_box[i], *src = s->inv_src;
  const uint64_t q0 = s->inv_ptr[i], q1 = s->inv_ptr[i + 1];
  double acc = s->d4[i];
  for (uint64_t q = q0; q < q1; q++) acc += s->lam8[src[q]];
  const double next = pinet_simd_s4_one(lambda[y], acc, s->sens4[i]);
  s->d4[i] = acc;
  lambda[y] = next;
  for (uint64_t q = q0; q < q1; q++) s->lam8[src[q]] = next;
}

/* S4 for the boxes s4_box[i], i in [i0, i1) (i0, and i1 if it falls among the full groups, a
 * multiple of 8: sym_s4_split). */
static void sym_update(em_sym *s, const pinet_simd_kernels *kern, uint32_t i0, uint32_t i1,
                       double *lambda) {
  const uint32_t grouped = SYM_LANES * s->groups;
  uint32_t i = i0;
  for (; i < i1 && i < grouped; i += SYM_LANES) {
    kern->s4group(s->lam8, s->s4_box + i, s->gperm + (size_t)(i / SYM_LANES) * SYM_PERM,
                  s->sens4 + i, s->d4 + i, lambda);
  }
  for (; i < i1; i++) sym_update_one(s, i, lambda);
}

/* Thread k of n's part of S4: by entries, a full group never split. */
static void sym_s4_split(const em_sym *s, uint32_t k, uint32_t n, uint64_t *a, uint64_t *b) {
  const uint64_t grouped = SYM_LANES * (uint64_t)s->groups;
  pinet_pool_split(s->inv_ptr, s->boxes, k, n, a, b);
  if (*a < grouped) *a -= *a % SYM_LANES;
  if (*b < grouped) *b -= *b % SYM_LANES;
}

void pinet_em_s2(const double *counts, const double *nbar, size_t t0, size_t t1, double *ratio) {
  for (size_t t = t0; t < t1; t++) ratio[t] = nbar[t] > 0.0 ? counts[t] / nbar[t] : 0.0;
}

void pinet_em_s3_entries(const pinet_csr *by_box, uint32_t box0, uint64_t e0, uint64_t e1,
                         const double *ratio, double *d) {
  uint32_t b = box0;
  for (uint64_t e = e0; e < e1;) {
    while (by_box->ptr[b + 1] <= e) b++;
    uint64_t end = by_box->ptr[b + 1] < e1 ? by_box->ptr[b + 1] : e1;
    d[b] += row_dot(by_box->idx, by_box->val, e, end, ratio);
    e = end;
  }
}

void pinet_em_s4(const double *d, const double *sens, size_t b0, size_t b1, double *lambda) {
  for (size_t b = b0; b < b1; b++) lambda[b] = pinet_simd_s4_one(lambda[b], d[b], sens[b]);
}

static int32_t fx_round(double v, double scale) {
  double r = nearbyint(v * scale);
  if (!(fabs(r) < 9.0e15)) r = 0.0;
  return (int32_t)(uint32_t)(uint64_t)(int64_t)r;
}

static int32_t fx_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

void pinet_em_s1_entries_fixed(const pinet_csr *by_box, uint32_t box0, uint64_t e0, uint64_t e1,
                               const double *lambda, int bits, int32_t *nbar_fx) {
  const double scale = ldexp(1.0, bits);
  uint32_t b = box0;
  for (uint64_t e = e0; e < e1;) {
    while (by_box->ptr[b + 1] <= e) b++;
    uint64_t end = by_box->ptr[b + 1] < e1 ? by_box->ptr[b + 1] : e1;
    const double lb = lambda[b];
    for (; e < end; e++) {
      uint32_t t = by_box->idx[e];
      nbar_fx[t] = fx_add(nbar_fx[t], fx_round((double)by_box->val[e] * lb, scale));
    }
  }
}

void pinet_em_s3_entries_fixed(const pinet_csr *by_box, uint32_t box0, uint64_t e0, uint64_t e1,
                               const double *lambda, const double *ratio, int bits,
                               int32_t *u_fx) {
  const double scale = ldexp(1.0, bits);
  uint32_t b = box0;
  for (uint64_t e = e0; e < e1;) {
    while (by_box->ptr[b + 1] <= e) b++;
    uint64_t end = by_box->ptr[b + 1] < e1 ? by_box->ptr[b + 1] : e1;
    const double lb = lambda[b];
    int32_t acc = u_fx[b];
    for (; e < end; e++) {
      acc = fx_add(acc, fx_round(lb * (double)by_box->val[e] * ratio[by_box->idx[e]], scale));
    }
    u_fx[b] = acc;
  }
}

void pinet_em_s4_fixed(const int32_t *u_fx, int bits, const double *sens, size_t b0, size_t b1,
                       double *lambda) {
  const double inv = ldexp(1.0, -bits);
  for (size_t b = b0; b < b1; b++) {
    lambda[b] = sens[b] > 0.0 ? (double)u_fx[b] * inv / sens[b] : 0.0;
    if (lambda[b] < 0.0) lambda[b] = 0.0; /* only after a wrap-around: keep the image valid */
  }
}

/* floor(log2(2^30 / total)), 30 for a total of 0 (the caller has checked it is finite). */
static double em_bits_unclamped(double total_counts) {
  if (!(total_counts > 0)) return 30.0;
  return floor(30.0 - log2(total_counts));
}

int pinet_em_fixed_bits(double total_counts) {
  double bits = isfinite(total_counts) ? em_bits_unclamped(total_counts) : PINET_RECON_FIXED_BITS_MIN;
  if (bits < PINET_RECON_FIXED_BITS_MIN) bits = PINET_RECON_FIXED_BITS_MIN;
  if (bits > PINET_RECON_FIXED_BITS_MAX) bits = PINET_RECON_FIXED_BITS_MAX;
  return (int)bits;
}

int pinet_em_fixed_total_ok(double total_counts) {
  if (!isfinite(total_counts) || total_counts < 0.0) return 0;
  const double bits = em_bits_unclamped(total_counts);
  return bits >= PINET_RECON_FIXED_BITS_MIN && bits <= PINET_RECON_FIXED_BITS_MAX;
}

double pinet_em_loglik(const double *counts, const double *nbar, size_t tubes) {
  double l = 0.0;
  for (size_t t = 0; t < tubes; t++) {
    double n = counts[t], m = nbar[t];
    if (n > 0.0) {
      if (!(m > 0.0)) return -INFINITY;
      l += n * log(m) - lgamma(n + 1.0);
    }
    l -= m;
  }
  return l;
}

/* ---- the driver -------------------------------------------------------------------------------- */

struct pinet_em {
  const pinet_sysmat *m;
  pinet_csr bt, bb;
  uint32_t tubes, boxes, subsets, iters;
  pinet_recon_arith arith;
  int bits;
  int portable;  /* the opts' cap: 1 SSE2, 2 AVX2 at most, 0 none */
  pinet_isa isa;
  const pinet_simd_kernels *kern; /* isa's */
  uint32_t threads;
  pinet_pool *pool;
  em_sym *sym;   /* NULL: no exact symmetries (or not EM, FLOAT, non-portable) */
  int sym_off;   /* pinet_em_set_symmetry(em, 0) */
  int sym_fresh; /* sym's lam8 holds the current image */
  double *counts, *lgn, *lambda, *nbar, *ratio, *d, *sens;
  double *sens_sub; /* subsets * boxes (OSEM) */
  int32_t *fx_t, *fx_b;
};

void pinet_em_free(pinet_em *em) {
  if (em == NULL) return;
  pinet_pool_free(em->pool);
  free(em->counts);
  free(em->lgn);
  free(em->lambda);
  free(em->nbar);
  free(em->ratio);
  free(em->d);
  free(em->sens);
  free(em->sens_sub);
  free(em->fx_t);
  free(em->fx_b);
  sym_free(em->sym);
  free(em);
}

/* pinet_em_loglik with lgamma(n + 1) looked up (the same numbers, in the same order). */
static double em_loglik(const pinet_em *em) {
  double l = 0.0;
  for (uint32_t t = 0; t < em->tubes; t++) {
    const double n = em->counts[t], m = em->nbar[t];
    if (n > 0.0) {
      if (!(m > 0.0)) return -INFINITY;
      l += n * log(m) - em->lgn[t];
    }
    l -= m;
  }
  return l;
}

static void uniform_start(pinet_em *em) {
  double tot = 0.0, stot = 0.0;
  for (uint32_t t = 0; t < em->tubes; t++) tot += em->counts[t];
  for (uint32_t b = 0; b < em->boxes; b++) stot += em->sens[b];
  double v = (tot > 0 && stot > 0) ? tot / stot : 1.0;
  for (uint32_t b = 0; b < em->boxes; b++) em->lambda[b] = v;
}

/* The ISA the opts allow: pinet_isa_from_env's, capped by `portable`. */
static pinet_isa em_isa_for(int portable) {
  pinet_isa isa = pinet_simd_default_isa();
  if (portable == 1) isa = PINET_ISA_SSE2;
  if (portable == 2 && isa > PINET_ISA_AVX2) isa = PINET_ISA_AVX2;
  return isa;
}

pinet_status pinet_em_create(const pinet_sysmat *m, const double *counts, const pinet_em_opts *opts,
                             pinet_em **out) {
  RETURN_ERROR_IF(m == NULL || counts == NULL || out == NULL, PINET_ERR_NULL);
  *out = NULL;
  pinet_em_opts o = {1, PINET_RECON_FLOAT, 0};
  if (opts != NULL) o = *opts;
  RETURN_ERROR_IF(o.arith != PINET_RECON_FLOAT && o.arith != PINET_RECON_FIXED, PINET_ERR_RANGE);
  RETURN_ERROR_IF(o.subsets == 0 || (o.arith == PINET_RECON_FIXED && o.subsets != 1),
                  PINET_ERR_RANGE);
  const uint32_t tubes = pinet_sysmat_tubes(m), boxes = pinet_sysmat_boxes(m);
  double total = 0.0;
  for (uint32_t t = 0; t < tubes; t++) {
    RETURN_ERROR_IF(!isfinite(counts[t]) || counts[t] < 0.0, PINET_ERR_RANGE);
    total += counts[t];
  }
  RETURN_ERROR_IF(o.arith == PINET_RECON_FIXED && !pinet_em_fixed_total_ok(total), PINET_ERR_RANGE);
  if (o.subsets > 1) { /* every subset must hold at least one tube */
    const uint32_t *tv = pinet_sysmat_tube_view(m);
    uint8_t *seen = calloc(o.subsets, 1);
    RETURN_ERROR_IF(seen == NULL, PINET_ERR_NOMEM);
    uint32_t distinct = 0;
    for (uint32_t t = 0; t < tubes; t++) {
      uint32_t s = tv[t] % o.subsets;
      if (!seen[s]) { seen[s] = 1; distinct++; }
    }
    free(seen);
    RETURN_ERROR_IF(distinct != o.subsets, PINET_ERR_RANGE);
  }
  pinet_em *em = calloc(1, sizeof *em);
  RETURN_ERROR_IF(em == NULL, PINET_ERR_NOMEM);
  em->m = m;
  em->bt = pinet_sysmat_by_tube(m);
  em->bb = pinet_sysmat_by_box(m);
  em->tubes = tubes;
  em->boxes = boxes;
  em->subsets = o.subsets;
  em->arith = o.arith;
  em->bits = pinet_em_fixed_bits(total);
  em->portable = o.portable;
  em->isa = em_isa_for(o.portable);
  em->kern = pinet_simd_kernels_for(em->isa);
  em->threads = 1;
  size_t tn = (size_t)tubes + 1, bn = boxes ? boxes : 1; /* nbar, ratio: + the idle-lane slot */
  em->counts = malloc(tn * sizeof(double));
  em->lgn = malloc(tn * sizeof(double));
  em->lambda = malloc(bn * sizeof(double));
  em->nbar = malloc(tn * sizeof(double));
  em->ratio = malloc(tn * sizeof(double));
  em->d = malloc(bn * sizeof(double));
  em->sens = malloc(bn * sizeof(double));
  em->fx_t = malloc(tn * sizeof(int32_t));
  em->fx_b = malloc(bn * sizeof(int32_t));
  if (o.subsets > 1) em->sens_sub = calloc((size_t)o.subsets * bn, sizeof(double));
  if (!em->counts || !em->lgn || !em->lambda || !em->nbar || !em->ratio || !em->d || !em->sens ||
      !em->fx_t || !em->fx_b || (o.subsets > 1 && !em->sens_sub)) {
    pinet_em_free(em);
    return PINET_ERR_NOMEM;
  }
  memcpy(em->counts, counts, (size_t)tubes * sizeof(double));
  for (uint32_t t = 0; t < tubes; t++) em->lgn[t] = counts[t] > 0.0 ? lgamma(counts[t] + 1.0) : 0.0;
  pinet_em_sensitivity(&em->bb, em->sens);
  if (o.subsets > 1) {
    const uint32_t *tv = pinet_sysmat_tube_view(m);
    for (uint32_t b = 0; b < boxes; b++) {
      for (uint64_t e = em->bb.ptr[b]; e < em->bb.ptr[b + 1]; e++) {
        em->sens_sub[(size_t)(tv[em->bb.idx[e]] % o.subsets) * boxes + b] += em->bb.val[e];
      }
    }
  }
  if (o.subsets == 1 && o.arith == PINET_RECON_FLOAT) {
    pinet_status st = sym_build(m, em->counts, em->sens, &em->sym);
    if (st != PINET_OK) {
      pinet_em_free(em);
      return st;
    }
  }
  uniform_start(em);
  *out = em;
  return PINET_OK;
}

pinet_status pinet_em_set_image(pinet_em *em, const double *lambda) {
  RETURN_ERROR_IF(em == NULL || lambda == NULL, PINET_ERR_NULL);
  for (uint32_t b = 0; b < em->boxes; b++) {
    RETURN_ERROR_IF(!isfinite(lambda[b]) || lambda[b] < 0.0, PINET_ERR_RANGE);
  }
  memcpy(em->lambda, lambda, (size_t)em->boxes * sizeof(double));
  /* the symmetric lanes take the image now, as every iteration leaves them: an iteration then
   * costs the same whether it follows this call or another iteration */
  em->sym_fresh = em->sym != NULL && !em->sym_off;
  if (em->sym_fresh) sym_load_image(em->sym, em->lambda);
  return PINET_OK;
}

/* ---- one iteration, in phases the threads share -------------------------------------------------
 * Each phase splits tubes, orbits or boxes into the threads' parts by their entries
 * (pinet_pool_split); every value is computed by one thread, from its own entries in their
 * order, and no sum crosses two parts, so the numbers do not depend on the number of threads.
 * The one sum that would (S3 of the symmetric sweep adds eight boxes' D into each d) is gathered
 * per box in one fixed order (sym_update), with or without threads. */

typedef enum em_phase {
  PH_SYM_S1,     /* orbits: S1 + S2 */
  PH_SYM_S3,     /* boxes: D(b, g) into lam8 */
  PH_SYM_S4,     /* boxes: d += D, S4, lam8 from the new image */
  PH_PLAIN_S12,  /* tubes: S1 + S2 */
  PH_PLAIN_S34,  /* boxes: S3 by box (tube order, as the fused sweep adds), S4 */
  PH_FIX_S1,     /* tubes: fixed S1 (a wrapping int32 sum: any order) */
  PH_FIX_S34,    /* boxes: fixed S3, S4 */
  PH_OSEM_S12,   /* tubes of the subset: S1 + S2 */
  PH_OSEM_S34    /* boxes: S3 over the subset, update */
} em_phase;

typedef struct em_job {
  pinet_em *em;
  em_phase phase;
  uint32_t subset;
  int keep_nbar; /* PH_SYM_S1: store nbar per tube (the log-likelihood reads it) */
} em_job;

static void em_part(void *ctx, uint32_t k, uint32_t n) {
  const em_job *j = ctx;
  pinet_em *em = j->em;
  em_sym *s = em->sym;
  const pinet_simd_kernels *kern = em->kern;
  uint64_t a, b;
  switch (j->phase) {
    case PH_SYM_S1:
      pinet_pool_split(s->ptr, s->orbits, k, n, &a, &b);
      sym_s1(s, kern, (uint32_t)a, (uint32_t)b, j->keep_nbar ? em->nbar : NULL);
      break;
    case PH_SYM_S3:
      pinet_pool_split(s->bptr, s->boxes, k, n, &a, &b);
      sym_s3(s, kern, (uint32_t)a, (uint32_t)b);
      break;
    case PH_SYM_S4:
      sym_s4_split(s, k, n, &a, &b);
      sym_update(s, kern, (uint32_t)a, (uint32_t)b, em->lambda);
      break;
    case PH_PLAIN_S12: {
      const uint16_t *i16 = pinet_sysmat_by_tube_idx16(em->m);
      const pinet_csr *bt = &em->bt;
      pinet_pool_split(bt->ptr, bt->rows, k, n, &a, &b);
      for (uint64_t t = a; t < b; t++) {
        const double nb = i16 != NULL ? kern->dot16(i16, bt->val, bt->ptr[t], bt->ptr[t + 1], em->lambda)
                                      : row_dot(bt->idx, bt->val, bt->ptr[t], bt->ptr[t + 1], em->lambda);
        em->nbar[t] = nb;
        em->ratio[t] = nb > 0.0 ? em->counts[t] / nb : 0.0;
      }
      break;
    }
    case PH_PLAIN_S34: {
      const pinet_csr *bb = &em->bb;
      pinet_pool_split(bb->ptr, bb->rows, k, n, &a, &b);
      for (uint64_t x = a; x < b; x++) {
        double acc = 0.0; /* one sum, in tube order: what the fused sweep's d[x] += ... gives */
        for (uint64_t e = bb->ptr[x]; e < bb->ptr[x + 1]; e++) acc += (double)bb->val[e] * em->ratio[bb->idx[e]];
        em->d[x] = acc;
      }
      pinet_em_s4(em->d, em->sens, a, b, em->lambda);
      break;
    }
    case PH_FIX_S1: {
      const pinet_csr *bt = &em->bt;
      const double scale = ldexp(1.0, em->bits), inv = ldexp(1.0, -em->bits);
      pinet_pool_split(bt->ptr, bt->rows, k, n, &a, &b);
      for (uint64_t t = a; t < b; t++) {
        em->fx_t[t] = kern->s1fx(bt->idx, bt->val, bt->ptr[t], bt->ptr[t + 1], em->lambda, scale);
        em->nbar[t] = (double)em->fx_t[t] * inv;
        em->ratio[t] = em->nbar[t] > 0.0 ? em->counts[t] / em->nbar[t] : 0.0;
      }
      break;
    }
    case PH_FIX_S34: {
      const pinet_csr *bb = &em->bb;
      const double scale = ldexp(1.0, em->bits);
      pinet_pool_split(bb->ptr, bb->rows, k, n, &a, &b);
      for (uint64_t x = a; x < b; x++) {
        em->fx_b[x] = kern->s3fx(bb->idx, bb->val, bb->ptr[x], bb->ptr[x + 1], em->lambda[x],
                                 em->ratio, scale);
      }
      pinet_em_s4_fixed(em->fx_b, em->bits, em->sens, a, b, em->lambda);
      break;
    }
    case PH_OSEM_S12: {
      const uint32_t *tv = pinet_sysmat_tube_view(em->m);
      const pinet_csr *bt = &em->bt;
      pinet_pool_split(bt->ptr, bt->rows, k, n, &a, &b);
      for (uint64_t t = a; t < b; t++) {
        if (tv[t] % em->subsets != j->subset) continue;
        double acc = 0.0;
        for (uint64_t e = bt->ptr[t]; e < bt->ptr[t + 1]; e++) acc += (double)bt->val[e] * em->lambda[bt->idx[e]];
        em->ratio[t] = acc > 0.0 ? em->counts[t] / acc : 0.0;
      }
      break;
    }
    case PH_OSEM_S34: {
      const uint32_t *tv = pinet_sysmat_tube_view(em->m);
      const pinet_csr *bb = &em->bb;
      const double *ss = em->sens_sub + (size_t)j->subset * em->boxes;
      pinet_pool_split(bb->ptr, bb->rows, k, n, &a, &b);
      for (uint64_t x = a; x < b; x++) {
        double acc = 0.0;
        for (uint64_t e = bb->ptr[x]; e < bb->ptr[x + 1]; e++) {
          const uint32_t t = bb->idx[e];
          if (tv[t] % em->subsets == j->subset) acc += (double)bb->val[e] * em->ratio[t];
        }
        em->lambda[x] = ss[x] > 0.0 ? em->lambda[x] * acc / ss[x] : 0.0;
      }
      break;
    }
  }
}

static void em_run(pinet_em *em, em_phase phase, uint32_t subset) {
  em_job j = {em, phase, subset, 0};
  pinet_pool_run(em->pool, em_part, &j);
}

/* The symmetric sweep: the tubes in no orbit first (the plain fused sweep, on the caller), then
 * S1 + S2 by orbit, S3 by box, S4; lam8 holds lambda on entry and the new image on return. */
static void sym_iterate(pinet_em *em, double *loglik) {
  em_sym *s = em->sym;
  memset(s->d4, 0, (size_t)s->boxes * sizeof(double));
  for (uint32_t k = 0; k < s->n_exc; k++) {
    const uint32_t t = s->exc[k];
    const uint64_t e0 = s->exc_ptr[k], e1 = s->exc_ptr[k + 1];
    const double nb = row_dot(s->exc_idx, s->exc_val, e0, e1, em->lambda);
    const double r = nb > 0.0 ? em->counts[t] / nb : 0.0;
    em->nbar[t] = nb;
    em->ratio[t] = r;
    for (uint64_t e = e0; e < e1; e++) {
      s->d4[s->s4_pos[s->exc_idx[e]]] += (double)s->exc_val[e] * r;
    }
  }
  if (em->pool == NULL) {
    sym_s1(s, em->kern, 0, s->orbits, loglik != NULL ? em->nbar : NULL);
    if (loglik != NULL) *loglik = em_loglik(em);
    sym_s3(s, em->kern, 0, s->boxes);
    sym_update(s, em->kern, 0, s->boxes, em->lambda);
  } else {
    em_job s1 = {em, PH_SYM_S1, 0, loglik != NULL};
    pinet_pool_run(em->pool, em_part, &s1);
    if (loglik != NULL) *loglik = em_loglik(em);
    em_run(em, PH_SYM_S3, 0);
    em_run(em, PH_SYM_S4, 0);
  }
}

pinet_status pinet_em_iterate(pinet_em *em, double *loglik) {
  RETURN_ERROR_IF(em == NULL, PINET_ERR_NULL);
  if (em->subsets > 1) {
    if (loglik != NULL) FORWARD_IF_ERROR(pinet_em_current_loglik(em, loglik));
    for (uint32_t s = 0; s < em->subsets; s++) {
      em_run(em, PH_OSEM_S12, s);
      em_run(em, PH_OSEM_S34, s);
    }
    em->iters++;
    return PINET_OK;
  }
  if (em->arith == PINET_RECON_FIXED) {
    em_run(em, PH_FIX_S1, 0);
    if (loglik != NULL) *loglik = em_loglik(em);
    em_run(em, PH_FIX_S34, 0);
    em->iters++;
    return PINET_OK;
  }
  if (em->sym != NULL && !em->sym_off) {
    if (!em->sym_fresh) sym_load_image(em->sym, em->lambda);
    sym_iterate(em, loglik);
    em->sym_fresh = 1;
    em->iters++;
    return PINET_OK;
  }
  em->sym_fresh = 0;
  if (em->pool != NULL) {
    em_run(em, PH_PLAIN_S12, 0);
    if (loglik != NULL) *loglik = em_loglik(em);
    em_run(em, PH_PLAIN_S34, 0);
    em->iters++;
    return PINET_OK;
  }
  /* S1-S3 in one pass over the tubes (each row is read from memory once), then S4 */
  const uint16_t *i16 = pinet_sysmat_by_tube_idx16(em->m);
  memset(em->d, 0, (size_t)em->boxes * sizeof(double));
  if (i16 != NULL) s123_idx16(&em->bt, i16, em->counts, em->lambda, em->kern, em->nbar, em->ratio, em->d);
  else pinet_em_s123_by_tube(&em->bt, em->counts, em->lambda, em->nbar, em->ratio, em->d);
  if (loglik != NULL) *loglik = em_loglik(em);
  pinet_em_s4(em->d, em->sens, 0, em->boxes, em->lambda);
  em->iters++;
  return PINET_OK;
}

pinet_status pinet_em_current_loglik(pinet_em *em, double *loglik) {
  RETURN_ERROR_IF(em == NULL || loglik == NULL, PINET_ERR_NULL);
  pinet_em_s1(&em->bt, em->lambda, em->nbar);
  *loglik = em_loglik(em);
  return PINET_OK;
}

pinet_status pinet_em_set_isa(pinet_em *em, pinet_isa isa) {
  RETURN_ERROR_IF(em == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF((unsigned)isa >= PINET_ISA_COUNT, PINET_ERR_RANGE);
  RETURN_ERROR_IF(!pinet_isa_supported(isa), PINET_ERR_UNSUPPORTED);
  em->isa = isa;
  em->kern = pinet_simd_kernels_for(isa);
  return PINET_OK;
}

pinet_isa pinet_em_isa(const pinet_em *em) { return em->isa; }

pinet_status pinet_em_set_threads(pinet_em *em, uint32_t threads) {
  RETURN_ERROR_IF(em == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(threads == 0 || threads > PINET_RECON_MAX_THREADS, PINET_ERR_RANGE);
  if (threads == em->threads) return PINET_OK;
  pinet_pool *pool = NULL;
  FORWARD_IF_ERROR(pinet_pool_create(threads, &pool));
  pinet_pool_free(em->pool);
  em->pool = pool;
  em->threads = threads;
  return PINET_OK;
}

uint32_t pinet_em_threads(const pinet_em *em) { return em->threads; }

pinet_status pinet_em_set_symmetry(pinet_em *em, int on) {
  RETURN_ERROR_IF(em == NULL, PINET_ERR_NULL);
  em->sym_off = !on;
  em->sym_fresh = 0;
  return PINET_OK;
}

uint32_t pinet_em_symmetric_tubes(const pinet_em *em) {
  if (em == NULL || em->sym == NULL || em->sym_off) return 0;
  return em->tubes - em->sym->n_exc;
}

const double *pinet_em_image(const pinet_em *em) { return em->lambda; }
const double *pinet_em_sens(const pinet_em *em) { return em->sens; }
uint32_t pinet_em_iterations(const pinet_em *em) { return em->iters; }

void pinet_em_to_image(const pinet_sysmat *m, const double *box_values, float *img) {
  const uint32_t n = pinet_sysmat_size(m), boxes = pinet_sysmat_boxes(m);
  const uint32_t *bp = pinet_sysmat_box_pixel(m);
  memset(img, 0, (size_t)n * n * sizeof *img);
  for (uint32_t b = 0; b < boxes; b++) img[bp[b]] = (float)box_values[b];
}
