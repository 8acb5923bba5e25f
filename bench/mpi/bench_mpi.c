/* bench_mpi.c - libpinet_mpi's collectives against Open MPI's own, in one run (a benchmark,
 * never a test; bench/mpi_bench.sh runs it at np 2, 4, 8).
 *
 *   mpirun -np N build/bin/bench_mpi [--max-bytes B] [--seconds S]
 *
 * For shared sizes of 1 KiB, 4 KiB, ... up to B (default 16 MiB) of int32 words, each collective
 * is timed as the slowest rank's time of one call (MPI_Wtime between barriers), best of as many
 * repetitions as fit in S seconds (default 0.2, at least 3); the table gives pinet's time, Open
 * MPI's and their ratio. The ranks' number against the cores is printed: oversubscribed runs
 * (more ranks than cores) measure the scheduler as much as the network. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pinet/shuffle_mpi.h"

typedef enum { BCAST, SCATTER, REDUCE_SCATTER, ALLGATHER, GATHER, N_OPS } op_t;
static const char *const k_names[N_OPS] = {"bcast", "scatter", "reduce_scatter_block",
                                           "allgather", "gather"};

typedef struct {
  uint32_t *send, *recv;
  uint32_t count; /* per the MPI call */
} bufs;

static int run(op_t op, int pinet, bufs *b) {
  MPI_Comm w = MPI_COMM_WORLD;
  const pinet_shuffle_elem e = PINET_SHUFFLE_I32;
  const int c = (int)b->count;
  switch (op) {
    case BCAST:
      return pinet ? pinet_mpi_bcast(b->recv, b->count, e, w) != PINET_OK
                   : MPI_Bcast(b->recv, c, MPI_UINT32_T, 0, w) != MPI_SUCCESS;
    case SCATTER:
      return pinet ? pinet_mpi_scatter(b->send, b->recv, b->count, e, w) != PINET_OK
                   : MPI_Scatter(b->send, c, MPI_UINT32_T, b->recv, c, MPI_UINT32_T, 0, w) !=
                         MPI_SUCCESS;
    case REDUCE_SCATTER:
      return pinet ? pinet_mpi_reduce_scatter_block(b->send, b->recv, b->count, e, w) != PINET_OK
                   : MPI_Reduce_scatter_block(b->send, b->recv, c, MPI_UINT32_T, MPI_SUM, w) !=
                         MPI_SUCCESS;
    case ALLGATHER:
      return pinet ? pinet_mpi_allgather(b->send, b->recv, b->count, e, w) != PINET_OK
                   : MPI_Allgather(b->send, c, MPI_UINT32_T, b->recv, c, MPI_UINT32_T, w) !=
                         MPI_SUCCESS;
    case GATHER:
      return pinet ? pinet_mpi_gather(b->send, b->recv, b->count, e, w) != PINET_OK
                   : MPI_Gather(b->send, c, MPI_UINT32_T, b->recv, c, MPI_UINT32_T, 0, w) !=
                         MPI_SUCCESS;
    default: return 1;
  }
}

/* The slowest rank's time of one call, best of the repetitions that fit in `budget` seconds. */
static double time_op(op_t op, int pinet, bufs *b, double budget, int *failed) {
  double best = 1e30, spent = 0;
  for (int rep = 0; rep < 3 || (spent < budget && rep < 1000); rep++) {
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    *failed |= run(op, pinet, b);
    double mine = MPI_Wtime() - t0, slowest = 0;
    MPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    best = slowest < best ? slowest : best;
    spent += slowest;
  }
  return best;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  uint64_t max_bytes = 16u << 20;
  double budget = 0.2;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (strcmp(argv[i], "--max-bytes") == 0) max_bytes = strtoull(argv[i + 1], NULL, 10);
    else if (strcmp(argv[i], "--seconds") == 0) budget = strtod(argv[i + 1], NULL);
  }
  uint32_t log2n = 0;
  if (size < 2 || pinet_shuffle_log2((uint32_t)size, &log2n) != PINET_OK || max_bytes < 1024) {
    if (rank == 0) fprintf(stderr, "bench_mpi: needs a power-of-two number of ranks >= 2\n");
    MPI_Finalize();
    return 2;
  }
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  if (rank == 0) {
    printf("pinet collectives vs Open MPI, %d ranks on %ld cores%s; int32 words; time of one "
           "call (slowest rank, best of >= 3)\n",
           size, cores, size > cores ? " (OVERSUBSCRIBED: ranks share cores, times include "
                                       "scheduling)" : "");
    printf("%-22s %10s %12s %12s %8s\n", "collective", "bytes", "pinet us", "Open MPI us",
           "ratio");
  }
  int failed = 0;
  for (uint64_t bytes = 1024; bytes <= max_bytes; bytes *= 4) {
    const uint32_t M = (uint32_t)(bytes / 4);
    bufs b;
    b.send = malloc((size_t)M * 4 + 64);
    b.recv = malloc((size_t)M * 4 + 64);
    if (b.send == NULL || b.recv == NULL) failed = 1;
    for (uint32_t i = 0; !failed && i < M; i++) b.send[i] = b.recv[i] = i * 2654435761u;
    for (int op = 0; !failed && op < N_OPS; op++) {
      /* bcast: M rounded down to a multiple of log2 N; the others: M / N words per rank */
      b.count = op == BCAST ? M / log2n * log2n : M / (uint32_t)size;
      const double tp = time_op((op_t)op, 1, &b, budget, &failed);
      const double tm = time_op((op_t)op, 0, &b, budget, &failed);
      const uint64_t shared = (uint64_t)(op == BCAST ? b.count : b.count * (uint32_t)size) * 4;
      if (rank == 0) {
        printf("%-22s %10" PRIu64 " %12.1f %12.1f %8.2f\n", k_names[op], shared, tp * 1e6,
               tm * 1e6, tp / tm);
      }
    }
    free(b.send);
    free(b.recv);
  }
  if (rank == 0 && failed) fprintf(stderr, "bench_mpi: a collective failed\n");
  MPI_Finalize();
  return failed ? 1 : 0;
}
