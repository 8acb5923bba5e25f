/* recon_siddon.c - Siddon's exact ray/pixel intersection lengths, the sparse system matrix p(b, t)
 * in CSR by tube and by box, and the PET ring geometry with its rebinning to parallel beam
 * (pinet/recon_geom.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/recon_geom.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

/* ---- Siddon ------------------------------------------------------------------------------------
 * Column planes x = i - c0 - 1/2 (i = 0 .. n), row planes y = c0 - j + 1/2 (j = 0 .. n, j = 0 on
 * top). The parameter a runs over [0, 1] from (x1, y1) to (x2, y2). The crossings with both plane
 * families are merged in increasing a; each piece between two consecutive crossings lies in one
 * pixel, found from its midpoint (robust at corners and for axis-parallel lines). */
pinet_status pinet_siddon(const pinet_line *line, uint32_t size, double img_center,
                          pinet_siddon_emit emit, void *ctx) {
  RETURN_ERROR_IF(line == NULL || emit == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(size == 0 || size > PINET_RECON_MAX_SIZE || !isfinite(img_center),
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(!isfinite(line->x1) || !isfinite(line->y1) || !isfinite(line->x2) ||
                      !isfinite(line->y2),
                  PINET_ERR_RANGE);
  const double n = size, c0 = img_center;
  const double x1 = line->x1, y1 = line->y1;
  const double dx = line->x2 - x1, dy = line->y2 - y1;
  const double len = hypot(dx, dy);
  if (!(len > 0)) return PINET_OK;
  const double xlo = -c0 - 0.5, xhi = n - c0 - 0.5; /* x range of the grid */
  const double ylo = c0 + 0.5 - n, yhi = c0 + 0.5;  /* y range of the grid */
  double amin = 0.0, amax = 1.0;
  if (dx != 0.0) {
    double a0 = (xlo - x1) / dx, a1 = (xhi - x1) / dx;
    amin = fmax(amin, fmin(a0, a1));
    amax = fmin(amax, fmax(a0, a1));
  } else if (!(x1 > xlo && x1 < xhi)) {
    return PINET_OK;
  }
  if (dy != 0.0) {
    double a0 = (ylo - y1) / dy, a1 = (yhi - y1) / dy;
    amin = fmax(amin, fmin(a0, a1));
    amax = fmin(amax, fmax(a0, a1));
  } else if (!(y1 > ylo && y1 < yhi)) {
    return PINET_OK;
  }
  if (!(amin < amax)) return PINET_OK;

  /* plane iterators: x planes in travel order */
  long ix = 0, ix_step = 0, iy = 0, iy_step = 0;
  if (dx > 0) { ix = 0; ix_step = 1; }
  if (dx < 0) { ix = (long)size; ix_step = -1; }
  if (dy > 0) { iy = (long)size; iy_step = -1; } /* y grows as j falls */
  if (dy < 0) { iy = 0; iy_step = 1; }
  double aprev = amin;
  const double tiny = 1e-12;
  while (aprev < amax) {
    double ax = INFINITY, ay = INFINITY;
    while (ix_step != 0 && ix >= 0 && ix <= (long)size) {
      ax = (((double)ix - c0 - 0.5) - x1) / dx;
      if (ax > aprev) break;
      ix += ix_step;
      ax = INFINITY;
    }
    if (!(ix >= 0 && ix <= (long)size)) ax = INFINITY;
    while (iy_step != 0 && iy >= 0 && iy <= (long)size) {
      ay = ((c0 - (double)iy + 0.5) - y1) / dy;
      if (ay > aprev) break;
      iy += iy_step;
      ay = INFINITY;
    }
    if (!(iy >= 0 && iy <= (long)size)) ay = INFINITY;
    double anext = fmin(amax, fmin(ax, ay));
    if (anext - aprev > tiny) {
      double am = 0.5 * (aprev + anext);
      double xm = x1 + am * dx, ym = y1 + am * dy;
      long c = (long)floor(xm + c0 + 0.5);
      long r = (long)floor(c0 + 0.5 - ym);
      if (c < 0) c = 0;
      if (r < 0) r = 0;
      if (c >= (long)size) c = (long)size - 1;
      if (r >= (long)size) r = (long)size - 1;
      FORWARD_IF_ERROR(emit(ctx, (uint32_t)((size_t)r * size + (size_t)c), (anext - aprev) * len));
    }
    aprev = anext;
  }
  return PINET_OK;
}

/* ---- the system matrix ------------------------------------------------------------------------- */

struct pinet_sysmat {
  uint32_t size, tubes, boxes;
  size_t lines;
  uint64_t nnz;
  uint64_t *t_ptr;
  uint32_t *t_idx;
  float *t_val;
  uint16_t *t_idx16; /* compact copy of t_idx when boxes <= 65535 */
  uint64_t *b_ptr;
  uint32_t *b_idx;
  float *b_val;
  uint32_t *box_pixel;
  uint32_t *tube_line;
  uint32_t *tube_view;
};

void pinet_sysmat_free(pinet_sysmat *m) {
  if (m == NULL) return;
  free(m->t_ptr);
  free(m->t_idx);
  free(m->t_val);
  free(m->t_idx16);
  free(m->b_ptr);
  free(m->b_idx);
  free(m->b_val);
  free(m->box_pixel);
  free(m->tube_line);
  free(m->tube_view);
  free(m);
}

typedef struct build_ctx {
  const int64_t *pixel_box; /* pixel -> box or -1 */
  uint32_t *idx;
  float *val;
  uint64_t n, cap;
} build_ctx;

static pinet_status build_emit(void *vctx, uint32_t pixel, double length) {
  build_ctx *b = vctx;
  int64_t box = b->pixel_box[pixel];
  if (box < 0) return PINET_OK;
  if (b->n == b->cap) {
    uint64_t cap = b->cap ? b->cap * 2 : 4096;
    uint32_t *ni = realloc(b->idx, cap * sizeof *ni);
    if (ni == NULL) return PINET_ERR_NOMEM;
    b->idx = ni;
    float *nv = realloc(b->val, cap * sizeof *nv);
    if (nv == NULL) return PINET_ERR_NOMEM;
    b->val = nv;
    b->cap = cap;
  }
  b->idx[b->n] = (uint32_t)box;
  b->val[b->n] = (float)length;
  b->n++;
  return PINET_OK;
}

/* Sort a tube's entries by box (Siddon emits them in travel order). Insertion sort: rows are short
 * and nearly sorted or reversed. */
static void sort_row(uint32_t *idx, float *val, uint64_t n) {
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

pinet_status pinet_sysmat_create_lines(const pinet_line *lines, const uint32_t *view_of_line,
                                       size_t n_lines, uint32_t size, double img_center,
                                       pinet_box_set boxes, pinet_sysmat **out) {
  RETURN_ERROR_IF(out == NULL || (lines == NULL && n_lines > 0), PINET_ERR_NULL);
  *out = NULL;
  RETURN_ERROR_IF(size == 0 || size > PINET_RECON_MAX_SIZE || !isfinite(img_center),
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(n_lines >= UINT32_MAX, PINET_ERR_RANGE);
  RETURN_ERROR_IF(boxes != PINET_BOXES_DISK && boxes != PINET_BOXES_ALL, PINET_ERR_RANGE);
  pinet_sysmat *m = calloc(1, sizeof *m);
  RETURN_ERROR_IF(m == NULL, PINET_ERR_NOMEM);
  const size_t npix = (size_t)size * size;
  int64_t *pixel_box = malloc(npix * sizeof *pixel_box);
  build_ctx bc = {pixel_box, NULL, NULL, 0, 0};
  pinet_status st = PINET_OK;
  m->size = size;
  m->lines = n_lines;
  m->box_pixel = malloc(npix * sizeof *m->box_pixel);
  m->t_ptr = malloc((n_lines + 1) * sizeof *m->t_ptr);
  m->tube_line = malloc((n_lines + 1) * sizeof *m->tube_line);
  m->tube_view = malloc((n_lines + 1) * sizeof *m->tube_view);
  if (pixel_box == NULL || m->box_pixel == NULL || m->t_ptr == NULL || m->tube_line == NULL ||
      m->tube_view == NULL) {
    st = PINET_ERR_NOMEM;
    goto done;
  }
  {
    const double rad = (double)(size / 2u);
    uint32_t nb = 0;
    for (uint32_t r = 0; r < size; r++) {
      for (uint32_t c = 0; c < size; c++) {
        size_t p = (size_t)r * size + c;
        double dr = r - img_center, dc = c - img_center;
        int in = boxes == PINET_BOXES_ALL || dr * dr + dc * dc <= rad * rad;
        pixel_box[p] = in ? (int64_t)nb : -1;
        if (in) m->box_pixel[nb++] = (uint32_t)p;
      }
    }
    m->boxes = nb;
  }
  m->t_ptr[0] = 0;
  uint32_t t = 0;
  for (size_t l = 0; l < n_lines; l++) {
    uint64_t start = bc.n;
    st = pinet_siddon(&lines[l], size, img_center, build_emit, &bc);
    if (st != PINET_OK) goto done;
    if (bc.n == start) continue; /* meets no box: dropped */
    sort_row(bc.idx + start, bc.val + start, bc.n - start);
    m->tube_line[t] = (uint32_t)l;
    m->tube_view[t] = view_of_line ? view_of_line[l] : 0u;
    m->t_ptr[++t] = bc.n;
  }
  m->tubes = t;
  m->nnz = bc.n;
  m->t_idx = bc.idx;
  m->t_val = bc.val;
  bc.idx = NULL;
  bc.val = NULL;
  /* transpose: counting sort by box keeps tube order inside each box row */
  m->b_ptr = calloc((size_t)m->boxes + 1, sizeof *m->b_ptr);
  m->b_idx = malloc((m->nnz ? m->nnz : 1) * sizeof *m->b_idx);
  m->b_val = malloc((m->nnz ? m->nnz : 1) * sizeof *m->b_val);
  if (m->b_ptr == NULL || m->b_idx == NULL || m->b_val == NULL) {
    st = PINET_ERR_NOMEM;
    goto done;
  }
  for (uint64_t e = 0; e < m->nnz; e++) m->b_ptr[m->t_idx[e] + 1]++;
  for (uint32_t b = 0; b < m->boxes; b++) m->b_ptr[b + 1] += m->b_ptr[b];
  {
    uint64_t *fill = malloc(((size_t)m->boxes + 1) * sizeof *fill);
    if (fill == NULL) {
      st = PINET_ERR_NOMEM;
      goto done;
    }
    memcpy(fill, m->b_ptr, ((size_t)m->boxes + 1) * sizeof *fill);
    for (uint32_t tt = 0; tt < m->tubes; tt++) {
      for (uint64_t e = m->t_ptr[tt]; e < m->t_ptr[tt + 1]; e++) {
        uint64_t dst = fill[m->t_idx[e]]++;
        m->b_idx[dst] = tt;
        m->b_val[dst] = m->t_val[e];
      }
    }
    free(fill);
  }
  if (m->boxes <= 65535u) { /* half the index traffic for the EM sweeps */
    m->t_idx16 = malloc((m->nnz ? m->nnz : 1) * sizeof *m->t_idx16);
    if (m->t_idx16 == NULL) {
      st = PINET_ERR_NOMEM;
      goto done;
    }
    for (uint64_t e = 0; e < m->nnz; e++) m->t_idx16[e] = (uint16_t)m->t_idx[e];
  }
done:
  free(pixel_box);
  free(bc.idx);
  free(bc.val);
  if (st != PINET_OK) {
    pinet_sysmat_free(m);
    return st;
  }
  if (m->t_idx == NULL) { /* an empty matrix still gets valid arrays */
    m->t_idx = malloc(sizeof *m->t_idx);
    m->t_val = malloc(sizeof *m->t_val);
    if (m->t_idx == NULL || m->t_val == NULL) {
      pinet_sysmat_free(m);
      return PINET_ERR_NOMEM;
    }
  }
  *out = m;
  return PINET_OK;
}

pinet_status pinet_sysmat_create_parallel(const pinet_pb_geom *g, pinet_box_set boxes,
                                          pinet_sysmat **out) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  FORWARD_IF_ERROR(pinet_pb_geom_check(g));
  size_t n = (size_t)g->views * g->bins;
  RETURN_ERROR_IF(n >= UINT32_MAX, PINET_ERR_RANGE);
  pinet_line *lines = malloc(n * sizeof *lines);
  uint32_t *views = malloc(n * sizeof *views);
  if (lines == NULL || views == NULL) {
    free(lines);
    free(views);
    return PINET_ERR_NOMEM;
  }
  const double half = 2.0 * g->size + 2.0; /* longer than any chord of the image */
  for (uint32_t k = 0; k < g->views; k++) {
    double th = M_PI * k / g->views, ct = cos(th), st = sin(th);
    for (uint32_t b = 0; b < g->bins; b++) {
      double s = (double)b - g->bin_center;
      pinet_line *l = &lines[(size_t)k * g->bins + b];
      l->x1 = s * ct + half * st;
      l->y1 = s * st - half * ct;
      l->x2 = s * ct - half * st;
      l->y2 = s * st + half * ct;
      views[(size_t)k * g->bins + b] = k;
    }
  }
  pinet_status st = pinet_sysmat_create_lines(lines, views, n, g->size, g->img_center, boxes, out);
  free(lines);
  free(views);
  return st;
}

pinet_csr pinet_sysmat_by_tube(const pinet_sysmat *m) {
  pinet_csr c = {m->tubes, m->boxes, m->nnz, m->t_ptr, m->t_idx, m->t_val};
  return c;
}
pinet_csr pinet_sysmat_by_box(const pinet_sysmat *m) {
  pinet_csr c = {m->boxes, m->tubes, m->nnz, m->b_ptr, m->b_idx, m->b_val};
  return c;
}
uint32_t pinet_sysmat_tubes(const pinet_sysmat *m) { return m->tubes; }
const uint16_t *pinet_sysmat_by_tube_idx16(const pinet_sysmat *m) { return m->t_idx16; }
uint32_t pinet_sysmat_boxes(const pinet_sysmat *m) { return m->boxes; }
uint32_t pinet_sysmat_size(const pinet_sysmat *m) { return m->size; }
const uint32_t *pinet_sysmat_box_pixel(const pinet_sysmat *m) { return m->box_pixel; }
const uint32_t *pinet_sysmat_tube_line(const pinet_sysmat *m) { return m->tube_line; }
const uint32_t *pinet_sysmat_tube_view(const pinet_sysmat *m) { return m->tube_view; }
size_t pinet_sysmat_lines(const pinet_sysmat *m) { return m->lines; }

/* ---- PET ring ----------------------------------------------------------------------------------- */

pinet_status pinet_ring_init(pinet_ring *ring, uint32_t size, uint32_t detectors) {
  RETURN_ERROR_IF(ring == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(size == 0 || size > PINET_RECON_MAX_SIZE, PINET_ERR_RANGE);
  RETURN_ERROR_IF(detectors < 4 || detectors % 2 != 0 || detectors > PINET_RECON_MAX_DETECTORS,
                  PINET_ERR_RANGE);
  ring->size = size;
  ring->detectors = detectors;
  ring->radius = size / sqrt(2.0) + 2.0;
  ring->img_center = (double)(size / 2u);
  return PINET_OK;
}

void pinet_ring_paper(pinet_ring *ring) { (void)pinet_ring_init(ring, 64, 96); }

static pinet_status ring_check(const pinet_ring *ring) {
  RETURN_ERROR_IF(ring == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(ring->size == 0 || ring->size > PINET_RECON_MAX_SIZE, PINET_ERR_RANGE);
  RETURN_ERROR_IF(ring->detectors < 4 || ring->detectors % 2 != 0 ||
                      ring->detectors > PINET_RECON_MAX_DETECTORS,
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(!isfinite(ring->radius) || ring->radius <= ring->size / sqrt(2.0),
                  PINET_ERR_RANGE);
  RETURN_ERROR_IF(!isfinite(ring->img_center), PINET_ERR_RANGE);
  return PINET_OK;
}

size_t pinet_ring_pairs(const pinet_ring *ring) {
  return (size_t)ring->detectors * (ring->detectors - 1) / 2;
}

void pinet_ring_pair(const pinet_ring *ring, size_t p, uint32_t *i, uint32_t *j) {
  uint32_t d = ring->detectors, a = 0;
  while (p >= (size_t)(d - 1 - a)) {
    p -= d - 1 - a;
    a++;
  }
  *i = a;
  *j = a + 1 + (uint32_t)p;
}

pinet_line pinet_ring_line(const pinet_ring *ring, uint32_t i, uint32_t j) {
  double pi_ = 2.0 * M_PI * i / ring->detectors, pj = 2.0 * M_PI * j / ring->detectors;
  pinet_line l = {ring->radius * cos(pi_), ring->radius * sin(pi_), ring->radius * cos(pj),
                  ring->radius * sin(pj)};
  return l;
}

void pinet_ring_pair_coords(const pinet_ring *ring, uint32_t i, uint32_t j, double *theta,
                            double *s) {
  uint32_t d = ring->detectors;
  uint32_t k = (i + j) % d;
  double sv = ring->radius * cos(M_PI * ((double)j - (double)i) / d);
  if (i + j >= d) sv = -sv; /* theta = pi (i+j)/d - pi: the normal flips */
  *theta = M_PI * k / d;
  *s = sv;
}

pinet_status pinet_sysmat_create_ring(const pinet_ring *ring, pinet_sysmat **out) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  FORWARD_IF_ERROR(ring_check(ring));
  size_t n = pinet_ring_pairs(ring);
  pinet_line *lines = malloc(n * sizeof *lines);
  uint32_t *views = malloc(n * sizeof *views);
  if (lines == NULL || views == NULL) {
    free(lines);
    free(views);
    return PINET_ERR_NOMEM;
  }
  size_t p = 0;
  for (uint32_t i = 0; i < ring->detectors; i++) {
    for (uint32_t j = i + 1; j < ring->detectors; j++) {
      lines[p] = pinet_ring_line(ring, i, j);
      views[p] = (i + j) % ring->detectors;
      p++;
    }
  }
  pinet_status st = pinet_sysmat_create_lines(lines, views, n, ring->size, ring->img_center,
                                              PINET_BOXES_DISK, out);
  free(lines);
  free(views);
  return st;
}

typedef struct rebin_sample {
  double s;
  float v;
} rebin_sample;

static int cmp_sample(const void *a, const void *b) {
  double sa = ((const rebin_sample *)a)->s, sb = ((const rebin_sample *)b)->s;
  return (sa > sb) - (sa < sb);
}

pinet_status pinet_ring_rebin(const pinet_ring *ring, const float *pair_values,
                              const pinet_pb_geom *g, float *sino) {
  RETURN_ERROR_IF(pair_values == NULL || sino == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(ring_check(ring));
  FORWARD_IF_ERROR(pinet_pb_geom_check(g));
  RETURN_ERROR_IF(g->views != ring->detectors || g->size != ring->size, PINET_ERR_MISMATCH);
  const uint32_t d = ring->detectors;
  rebin_sample *buf = malloc((size_t)d * sizeof *buf);
  RETURN_ERROR_IF(buf == NULL, PINET_ERR_NOMEM);
  /* pair index of (i, j), i < j: i (2d - i - 1) / 2 + (j - i - 1) */
  for (uint32_t k = 0; k < d; k++) {
    size_t n = 0;
    for (uint32_t i = 0; i < d; i++) {
      /* j with (i + j) mod d == k and j != i */
      uint32_t j = (k + d - i) % d;
      if (j == i) continue;
      uint32_t a = i < j ? i : j, b = i < j ? j : i;
      if (a != i) continue; /* each pair once */
      size_t p = (size_t)a * (2u * d - a - 1u) / 2u + (b - a - 1u);
      double th, s;
      pinet_ring_pair_coords(ring, a, b, &th, &s);
      buf[n].s = s;
      buf[n].v = pair_values[p];
      n++;
    }
    qsort(buf, n, sizeof *buf, cmp_sample);
    float *row = sino + (size_t)k * g->bins;
    size_t q = 0;
    for (uint32_t bin = 0; bin < g->bins; bin++) {
      double s = (double)bin - g->bin_center;
      row[bin] = 0.0f;
      if (n < 2 || s < buf[0].s || s > buf[n - 1].s) continue;
      while (q + 1 < n - 1 && buf[q + 1].s < s) q++;
      double s0 = buf[q].s, s1 = buf[q + 1].s;
      double f = s1 > s0 ? (s - s0) / (s1 - s0) : 0.0;
      if (f < 0) f = 0;
      if (f > 1) f = 1;
      row[bin] = (float)((1.0 - f) * buf[q].v + f * buf[q + 1].v);
    }
  }
  free(buf);
  return PINET_OK;
}
