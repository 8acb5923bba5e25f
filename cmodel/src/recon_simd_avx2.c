/* recon_simd_avx2.c - the AVX2 kernels (recon_simd.h), compiled with -mavx2 -mfma and entered
 * only where pinet_isa_supported(PINET_ISA_AVX2) holds. Each computes what its C reference in
 * recon_simd.c computes, in the same order, so the results are the same bit for bit: no FMA.
 *
 * The backprojection looks up a view's filtered row without gathers: the detector positions of
 * eight consecutive pixels lie within 8 bins (|cos| <= 1), so two unaligned loads at the smallest
 * index and two in-register permutes fetch q[i] and q[i+1] for all eight. */
#include <immintrin.h>
#include <string.h>

#include "recon_simd.h"

#if defined(PINET_SIMD_X86) && defined(__AVX2__) && defined(__FMA__)

/* ---- FBP ---------------------------------------------------------------------------------------- */

/* The positions run as int64 in two registers per view, pixels {0,1,4,5} and {2,3,6,7} of the
 * block, so that one shufps of the two gives the eight high words (the indices) in pixel order
 * and another the low words (the weights). Each 128-bit half of the block (pixels 0-3, 4-7) looks
 * its values up in a 4-float window at the half's smallest index (four pixels span at most 3
 * bins, 4 with the neighbour), built by one blend of two loads, with an in-lane permute (cheaper
 * than a lane-crossing one on AMD cores). Two passes over the row, views 0 + 1 then 2 + 3, keep
 * few registers live; the first pass's sums wait in s01: the same (v0 + v1) + (v2 + v3). */
typedef struct bp_view { /* what a view's lookups need, the same for every row of the band */
  __m256i offa, offb, st; /* pixel offsets j d of {0,1,4,5} and {2,3,6,7}; 8 d */
  __m256i sel;            /* 0 or 3: the lane of each half holding its smallest index */
  int64_t ha, hb, step;   /* offsets of the two halves' smallest positions; 8 d */
} bp_view;

typedef struct bp_lane {
  __m256i ta, tb;
  int64_t ha, hb; /* the two halves' smallest positions */
} bp_lane;

static inline bp_view bp_view_init(int64_t d) {
  bp_view v;
  v.offa = _mm256_setr_epi64x(0, d, 4 * d, 5 * d);
  v.offb = _mm256_setr_epi64x(2 * d, 3 * d, 6 * d, 7 * d);
  v.st = _mm256_set1_epi64x(8 * d);
  v.sel = _mm256_set1_epi32(d >= 0 ? 0 : 3);
  v.ha = d >= 0 ? 0 : 3 * d;
  v.hb = d >= 0 ? 4 * d : 7 * d;
  v.step = 8 * d;
  return v;
}

static inline bp_lane bp_lane_at(const bp_view *v, int64_t t) {
  bp_lane l;
  const __m256i tt = _mm256_set1_epi64x(t);
  l.ta = _mm256_add_epi64(tt, v->offa);
  l.tb = _mm256_add_epi64(tt, v->offb);
  l.ha = t + v->ha;
  l.hb = t + v->hb;
  return l;
}

/* One view's eight values, then the next block. */
static inline __m256 bp_lane_step(bp_lane *l, const bp_view *v, const float *q) {
  const __m256 a = _mm256_castsi256_ps(l->ta), b = _mm256_castsi256_ps(l->tb);
  const __m256 iv = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
  const __m256i lo = _mm256_castps_si256(_mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0)));
  const __m256i base = _mm256_castps_si256(_mm256_permutevar_ps(iv, v->sel));
  const __m256i idx = _mm256_sub_epi32(_mm256_castps_si256(iv), base);
  const __m256 w = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(lo, 8)),
                                 _mm256_set1_ps(1.0f / 16777216.0f));
  const float *pa = q + (l->ha >> 32), *pb = q + (l->hb >> 32);
  const __m256 w0 = _mm256_blend_ps(_mm256_loadu_ps(pa), _mm256_loadu_ps(pb - 4), 0xf0);
  const __m256 w1 = _mm256_blend_ps(_mm256_loadu_ps(pa + 1), _mm256_loadu_ps(pb - 3), 0xf0);
  const __m256 q0 = _mm256_permutevar_ps(w0, idx), q1 = _mm256_permutevar_ps(w1, idx);
  l->ta = _mm256_add_epi64(l->ta, v->st);
  l->tb = _mm256_add_epi64(l->tb, v->st);
  l->ha += v->step;
  l->hb += v->step;
  return _mm256_add_ps(q0, _mm256_mul_ps(w, _mm256_sub_ps(q1, q0)));
}

/* 1 if the blocks of pixels [c0, c1) of row r read inside the array on every view: a block reads
 * q[i - 4 .. i + 9) around its indices i, and the indices are monotone in the pixel. */
static inline int bp_range_safe(const pinet_simd_bp4 *j, uint32_t r, uint32_t c0, uint32_t c1) {
  if (j->interior) return 1;
  for (int k = 0; k < 4; k++) {
    const int64_t t = j->t[4 * (size_t)r + k];
    const int64_t a = t + (int64_t)c0 * j->d[k], b = t + (int64_t)(c1 - 1) * j->d[k];
    const int64_t lo = (a < b ? a : b) >> 32, hi = (a < b ? b : a) >> 32;
    if (lo - 4 < j->lo[k] || hi + 9 > j->lim[k]) return 0;
  }
  return 1;
}

/* acc[0 .. n) += s[0 .. n), n <= 8, in double */
static inline void bp_acc8(double *acc, __m256 s, uint32_t n) {
  const __m256d lo = _mm256_cvtps_pd(_mm256_castps256_ps128(s));
  const __m256d hi = _mm256_cvtps_pd(_mm256_extractf128_ps(s, 1));
  if (n == 8) {
    _mm256_storeu_pd(acc, _mm256_add_pd(_mm256_loadu_pd(acc), lo));
    _mm256_storeu_pd(acc + 4, _mm256_add_pd(_mm256_loadu_pd(acc + 4), hi));
    return;
  }
  const __m256i nv = _mm256_set1_epi64x((long long)n);
  const __m256i m0 = _mm256_cmpgt_epi64(nv, _mm256_setr_epi64x(0, 1, 2, 3));
  const __m256i m1 = _mm256_cmpgt_epi64(nv, _mm256_setr_epi64x(4, 5, 6, 7));
  _mm256_maskstore_pd(acc, m0, _mm256_add_pd(_mm256_maskload_pd(acc, m0), lo));
  _mm256_maskstore_pd(acc + 4, m1, _mm256_add_pd(_mm256_maskload_pd(acc + 4, m1), hi));
}

#define BP_PASS 64u /* blocks per pass */

static void bp4_avx2(const pinet_simd_bp4 *j) {
  bp_view vw[4];
  for (int k = 0; k < 4; k++) vw[k] = bp_view_init(j->d[k]);
  float s01[8 * BP_PASS];
  for (uint32_t r = 0; r < j->rows; r++) {
    const uint32_t len = j->len[r];
    if (len == 0) continue;
    const int64_t *t = j->t + 4 * (size_t)r;
    double *acc = j->acc[r];
    /* blocks [b0, b1) of 8 pixels, the last one partial; unsafe ends go to the C code */
    uint32_t b0 = 0, b1 = (len + 7) / 8;
    while (b0 < b1 && !bp_range_safe(j, r, 8 * b0, 8 * b0 + 8)) b0++;
    while (b1 > b0 && !bp_range_safe(j, r, 8 * (b1 - 1), 8 * b1)) b1--;
    const uint32_t cs = 8 * b0 < len ? 8 * b0 : len, ce = 8 * b1 < len ? 8 * b1 : len;
    pinet_simd_bp4_row_c(j, r, 0, cs);
    for (uint32_t cb = cs; cb < ce; cb += 8 * BP_PASS) {
      const uint32_t cend = ce - cb < 8 * BP_PASS ? ce : cb + 8 * BP_PASS;
      bp_lane l0 = bp_lane_at(&vw[0], t[0] + (int64_t)cb * j->d[0]);
      bp_lane l1 = bp_lane_at(&vw[1], t[1] + (int64_t)cb * j->d[1]);
      for (uint32_t c = cb; c < cend; c += 8) {
        const __m256 v0 = bp_lane_step(&l0, &vw[0], j->q[0]), v1 = bp_lane_step(&l1, &vw[1], j->q[1]);
        _mm256_storeu_ps(s01 + (c - cb), _mm256_add_ps(v0, v1));
      }
      bp_lane l2 = bp_lane_at(&vw[2], t[2] + (int64_t)cb * j->d[2]);
      bp_lane l3 = bp_lane_at(&vw[3], t[3] + (int64_t)cb * j->d[3]);
      for (uint32_t c = cb; c < cend; c += 8) {
        const __m256 v2 = bp_lane_step(&l2, &vw[2], j->q[2]), v3 = bp_lane_step(&l3, &vw[3], j->q[3]);
        const __m256 s = _mm256_add_ps(_mm256_loadu_ps(s01 + (c - cb)), _mm256_add_ps(v2, v3));
        bp_acc8(acc + c, s, cend - c < 8 ? cend - c : 8);
      }
    }
    pinet_simd_bp4_row_c(j, r, ce, len);
  }
}

/* round(x) to int32 for four doubles at once (as pinet_simd_fx_round): the caller has checked
 * |round(x)| < 2^51, where adding 1.5 * 2^52 leaves the integer's low 32 bits in the low word. */
static inline __m256i fx_bits4(__m256d r) {
  return _mm256_castpd_si256(_mm256_add_pd(r, _mm256_set1_pd(6755399441055744.0)));
}
static inline __m256d fx_round4(__m256d y, __m256d scale) {
  return _mm256_round_pd(_mm256_mul_pd(y, scale), _MM_FROUND_CUR_DIRECTION | _MM_FROUND_NO_EXC);
}
static inline int fx_in_range4(__m256d r) { /* |r| < 2^51 in every lane (false for NaN) */
  const __m256d a = _mm256_andnot_pd(_mm256_set1_pd(-0.0), r);
  return _mm256_movemask_pd(_mm256_cmp_pd(a, _mm256_set1_pd(2251799813685248.0), _CMP_LT_OQ)) == 0xf;
}

static void bpfx4_avx2(const pinet_simd_bpfx4 *j, uint32_t nv, uint32_t c0, uint32_t len,
                       double scale, int32_t *acc) {
  if (nv != 4) {
    pinet_simd_bpfx4_c(j, nv, c0, len, scale, acc);
    return;
  }
  const __m256 lane = _mm256_setr_ps(0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f);
  const __m256d sc = _mm256_set1_pd(scale);
  uint32_t c = c0;
  for (; c + 8 <= len; c += 8) {
    const __m256 cf = _mm256_add_ps(_mm256_set1_ps((float)c), lane); /* exact: c < 2^24 */
    __m256i sum = _mm256_setzero_si256();
    int ok = 1;
    for (int k = 0; k < 4 && ok; k++) {
      const __m256 t = _mm256_add_ps(_mm256_set1_ps(j->b[k]), _mm256_mul_ps(cf, _mm256_set1_ps(j->cv[k])));
      const __m256i i = _mm256_cvttps_epi32(t);
      const int32_t ia = _mm256_cvtsi256_si32(i), ib = _mm256_extract_epi32(i, 7); /* monotone */
      const int32_t i0 = ia < ib ? ia : ib, span = ia < ib ? ib - ia : ia - ib;
      if (span > 7 || i0 < 0 || (int64_t)i0 + 9 > j->lim[k]) {
        ok = 0;
        break;
      }
      const __m256 w = _mm256_sub_ps(t, _mm256_cvtepi32_ps(i));
      const __m256i idx = _mm256_sub_epi32(i, _mm256_set1_epi32(i0));
      const float *base = j->q[k] + i0;
      const __m256 q0 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(base), idx);
      const __m256 q1 = _mm256_permutevar8x32_ps(_mm256_loadu_ps(base + 1), idx);
      const __m256 val = _mm256_add_ps(q0, _mm256_mul_ps(w, _mm256_sub_ps(q1, q0)));
      const __m256d r0 = fx_round4(_mm256_cvtps_pd(_mm256_castps256_ps128(val)), sc);
      const __m256d r1 = fx_round4(_mm256_cvtps_pd(_mm256_extractf128_ps(val, 1)), sc);
      if (!fx_in_range4(r0) || !fx_in_range4(r1)) {
        ok = 0;
        break;
      }
      /* low words in the order 0 1 4 5 | 2 3 6 7, put right once per block */
      const __m256 lw = _mm256_shuffle_ps(_mm256_castsi256_ps(fx_bits4(r0)),
                                          _mm256_castsi256_ps(fx_bits4(r1)), _MM_SHUFFLE(2, 0, 2, 0));
      sum = _mm256_add_epi32(sum, _mm256_castps_si256(lw));
    }
    if (!ok) {
      pinet_simd_bpfx4_c(j, 4, c, c + 8, scale, acc);
      continue;
    }
    sum = _mm256_permute4x64_epi64(sum, _MM_SHUFFLE(3, 1, 2, 0));
    __m256i *a = (__m256i *)(void *)(acc + c);
    _mm256_storeu_si256(a, _mm256_add_epi32(_mm256_loadu_si256(a), sum));
  }
  pinet_simd_bpfx4_c(j, 4, c, len, scale, acc);
}

/* ---- EM --------------------------------------------------------------------------------------- */

static void sum8_avx2(const uint64_t *ptr, uint32_t r0, uint32_t r1, const uint32_t *k,
                      const float *v, const double *x, double *out) {
  for (uint32_t r = r0; r < r1; r++, out += 8) {
    __m256d a0 = _mm256_setzero_pd(), a1 = a0, b0 = a0, b1 = a0, c0 = a0, c1 = a0, f0 = a0, f1 = a0;
    const uint64_t e1 = ptr[r + 1];
    uint64_t e = ptr[r];
    for (; e + 4 <= e1; e += 4) {
      const __m256d w = _mm256_cvtps_pd(_mm_loadu_ps(v + e)); /* widened (exact), then each lane */
      const __m256d v0 = _mm256_permute4x64_pd(w, 0x00), v1 = _mm256_permute4x64_pd(w, 0x55);
      const __m256d v2 = _mm256_permute4x64_pd(w, 0xaa), v3 = _mm256_permute4x64_pd(w, 0xff);
      const double *l0 = x + k[e], *l1 = x + k[e + 1], *l2 = x + k[e + 2], *l3 = x + k[e + 3];
      a0 = _mm256_add_pd(a0, _mm256_mul_pd(v0, _mm256_load_pd(l0)));
      a1 = _mm256_add_pd(a1, _mm256_mul_pd(v0, _mm256_load_pd(l0 + 4)));
      b0 = _mm256_add_pd(b0, _mm256_mul_pd(v1, _mm256_load_pd(l1)));
      b1 = _mm256_add_pd(b1, _mm256_mul_pd(v1, _mm256_load_pd(l1 + 4)));
      c0 = _mm256_add_pd(c0, _mm256_mul_pd(v2, _mm256_load_pd(l2)));
      c1 = _mm256_add_pd(c1, _mm256_mul_pd(v2, _mm256_load_pd(l2 + 4)));
      f0 = _mm256_add_pd(f0, _mm256_mul_pd(v3, _mm256_load_pd(l3)));
      f1 = _mm256_add_pd(f1, _mm256_mul_pd(v3, _mm256_load_pd(l3 + 4)));
    }
    for (; e < e1; e++) {
      const __m256d v0 = _mm256_set1_pd((double)v[e]);
      a0 = _mm256_add_pd(a0, _mm256_mul_pd(v0, _mm256_load_pd(x + k[e])));
      a1 = _mm256_add_pd(a1, _mm256_mul_pd(v0, _mm256_load_pd(x + k[e] + 4)));
    }
    _mm256_storeu_pd(out, _mm256_add_pd(_mm256_add_pd(a0, b0), _mm256_add_pd(c0, f0)));
    _mm256_storeu_pd(out + 4, _mm256_add_pd(_mm256_add_pd(a1, b1), _mm256_add_pd(c1, f1)));
  }
}

static void ratio8_avx2(const double *n, const double *nbar, double *r) {
  for (int h = 0; h < 8; h += 4) { /* the quotient where nbar > 0, +0 elsewhere */
    const __m256d nb = _mm256_loadu_pd(nbar + h);
    const __m256d pos = _mm256_cmp_pd(nb, _mm256_setzero_pd(), _CMP_GT_OQ);
    _mm256_storeu_pd(r + h, _mm256_and_pd(pos, _mm256_div_pd(_mm256_loadu_pd(n + h), nb)));
  }
}

/* partial sums s0..s3 in A, s4..s7 in B (entry e - e0 mod 8) */
static double dot16_avx2(const uint16_t *idx, const float *val, uint64_t e0, uint64_t e1,
                         const double *x) {
  __m256d A = _mm256_setzero_pd(), B = _mm256_setzero_pd();
  uint64_t e = e0;
  for (; e + 8 <= e1; e += 8) {
    const __m128i i16 = _mm_loadu_si128((const __m128i *)(const void *)(idx + e));
    const __m128i lo = _mm_cvtepu16_epi32(i16), hi = _mm_cvtepu16_epi32(_mm_srli_si128(i16, 8));
    const __m256d x0 = _mm256_i32gather_pd(x, lo, 8), x1 = _mm256_i32gather_pd(x, hi, 8);
    const __m256d v0 = _mm256_cvtps_pd(_mm_loadu_ps(val + e));
    const __m256d v1 = _mm256_cvtps_pd(_mm_loadu_ps(val + e + 4));
    A = _mm256_add_pd(A, _mm256_mul_pd(v0, x0));
    B = _mm256_add_pd(B, _mm256_mul_pd(v1, x1));
  }
  double s[4];
  _mm256_storeu_pd(s, _mm256_add_pd(A, B)); /* s0+s4, s1+s5, s2+s6, s3+s7 */
  double r = (s[0] + s[2]) + (s[1] + s[3]);
  for (; e < e1; e++) r += (double)val[e] * x[idx[e]];
  return r;
}

/* The low 32 bits of the sum of four int64 lanes. */
static inline uint32_t sum_lo32(__m256i v) {
  int64_t l[4];
  _mm256_storeu_si256((__m256i *)(void *)l, v);
  return (uint32_t)((uint64_t)l[0] + (uint64_t)l[1] + (uint64_t)l[2] + (uint64_t)l[3]);
}

static int32_t s1fx_avx2(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                         const double *x, double scale) {
  const __m256d sc = _mm256_set1_pd(scale);
  __m256i acc = _mm256_setzero_si256(); /* low words summed in 64-bit lanes: the low 32 bits of
                                           the total are the wrapping int32 sum */
  uint32_t s = 0;
  uint64_t e = e0;
  for (; e + 4 <= e1; e += 4) {
    const __m128i i4 = _mm_loadu_si128((const __m128i *)(const void *)(idx + e));
    const __m256d y = _mm256_mul_pd(_mm256_cvtps_pd(_mm_loadu_ps(val + e)), _mm256_i32gather_pd(x, i4, 8));
    const __m256d r = fx_round4(y, sc);
    if (fx_in_range4(r)) {
      acc = _mm256_add_epi64(acc, fx_bits4(r));
    } else {
      s += (uint32_t)pinet_simd_s1fx_c(idx, val, e, e + 4, x, scale);
    }
  }
  s += sum_lo32(acc) + (uint32_t)pinet_simd_s1fx_c(idx, val, e, e1, x, scale);
  return (int32_t)s;
}

static int32_t s3fx_avx2(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                         double lb, const double *ratio, double scale) {
  const __m256d sc = _mm256_set1_pd(scale), l = _mm256_set1_pd(lb);
  __m256i acc = _mm256_setzero_si256();
  uint32_t s = 0;
  uint64_t e = e0;
  for (; e + 4 <= e1; e += 4) {
    const __m128i i4 = _mm_loadu_si128((const __m128i *)(const void *)(idx + e));
    const __m256d y = _mm256_mul_pd(_mm256_mul_pd(l, _mm256_cvtps_pd(_mm_loadu_ps(val + e))),
                                    _mm256_i32gather_pd(ratio, i4, 8));
    const __m256d r = fx_round4(y, sc);
    if (fx_in_range4(r)) {
      acc = _mm256_add_epi64(acc, fx_bits4(r));
    } else {
      s += (uint32_t)pinet_simd_s3fx_c(idx, val, e, e + 4, lb, ratio, scale);
    }
  }
  s += sum_lo32(acc) + (uint32_t)pinet_simd_s3fx_c(idx, val, e, e1, lb, ratio, scale);
  return (int32_t)s;
}

/* ---- the schedule engine's add ------------------------------------------------------------------
 * Element by element, so any width gives the C loop's result; ranges that overlap other than
 * exactly take the C loop (its element order is then what defines the result). */
static int overlaps(const void *dst, const void *src, size_t bytes) {
  const unsigned char *d = dst, *s = src;
  return d != s && d < s + bytes && s < d + bytes;
}

static void add_i32_avx2(uint32_t *dst, const uint32_t *src, size_t n) {
  size_t i = 0;
  if (!overlaps(dst, src, n * sizeof *dst)) {
    for (; i + 8 <= n; i += 8) {
      __m256i *d = (__m256i *)(void *)(dst + i);
      const __m256i *s = (const __m256i *)(const void *)(src + i);
      _mm256_storeu_si256(d, _mm256_add_epi32(_mm256_loadu_si256(d), _mm256_loadu_si256(s)));
    }
  }
  for (; i < n; i++) dst[i] += src[i];
}

static void add_f32_avx2(float *dst, const float *src, size_t n) {
  size_t i = 0;
  if (!overlaps(dst, src, n * sizeof *dst)) {
    for (; i + 8 <= n; i += 8) {
      _mm256_storeu_ps(dst + i, _mm256_add_ps(_mm256_loadu_ps(dst + i), _mm256_loadu_ps(src + i)));
    }
  }
  for (; i < n; i++) dst[i] += src[i];
}

static void add_f64_avx2(double *dst, const double *src, size_t n) {
  size_t i = 0;
  if (!overlaps(dst, src, n * sizeof *dst)) {
    for (; i + 4 <= n; i += 4) {
      _mm256_storeu_pd(dst + i, _mm256_add_pd(_mm256_loadu_pd(dst + i), _mm256_loadu_pd(src + i)));
    }
  }
  for (; i < n; i++) dst[i] += src[i];
}

static const pinet_simd_kernels k_kernels_avx2 = {
    PINET_ISA_AVX2, bp4_avx2,     bpfx4_avx2,   sum8_avx2,    ratio8_avx2,
    /* S4 by groups: the C kernel (an eight-lane permute takes several steps on AVX2) */
    pinet_simd_s4group_c,
    dot16_avx2,     s1fx_avx2,    s3fx_avx2,    add_i32_avx2, add_f32_avx2, add_f64_avx2};

const pinet_simd_kernels *pinet_simd_kernels_avx2(void) { return &k_kernels_avx2; }

#elif defined(PINET_SIMD_X86)
#error "recon_simd_avx2.c must be compiled with -mavx2 -mfma (cmodel/CMakeLists.txt)"
#endif

typedef int pinet_recon_simd_avx2_unit; /* keeps the unit non-empty on other targets */
