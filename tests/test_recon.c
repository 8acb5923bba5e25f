/* test_recon.c - the sequential PET reconstruction kernels: FBP against analytic cases and a
 * direct-convolution reference written here, Siddon against brute-force clipping, EM's monotone
 * likelihood and fixed point, the ring rebinning, file round trips and bad input. */
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
#include <unistd.h>

#include "pinet/recon.h"
#include "pinet/recon_io.h"
#include "pinet/rng.h"
#include "test_support.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

static double disk_rmse_mask(const float *a, const float *b, uint32_t n, double rmax) {
  double se = 0;
  size_t cnt = 0;
  double c0 = n / 2;
  for (uint32_t r = 0; r < n; r++)
    for (uint32_t c = 0; c < n; c++) {
      double dr = r - c0, dc = c - c0;
      if (dr * dr + dc * dc <= rmax * rmax) {
        double d = (double)a[r * n + c] - b[r * n + c];
        se += d * d;
        cnt++;
      }
    }
  return sqrt(se / cnt);
}

/* A centred disk of value 1 (radius 16 pixels in a 64 x 64 image): inside, the reconstruction is
 * 1; away from the edge, outside, it is 0; the profile along the centre row is the step. */
static void test_recon_fbp_disk_profile(void **state) {
  (void)state;
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 64, 90, 64), PINET_OK);
  pinet_ellipse d = pinet_phantom_disk(1.0, 0.5);
  float sino[90 * 64], img[64 * 64];
  assert_int_equal(pinet_phantom_sinogram(&d, 1, &g, 1, sino), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_RAMP, &p), PINET_OK);
  assert_int_equal(pinet_fbp_run(p, sino, img), PINET_OK);
  double inside = 0;
  int n_in = 0;
  for (uint32_t c = 0; c < 64; c++) {
    double x = (double)c - 32.0, v = img[32 * 64 + c];
    if (fabs(x) <= 12) {
      assert_true(fabs(v - 1.0) < 0.03);
      inside += v;
      n_in++;
    } else if (fabs(x) >= 20 && fabs(x) <= 30) {
      assert_true(fabs(v) < 0.03);
    }
  }
  assert_true(fabs(inside / n_in - 1.0) < 0.01);
  /* outside the reconstruction disk the image is 0 */
  assert_true(img[0] == 0.0f && img[63] == 0.0f && img[63 * 64] == 0.0f);
  pinet_fbp_free(p);
}

/* Every filter reconstructs the flat interior of the disk to about 1. */
static void test_recon_fbp_filters_all(void **state) {
  (void)state;
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 64, 64, 64), PINET_OK);
  pinet_ellipse d = pinet_phantom_disk(1.0, 0.6);
  float sino[64 * 64], img[64 * 64];
  assert_int_equal(pinet_phantom_sinogram(&d, 1, &g, 4, sino), PINET_OK);
  for (unsigned f = 0; f < PINET_FILTER_COUNT; f++) {
    pinet_fbp_filter parsed;
    assert_int_equal(pinet_fbp_filter_parse(pinet_fbp_filter_name((pinet_fbp_filter)f), &parsed),
                     PINET_OK);
    assert_int_equal(parsed, f);
    pinet_fbp *p = NULL;
    assert_int_equal(pinet_fbp_create(&g, (pinet_fbp_filter)f, &p), PINET_OK);
    assert_int_equal(pinet_fbp_run(p, sino, img), PINET_OK);
    double v = img[32 * 64 + 32];
    if (fabs(v - 1.0) > 0.05) fail_msg("filter %s: centre %g", pinet_fbp_filter_name((pinet_fbp_filter)f), v);
    pinet_fbp_free(p);
  }
}

/* FBP against a reference written here: direct spatial convolution with the band-limited ramp
 * h(0) = 1/4, h(odd n) = -1/(pi n)^2 and a per-pixel double-precision backprojection. */
static void test_recon_fbp_matches_direct_convolution(void **state) {
  (void)state;
  enum { N = 32, V = 12, D = 32 };
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, N, V, D), PINET_OK);
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  float sino[V * D], img[N * N];
  assert_int_equal(pinet_phantom_sinogram(e, ne, &g, 2, sino), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_RAMP, &p), PINET_OK);
  assert_int_equal(pinet_fbp_run(p, sino, img), PINET_OK);
  /* q(j) for every integer j, the detector zero-extended (the filtered values just outside the
   * bins are used at the rim of the disk) */
  static double q[V][D + 8];
  for (int v = 0; v < V; v++)
    for (int j = -4; j < D + 4; j++) {
      double acc = 0;
      for (int k = 0; k < D; k++) {
        int n = j - k;
        double h = n == 0 ? 0.25 : ((n & 1) ? -1.0 / (M_PI * M_PI * n * n) : 0.0);
        acc += h * sino[v * D + k];
      }
      q[v][j + 4] = acc;
    }
  double maxabs = 0, maxdiff = 0;
  for (int r = 0; r < N; r++)
    for (int c = 0; c < N; c++) {
      double x = c - N / 2, y = N / 2 - r;
      double ref = 0;
      if (x * x + y * y <= (N / 2) * (N / 2)) {
        for (int v = 0; v < V; v++) {
          double th = M_PI * v / V;
          double t = x * cos(th) + y * sin(th) + D / 2;
          int i = (int)floor(t);
          double w = t - i;
          double a = q[v][i + 4], b2 = q[v][i + 5];
          ref += a + w * (b2 - a);
        }
        ref *= M_PI / V;
      }
      maxabs = fmax(maxabs, fabs(ref));
      maxdiff = fmax(maxdiff, fabs(ref - img[r * N + c]));
    }
  if (maxdiff > 1e-4 * maxabs) fail_msg("max diff %g (max %g)", maxdiff, maxabs);
  /* the portable backprojection gives the same image to float rounding */
  float img2[N * N];
  assert_int_equal(pinet_fbp_set_portable(p, 1), PINET_OK);
  assert_int_equal(pinet_fbp_run(p, sino, img2), PINET_OK);
  for (int i = 0; i < N * N; i++) assert_true(fabs(img2[i] - img[i]) <= 1e-5 * maxabs);
  pinet_fbp_free(p);
}

/* Shepp-Logan at 64 x 64 from exact line integrals: a sane reconstruction error. */
static void test_recon_fbp_shepp_logan_rmse(void **state) {
  (void)state;
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 64, 96, 64), PINET_OK);
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  float sino[96 * 64], img[64 * 64], ph[64 * 64];
  assert_int_equal(pinet_phantom_sinogram(e, ne, &g, 4, sino), PINET_OK);
  assert_int_equal(pinet_phantom_rasterize(e, ne, 64, g.img_center, 4, ph), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_HANN, &p), PINET_OK);
  assert_int_equal(pinet_fbp_run(p, sino, img), PINET_OK);
  double rmse = disk_rmse_mask(img, ph, 64, 32);
  /* a 64 x 64 Shepp-Logan has sharp unit steps at the skull: 0.1 is a sound FBP, an empty
   * image is 0.3 away */
  float zero[64 * 64] = {0};
  double rmse0 = disk_rmse_mask(zero, ph, 64, 32);
  if (!(rmse < 0.1 && rmse0 > 0.25)) fail_msg("rmse %g (empty image %g)", rmse, rmse0);
  pinet_fbp_free(p);
}

/* ---- Siddon -------------------------------------------------------------------------------- */

typedef struct acc_ctx {
  double *len;
} acc_ctx;
static pinet_status acc_emit(void *ctx, uint32_t pixel, double length) {
  ((acc_ctx *)ctx)->len[pixel] += length;
  return PINET_OK;
}

/* Length of the segment inside the axis-aligned box, by Liang-Barsky clipping. */
static double clip_len(double x1, double y1, double x2, double y2, double xl, double xh, double yl,
                       double yh) {
  double t0 = 0, t1 = 1, dx = x2 - x1, dy = y2 - y1;
  double pp[4] = {-dx, dx, -dy, dy}, qq[4] = {x1 - xl, xh - x1, y1 - yl, yh - y1};
  for (int i = 0; i < 4; i++) {
    if (pp[i] == 0) {
      if (qq[i] < 0) return 0;
      continue;
    }
    double t = qq[i] / pp[i];
    if (pp[i] < 0) t0 = fmax(t0, t);
    else t1 = fmin(t1, t);
  }
  return t1 > t0 ? (t1 - t0) * hypot(dx, dy) : 0;
}

static void test_recon_siddon_bruteforce(void **state) {
  (void)state;
  const uint64_t seed = 0x5eed1234u;
  pinet_rng rng;
  pinet_rng_seed(&rng, seed);
  enum { N = 12 };
  const double c0 = N / 2;
  double len[N * N];
  for (int k = 0; k < 300; k++) {
    pinet_line l;
    if (k < 8) { /* axis-parallel, diagonal and grid-line cases */
      const pinet_line fixed[8] = {{-20, 0.3, 20, 0.3}, {1.7, -20, 1.7, 20}, {-20, -20, 20, 20},
                                   {-20, 20, 20, -20}, {-20, 0.5, 20, 0.5}, {0.5, 20, 0.5, -20},
                                   {-6.5, -6.5, 5.5, 5.5}, {2, 3, 2.5, 3.2}};
      l = fixed[k];
    } else {
      l.x1 = (pinet_rng_unit(&rng) - 0.5) * 30;
      l.y1 = (pinet_rng_unit(&rng) - 0.5) * 30;
      l.x2 = (pinet_rng_unit(&rng) - 0.5) * 30;
      l.y2 = (pinet_rng_unit(&rng) - 0.5) * 30;
    }
    memset(len, 0, sizeof len);
    acc_ctx ctx = {len};
    assert_int_equal(pinet_siddon(&l, N, c0, acc_emit, &ctx), PINET_OK);
    if (k == 4 || k == 5) { /* on a grid line: either neighbour may take it; the total is exact */
      double tot = 0;
      for (int i = 0; i < N * N; i++) tot += len[i];
      assert_true(fabs(tot - clip_len(l.x1, l.y1, l.x2, l.y2, -c0 - 0.5, N - c0 - 0.5,
                                      c0 + 0.5 - N, c0 + 0.5)) < 1e-9);
      assert_true(fabs(tot - N) < 1e-9);
      continue;
    }
    for (int r = 0; r < N; r++)
      for (int c = 0; c < N; c++) {
        double xl = c - c0 - 0.5, yl = c0 - r - 0.5;
        double ref = clip_len(l.x1, l.y1, l.x2, l.y2, xl, xl + 1, yl, yl + 1);
        if (fabs(ref - len[r * N + c]) > 1e-9)
          fail_msg("seed %llu line %d pixel (%d,%d): siddon %.12g brute %.12g",
                   (unsigned long long)seed, k, r, c, len[r * N + c], ref);
      }
  }
}

/* The by-box CSR is the transpose of the by-tube CSR; matrix rows equal Siddon lengths. */
static void test_recon_sysmat_transpose(void **state) {
  (void)state;
  pinet_ring ring;
  assert_int_equal(pinet_ring_init(&ring, 16, 24), PINET_OK);
  pinet_sysmat *m = NULL;
  assert_int_equal(pinet_sysmat_create_ring(&ring, &m), PINET_OK);
  pinet_csr bt = pinet_sysmat_by_tube(m), bb = pinet_sysmat_by_box(m);
  assert_int_equal(bt.nnz, bb.nnz);
  assert_true(bt.nnz > 0);
  /* dense reconstruction from both */
  size_t T = bt.rows, B = bt.cols;
  double *d1 = xcalloc(T * B, sizeof *d1), *d2 = xcalloc(T * B, sizeof *d2);
  assert_non_null(d1);
  assert_non_null(d2);
  for (size_t t = 0; t < T; t++)
    for (uint64_t e = bt.ptr[t]; e < bt.ptr[t + 1]; e++) d1[t * B + bt.idx[e]] += bt.val[e];
  for (size_t b = 0; b < B; b++)
    for (uint64_t e = bb.ptr[b]; e < bb.ptr[b + 1]; e++) d2[bb.idx[e] * B + b] += bb.val[e];
  assert_memory_equal(d1, d2, T * B * sizeof *d1);
  /* each tube row against brute-force clipping of its line */
  const uint32_t *tl = pinet_sysmat_tube_line(m), *bp = pinet_sysmat_box_pixel(m);
  for (size_t t = 0; t < T; t += 7) {
    uint32_t i, j;
    pinet_ring_pair(&ring, tl[t], &i, &j);
    pinet_line l = pinet_ring_line(&ring, i, j);
    for (size_t b = 0; b < B; b++) {
      uint32_t pix = bp[b], r = pix / 16, c = pix % 16;
      double xl = c - 8.0 - 0.5, yl = 8.0 - r - 0.5;
      double ref = clip_len(l.x1, l.y1, l.x2, l.y2, xl, xl + 1, yl, yl + 1);
      if (ref < 1e-7) ref = 0; /* corner touches */
      assert_true(fabs(ref - d1[t * B + b]) < 1e-5);
    }
  }
  free(d1);
  free(d2);
  pinet_sysmat_free(m);
}

/* Joseph's projector of a finely rasterised disk is close to the exact line integrals. */
static void test_recon_joseph_vs_analytic(void **state) {
  (void)state;
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 64, 30, 64), PINET_OK);
  pinet_ellipse d = pinet_phantom_disk(1.0, 0.7);
  static float img[64 * 64], s1[30 * 64], s2[30 * 64];
  assert_int_equal(pinet_phantom_rasterize(&d, 1, 64, g.img_center, 8, img), PINET_OK);
  assert_int_equal(pinet_project_joseph(&g, img, s1), PINET_OK);
  assert_int_equal(pinet_phantom_sinogram(&d, 1, &g, 8, s2), PINET_OK);
  double err = 0, mx = 0;
  for (int i = 0; i < 30 * 64; i++) {
    err += fabs(s1[i] - s2[i]);
    mx = fmax(mx, s2[i]);
  }
  err /= 30 * 64;
  /* the chord at the centre is 2 * 0.7 * 32 = 44.8 pixels */
  assert_true(fabs(mx - 44.8) < 0.05);
  if (!(err < 0.01 * mx)) fail_msg("mean abs error %g (max %g)", err, mx);
}

/* ---- EM ------------------------------------------------------------------------------------ */

static pinet_sysmat *small_pb_matrix(void) {
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 16, 12, 16), PINET_OK);
  pinet_sysmat *m = NULL;
  assert_int_equal(pinet_sysmat_create_parallel(&g, PINET_BOXES_DISK, &m), PINET_OK);
  return m;
}

/* Poisson counts of a phantom; the log-likelihood never decreases over EM iterations. */
static void test_recon_em_monotone_loglik(void **state) {
  (void)state;
  const uint64_t seed = 42;
  pinet_sysmat *m = small_pb_matrix();
  pinet_csr bt = pinet_sysmat_by_tube(m);
  uint32_t T = bt.rows, B = bt.cols;
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  float img[16 * 16];
  assert_int_equal(pinet_phantom_rasterize(e, ne, 16, 8, 2, img), PINET_OK);
  const uint32_t *bp = pinet_sysmat_box_pixel(m);
  float *mean = xmalloc(T * sizeof *mean), *noisy = xmalloc(T * sizeof *noisy);
  double *counts = xmalloc(T * sizeof *counts);
  for (uint32_t t = 0; t < T; t++) {
    double acc = 0;
    for (uint64_t k = bt.ptr[t]; k < bt.ptr[t + 1]; k++) acc += bt.val[k] * img[bp[bt.idx[k]]];
    mean[t] = (float)acc;
  }
  pinet_rng rng;
  pinet_rng_seed(&rng, seed);
  assert_int_equal(pinet_poisson_noise(&rng, mean, T, 20.0, noisy), PINET_OK);
  for (uint32_t t = 0; t < T; t++) counts[t] = noisy[t];
  pinet_em *em = NULL, *emp = NULL;
  pinet_em_opts po = {1, PINET_RECON_FLOAT, 1};
  assert_int_equal(pinet_em_create(m, counts, NULL, &em), PINET_OK);
  assert_int_equal(pinet_em_create(m, counts, &po, &emp), PINET_OK);
  double prev = -INFINITY, prevp = -INFINITY;
  for (int it = 0; it < 25; it++) {
    double l, lp;
    assert_int_equal(pinet_em_iterate(em, &l), PINET_OK);
    assert_int_equal(pinet_em_iterate(emp, &lp), PINET_OK);
    if (l < prev || lp < prevp)
      fail_msg("seed %llu: loglik fell at iteration %d: %.17g -> %.17g (portable %.17g -> %.17g)",
               (unsigned long long)seed, it, prev, l, prevp, lp);
    assert_true(fabs(l - lp) <= 1e-12 * fabs(l)); /* the portable sweep agrees */
    prev = l;
    prevp = lp;
  }
  pinet_em_free(emp);
  (void)B;
  /* OSEM runs and keeps the image non-negative */
  pinet_em_opts o = {4, PINET_RECON_FLOAT, 0};
  pinet_em *os = NULL;
  assert_int_equal(pinet_em_create(m, counts, &o, &os), PINET_OK);
  double l0, l1;
  assert_int_equal(pinet_em_current_loglik(os, &l0), PINET_OK);
  for (int it = 0; it < 3; it++) assert_int_equal(pinet_em_iterate(os, NULL), PINET_OK);
  assert_int_equal(pinet_em_current_loglik(os, &l1), PINET_OK);
  assert_true(l1 > l0);
  for (uint32_t b = 0; b < pinet_sysmat_boxes(m); b++) assert_true(pinet_em_image(os)[b] >= 0);
  pinet_em_free(os);
  pinet_em_free(em);
  free(mean);
  free(noisy);
  free(counts);
  pinet_sysmat_free(m);
}

/* Every EM kernel (symmetric sweep on and off, portable C, AVX2, widest SIMD) equals the
 * Shepp-Vardi update computed here directly from the by-tube matrix, iteration by iteration. */
static void test_recon_em_kernels_match_direct_update(void **state) {
  (void)state;
  const uint64_t seed = 11;
  pinet_sysmat *m = small_pb_matrix();
  pinet_csr bt = pinet_sysmat_by_tube(m);
  const uint32_t T = bt.rows, B = bt.cols;
  pinet_rng rng;
  pinet_rng_seed(&rng, seed);
  double *counts = xmalloc(T * sizeof *counts), *lam = xmalloc(B * sizeof *lam);
  double *sens = xcalloc(B, sizeof *sens), *back = xmalloc(B * sizeof *back);
  assert_non_null(counts);
  assert_non_null(lam);
  assert_non_null(sens);
  assert_non_null(back);
  for (uint32_t t = 0; t < T; t++) counts[t] = (double)pinet_rng_below(&rng, 50);
  for (uint64_t k = 0; k < bt.nnz; k++) sens[bt.idx[k]] += (double)bt.val[k];
  for (int portable = 0; portable <= 2; portable++) {
    for (int sym = 0; sym <= 1; sym++) {
      pinet_em_opts o = {1, PINET_RECON_FLOAT, portable};
      pinet_em *em = NULL;
      assert_int_equal(pinet_em_create(m, counts, &o, &em), PINET_OK);
      assert_int_equal(pinet_em_set_symmetry(em, sym), PINET_OK);
      if (sym) {
        assert_true(pinet_em_symmetric_tubes(em) > T / 2);
      } else {
        assert_int_equal(pinet_em_symmetric_tubes(em), 0);
      }
      memcpy(lam, pinet_em_image(em), B * sizeof *lam);
      for (int it = 0; it < 6; it++) {
        /* lambda_new(b) = lambda(b) / s(b) * sum_t p(b,t) n(t) / sum_b' p(b',t) lambda(b') */
        memset(back, 0, B * sizeof *back);
        for (uint32_t t = 0; t < T; t++) {
          double nbar = 0;
          for (uint64_t k = bt.ptr[t]; k < bt.ptr[t + 1]; k++) nbar += (double)bt.val[k] * lam[bt.idx[k]];
          const double ratio = nbar > 0 ? counts[t] / nbar : 0.0;
          for (uint64_t k = bt.ptr[t]; k < bt.ptr[t + 1]; k++) back[bt.idx[k]] += (double)bt.val[k] * ratio;
        }
        for (uint32_t b = 0; b < B; b++) lam[b] = sens[b] > 0 ? lam[b] * back[b] / sens[b] : 0.0;
        assert_int_equal(pinet_em_iterate(em, NULL), PINET_OK);
        const double *got = pinet_em_image(em);
        for (uint32_t b = 0; b < B; b++) {
          if (!(fabs(got[b] - lam[b]) <= 1e-12 * fabs(lam[b]) + 1e-300))
            fail_msg("seed %llu portable %d symmetry %d iteration %d box %u: %.17g != %.17g",
                     (unsigned long long)seed, portable, sym, it, b, got[b], lam[b]);
        }
      }
      pinet_em_free(em);
    }
  }
  free(counts);
  free(lam);
  free(sens);
  free(back);
  pinet_sysmat_free(m);
}

/* On consistent data n = P lambda*, lambda* is a fixed point of one EM update. */
static void test_recon_em_fixed_point(void **state) {
  (void)state;
  const uint64_t seed = 7;
  pinet_sysmat *m = small_pb_matrix();
  pinet_csr bt = pinet_sysmat_by_tube(m);
  uint32_t T = bt.rows, B = bt.cols;
  pinet_rng rng;
  pinet_rng_seed(&rng, seed);
  double *lam = xmalloc(B * sizeof *lam), *counts = xmalloc(T * sizeof *counts);
  for (uint32_t b = 0; b < B; b++) lam[b] = 0.5 + pinet_rng_unit(&rng);
  for (uint32_t t = 0; t < T; t++) { /* n = P lambda, computed here */
    double acc = 0;
    for (uint64_t k = bt.ptr[t]; k < bt.ptr[t + 1]; k++) acc += (double)bt.val[k] * lam[bt.idx[k]];
    counts[t] = acc;
  }
  /* the fused S1-S3 sweep (32-bit indices) equals the separate steps */
  {
    pinet_csr bb = pinet_sysmat_by_box(m);
    double *nb1 = xmalloc(T * sizeof *nb1), *nb2 = xmalloc(T * sizeof *nb2);
    double *r1 = xmalloc(T * sizeof *r1), *r2 = xmalloc(T * sizeof *r2);
    double *d1 = xcalloc(B, sizeof *d1), *d2 = xcalloc(B, sizeof *d2);
    pinet_em_s1(&bt, lam, nb1);
    pinet_em_s2(counts, nb1, 0, T, r1);
    pinet_em_s3_entries(&bb, 0, 0, bb.nnz, r1, d1);
    pinet_em_s123_by_tube(&bt, counts, lam, nb2, r2, d2);
    for (uint32_t t = 0; t < T; t++) assert_true(nb1[t] == nb2[t] && r1[t] == r2[t]);
    for (uint32_t b = 0; b < B; b++) assert_true(fabs(d1[b] - d2[b]) <= 1e-12 * fabs(d1[b]));
    free(nb1); free(nb2); free(r1); free(r2); free(d1); free(d2);
  }
  pinet_em *em = NULL;
  assert_int_equal(pinet_em_create(m, counts, NULL, &em), PINET_OK);
  assert_int_equal(pinet_em_set_image(em, lam), PINET_OK);
  assert_int_equal(pinet_em_iterate(em, NULL), PINET_OK);
  const double *out = pinet_em_image(em);
  for (uint32_t b = 0; b < B; b++) {
    if (fabs(out[b] - lam[b]) > 1e-12 * lam[b])
      fail_msg("seed %llu box %u: %.17g != %.17g", (unsigned long long)seed, b, out[b], lam[b]);
  }
  /* and from the uniform start EM approaches it: the likelihood rises toward L(lambda*) */
  pinet_em *em2 = NULL;
  assert_int_equal(pinet_em_create(m, counts, NULL, &em2), PINET_OK);
  double l_first, l_last = 0;
  assert_int_equal(pinet_em_iterate(em2, &l_first), PINET_OK);
  for (int it = 0; it < 50; it++) assert_int_equal(pinet_em_iterate(em2, &l_last), PINET_OK);
  double l_star = pinet_em_loglik(counts, counts, T);
  assert_true(l_last > l_first);
  assert_true(l_last <= l_star + 1e-9 * fabs(l_star));
  pinet_em_free(em);
  pinet_em_free(em2);
  free(lam);
  free(counts);
  pinet_sysmat_free(m);
}

/* ---- ring ------------------------------------------------------------------------------------ */

/* Rebinning exact per-pair line integrals gives the exact parallel-beam sinogram closely, and
 * FBP of the ring data reconstructs the disk. */
static void test_recon_ring_rebin_and_fbp(void **state) {
  (void)state;
  pinet_ring ring;
  pinet_ring_paper(&ring);
  assert_int_equal(ring.size, 64);
  assert_int_equal(ring.detectors, 96);
  size_t np = pinet_ring_pairs(&ring);
  assert_int_equal(np, 96 * 95 / 2);
  pinet_ellipse d = pinet_phantom_disk(1.0, 0.6);
  float *pv = xmalloc(np * sizeof *pv);
  for (size_t p = 0; p < np; p++) {
    uint32_t i, j;
    pinet_ring_pair(&ring, p, &i, &j);
    assert_true(i < j && j < 96);
    double th, s;
    pinet_ring_pair_coords(&ring, i, j, &th, &s);
    pinet_line l = pinet_ring_line(&ring, i, j);
    /* the line's distance from the centre is |s| and its normal is at theta */
    double dist = fabs(l.x1 * cos(th) + l.y1 * sin(th));
    assert_true(fabs(dist - fabs(s)) < 1e-9);
    assert_true(fabs((l.x2 * cos(th) + l.y2 * sin(th)) - s) < 1e-9);
    pv[p] = (float)pinet_phantom_line_integral(&d, 1, 64, th, s);
  }
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 64, 96, 64), PINET_OK);
  static float sino[96 * 64], ref[96 * 64], img[64 * 64];
  assert_int_equal(pinet_ring_rebin(&ring, pv, &g, sino), PINET_OK);
  assert_int_equal(pinet_phantom_sinogram(&d, 1, &g, 1, ref), PINET_OK);
  double err = 0;
  for (int i = 0; i < 96 * 64; i++) err += fabs(sino[i] - ref[i]);
  err /= 96 * 64;
  /* 96 detectors sample each view at ~48 offsets 1-3 pixels apart: linear interpolation of the
   * chord profile (max 38.4) is off by a few tenths on average */
  if (!(err < 0.5)) fail_msg("rebin mean abs error %g (chord 38.4)", err);
  /* data linear in s (slope depending on theta) are rebinned exactly inside the sampled range */
  for (size_t p = 0; p < np; p++) {
    uint32_t i, j;
    double th, s;
    pinet_ring_pair(&ring, p, &i, &j);
    pinet_ring_pair_coords(&ring, i, j, &th, &s);
    pv[p] = (float)(2.0 + cos(th) * s);
  }
  assert_int_equal(pinet_ring_rebin(&ring, pv, &g, sino), PINET_OK);
  for (int k = 0; k < 96; k++) {
    double th = M_PI * k / 96;
    for (int b = 0; b < 64; b++) {
      double want = 2.0 + cos(th) * (b - 32.0);
      if (fabs(sino[k * 64 + b] - want) > 1e-4) fail_msg("view %d bin %d: %g != %g", k, b, sino[k * 64 + b], want);
    }
  }
  for (size_t p = 0; p < np; p++) {
    uint32_t i, j;
    double th, s;
    pinet_ring_pair(&ring, p, &i, &j);
    pinet_ring_pair_coords(&ring, i, j, &th, &s);
    pv[p] = (float)pinet_phantom_line_integral(&d, 1, 64, th, s);
  }
  assert_int_equal(pinet_fbp_ring(&ring, pv, PINET_FILTER_RAMP, img), PINET_OK);
  assert_true(fabs(img[32 * 64 + 32] - 1.0) < 0.05);
  free(pv);
}

/* ---- I/O --------------------------------------------------------------------------------------- */

static void test_recon_io_roundtrip(void **state) {
  (void)state;
  char dir[] = "/tmp/pinet_recon_io_XXXXXX";
  assert_non_null(mkdtemp(dir));
  char raw[256], hv[256], v[256];
  snprintf(raw, sizeof raw, "%s/a.f32", dir);
  snprintf(hv, sizeof hv, "%s/b.hv", dir);
  snprintf(v, sizeof v, "%s/b.v", dir);
  float data[6 * 5], back[6 * 5];
  for (int i = 0; i < 30; i++) data[i] = (float)(i * 0.37 - 3.1);
  assert_int_equal(pinet_raw_write_f32(raw, data, 30), PINET_OK);
  size_t actual = 0;
  assert_int_equal(pinet_raw_read_f32(raw, back, 30, &actual), PINET_OK);
  assert_memory_equal(data, back, sizeof data);
  /* little-endian on disk, whatever the host: byte 0 is the low byte of data[0] */
  FILE *f = fopen(raw, "rb");
  unsigned char b4[4];
  assert_int_equal(fread(b4, 1, 4, f), 4);
  fclose(f);
  uint32_t u;
  memcpy(&u, &data[0], 4);
  assert_int_equal(b4[0], u & 0xff);
  assert_int_equal(b4[3], u >> 24);
  /* wrong size */
  assert_int_equal(pinet_raw_read_f32(raw, back, 29, &actual), PINET_ERR_MISMATCH);
  assert_int_equal(actual, 30);
  /* Interfile */
  pinet_interfile h = {PINET_RECON_KIND_SINOGRAM, 6, 5, 3.0, 36.0}, h2;
  assert_int_equal(pinet_interfile_write(hv, &h, data), PINET_OK);
  float *rd = NULL;
  assert_int_equal(pinet_interfile_read(hv, &h2, &rd), PINET_OK);
  assert_int_equal(h2.kind, PINET_RECON_KIND_SINOGRAM);
  assert_int_equal(h2.dim1, 6);
  assert_int_equal(h2.dim2, 5);
  assert_true(h2.center1 == 3.0 && h2.view_step_deg == 36.0);
  assert_memory_equal(rd, data, sizeof data);
  free(rd);
  /* a header with a missing key is a parse error */
  f = fopen(hv, "w");
  fprintf(f, "!INTERFILE :=\n!matrix size [1] := 6\n!END OF INTERFILE :=\n");
  fclose(f);
  assert_int_equal(pinet_interfile_read(hv, &h2, &rd), PINET_ERR_PARSE);
  assert_int_equal(pinet_interfile_write("/tmp/x.txt", &h, data), PINET_ERR_RANGE);
  remove(raw);
  remove(hv);
  remove(v);
  rmdir(dir);
}

/* ---- bad input ---------------------------------------------------------------------------------- */

static void test_recon_bad_input(void **state) {
  (void)state;
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 64, 0, 64), PINET_ERR_RANGE);
  assert_int_equal(pinet_pb_geom_init(&g, 0, 10, 64), PINET_ERR_RANGE);
  pinet_fbp_filter f;
  assert_int_equal(pinet_fbp_filter_parse("gauss", &f), PINET_ERR_RANGE);
  assert_int_equal(pinet_pb_geom_init(&g, 16, 8, 16), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, (pinet_fbp_filter)9, &p), PINET_ERR_RANGE);
  assert_null(p);
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_RAMP, &p), PINET_OK);
  float sino[8 * 16] = {0}, img[16 * 16];
  sino[5] = NAN;
  assert_int_equal(pinet_fbp_run(p, sino, img), PINET_ERR_RANGE);
  pinet_fbp_free(p);
  pinet_fbp_free(NULL);
  pinet_sysmat *m = small_pb_matrix();
  uint32_t T = pinet_sysmat_tubes(m);
  double *counts = xcalloc(T, sizeof *counts);
  counts[3] = -1.0;
  pinet_em *em = NULL;
  assert_int_equal(pinet_em_create(m, counts, NULL, &em), PINET_ERR_RANGE);
  assert_null(em);
  counts[3] = 1.0;
  pinet_em_opts o = {2, PINET_RECON_FIXED, 0};
  assert_int_equal(pinet_em_create(m, counts, &o, &em), PINET_ERR_RANGE);
  o.subsets = 0;
  o.arith = PINET_RECON_FLOAT;
  assert_int_equal(pinet_em_create(m, counts, &o, &em), PINET_ERR_RANGE);
  /* the fixed path's range, on both sides: the bits floor(30 - log2(total)) must lie in
   * [MIN, MAX]; a total past either edge is refused, one just inside is accepted and makes no
   * sum wrap (the image stays finite and positive) */
  o.subsets = 1;
  o.arith = PINET_RECON_FIXED;
  const double edge_hi = ldexp(1.0, 30 - PINET_RECON_FIXED_BITS_MIN);  /* bits == MIN */
  const double edge_lo = ldexp(1.0, 30 - PINET_RECON_FIXED_BITS_MAX);  /* bits == MAX */
  const double totals[4] = {edge_hi * 0.99, edge_hi * 2.01, edge_lo * 1.01, edge_lo * 0.49};
  const pinet_status want[4] = {PINET_OK, PINET_ERR_RANGE, PINET_OK, PINET_ERR_RANGE};
  for (int k = 0; k < 4; k++) {
    for (uint32_t t = 0; t < T; t++) counts[t] = totals[k] / T;
    assert_int_equal(pinet_em_fixed_total_ok(totals[k]), want[k] == PINET_OK);
    assert_int_equal(pinet_em_create(m, counts, &o, &em), want[k]);
    if (em != NULL) {
      assert_int_equal(pinet_em_iterate(em, NULL), PINET_OK);
      double sum = 0.0;
      for (uint32_t b = 0; b < pinet_sysmat_boxes(m); b++) sum += pinet_em_image(em)[b] * pinet_em_sens(em)[b];
      assert_true(fabs(sum - totals[k]) <= 1e-6 * totals[k]); /* EM keeps sum lambda s = sum n */
      pinet_em_free(em);
      em = NULL;
    }
  }
  pinet_em_free(NULL);
  free(counts);
  pinet_sysmat_free(m);
  pinet_ring ring;
  assert_int_equal(pinet_ring_init(&ring, 64, 95), PINET_ERR_RANGE);
  const pinet_ellipse *e;
  size_t ne;
  assert_int_equal(pinet_phantom_by_name("cow", &e, &ne), PINET_ERR_RANGE);
}

/* ---- efficiency model -------------------------------------------------------------------------- */

static void test_recon_model_fit(void **state) {
  (void)state;
  pinet_recon_model_fit fit;
  pinet_recon_model_row rows[64];
  size_t n = 0;
  assert_int_equal(pinet_recon_model_fit_paper(&fit, rows, 64, &n), PINET_OK);
  assert_int_equal(n, 50);
  assert_true(fit.fbp_alpha > 0 && fit.em_alpha > 0);
  /* the single-PE times the paper gives (Table 2, Table 5) */
  assert_true(fabs(fit.fbp_t0[2] - 394.0) < 1e-9);
  assert_true(fabs(fit.em_t0 - 5.1) < 0.1);
  /* eq. (4) by hand for one point */
  double e = pinet_recon_model_eff_fbp(100.0, 1e-3, 0.5, 2.0, 1000.0, 8);
  assert_true(fabs(e - 100.0 / (100.0 + 1e-3 * 7 * 1000.0 + 2 * 0.5 * 8 * 3 + 8 * 2.0)) < 1e-12);
  /* the fitted model follows the paper's efficiencies. The worst points: N = 8, where the
   * measured efficiency drops more than any (N-1)M term explains, and EM with 1-2 iterations,
   * which carry a per-run overhead that eq. (6) has no term for */
  for (size_t i = 0; i < n; i++) {
    double tol = (rows[i].pes == 8 || (rows[i].kernel == 1 && rows[i].iters <= 2)) ? 0.2 : 0.07;
    if (fabs(rows[i].model_eff_noio - rows[i].paper_eff_noio) > tol)
      fail_msg("row %zu (kernel %d size %u iters %u N %u): model %g paper %g", i, rows[i].kernel,
               rows[i].size, rows[i].iters, rows[i].pes, rows[i].model_eff_noio,
               rows[i].paper_eff_noio);
  }
  assert_true(fit.fbp_rms_rel < 0.15 && fit.em_rms_rel < 0.15);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_recon_fbp_disk_profile),
      cmocka_unit_test(test_recon_fbp_filters_all),
      cmocka_unit_test(test_recon_fbp_matches_direct_convolution),
      cmocka_unit_test(test_recon_fbp_shepp_logan_rmse),
      cmocka_unit_test(test_recon_siddon_bruteforce),
      cmocka_unit_test(test_recon_sysmat_transpose),
      cmocka_unit_test(test_recon_joseph_vs_analytic),
      cmocka_unit_test(test_recon_em_monotone_loglik),
      cmocka_unit_test(test_recon_em_fixed_point),
      cmocka_unit_test(test_recon_em_kernels_match_direct_update),
      cmocka_unit_test(test_recon_ring_rebin_and_fbp),
      cmocka_unit_test(test_recon_io_roundtrip),
      cmocka_unit_test(test_recon_bad_input),
      cmocka_unit_test(test_recon_model_fit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
