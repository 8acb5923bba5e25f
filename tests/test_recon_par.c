/* test_recon_par.c - the parallel reconstruction kernels on N simulated perfect-shuffle PEs
 * (N = 1 .. 64) against the sequential kernels: FBP partitioned by view, EM partitioned by box and
 * by the modified partition-by-box; bit-exact on the fixed-point path, 1e-6 relative in floating
 * point; and the communication counts against Proposition 3. */
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

static const uint32_t k_pes[7] = {1, 2, 4, 8, 16, 32, 64};

static double max_rel_diff_f(const float *a, const float *b, size_t n) {
  double mx = 0, md = 0;
  for (size_t i = 0; i < n; i++) {
    mx = fmax(mx, fabs(a[i]));
    md = fmax(md, fabs((double)a[i] - b[i]));
  }
  return mx > 0 ? md / mx : md;
}

static void test_recon_par_fbp_equals_sequential(void **state) {
  (void)state;
  enum { N = 32, V = 45, D = 32 }; /* V not a multiple of N: padded views */
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, N, V, D), PINET_OK);
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  static float sino[V * D], seq[N * N], par[N * N], seqfx[N * N], parfx[N * N];
  assert_int_equal(pinet_phantom_sinogram(e, ne, &g, 2, sino), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_SHEPP_LOGAN, &p), PINET_OK);
  assert_int_equal(pinet_fbp_run(p, sino, seq), PINET_OK);
  /* the fixed-point scale from all filtered views */
  float *filt = xmalloc((size_t)V * pinet_fbp_filtered_stride(p) * sizeof *filt);
  assert_int_equal(pinet_fbp_filter_views(p, NULL, sino, V, filt), PINET_OK);
  int bits = pinet_fbp_fixed_bits(p, filt);
  free(filt);
  assert_true(bits > 10);
  assert_int_equal(pinet_fbp_run_fixed(p, sino, bits, seqfx), PINET_OK);
  /* the fixed path is a faithful FBP too */
  assert_true(max_rel_diff_f(seq, seqfx, N * N) < 1e-3);
  for (int i = 0; i < 7; i++) {
    uint32_t pes = k_pes[i];
    pinet_recon_comm c;
    uint64_t work[64];
    assert_int_equal(pinet_fbp_parallel(p, sino, pes, PINET_RECON_FLOAT, 0, par, &c, work), PINET_OK);
    double d = max_rel_diff_f(seq, par, N * N);
    if (d > 1e-6) fail_msg("FBP float N=%u: max relative difference %g", pes, d);
    assert_int_equal(pinet_fbp_parallel(p, sino, pes, PINET_RECON_FIXED, bits, parfx, NULL, NULL),
                     PINET_OK);
    if (memcmp(seqfx, parfx, sizeof seqfx) != 0) fail_msg("FBP fixed N=%u: not bit-exact", pes);
    /* every view backprojected once over the whole disk */
    uint64_t tot = 0;
    for (uint32_t j = 0; j < pes; j++) tot += work[j];
    assert_int_equal(tot, c.total_work);
    assert_true(c.total_work % V == 0);
    if (pes > 1) {
      /* the integration adds (N - 1) M words in all (Proposition 3: N M (1 - 1/N)) */
      uint32_t m = (N * N + pes - 1) / pes * pes;
      assert_int_equal(c.words_summed, (uint64_t)m * (pes - 1));
      assert_true(c.words_moved > 0 && c.steps > 0);
      assert_true(c.model_efficiency > 0 && c.model_efficiency <= 1.0);
    } else {
      assert_int_equal(c.words_moved, 0);
    }
  }
  pinet_fbp_free(p);
}

/* A small ring system, Poisson counts from a phantom. */
static pinet_sysmat *ring_problem(uint32_t size, uint32_t dets, uint64_t seed, double **counts) {
  pinet_ring ring;
  assert_int_equal(pinet_ring_init(&ring, size, dets), PINET_OK);
  pinet_sysmat *m = NULL;
  assert_int_equal(pinet_sysmat_create_ring(&ring, &m), PINET_OK);
  pinet_csr bt = pinet_sysmat_by_tube(m);
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  float *img = xmalloc((size_t)size * size * sizeof *img);
  assert_int_equal(pinet_phantom_rasterize(e, ne, size, ring.img_center, 2, img), PINET_OK);
  const uint32_t *bp = pinet_sysmat_box_pixel(m);
  float *mean = xmalloc(bt.rows * sizeof *mean), *noisy = xmalloc(bt.rows * sizeof *noisy);
  for (uint32_t t = 0; t < bt.rows; t++) {
    double acc = 0;
    for (uint64_t k = bt.ptr[t]; k < bt.ptr[t + 1]; k++) acc += bt.val[k] * img[bp[bt.idx[k]]];
    mean[t] = (float)acc;
  }
  pinet_rng rng;
  pinet_rng_seed(&rng, seed);
  assert_int_equal(pinet_poisson_noise(&rng, mean, bt.rows, 10.0, noisy), PINET_OK);
  *counts = xmalloc(bt.rows * sizeof **counts);
  for (uint32_t t = 0; t < bt.rows; t++) (*counts)[t] = noisy[t];
  free(img);
  free(mean);
  free(noisy);
  return m;
}

static void test_recon_par_em_equals_sequential(void **state) {
  (void)state;
  const uint64_t seed = 2024;
  double *counts = NULL;
  pinet_sysmat *m = ring_problem(24, 48, seed, &counts);
  const uint32_t B = pinet_sysmat_boxes(m), iters = 3;
  double *seq = xmalloc(B * sizeof *seq), *seqfx = xmalloc(B * sizeof *seqfx);
  double *par = xmalloc(B * sizeof *par);
  double lseq[3], lpar[3];
  pinet_em *em = NULL;
  assert_int_equal(pinet_em_create(m, counts, NULL, &em), PINET_OK);
  for (uint32_t it = 0; it < iters; it++) assert_int_equal(pinet_em_iterate(em, &lseq[it]), PINET_OK);
  memcpy(seq, pinet_em_image(em), B * sizeof *seq);
  pinet_em_free(em);
  pinet_em_opts fx = {1, PINET_RECON_FIXED, 0};
  assert_int_equal(pinet_em_create(m, counts, &fx, &em), PINET_OK);
  for (uint32_t it = 0; it < iters; it++) assert_int_equal(pinet_em_iterate(em, NULL), PINET_OK);
  memcpy(seqfx, pinet_em_image(em), B * sizeof *seqfx);
  pinet_em_free(em);
  double mx = 0;
  for (uint32_t b = 0; b < B; b++) mx = fmax(mx, seq[b]);
  for (int part = 0; part < 2; part++) {
    for (int i = 0; i < 7; i++) {
      uint32_t pes = k_pes[i];
      pinet_recon_comm c;
      uint64_t work[64];
      assert_int_equal(pinet_em_parallel(m, counts, iters, pes, (pinet_em_partition)part,
                                         PINET_RECON_FLOAT, par, lpar, &c, work),
                       PINET_OK);
      double md = 0;
      for (uint32_t b = 0; b < B; b++) md = fmax(md, fabs(par[b] - seq[b]));
      if (md > 1e-6 * mx) fail_msg("seed %llu EM float part %d N=%u: max diff %g (max %g)",
                                   (unsigned long long)seed, part, pes, md, mx);
      for (uint32_t it = 0; it < iters; it++) {
        assert_true(fabs(lpar[it] - lseq[it]) <= 1e-9 * fabs(lseq[it]));
      }
      assert_int_equal(pinet_em_parallel(m, counts, iters, pes, (pinet_em_partition)part,
                                         PINET_RECON_FIXED, par, NULL, NULL, NULL),
                       PINET_OK);
      if (memcmp(par, seqfx, B * sizeof *par) != 0)
        fail_msg("seed %llu EM fixed part %d N=%u: not bit-exact", (unsigned long long)seed, part, pes);
      /* S1 and S3 each touch every box-tube pair once per iteration */
      uint64_t tot = 0;
      for (uint32_t j = 0; j < pes; j++) tot += work[j];
      assert_int_equal(tot, 2u * pinet_sysmat_by_box(m).nnz * iters);
      /* the modified partition balances the pairs to within one box's worth or better */
      if (part == 1 && pes > 1) assert_true(c.load_balance > 0.95);
    }
  }
  free(seq);
  free(seqfx);
  free(par);
  free(counts);
  pinet_sysmat_free(m);
}

/* The paper's setup: 64 x 64, one ring of 96 detectors, 32 PEs, modified partition. */
/* pinet_em_segments against what a partition must be: the segments tile [0, nnz) in order, each
 * within one entry of nnz / N (modified) or cut at box starts (by box); the owned boxes tile
 * [0, boxes); a split box is the last of one segment and the first of the next, and nowhere else;
 * the PEs are a permutation, along the embedded ring for the modified partition on N >= 4. */
static void test_recon_par_em_segments(void **state) {
  (void)state;
  double *counts = NULL;
  pinet_sysmat *m = ring_problem(24, 48, 7, &counts);
  const pinet_csr bb = pinet_sysmat_by_box(m);
  for (int part = 0; part < 2; part++) {
    for (int i = 0; i < 7; i++) {
      const uint32_t N = k_pes[i];
      pinet_em_segment seg[64];
      assert_int_equal(pinet_em_segments(m, N, (pinet_em_partition)part, seg), PINET_OK);
      uint32_t ring[64];
      for (uint32_t r = 0; r < N; r++) ring[r] = r;
      if (part == PINET_EM_PARTITION_MODIFIED && N >= 4) {
        assert_int_equal(pinet_shuffle_ring(N, ring), PINET_OK);
      }
      uint64_t seen_pe = 0;
      for (uint32_t r = 0; r < N; r++) {
        const pinet_em_segment *g = &seg[r];
        assert_int_equal(g->pe, ring[r]);
        seen_pe |= 1ull << g->pe;
        assert_true(g->e0 == (r == 0 ? 0 : seg[r - 1].e1));
        assert_true(g->own0 == (r == 0 ? 0 : seg[r - 1].own1));
        if (part == PINET_EM_PARTITION_MODIFIED) {
          const double ideal = (double)bb.nnz / N;
          assert_true(fabs((double)(g->e1 - g->e0) - ideal) <= 1.0);
        } else {
          assert_true(g->e0 == 0 || bb.ptr[g->box0] == g->e0); /* a box start */
          assert_false(g->split_prev || g->split_next);
        }
        if (g->e1 > g->e0) {
          assert_true(bb.ptr[g->box0] <= g->e0 && g->e0 < bb.ptr[g->box0 + 1]);
          assert_true(bb.ptr[g->last_box] < g->e1 && g->e1 <= bb.ptr[g->last_box + 1]);
          assert_int_equal(g->first_box, g->box0);
          /* split: the box straddles the cut */
          assert_int_equal(g->split_prev, r > 0 && bb.ptr[g->box0] < g->e0);
          assert_int_equal(g->split_next, r + 1 < N && bb.ptr[g->last_box + 1] > g->e1);
        }
        if (r + 1 < N && g->split_next) {
          assert_true(seg[r + 1].split_prev && seg[r + 1].first_box == g->last_box);
        }
      }
      assert_true(seg[N - 1].e1 == bb.nnz && seg[N - 1].own1 == bb.rows);
      assert_true(seen_pe == (N == 64 ? UINT64_MAX : (1ull << N) - 1));
    }
  }
  pinet_em_segment seg[4];
  assert_int_equal(pinet_em_segments(m, 3, PINET_EM_PARTITION_MODIFIED, seg), PINET_ERR_SIZE);
  assert_int_equal(pinet_em_segments(m, 4, (pinet_em_partition)2, seg), PINET_ERR_RANGE);
  assert_int_equal(pinet_em_segments(NULL, 4, PINET_EM_PARTITION_MODIFIED, seg), PINET_ERR_NULL);
  assert_int_equal(pinet_em_segments(m, 4, PINET_EM_PARTITION_MODIFIED, NULL), PINET_ERR_NULL);
  free(counts);
  pinet_sysmat_free(m);
}

static void test_recon_par_em_paper_setup(void **state) {
  (void)state;
  double *counts = NULL;
  pinet_sysmat *m = ring_problem(64, 96, 99, &counts);
  const uint32_t B = pinet_sysmat_boxes(m);
  double *par = xmalloc(B * sizeof *par), *fx = xmalloc(B * sizeof *fx);
  pinet_em_opts o = {1, PINET_RECON_FIXED, 0};
  pinet_em *em = NULL;
  assert_int_equal(pinet_em_create(m, counts, &o, &em), PINET_OK);
  assert_int_equal(pinet_em_iterate(em, NULL), PINET_OK);
  pinet_recon_comm c;
  assert_int_equal(pinet_em_parallel(m, counts, 1, 32, PINET_EM_PARTITION_MODIFIED,
                                     PINET_RECON_FIXED, par, NULL, &c, NULL),
                   PINET_OK);
  assert_memory_equal(par, pinet_em_image(em), B * sizeof *par);
  assert_true(c.load_balance > 0.99);
  assert_true(c.model_efficiency > 0.2 && c.model_efficiency < 0.8);
  pinet_em_free(em);
  free(par);
  free(fx);
  free(counts);
  pinet_sysmat_free(m);
}

static void test_recon_par_bad_input(void **state) {
  (void)state;
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 16, 8, 16), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_RAMP, &p), PINET_OK);
  float sino[8 * 16] = {0}, img[16 * 16];
  assert_int_equal(pinet_fbp_parallel(p, sino, 3, PINET_RECON_FLOAT, 0, img, NULL, NULL), PINET_ERR_SIZE);
  assert_int_equal(pinet_fbp_parallel(p, sino, 128, PINET_RECON_FLOAT, 0, img, NULL, NULL), PINET_ERR_SIZE);
  assert_int_equal(pinet_fbp_parallel(p, sino, 0, PINET_RECON_FLOAT, 0, img, NULL, NULL), PINET_ERR_SIZE);
  pinet_fbp_free(p);
  double *counts = NULL;
  pinet_sysmat *m = ring_problem(8, 8, 1, &counts);
  double out[64];
  counts[0] = -2;
  assert_int_equal(pinet_em_parallel(m, counts, 1, 4, PINET_EM_PARTITION_BY_BOX, PINET_RECON_FLOAT,
                                     out, NULL, NULL, NULL),
                   PINET_ERR_RANGE);
  counts[0] = 1;
  /* 64 PEs on a 74-pair matrix: a box would span three PEs under the modified partition; the
   * plain partition by box leaves PEs idle and still gives the sequential image */
  assert_true(pinet_sysmat_by_box(m).nnz < 2 * 64);
  assert_int_equal(pinet_em_parallel(m, counts, 1, 64, PINET_EM_PARTITION_MODIFIED,
                                     PINET_RECON_FLOAT, out, NULL, NULL, NULL),
                   PINET_ERR_RANGE);
  assert_int_equal(pinet_em_parallel(m, counts, 2, 64, PINET_EM_PARTITION_BY_BOX,
                                     PINET_RECON_FIXED, out, NULL, NULL, NULL),
                   PINET_OK);
  pinet_em_opts fo = {1, PINET_RECON_FIXED, 0};
  pinet_em *em = NULL;
  assert_int_equal(pinet_em_create(m, counts, &fo, &em), PINET_OK);
  assert_int_equal(pinet_em_iterate(em, NULL), PINET_OK);
  assert_int_equal(pinet_em_iterate(em, NULL), PINET_OK);
  assert_memory_equal(out, pinet_em_image(em), pinet_sysmat_boxes(m) * sizeof(double));
  pinet_em_free(em);
  free(counts);
  pinet_sysmat_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_recon_par_fbp_equals_sequential),
      cmocka_unit_test(test_recon_par_em_equals_sequential),
      cmocka_unit_test(test_recon_par_em_segments),
      cmocka_unit_test(test_recon_par_em_paper_setup),
      cmocka_unit_test(test_recon_par_bad_input),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
