/* test_recon_mpi.c - the parallel FBP and EM with one MPI rank per PE (libpinet_mpi,
 * recon_mpi.h; CTest label `mpi`, run by mpirun at np = 1, 2, 4, 8). Every rank builds the same
 * problem from one seed; rank 0 checks
 *   - the image bit for bit against the C model's simulated run on N = np PEs in this process
 *     (pinet_fbp_parallel / pinet_em_parallel: float and fixed, both EM partitions, and the EM
 *     log-likelihoods), and the communication summary and per-PE work field by field;
 *   - the fixed-point images bit for bit against the sequential kernels (pinet_fbp_run_fixed,
 *     pinet_em_iterate), the float ones within 1e-6 of the image maximum;
 * every rank checks that the library's point-to-point messages go along network links only
 * (MPI_Isend interposed, as in test_shuffle_mpi.c). That the comparison can fail: one bit of one
 * rank's memory flipped after a schedule must change rank 0's image. That no rank is left
 * waiting: a failure injected on the last rank before each meeting in turn must come back as
 * the same status on every rank (a hang would hit CTest's timeout).
 * Prints "PASS test_recon_mpi np N: K checks" on rank 0; exit 1 on any failure. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/recon_mpi.h"
#include "pinet/rng.h"

static int g_rank, g_size;
static long g_checks, g_fails;
static long g_off_link; /* MPI_Isend calls to a rank that is not a network neighbour */

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if (!(dest == (2 * rank) % size || dest == (2 * rank + 1) % size || dest == rank / 2 ||
        dest == rank / 2 + size / 2)) {
    g_off_link++;
  }
  return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

static void check(int ok, const char *what) {
  g_checks++;
  if (!ok) {
    g_fails++;
    fprintf(stderr, "FAIL rank %d np %d: %s\n", g_rank, g_size, what);
  }
}

static void *xmalloc(size_t bytes) {
  void *p = malloc(bytes ? bytes : 1);
  if (p == NULL) {
    fprintf(stderr, "test_recon_mpi: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  return p;
}

static int same_comm(const pinet_recon_comm *a, const pinet_recon_comm *b) {
  return a->pes == b->pes && a->schedules == b->schedules && a->steps == b->steps &&
         a->words_moved == b->words_moved && a->words_summed == b->words_summed &&
         a->link_time == b->link_time && a->max_work == b->max_work &&
         a->min_work == b->min_work && a->total_work == b->total_work &&
         a->load_balance == b->load_balance && a->model_efficiency == b->model_efficiency;
}

/* ---- a pinet_recon_dist around the MPI one: counts meetings, injects faults ------------------ */

typedef struct wrap {
  pinet_recon_dist inner;
  uint32_t calls;     /* hook calls so far */
  uint32_t fail_at;   /* call number at which the last rank reports PINET_ERR_NOMEM (0: never) */
  uint32_t flip_at;   /* call number after whose schedule the last rank flips one bit (0: never) */
  size_t flip_byte;   /* ... in this byte of its PE's memory */
} wrap;

static pinet_status local_fault(wrap *w, pinet_status local) {
  w->calls++;
  if (g_rank == g_size - 1 && w->calls == w->fail_at) return PINET_ERR_NOMEM;
  return local;
}

static pinet_status wrap_step(void *ctx, pinet_status local, const pinet_shuffle_schedule *s,
                              pinet_shuffle_elem elem, void *pe_mem, void *host_mem) {
  wrap *w = ctx;
  local = local_fault(w, local);
  pinet_status st = w->inner.step(w->inner.ctx, local, s, elem, pe_mem, host_mem);
  if (st == PINET_OK && s != NULL && g_rank == g_size - 1 && w->calls == w->flip_at) {
    ((unsigned char *)pe_mem)[w->flip_byte] ^= 0x40;
  }
  return st;
}

static pinet_status wrap_gather(void *ctx, pinet_status local, const void *part, size_t bytes,
                                void *all) {
  wrap *w = ctx;
  return w->inner.gather(w->inner.ctx, local_fault(w, local), part, bytes, all);
}

static void wrap_init(wrap *w, pinet_recon_mpi *state, pinet_recon_dist *dist, uint32_t fail_at,
                      uint32_t flip_at, size_t flip_byte) {
  memset(w, 0, sizeof *w);
  if (pinet_recon_mpi_dist(state, MPI_COMM_WORLD, &w->inner) != PINET_OK) {
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  w->fail_at = fail_at;
  w->flip_at = flip_at;
  w->flip_byte = flip_byte;
  *dist = w->inner;
  dist->ctx = w;
  dist->step = wrap_step;
  dist->gather = wrap_gather;
}

/* Every rank's status equal to `want`? (checked on every rank) */
static void check_all_equal(pinet_status st, pinet_status want, const char *what) {
  int mine[2] = {(int)st, -(int)st}, all[2] = {0, 0};
  MPI_Allreduce(mine, all, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  check(all[0] == (int)want && -all[1] == (int)want, what);
}

/* ---- FBP ------------------------------------------------------------------------------------- */

static void test_fbp(uint32_t pes) {
  enum { N = 32, V = 45, D = 32 }; /* V not a multiple of N: padded views */
  pinet_pb_geom g;
  const pinet_ellipse *e = NULL;
  size_t ne = 0;
  static float sino[V * D], seq[N * N], model[N * N], img[N * N];
  pinet_fbp *p = NULL;
  if (pinet_pb_geom_init(&g, N, V, D) != PINET_OK || pinet_phantom_by_name("shepp-logan", &e, &ne) ||
      pinet_phantom_sinogram(e, ne, &g, 2, sino) != PINET_OK ||
      pinet_fbp_create(&g, PINET_FILTER_SHEPP_LOGAN, &p) != PINET_OK) {
    check(0, "FBP setup");
    return;
  }
  float *filt = xmalloc((size_t)V * pinet_fbp_filtered_stride(p) * sizeof *filt);
  (void)pinet_fbp_filter_views(p, NULL, sino, V, filt);
  const int bits = pinet_fbp_fixed_bits(p, filt);
  free(filt);
  for (int fixed = 0; fixed < 2; fixed++) {
    const pinet_recon_arith arith = fixed ? PINET_RECON_FIXED : PINET_RECON_FLOAT;
    pinet_recon_comm cm, cs;
    uint64_t wm[64], ws[64];
    memset(img, 0, sizeof img);
    pinet_status st = pinet_fbp_mpi(p, sino, arith, bits, img, &cm, wm, MPI_COMM_WORLD);
    check_all_equal(st, PINET_OK, "FBP on ranks: PINET_OK on every rank");
    /* every rank computes the simulated run too: the summaries are everyone's */
    check(pinet_fbp_parallel(p, sino, pes, arith, bits, model, &cs, ws) == PINET_OK,
          "FBP simulated");
    check(same_comm(&cm, &cs) && memcmp(wm, ws, pes * sizeof *wm) == 0,
          "FBP: communication summary and per-PE work = the simulated run's");
    if (g_rank != 0) continue;
    check(memcmp(img, model, sizeof img) == 0, fixed ? "FBP fixed: image = the simulated run's"
                                                     : "FBP float: image = the simulated run's");
    if (fixed) {
      check(pinet_fbp_run_fixed(p, sino, bits, seq) == PINET_OK &&
                memcmp(img, seq, sizeof img) == 0,
            "FBP fixed: image = the sequential kernel's");
    } else {
      double mx = 0, md = 0;
      check(pinet_fbp_run(p, sino, seq) == PINET_OK, "FBP sequential");
      for (size_t i = 0; i < (size_t)N * N; i++) {
        mx = fmax(mx, fabs(seq[i]));
        md = fmax(md, fabs((double)seq[i] - img[i]));
      }
      check(md <= 1e-6 * mx, "FBP float: within 1e-6 of the sequential image's maximum");
    }
  }
  if (pes > 1) {
    /* the comparison can fail: an exponent bit flipped in the last rank's memory after the
     * first schedule (the scatter of the views: the middle bin of its first view) reaches rank
     * 0's image */
    wrap w;
    pinet_recon_mpi state;
    pinet_recon_dist dist;
    const size_t first_view = (size_t)(pes - 1) * ((V + pes - 1) / pes);
    wrap_init(&w, &state, &dist, 0, 1, (first_view * D + D / 2) * sizeof(float) + 3);
    memset(img, 0, sizeof img);
    pinet_status st = pinet_fbp_parallel_dist(p, sino, pes, PINET_RECON_FIXED, bits, &dist, img,
                                              NULL, NULL);
    check_all_equal(st, PINET_OK, "FBP with a flipped bit still runs");
    if (g_rank == 0) check(memcmp(img, seq, sizeof img) != 0, "a flipped bit changes the image");
    /* no rank is left waiting: a failure before each meeting in turn */
    wrap_init(&w, &state, &dist, 0, 0, 0);
    (void)pinet_fbp_parallel_dist(p, sino, pes, PINET_RECON_FIXED, bits, &dist, img, NULL, NULL);
    const uint32_t meetings = w.calls;
    check(meetings >= 5, "FBP: one meeting per schedule and a last one");
    for (uint32_t k = 1; k <= meetings; k++) {
      wrap_init(&w, &state, &dist, k, 0, 0);
      st = pinet_fbp_parallel_dist(p, sino, pes, PINET_RECON_FIXED, bits, &dist, img, NULL, NULL);
      check_all_equal(st, PINET_ERR_NOMEM, "FBP: a failure on one rank is every rank's status");
    }
  }
  pinet_fbp_free(p);
}

/* ---- EM -------------------------------------------------------------------------------------- */

static void test_em(uint32_t pes) {
  enum { N = 32, V = 24, ITERS = 3 };
  pinet_pb_geom g;
  pinet_sysmat *m = NULL;
  if (pinet_pb_geom_init(&g, N, V, N) != PINET_OK ||
      pinet_sysmat_create_parallel(&g, PINET_BOXES_DISK, &m) != PINET_OK) {
    check(0, "EM setup");
    return;
  }
  const uint32_t T = pinet_sysmat_tubes(m), B = pinet_sysmat_boxes(m);
  double *counts = xmalloc(T * sizeof *counts);
  pinet_rng rng;
  pinet_rng_seed(&rng, 2026);
  for (uint32_t t = 0; t < T; t++) counts[t] = (double)pinet_rng_below(&rng, 200);
  double *img = xmalloc(B * sizeof *img), *model = xmalloc(B * sizeof *model);
  double *seq = xmalloc(B * sizeof *seq);
  double ll[ITERS], llm[ITERS];
  for (int part = 0; part < 2; part++) {
    for (int fixed = 0; fixed < 2; fixed++) {
      const pinet_recon_arith arith = fixed ? PINET_RECON_FIXED : PINET_RECON_FLOAT;
      pinet_recon_comm cm, cs;
      uint64_t wm[64], ws[64];
      pinet_status st = pinet_em_mpi(m, counts, ITERS, (pinet_em_partition)part, arith, img, ll,
                                     &cm, wm, MPI_COMM_WORLD);
      check_all_equal(st, PINET_OK, "EM on ranks: PINET_OK on every rank");
      check(pinet_em_parallel(m, counts, ITERS, pes, (pinet_em_partition)part, arith, model, llm,
                              &cs, ws) == PINET_OK,
            "EM simulated");
      check(same_comm(&cm, &cs) && memcmp(wm, ws, pes * sizeof *wm) == 0,
            "EM: communication summary and per-PE work = the simulated run's");
      if (g_rank != 0) continue;
      check(memcmp(img, model, B * sizeof *img) == 0, "EM: image = the simulated run's");
      check(memcmp(ll, llm, sizeof ll) == 0, "EM: log-likelihoods = the simulated run's");
      pinet_em *em = NULL;
      pinet_em_opts o = {1, arith, 0};
      st = pinet_em_create(m, counts, &o, &em);
      for (uint32_t it = 0; it < ITERS && st == PINET_OK; it++) st = pinet_em_iterate(em, NULL);
      check(st == PINET_OK, "EM sequential");
      if (st == PINET_OK) memcpy(seq, pinet_em_image(em), B * sizeof *seq);
      pinet_em_free(em);
      double mx = 0, md = 0;
      for (uint32_t b = 0; b < B; b++) {
        mx = fmax(mx, fabs(seq[b]));
        md = fmax(md, fabs(seq[b] - img[b]));
      }
      if (fixed) check(memcmp(img, seq, B * sizeof *img) == 0, "EM fixed: = the sequential");
      else check(md <= 1e-6 * mx, "EM float: within 1e-6 of the sequential image's maximum");
    }
  }
  if (pes > 1) { /* no rank left waiting, the gather of the log-likelihood included */
    wrap w;
    pinet_recon_mpi state;
    pinet_recon_dist dist;
    wrap_init(&w, &state, &dist, 0, 0, 0);
    (void)pinet_em_parallel_dist(m, counts, ITERS, pes, PINET_EM_PARTITION_MODIFIED,
                                 PINET_RECON_FLOAT, &dist, img, ll, NULL, NULL);
    const uint32_t meetings = w.calls;
    check(meetings >= 4 * ITERS + 3, "EM: four meetings per iteration, three more");
    for (uint32_t k = 1; k <= meetings; k++) {
      wrap_init(&w, &state, &dist, k, 0, 0);
      pinet_status st = pinet_em_parallel_dist(m, counts, ITERS, pes, PINET_EM_PARTITION_MODIFIED,
                                               PINET_RECON_FLOAT, &dist, img, ll, NULL, NULL);
      check_all_equal(st, PINET_ERR_NOMEM, "EM: a failure on one rank is every rank's status");
    }
  }
  free(img);
  free(model);
  free(seq);
  free(counts);
  pinet_sysmat_free(m);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const uint32_t pes = (uint32_t)g_size;
  test_fbp(pes);
  test_em(pes);
  check(g_off_link == 0, "every message along a network link");
  long fails = 0, checks = 0;
  MPI_Reduce(&g_fails, &fails, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  MPI_Reduce(&g_checks, &checks, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (g_rank == 0) {
    if (fails == 0) printf("PASS test_recon_mpi np %d: %ld checks\n", g_size, checks);
    else printf("FAIL test_recon_mpi np %d: %ld of %ld checks failed\n", g_size, fails, checks);
  }
  MPI_Finalize();
  return fails == 0 ? 0 : 1;
}
