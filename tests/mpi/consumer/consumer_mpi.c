/* An outside MPI program: pinet_mpi_reduce_scatter_block against Open MPI's own
 * MPI_Reduce_scatter_block on the same data (i32, and f64 with integer values, whose sums are
 * exact in any order). Prints "PASS consumer_mpi np N: ..." or "FAIL consumer_mpi np N: ..." on
 * rank 0; exits non-zero on every rank if any rank saw a mismatch. */
#include <mpi.h>
#include <pinet/pinet.h>
#include <pinet/shuffle_mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum { COUNT = 5 };

/* Rank r's word i: mixed signs and magnitudes, distinct across ranks and words. */
static int32_t word(int rank, int i) {
  return (int32_t)((rank + 1) * 100003 - i * 7919 + (i % 3 == 0 ? -250000 : 0));
}

/* Returns the number of mismatching words on this rank (first one reported to stderr). */
static int check_i32(int rank, int size, MPI_Comm comm, char *why, size_t why_len) {
  size_t n = (size_t)size * COUNT;
  int32_t *send = malloc(n * sizeof *send);
  int32_t *got = malloc(COUNT * sizeof *got);
  int32_t *want = malloc(COUNT * sizeof *want);
  int bad = 0;
  if (send == NULL || got == NULL || want == NULL) {
    snprintf(why, why_len, "rank %d: out of memory", rank);
    bad = 1;
  }
  if (!bad) {
    for (size_t i = 0; i < n; i++) send[i] = word(rank, (int)i);
    pinet_status st = pinet_mpi_reduce_scatter_block(send, got, COUNT, PINET_SHUFFLE_I32, comm);
    MPI_Reduce_scatter_block(send, want, COUNT, MPI_INT32_T, MPI_SUM, comm);
    if (st != PINET_OK) {
      snprintf(why, why_len, "rank %d: i32 status %s", rank, pinet_status_name(st));
      bad = 1;
    }
    for (int i = 0; !bad && i < COUNT; i++) {
      if (got[i] != want[i]) {
        snprintf(why, why_len, "rank %d: i32 word %d: pinet %ld, MPI %ld", rank, i, (long)got[i],
                 (long)want[i]);
        bad = 1;
      }
    }
  }
  free(send);
  free(got);
  free(want);
  return bad;
}

static int check_f64(int rank, int size, MPI_Comm comm, char *why, size_t why_len) {
  size_t n = (size_t)size * COUNT;
  double *send = malloc(n * sizeof *send);
  double *got = malloc(COUNT * sizeof *got);
  double *want = malloc(COUNT * sizeof *want);
  int bad = 0;
  if (send == NULL || got == NULL || want == NULL) {
    snprintf(why, why_len, "rank %d: out of memory", rank);
    bad = 1;
  }
  if (!bad) {
    for (size_t i = 0; i < n; i++) send[i] = (double)word(rank, (int)i) * 0.5;
    pinet_status st = pinet_mpi_reduce_scatter_block(send, got, COUNT, PINET_SHUFFLE_F64, comm);
    MPI_Reduce_scatter_block(send, want, COUNT, MPI_DOUBLE, MPI_SUM, comm);
    if (st != PINET_OK) {
      snprintf(why, why_len, "rank %d: f64 status %s", rank, pinet_status_name(st));
      bad = 1;
    }
    for (int i = 0; !bad && i < COUNT; i++) {
      if (got[i] != want[i]) {
        snprintf(why, why_len, "rank %d: f64 word %d: pinet %.17g, MPI %.17g", rank, i, got[i],
                 want[i]);
        bad = 1;
      }
    }
  }
  free(send);
  free(got);
  free(want);
  return bad;
}

int main(int argc, char **argv) {
  int rank = 0, size = 0;
  char why[160] = "";
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bad = check_i32(rank, size, MPI_COMM_WORLD, why, sizeof why);
  if (!bad) bad = check_f64(rank, size, MPI_COMM_WORLD, why, sizeof why);
  if (bad) fprintf(stderr, "consumer_mpi: %s\n", why);
  int bad_ranks = 0;
  MPI_Allreduce(&bad, &bad_ranks, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) {
    if (bad_ranks == 0) {
      printf("PASS consumer_mpi np %d: reduce_scatter_block i32 and f64, %d words per rank, "
             "equal to MPI_Reduce_scatter_block (pinet %s)\n", size, COUNT,
             pinet_version_string());
    } else {
      printf("FAIL consumer_mpi np %d: %d rank(s) differ from MPI_Reduce_scatter_block\n", size,
             bad_ranks);
    }
  }
  MPI_Finalize();
  return bad_ranks == 0 ? 0 : 1;
}
