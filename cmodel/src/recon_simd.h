/* recon_simd.h - the instruction-set dispatch of the reconstruction kernels and of the schedule
 * engine's add, and the thread pool the kernels share their work on (not installed).
 *
 * Every kernel exists once per instruction set (pinet_isa) and all of them compute the same
 * operations in the same order: the results do not depend on the instruction set, bit for bit.
 * No variant contracts a multiply and an add into an FMA (the baseline has none, and C11's
 * default -ffp-contract=off keeps the C reference from doing it either). The C reference
 * (recon_simd.c) is what PINET_ISA_SSE2 runs; recon_simd_avx2.c and recon_simd_avx512.c are
 * compiled with their own -m flags (cmodel/CMakeLists.txt) and only entered after
 * pinet_isa_supported() said the CPU has the instructions, so the rest of the library stays
 * baseline x86-64.
 *
 * A table of kernels per instruction set (pinet_simd_kernels_for) is constant data: the choice
 * itself is made per object (pinet_fbp, pinet_em) or per call (the schedule engine), never cached
 * in a global. */
#ifndef PINET_RECON_SIMD_H
#define PINET_RECON_SIMD_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/recon.h"

/* ---- FBP backprojection: a band of rows, four views ------------------------------------------- */

/* Detector positions are 64-bit fixed point with 32 fraction bits: pixel c of row r sits at
 * t[4 r + k] + c * d[k] on view k; the index is t >> 32, the weight the next 24 bits (exact in
 * float). q[k][i] may be read for lo[k] <= i < lim[k] (the caller's whole array): the vector
 * kernels load windows a few floats around a block's indices and leave the blocks whose windows
 * would not fit to the C code; `interior` = 1 says every view's row has a whole row of the array
 * before and after it (no check needed). */
typedef struct pinet_simd_bp4 {
  const float *q[4];
  int64_t lo[4], lim[4];
  int64_t d[4];
  int interior;
  uint32_t rows;
  const int64_t *t;    /* rows * 4 */
  const uint32_t *len; /* rows: pixels of the row */
  double *const *acc;  /* rows: the row's first accumulator */
} pinet_simd_bp4;

/* Per row: acc[c] += (double)((v0 + v1) + (v2 + v3)) for c in [0, len), v_k = q_k[i] +
 * w (q_k[i+1] - q_k[i]) in float. */
typedef void (*pinet_simd_bp4_fn)(const pinet_simd_bp4 *j);

/* The fixed-point path: positions in float, t = b[k] + (float)c * cv[k], i = (int)t,
 * w = t - (float)i; each view's value is rounded to an int32 (round(v * scale), the low 32 bits;
 * 0 if |round(v * scale)| >= 9e15 or not finite) and added to acc[c] modulo 2^32. nv = 1 .. 4
 * views (the vector kernels take 4 and pass fewer to the C code). */
typedef struct pinet_simd_bpfx4 {
  const float *q[4];
  int64_t lim[4];
  float b[4];
  float cv[4];
} pinet_simd_bpfx4;

typedef void (*pinet_simd_bpfx4_fn)(const pinet_simd_bpfx4 *j, uint32_t nv, uint32_t c0,
                                    uint32_t len, double scale, int32_t *acc);

/* ---- EM --------------------------------------------------------------------------------------- */

/* The symmetric sweep's sums for the rows [r0, r1) of a CSR (ptr): for each row r and g = 0 .. 7,
 * out[8 (r - r0) + g] = sum_e v[e] * x[k[e] + g] over e in [ptr[r], ptr[r + 1]), as four
 * partial sums (e - ptr[r] mod 4; the last (ptr[r + 1] - ptr[r]) mod 4 entries go to the first),
 * added as (s0 + s1) + (s2 + s3). x + k[e] is 64-byte aligned. v holds the matrix's float
 * lengths (half the bytes of doubles; widening is exact, so the products are the same). A range
 * of rows a call: the rows are short (about 30 entries by box at 128 x 128). */
typedef void (*pinet_simd_sum8_fn)(const uint64_t *ptr, uint32_t r0, uint32_t r1, const uint32_t *k,
                                   const float *v, const double *x, double *out);

/* S2 for an orbit's eight lanes: r[g] = n[g] / nbar[g] where nbar[g] > 0, else 0 (as
 * pinet_em_s2; one division each, so the same on every ISA). */
typedef void (*pinet_simd_ratio8_fn)(const double *n, const double *nbar, double *r);

/* The symmetric sweep's S4 for a group of eight boxes box[0] < ... < box[7] whose eight-lane rows
 * (x + 8 box[i], 64-byte aligned) hold one another's lanes, one from each row for each box:
 * acc[j] = d[j] + sum over i = 0 .. 7 in order of x[8 box[i] + perm[8 i + j]]; then as
 * pinet_em_s4, lambda[box[j]] = sens[j] > 0 ? lambda[box[j]] * acc[j] / sens[j] : 0 and
 * d[j] = acc[j] (d, sens: the group's eight values side by side); then
 * x[8 box[i] + g] = lambda[box[perm[64 + 8 i + g]]] (the new image back into the rows). */
typedef void (*pinet_simd_s4group_fn)(double *x, const uint32_t *box, const uint8_t *perm,
                                      const double *sens, double *d, double *lambda);

/* S4 for one box, pinet_em_s4's formula (the C kernels and the symmetric sweep use it inline;
 * the vector kernels compute the same: one product, one division). */
static inline double pinet_simd_s4_one(double lambda, double d, double sens) {
  return sens > 0.0 ? lambda * d / sens : 0.0;
}

/* The plain sweep's forward projection: sum_e val[e] * x[idx[e]] as eight partial sums
 * (e - e0 mod 8) added as ((s0 + s4) + (s2 + s6)) + ((s1 + s5) + (s3 + s7)), then the last
 * (e1 - e0) mod 8 entries one by one. */
typedef double (*pinet_simd_dot16_fn)(const uint16_t *idx, const float *val, uint64_t e0,
                                      uint64_t e1, const double *x);

/* Fixed-point terms summed modulo 2^32 (the order does not matter): S1 by tube,
 * sum_e fx(val[e] * x[idx[e]]); S3 by box, sum_e fx(lb * val[e] * ratio[idx[e]]); fx(y) =
 * round(y * scale) as pinet_em_s1_entries_fixed rounds it. */
typedef int32_t (*pinet_simd_s1fx_fn)(const uint32_t *idx, const float *val, uint64_t e0,
                                      uint64_t e1, const double *x, double scale);
typedef int32_t (*pinet_simd_s3fx_fn)(const uint32_t *idx, const float *val, uint64_t e0,
                                      uint64_t e1, double lb, const double *ratio, double scale);

/* ---- the schedule engine: dst[i] += src[i] (int32 wrapping) ---------------------------------- */

typedef void (*pinet_simd_add_i32_fn)(uint32_t *dst, const uint32_t *src, size_t n);
typedef void (*pinet_simd_add_f32_fn)(float *dst, const float *src, size_t n);
typedef void (*pinet_simd_add_f64_fn)(double *dst, const double *src, size_t n);

typedef struct pinet_simd_kernels {
  pinet_isa isa;
  pinet_simd_bp4_fn bp4;
  pinet_simd_bpfx4_fn bpfx4;
  pinet_simd_sum8_fn sum8;
  pinet_simd_ratio8_fn ratio8;
  pinet_simd_s4group_fn s4group;
  pinet_simd_dot16_fn dot16;
  pinet_simd_s1fx_fn s1fx;
  pinet_simd_s3fx_fn s3fx;
  pinet_simd_add_i32_fn add_i32;
  pinet_simd_add_f32_fn add_f32;
  pinet_simd_add_f64_fn add_f64;
} pinet_simd_kernels;

/* The kernels of `isa` (an ISA this build does not have: the C ones). Constant data. */
const pinet_simd_kernels *pinet_simd_kernels_for(pinet_isa isa);

/* The instruction set a new object or a call without one uses: pinet_isa_from_env, an unknown
 * PINET_ISA value read as unset. */
pinet_isa pinet_simd_default_isa(void);

/* The C kernels (recon_simd.c), also the vector kernels' fallback for blocks they do not take. */
void pinet_simd_bp4_c(const pinet_simd_bp4 *j);
/* One row's pixels [c0, c1) (row r of the band), the vector kernels' fallback. */
void pinet_simd_bp4_row_c(const pinet_simd_bp4 *j, uint32_t r, uint32_t c0, uint32_t c1);
void pinet_simd_bpfx4_c(const pinet_simd_bpfx4 *j, uint32_t nv, uint32_t c0, uint32_t len,
                        double scale, int32_t *acc);
void pinet_simd_sum8_c(const uint64_t *ptr, uint32_t r0, uint32_t r1, const uint32_t *k,
                       const float *v, const double *x, double *out);
void pinet_simd_ratio8_c(const double *n, const double *nbar, double *r);
void pinet_simd_s4group_c(double *x, const uint32_t *box, const uint8_t *perm, const double *sens,
                          double *d, double *lambda);
double pinet_simd_dot16_c(const uint16_t *idx, const float *val, uint64_t e0, uint64_t e1,
                          const double *x);
int32_t pinet_simd_s1fx_c(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                          const double *x, double scale);
int32_t pinet_simd_s3fx_c(const uint32_t *idx, const float *val, uint64_t e0, uint64_t e1,
                          double lb, const double *ratio, double scale);
/* round(y * scale) to int32 as the fixed path does: the low 32 bits of the integer, 0 when it is
 * not below 9e15 in magnitude (or not finite). */
int32_t pinet_simd_fx_round(double y, double scale);

#if defined(PINET_SIMD_X86)
const pinet_simd_kernels *pinet_simd_kernels_avx2(void);
const pinet_simd_kernels *pinet_simd_kernels_avx512(void);
#endif

/* ---- the thread pool ------------------------------------------------------------------------ */

/* T - 1 worker threads owned by an object; pinet_pool_run(pool, fn, ctx) calls fn(ctx, k, T) for
 * k = 0 .. T-1, k = 0 on the calling thread, and returns when every call has. A NULL pool runs
 * fn(ctx, 0, 1). Not for two callers at once (the owning object is not either). */
typedef struct pinet_pool pinet_pool;
typedef void (*pinet_pool_fn)(void *ctx, uint32_t k, uint32_t n);

/* Errors: PINET_ERR_RANGE (threads 0 or above PINET_RECON_MAX_THREADS), PINET_ERR_NOMEM (memory,
 * or a thread the system would not start). threads == 1 gives *out = NULL. */
pinet_status pinet_pool_create(uint32_t threads, pinet_pool **out);
void pinet_pool_free(pinet_pool *pool);
uint32_t pinet_pool_threads(const pinet_pool *pool);
void pinet_pool_run(pinet_pool *pool, pinet_pool_fn fn, void *ctx);

/* The part k of n of the items 0 .. count-1 weighted by prefix (prefix[i] = weight of the items
 * before i, prefix[count] the total): [*lo, *hi), cut where the weight crosses k/n of the total.
 * The parts do not overlap and cover every item; how an item is computed never depends on n. */
void pinet_pool_split(const uint64_t *prefix, uint64_t count, uint32_t k, uint32_t n, uint64_t *lo,
                      uint64_t *hi);

#endif /* PINET_RECON_SIMD_H */
