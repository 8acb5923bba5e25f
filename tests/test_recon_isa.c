/* test_recon_isa.c - the reconstruction kernels on every instruction set this machine runs and on
 * several threads: each result is compared with the baseline (PINET_ISA_SSE2, one thread) bit for
 * bit - FBP (float and fixed point, whole runs and the view ranges the parallel version asks for,
 * parallel-beam and ring), EM (the symmetric and the plain sweep, 16- and 32-bit indices, fixed
 * point, OSEM, log-likelihoods), the schedule engine's add - plus the ISA names, the PINET_ISA
 * variable and the argument errors. Geometries are drawn at random; the seed is printed and
 * named in every failure (PINET_TEST_SEED replays one). */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/recon.h"
#include "pinet/rng.h"
#include "pinet/shuffle.h"
#include "test_support.h"

static uint64_t g_seed = 20240515;

/* The ISAs to compare with the baseline: every supported one (the baseline too, on threads). */
static int isa_count(pinet_isa *list) {
  int n = 0;
  for (int i = 0; i < PINET_ISA_COUNT; i++) {
    if (pinet_isa_supported((pinet_isa)i)) list[n++] = (pinet_isa)i;
  }
  return n;
}

static const uint32_t k_threads[] = {1, 2, 3};
#define N_THREADS (sizeof k_threads / sizeof k_threads[0])

/* First index where two buffers differ, or -1. */
static long first_diff(const void *a, const void *b, size_t n, size_t esize) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++) {
    if (memcmp(x + i * esize, y + i * esize, esize) != 0) return (long)i;
  }
  return -1;
}

/* ---- names and the environment variable ------------------------------------------------------ */

static void test_recon_isa_names_and_env(void **state) {
  (void)state;
  for (int i = 0; i < PINET_ISA_COUNT; i++) {
    pinet_isa back;
    assert_non_null(pinet_isa_name((pinet_isa)i));
    assert_int_equal(pinet_isa_parse(pinet_isa_name((pinet_isa)i), &back), PINET_OK);
    assert_int_equal(back, i);
  }
  pinet_isa x;
  assert_null(pinet_isa_name((pinet_isa)PINET_ISA_COUNT));
  assert_int_equal(pinet_isa_parse("avx3", &x), PINET_ERR_RANGE);
  assert_int_equal(pinet_isa_parse(NULL, &x), PINET_ERR_NULL);
  assert_int_equal(pinet_isa_from_env(NULL), PINET_ERR_NULL);
  assert_true(pinet_isa_supported(PINET_ISA_SSE2));
  const pinet_isa best = pinet_isa_best();
  assert_true(pinet_isa_supported(best));
  for (int i = best + 1; i < PINET_ISA_COUNT; i++) assert_false(pinet_isa_supported((pinet_isa)i));
  char *saved = getenv(PINET_ISA_ENV) ? strdup(getenv(PINET_ISA_ENV)) : NULL;
  assert_int_equal(unsetenv(PINET_ISA_ENV), 0);
  assert_int_equal(pinet_isa_from_env(&x), PINET_OK);
  assert_int_equal(x, best);
  for (int i = 0; i < PINET_ISA_COUNT; i++) { /* a name: that ISA, never above the CPU's */
    assert_int_equal(setenv(PINET_ISA_ENV, pinet_isa_name((pinet_isa)i), 1), 0);
    assert_int_equal(pinet_isa_from_env(&x), PINET_OK);
    assert_int_equal(x, i < (int)best ? i : (int)best);
    pinet_fbp *p = NULL;
    pinet_pb_geom g;
    assert_int_equal(pinet_pb_geom_init(&g, 16, 8, 16), PINET_OK);
    assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_RAMP, &p), PINET_OK);
    assert_int_equal(pinet_fbp_isa(p), x); /* objects take it at creation */
    pinet_fbp_free(p);
  }
  assert_int_equal(setenv(PINET_ISA_ENV, "auto", 1), 0);
  assert_int_equal(pinet_isa_from_env(&x), PINET_OK);
  assert_int_equal(x, best);
  assert_int_equal(setenv(PINET_ISA_ENV, "sse3", 1), 0);
  assert_int_equal(pinet_isa_from_env(&x), PINET_ERR_RANGE);
  assert_int_equal(x, best);
  if (saved) {
    setenv(PINET_ISA_ENV, saved, 1);
    free(saved);
  } else {
    unsetenv(PINET_ISA_ENV);
  }
}

static void test_recon_isa_argument_errors(void **state) {
  (void)state;
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 16, 8, 16), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_RAMP, &p), PINET_OK);
  assert_int_equal(pinet_fbp_threads(p), 1);
  assert_int_equal(pinet_fbp_set_threads(p, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_fbp_set_threads(p, PINET_RECON_MAX_THREADS + 1), PINET_ERR_RANGE);
  assert_int_equal(pinet_fbp_set_threads(NULL, 2), PINET_ERR_NULL);
  assert_int_equal(pinet_fbp_set_threads(p, 4), PINET_OK);
  assert_int_equal(pinet_fbp_threads(p), 4);
  assert_int_equal(pinet_fbp_set_threads(p, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_fbp_threads(p), 4); /* kept */
  assert_int_equal(pinet_fbp_set_isa(p, (pinet_isa)PINET_ISA_COUNT), PINET_ERR_RANGE);
  assert_int_equal(pinet_fbp_set_isa(NULL, PINET_ISA_SSE2), PINET_ERR_NULL);
  for (int i = 0; i < PINET_ISA_COUNT; i++) {
    const pinet_status want = pinet_isa_supported((pinet_isa)i) ? PINET_OK : PINET_ERR_UNSUPPORTED;
    assert_int_equal(pinet_fbp_set_isa(p, (pinet_isa)i), want);
  }
  assert_int_equal(pinet_fbp_set_portable(p, 1), PINET_OK);
  assert_int_equal(pinet_fbp_isa(p), PINET_ISA_SSE2);
  pinet_fbp_free(p);

  pinet_sysmat *m = NULL;
  assert_int_equal(pinet_sysmat_create_parallel(&g, PINET_BOXES_DISK, &m), PINET_OK);
  double *counts = xcalloc(pinet_sysmat_tubes(m), sizeof *counts);
  pinet_em *em = NULL;
  pinet_em_opts po = {1, PINET_RECON_FLOAT, 1};
  assert_int_equal(pinet_em_create(m, counts, &po, &em), PINET_OK);
  assert_int_equal(pinet_em_isa(em), PINET_ISA_SSE2); /* portable = 1 */
  assert_int_equal(pinet_em_set_threads(em, 0), PINET_ERR_RANGE);
  assert_int_equal(pinet_em_set_threads(NULL, 1), PINET_ERR_NULL);
  assert_int_equal(pinet_em_set_threads(em, 3), PINET_OK);
  assert_int_equal(pinet_em_threads(em), 3);
  assert_int_equal(pinet_em_set_threads(em, 1), PINET_OK);
  assert_int_equal(pinet_em_threads(em), 1);
  assert_int_equal(pinet_em_set_isa(em, (pinet_isa)-1), PINET_ERR_RANGE);
  for (int i = 0; i < PINET_ISA_COUNT; i++) {
    const pinet_status want = pinet_isa_supported((pinet_isa)i) ? PINET_OK : PINET_ERR_UNSUPPORTED;
    assert_int_equal(pinet_em_set_isa(em, (pinet_isa)i), want);
  }
  pinet_em_free(em);
  pinet_em_opts po2 = {1, PINET_RECON_FLOAT, 2};
  assert_int_equal(pinet_em_create(m, counts, &po2, &em), PINET_OK);
  assert_true(pinet_em_isa(em) <= PINET_ISA_AVX2);
  pinet_em_free(em);
  free(counts);
  pinet_sysmat_free(m);
}

/* ---- FBP ---------------------------------------------------------------------------------------- */

typedef struct fbp_case {
  uint32_t size, views, bins;
  double center; /* < 0: the default */
  pinet_fbp_filter filter;
} fbp_case;

/* A noisy Shepp-Logan sinogram for the geometry (values of both signs after filtering). */
static float *make_sino(const pinet_pb_geom *g, pinet_rng *rng) {
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  float *sino = xmalloc((size_t)g->views * g->bins * sizeof *sino);
  assert_int_equal(pinet_phantom_sinogram(e, ne, g, 1, sino), PINET_OK);
  for (size_t i = 0; i < (size_t)g->views * g->bins; i++) {
    sino[i] = (float)(sino[i] + 0.05 * (pinet_rng_unit(rng) - 0.5));
  }
  return sino;
}

/* Everything one FBP object computes for a sinogram: the float image, the fixed image at the
 * data's bits and at bits so large that some terms leave the vector kernels' exact range (their
 * fallback), and the float and fixed accumulators of a few view ranges (the parallel version's
 * calls: ranges of 1 .. 7 views starting anywhere). */
typedef struct fbp_out {
  float *img, *img_fx, *img_fx_big;
  double *acc;
  int32_t *acc_fx;
  size_t npix, nacc;
} fbp_out;

static void fbp_out_free(fbp_out *o) {
  free(o->img);
  free(o->img_fx);
  free(o->img_fx_big);
  free(o->acc);
  free(o->acc_fx);
}

#define N_RANGES 4

static void fbp_compute(const pinet_pb_geom *g, pinet_fbp_filter filter, const float *sino,
                        pinet_isa isa, uint32_t threads, const uint32_t ranges[N_RANGES][2],
                        fbp_out *o) {
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(g, filter, &p), PINET_OK);
  assert_int_equal(pinet_fbp_set_isa(p, isa), PINET_OK);
  assert_int_equal(pinet_fbp_set_threads(p, threads), PINET_OK);
  o->npix = (size_t)g->size * g->size;
  o->nacc = N_RANGES * o->npix;
  o->img = xmalloc(o->npix * sizeof *o->img);
  o->img_fx = xmalloc(o->npix * sizeof *o->img_fx);
  o->img_fx_big = xmalloc(o->npix * sizeof *o->img_fx_big);
  o->acc = xcalloc(o->nacc, sizeof *o->acc);
  o->acc_fx = xcalloc(o->nacc, sizeof *o->acc_fx);
  assert_int_equal(pinet_fbp_run(p, sino, o->img), PINET_OK);
  const size_t stride = pinet_fbp_filtered_stride(p);
  float *filt = xmalloc((size_t)g->views * stride * sizeof *filt);
  assert_int_equal(pinet_fbp_filter_views(p, NULL, sino, g->views, filt), PINET_OK);
  double largest = 0;
  int bits = 0;
  assert_int_equal(pinet_fbp_fixed_scale(p, filt, &bits, &largest), PINET_OK);
  assert_int_equal(pinet_fbp_run_fixed(p, sino, bits, o->img_fx), PINET_OK);
  /* |value| * 2^big reaches 2^52: some terms lie between 2^51 and 9e15 (exact only in the C
   * code), the largest beyond (0 by the rule) */
  int big = (int)floor(52.0 - log2(largest > 0 ? largest : 1.0));
  if (big > PINET_RECON_FIXED_BITS_MAX) big = PINET_RECON_FIXED_BITS_MAX;
  int32_t *accfx = xcalloc(o->npix, sizeof *accfx);
  assert_int_equal(pinet_fbp_backproject_fixed(p, filt, 0, g->views, big, accfx), PINET_OK);
  for (size_t i = 0; i < o->npix; i++) o->img_fx_big[i] = (float)accfx[i];
  free(accfx);
  for (int r = 0; r < N_RANGES; r++) {
    const uint32_t first = ranges[r][0], count = ranges[r][1];
    assert_int_equal(pinet_fbp_backproject(p, filt + (size_t)first * stride, first, count,
                                           o->acc + r * o->npix), PINET_OK);
    assert_int_equal(pinet_fbp_backproject_fixed(p, filt + (size_t)first * stride, first, count,
                                                 bits, o->acc_fx + r * o->npix), PINET_OK);
  }
  free(filt);
  pinet_fbp_free(p);
}

static void fbp_check(const char *what, const void *a, const void *b, size_t n, size_t esize,
                      const fbp_case *c, pinet_isa isa, uint32_t threads) {
  const long i = first_diff(a, b, n, esize);
  if (i >= 0) {
    fail_msg("seed %llu: FBP %s differs from the baseline at %ld (N %u, V %u, D %u, centre %g, "
             "filter %s; isa %s, %u threads)", (unsigned long long)g_seed, what, i, c->size,
             c->views, c->bins, c->center, pinet_fbp_filter_name(c->filter), pinet_isa_name(isa),
             threads);
  }
}

static void test_recon_isa_fbp_matches_baseline(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed);
  fbp_case cases[8] = {{64, 90, 64, -1, PINET_FILTER_RAMP},
                       {48, 13, 67, 30.25, PINET_FILTER_HANN},
                       {33, 7, 33, -1, PINET_FILTER_SHEPP_LOGAN},
                       {5, 3, 4, -1, PINET_FILTER_RAMP},
                       {0, 0, 0, -1, PINET_FILTER_RAMP}};
  for (int k = 4; k < 8; k++) { /* random geometries */
    cases[k].size = 8 + (uint32_t)pinet_rng_below(&rng, 90);
    cases[k].views = 1 + (uint32_t)pinet_rng_below(&rng, 40);
    cases[k].bins = 4 + (uint32_t)pinet_rng_below(&rng, 100);
    cases[k].center = pinet_rng_below(&rng, 2) ? -1.0 : (double)cases[k].bins / 2 - 0.5;
    cases[k].filter = (pinet_fbp_filter)pinet_rng_below(&rng, PINET_FILTER_COUNT);
  }
  pinet_isa list[PINET_ISA_COUNT];
  const int nisa = isa_count(list);
  for (int k = 0; k < 8; k++) {
    const fbp_case *c = &cases[k];
    pinet_pb_geom g;
    assert_int_equal(pinet_pb_geom_init(&g, c->size, c->views, c->bins), PINET_OK);
    if (c->center >= 0) g.bin_center = c->center;
    if (pinet_pb_geom_check(&g) != PINET_OK) continue;
    float *sino = make_sino(&g, &rng);
    uint32_t ranges[N_RANGES][2];
    for (int r = 0; r < N_RANGES; r++) {
      const uint32_t first = (uint32_t)pinet_rng_below(&rng, g.views);
      uint32_t count = 1 + (uint32_t)pinet_rng_below(&rng, 7);
      if (count > g.views - first) count = g.views - first;
      ranges[r][0] = first;
      ranges[r][1] = count;
    }
    fbp_out base;
    fbp_compute(&g, c->filter, sino, PINET_ISA_SSE2, 1, (const uint32_t(*)[2])ranges, &base);
    for (int i = 0; i < nisa; i++) {
      for (size_t t = 0; t < N_THREADS; t++) {
        if (list[i] == PINET_ISA_SSE2 && k_threads[t] == 1) continue;
        fbp_out o;
        fbp_compute(&g, c->filter, sino, list[i], k_threads[t], (const uint32_t(*)[2])ranges, &o);
        fbp_check("image", base.img, o.img, o.npix, sizeof *o.img, c, list[i], k_threads[t]);
        fbp_check("fixed-point image", base.img_fx, o.img_fx, o.npix, sizeof *o.img_fx, c, list[i], k_threads[t]);
        fbp_check("fixed-point sums at large bits", base.img_fx_big, o.img_fx_big, o.npix,
                  sizeof *o.img_fx_big, c, list[i], k_threads[t]);
        fbp_check("view-range accumulators", base.acc, o.acc, o.nacc, sizeof *o.acc, c, list[i], k_threads[t]);
        fbp_check("fixed-point view-range accumulators", base.acc_fx, o.acc_fx, o.nacc,
                  sizeof *o.acc_fx, c, list[i], k_threads[t]);
        fbp_out_free(&o);
      }
    }
    fbp_out_free(&base);
    free(sino);
  }
  print_message("FBP compared on:");
  for (int i = 0; i < nisa; i++) print_message(" %s", pinet_isa_name(list[i]));
  print_message(" (threads 1, 2, 3; seed %llu)\n", (unsigned long long)g_seed);
}

/* The PET ring's FBP (rebinned views, odd sizes) and the parallel FBP (pinet_fbp_parallel: the
 * schedule engine's adds) on every ISA. */
static void test_recon_isa_fbp_ring_and_parallel(void **state) {
  (void)state;
  pinet_ring ring;
  assert_int_equal(pinet_ring_init(&ring, 40, 52), PINET_OK);
  const size_t np = pinet_ring_pairs(&ring);
  float *pv = xmalloc(np * sizeof *pv), base[40 * 40], img[40 * 40];
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  for (size_t q = 0; q < np; q++) {
    uint32_t i, j;
    double th, s;
    pinet_ring_pair(&ring, q, &i, &j);
    pinet_ring_pair_coords(&ring, i, j, &th, &s);
    pv[q] = (float)pinet_phantom_line_integral(e, ne, 40, th, s);
  }
  char *saved = getenv(PINET_ISA_ENV) ? strdup(getenv(PINET_ISA_ENV)) : NULL;
  pinet_isa list[PINET_ISA_COUNT];
  const int nisa = isa_count(list);
  for (int i = 0; i < nisa; i++) { /* pinet_fbp_ring makes its own object: PINET_ISA chooses */
    assert_int_equal(setenv(PINET_ISA_ENV, pinet_isa_name(list[i]), 1), 0);
    assert_int_equal(pinet_fbp_ring(&ring, pv, PINET_FILTER_HAMMING, i == 0 ? base : img), PINET_OK);
    if (i > 0 && memcmp(base, img, sizeof img) != 0) fail_msg("ring FBP on %s differs", pinet_isa_name(list[i]));
  }
  /* parallel FBP on 4 PEs, float and fixed: PINET_ISA sets both the object's kernels and the
   * schedule engine's adds */
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 36, 22, 40), PINET_OK);
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed + 1);
  float *sino = make_sino(&g, &rng);
  float par0[36 * 36], par[36 * 36], parfx0[36 * 36], parfx[36 * 36];
  for (int i = 0; i < nisa; i++) {
    assert_int_equal(setenv(PINET_ISA_ENV, pinet_isa_name(list[i]), 1), 0);
    pinet_fbp *p = NULL;
    assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_RAMP, &p), PINET_OK);
    assert_int_equal(pinet_fbp_isa(p), list[i]);
    assert_int_equal(pinet_fbp_parallel(p, sino, 4, PINET_RECON_FLOAT, 0, i == 0 ? par0 : par,
                                        NULL, NULL), PINET_OK);
    assert_int_equal(pinet_fbp_parallel(p, sino, 4, PINET_RECON_FIXED, 20, i == 0 ? parfx0 : parfx,
                                        NULL, NULL), PINET_OK);
    if (i > 0 && (memcmp(par0, par, sizeof par) != 0 || memcmp(parfx0, parfx, sizeof parfx) != 0)) {
      fail_msg("seed %llu: parallel FBP on %s differs", (unsigned long long)g_seed, pinet_isa_name(list[i]));
    }
    pinet_fbp_free(p);
  }
  if (saved) {
    setenv(PINET_ISA_ENV, saved, 1);
    free(saved);
  } else {
    unsetenv(PINET_ISA_ENV);
  }
  free(sino);
  free(pv);
}

/* ---- EM ------------------------------------------------------------------------------------------ */

typedef struct em_case {
  const char *name;
  pinet_sysmat *m;
} em_case;

/* The image and the log-likelihoods of `iters` iterations. */
static void em_compute(const pinet_sysmat *m, const double *counts, uint32_t subsets,
                       pinet_recon_arith arith, int sym, pinet_isa isa, uint32_t threads,
                       uint32_t iters, double *lam, double *ll) {
  pinet_em_opts o = {subsets, arith, 0};
  pinet_em *em = NULL;
  assert_int_equal(pinet_em_create(m, counts, &o, &em), PINET_OK);
  assert_int_equal(pinet_em_set_isa(em, isa), PINET_OK);
  assert_int_equal(pinet_em_set_threads(em, threads), PINET_OK);
  assert_int_equal(pinet_em_set_symmetry(em, sym), PINET_OK);
  for (uint32_t it = 0; it < iters; it++) assert_int_equal(pinet_em_iterate(em, &ll[it]), PINET_OK);
  memcpy(lam, pinet_em_image(em), pinet_sysmat_boxes(m) * sizeof *lam);
  pinet_em_free(em);
}

static void test_recon_isa_em_matches_baseline(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed + 2);
  em_case cases[4];
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 24, 30, 24), PINET_OK);
  cases[0].name = "parallel 24x24, 30 views";
  assert_int_equal(pinet_sysmat_create_parallel(&g, PINET_BOXES_DISK, &cases[0].m), PINET_OK);
  pinet_ring ring;
  assert_int_equal(pinet_ring_init(&ring, 20, 32), PINET_OK);
  cases[1].name = "ring 20x20, 32 detectors";
  assert_int_equal(pinet_sysmat_create_ring(&ring, &cases[1].m), PINET_OK);
  pinet_pb_geom g2;
  assert_int_equal(pinet_pb_geom_init(&g2, 19, 7, 23), PINET_OK);
  cases[2].name = "parallel 19x19, 7 views x 23 bins";
  assert_int_equal(pinet_sysmat_create_parallel(&g2, PINET_BOXES_ALL, &cases[2].m), PINET_OK);
  pinet_pb_geom g3; /* more than 65535 boxes: 32-bit column indices */
  assert_int_equal(pinet_pb_geom_init(&g3, 260, 2, 260), PINET_OK);
  cases[3].name = "parallel 260x260 (67600 boxes), 2 views";
  assert_int_equal(pinet_sysmat_create_parallel(&g3, PINET_BOXES_ALL, &cases[3].m), PINET_OK);
  assert_null(pinet_sysmat_by_tube_idx16(cases[3].m));
  pinet_isa list[PINET_ISA_COUNT];
  const int nisa = isa_count(list);
  const uint32_t iters = 4;
  for (int k = 0; k < 4; k++) {
    const pinet_sysmat *m = cases[k].m;
    const uint32_t T = pinet_sysmat_tubes(m), B = pinet_sysmat_boxes(m);
    double *counts = xmalloc(T * sizeof *counts);
    for (uint32_t t = 0; t < T; t++) counts[t] = (double)pinet_rng_below(&rng, 40);
    double *lam0 = xmalloc(B * sizeof *lam0), *lam = xmalloc(B * sizeof *lam);
    double ll0[4], ll[4];
    /* EM with and without the symmetries, fixed point, OSEM (4 subsets where the views allow) */
    const struct { uint32_t subsets; pinet_recon_arith arith; int sym; const char *what; } paths[4] = {
        {1, PINET_RECON_FLOAT, 1, "EM, symmetric sweep"},
        {1, PINET_RECON_FLOAT, 0, "EM, plain sweep"},
        {1, PINET_RECON_FIXED, 1, "EM, fixed point"},
        {2, PINET_RECON_FLOAT, 1, "OSEM, 2 subsets"}};
    for (int pth = 0; pth < 4; pth++) {
      em_compute(m, counts, paths[pth].subsets, paths[pth].arith, paths[pth].sym, PINET_ISA_SSE2, 1,
                 iters, lam0, ll0);
      for (int i = 0; i < nisa; i++) {
        for (size_t t = 0; t < N_THREADS; t++) {
          if (list[i] == PINET_ISA_SSE2 && k_threads[t] == 1) continue;
          em_compute(m, counts, paths[pth].subsets, paths[pth].arith, paths[pth].sym, list[i],
                     k_threads[t], iters, lam, ll);
          const long b = first_diff(lam0, lam, B, sizeof *lam);
          const long it = first_diff(ll0, ll, iters, sizeof *ll);
          if (b >= 0 || it >= 0) {
            fail_msg("seed %llu: %s on %s, %s, %u threads: %s differs from the baseline at %ld "
                     "(%.17g vs %.17g)", (unsigned long long)g_seed, paths[pth].what,
                     cases[k].name, pinet_isa_name(list[i]), k_threads[t],
                     b >= 0 ? "the image" : "the log-likelihood", b >= 0 ? b : it,
                     b >= 0 ? lam0[b] : ll0[it], b >= 0 ? lam[b] : ll[it]);
          }
        }
      }
    }
    free(counts);
    free(lam0);
    free(lam);
  }
  for (int k = 0; k < 4; k++) pinet_sysmat_free(cases[k].m);
}

/* ---- the schedule engine's add -------------------------------------------------------------- */

static void test_recon_isa_shuffle_add(void **state) {
  (void)state;
  pinet_rng rng;
  pinet_rng_seed(&rng, g_seed + 3);
  enum { N = 203 };
  char *saved = getenv(PINET_ISA_ENV) ? strdup(getenv(PINET_ISA_ENV)) : NULL;
  pinet_isa list[PINET_ISA_COUNT];
  const int nisa = isa_count(list);
  const pinet_shuffle_elem elems[3] = {PINET_SHUFFLE_I32, PINET_SHUFFLE_F32, PINET_SHUFFLE_F64};
  for (int e = 0; e < 3; e++) {
    const size_t es = pinet_shuffle_elem_size(elems[e]);
    unsigned char src[N * 8], dst0[N * 8], ref[2][N * 8], got[N * 8];
    for (size_t i = 0; i < N * 8; i++) src[i] = (unsigned char)pinet_rng_below(&rng, 256);
    for (size_t i = 0; i < N; i++) { /* finite floats of mixed sizes */
      if (elems[e] == PINET_SHUFFLE_F32) ((float *)(void *)src)[i] = (float)(pinet_rng_unit(&rng) - 0.5) * 1e3f;
      if (elems[e] == PINET_SHUFFLE_F64) ((double *)(void *)src)[i] = (pinet_rng_unit(&rng) - 0.5) * 1e9;
    }
    memcpy(dst0, src + 5 * es, (N - 5) * es); /* dst: another slice of the same values */
    memcpy(dst0 + (N - 5) * es, src, 5 * es);
    for (int i = 0; i < nisa; i++) {
      assert_int_equal(setenv(PINET_ISA_ENV, pinet_isa_name(list[i]), 1), 0);
      /* distinct buffers, every length 0 .. N */
      for (size_t n = 0; n <= N; n += (n < 40 ? 1 : 37)) {
        memcpy(got, dst0, sizeof got);
        assert_int_equal(pinet_shuffle_apply(elems[e], PINET_SHUFFLE_ADD, got, src, n), PINET_OK);
        if (i == 0 && n == N) memcpy(ref[0], got, sizeof got);
        if (i > 0 && n == N && memcmp(ref[0], got, sizeof got) != 0) {
          fail_msg("seed %llu: add of %zu-byte elements on %s differs", (unsigned long long)g_seed,
                   es, pinet_isa_name(list[i]));
        }
      }
      /* overlapping ranges (dst one element after src): the C loop's element order */
      memcpy(got, dst0, sizeof got);
      assert_int_equal(pinet_shuffle_apply(elems[e], PINET_SHUFFLE_ADD, got + es, got, N - 1), PINET_OK);
      if (i == 0) memcpy(ref[1], got, sizeof got);
      else if (memcmp(ref[1], got, sizeof got) != 0) {
        fail_msg("seed %llu: overlapping add of %zu-byte elements on %s differs",
                 (unsigned long long)g_seed, es, pinet_isa_name(list[i]));
      }
    }
  }
  if (saved) {
    setenv(PINET_ISA_ENV, saved, 1);
    free(saved);
  } else {
    unsetenv(PINET_ISA_ENV);
  }
}

int main(void) {
  const char *s = getenv("PINET_TEST_SEED");
  if (s != NULL && *s) g_seed = strtoull(s, NULL, 10);
  printf("test_recon_isa: seed %llu (PINET_TEST_SEED to replay)\n", (unsigned long long)g_seed);
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_recon_isa_names_and_env),
      cmocka_unit_test(test_recon_isa_argument_errors),
      cmocka_unit_test(test_recon_isa_fbp_matches_baseline),
      cmocka_unit_test(test_recon_isa_fbp_ring_and_parallel),
      cmocka_unit_test(test_recon_isa_em_matches_baseline),
      cmocka_unit_test(test_recon_isa_shuffle_add),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
