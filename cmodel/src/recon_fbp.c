/* recon_fbp.c - filtered backprojection: filters, FFTW filtering, linear-interpolation
 * backprojection over the reconstruction disk (pinet/recon.h). */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/recon.h"

#ifdef PINET_HAVE_FFTW3
#include <fftw3.h>
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define PINET_FBP_AVX2 1 /* an AVX2 backprojection, chosen at run time when the CPU has it */
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

struct pinet_fbp {
  pinet_pb_geom g;
  pinet_fbp_filter filter;
  uint32_t plen;      /* P */
  size_t stride;      /* filtered row length */
  uint32_t pad;       /* zero guard before bin 0 */
  double *response;   /* P/2 + 1 */
  float *cosv, *sinv; /* per view */
  double *cosd, *sind;
  int avx2;           /* 1: use bp_group4_avx2 */
  uint32_t *row_lo, *row_len; /* disk columns per row */
  float *filtered;    /* views * stride, for pinet_fbp_run */
  double *accum;      /* size * size */
#ifdef PINET_HAVE_FFTW3
  double *fin;
  fftw_complex *fout;
  fftw_plan fwd, inv;
#endif
};

void pinet_fbp_free(pinet_fbp *p) {
  if (p == NULL) return;
#ifdef PINET_HAVE_FFTW3
  if (p->fwd) fftw_destroy_plan(p->fwd);
  if (p->inv) fftw_destroy_plan(p->inv);
  fftw_free(p->fin);
  fftw_free(p->fout);
#endif
  free(p->response);
  free(p->cosv);
  free(p->sinv);
  free(p->cosd);
  free(p->sind);
  free(p->row_lo);
  free(p->row_len);

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
  p->row_lo = malloc(g->size * sizeof *p->row_lo);
  p->row_len = malloc(g->size * sizeof *p->row_len);
  p->filtered = malloc((size_t)g->views * p->stride * sizeof *p->filtered);
  p->accum = malloc(npix * sizeof *p->accum);
  p->fin = fftw_malloc(plen * sizeof *p->fin);
  p->fout = fftw_malloc((plen / 2 + 1) * sizeof *p->fout);
  if (!p->response || !p->cosv || !p->sinv || !p->cosd || !p->sind || !p->row_lo || !p->row_len || !p->filtered ||
      !p->accum || !p->fin || !p->fout) {
    pinet_fbp_free(p);
    return PINET_ERR_NOMEM;
  }
#ifdef PINET_FBP_AVX2
  p->avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
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
  *out = p;
  return PINET_OK;
#endif
}

pinet_status pinet_fbp_set_portable(pinet_fbp *p, int portable) {
  RETURN_ERROR_IF(p == NULL, PINET_ERR_NULL);
#ifdef PINET_FBP_AVX2
  p->avx2 = !portable && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  (void)portable;
#endif
  return PINET_OK;
}

uint32_t pinet_fbp_padded_length(const pinet_fbp *p) { return p->plen; }
const double *pinet_fbp_response(const pinet_fbp *p) { return p->response; }
size_t pinet_fbp_filtered_stride(const pinet_fbp *p) { return p->stride; }
const pinet_pb_geom *pinet_fbp_geom(const pinet_fbp *p) { return &p->g; }

pinet_status pinet_fbp_filter_views(pinet_fbp *p, const double *response, const float *sino,
                                    uint32_t count, float *filtered) {
  RETURN_ERROR_IF(p == NULL || (count > 0 && (sino == NULL || filtered == NULL)), PINET_ERR_NULL);
#ifndef PINET_HAVE_FFTW3
  (void)response;
  return PINET_ERR_UNSUPPORTED;
#else
  const double *h = response ? response : p->response;
  const uint32_t d = p->g.bins, plen = p->plen;
  const double scale = 1.0 / plen;
  for (uint32_t v = 0; v < count; v++) {
    const float *row = sino + (size_t)v * d;
    for (uint32_t b = 0; b < d; b++) {
      RETURN_ERROR_IF(!isfinite(row[b]), PINET_ERR_RANGE);
      p->fin[b] = row[b];
    }
    memset(p->fin + d, 0, (plen - d) * sizeof *p->fin);
    fftw_execute(p->fwd);
    for (uint32_t k = 0; k <= plen / 2; k++) {
      double s = h[k] * scale;
      p->fout[k][0] *= s;
      p->fout[k][1] *= s;
    }
    fftw_execute(p->inv);
    /* The guards hold the filtered values just outside the detector too (the linear convolution
     * of the zero-extended view, as scikit-image's padded sinogram gives): positive lags at
     * fin[b], negative ones wrapped at fin[P + b]. Where the two would meet (a tiny P), 0. */
    float *out = filtered + (size_t)v * p->stride;
    const long lo = -(long)p->pad, hi = (long)p->stride - (long)p->pad; /* b in [lo, hi) */
    for (long b = lo; b < hi; b++) {
      double val = 0.0;
      if (b >= 0 && b < (long)plen && (b < (long)d || b + (long)p->pad < (long)plen)) val = p->fin[b];
      else if (b < 0 && (long)plen + b >= hi) val = p->fin[(long)plen + b];
      out[p->pad + b] = (float)val;
      RETURN_ERROR_IF(!isfinite(out[p->pad + b]), PINET_ERR_RANGE); /* beyond float32 */
    }
  }
  return PINET_OK;
#endif
}

/* The hot loop: four views per sweep over the disk, one add per pixel per sweep. The detector
 * position runs as a 64-bit fixed-point number with 32 fraction bits, advanced by an integer step
 * per pixel (incremental index arithmetic: the index is the high word, the weight the next 24
 * bits), so the position stays exact to ~1e-7 bin over a row. */
#define BP_ONE (4294967296.0) /* 2^32 */
static int64_t bp_fx(double x) { return (int64_t)llround(x * BP_ONE); }

static void bp_group4(const pinet_fbp *p, const float *q0, const float *q1, const float *q2,
                      const float *q3, uint32_t v, double *accum) {
  const pinet_pb_geom *g = &p->g;
  const double c0 = p->cosd[v], c1 = p->cosd[v + 1], c2 = p->cosd[v + 2], c3 = p->cosd[v + 3];
  const double s0 = p->sind[v], s1 = p->sind[v + 1], s2 = p->sind[v + 2], s3 = p->sind[v + 3];
  const int64_t d0 = bp_fx(c0), d1 = bp_fx(c1), d2 = bp_fx(c2), d3 = bp_fx(c3);
  const double off = g->bin_center + p->pad;
  const float wscale = 1.0f / 16777216.0f; /* 2^-24 */
  for (uint32_t r = 0; r < g->size; r++) {
    const uint32_t len = p->row_len[r];
    if (len == 0) continue;
    const double x0 = (double)p->row_lo[r] - g->img_center, y = g->img_center - (double)r;
    int64_t t0 = bp_fx(x0 * c0 + y * s0 + off), t1 = bp_fx(x0 * c1 + y * s1 + off);
    int64_t t2 = bp_fx(x0 * c2 + y * s2 + off), t3 = bp_fx(x0 * c3 + y * s3 + off);
    double *acc = accum + (size_t)r * g->size + p->row_lo[r];
    for (uint32_t c = 0; c < len; c++) {
      const int64_t i0 = t0 >> 32, i1 = t1 >> 32, i2 = t2 >> 32, i3 = t3 >> 32;
      const float w0 = (float)((t0 >> 8) & 0xffffff) * wscale;
      const float w1 = (float)((t1 >> 8) & 0xffffff) * wscale;
      const float w2 = (float)((t2 >> 8) & 0xffffff) * wscale;
      const float w3 = (float)((t3 >> 8) & 0xffffff) * wscale;
      const float v0 = q0[i0] + w0 * (q0[i0 + 1] - q0[i0]);
      const float v1 = q1[i1] + w1 * (q1[i1 + 1] - q1[i1]);
      const float v2 = q2[i2] + w2 * (q2[i2 + 1] - q2[i2]);
      const float v3 = q3[i3] + w3 * (q3[i3 + 1] - q3[i3]);
      acc[c] += (double)((v0 + v1) + (v2 + v3));
      t0 += d0;
      t1 += d1;
      t2 += d2;
      t3 += d3;
    }
  }
}

#ifdef PINET_FBP_AVX2
/* The same sweep, eight pixels at a time: positions in double (exact to ~1e-13 bin), one 64-bit
 * gather per pixel fetching the pair (q[i], q[i+1]) from `pairs` (pairs[2j] = q[j], pairs[2j+1]
 * = q[j+1]), interpolation in float, accumulation in double. The two gathers of a step come back
 * in the lane order 0 1 4 5 2 3 6 7, which the weights follow; the sum is put back in order. */
__attribute__((target("avx2,fma"))) static void bp_group4_avx2(const pinet_fbp *p,
                                                               const float *const pairs[4],
                                                               uint32_t v, double *accum) {
  const pinet_pb_geom *g = &p->g;
  const double cs[4] = {p->cosd[v], p->cosd[v + 1], p->cosd[v + 2], p->cosd[v + 3]};
  const double sn[4] = {p->sind[v], p->sind[v + 1], p->sind[v + 2], p->sind[v + 3]};
  const double off = g->bin_center + p->pad;
  const __m256d lane = _mm256_set_pd(3.0, 2.0, 1.0, 0.0);
  const __m256i perm = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);
  __m256d vc[4];
  for (int k = 0; k < 4; k++) vc[k] = _mm256_set1_pd(cs[k]);
  for (uint32_t r = 0; r < g->size; r++) {
    const uint32_t len = p->row_len[r];
    if (len == 0) continue;
    const double x0 = (double)p->row_lo[r] - g->img_center, y = g->img_center - (double)r;
    double base[4];
    __m256d vb[4];
    for (int k = 0; k < 4; k++) {
      base[k] = x0 * cs[k] + y * sn[k] + off;
      vb[k] = _mm256_set1_pd(base[k]);
    }
    double *acc = accum + (size_t)r * g->size + p->row_lo[r];
    uint32_t c = 0;
    for (; c + 8 <= len; c += 8) {
      const __m256d fa = _mm256_add_pd(_mm256_set1_pd((double)c), lane);
      const __m256d fb = _mm256_add_pd(fa, _mm256_set1_pd(4.0));
      __m256 sum = _mm256_setzero_ps();
      for (int k = 0; k < 4; k++) {
        const __m256d ta = _mm256_fmadd_pd(fa, vc[k], vb[k]);
        const __m256d tb = _mm256_fmadd_pd(fb, vc[k], vb[k]);
        const __m128i ia = _mm256_cvttpd_epi32(ta), ib = _mm256_cvttpd_epi32(tb);
        const __m128 wa = _mm256_cvtpd_ps(_mm256_sub_pd(ta, _mm256_cvtepi32_pd(ia)));
        const __m128 wb = _mm256_cvtpd_ps(_mm256_sub_pd(tb, _mm256_cvtepi32_pd(ib)));
        const __m256 w8 = _mm256_permutevar8x32_ps(_mm256_set_m128(wb, wa), perm);
        const __m256 ga = _mm256_castpd_ps(_mm256_i32gather_pd((const double *)pairs[k], ia, 8));
        const __m256 gb = _mm256_castpd_ps(_mm256_i32gather_pd((const double *)pairs[k], ib, 8));
        const __m256 lo = _mm256_shuffle_ps(ga, gb, _MM_SHUFFLE(2, 0, 2, 0));
        const __m256 hi = _mm256_shuffle_ps(ga, gb, _MM_SHUFFLE(3, 1, 3, 1));
        sum = _mm256_add_ps(sum, _mm256_fmadd_ps(w8, _mm256_sub_ps(hi, lo), lo));
      }
      sum = _mm256_permutevar8x32_ps(sum, perm);
      _mm256_storeu_pd(acc + c, _mm256_add_pd(_mm256_loadu_pd(acc + c),
                                              _mm256_cvtps_pd(_mm256_castps256_ps128(sum))));
      _mm256_storeu_pd(acc + c + 4, _mm256_add_pd(_mm256_loadu_pd(acc + c + 4),
                                                  _mm256_cvtps_pd(_mm256_extractf128_ps(sum, 1))));
    }
    for (; c < len; c++) {
      float vv[4];
      for (int k = 0; k < 4; k++) {
        const double t = base[k] + (double)c * cs[k];
        const int i = (int)t;
        const float w = (float)(t - i);
        vv[k] = pairs[k][2 * i] + w * (pairs[k][2 * i + 1] - pairs[k][2 * i]);
      }
      acc[c] += (double)((vv[0] + vv[1]) + (vv[2] + vv[3]));
    }
  }
}
#endif

static void bp_one(const pinet_fbp *p, const float *q, uint32_t v, double *accum) {
  const pinet_pb_geom *g = &p->g;
  const double cv = p->cosd[v], sv = p->sind[v];
  const int64_t dv = bp_fx(cv);
  const double off = g->bin_center + p->pad;
  const float wscale = 1.0f / 16777216.0f;
  for (uint32_t r = 0; r < g->size; r++) {
    const uint32_t len = p->row_len[r];
    if (len == 0) continue;
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
}

pinet_status pinet_fbp_backproject(const pinet_fbp *p, const float *filtered, uint32_t first,
                                   uint32_t count, double *accum) {
  RETURN_ERROR_IF(p == NULL || accum == NULL || (count > 0 && filtered == NULL), PINET_ERR_NULL);
  RETURN_ERROR_IF(first > p->g.views || count > p->g.views - first, PINET_ERR_RANGE);
  uint32_t k = 0;
#ifdef PINET_FBP_AVX2
  if (p->avx2 && count >= 4) {
    /* (q[i], q[i+1]) pairs of four views at a time, for the 64-bit gathers */
    float *pairs = malloc(4 * 2 * p->stride * sizeof *pairs);
    RETURN_ERROR_IF(pairs == NULL, PINET_ERR_NOMEM);
    for (; k + 4 <= count; k += 4) {
      const float *pp[4];
      for (int j = 0; j < 4; j++) {
        const float *q = filtered + (size_t)(k + j) * p->stride;
        float *dst = pairs + (size_t)j * 2 * p->stride;
        for (size_t i = 0; i + 1 < p->stride; i++) {
          dst[2 * i] = q[i];
          dst[2 * i + 1] = q[i + 1];
        }
        dst[2 * (p->stride - 1)] = q[p->stride - 1];
        dst[2 * (p->stride - 1) + 1] = 0.0f;
        pp[j] = dst;
      }
      bp_group4_avx2(p, pp, first + k, accum);
    }
    free(pairs);
  }
#endif
  for (; k + 4 <= count; k += 4) {
    const float *q = filtered + (size_t)k * p->stride;
    bp_group4(p, q, q + p->stride, q + 2 * p->stride, q + 3 * p->stride, first + k, accum);
  }
  for (; k < count; k++) bp_one(p, filtered + (size_t)k * p->stride, first + k, accum);
  return PINET_OK;
}

static int32_t quantise(double v, double scale) {
  double r = nearbyint(v * scale);
  /* wrap like a 32-bit register: keep the low 32 bits of the integer */
  if (!(fabs(r) < 9.0e15)) r = 0.0;
  int64_t i = (int64_t)r;
  return (int32_t)(uint32_t)(uint64_t)i;
}

static int32_t wrap_add(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

pinet_status pinet_fbp_backproject_fixed(const pinet_fbp *p, const float *filtered, uint32_t first,
                                         uint32_t count, int frac_bits, int32_t *accum_fixed) {
  RETURN_ERROR_IF(p == NULL || accum_fixed == NULL || (count > 0 && filtered == NULL),
                  PINET_ERR_NULL);
  RETURN_ERROR_IF(first > p->g.views || count > p->g.views - first, PINET_ERR_RANGE);
  RETURN_ERROR_IF(frac_bits < PINET_RECON_FIXED_BITS_MIN || frac_bits > PINET_RECON_FIXED_BITS_MAX,
                  PINET_ERR_RANGE);
  const pinet_pb_geom *g = &p->g;
  const double scale = ldexp(1.0, frac_bits);
  const double off = g->bin_center + p->pad;
  for (uint32_t k = 0; k < count; k++) {
    const float *q = filtered + (size_t)k * p->stride;
    const float cv = p->cosv[first + k], sv = p->sinv[first + k];
    for (uint32_t r = 0; r < g->size; r++) {
      const uint32_t len = p->row_len[r];
      const double x0 = (double)p->row_lo[r] - g->img_center, y = g->img_center - (double)r;
      const float b = (float)(x0 * cv + y * sv + off);
      int32_t *acc = accum_fixed + (size_t)r * g->size + p->row_lo[r];
      for (uint32_t c = 0; c < len; c++) {
        const float t = b + (float)c * cv;
        const int i = (int)t;
        const float w = t - (float)i;
        const float val = q[i] + w * (q[i + 1] - q[i]);
        acc[c] = wrap_add(acc[c], quantise((double)val, scale));
      }
    }
  }
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
