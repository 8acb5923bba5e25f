/* recon_em.c - Shepp-Vardi EM (steps S1-S4 as separate kernels), its log-likelihood, OSEM and
 * the fixed-point variants of the summed terms (pinet/recon.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "pinet/recon.h"

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#define PINET_EM_AVX2 1 /* an AVX2 forward-projection dot product, chosen at run time */
#endif

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

#ifdef PINET_EM_AVX2
/* sum val[e] * x[idx[e]], four lanes of doubles, 8 entries per step; lanes added at the end. */
__attribute__((target("avx2,fma"))) static double dot16_avx2(const uint16_t *idx, const float *val,
                                                             uint64_t e0, uint64_t e1,
                                                             const double *x) {
  __m256d a0 = _mm256_setzero_pd(), a1 = _mm256_setzero_pd();
  uint64_t e = e0;
  for (; e + 8 <= e1; e += 8) {
    const __m128i i16 = _mm_loadu_si128((const __m128i *)(idx + e));
    const __m128i lo = _mm_cvtepu16_epi32(i16), hi = _mm_cvtepu16_epi32(_mm_srli_si128(i16, 8));
    const __m256d x0 = _mm256_i32gather_pd(x, lo, 8), x1 = _mm256_i32gather_pd(x, hi, 8);
    const __m256d v0 = _mm256_cvtps_pd(_mm_loadu_ps(val + e)), v1 = _mm256_cvtps_pd(_mm_loadu_ps(val + e + 4));
    a0 = _mm256_fmadd_pd(v0, x0, a0);
    a1 = _mm256_fmadd_pd(v1, x1, a1);
  }
  double lanes[4];
  _mm256_storeu_pd(lanes, _mm256_add_pd(a0, a1));
  double s = (lanes[0] + lanes[1]) + (lanes[2] + lanes[3]);
  for (; e < e1; e++) s += (double)val[e] * x[idx[e]];
  return s;
}
#endif

static double dot16(const uint16_t *idx, const float *val, uint64_t e0, uint64_t e1,
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

/* The fused sweep with 16-bit column indices. */
static void s123_idx16(const pinet_csr *bt, const uint16_t *idx, const double *counts,
                       const double *lambda, int avx2, double *nbar, double *ratio, double *d) {
  const float *val = bt->val;
  (void)avx2;
  for (uint32_t t = 0; t < bt->rows; t++) {
    const uint64_t e0 = bt->ptr[t], e1 = bt->ptr[t + 1];
    uint64_t e;
#ifdef PINET_EM_AVX2
    const double nb = avx2 ? dot16_avx2(idx, val, e0, e1, lambda) : dot16(idx, val, e0, e1, lambda);
#else
    const double nb = dot16(idx, val, e0, e1, lambda);
#endif
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
  for (size_t b = b0; b < b1; b++) lambda[b] = sens[b] > 0.0 ? lambda[b] * d[b] / sens[b] : 0.0;
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

int pinet_em_fixed_bits(double total_counts) {
  if (!(total_counts > 0)) return 30;
  int bits = (int)floor(log2(ldexp(1.0, 30) / total_counts));
  if (bits < -8) bits = -8;
  if (bits > 30) bits = 30;
  return bits;
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
  int avx2;
  double *counts, *lambda, *nbar, *ratio, *d, *sens;
  double *sens_sub; /* subsets * boxes (OSEM) */
  int32_t *fx_t, *fx_b;
};

void pinet_em_free(pinet_em *em) {
  if (em == NULL) return;
  free(em->counts);
  free(em->lambda);
  free(em->nbar);
  free(em->ratio);
  free(em->d);
  free(em->sens);
  free(em->sens_sub);
  free(em->fx_t);
  free(em->fx_b);
  free(em);
}

static void uniform_start(pinet_em *em) {
  double tot = 0.0, stot = 0.0;
  for (uint32_t t = 0; t < em->tubes; t++) tot += em->counts[t];
  for (uint32_t b = 0; b < em->boxes; b++) stot += em->sens[b];
  double v = (tot > 0 && stot > 0) ? tot / stot : 1.0;
  for (uint32_t b = 0; b < em->boxes; b++) em->lambda[b] = v;
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
#ifdef PINET_EM_AVX2
  em->avx2 = !o.portable && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#endif
  size_t tn = tubes ? tubes : 1, bn = boxes ? boxes : 1;
  em->counts = malloc(tn * sizeof(double));
  em->lambda = malloc(bn * sizeof(double));
  em->nbar = malloc(tn * sizeof(double));
  em->ratio = malloc(tn * sizeof(double));
  em->d = malloc(bn * sizeof(double));
  em->sens = malloc(bn * sizeof(double));
  em->fx_t = malloc(tn * sizeof(int32_t));
  em->fx_b = malloc(bn * sizeof(int32_t));
  if (o.subsets > 1) em->sens_sub = calloc((size_t)o.subsets * bn, sizeof(double));
  if (!em->counts || !em->lambda || !em->nbar || !em->ratio || !em->d || !em->sens || !em->fx_t ||
      !em->fx_b || (o.subsets > 1 && !em->sens_sub)) {
    pinet_em_free(em);
    return PINET_ERR_NOMEM;
  }
  memcpy(em->counts, counts, (size_t)tubes * sizeof(double));
  pinet_em_sensitivity(&em->bb, em->sens);
  if (o.subsets > 1) {
    const uint32_t *tv = pinet_sysmat_tube_view(m);
    for (uint32_t b = 0; b < boxes; b++) {
      for (uint64_t e = em->bb.ptr[b]; e < em->bb.ptr[b + 1]; e++) {
        em->sens_sub[(size_t)(tv[em->bb.idx[e]] % o.subsets) * boxes + b] += em->bb.val[e];
      }
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
  return PINET_OK;
}

/* One OSEM sub-iteration over the tubes whose view is in subset s. */
static void osem_sub(pinet_em *em, uint32_t s) {
  const uint32_t *tv = pinet_sysmat_tube_view(em->m);
  const pinet_csr *bt = &em->bt, *bb = &em->bb;
  for (uint32_t t = 0; t < em->tubes; t++) {
    if (tv[t] % em->subsets != s) continue;
    double acc = 0.0;
    for (uint64_t e = bt->ptr[t]; e < bt->ptr[t + 1]; e++) acc += (double)bt->val[e] * em->lambda[bt->idx[e]];
    em->ratio[t] = acc > 0.0 ? em->counts[t] / acc : 0.0;
  }
  const double *ss = em->sens_sub + (size_t)s * em->boxes;
  for (uint32_t b = 0; b < em->boxes; b++) {
    double acc = 0.0;
    for (uint64_t e = bb->ptr[b]; e < bb->ptr[b + 1]; e++) {
      uint32_t t = bb->idx[e];
      if (tv[t] % em->subsets == s) acc += (double)bb->val[e] * em->ratio[t];
    }
    em->lambda[b] = ss[b] > 0.0 ? em->lambda[b] * acc / ss[b] : 0.0;
  }
}

pinet_status pinet_em_iterate(pinet_em *em, double *loglik) {
  RETURN_ERROR_IF(em == NULL, PINET_ERR_NULL);
  if (em->subsets > 1) {
    if (loglik != NULL) FORWARD_IF_ERROR(pinet_em_current_loglik(em, loglik));
    for (uint32_t s = 0; s < em->subsets; s++) osem_sub(em, s);
    em->iters++;
    return PINET_OK;
  }
  if (em->arith == PINET_RECON_FIXED) {
    const double inv = ldexp(1.0, -em->bits);
    memset(em->fx_t, 0, (size_t)em->tubes * sizeof(int32_t));
    pinet_em_s1_entries_fixed(&em->bb, 0, 0, em->bb.nnz, em->lambda, em->bits, em->fx_t);
    for (uint32_t t = 0; t < em->tubes; t++) em->nbar[t] = (double)em->fx_t[t] * inv;
    if (loglik != NULL) *loglik = pinet_em_loglik(em->counts, em->nbar, em->tubes);
    pinet_em_s2(em->counts, em->nbar, 0, em->tubes, em->ratio);
    memset(em->fx_b, 0, (size_t)em->boxes * sizeof(int32_t));
    pinet_em_s3_entries_fixed(&em->bb, 0, 0, em->bb.nnz, em->lambda, em->ratio, em->bits, em->fx_b);
    pinet_em_s4_fixed(em->fx_b, em->bits, em->sens, 0, em->boxes, em->lambda);
    em->iters++;
    return PINET_OK;
  }
  /* S1-S3 in one pass over the tubes (each row is read from memory once), then S4 */
  memset(em->d, 0, (size_t)em->boxes * sizeof(double));
  const uint16_t *i16 = pinet_sysmat_by_tube_idx16(em->m);
  if (i16 != NULL) s123_idx16(&em->bt, i16, em->counts, em->lambda, em->avx2, em->nbar, em->ratio, em->d);
  else pinet_em_s123_by_tube(&em->bt, em->counts, em->lambda, em->nbar, em->ratio, em->d);
  if (loglik != NULL) *loglik = pinet_em_loglik(em->counts, em->nbar, em->tubes);
  pinet_em_s4(em->d, em->sens, 0, em->boxes, em->lambda);
  em->iters++;
  return PINET_OK;
}

pinet_status pinet_em_current_loglik(pinet_em *em, double *loglik) {
  RETURN_ERROR_IF(em == NULL || loglik == NULL, PINET_ERR_NULL);
  pinet_em_s1(&em->bt, em->lambda, em->nbar);
  *loglik = pinet_em_loglik(em->counts, em->nbar, em->tubes);
  return PINET_OK;
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
