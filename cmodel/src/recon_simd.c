/* recon_simd.c - which instruction set runs (pinet_isa_*), the C kernels that are the
 * PINET_ISA_SSE2 variant and the reference of the others, and the kernel tables (recon_simd.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "error_private.h"
#include "recon_simd.h"

static const char *const k_isa_names[PINET_ISA_COUNT] = {"sse2", "avx2", "avx512"};

const char *pinet_isa_name(pinet_isa isa) {
  return (unsigned)isa < PINET_ISA_COUNT ? k_isa_names[isa] : NULL;
}

pinet_status pinet_isa_parse(const char *name, pinet_isa *out) {
  RETURN_ERROR_IF(name == NULL || out == NULL, PINET_ERR_NULL);
  for (unsigned i = 0; i < PINET_ISA_COUNT; i++) {
    if (strcmp(name, k_isa_names[i]) == 0) {
      *out = (pinet_isa)i;
      return PINET_OK;
    }
  }
  return PINET_ERR_RANGE;
}

/* The CPU's features come from libgcc's table, filled once by its constructor before main (and
 * checked against the OS's saved register state): reading it is reading a constant. */
int pinet_isa_supported(pinet_isa isa) {
  switch (isa) {
    case PINET_ISA_SSE2: return 1;
#if defined(PINET_SIMD_X86)
    case PINET_ISA_AVX2:
      return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    case PINET_ISA_AVX512:
      return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
             __builtin_cpu_supports("fma");
#endif
    default: return 0;
  }
}

pinet_isa pinet_isa_best(void) {
  for (int i = PINET_ISA_COUNT - 1; i > 0; i--) {
    if (pinet_isa_supported((pinet_isa)i)) return (pinet_isa)i;
  }
  return PINET_ISA_SSE2;
}

pinet_status pinet_isa_from_env(pinet_isa *out) {
  RETURN_ERROR_IF(out == NULL, PINET_ERR_NULL);
  const pinet_isa best = pinet_isa_best();
  *out = best;
  const char *v = getenv(PINET_ISA_ENV);
  if (v == NULL || v[0] == '\0' || strcmp(v, "auto") == 0) return PINET_OK;
  pinet_isa want;
  RETURN_ERROR_IF(pinet_isa_parse(v, &want) != PINET_OK, PINET_ERR_RANGE);
  if (want < best) *out = want;
  return PINET_OK;
}

pinet_isa pinet_simd_default_isa(void) {
  pinet_isa isa = PINET_ISA_SSE2;
  (void)pinet_isa_from_env(&isa); /* an unknown value: the widest (what *out holds then) */
  return isa;
}

/* ---- the C kernels ---------------------------------------------------------------------------- */

static inline float bp_value(const float *q, int64_t t) {
  const int64_t i = t >> 32;
  const float w = (float)((t >> 8) & 0xffffff) * (1.0f / 16777216.0f); /* 24 bits: exact */
  return q[i] + w * (q[i + 1] - q[i]);
}

void pinet_simd_bp4_row_c(const pinet_simd_bp4 *j, uint32_t r, uint32_t c0, uint32_t c1) {
  const float *q0 = j->q[0], *q1 = j->q[1], *q2 = j->q[2], *q3 = j->q[3];
  const int64_t d0 = j->d[0], d1 = j->d[1], d2 = j->d[2], d3 = j->d[3];
  const int64_t *t = j->t + 4 * (size_t)r;
  int64_t t0 = t[0] + (int64_t)c0 * d0, t1 = t[1] + (int64_t)c0 * d1;
  int64_t t2 = t[2] + (int64_t)c0 * d2, t3 = t[3] + (int64_t)c0 * d3;
  double *acc = j->acc[r];
  for (uint32_t c = c0; c < c1; c++) {
    const float v0 = bp_value(q0, t0), v1 = bp_value(q1, t1);
    const float v2 = bp_value(q2, t2), v3 = bp_value(q3, t3);
    acc[c] += (double)((v0 + v1) + (v2 + v3));
    t0 += d0;
    t1 += d1;
    t2 += d2;
    t3 += d3;
  }
}

void pinet_simd_bp4_c(const pinet_simd_bp4 *j) {
  for (uint32_t r = 0; r < j->rows; r++) pinet_simd_bp4_row_c(j, r, 0, j->len[r]);
}

int32_t pinet_simd_fx_round(double y, double scale) {
  double r = nearbyint(y * scale);
  if (!(fabs(r) < 9.0e15)) r = 0.0; /* keep the low 32 bits of an integer a double holds exactly */
  return (int32_t)(uint32_t)(uint64_t)(int64_t)r;
}

void pinet_simd_bpfx4_c(const pinet_simd_bpfx4 *j, uint32_t nv, uint32_t c0, uint32_t len,
                        double scale, int32_t *acc) {
  for (uint32_t c = c0; c < len; c++) {
    uint32_t s = (uint32_t)acc[c];
    for (uint32_t k = 0; k < nv; k++) {
      const float *q = j->q[k];
      const float t = j->b[k] + (float)c * j->cv[k];
      const int i = (int)t;
      const float w = t - (float)i;
      const float val = q[i] + w * (q[i + 1] - q[i]);
      s += (uint32_t)pinet_simd_fx_round((double)val, scale);
    }
    acc[c] = (int32_t)s;
  }
}

void pinet_simd_sum8_c(const uint64_t *ptr, uint32_t r0, uint32_t r1, const uint32_t *k,
                       const float *v, const double *x, double *out) {
  for (uint32_t r = r0; r < r1; r++, out += 8) {
    double a[8] = {0}, b[8] = {0}, c[8] = {0}, f[8] = {0};
    const uint64_t e1 = ptr[r + 1];
    uint64_t e = ptr[r];
    for (; e + 4 <= e1; e += 4) {
      const double v0 = v[e], v1 = v[e + 1], v2 = v[e + 2], v3 = v[e + 3];
      const double *l0 = x + k[e], *l1 = x + k[e + 1], *l2 = x + k[e + 2], *l3 = x + k[e + 3];
      for (int g = 0; g < 8; g++) {
        a[g] += v0 * l0[g];
        b[g] += v1 * l1[g];
        c[g] += v2 * l2[g];
        f[g] += v3 * l3[g];
      }
    }
    for (; e < e1; e++) {
      const double v0 = v[e], *l0 = x + k[e];
      for (int g = 0; g < 8; g++) a[g] += v0 * l0[g];
    }
    for (int g = 0; g < 8; g++) out[g] = (a[g] + b[g]) + (c[g] + f[g]);
  }
}

double pinet_simd_dot16_c(const uint16_t *idx, const float *val, uint64_t e0, uint64_t e1,
                          const double *x) {
  double s[8] = {0};
  uint64_t e = e0;
  for (; e + 8 <= e1; e += 8) {
    for (int g = 0; g < 8; g++) s[g] += (double)val[e + g] * x[idx[e + g]];
  }
  double r = ((s[0] + s[4]) + (s[2] + s[6])) + ((s[1] + s[5]) + (s[3] + s[7]));
  for (; e < e1; e++) r += (double)val[e] * x[idx[e]];
  return r;
}

int32_t pinet_simd_s1fx_c(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                          const double *x, double scale) {
  uint32_t s = 0;
  for (uint64_t e = e0; e < e1; e++) {
    s += (uint32_t)pinet_simd_fx_round((double)val[e] * x[idx[e]], scale);
  }
  return (int32_t)s;
}

int32_t pinet_simd_s3fx_c(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                          double lb, const double *ratio, double scale) {
  uint32_t s = 0;
  for (uint64_t e = e0; e < e1; e++) {
    s += (uint32_t)pinet_simd_fx_round(lb * (double)val[e] * ratio[idx[e]], scale);
  }
  return (int32_t)s;
}

void pinet_simd_ratio8_c(const double *n, const double *nbar, double *r) {
  for (int g = 0; g < 8; g++) r[g] = nbar[g] > 0.0 ? n[g] / nbar[g] : 0.0;
}

void pinet_simd_s4group_c(double *x, const uint32_t *box, const uint8_t *perm, const double *sens,
                          double *d, double *lambda) {
  double acc[8], next[8];
  for (int j = 0; j < 8; j++) acc[j] = d[j];
  for (int i = 0; i < 8; i++) {
    const double *row = x + 8 * (size_t)box[i];
    for (int j = 0; j < 8; j++) acc[j] += row[perm[8 * i + j]];
  }
  for (int j = 0; j < 8; j++) {
    next[j] = pinet_simd_s4_one(lambda[box[j]], acc[j], sens[j]);
    d[j] = acc[j];
    lambda[box[j]] = next[j];
  }
  for (int i = 0; i < 8; i++) {
    double *row = x + 8 * (size_t)box[i];
    for (int g = 0; g < 8; g++) row[g] = next[perm[64 + 8 * i + g]];
  }
}

static void add_i32_c(uint32_t *dst, const uint32_t *src, size_t n) {
  for (size_t i = 0; i < n; i++) dst[i] += src[i];
}
static void add_f32_c(float *dst, const float *src, size_t n) {
  for (size_t i = 0; i < n; i++) dst[i] += src[i];
}
static void add_f64_c(double *dst, const double *src, size_t n) {
  for (size_t i = 0; i < n; i++) dst[i] += src[i];
}

static const pinet_simd_kernels k_kernels_c = {
    PINET_ISA_SSE2,      pinet_simd_bp4_c,      pinet_simd_bpfx4_c, pinet_simd_sum8_c,
    pinet_simd_ratio8_c, pinet_simd_s4group_c,  pinet_simd_dot16_c, pinet_simd_s1fx_c,
    pinet_simd_s3fx_c,   add_i32_c,             add_f32_c,          add_f64_c};

const pinet_simd_kernels *pinet_simd_kernels_for(pinet_isa isa) {
#if defined(PINET_SIMD_X86)
  if (isa == PINET_ISA_AVX512) return pinet_simd_kernels_avx512();
  if (isa == PINET_ISA_AVX2) return pinet_simd_kernels_avx2();
#else
  (void)isa;
#endif
  return &k_kernels_c;
}
