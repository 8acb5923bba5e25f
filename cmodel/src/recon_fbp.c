/* recon_fbp.c - filtered backprojection: filters, FFTW filtering, linear-interpolation
 * backprojection over the reconstruction disk (pinet/recon.h). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/recon.h"
#include "recon_simd.h"

#ifdef PINET_HAVE_FFTW3
#include <fftw3.h>
#endif

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static const char *const k_filter_names[PINET_FILTER_COUNT] = {"ramp", "shepp-logan", "cosine",
                                                                "hamming", "hann"};

const char *pinet_fbp_filter_name(pinet_fbp_filter f) {
  return ((unsigned)f < PINET_FILTER_COUNT) ? k_filter_names[f] : NULL;
}

pinet_status pinet_fbp_filter_parse(const char *name, pinet_fbp_filter *out) {
  RETURN_ERROR_IF(name == NULL || out == NULL, PINET_ERR_NULL);
  for (unsigned i = 0; i < PINET_FILTER_COUNT; i++) {
    if (strcmp(name, k_filter_names[i]) == 0) {
      *out = (pinet_fbp_filter)i;
      return PINET_OK;
    }
  }
  return PINET_ERR_RANGE;
}

/* A detector position in 2^-32 bins: llround(x * 2^32) (half away from zero), computed inline
 * (the backprojection takes one per view and row). */
#define BP_ONE (4294967296.0) /* 2^32 */
static int64_t bp_fx(double x) {
  const double y = x * BP_ONE;
  if (!(fabs(y) < 9.0e18)) return (int64_t)llround(y); /* beyond int64: llround's own answer */
  const int64_t r = (int64_t)y;                        /* toward zero */
  const double f = y - (double)r;                      /* exact: |f| < 1, a multiple of y's ulp */
  return r + (int64_t)(f >= 0.5) - (int64_t)(f <= -0.5); /* no branch: the halves are random */
}

struct pinet_fbp {
  pinet_pb_geom g;
  pinet_fbp_filter filter;
  uint32_t plen;      /* P */
  size_t stride;      /* filtered row length */
  uint32_t pad;       /* zero guard before bin 0 */
  double *response;   /* P/2 + 1 */
  float *cosv, *sinv; /* per view */
  double *cosd, *sind;
  int64_t *step;      /* per view: cos in 2^-32 bins, the backprojection's step per pixel */
  pinet_isa isa;
  const pinet_simd_kernels *kern; /* isa's */
  uint32_t *row_lo, *row_len; /* disk columns per row */
  uint64_t *row_prefix; /* size + 1: disk pixels in the rows above (the threads' shares) */
  float *filtered;    /* views * stride, for pinet_fbp_run */
  double *accum;      /* size * size */
  uint32_t threads;   /* 1 .. PINET_RECON_MAX_THREADS */
  pinet_pool *pool;   /* threads - 1 workers (NULL for 1) */
#ifdef PINET_HAVE_FFTW3
  double *fin;
  fftw_complex *fout;
  double **wfin;         /* threads - 1 more work buffers (the plans run on any: new-array */
  fftw_complex **wfout;  /* execution; fftw_malloc gives them the plans' alignment) */
  fftw_plan fwd, inv;
#endif
};

#ifdef PINET_HAVE_FFTW3
static void free_work(double **wfin, fftw_complex **wfout, uint32_t n) {
  for (uint32_t i = 0; i < n && (wfin != NULL || wfout != NULL); i++) {
    if (wfin != NULL) fftw_free(wfin[i]);
    if (wfout != NULL) fftw_free(wfout[i]);
  }
  free(wfin);
  free(wfout);
}
#endif

void pinet_fbp_free(pinet_fbp *p) {
  if (p == NULL) return;
#ifdef PINET_HAVE_FFTW3
  if (p->fwd) fftw_destroy_plan(p->fwd);
  if (p->inv) fftw_destroy_plan(p->inv);
  fftw_free(p->fin);
  fftw_free(p->fout);
  free_work(p->wfin, p->wfout, p->threads > 0 ? p->threads - 1 : 0);
#endif
  pinet_pool_free(p->pool);
  free(p->response);
  free(p->cosv);
  free(p->sinv);
  free(p->cosd);
  free(p->sind);
  free(p->step);
  free(p->row_lo);
  free(p->row_len);
  free(p->row_prefix);

  free(p->filtered);
  free(p->accum);
  free(p);
}

static double window(pinet_fbp_filter f, double fr) {
  switch (f) {
    case PINET_FILTER_SHEPP_LOGAN: return fr == 0.0 ? 1.0 : sin(M_PI * fr) / (M_PI * fr);
    case PINET_FILTER_COSINE: return cos(M_PI * fr);
    case PINET_FILTER_HAMMING: return 0.54 + 0.46 * cos(2.0 * M_PI * fr);
    case PINET_FILTER_HANN: return 0.5 + 0.5 * cos(2.0 * M_PI * fr);
    default: return 1.0;
  }
}

pinet_status pinet_fbp_create(const pinet_pb_geom *g, pinet_fbp_filter filter, pinet_fbp **out) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  *out = NULL;
  FORWARD_IF_ERROR(pinet_pb_geom_check(g));
  RETURN_ERROR_IF((unsigned)filter >= PINET_FILTER_COUNT, PINET_ERR_RANGE);
#ifndef PINET_HAVE_FFTW3
  return PINET_ERR_UNSUPPORTED;
#else
  pinet_fbp *p = calloc(1, sizeof *p);
  RETURN_ERROR_IF(p == NULL, PINET_ERR_NOMEM);
  p->g = *g;
  p->filter = filter;
  uint32_t plen = 64;
  while (plen < 2u * g->bins) plen *= 2u;
  p->plen = plen;
  const double rad = (double)(g->size / 2u);
  double lo_need = rad - g->bin_center;                    /* reach below bin 0 */
  double hi_need = g->bin_center + rad - (double)(g->bins - 1); /* reach above the last bin */
  p->pad = (uint32_t)(lo_need > 0 ? ceil(lo_need) : 0) + 2u;
  p->stride = (size_t)p->pad + g->bins + (size_t)(hi_need > 0 ? ceil(hi_need) : 0) + 3u;
  const size_t npix = (size_t)g->size * g->size;
  p->response = malloc((plen / 2 + 1) * sizeof *p->response);
  p->cosv = malloc(g->views * sizeof *p->cosv);
  p->sinv = malloc(g->views * sizeof *p->sinv);
  p->cosd = malloc(g->views * sizeof *p->cosd);
  p->sind = malloc(g->views * sizeof *p->sind);
  p->step = malloc(g->views * sizeof *p->step);
  p->row_lo = malloc(g->size * sizeof *p->row_lo);
  p->row_len = malloc(g->size * sizeof *p->row_len);
  p->row_prefix = malloc(((size_t)g->size + 1) * sizeof *p->row_prefix);
  p->filtered = malloc((size_t)g->views * p->stride * sizeof *p->filtered);
  p->accum = malloc(npix * sizeof *p->accum);
  p->fin = fftw_malloc(plen * sizeof *p->fin);
  p->fout = fftw_malloc((plen / 2 + 1) * sizeof *p->fout);
  p->threads = 1;
  if (!p->response || !p->cosv || !p->sinv || !p->cosd || !p->sind || !p->step || !p->row_lo ||
      !p->row_len || !p->row_prefix || !p->filtered || !p->accum || !p->fin || !p->fout) {
    pinet_fbp_free(p);
    return PINET_ERR_NOMEM;
  }
  p->isa = pinet_simd_default_isa();
  p->kern = pinet_simd_kernels_for(p->isa);
  p->fwd = fftw_plan_dft_r2c_1d((int)plen, p->fin, p->fout, FFTW_ESTIMATE);
  p->inv = fftw_plan_dft_c2r_1d((int)plen, p->fout, p->fin, FFTW_ESTIMATE);
  if (p->fwd == NULL || p->inv == NULL) {
    pinet_fbp_free(p);
    return PINET_ERR_NOMEM;
  }
  /* band-limited ramp from its spatial samples (exact DFT, then the window) */
  for (uint32_t n = 0; n < plen; n++) {
    long k = n <= plen / 2 ? (long)n : (long)n - (long)plen;
    p->fin[n] = k == 0 ? 0.25 : ((k & 1) ? -1.0 / (M_PI * M_PI * (double)k * (double)k) : 0.0);
  }
  fftw_execute(p->fwd);
  for (uint32_t k = 0; k <= plen / 2; k++) {
    p->response[k] = p->fout[k][0] * window(filter, (double)k / plen);
  }
  for (uint32_t v = 0; v < g->views; v++) {
    double th = M_PI * v / g->views;
    p->cosd[v] = cos(th);
    p->sind[v] = sin(th);
    p->cosv[v] = (float)p->cosd[v];
    p->sinv[v] = (float)p->sind[v];
  }
  for (uint32_t v = 0; v < g->views; v++) p->step[v] = bp_fx(p->cosd[v]);
  for (uint32_t r = 0; r < g->size; r++) {
    double dr = (double)r - g->img_center;
    double w2 = rad * rad - dr * dr;
    p->row_lo[r] = 0;
    p->row_len[r] = 0;
    if (w2 < 0) continue;
    double w = sqrt(w2);
    double lo = ceil(g->img_center - w - 1e-9), hi = floor(g->img_center + w + 1e-9);
    if (lo < 0) lo = 0;
    if (hi > g->size - 1.0) hi = g->size - 1.0;
    /* keep exactly the pixels with dr^2 + dc^2 <= rad^2 */
    while (lo <= hi && (lo - g->img_center) * (lo - g->img_center) + dr * dr > rad * rad) lo++;
    while (hi >= lo && (hi - g->img_center) * (hi - g->img_center) + dr * dr > rad * rad) hi--;
    if (hi < lo) continue;
    p->row_lo[r] = (uint32_t)lo;
    p->row_len[r] = (uint32_t)(hi - lo + 1);
  }
  p->row_prefix[0] = 0;
  for (uint32_t r = 0; r < g->size; r++) p->row_prefix[r + 1] = p->row_prefix[r] + p->row_len[r];
  *out = p;
  return PINET_OK;
#endif
}

pinet_status pinet_fbp_set_portable(pinet_fbp *p, int portable) {
  RETURN_ERROR_IF(p == NULL, PINET_ERR_NULL);
  p->isa = portable ? PINET_ISA_SSE2 : pinet_simd_default_isa();
  p->kern = pinet_simd_kernels_for(p->isa);
  return PINET_OK;
}

pinet_status pinet_fbp_set_isa(pinet_fbp *p, pinet_isa isa) {
  RETURN_ERROR_IF(p == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF((unsigned)isa >= PINET_ISA_COUNT, PINET_ERR_RANGE);
  RETURN_ERROR_IF(!pinet_isa_supported(isa), PINET_ERR_UNSUPPORTED);
  p->isa = isa;
  p->kern = pinet_simd_kernels_for(isa);
  return PINET_OK;
}

pinet_isa pinet_fbp_isa(const pinet_fbp *p) { return p->isa; }

pinet_status pinet_fbp_set_threads(pinet_fbp *p, uint32_t threads) {
  RETURN_ERROR_IF(p == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(threads == 0 || threads > PINET_RECON_MAX_THREADS, PINET_ERR_RANGE);
  if (threads == p->threads) return PINET_OK;
#ifdef PINET_HAVE_FFTW3
  const uint32_t extra = threads - 1;
  double **wfin = NULL;
  fftw_complex **wfout = NULL;
  if (extra > 0) {
    wfin = calloc(extra, sizeof *wfin);
    wfout = calloc(extra, sizeof *wfout);
    int ok = wfin != NULL && wfout != NULL;
    for (uint32_t i = 0; ok && i < extra; i++) {
      wfin[i] = fftw_malloc(p->plen * sizeof **wfin);
      wfout[i] = fftw_malloc((p->plen / 2 + 1) * sizeof **wfout);
      ok = wfin[i] != NULL && wfout[i] != NULL;
    }
    if (!ok) {
      free_work(wfin, wfout, wfin != NULL && wfout != NULL ? extra : 0);
      return PINET_ERR_NOMEM;
    }
  }
#endif
  pinet_pool *pool = NULL;
  pinet_status st = pinet_pool_create(threads, &pool);
  if (st != PINET_OK) {
#ifdef PINET_HAVE_FFTW3
    free_work(wfin, wfout, extra);
#endif
    return st;
  }
  pinet_pool_free(p->pool);
#ifdef PINET_HAVE_FFTW3
  free_work(p->wfin, p->wfout, p->threads - 1);
  p->wfin = wfin;
  p->wfout = wfout;
#endif
  p->pool = pool;
  p->threads = threads;
  return PINET_OK;
}

uint32_t pinet_fbp_threads(const pinet_fbp *p) { return p->threads; }

uint32_t pinet_fbp_padded_length(const pinet_fbp *p) { return p->plen; }
const double *pinet_fbp_response(const pinet_fbp *p) { return p->response; }
size_t pinet_fbp_filtered_stride(const pinet_fbp *p) { return p->stride; }
const pinet_pb_geom *pinet_fbp_geom(const pinet_fbp *p) { return &p->g; }

#ifdef PINET_HAVE_FFTW3
/* Filter one view (d bins at `row`) through the object's plans on the work buffers fin/fout
 * (new-array execution: any thread may run the plans on its own buffers) into out (stride). */
static pinet_status filter_one(const pinet_fbp *p, const double *h, const float *row, double *fin,
                               fftw_complex *fout, float *out) {
  const uint32_t d = p->g.bins, plen = p->plen;
  const double scale = 1.0 / plen;
  float bad = 0.0f; /* x - x is NaN exactly for a NaN or infinite x: one check per view */
  for (uint32_t b = 0; b < d; b++) {
    bad += row[b] - row[b];
    fin[b] = row[b];
  }
  RETURN_ERROR_IF(bad != 0.0f, PINET_ERR_RANGE);
  memset(fin + d, 0, (plen - d) * sizeof *fin);
  fftw_execute_dft_r2c(p->fwd, fin, fout);
  for (uint32_t k = 0; k <= plen / 2; k++) {
    double s = h[k] * scale;
    fout[k][0] *= s;
    fout[k][1] *= s;
  }
  fftw_execute_dft_c2r(p->inv, fout, fin);
  /* The guards hold the filtered values just outside the detector too (the linear convolution
   * of the zero-extended view, as scikit-image's padded sinogram gives): positive lags at
   * fin[b], negative ones wrapped at fin[P + b]. Where the two would meet (a tiny P), 0. */
  const long lo = -(long)p->pad, hi = (long)p->stride - (long)p->pad; /* b in [lo, hi) */
  float sum = 0.0f;
  for (long b = lo; b < hi; b++) {
    double val = 0.0;
    if (b >= 0 && b < (long)plen && (b < (long)d || b + (long)p->pad < (long)plen)) val = fin[b];
    else if (b < 0 && (long)plen + b >= hi) val = fin[(long)plen + b];
    const float f = (float)val;
    out[p->pad + b] = f;
    sum += f - f;
  }
  RETURN_ERROR_IF(sum != 0.0f, PINET_ERR_RANGE); /* beyond float32 */
  return PINET_OK;
}

typedef struct filter_job {
  pinet_fbp *p;
  const double *h;
  const float *sino;
  uint32_t count;
  float *filtered;
  pinet_status st[PINET_RECON_MAX_THREADS];
} filter_job;

/* Part k of n: views [count k / n, count (k + 1) / n), each on its own (no sum crosses views). */
static void filter_part(void *ctx, uint32_t k, uint32_t n) {
  filter_job *j = ctx;
  pinet_fbp *p = j->p;
  const uint32_t v0 = (uint32_t)((uint64_t)j->count * k / n);
  const uint32_t v1 = (uint32_t)((uint64_t)j->count * (k + 1) / n);
  double *fin = k == 0 ? p->fin : p->wfin[k - 1];
  fftw_complex *fout = k == 0 ? p->fout : p->wfout[k - 1];
  pinet_status st = PINET_OK;
  for (uint32_t v = v0; v < v1 && st == PINET_OK; v++) {
    st = filter_one(p, j->h, j->sino + (size_t)v * p->g.bins, fin, fout,
                    j->filtered + (size_t)v * p->stride);
  }
  j->st[k] = st;
}
#endif

pinet_status pinet_fbp_filter_views(pinet_fbp *p, const double *response, const float *sino,
                                    uint32_t count, float *filtered) {
  RETURN_ERROR_IF(p == NULL || (count > 0 && (sino == NULL || filtered == NULL)), PINET_ERR_NULL);
#ifndef PINET_HAVE_FFTW3
  (void)response;
  return PINET_ERR_UNSUPPORTED;
#else
  filter_job j = {p, response ? response : p->response, sino, count, filtered, {PINET_OK}};
  pinet_pool_run(count > 1 ? p->pool : NULL, filter_part, &j);
  for (uint32_t k = 0; k < pinet_pool_threads(count > 1 ? p->pool : NULL); k++) {
    FORWARD_IF_ERROR(j.st[k]);
  }
  return PINET_OK;
#endif
}

/* ---- backprojection -------------------------------------------------------------------------
 * Four views per sweep over a row, one add per pixel per sweep (the kernels of recon_simd.h; the
 * last count mod 4 views one at a time). The detector position runs as a 64-bit fixed-point
 * number with 32 fraction bits, advanced by an integer step per pixel (incremental index
 * arithmetic: the index is the high word, the weight the next 24 bits), so the position stays
 * exact to ~1e-7 bin over a row and is the same integer whichever kernel computes it. The image
 * is swept in bands of BP_BAND rows (a band's accumulators stay in L1 while every view passes);
 * threads take whole rows. A pixel sums its views in the same order in every case. */
#define BP_BAND 8u

static void bp_one_row(const pinet_fbp *p, const float *q, uint32_t v, uint32_t r, double *accum) {
  const pinet_pb_geom *g = &p->g;
  const uint32_t len = p->row_len[r];
  const double cv = p->cosd[v], sv = p->sind[v];
  const int64_t dv = p->step[v];
  const double off = g->bin_center + p->pad;
  const float wscale = 1.0f / 16777216.0f;
  const double x0 = (double)p->row_lo[r] - g->img_center, y = g->img_center - (double)r;
  int64_t t = bp_fx(x0 * cv + y * sv + off);
  double *acc = accum + (size_t)r * g->size + p->row_lo[r];
  for (uint32_t c = 0; c < len; c++) {
    const int64_t i = t >> 32;
    const float w = (float)((t >> 8) & 0xffffff) * wscale;
    acc[c] += (double)(q[i] + w * (q[i + 1] - q[i]));
    t += dv;
  }
}

typedef struct bp_job {
  const pinet_fbp *p;
  const float *filtered;
  uint32_t first, count;
  double *accum;
  int32_t *accum_fixed;
  int frac_bits;
} bp_job;

static void bp_rows(const bp_job *j, uint32_t r0, uint32_t r1) {
  const pinet_fbp *p = j->p;
  const pinet_pb_geom *g = &p->g;
  const double off = g->bin_center + p->pad;
  const size_t stride = p->stride;
  const uint32_t groups = j->count / 4;
  int64_t t[4 * BP_BAND];
  uint32_t len[BP_BAND];
  double *acc[BP_BAND];
  for (uint32_t b0 = r0; b0 < r1; b0 += BP_BAND) {
    const uint32_t b1 = r1 - b0 < BP_BAND ? r1 : b0 + BP_BAND;
    for (uint32_t r = b0; r < b1; r++) {
      len[r - b0] = p->row_len[r];
      acc[r - b0] = j->accum + (size_t)r * g->size + p->row_lo[r];
    }
    for (uint32_t gi = 0; gi < groups; gi++) {
      pinet_simd_bp4 job;
      const uint32_t k0 = 4 * gi, v = j->first + k0;
      for (int k = 0; k < 4; k++) {
        job.q[k] = j->filtered + (size_t)(k0 + k) * stride;
        job.lo[k] = -(int64_t)((size_t)(k0 + k) * stride);
        job.lim[k] = (int64_t)((size_t)(j->count - k0 - k) * stride);
        job.d[k] = p->step[v + k];
      }
      /* a whole view before and after the group: the kernels' windows (a few tens of floats
       * around an index inside the row) need no check */
      job.interior = k0 >= 1 && k0 + 4 < j->count && stride >= 64;
      job.rows = b1 - b0;
      job.t = t;
      job.len = len;
      job.acc = acc;
      for (uint32_t r = b0; r < b1; r++) {
        const double x0 = (double)p->row_lo[r] - g->img_center, y = g->img_center - (double)r;
        for (int k = 0; k < 4; k++) {
          t[4 * (r - b0) + k] = bp_fx(x0 * p->cosd[v + k] + y * p->sind[v + k] + off);
        }
      }
      p->kern->bp4(&job);
    }
    for (uint32_t k = 4 * groups; k < j->count; k++) {
      for (uint32_t r = b0; r < b1; r++) {
        if (p->row_len[r] > 0) bp_one_row(p, j->filtered + (size_t)k * stride, j->first + k, r, j->accum);
      }
    }
  }
}

/* Part k of n: the rows holding the k-th n-th of the disk's pixels. */
static void bp_part(void *ctx, uint32_t k, uint32_t n) {
  const bp_job *j = ctx;
  uint64_t r0, r1;
  pinet_pool_split(j->p->row_prefix, j->p->g.size, k, n, &r0, &r1);
  bp_rows(j, (uint32_t)r0, (uint32_t)r1);
}

pinet_status pinet_fbp_backproject(const pinet_fbp *p, const float *filtered, uint32_t first,
                                   uint32_t count, double *accum) {
  RETURN_ERROR_IF(p == NULL || accum == NULL || (count > 0 && filtered == NULL), PINET_ERR_NULL);
  RETURN_ERROR_IF(first > p->g.views || count > p->g.views - first, PINET_ERR_RANGE);
  if (count == 0) return PINET_OK;
  bp_job j = {p, filtered, first, count, accum, NULL, 0};
  pinet_pool_run(p->pool, bp_part, &j);
  return PINET_OK;
}

/* The fixed path: positions in float as before (b + c cos per pixel), each view's value rounded
 * to int32 and summed modulo 2^32, so any grouping of the views gives the same integers. */
static void bpfx_rows(const bp_job *j, uint32_t r0, uint32_t r1) {
  const pinet_fbp *p = j->p;
  const pinet_pb_geom *g = &p->g;
  const double scale = ldexp(1.0, j->frac_bits);
  const double off = g->bin_center + p->pad;
  const size_t stride = p->stride;
  for (uint32_t b0 = r0; b0 < r1; b0 += BP_BAND) {
    const uint32_t b1 = r1 - b0 < BP_BAND ? r1 : b0 + BP_BAND;
    for (uint32_t k0 = 0; k0 < j->count; k0 += 4) {
      const uint32_t nv = j->count - k0 < 4 ? j->count - k0 : 4;
      pinet_simd_bpfx4 job;
      for (uint32_t k = 0; k < 4; k++) {
        const uint32_t kk = k < nv ? k0 + k : k0; /* unused slots repeat a real view */
        job.q[k] = j->filtered + (size_t)kk * stride;
        job.lim[k] = (int64_t)((size_t)(j->count - kk) * stride);
        job.cv[k] = p->cosv[j->first + kk];
      }
      for (uint32_t r = b0; r < b1; r++) {
        const uint32_t len = p->row_len[r];
        if (len == 0) continue;
        const double x0 = (double)p->row_lo[r] - g->img_center, y = g->img_center - (double)r;
        for (uint32_t k = 0; k < 4; k++) {
          const uint32_t kk = k < nv ? k0 + k : k0;
          const float cv = p->cosv[j->first + kk], sv = p->sinv[j->first + kk];
          job.b[k] = (float)(x0 * cv + y * sv + off);
        }
        p->kern->bpfx4(&job, nv, 0, len, scale, j->accum_fixed + (size_t)r * g->size + p->row_lo[r]);
      }
    }
  }
}

static void bpfx_part(void *ctx, uint32_t k, uint32_t n) {
  const bp_job *j = ctx;
  uint64_t r0, r1;
  pinet_pool_split(j->p->row_prefix, j->p->g.size, k, n, &r0, &r1);
  bpfx_rows(j, (uint32_t)r0, (uint32_t)r1);
}

pinet_status pinet_fbp_backproject_fixed(const pinet_fbp *p, const float *filtered, uint32_t first,
                                         uint32_t count, int frac_bits, int32_t *accum_fixed) {
  RETURN_ERROR_IF(p == NULL || accum_fixed == NULL || (count > 0 && filtered == NULL),
                  PINET_ERR_NULL);
  RETURN_ERROR_IF(first > p->g.views || count > p->g.views - first, PINET_ERR_RANGE);
  RETURN_ERROR_IF(frac_bits < PINET_RECON_FIXED_BITS_MIN || frac_bits > PINET_RECON_FIXED_BITS_MAX,
                  PINET_ERR_RANGE);
  if (count == 0) return PINET_OK;
  bp_job j = {p, filtered, first, count, NULL, accum_fixed, frac_bits};
  pinet_pool_run(p->pool, bpfx_part, &j);
  return PINET_OK;
}

pinet_status pinet_fbp_finish(const pinet_fbp *p, const double *accum, float *img) {
  RETURN_ERROR_IF(p == NULL || accum == NULL || img == NULL, PINET_ERR_NULL);
  const pinet_pb_geom *g = &p->g;
  const double scale = M_PI / g->views;
  memset(img, 0, (size_t)g->size * g->size * sizeof *img);
  for (uint32_t r = 0; r < g->size; r++) {
    size_t base = (size_t)r * g->size + p->row_lo[r];
    for (uint32_t c = 0; c < p->row_len[r]; c++) {
      img[base + c] = (float)(accum[base + c] * scale);
      RETURN_ERROR_IF(!isfinite(img[base + c]), PINET_ERR_RANGE);
    }
  }
  return PINET_OK;
}

pinet_status pinet_fbp_finish_fixed(const pinet_fbp *p, const int32_t *accum_fixed, int frac_bits,
                                    float *img) {
  RETURN_ERROR_IF(p == NULL || accum_fixed == NULL || img == NULL, PINET_ERR_NULL);
  RETURN_ERROR_IF(frac_bits < PINET_RECON_FIXED_BITS_MIN || frac_bits > PINET_RECON_FIXED_BITS_MAX,
                  PINET_ERR_RANGE);
  const pinet_pb_geom *g = &p->g;
  const double scale = M_PI / g->views * ldexp(1.0, -frac_bits);
  memset(img, 0, (size_t)g->size * g->size * sizeof *img);
  for (uint32_t r = 0; r < g->size; r++) {
    size_t base = (size_t)r * g->size + p->row_lo[r];
    for (uint32_t c = 0; c < p->row_len[r]; c++) {
      img[base + c] = (float)((double)accum_fixed[base + c] * scale);
      RETURN_ERROR_IF(!isfinite(img[base + c]), PINET_ERR_RANGE);
    }
  }
  return PINET_OK;
}

pinet_status pinet_fbp_run(pinet_fbp *p, const float *sino, float *img) {
  RETURN_ERROR_IF(p == NULL || sino == NULL || img == NULL, PINET_ERR_NULL);
  FORWARD_IF_ERROR(pinet_fbp_filter_views(p, NULL, sino, p->g.views, p->filtered));
  memset(p->accum, 0, (size_t)p->g.size * p->g.size * sizeof *p->accum);
  FORWARD_IF_ERROR(pinet_fbp_backproject(p, p->filtered, 0, p->g.views, p->accum));
  return pinet_fbp_finish(p, p->accum, img);
}

/* floor(log2(2^30 / bound)), 30 for a bound of 0; INT_MIN for a non-finite bound. */
static int fixed_bits_for(double bound) {
  if (!isfinite(bound)) return INT_MIN;
  if (!(bound > 0)) return 30;
  return (int)floor(30.0 - log2(bound)); /* |log2| < 1100 for any finite double: no overflow */
}

pinet_status pinet_fbp_fixed_scale(const pinet_fbp *p, const float *filtered_all, int *frac_bits,
                                   double *largest) {
  RETURN_ERROR_IF(p == NULL || filtered_all == NULL || frac_bits == NULL, PINET_ERR_NULL);
  double mx = 0.0;
  const size_t n = (size_t)p->g.views * p->stride;
  for (size_t i = 0; i < n; i++) {
    const double a = fabs((double)filtered_all[i]);
    if (!(a <= mx)) mx = a; /* a NaN is kept too: it fails the range check below */
  }
  if (largest != NULL) *largest = mx;
  const int bits = fixed_bits_for(mx * p->g.views);
  RETURN_ERROR_IF(bits < PINET_RECON_FIXED_BITS_MIN || bits > PINET_RECON_FIXED_BITS_MAX,
                  PINET_ERR_RANGE);
  *frac_bits = bits;
  return PINET_OK;
}

int pinet_fbp_fixed_bits(const pinet_fbp *p, const float *filtered_all) {
  double mx = 0.0;
  size_t n = (size_t)p->g.views * p->stride;
  for (size_t i = 0; i < n; i++) mx = fmax(mx, fabs((double)filtered_all[i]));
  int bits = fixed_bits_for(mx * p->g.views);
  if (bits < PINET_RECON_FIXED_BITS_MIN) bits = PINET_RECON_FIXED_BITS_MIN;
  if (bits > PINET_RECON_FIXED_BITS_MAX) bits = PINET_RECON_FIXED_BITS_MAX;
  return bits;
}

pinet_status pinet_fbp_run_fixed(pinet_fbp *p, const float *sino, int frac_bits, float *img) {
  RETURN_ERROR_IF(p == NULL || sino == NULL || img == NULL, PINET_ERR_NULL);
  const size_t npix = (size_t)p->g.size * p->g.size;
  int32_t *acc = calloc(npix ? npix : 1, sizeof *acc);
  RETURN_ERROR_IF(acc == NULL, PINET_ERR_NOMEM);
  pinet_status st = pinet_fbp_filter_views(p, NULL, sino, p->g.views, p->filtered);
  if (st == PINET_OK) st = pinet_fbp_backproject_fixed(p, p->filtered, 0, p->g.views, frac_bits, acc);
  if (st == PINET_OK) st = pinet_fbp_finish_fixed(p, acc, frac_bits, img);
  free(acc);
  return st;
}

pinet_status pinet_fbp_ring(const pinet_ring *ring, const float *pair_values,
                            pinet_fbp_filter filter, float *img) {
  RETURN_ERROR_IF(ring == NULL || pair_values == NULL || img == NULL, PINET_ERR_NULL);
  pinet_pb_geom g;
  FORWARD_IF_ERROR(pinet_pb_geom_init(&g, ring->size, ring->detectors, ring->size));
  g.img_center = ring->img_center;
  g.bin_center = ring->img_center;
  float *sino = malloc((size_t)g.views * g.bins * sizeof *sino);
  RETURN_ERROR_IF(sino == NULL, PINET_ERR_NOMEM);
  pinet_fbp *p = NULL;
  pinet_status st = pinet_ring_rebin(ring, pair_values, &g, sino);
  if (st == PINET_OK) st = pinet_fbp_create(&g, filter, &p);
  if (st == PINET_OK) st = pinet_fbp_run(p, sino, img);
  pinet_fbp_free(p);
  free(sino);
  return st;
}
