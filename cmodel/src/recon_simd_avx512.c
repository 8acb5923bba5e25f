/* recon_simd_avx512.c - the AVX-512 kernels (recon_simd.h), compiled with -mavx512f -mavx2 -mfma
 * and entered only where pinet_isa_supported(PINET_ISA_AVX512) holds. The same operations in the
 * same order as the C references in recon_simd.c (no FMA), sixteen pixels or eight entries at a
 * time; recon_simd_avx2.c explains the backprojection's table lookup by permutes. Only AVX-512F
 * instructions are used. */
#include <immintrin.h>
#include <string.h>

#include "recon_simd.h"

#if defined(PINET_SIMD_X86) && defined(__AVX512F__) && defined(__AVX2__) && defined(__FMA__)

/* ---- FBP ---------------------------------------------------------------------------------------- */

/* Positions as int64, pixels {0,1,4,5,8,9,12,13} and {2,3,6,7,10,11,14,15} of the block: shufps
 * (per 128-bit lane) of the two gives the sixteen high words, and the low words, in pixel order.
 * Sixteen pixels span at most 15 bins: a 16-float window at the block's smallest index and a
 * permute (one instruction at full rate on the cores with AVX-512) fetch q[i] and q[i+1]. */
typedef struct bp_view {
  __m512i offa, offb, st; /* pixel offsets j d of the two registers; 16 d */
  int64_t hmin, step;     /* offset of the block's smallest position; 16 d */
} bp_view;

static inline bp_view bp_view_init(int64_t d) {
  bp_view v;
  v.offa = _mm512_setr_epi64(0, d, 4 * d, 5 * d, 8 * d, 9 * d, 12 * d, 13 * d);
  v.offb = _mm512_setr_epi64(2 * d, 3 * d, 6 * d, 7 * d, 10 * d, 11 * d, 14 * d, 15 * d);
  v.st = _mm512_set1_epi64(16 * d);
  v.hmin = d >= 0 ? 0 : 15 * d;
  v.step = 16 * d;
  return v;
}

/* 1 if the blocks of pixels [c0, c1) of row r read inside the array on every view: a block reads
 * q[i0 .. i0 + 17) for its smallest index i0 (the indices are monotone in the pixel). */
static inline int bp_range_safe(const pinet_simd_bp4 *j, uint32_t r, uint32_t c0, uint32_t c1) {
  if (j->interior) return 1;
  for (int k = 0; k < 4; k++) {
    const int64_t t = j->t[4 * (size_t)r + k];
    const int64_t a = t + (int64_t)c0 * j->d[k], b = t + (int64_t)(c1 - 1) * j->d[k];
    const int64_t lo = (a < b ? a : b) >> 32, hi = (a < b ? b : a) >> 32;
    if (lo < j->lo[k] || hi + 17 > j->lim[k]) return 0;
  }
  return 1;
}

static void bp4_avx512(const pinet_simd_bp4 *j) {
  bp_view vw[4];
  for (int k = 0; k < 4; k++) vw[k] = bp_view_init(j->d[k]);
  const __m512 wscale = _mm512_set1_ps(1.0f / 16777216.0f);
  for (uint32_t r = 0; r < j->rows; r++) {
    const uint32_t len = j->len[r];
    if (len == 0) continue;
    const int64_t *t = j->t + 4 * (size_t)r;
    double *acc = j->acc[r];
    uint32_t b0 = 0, b1 = (len + 15) / 16;
    while (b0 < b1 && !bp_range_safe(j, r, 16 * b0, 16 * b0 + 16)) b0++;
    while (b1 > b0 && !bp_range_safe(j, r, 16 * (b1 - 1), 16 * b1)) b1--;
    const uint32_t cs = 16 * b0 < len ? 16 * b0 : len, ce = 16 * b1 < len ? 16 * b1 : len;
    pinet_simd_bp4_row_c(j, r, 0, cs);
    __m512i ta[4], tb[4];
    int64_t tmin[4];
    for (int k = 0; k < 4; k++) {
      const int64_t t0 = t[k] + (int64_t)cs * j->d[k];
      ta[k] = _mm512_add_epi64(_mm512_set1_epi64(t0), vw[k].offa);
      tb[k] = _mm512_add_epi64(_mm512_set1_epi64(t0), vw[k].offb);
      tmin[k] = t0 + vw[k].hmin;
    }
    for (uint32_t c = cs; c < ce; c += 16) {
      __m512 v[4];
      for (int k = 0; k < 4; k++) {
        const __m512 a = _mm512_castsi512_ps(ta[k]), b = _mm512_castsi512_ps(tb[k]);
        const __m512i iv = _mm512_castps_si512(_mm512_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
        const __m512i lo = _mm512_castps_si512(_mm512_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
        const int32_t i0 = (int32_t)(tmin[k] >> 32);
        const __m512i idx = _mm512_sub_epi32(iv, _mm512_set1_epi32(i0));
        const __m512 w = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_srli_epi32(lo, 8)), wscale);
        const float *base = j->q[k] + i0;
        const __m512 q0 = _mm512_permutexvar_ps(idx, _mm512_loadu_ps(base));
        const __m512 q1 = _mm512_permutexvar_ps(idx, _mm512_loadu_ps(base + 1));
        v[k] = _mm512_add_ps(q0, _mm512_mul_ps(w, _mm512_sub_ps(q1, q0)));
        ta[k] = _mm512_add_epi64(ta[k], vw[k].st);
        tb[k] = _mm512_add_epi64(tb[k], vw[k].st);
        tmin[k] += vw[k].step;
      }
      const __m512 s = _mm512_add_ps(_mm512_add_ps(v[0], v[1]), _mm512_add_ps(v[2], v[3]));
      const __m512d s_lo = _mm512_cvtps_pd(_mm512_castps512_ps256(s));
      const __m512d s_hi =
          _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(s), 1)));
      const uint32_t n = ce - c < 16 ? ce - c : 16;
      const __mmask8 m0 = n >= 8 ? 0xff : (__mmask8)((1u << n) - 1u);
      const __mmask8 m1 = n >= 16 ? 0xff : n <= 8 ? 0 : (__mmask8)((1u << (n - 8)) - 1u);
      _mm512_mask_storeu_pd(acc + c, m0, _mm512_add_pd(_mm512_maskz_loadu_pd(m0, acc + c), s_lo));
      _mm512_mask_storeu_pd(acc + c + 8, m1, _mm512_add_pd(_mm512_maskz_loadu_pd(m1, acc + c + 8), s_hi));
    }
    pinet_simd_bp4_row_c(j, r, ce, len);
  }
}

/* round(x) for eight doubles (as pinet_simd_fx_round); fx_ok: |r| < 2^51 in every lane, where
 * adding 1.5 * 2^52 leaves the integer's low 32 bits in the low word. */
static inline __m512d fx_round8(__m512d y, __m512d scale) {
  return _mm512_roundscale_pd(_mm512_mul_pd(y, scale), _MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC);
}
static inline int fx_ok8(__m512d r) {
  return _mm512_cmp_pd_mask(_mm512_abs_pd(r), _mm512_set1_pd(2251799813685248.0), _CMP_LT_OQ) == 0xff;
}
static inline __m512i fx_bits8(__m512d r) {
  return _mm512_castpd_si512(_mm512_add_pd(r, _mm512_set1_pd(6755399441055744.0)));
}

static void bpfx4_avx512(const pinet_simd_bpfx4 *j, uint32_t nv, uint32_t c0, uint32_t len,
                         double scale, int32_t *acc) {
  if (nv != 4) {
    pinet_simd_bpfx4_c(j, nv, c0, len, scale, acc);
    return;
  }
  const __m512 lane = _mm512_setr_ps(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f,
                                     10.0f, 11.0f, 12.0f, 13.0f, 14.0f, 15.0f);
  const __m512d sc = _mm512_set1_pd(scale);
  uint32_t c = c0;
  for (; c + 16 <= len; c += 16) {
    const __m512 cf = _mm512_add_ps(_mm512_set1_ps((float)c), lane);
    __m512i sum = _mm512_setzero_si512();
    int ok = 1;
    for (int k = 0; k < 4 && ok; k++) {
      const __m512 t = _mm512_add_ps(_mm512_set1_ps(j->b[k]), _mm512_mul_ps(cf, _mm512_set1_ps(j->cv[k])));
      const __m512i i = _mm512_cvttps_epi32(t);
      int32_t il[16];
      _mm512_storeu_si512(il, i);
      const int32_t ia = il[0], ib = il[15]; /* t is monotone in the pixel */
      const int32_t i0 = ia < ib ? ia : ib, span = ia < ib ? ib - ia : ia - ib;
      if (span > 15 || i0 < 0 || (int64_t)i0 + 17 > j->lim[k]) {
        ok = 0;
        break;
      }
      const __m512 w = _mm512_sub_ps(t, _mm512_cvtepi32_ps(i));
      const __m512i idx = _mm512_sub_epi32(i, _mm512_set1_epi32(i0));
      const float *base = j->q[k] + i0;
      const __m512 q0 = _mm512_permutexvar_ps(idx, _mm512_loadu_ps(base));
      const __m512 q1 = _mm512_permutexvar_ps(idx, _mm512_loadu_ps(base + 1));
      const __m512 val = _mm512_add_ps(q0, _mm512_mul_ps(w, _mm512_sub_ps(q1, q0)));
      const __m256 v_lo = _mm512_castps512_ps256(val);
      const __m256 v_hi = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(val), 1));
      const __m512d r0 = fx_round8(_mm512_cvtps_pd(v_lo), sc), r1 = fx_round8(_mm512_cvtps_pd(v_hi), sc);
      if (!fx_ok8(r0) || !fx_ok8(r1)) {
        ok = 0;
        break;
      }
      const __m256i w0 = _mm512_cvtepi64_epi32(fx_bits8(r0)), w1 = _mm512_cvtepi64_epi32(fx_bits8(r1));
      sum = _mm512_add_epi32(sum, _mm512_inserti64x4(_mm512_castsi256_si512(w0), w1, 1));
    }
    if (!ok) {
      pinet_simd_bpfx4_c(j, 4, c, c + 16, scale, acc);
      continue;
    }
    _mm512_storeu_si512(acc + c, _mm512_add_epi32(_mm512_loadu_si512(acc + c), sum));
  }
  pinet_simd_bpfx4_c(j, 4, c, len, scale, acc);
}

/* ---- EM --------------------------------------------------------------------------------------- */

/* v[e] widened to double (exact) and broadcast */
static inline __m512d bcast_pd(const float *v, uint64_t e) { return _mm512_set1_pd((double)v[e]); }

static void sum8_avx512(const uint64_t *ptr, uint32_t r0, uint32_t r1, const uint32_t *k,
                        const float *v, const double *x, double *out) {
  /* eight entries' lengths widened in one register, each broadcast by a permute (not a convert
   * and a broadcast an entry) */
  const __m512i i0 = _mm512_set1_epi64(0), i1 = _mm512_set1_epi64(1), i2 = _mm512_set1_epi64(2),
                i3 = _mm512_set1_epi64(3), i4 = _mm512_set1_epi64(4), i5 = _mm512_set1_epi64(5),
                i6 = _mm512_set1_epi64(6), i7 = _mm512_set1_epi64(7);
  for (uint32_t r = r0; r < r1; r++, out += 8) {
    __m512d a = _mm512_setzero_pd(), b = a, c = a, f = a;
    const uint64_t e1 = ptr[r + 1];
    uint64_t e = ptr[r];
    for (; e + 8 <= e1; e += 8) {
      const __m512d w = _mm512_cvtps_pd(_mm256_loadu_ps(v + e));
      a = _mm512_add_pd(a, _mm512_mul_pd(_mm512_permutexvar_pd(i0, w), _mm512_load_pd(x + k[e])));
      b = _mm512_add_pd(b, _mm512_mul_pd(_mm512_permutexvar_pd(i1, w), _mm512_load_pd(x + k[e + 1])));
      c = _mm512_add_pd(c, _mm512_mul_pd(_mm512_permutexvar_pd(i2, w), _mm512_load_pd(x + k[e + 2])));
      f = _mm512_add_pd(f, _mm512_mul_pd(_mm512_permutexvar_pd(i3, w), _mm512_load_pd(x + k[e + 3])));
      a = _mm512_add_pd(a, _mm512_mul_pd(_mm512_permutexvar_pd(i4, w), _mm512_load_pd(x + k[e + 4])));
      b = _mm512_add_pd(b, _mm512_mul_pd(_mm512_permutexvar_pd(i5, w), _mm512_load_pd(x + k[e + 5])));
      c = _mm512_add_pd(c, _mm512_mul_pd(_mm512_permutexvar_pd(i6, w), _mm512_load_pd(x + k[e + 6])));
      f = _mm512_add_pd(f, _mm512_mul_pd(_mm512_permutexvar_pd(i7, w), _mm512_load_pd(x + k[e + 7])));
    }
    if (e + 4 <= e1) {
      a = _mm512_add_pd(a, _mm512_mul_pd(bcast_pd(v, e), _mm512_load_pd(x + k[e])));
      b = _mm512_add_pd(b, _mm512_mul_pd(bcast_pd(v, e + 1), _mm512_load_pd(x + k[e + 1])));
      c = _mm512_add_pd(c, _mm512_mul_pd(bcast_pd(v, e + 2), _mm512_load_pd(x + k[e + 2])));
      f = _mm512_add_pd(f, _mm512_mul_pd(bcast_pd(v, e + 3), _mm512_load_pd(x + k[e + 3])));
      e += 4;
    }
    for (; e < e1; e++) a = _mm512_add_pd(a, _mm512_mul_pd(bcast_pd(v, e), _mm512_load_pd(x + k[e])));
    _mm512_storeu_pd(out, _mm512_add_pd(_mm512_add_pd(a, b), _mm512_add_pd(c, f)));
  }
}

static void ratio8_avx512(const double *n, const double *nbar, double *r) {
  const __m512d nb = _mm512_loadu_pd(nbar);
  const __mmask8 pos = _mm512_cmp_pd_mask(nb, _mm512_setzero_pd(), _CMP_GT_OQ);
  _mm512_storeu_pd(r, _mm512_maskz_div_pd(pos, _mm512_loadu_pd(n), nb)); /* +0 elsewhere */
}

/* Eight lane indices (bytes) as a permute's index vector. */
static inline __m512i lane_index8(const uint8_t *p) {
  return _mm512_cvtepu8_epi64(_mm_loadl_epi64((const __m128i *)(const void *)p));
}

/* The group's eight boxes side by side: each row's lanes reach them through one permute. */
static void s4group_avx512(double *x, const uint32_t *box, const uint8_t *perm, const double *sens,
                           double *d, double *lambda) {
  const __m256i bx = _mm256_loadu_si256((const __m256i *)(const void *)box);
  __m512d acc = _mm512_loadu_pd(d);
  for (int i = 0; i < 8; i++) {
    const __m512d row = _mm512_load_pd(x + 8 * (size_t)box[i]);
    acc = _mm512_add_pd(acc, _mm512_permutexvar_pd(lane_index8(perm + 8 * i), row));
  }
  const __m512d s = _mm512_loadu_pd(sens), l = _mm512_i32gather_pd(bx, lambda, 8);
  const __mmask8 pos = _mm512_cmp_pd_mask(s, _mm512_setzero_pd(), _CMP_GT_OQ);
  const __m512d next = _mm512_maskz_div_pd(pos, _mm512_mul_pd(l, acc), s); /* pinet_simd_s4_one */
  _mm512_storeu_pd(d, acc);
  _mm512_i32scatter_pd(lambda, bx, next, 8);
  for (int i = 0; i < 8; i++) {
    const __m512d row = _mm512_permutexvar_pd(lane_index8(perm + 64 + 8 * i), next);
    _mm512_store_pd(x + 8 * (size_t)box[i], row);
  }
}

/* the eight partial sums s0..s7 in one register (entry e - e0 mod 8) */
static double dot16_avx512(const uint16_t *idx, const float *val, uint64_t e0, uint64_t e1,
                           const double *x) {
  __m512d S = _mm512_setzero_pd();
  uint64_t e = e0;
  for (; e + 8 <= e1; e += 8) {
    const __m256i i8 = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)(idx + e)));
    S = _mm512_add_pd(S, _mm512_mul_pd(_mm512_cvtps_pd(_mm256_loadu_ps(val + e)),
                                       _mm512_i32gather_pd(i8, x, 8)));
  }
  double s[4];
  _mm256_storeu_pd(s, _mm256_add_pd(_mm512_castpd512_pd256(S), _mm512_extractf64x4_pd(S, 1)));
  double r = (s[0] + s[2]) + (s[1] + s[3]);
  for (; e < e1; e++) r += (double)val[e] * x[idx[e]];
  return r;
}

/* The wrapping sum of the eight 64-bit lanes. Not _mm512_reduce_add_epi64: GCC writes it as
 * additions of signed long long, whose overflow is undefined (UBSan stops there), while these
 * lane sums are meant to wrap (only their low 32 bits count). */
static uint64_t lanes_sum_u64(__m512i v) {
  uint64_t lane[8];
  _mm512_storeu_si512((void *)lane, v);
  uint64_t s = 0;
  for (int i = 0; i < 8; i++) s += lane[i];
  return s;
}

static int32_t s1fx_avx512(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                           const double *x, double scale) {
  const __m512d sc = _mm512_set1_pd(scale);
  __m512i acc = _mm512_setzero_si512(); /* the low 32 bits of the 64-bit lane sums are what counts */
  uint32_t s = 0;
  uint64_t e = e0;
  for (; e + 8 <= e1; e += 8) {
    const __m256i i8 = _mm256_loadu_si256((const __m256i *)(const void *)(idx + e));
    const __m512d r = fx_round8(_mm512_mul_pd(_mm512_cvtps_pd(_mm256_loadu_ps(val + e)),
                                              _mm512_i32gather_pd(i8, x, 8)), sc);
    if (fx_ok8(r)) acc = _mm512_add_epi64(acc, fx_bits8(r));
    else s += (uint32_t)pinet_simd_s1fx_c(idx, val, e, e + 8, x, scale);
  }
  s += (uint32_t)lanes_sum_u64(acc);
  s += (uint32_t)pinet_simd_s1fx_c(idx, val, e, e1, x, scale);
  return (int32_t)s;
}

static int32_t s3fx_avx512(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                           double lb, const double *ratio, double scale) {
  const __m512d sc = _mm512_set1_pd(scale), l = _mm512_set1_pd(lb);
  __m512i acc = _mm512_setzero_si512();
  uint32_t s = 0;
  uint64_t e = e0;
  for (; e + 8 <= e1; e += 8) {
    const __m256i i8 = _mm256_loadu_si256((const __m256i *)(const void *)(idx + e));
    const __m512d y = _mm512_mul_pd(_mm512_mul_pd(l, _mm512_cvtps_pd(_mm256_loadu_ps(val + e))),
                                    _mm512_i32gather_pd(i8, ratio, 8));
    const __m512d r = fx_round8(y, sc);
    if (fx_ok8(r)) acc = _mm512_add_epi64(acc, fx_bits8(r));
    else s += (uint32_t)pinet_simd_s3fx_c(idx, val, e, e + 8, lb, ratio, scale);
  }
  s += (uint32_t)lanes_sum_u64(acc);
  s += (uint32_t)pinet_simd_s3fx_c(idx, val, e, e1, lb, ratio, scale);
  return (int32_t)s;
}

/* ---- the schedule engine's add (element by element; see recon_simd_avx2.c) -------------------- */
static int overlaps(const void *dst, const void *src, size_t bytes) {
  const unsigned char *d = dst, *s = src;
  return d != s && d < s + bytes && s < d + bytes;
}

static void add_i32_avx512(uint32_t *dst, const uint32_t *src, size_t n) {
  size_t i = 0;
  if (!overlaps(dst, src, n * sizeof *dst)) {
    for (; i + 16 <= n; i += 16) {
      _mm512_storeu_si512(dst + i, _mm512_add_epi32(_mm512_loadu_si512(dst + i), _mm512_loadu_si512(src + i)));
    }
  }
  for (; i < n; i++) dst[i] += src[i];
}

static void add_f32_avx512(float *dst, const float *src, size_t n) {
  size_t i = 0;
  if (!overlaps(dst, src, n * sizeof *dst)) {
    for (; i + 16 <= n; i += 16) {
      _mm512_storeu_ps(dst + i, _mm512_add_ps(_mm512_loadu_ps(dst + i), _mm512_loadu_ps(src + i)));
    }
  }
  for (; i < n; i++) dst[i] += src[i];
}

static void add_f64_avx512(double *dst, const double *src, size_t n) {
  size_t i = 0;
  if (!overlaps(dst, src, n * sizeof *dst)) {
    for (; i + 8 <= n; i += 8) {
      _mm512_storeu_pd(dst + i, _mm512_add_pd(_mm512_loadu_pd(dst + i), _mm512_loadu_pd(src + i)));
    }
  }
  for (; i < n; i++) dst[i] += src[i];
}

static const pinet_simd_kernels k_kernels_avx512 = {
    PINET_ISA_AVX512, bp4_avx512,     bpfx4_avx512,   sum8_avx512,    ratio8_avx512,
    s4group_avx512,   dot16_avx512,   s1fx_avx512,    s3fx_avx512,    add_i32_avx512,
    add_f32_avx512,   add_f64_avx512};

const pinet_simd_kernels *pinet_simd_kernels_avx512(void) { return &k_kernels_avx512; }

#elif defined(PINET_SIMD_X86)
#error "recon_simd_avx512.c must be compiled with -mavx512f -mavx2 -mfma (cmodel/CMakeLists.txt)"
#endif

typedef int pinet_recon_simd_avx512_unit; /* keeps the unit non-empty on other targets */
