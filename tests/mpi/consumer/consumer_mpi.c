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

/* One element type: pinet's and MPI's names for it, its size, and how to make and print a word. */
typedef struct {
  const char *name;
  pinet_shuffle_elem type;
  MPI_Datatype mpi_type;
  size_t size;
} elem_type;

static void put(const elem_type *t, void *buf, size_t i, int32_t w) {
  if (t->type == PINET_SHUFFLE_I32)
    ((int32_t *)buf)[i] = w;
  else
    ((double *)buf)[i] = (double)w * 0.5;  /* integer halves: every sum exact in any order */
}

static double get(const elem_type *t, const void *buf, size_t i) {
  return t->type == PINET_SHUFFLE_I32 ? ((const int32_t *)buf)[i] : ((const double *)buf)[i];
}

/* 1 if pinet's reduce-scatter differs from MPI's on this rank (the first difference in why). */
static int check(const elem_type *t, int rank, int size, MPI_Comm comm, char *why, size_t why_len) {
  size_t n = (size_t)size * COUNT;
  void *send = malloc(n * t->size);
  void *got = malloc(COUNT * t->size);
  void *want = malloc(COUNT * t->size);
  int bad = 0;
  if (send == NULL || got == NULL || want == NULL) {
    snprintf(why, why_len, "rank %d: out of memory", rank);
    bad = 1;
  }
  if (!bad) {
    for (size_t i = 0; i < n; i++) put(t, send, i, word(rank, (int)i));
    pinet_status st = pinet_mpi_reduce_scatter_block(send, got, COUNT, t->type, comm);
    MPI_Reduce_scatter_block(send, want, COUNT, t->mpi_type, MPI_SUM, comm);
    if (st != PINET_OK) {
      snprintf(why, why_len, "rank %d: %s status %s", rank, t->name, pinet_status_name(st));
      bad = 1;
    }
    for (int i = 0; !bad && i < COUNT; i++) {
      if (get(t, got, (size_t)i) != get(t, want, (size_t)i)) {
        snprintf(why, why_len, "rank %d: %s word %d: pinet %.17g, MPI %.17g", rank, t->name, i,
                 get(t, got, (size_t)i), get(t, want, (size_t)i));
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
  const elem_type types[] = {{"i32", PINET_SHUFFLE_I32, MPI_INT32_T, sizeof(int32_t)},
                             {"f64", PINET_SHUFFLE_F64, MPI_DOUBLE, sizeof(double)}};
  int bad = 0;
  for (size_t k = 0; !bad && k < sizeof types / sizeof types[0]; k++)
    bad = check(&types[k], rank, size, MPI_COMM_WORLD, why, sizeof why);
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
