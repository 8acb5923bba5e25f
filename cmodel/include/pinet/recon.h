/* pinet/recon.h - PET reconstruction kernels (paper 000 §2, §5, §6; SPEC §6): filtered
 * backprojection and Shepp-Vardi EM, sequential and on N simulated PEs over the static
 * perfect-shuffle network (pinet/shuffle.h), and the paper's efficiency models (eqs. (4), (6))
 * fitted to its Tables 2-7.
 *
 * Geometry, phantoms, projectors and the system matrix: pinet/recon_geom.h. Files:
 * pinet/recon_io.h. Conventions: docs/recon.md.
 *
 * FBP
 * - Each view is zero-padded to P = max(64, 2^ceil(log2(2 D))) samples, filtered in the Fourier
 *   domain with a real response H(k), k = 0 .. P/2 (FFTW, real-to-complex), and backprojected by
 *   linear interpolation onto the pixels of the reconstruction disk:
 *     f(x, y) = pi / V * sum_k q_k(x cos theta_k + y sin theta_k + bin_center).
 *   H is the DFT of the band-limited spatial ramp (h(0) = 1/4, h(odd n) = -1/(pi n)^2, else 0;
 *   Kak & Slaney eq. 61) times a window of f = k / P: Shepp-Logan sinc(f), cosine cos(pi f),
 *   Hamming 0.54 + 0.46 cos(2 pi f), Hann 0.5 + 0.5 cos(2 pi f).
 * - The FBP object owns its FFTW plans (made once, at creation) and its work buffers: it is not
 *   safe to use one object from two threads at once. Different objects are independent.
 *
 * EM (Shepp & Vardi, eq. (3)), for the sparse p(b, t) of a pinet_sysmat, counts n(t) >= 0:
 *   S1 nbar(t) = sum_b p(b,t) lambda(b)        forward projection
 *   S2 e(t) = n(t) / nbar(t)  (0 if nbar(t) = 0) correction factors
 *   S3 d(b) = sum_t p(b,t) e(t)                backprojection
 *   S4 lambda(b) <- lambda(b) d(b) / s(b), s(b) = sum_t p(b,t)  (0 where s(b) = 0)
 *   log-likelihood L = sum_t n(t) log nbar(t) - nbar(t) - log n(t)!  (never decreases)
 * OSEM: the tubes are split into S subsets by their view tag (view mod S); one iteration runs
 * S1-S4 once per subset with the subset's sensitivity.
 *
 * Arithmetic
 * - PINET_RECON_FLOAT: double accumulators. Parallel results equal the sequential ones within
 *   1e-6 relative (the sums are taken in another order).
 * - PINET_RECON_FIXED: every term that is summed across PEs is first rounded to a signed 32-bit
 *   integer with `frac_bits` fraction bits and summed modulo 2^32 (the RTL's adders); integer sums
 *   do not depend on the order, so the parallel result equals the sequential one bit for bit.
 *   FBP quantises each view's contribution to each pixel; EM quantises each term p*lambda of S1
 *   and each term lambda*p*e of S3 (it then divides by s(b), which is the same update).
 */
#ifndef PINET_RECON_H
#define PINET_RECON_H

#include <stddef.h>
#include <stdint.h>

#include "pinet/recon_geom.h"
#include "pinet/shuffle.h"
#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The fraction bits the fixed path accepts. The scale is chosen from the data (the largest sum
 * it can reach is kept below 2^30), so the range only has to hold every finite float32 input:
 * 2^128 * 2^16 views above, 2^-149 below. */
#define PINET_RECON_FIXED_BITS_MIN (-160)
#define PINET_RECON_FIXED_BITS_MAX 200

typedef enum pinet_recon_arith {
  PINET_RECON_FLOAT = 0,
  PINET_RECON_FIXED = 1
} pinet_recon_arith;

/* ---- instruction sets and threads ------------------------------------------------------------
 * The hot loops (the FBP backprojection, float and fixed point; the EM object's S1 and S3 sweeps;
 * the schedule engine's add) exist once per instruction set below (FBP's filtering is FFTW's,
 * which picks its own vector code). Every variant computes the same operations in the
 * same order (no FMA contraction anywhere), so the results do not depend on the instruction set,
 * bit for bit, float and fixed point alike. The library is built for baseline x86-64; a variant
 * runs only where the CPU (and the OS) supports it. The choice is made per object when it is
 * created (pinet_fbp_create, pinet_em_create) and per call for the schedule engine:
 * pinet_isa_from_env, i.e. the widest supported set unless the environment variable PINET_ISA
 * asks for a narrower one. Threads (pinet_fbp_set_threads, pinet_em_set_threads; default 1) split
 * the work so that every sum is taken in the same order whatever their number: the results do not
 * depend on it either. docs/recon.md, "Instruction sets and threads". */

typedef enum pinet_isa {
  PINET_ISA_SSE2 = 0,  /* the x86-64 baseline (portable C elsewhere) */
  PINET_ISA_AVX2 = 1,  /* AVX2 + FMA (x86-64-v3) */
  PINET_ISA_AVX512 = 2 /* AVX-512F (+ AVX2, FMA) */
} pinet_isa;
#define PINET_ISA_COUNT 3
#define PINET_ISA_ENV "PINET_ISA"   /* sse2 | avx2 | avx512 | auto (or unset) */
#define PINET_RECON_MAX_THREADS 256u

/* "sse2", "avx2", "avx512"; NULL if unknown. */
const char *pinet_isa_name(pinet_isa isa);
/* The ISA of a name (pinet_isa_name's). PINET_ERR_NULL, PINET_ERR_RANGE for an unknown name. */
pinet_status pinet_isa_parse(const char *name, pinet_isa *out);
/* 1 if this build has the variant and the CPU runs it (PINET_ISA_SSE2: always), else 0. */
int pinet_isa_supported(pinet_isa isa);
/* The widest supported ISA. */
pinet_isa pinet_isa_best(void);
/* The ISA a new object uses: PINET_ISA unset, empty or "auto": pinet_isa_best(); a name: that
 * ISA, or pinet_isa_best() if the CPU has less (never an unsupported one). PINET_ERR_NULL;
 * PINET_ERR_RANGE for another value (*out is pinet_isa_best() then, which is what objects use). */
pinet_status pinet_isa_from_env(pinet_isa *out);

/* ---- FBP ---------------------------------------------------------------------------------- */

typedef enum pinet_fbp_filter {
  PINET_FILTER_RAMP = 0,
  PINET_FILTER_SHEPP_LOGAN = 1,
  PINET_FILTER_COSINE = 2,
  PINET_FILTER_HAMMING = 3,
  PINET_FILTER_HANN = 4
} pinet_fbp_filter;
#define PINET_FILTER_COUNT 5

/* "ramp", "shepp-logan", "cosine", "hamming", "hann"; NULL if unknown. */
const char *pinet_fbp_filter_name(pinet_fbp_filter f);
/* PINET_ERR_NULL, PINET_ERR_RANGE for an unknown name. */
pinet_status pinet_fbp_filter_parse(const char *name, pinet_fbp_filter *out);

typedef struct pinet_fbp pinet_fbp;

/* Make the plans, the filter response and the backprojection tables for geometry g.
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (geometry, filter), PINET_ERR_UNSUPPORTED (built
 * without FFTW), PINET_ERR_NOMEM. */
pinet_status pinet_fbp_create(const pinet_pb_geom *g, pinet_fbp_filter filter, pinet_fbp **out);
void pinet_fbp_free(pinet_fbp *p);

/* portable = 1: run the baseline kernels (PINET_ISA_SSE2: the portable C backprojection) even
 * where a wider set would run; 0: back to pinet_isa_from_env's choice. Every ISA gives the same
 * image, bit for bit. PINET_ERR_NULL. */
pinet_status pinet_fbp_set_portable(pinet_fbp *p, int portable);

/* Run the object's kernels with `isa` (created with pinet_isa_from_env's). PINET_ERR_NULL,
 * PINET_ERR_RANGE (not an ISA), PINET_ERR_UNSUPPORTED (this CPU or build lacks it). */
pinet_status pinet_fbp_set_isa(pinet_fbp *p, pinet_isa isa);
pinet_isa pinet_fbp_isa(const pinet_fbp *p);
/* Filter and backproject on `threads` threads (1 .. PINET_RECON_MAX_THREADS, default 1; the
 * object starts threads - 1 workers and keeps them until it is freed or set again): views are
 * filtered in parallel, the image is backprojected in bands of rows, each pixel summing its views
 * in the same order, so every result is bit for bit the single-threaded one. Applies to
 * pinet_fbp_run, pinet_fbp_run_fixed, pinet_fbp_filter_views, pinet_fbp_backproject and
 * pinet_fbp_backproject_fixed. Errors: PINET_ERR_NULL, PINET_ERR_RANGE, PINET_ERR_NOMEM (memory,
 * or a thread the system would not start; the object keeps its previous setting). */
pinet_status pinet_fbp_set_threads(pinet_fbp *p, uint32_t threads);
uint32_t pinet_fbp_threads(const pinet_fbp *p);

/* The padded length P and the response H[0 .. P/2] (what the parallel version broadcasts). */
uint32_t pinet_fbp_padded_length(const pinet_fbp *p);
const double *pinet_fbp_response(const pinet_fbp *p);
/* Length of one filtered view as stored by pinet_fbp_filter_views (the bins plus zero guards). */
size_t pinet_fbp_filtered_stride(const pinet_fbp *p);
const pinet_pb_geom *pinet_fbp_geom(const pinet_fbp *p);

/* Filter `count` views (rows of `bins` values at `sino`) with `response` (NULL: the object's own;
 * else P/2 + 1 values) into `filtered` (count * stride floats).
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (a non-finite input, or a filtered value beyond the
 * float32 range). */
pinet_status pinet_fbp_filter_views(pinet_fbp *p, const double *response, const float *sino,
                                    uint32_t count, float *filtered);

/* Add the linear-interpolation backprojection of filtered views first .. first+count-1 (rows at
 * `filtered`) into accum (size*size doubles, pixels of the disk only), unscaled. FIXED adds
 * round(value * 2^frac_bits) per view and pixel into accum_fixed (int32, wrapping) instead.
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (views out of range). */
pinet_status pinet_fbp_backproject(const pinet_fbp *p, const float *filtered, uint32_t first,
                                   uint32_t count, double *accum);
pinet_status pinet_fbp_backproject_fixed(const pinet_fbp *p, const float *filtered, uint32_t first,
                                         uint32_t count, int frac_bits, int32_t *accum_fixed);

/* img = pi / V * accum inside the disk, 0 outside (FIXED: accum_fixed / 2^frac_bits first).
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (frac_bits out of range; a pixel beyond float32). */
pinet_status pinet_fbp_finish(const pinet_fbp *p, const double *accum, float *img);
pinet_status pinet_fbp_finish_fixed(const pinet_fbp *p, const int32_t *accum_fixed, int frac_bits,
                                    float *img);

/* Whole sequential FBP: filter every view, backproject, finish. sino: views x bins.
 * Errors: those above plus PINET_ERR_NOMEM. */
pinet_status pinet_fbp_run(pinet_fbp *p, const float *sino, float *img);
/* The same on the fixed-point path (frac_bits from pinet_fbp_fixed_bits). */
pinet_status pinet_fbp_run_fixed(pinet_fbp *p, const float *sino, int frac_bits, float *img);

/* Fraction bits for the fixed path such that the sum over all views of the largest |filtered|
 * value fits in 30 bits: floor(log2(2^30 / (V * max|q|))), 30 when every value is 0.
 * pinet_fbp_fixed_scale returns PINET_ERR_RANGE (and writes nothing) when a filtered value is not
 * finite or the bits fall outside [PINET_RECON_FIXED_BITS_MIN, PINET_RECON_FIXED_BITS_MAX]
 * (no float32 sinogram does: the range covers every finite float); *largest (may be NULL) gets
 * max|q| either way. pinet_fbp_fixed_bits is the same number clamped to that range. */
pinet_status pinet_fbp_fixed_scale(const pinet_fbp *p, const float *filtered_all, int *frac_bits,
                                   double *largest);
int pinet_fbp_fixed_bits(const pinet_fbp *p, const float *filtered_all);

/* FBP for the PET ring: rebin the per-pair data to `detectors` views of size bins (pitch 1,
 * centred) and reconstruct size x size. Errors: as pinet_ring_rebin and pinet_fbp_*. */
pinet_status pinet_fbp_ring(const pinet_ring *ring, const float *pair_values,
                            pinet_fbp_filter filter, float *img);

/* ---- EM ------------------------------------------------------------------------------------ */

/* Sensitivity s(b) = sum_t p(b,t) from the by-box CSR. */
void pinet_em_sensitivity(const pinet_csr *by_box, double *sens);
/* S1 by tube (gather): nbar[t] = sum_b p lambda[b] for every tube. */
void pinet_em_s1(const pinet_csr *by_tube, const double *lambda, double *nbar);
/* S1 by box (scatter): for the by-box entries e0 .. e1-1 (box-major order), nbar[t] += p lambda[b].
 * `box0` is the box that holds entry e0. */
void pinet_em_s1_entries(const pinet_csr *by_box, uint32_t box0, uint64_t e0, uint64_t e1,
                         const double *lambda, double *nbar);
/* S1, S2 and S3 fused, tube by tube (what the sequential driver runs): nbar[t], ratio[t] as S1
 * and S2, then d[b] += p ratio[t] while tube t's row is still in cache (d not cleared). The same
 * numbers as the separate steps up to the order of the sums in d. */
void pinet_em_s123_by_tube(const pinet_csr *by_tube, const double *counts, const double *lambda,
                           double *nbar, double *ratio, double *d);
/* S2 for tubes t0 .. t1-1. */
void pinet_em_s2(const double *counts, const double *nbar, size_t t0, size_t t1, double *ratio);
/* S3 for the by-box entries e0 .. e1-1: d[b] += p e[t] (d not cleared). */
void pinet_em_s3_entries(const pinet_csr *by_box, uint32_t box0, uint64_t e0, uint64_t e1,
                         const double *ratio, double *d);
/* S4 for boxes b0 .. b1-1: lambda[b] *= d[b] / sens[b] (0 if sens[b] == 0). */
void pinet_em_s4(const double *d, const double *sens, size_t b0, size_t b1, double *lambda);
/* Fixed-point S1 / S3 terms: round(x * 2^bits) to int32 (wrapping), summed into acc.
 * S3 here sums lambda[b] p e[t] (the numerator of the update). */
void pinet_em_s1_entries_fixed(const pinet_csr *by_box, uint32_t box0, uint64_t e0, uint64_t e1,
                               const double *lambda, int bits, int32_t *nbar_fx);
void pinet_em_s3_entries_fixed(const pinet_csr *by_box, uint32_t box0, uint64_t e0, uint64_t e1,
                               const double *lambda, const double *ratio, int bits, int32_t *u_fx);
/* Fixed-point S4: lambda[b] = u[b] / 2^bits / sens[b]. */
void pinet_em_s4_fixed(const int32_t *u_fx, int bits, const double *sens, size_t b0, size_t b1,
                       double *lambda);
/* Fraction bits for counts totalling `total`: floor(log2(2^30 / total)) (30 for a total of 0),
 * clamped to [PINET_RECON_FIXED_BITS_MIN, PINET_RECON_FIXED_BITS_MAX]. Every S1 sum and every S3
 * sum is at most the total (EM keeps sum_b lambda s = sum_t n), so no sum wraps. */
int pinet_em_fixed_bits(double total_counts);
/* 1 if the fixed path can represent counts totalling `total` (the unclamped bits lie in the
 * range), else 0. pinet_em_create and pinet_em_parallel refuse FIXED runs where it is 0. */
int pinet_em_fixed_total_ok(double total_counts);
/* L = sum_t n log nbar - nbar - lgamma(n + 1); -INFINITY if some n > 0 has nbar == 0. */
double pinet_em_loglik(const double *counts, const double *nbar, size_t tubes);

/* The EM driver: owns the counts, the image, the sensitivities and work buffers. */
typedef struct pinet_em pinet_em;

typedef struct pinet_em_opts {
  uint32_t subsets;        /* 1 = EM; S > 1 = OSEM with S subsets of views */
  pinet_recon_arith arith; /* FLOAT or FIXED (FIXED needs subsets == 1) */
  int portable;            /* 1: portable C only (PINET_ISA_SSE2); 2: AVX2 + FMA at most (no
                              AVX-512); default 0: pinet_isa_from_env's choice (the widest the CPU
                              has unless PINET_ISA narrows it). Every choice gives the same
                              numbers, bit for bit. */
} pinet_em_opts;

/* counts: one per tube of m (pinet_sysmat_tubes). The image starts uniform with
 * sum_b lambda s = sum_t n (or 1 if every count is 0). The matrix must outlive the object.
 * Errors: PINET_ERR_NULL, PINET_ERR_RANGE (a count negative or not finite, subsets 0 or above
 * the number of distinct views, FIXED with subsets > 1, FIXED with a total the fixed path cannot
 * represent: pinet_em_fixed_total_ok), PINET_ERR_NOMEM. */
pinet_status pinet_em_create(const pinet_sysmat *m, const double *counts, const pinet_em_opts *opts,
                             pinet_em **out);
void pinet_em_free(pinet_em *em);
/* Replace the image (boxes values, each >= 0 and finite). PINET_ERR_RANGE otherwise. */
pinet_status pinet_em_set_image(pinet_em *em, const double *lambda);
/* One iteration; *loglik (may be NULL) gets L of the image BEFORE the update (computed from the
 * S1 of the EM pass, so it costs nothing extra; for OSEM from a separate full projection). */
pinet_status pinet_em_iterate(pinet_em *em, double *loglik);
/* L of the current image (one extra forward projection). */
pinet_status pinet_em_current_loglik(pinet_em *em, double *loglik);
/* EM (subsets 1, FLOAT) uses the square's symmetries where the matrix has them bit for bit (found
 * at creation): one representative row serves up to 8 tubes (the same products as the plain
 * sweep, the sums in another order). on = 0 runs the plain fused sweep instead; on = 1 (the
 * default) the symmetric one where available. PINET_ERR_NULL. */
pinet_status pinet_em_set_symmetry(pinet_em *em, int on);
/* Tubes served by the symmetric sweep (0 if none, or turned off). */
uint32_t pinet_em_symmetric_tubes(const pinet_em *em);
/* Run the object's kernels with `isa`. PINET_ERR_NULL, PINET_ERR_RANGE (not an ISA),
 * PINET_ERR_UNSUPPORTED (this CPU or build lacks it). */
pinet_status pinet_em_set_isa(pinet_em *em, pinet_isa isa);
pinet_isa pinet_em_isa(const pinet_em *em);
/* Iterate on `threads` threads (1 .. PINET_RECON_MAX_THREADS, default 1; workers kept until the
 * object is freed or set again). Tubes and boxes are shared out so that every sum is taken in the
 * single-threaded order: images and log-likelihoods are bit for bit the same for every count, on
 * every path (EM, OSEM, FLOAT, FIXED, with or without the symmetries). Errors: PINET_ERR_NULL,
 * PINET_ERR_RANGE, PINET_ERR_NOMEM (memory or a thread; the previous setting stays). */
pinet_status pinet_em_set_threads(pinet_em *em, uint32_t threads);
uint32_t pinet_em_threads(const pinet_em *em);
const double *pinet_em_image(const pinet_em *em);      /* one value per box */
const double *pinet_em_sens(const pinet_em *em);       /* s(b) */
uint32_t pinet_em_iterations(const pinet_em *em);
/* Scatter the box values into a size x size image (0 outside the boxes). */
void pinet_em_to_image(const pinet_sysmat *m, const double *box_values, float *img);

/* ---- parallel versions on N simulated PEs ---------------------------------------------------- */

/* Communication summary of a parallel run (sum over every schedule executed, and over the
 * download schedules that are only accounted, see docs/recon.md). The fields up to
 * model_efficiency describe the schedules of the kind that ran; the last three count cycles in
 * the cycle contract of pinet/shuffle.h (one word per channel per cycle, a setup cycle a step). */
typedef struct pinet_recon_comm {
  uint32_t pes;
  uint32_t schedules;       /* collectives executed */
  uint32_t steps;           /* their steps (host steps included) */
  uint64_t words_moved;     /* sum of every transfer length */
  uint64_t words_summed;    /* element additions done by integration */
  uint64_t link_time;       /* sum over steps of the longest transfer (words) */
  uint64_t max_work;        /* the busiest PE's work (FBP: pixel-view interpolations; EM:
                               box-tube pairs of S1 + S3, all iterations) */
  uint64_t min_work;
  uint64_t total_work;
  double load_balance;      /* total_work / (N * max_work) */
  double model_efficiency;  /* eq. (4) (FBP) or (6) (EM) with the fitted transputer constants */
  pinet_shuffle_kind schedule; /* the kind of collective schedules that ran */
  uint64_t cycles;          /* sum of pinet_shuffle_cycle_total (done cycle T) of the schedules
                               above: cycles_paper or cycles_fast, whichever ran */
  uint64_t cycles_paper;    /* the same sum with every collective built by pinet_shuffle_build */
  uint64_t cycles_fast;     /* ... by pinet_shuffle_build_fast; both computed whatever ran (the
                               other kind is built only to be measured). The ring exchange and
                               PE 0's upload of the FBP image are custom schedules: the same
                               in both sums. UINT64_MAX if the kind that did not run refused a
                               collective (not expected: both builders take the same arguments;
                               the run itself does not depend on it) */
} pinet_recon_comm;

typedef enum pinet_em_partition {
  PINET_EM_PARTITION_BY_BOX = 0,      /* whole boxes, ~equal box-tube pairs per PE */
  PINET_EM_PARTITION_MODIFIED = 1     /* split boundary boxes, ring exchange after S3 */
} pinet_em_partition;

/* One PE's share of the parallel EM (pinet_em_parallel): the entries [e0, e1) of the by-box
 * matrix (about nnz / N each; whole boxes for the partition by box). Under the modified partition
 * the first and the last box may be split with the neighbouring segment: their partial S3 sums
 * cross the ring exchange, and both PEs finish them alike. */
typedef struct pinet_em_segment {
  uint32_t pe;                  /* the PE that runs it */
  uint64_t e0, e1;              /* by-box entries [e0, e1) */
  uint32_t box0;                /* the box holding e0 */
  uint32_t own0, own1;          /* boxes [own0, own1) whose result this PE uploads */
  uint32_t first_box, last_box; /* the boxes its entries touch */
  int split_prev, split_next;   /* first_box shared with segment r - 1, last_box with r + 1 */
} pinet_em_segment;

/* The `pes` segments of pinet_em_parallel, seg[r] for ring position r: the ring is
 * pinet_shuffle_ring's for the modified partition on N >= 4 PEs (segment r's neighbours are its
 * ring neighbours), else PE r runs segment r. Errors: PINET_ERR_NULL, PINET_ERR_SIZE (pes),
 * PINET_ERR_RANGE (part, an empty matrix, or a box that would span more than two PEs). */
pinet_status pinet_em_segments(const pinet_sysmat *m, uint32_t pes, pinet_em_partition part,
                               pinet_em_segment *seg);

/* Parallel FBP over `pes` PEs (1 .. 64, power of two): scatter the views from the host, broadcast
 * the filter response from the host, filter and backproject locally into a replicated image,
 * integrate, all-to-all broadcast, upload to the host, finish. img equals pinet_fbp_run's
 * (FLOAT: within 1e-6 relative to the image maximum; FIXED with the same frac_bits: bit for bit).
 * frac_bits is used only by FIXED. comm (may be NULL) receives the summary and per_pe_work
 * (may be NULL) `pes` work counts.
 * Errors: PINET_ERR_NULL, PINET_ERR_SIZE (pes), PINET_ERR_RANGE, PINET_ERR_NOMEM, and any error of
 * the shuffle engine. */
pinet_status pinet_fbp_parallel(pinet_fbp *p, const float *sino, uint32_t pes,
                                pinet_recon_arith arith, int frac_bits, float *img,
                                pinet_recon_comm *comm, uint64_t *per_pe_work);

/* Parallel EM: `iters` iterations from the uniform start image of pinet_em_create, partition by
 * box or modified partition by box, on `pes` PEs (1 .. 64, power of two). S1 into replicated
 * projections, integration over the tubes, S2 on each PE's tube segment, all-to-all broadcast of
 * the correction factors, S3 (+ ring exchange of the split boxes), S4; the image is uploaded at
 * the end. lambda_out: one value per box. loglik (may be NULL): iters values (of the image before
 * each update, as pinet_em_iterate). Errors: as pinet_fbp_parallel, plus PINET_ERR_RANGE if a box
 * would span more than two PEs under the modified partition. */
pinet_status pinet_em_parallel(const pinet_sysmat *m, const double *counts, uint32_t iters,
                               uint32_t pes, pinet_em_partition part, pinet_recon_arith arith,
                               double *lambda_out, double *loglik, pinet_recon_comm *comm,
                               uint64_t *per_pe_work);

/* ---- the same with one PE per process (libpinet_mpi: pinet/recon_mpi.h) --------------------- */

/* How a distributed run reaches the other processes. Every process makes the same call with the
 * same arguments and holds PE `pe`'s memory only (PE 0: also the host's); the library calls the
 * hooks at the same points, in the same order, in every process, whatever its own status, so a
 * process that fails tells the others at the next hook instead of leaving them waiting. */
typedef struct pinet_recon_dist {
  uint32_t pe; /* this process's PE (< pes); PE 0 is also the host */
  void *ctx;   /* passed to the hooks */
  /* Agree, then execute: return the largest status over every process (the same in each),
   * given this one's status so far; when that is PINET_OK and sched is not NULL, execute sched
   * with this PE's memory (and the host memory on PE 0) exactly as pinet_shuffle_execute does
   * for every PE at once, and return its status (again the same in each). */
  pinet_status (*step)(void *ctx, pinet_status local, const pinet_shuffle_schedule *sched,
                       pinet_shuffle_elem elem, void *pe_mem, void *host_mem);
  /* Agree as step; when OK, gather `bytes` of every PE's `part` into `all` on PE 0 (PE order):
   * the host's view of data outside the schedules, for diagnostics (the EM log-likelihood). */
  pinet_status (*gather)(void *ctx, pinet_status local, const void *part, size_t bytes,
                         void *all);
} pinet_recon_dist;

/* pinet_fbp_parallel with PE dist->pe in this process: the same schedules, the same sums in the
 * same order, so img (written on PE 0 only) is bit for bit pinet_fbp_parallel's; comm and
 * per_pe_work are the same in every process. dist NULL: pinet_fbp_parallel. Argument errors
 * (PINET_ERR_NULL: a hook; PINET_ERR_RANGE: dist->pe >= pes) are returned before any hook runs,
 * so they must hold in every process alike. */
pinet_status pinet_fbp_parallel_dist(pinet_fbp *p, const float *sino, uint32_t pes,
                                     pinet_recon_arith arith, int frac_bits,
                                     const pinet_recon_dist *dist, float *img,
                                     pinet_recon_comm *comm, uint64_t *per_pe_work);

/* pinet_em_parallel likewise: lambda_out and loglik are written on PE 0 only, bit for bit
 * pinet_em_parallel's (loglik must be NULL in every process or in none). */
pinet_status pinet_em_parallel_dist(const pinet_sysmat *m, const double *counts, uint32_t iters,
                                    uint32_t pes, pinet_em_partition part,
                                    pinet_recon_arith arith, const pinet_recon_dist *dist,
                                    double *lambda_out, double *loglik, pinet_recon_comm *comm,
                                    uint64_t *per_pe_work);

/* ---- the schedule kind ---------------------------------------------------------------------- */

/* What the *_opts variants take besides the run's data. */
typedef struct pinet_recon_par_opts {
  pinet_shuffle_kind schedule;  /* PAPER (pinet_shuffle_build) or FAST (..._build_fast) */
  const pinet_recon_dist *dist; /* NULL: every PE simulated here */
} pinet_recon_par_opts;

/* pinet_fbp_parallel / pinet_fbp_parallel_dist with the collectives (scatter, broadcast,
 * integration, all-to-all broadcast) built by opts->schedule's builder; opts NULL = {PAPER, NULL}
 * (pinet_fbp_parallel exactly). The fast schedules leave the same words in every output region,
 * and integration is the same schedule in both kinds, so img is bit for bit the paper run's; comm
 * tells the two kinds' cycles (cycles_paper, cycles_fast) from either run. FAST with a dist is
 * refused before any hook runs with PINET_ERR_ILLEGAL_STATE: a distributed executor moves a step
 * as a whole (all reads, then all writes) and cannot run a cut-through step. Another kind:
 * PINET_ERR_RANGE. Otherwise the errors of pinet_fbp_parallel_dist. */
pinet_status pinet_fbp_parallel_opts(pinet_fbp *p, const float *sino, uint32_t pes,
                                     pinet_recon_arith arith, int frac_bits,
                                     const pinet_recon_par_opts *opts, float *img,
                                     pinet_recon_comm *comm, uint64_t *per_pe_work);

/* pinet_em_parallel / pinet_em_parallel_dist likewise (the downloads, both integrations, the
 * all-to-all broadcasts and the upload built by the chosen kind; the ring exchange is one custom
 * step in both): lambda_out and loglik bit for bit the paper run's. opts NULL = {PAPER, NULL}
 * (pinet_em_parallel exactly). Errors: the kind's as pinet_fbp_parallel_opts, otherwise those of
 * pinet_em_parallel_dist. */
pinet_status pinet_em_parallel_opts(const pinet_sysmat *m, const double *counts, uint32_t iters,
                                    uint32_t pes, pinet_em_partition part,
                                    pinet_recon_arith arith, const pinet_recon_par_opts *opts,
                                    double *lambda_out, double *loglik, pinet_recon_comm *comm,
                                    uint64_t *per_pe_work);

/* ---- efficiency models (eqs. (4), (6)) fitted to Tables 2-7 --------------------------------- */

/* FBP: T_N = t0/N + (2a+b)(1 - 1/N) M + 2 c log N + t_IO, M = image pixels; E = t0 / (N T_N).
 * EM:  T_N = ni (t0/N + (2a+b)(1 - 1/N) M + 2 c log N) + t_IO, M = tubes (4560, 96 detectors).
 * a and b enter only through 2a + b: the fit reports alpha = 2a + b. Least squares (alpha, c >= 0)
 * on the relative residuals of the execution times without I/O; t_IO is the mean of the I/O
 * columns. FBP is fitted per image size (the rows) and over all sizes; EM over all N and ni. */
typedef struct pinet_recon_model_fit {
  double fbp_alpha, fbp_c;      /* over all four sizes: s per shared datum, s per link setup */
  double fbp_alpha_size[4], fbp_c_size[4]; /* one fit per image size (used for the rows) */
  double fbp_tio[4];            /* per image size 64, 128, 256, 512 (s) */
  double fbp_t0[4];             /* the single-PE times used (s) */
  double em_alpha, em_c, em_tio, em_t0; /* em_t0: seconds per iteration on one PE */
  double fbp_rms_rel, em_rms_rel;       /* rms relative residual of the fitted times */
} pinet_recon_model_fit;

/* One row of the comparison: paper vs model speedup and efficiency, with and without I/O. */
typedef struct pinet_recon_model_row {
  int kernel;        /* 0 FBP, 1 EM */
  uint32_t size;     /* FBP image side; EM 64 */
  uint32_t iters;    /* EM iterations; FBP 1 */
  uint32_t pes;
  double paper_speedup_io, paper_speedup_noio;
  double model_speedup_io, model_speedup_noio;
  double paper_eff_io, paper_eff_noio;
  double model_eff_io, model_eff_noio;
} pinet_recon_model_row;

/* Fit the models to the paper's tables (the data are built in). rows (may be NULL) receives up
 * to max_rows rows (FBP 4 sizes x 5 N, then EM 6 iteration counts x 5 N = 50 rows); *n_rows the
 * count written. Errors: PINET_ERR_NULL. */
pinet_status pinet_recon_model_fit_paper(pinet_recon_model_fit *fit, pinet_recon_model_row *rows,
                                         size_t max_rows, size_t *n_rows);

/* Eq. (4) / (6) with explicit parameters (t in seconds). */
double pinet_recon_model_eff_fbp(double t0, double alpha, double c, double tio, double m,
                                 uint32_t pes);
double pinet_recon_model_eff_em(double t0, double alpha, double c, double tio, double m,
                                uint32_t pes, uint32_t iters);

#ifdef __cplusplus
}
#endif
#endif /* PINET_RECON_H */
