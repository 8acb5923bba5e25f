/* test_shuffle_mpi.c - libpinet_mpi on real ranks (CTest label `mpi`, run by mpirun at
 * np = 1, 2, 4, 8). Every rank generates every rank's data from one seed, so each can compute
 * the expected result on its own; each collective is checked
 *   - against the direct computation (copies, slices, wrap-around int32 sums),
 *   - for i32 against Open MPI's own collective on the same data,
 *   - for every type bit for bit against the C model (pinet_shuffle_execute of the same schedule
 *     with all N memories in this process),
 * and every message the library sends is checked to go along a network link: MPI_Isend is
 * interposed here (the MPI profiling interface) and counts sends to a rank that is not one of
 * 2r, 2r + 1, r / 2, r / 2 + N / 2 (mod N). A self-test sends one such message on purpose and
 * checks that it is counted. Also: ranks that disagree on the count, and a broadcast count that
 * is not a multiple of log2 N, give the same error on every rank instead of a hang.
 * Prints "PASS test_shuffle_mpi np N: K checks" on rank 0; exit 1 on any failure. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pinet/rng.h"
#include "pinet/shuffle_mpi.h"

static int g_rank, g_size;
static long g_checks, g_fails;
static long g_sends, g_off_link; /* MPI_Isend calls, and those to a rank that is no neighbour */

static int is_neighbour(int from, int to, int n) {
  return to == (2 * from) % n || to == (2 * from + 1) % n || to == from / 2 ||
         to == from / 2 + n / 2;
}

/* The interposed MPI_Isend: the library's sends land here first. */
int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
              MPI_Request *req) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  g_sends++;
  if (!is_neighbour(rank, dest, size)) g_off_link++;
  return PMPI_Isend(buf, count, type, dest, tag, comm, req);
}

static void check(int ok, const char *what, const char *name, int elem, uint32_t count) {
  g_checks++;
  if (!ok) {
    g_fails++;
    fprintf(stderr, "FAIL rank %d np %d: %s: %s elem %d count %" PRIu32 "\n", g_rank, g_size,
            name, what, elem, count);
  }
}

/* Every rank's input: rank r's words at r * words; values that make float sums order-sensitive
 * (mixed magnitudes) and int32 sums wrap. */
static void fill(unsigned char *data, size_t total, pinet_shuffle_elem elem, uint64_t seed) {
  pinet_rng rng;
  pinet_rng_seed(&rng, seed);
  for (size_t i = 0; i < total; i++) {
    double mag = (double)(1u << pinet_rng_below(&rng, 24));
    double v = (pinet_rng_unit(&rng) - 0.5) * mag;
    if (elem == PINET_SHUFFLE_I32) ((uint32_t *)(void *)data)[i] = (uint32_t)pinet_rng_next(&rng);
    else if (elem == PINET_SHUFFLE_F32) ((float *)(void *)data)[i] = (float)v;
    else ((double *)(void *)data)[i] = v;
  }
}

/* The C model's answer: run the schedule of `op` in this process on N memories placed as the
 * MPI wrapper places them; out receives PE `pe`'s output region. */
static int cmodel(pinet_shuffle_op op, uint32_t M, pinet_shuffle_elem elem,
                  const unsigned char *pe_in, size_t pe_in_stride, const unsigned char *host_in,
                  int pe, unsigned char *out) {
  const size_t es = pinet_shuffle_elem_size(elem);
  pinet_shuffle_schedule *s = NULL;
  if (pinet_shuffle_build(&s, op, (uint32_t)g_size, M) != PINET_OK) return 0;
  void **mem = calloc((size_t)g_size, sizeof *mem);
  void *host = calloc(M, es);
  int ok = mem != NULL && host != NULL;
  for (int j = 0; ok && j < g_size; j++) ok = (mem[j] = calloc(M, es)) != NULL;
  for (int j = -1; ok && j < g_size; j++) {
    uint32_t off = 0, w = 0;
    pinet_shuffle_schedule_input_region(s, j, &off, &w);
    if (w == 0) continue;
    const unsigned char *src = j < 0 ? host_in : pe_in + (size_t)j * pe_in_stride * es;
    memcpy((unsigned char *)(j < 0 ? host : mem[j]) + off * es, src, w * es);
  }
  ok = ok && pinet_shuffle_execute(s, elem, mem, host) == PINET_OK;
  if (ok) {
    uint32_t off = 0, w = 0;
    pinet_shuffle_schedule_output_region(s, pe, &off, &w);
    memcpy(out, (unsigned char *)mem[pe] + off * es, w * es);
  }
  for (int j = 0; mem != NULL && j < g_size; j++) free(mem[j]);
  free(mem);
  free(host);
  pinet_shuffle_schedule_free(s);
  return ok;
}

static MPI_Datatype mpi_type(pinet_shuffle_elem elem) {
  return elem == PINET_SHUFFLE_I32 ? MPI_UINT32_T : elem == PINET_SHUFFLE_F32 ? MPI_FLOAT
                                                                               : MPI_DOUBLE;
}

static void test_collectives(pinet_shuffle_elem elem, uint32_t count, uint64_t seed) {
  const size_t es = pinet_shuffle_elem_size(elem), N = (size_t)g_size, r = (size_t)g_rank;
  const size_t M = N * count;
  /* all[j * M ...]: rank j's M-word input (integrate, scatter's host = rank 0's) */
  unsigned char *all = malloc(N * M * es), *got = malloc(M * es), *want = malloc(M * es),
                *mpi = malloc(M * es);
  if (!all || !got || !want || !mpi) {
    check(0, "allocation", "setup", (int)elem, count);
    free(all), free(got), free(want), free(mpi);
    return;
  }
  fill(all, N * M, elem, seed);
  const int n1 = g_size == 1;

  /* scatter: rank 0's M words, rank r gets [r count, (r+1) count) */
  memset(got, 0, M * es);
  check(pinet_mpi_scatter(g_rank == 0 ? all : NULL, got, count, elem, MPI_COMM_WORLD) == PINET_OK,
        "status", "scatter", (int)elem, count);
  check(memcmp(got, all + r * count * es, count * es) == 0, "direct", "scatter", (int)elem, count);
  if (!n1 && cmodel(PINET_SHUFFLE_OP_SCATTER, (uint32_t)M, elem, NULL, 0, all, g_rank, want))
    check(memcmp(got, want, count * es) == 0, "C model", "scatter", (int)elem, count);
  if (elem == PINET_SHUFFLE_I32) {
    MPI_Scatter(all, (int)count, MPI_UINT32_T, mpi, (int)count, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    check(memcmp(got, mpi, count * es) == 0, "MPI_Scatter", "scatter", (int)elem, count);
  }

  /* allgather: rank j contributes all[j M .. + count) */
  memset(got, 0, M * es);
  check(pinet_mpi_allgather(all + r * M * es, got, count, elem, MPI_COMM_WORLD) == PINET_OK,
        "status", "allgather", (int)elem, count);
  for (size_t j = 0; j < N; j++) memcpy(want + j * count * es, all + j * M * es, count * es);
  check(memcmp(got, want, M * es) == 0, "direct", "allgather", (int)elem, count);
  if (elem == PINET_SHUFFLE_I32) {
    MPI_Allgather(all + r * M * es, (int)count, MPI_UINT32_T, mpi, (int)count, MPI_UINT32_T,
                  MPI_COMM_WORLD);
    check(memcmp(got, mpi, M * es) == 0, "MPI_Allgather", "allgather", (int)elem, count);
  }

  /* gather to rank 0 */
  memset(got, 0, M * es);
  check(pinet_mpi_gather(all + r * M * es, got, count, elem, MPI_COMM_WORLD) == PINET_OK,
        "status", "gather", (int)elem, count);
  if (g_rank == 0) check(memcmp(got, want, M * es) == 0, "direct", "gather", (int)elem, count);
  if (elem == PINET_SHUFFLE_I32) {
    MPI_Gather(all + r * M * es, (int)count, MPI_UINT32_T, mpi, (int)count, MPI_UINT32_T, 0,
               MPI_COMM_WORLD);
    if (g_rank == 0) check(memcmp(got, mpi, M * es) == 0, "MPI_Gather", "gather", (int)elem, count);
  }

  /* reduce-scatter (integration): the sums of every rank's M words, rank r's block */
  memset(got, 0, M * es);
  check(pinet_mpi_reduce_scatter_block(all + r * M * es, got, count, elem, MPI_COMM_WORLD) ==
            PINET_OK, "status", "reduce_scatter", (int)elem, count);
  if (elem == PINET_SHUFFLE_I32) {
    for (size_t i = 0; i < count; i++) { /* the sum modulo 2^32, in any order */
      uint32_t sum = 0;
      for (size_t j = 0; j < N; j++) sum += ((uint32_t *)(void *)all)[j * M + r * count + i];
      ((uint32_t *)(void *)want)[i] = sum;
    }
    check(memcmp(got, want, count * es) == 0, "direct", "reduce_scatter", (int)elem, count);
    MPI_Reduce_scatter_block(all + r * M * es, mpi, (int)count, MPI_UINT32_T, MPI_SUM,
                             MPI_COMM_WORLD);
    check(memcmp(got, mpi, count * es) == 0, "MPI_Reduce_scatter_block", "reduce_scatter",
          (int)elem, count);
  } else {
    /* floats: the C model's order exactly; and close to the plain sum */
    if (!n1 && cmodel(PINET_SHUFFLE_OP_INTEGRATE, (uint32_t)M, elem, all, M, NULL, g_rank, want))
      check(memcmp(got, want, count * es) == 0, "C model bit for bit", "reduce_scatter",
            (int)elem, count);
    MPI_Reduce_scatter_block(all + r * M * es, mpi, (int)count, mpi_type(elem), MPI_SUM,
                             MPI_COMM_WORLD);
    int close = 1;
    for (size_t i = 0; i < count; i++) {
      double a = elem == PINET_SHUFFLE_F32 ? ((float *)(void *)got)[i] : ((double *)(void *)got)[i];
      double b = elem == PINET_SHUFFLE_F32 ? ((float *)(void *)mpi)[i] : ((double *)(void *)mpi)[i];
      double tol = (elem == PINET_SHUFFLE_F32 ? 1e-5 : 1e-12) * (double)N * (1 << 24);
      close &= (a - b <= tol && b - a <= tol);
    }
    check(close, "MPI_Reduce_scatter_block within rounding", "reduce_scatter", (int)elem, count);
  }

  /* broadcast from rank 0: M = bcount, a multiple of log2 N */
  uint32_t log2n = 0;
  pinet_shuffle_log2((uint32_t)g_size, &log2n);
  const uint32_t bcount = count * (log2n ? log2n : 1);
  memcpy(got, g_rank == 0 ? all : all + es, bcount * es); /* non-roots start with other data */
  check(pinet_mpi_bcast(got, bcount, elem, MPI_COMM_WORLD) == PINET_OK, "status", "bcast",
        (int)elem, bcount);
  check(memcmp(got, all, bcount * es) == 0, "direct", "bcast", (int)elem, bcount);
  if (elem == PINET_SHUFFLE_I32) {
    memcpy(mpi, all, bcount * es);
    MPI_Bcast(mpi, (int)bcount, MPI_UINT32_T, 0, MPI_COMM_WORLD);
    check(memcmp(got, mpi, bcount * es) == 0, "MPI_Bcast", "bcast", (int)elem, bcount);
  }
  free(all), free(got), free(want), free(mpi);
}

static void test_errors(void) {
  uint32_t buf[64] = {0}, out[64];
  /* ranks disagree on the count: the same error everywhere, no hang */
  uint32_t count = g_rank == g_size - 1 ? 3 : 2;
  pinet_status st = pinet_mpi_allgather(buf, out, count, PINET_SHUFFLE_I32, MPI_COMM_WORLD);
  check(g_size == 1 ? st == PINET_OK : st == PINET_ERR_MISMATCH, "disagreeing counts",
        "allgather", 0, count);
  /* a broadcast of M not a multiple of log2 N (N >= 4) */
  if (g_size >= 4) {
    st = pinet_mpi_bcast(buf, 5, PINET_SHUFFLE_I32, MPI_COMM_WORLD);
    check(st == PINET_ERR_MISMATCH, "bcast count not a multiple of log2 N", "bcast", 0, 5);
  }
  check(pinet_mpi_gather(buf, out, 0, PINET_SHUFFLE_I32, MPI_COMM_WORLD) == PINET_ERR_RANGE,
        "count 0", "gather", 0, 0);
  check(pinet_mpi_gather(buf, out, 1, (pinet_shuffle_elem)7, MPI_COMM_WORLD) == PINET_ERR_RANGE,
        "unknown element type", "gather", 7, 1);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_size);
  const pinet_shuffle_elem elems[3] = {PINET_SHUFFLE_I32, PINET_SHUFFLE_F32, PINET_SHUFFLE_F64};
  const uint32_t counts[3] = {1, 3, 16};
  for (int e = 0; e < 3; e++) {
    for (int c = 0; c < 3; c++) test_collectives(elems[e], counts[c], 1000u * e + c);
  }
  test_errors();
  long off_link = g_off_link, sends = g_sends;
  check(off_link == 0, "a message left the network's links", "all", -1, 0);
  check(g_size == 1 || sends > 0, "no message was sent at all", "all", -1, 0);
  /* Self-test of the link check: rank 0 -> rank 3 is no link for N >= 8 (0's neighbours are
   * 0, 1 and N/2). */
  if (g_size >= 8 && (g_rank == 0 || g_rank == 3)) {
    uint32_t word = 42;
    MPI_Request rq;
    if (g_rank == 0) MPI_Isend(&word, 1, MPI_UINT32_T, 3, 99, MPI_COMM_WORLD, &rq);
    else MPI_Irecv(&word, 1, MPI_UINT32_T, 0, 99, MPI_COMM_WORLD, &rq);
    MPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (g_rank == 0) check(g_off_link == off_link + 1, "the link check missed a send 0 -> 3",
                           "self-test", -1, 0);
  }
  long fails = 0, checks = 0;
  MPI_Allreduce(&g_fails, &fails, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(&g_checks, &checks, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  long all_sends = 0;
  MPI_Reduce(&sends, &all_sends, 1, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (g_rank == 0) {
    printf("%s test_shuffle_mpi np %d: %ld checks, %ld failed, %ld messages on links\n",
           fails ? "FAIL" : "PASS", g_size, checks, fails, all_sends);
  }
  MPI_Finalize();
  return fails ? 1 : 0;
}
