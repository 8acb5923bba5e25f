/* bench_recon_mpi.c - the parallel FBP and EM on MPI ranks, time per phase (a benchmark, never a
 * test; bench/mpi_bench.sh runs it at np 2, 4, 8).
 *
 *   mpirun -np N build/bin/bench_recon_mpi [--size S] [--views V] [--iters K]
 *
 * FBP of the Shepp-Logan sinogram (S x S image, V views; default 128, 128) and EM on the
 * parallel-beam matrix of an S/2 x S/2 image (V/2 views, K iterations; default 10), each on
 * pinet_fbp_mpi / pinet_em_mpi with a timing wrapper around the MPI hooks: the time inside each
 * schedule (by op name, summed over its calls), the log-likelihood gather, the final agreement,
 * and the local work between them. Each figure is the slowest rank's. For comparison: the same
 * run simulated in one process (pinet_fbp_parallel / pinet_em_parallel with N PEs) and the
 * sequential kernel, on rank 0. Oversubscribed runs (more ranks than cores) are marked. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pinet/recon_mpi.h"
#include "pinet/rng.h"

enum { PHASES = PINET_SHUFFLE_OP_COUNT + 3 }; /* the ops, gather, settle, local work */
#define PH_GATHER PINET_SHUFFLE_OP_COUNT
#define PH_SETTLE (PINET_SHUFFLE_OP_COUNT + 1)
#define PH_LOCAL (PINET_SHUFFLE_OP_COUNT + 2)

typedef struct timer {
  pinet_recon_dist inner;
  double t[PHASES];
  unsigned calls[PHASES];
  double last; /* the end of the previous hook (local work runs from there) */
} timer;

static pinet_status timed_step(void *ctx, pinet_status local, const pinet_shuffle_schedule *s,
                               pinet_shuffle_elem elem, void *pe_mem, void *host_mem) {
  timer *tm = ctx;
  const double t0 = MPI_Wtime();
  tm->t[PH_LOCAL] += t0 - tm->last;
  pinet_status st = tm->inner.step(tm->inner.ctx, local, s, elem, pe_mem, host_mem);
  const int ph = s != NULL ? (int)pinet_shuffle_schedule_op(s) : PH_SETTLE;
  tm->last = MPI_Wtime();
  tm->t[ph] += tm->last - t0;
  tm->calls[ph]++;
  return st;
}

static pinet_status timed_gather(void *ctx, pinet_status local, const void *part, size_t bytes,
                                 void *all) {
  timer *tm = ctx;
  const double t0 = MPI_Wtime();
  tm->t[PH_LOCAL] += t0 - tm->last;
  pinet_status st = tm->inner.gather(tm->inner.ctx, local, part, bytes, all);
  tm->last = MPI_Wtime();
  tm->t[PH_GATHER] += tm->last - t0;
  tm->calls[PH_GATHER]++;
  return st;
}

static void timer_init(timer *tm, pinet_recon_mpi *state, pinet_recon_dist *dist) {
  memset(tm, 0, sizeof *tm);
  if (pinet_recon_mpi_dist(state, MPI_COMM_WORLD, &tm->inner) != PINET_OK) {
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  *dist = tm->inner;
  dist->ctx = tm;
  dist->step = timed_step;
  dist->gather = timed_gather;
  MPI_Barrier(MPI_COMM_WORLD);
  tm->last = MPI_Wtime();
}

static void report(const char *what, timer *tm, double total, double simulated, double seq,
                   int rank) {
  double worst[PHASES], total_worst = 0;
  MPI_Reduce(tm->t, worst, PHASES, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Reduce(&total, &total_worst, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank != 0) return;
  printf("%s: %.1f ms on the ranks (simulated in one process: %.1f ms, sequential: %.1f ms)\n",
         what, total_worst * 1e3, simulated * 1e3, seq * 1e3);
  for (int ph = 0; ph < PHASES; ph++) {
    if (tm->calls[ph] == 0 && ph != PH_LOCAL) continue;
    const char *name = ph == PH_GATHER   ? "loglik gather (MPI_Gather)"
                       : ph == PH_SETTLE ? "final agreement"
                       : ph == PH_LOCAL  ? "local work (filter, project, ...)"
                       : ph == PINET_SHUFFLE_OP_CUSTOM ? "PE 0 -> host (custom)"
                                         : pinet_shuffle_op_name((pinet_shuffle_op)ph);
    if (ph == PH_LOCAL) printf("  %-34s %11s %10.2f ms\n", name, "", worst[ph] * 1e3);
    else printf("  %-34s %5u calls %10.2f ms\n", name, tm->calls[ph], worst[ph] * 1e3);
  }
}

static int parse(int argc, char **argv, uint32_t *size, uint32_t *views, uint32_t *iters) {
  for (int i = 1; i < argc; i++) {
    uint32_t *dst = strcmp(argv[i], "--size") == 0    ? size
                    : strcmp(argv[i], "--views") == 0 ? views
                    : strcmp(argv[i], "--iters") == 0 ? iters
                                                      : NULL;
    char *end = NULL;
    if (dst == NULL || i + 1 >= argc) return 0;
    unsigned long v = strtoul(argv[++i], &end, 10);
    if (*end != '\0' || v < 2 || v > 4096) return 0;
    *dst = (uint32_t)v;
  }
  return 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  uint32_t n = 128, views = 128, iters = 10;
  if (!parse(argc, argv, &n, &views, &iters)) {
    if (rank == 0) {
      fprintf(stderr, "usage: mpirun -np N bench_recon_mpi [--size S] [--views V] [--iters K] "
              "(2 .. 4096 each)\n");
    }
    MPI_Finalize();
    return 2;
  }
  if (size > 64 || (size & (size - 1)) != 0) {
    if (rank == 0) fprintf(stderr, "bench_recon_mpi: needs a power-of-two number of ranks <= 64\n");
    MPI_Finalize();
    return 2;
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const uint32_t pes = (uint32_t)size;
  if (rank == 0) {
    printf("parallel reconstruction on %d ranks, %ld cores%s\n", size, cores,
           size > cores ? " (OVERSUBSCRIBED: more ranks than cores)" : "");
  }
  int failed = 0;
  /* FBP */
  pinet_pb_geom g;
  const pinet_ellipse *e = NULL;
  size_t ne = 0;
  pinet_fbp *p = NULL;
  float *sino = malloc((size_t)views * n * sizeof *sino), *img = malloc((size_t)n * n * sizeof *img);
  if (sino == NULL || img == NULL || pinet_pb_geom_init(&g, n, views, n) != PINET_OK ||
      pinet_phantom_by_name("shepp-logan", &e, &ne) != PINET_OK ||
      pinet_phantom_sinogram(e, ne, &g, 1, sino) != PINET_OK ||
      pinet_fbp_create(&g, PINET_FILTER_RAMP, &p) != PINET_OK) {
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  timer tm;
  pinet_recon_mpi state;
  pinet_recon_dist dist;
  timer_init(&tm, &state, &dist);
  double t0 = MPI_Wtime();
  failed |= pinet_fbp_parallel_dist(p, sino, pes, PINET_RECON_FLOAT, 0, &dist, img, NULL, NULL) !=
            PINET_OK;
  double total = MPI_Wtime() - t0, sim = 0, seq = 0;
  if (rank == 0) {
    t0 = MPI_Wtime();
    failed |= pinet_fbp_parallel(p, sino, pes, PINET_RECON_FLOAT, 0, img, NULL, NULL) != PINET_OK;
    sim = MPI_Wtime() - t0;
    t0 = MPI_Wtime();
    failed |= pinet_fbp_run(p, sino, img) != PINET_OK;
    seq = MPI_Wtime() - t0;
  }
  char what[96];
  snprintf(what, sizeof what, "FBP %ux%u, %u views", n, n, views);
  report(what, &tm, total, sim, seq, rank);
  pinet_fbp_free(p);
  free(sino);
  free(img);
  /* EM */
  const uint32_t en = n / 2, ev = views / 2;
  pinet_sysmat *m = NULL;
  if (pinet_pb_geom_init(&g, en, ev, en) != PINET_OK ||
      pinet_sysmat_create_parallel(&g, PINET_BOXES_DISK, &m) != PINET_OK) {
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  const uint32_t T = pinet_sysmat_tubes(m), B = pinet_sysmat_boxes(m);
  double *counts = malloc(T * sizeof *counts), *lam = malloc(B * sizeof *lam);
  double *ll = malloc(iters * sizeof *ll);
  if (counts == NULL || lam == NULL || ll == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  pinet_rng rng;
  pinet_rng_seed(&rng, 1);
  for (uint32_t t = 0; t < T; t++) counts[t] = (double)pinet_rng_below(&rng, 1000);
  timer_init(&tm, &state, &dist);
  t0 = MPI_Wtime();
  pinet_status st = pinet_em_parallel_dist(m, counts, iters, pes, PINET_EM_PARTITION_MODIFIED,
                                           PINET_RECON_FLOAT, &dist, lam, ll, NULL, NULL);
  failed |= st != PINET_OK;
  total = MPI_Wtime() - t0;
  if (rank == 0) {
    t0 = MPI_Wtime();
    failed |= pinet_em_parallel(m, counts, iters, pes, PINET_EM_PARTITION_MODIFIED,
                                PINET_RECON_FLOAT, lam, ll, NULL, NULL) != PINET_OK;
    sim = MPI_Wtime() - t0;
    pinet_em *em = NULL;
    t0 = MPI_Wtime();
    failed |= pinet_em_create(m, counts, NULL, &em) != PINET_OK;
    for (uint32_t it = 0; it < iters && em != NULL; it++) failed |= pinet_em_iterate(em, NULL) != PINET_OK;
    seq = MPI_Wtime() - t0;
    pinet_em_free(em);
  }
  snprintf(what, sizeof what, "EM %ux%u, %u views, %u iterations", en, en, ev, iters);
  report(what, &tm, total, sim, seq, rank);
  free(counts);
  free(lam);
  free(ll);
  pinet_sysmat_free(m);
  if (rank == 0 && failed) fprintf(stderr, "bench_recon_mpi: a run failed\n");
  MPI_Finalize();
  return failed ? 1 : 0;
}
