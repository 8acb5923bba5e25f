/* test_recon_par.c - the parallel reconstruction kernels on N simulated perfect-shuffle PEs
 * (N = 1 .. 64) against the sequential kernels: FBP partitioned by view, EM partitioned by box and
 * by the modified partition-by-box; bit-exact on the fixed-point path, 1e-6 relative in floating
 * point; and the communication counts against Proposition 3. The schedule kind (issue 11): the
 * fast collectives give the paper run's results bit for bit, and both runs report both kinds'
 * cycles, recomputed here from the run's collectives and, in one case, by hand. */
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

/* ---- the schedule kind: paper vs fast collectives (issue 11) --------------------------------- */

static const uint32_t k_pes_kind[5] = {1, 2, 4, 8, 16};

/* One collective of a run: the op, its M and its element type, as docs/recon.md lists them. */
typedef struct coll {
  pinet_shuffle_op op;
  uint32_t words;
  pinet_shuffle_elem elem; /* the fast integrate of int32 goes around the ring */
} coll;

static uint32_t up_to(uint32_t x, uint32_t q) { return (x + q - 1) / q * q; }

static uint32_t log2_of(uint32_t n) {
  uint32_t k = 0;
  while ((1u << k) < n) k++;
  return k;
}

/* The done cycles T of the collectives in `list`, each built by the paper's builder (fast = 0) or
 * the fast one (fast = 1) directly, plus `custom`, the cycles of the custom schedules (the same
 * for both kinds). */
static uint64_t cycles_of(const coll *list, size_t n, uint32_t pes, int fast, uint64_t custom) {
  uint64_t sum = custom;
  for (size_t i = 0; i < n; i++) {
    pinet_shuffle_schedule *s = NULL;
    pinet_status st =
        fast ? pinet_shuffle_build_fast_typed(&s, list[i].op, pes, list[i].words, list[i].elem)
             : pinet_shuffle_build(&s, list[i].op, pes, list[i].words);
    if (st != PINET_OK) fail_msg("build %s N=%u M=%u: %d", pinet_shuffle_op_name(list[i].op), pes,
                                 list[i].words, (int)st);
    uint64_t t = 0;
    assert_int_equal(pinet_shuffle_cycle_total(s, &t), PINET_OK);
    sum += t;
    pinet_shuffle_schedule_free(s);
  }
  return sum;
}

/* What the paper run and the fast run of one case must share (the arith and N are in `what`):
 * cycles of both kinds, as recomputed (want_paper, want_fast); comm.cycles the executed kind's;
 * the same work and collective count. */
static void check_kind_comm(const char *what, uint32_t pes, const pinet_recon_comm *cp,
                            const pinet_recon_comm *cf, uint64_t want_paper, uint64_t want_fast,
                            uint32_t want_schedules) {
  if (cp->schedule != PINET_SHUFFLE_PAPER || cf->schedule != PINET_SHUFFLE_FAST) {
    fail_msg("%s N=%u: schedule kinds %d / %d", what, pes, (int)cp->schedule, (int)cf->schedule);
  }
  if (cp->cycles_paper != want_paper || cf->cycles_paper != want_paper) {
    fail_msg("%s N=%u: cycles_paper %llu (paper run) / %llu (fast run), recomputed %llu", what, pes,
             (unsigned long long)cp->cycles_paper, (unsigned long long)cf->cycles_paper,
             (unsigned long long)want_paper);
  }
  if (cp->cycles_fast != want_fast || cf->cycles_fast != want_fast) {
    fail_msg("%s N=%u: cycles_fast %llu (paper run) / %llu (fast run), recomputed %llu", what, pes,
             (unsigned long long)cp->cycles_fast, (unsigned long long)cf->cycles_fast,
             (unsigned long long)want_fast);
  }
  if (cp->cycles != cp->cycles_paper || cf->cycles != cf->cycles_fast) {
    fail_msg("%s N=%u: cycles %llu / %llu, not the executed kind's", what, pes,
             (unsigned long long)cp->cycles, (unsigned long long)cf->cycles);
  }
  if (pes >= 4 && !(want_fast <= want_paper)) {
    fail_msg("%s N=%u: fast %llu > paper %llu cycles", what, pes, (unsigned long long)want_fast,
             (unsigned long long)want_paper);
  }
  assert_int_equal(cp->schedules, want_schedules);
  assert_int_equal(cf->schedules, want_schedules);
  assert_int_equal(cp->total_work, cf->total_work);
  assert_int_equal(cp->max_work, cf->max_work);
  assert_int_equal(cp->words_summed, cf->words_summed); /* N - 1 additions per word, tree or ring */
}

/* 1 if every field of two summaries is equal (the struct has padding: no memcmp). */
static int same_comm(const pinet_recon_comm *a, const pinet_recon_comm *b) {
  return a->pes == b->pes && a->schedules == b->schedules && a->steps == b->steps &&
         a->words_moved == b->words_moved && a->words_summed == b->words_summed &&
         a->link_time == b->link_time && a->max_work == b->max_work &&
         a->min_work == b->min_work && a->total_work == b->total_work &&
         a->load_balance == b->load_balance && a->model_efficiency == b->model_efficiency &&
         a->schedule == b->schedule && a->cycles == b->cycles &&
         a->cycles_paper == b->cycles_paper && a->cycles_fast == b->cycles_fast;
}

/* FBP with the fast collectives: the same image bit for bit as the paper's (float and fixed),
 * both cycle counts recomputed from the run's collectives (docs/recon.md: scatter of
 * ceil(V/N) N D words, bcast-host of the response rounded up to a multiple of log2 N, integrate
 * and allgather of the image rounded up to a multiple of N, and PE 0's one-step upload of M words,
 * T = M + 1); and at N = 4 the closed forms of docs/shuffle.md written out by hand. */
static void test_recon_par_fbp_schedule_kind(void **state) {
  (void)state;
  enum { N = 32, V = 45, D = 32 };
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, N, V, D), PINET_OK);
  const pinet_ellipse *e;
  size_t ne;
  pinet_phantom_shepp_logan(&e, &ne);
  static float sino[V * D], imp[N * N], imf[N * N], imw[N * N];
  assert_int_equal(pinet_phantom_sinogram(e, ne, &g, 2, sino), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_SHEPP_LOGAN, &p), PINET_OK);
  const uint32_t plen = pinet_fbp_padded_length(p);
  assert_int_equal(plen, 64); /* max(64, 2^ceil(log2(2 D))): the hand case below uses it */
  float *filt = xmalloc((size_t)V * pinet_fbp_filtered_stride(p) * sizeof *filt);
  assert_int_equal(pinet_fbp_filter_views(p, NULL, sino, V, filt), PINET_OK);
  const int bits = pinet_fbp_fixed_bits(p, filt);
  free(filt);
  const pinet_recon_par_opts paper = {PINET_SHUFFLE_PAPER, NULL}, fast = {PINET_SHUFFLE_FAST, NULL};
  for (int fx = 0; fx < 2; fx++) {
    const pinet_recon_arith arith = fx ? PINET_RECON_FIXED : PINET_RECON_FLOAT;
    const char *what = fx ? "FBP fixed" : "FBP float";
    for (int i = 0; i < 5; i++) {
      const uint32_t pes = k_pes_kind[i];
      pinet_recon_comm cp, cf, cw;
      uint64_t wp[64], wf[64];
      assert_int_equal(pinet_fbp_parallel_opts(p, sino, pes, arith, bits, &paper, imp, &cp, wp),
                       PINET_OK);
      assert_int_equal(pinet_fbp_parallel_opts(p, sino, pes, arith, bits, &fast, imf, &cf, wf),
                       PINET_OK);
      if (memcmp(imp, imf, sizeof imp) != 0) fail_msg("%s N=%u: fast image differs", what, pes);
      assert_memory_equal(wp, wf, pes * sizeof *wp);
      /* the plain entry point is the paper run, and opts NULL is too */
      assert_int_equal(pinet_fbp_parallel(p, sino, pes, arith, bits, imw, &cw, NULL), PINET_OK);
      assert_memory_equal(imw, imp, sizeof imp);
      assert_true(same_comm(&cw, &cp));
      assert_int_equal(pinet_fbp_parallel_opts(p, sino, pes, arith, bits, NULL, imw, &cw, NULL),
                       PINET_OK);
      assert_memory_equal(imw, imp, sizeof imp);
      assert_true(same_comm(&cw, &cp));
      if (pes == 1) { /* no network */
        check_kind_comm(what, pes, &cp, &cf, 0, 0, 0);
        continue;
      }
      const uint32_t n = log2_of(pes), vpp = (V + pes - 1) / pes, img = up_to(N * N, pes);
      const pinet_shuffle_elem ie = fx ? PINET_SHUFFLE_I32 : PINET_SHUFFLE_F64;
      const pinet_shuffle_elem f32 = PINET_SHUFFLE_F32, f64 = PINET_SHUFFLE_F64;
      const coll list[4] = {{PINET_SHUFFLE_OP_SCATTER, vpp * pes * D, f32},
                            {PINET_SHUFFLE_OP_BCAST_HOST, up_to(plen / 2 + 1, n), f64},
                            {PINET_SHUFFLE_OP_INTEGRATE, img, ie},
                            {PINET_SHUFFLE_OP_ALLGATHER, img, f64}};
      const uint64_t upload = (uint64_t)img + 1; /* PE 0 -> host: one step of M words */
      check_kind_comm(what, pes, &cp, &cf, cycles_of(list, 4, pes, 0, upload),
                      cycles_of(list, 4, pes, 1, upload), 5);
      if (pes == 4) {
        /* by hand, n = 2, S = M/N; docs/shuffle.md section 4 (paper) and 13 (fast):
         * scatter M = 12 * 4 * 32 = 1536: paper (n+1) + M/2 + (1 - 1/N) M = 3 + 768 + 1152 = 1923,
         *   fast (n+1) + M + n(n+1)/2 = 3 + 1536 + 3 = 1542;
         * bcast-host M = 34 (33 rounded up to a multiple of n): paper 2n (1 + M/n) = 4 * 18 = 72,
         *   fast M + n + 1 = 37;
         * integrate and allgather M = 1024: paper n + (1 - 1/N) M = 2 + 768 = 770 each; the
         *   fast integrate is the paper's for float data, for the fixed-point run (int32) the
         *   ring's ceil((M - S)/2) + N/2 = 384 + 2 = 386; PE 0's upload: 1 + 1024 = 1025. The
         *   fast allgather is taken from its builder. */
        assert_int_equal(cp.cycles_paper, 1923 + 72 + 770 + 770 + 1025);
        pinet_shuffle_schedule *ag = NULL;
        uint64_t t_ag = 0;
        assert_int_equal(pinet_shuffle_build_fast(&ag, PINET_SHUFFLE_OP_ALLGATHER, 4, 1024),
                         PINET_OK);
        assert_int_equal(pinet_shuffle_cycle_total(ag, &t_ag), PINET_OK);
        pinet_shuffle_schedule_free(ag);
        assert_int_equal(cf.cycles_fast, 1542 + 37 + (fx ? 386 : 770) + t_ag + 1025);
      }
    }
  }
  pinet_fbp_free(p);
}

/* EM (both partitions) with the fast collectives: lambda and the log-likelihoods bit for bit the
 * paper's, float and fixed; the cycle counts recomputed from the run's collectives
 * (docs/recon.md): the download, bcast-host of the tubes (a multiple of log2 N) and scatter of
 * 2 N max|segment| matrix words, only accounted; per iteration integrate and allgather of the
 * tubes (a multiple of N) and, under the modified partition, the one-word ring exchange (one step
 * of W = 1 word: T = 2); at the end integrate and upload of the boxes (a multiple of N). */
static void test_recon_par_em_schedule_kind(void **state) {
  (void)state;
  double *counts = NULL;
  pinet_sysmat *m = ring_problem(24, 48, 2024, &counts);
  const uint32_t B = pinet_sysmat_boxes(m), T = pinet_sysmat_tubes(m), iters = 3;
  double *lp = xmalloc(B * sizeof *lp), *lf = xmalloc(B * sizeof *lf);
  double *lw = xmalloc(B * sizeof *lw);
  double llp[3], llf[3], llw[3];
  const pinet_recon_par_opts paper = {PINET_SHUFFLE_PAPER, NULL}, fast = {PINET_SHUFFLE_FAST, NULL};
  for (int part = 0; part < 2; part++) {
    for (int fx = 0; fx < 2; fx++) {
      const pinet_recon_arith arith = fx ? PINET_RECON_FIXED : PINET_RECON_FLOAT;
      char what[64];
      snprintf(what, sizeof what, "EM %s part %d", fx ? "fixed" : "float", part);
      for (int i = 0; i < 5; i++) {
        const uint32_t pes = k_pes_kind[i];
        pinet_recon_comm cp, cf, cw;
        assert_int_equal(pinet_em_parallel_opts(m, counts, iters, pes, (pinet_em_partition)part,
                                                arith, &paper, lp, llp, &cp, NULL),
                         PINET_OK);
        assert_int_equal(pinet_em_parallel_opts(m, counts, iters, pes, (pinet_em_partition)part,
                                                arith, &fast, lf, llf, &cf, NULL),
                         PINET_OK);
        if (memcmp(lp, lf, B * sizeof *lp) != 0) {
          fail_msg("%s N=%u: fast lambda differs", what, pes);
        }
        if (memcmp(llp, llf, sizeof llp) != 0) fail_msg("%s N=%u: fast loglik differs", what, pes);
        assert_int_equal(pinet_em_parallel(m, counts, iters, pes, (pinet_em_partition)part, arith,
                                           lw, llw, &cw, NULL),
                         PINET_OK);
        assert_memory_equal(lw, lp, B * sizeof *lp);
        assert_memory_equal(llw, llp, sizeof llp);
        assert_true(same_comm(&cw, &cp));
        if (pes == 1) {
          check_kind_comm(what, pes, &cp, &cf, 0, 0, 0);
          continue;
        }
        pinet_em_segment seg[16];
        assert_int_equal(pinet_em_segments(m, pes, (pinet_em_partition)part, seg), PINET_OK);
        uint64_t maxe = 0;
        for (uint32_t r = 0; r < pes; r++) {
          if (seg[r].e1 - seg[r].e0 > maxe) maxe = seg[r].e1 - seg[r].e0;
        }
        assert_true(maxe > 0 && maxe * pes * 2 <= PINET_SHUFFLE_MAX_WORDS);
        const uint32_t n = log2_of(pes), tp = up_to(T, pes), bp = up_to(B, pes);
        coll list[4 + 2 * 3];
        size_t k = 0;
        const pinet_shuffle_elem ne = fx ? PINET_SHUFFLE_I32 : PINET_SHUFFLE_F64;
        list[k++] = (coll){PINET_SHUFFLE_OP_BCAST_HOST, up_to(T, n), PINET_SHUFFLE_F64};
        list[k++] = (coll){PINET_SHUFFLE_OP_SCATTER, (uint32_t)(maxe * pes * 2), PINET_SHUFFLE_F64};
        for (uint32_t it = 0; it < iters; it++) {
          list[k++] = (coll){PINET_SHUFFLE_OP_INTEGRATE, tp, ne};
          list[k++] = (coll){PINET_SHUFFLE_OP_ALLGATHER, tp, PINET_SHUFFLE_F64};
        }
        list[k++] = (coll){PINET_SHUFFLE_OP_INTEGRATE, bp, PINET_SHUFFLE_F64};
        list[k++] = (coll){PINET_SHUFFLE_OP_UPLOAD, bp, PINET_SHUFFLE_F64};
        const int ring = part == PINET_EM_PARTITION_MODIFIED;
        const uint64_t custom = ring ? 2u * iters : 0;
        check_kind_comm(what, pes, &cp, &cf, cycles_of(list, k, pes, 0, custom),
                        cycles_of(list, k, pes, 1, custom), (uint32_t)k + (ring ? iters : 0));
      }
    }
  }
  free(lp);
  free(lf);
  free(lw);
  free(counts);
  pinet_sysmat_free(m);
}

/* Hooks that only count: a refused run must not reach them. */
static pinet_status count_step(void *ctx, pinet_status local, const pinet_shuffle_schedule *s,
                               pinet_shuffle_elem elem, void *pe_mem, void *host_mem) {
  (void)s;
  (void)elem;
  (void)pe_mem;
  (void)host_mem;
  (*(int *)ctx)++;
  return local;
}

static pinet_status count_gather(void *ctx, pinet_status local, const void *part, size_t bytes,
                                 void *all) {
  (void)part;
  (void)bytes;
  (void)all;
  (*(int *)ctx)++;
  return local;
}

/* FAST with a dist: PINET_ERR_ILLEGAL_STATE before any hook (cut-through steps cannot run on a
 * distributed executor); a kind that is neither: PINET_ERR_RANGE; nothing written. */
static void test_recon_par_schedule_kind_refused(void **state) {
  (void)state;
  pinet_pb_geom g;
  assert_int_equal(pinet_pb_geom_init(&g, 16, 8, 16), PINET_OK);
  pinet_fbp *p = NULL;
  assert_int_equal(pinet_fbp_create(&g, PINET_FILTER_RAMP, &p), PINET_OK);
  float sino[8 * 16] = {0}, img[16 * 16];
  int calls = 0;
  const pinet_recon_dist dist = {0, &calls, count_step, count_gather};
  const pinet_recon_par_opts fast_dist = {PINET_SHUFFLE_FAST, &dist};
  const pinet_recon_par_opts bad = {(pinet_shuffle_kind)2, NULL};
  const pinet_recon_par_opts bad_neg = {(pinet_shuffle_kind)-1, NULL};
  pinet_recon_comm c;
  pinet_recon_comm before;
  memset(&c, 0xa5, sizeof c);
  memcpy(&before, &c, sizeof c);
  for (uint32_t pes = 1; pes <= 4; pes *= 2) {
    assert_int_equal(pinet_fbp_parallel_opts(p, sino, pes, PINET_RECON_FLOAT, 0, &fast_dist, img,
                                             &c, NULL),
                     PINET_ERR_ILLEGAL_STATE);
    assert_int_equal(pinet_fbp_parallel_opts(p, sino, pes, PINET_RECON_FLOAT, 0, &bad, img, &c,
                                             NULL),
                     PINET_ERR_RANGE);
    assert_int_equal(pinet_fbp_parallel_opts(p, sino, pes, PINET_RECON_FLOAT, 0, &bad_neg, img, &c,
                                             NULL),
                     PINET_ERR_RANGE);
  }
  pinet_fbp_free(p);
  double *counts = NULL;
  pinet_sysmat *m = ring_problem(8, 8, 1, &counts);
  double out[64];
  for (int part = 0; part < 2; part++) {
    assert_int_equal(pinet_em_parallel_opts(m, counts, 1, 4, (pinet_em_partition)part,
                                            PINET_RECON_FLOAT, &fast_dist, out, NULL, &c, NULL),
                     PINET_ERR_ILLEGAL_STATE);
    assert_int_equal(pinet_em_parallel_opts(m, counts, 1, 4, (pinet_em_partition)part,
                                            PINET_RECON_FIXED, &bad, out, NULL, &c, NULL),
                     PINET_ERR_RANGE);
  }
  assert_int_equal(calls, 0);
  assert_memory_equal(&c, &before, sizeof c);
  /* the paper schedules on the same counting dist do reach the hooks (the check above can fail) */
  (void)pinet_em_parallel_opts(m, counts, 1, 1, PINET_EM_PARTITION_BY_BOX, PINET_RECON_FLOAT,
                               &(pinet_recon_par_opts){PINET_SHUFFLE_PAPER, &dist}, out, NULL,
                               NULL, NULL);
  assert_true(calls > 0);
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
      cmocka_unit_test(test_recon_par_fbp_schedule_kind),
      cmocka_unit_test(test_recon_par_em_schedule_kind),
      cmocka_unit_test(test_recon_par_schedule_kind_refused),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
