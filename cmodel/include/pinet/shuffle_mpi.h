/* shuffle_mpi.h - the perfect-shuffle network's schedules on real distributed memory: one MPI
 * rank per PE (libpinet_mpi, built when MPI is found; docs/mpi.md).
 *
 * Mapping: rank r of the communicator is PE r; N = the communicator's size, a power of two in
 * [2, PINET_SHUFFLE_MAX_PES]. The host of the schedules (the source of bcast-host and scatter,
 * the sink of upload) is a buffer on rank 0: host transfers are local copies on rank 0. Every
 * other word moves in a point-to-point message between the two ends of the schedule's channel,
 * so rank r only ever talks to its de Bruijn neighbours 2r, 2r + 1 (mod N) and r / 2,
 * r / 2 + N / 2. A step is one round: every rank posts its receives and sends, waits, then
 * applies the words exactly as pinet_shuffle_execute does (every COPY in schedule order, then
 * every ADD in schedule order), so results are bit-exact with the C model for i32, f32 and f64.
 *
 * Errors: every function checks what each rank can see alone first, then agrees across the
 * communicator (one MPI_Allreduce) before the first message, so that every rank returns the same
 * status and none waits for a message that will not come. MPI's own errors follow the
 * communicator's error handler (by default they abort the job). */
#ifndef PINET_SHUFFLE_MPI_H
#define PINET_SHUFFLE_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "pinet/shuffle.h"
#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Execute a finished schedule over the ranks of `comm`: rank r passes PE r's memory `mem`
 * (mem_words elements of `elem`); rank 0 also the host memory `host_mem` (host_words elements;
 * NULL is fine when host_words is 0, and on the other ranks). Every rank must pass the same
 * schedule. PINET_ERR_NULL; PINET_ERR_SIZE if the communicator's size is not the schedule's N;
 * PINET_ERR_RANGE (elem); PINET_ERR_ILLEGAL_STATE (not finished, or cut-through: a transfer
 * with start != 0, pinet_shuffle_schedule_cut_through); PINET_ERR_MISMATCH if the
 * ranks' schedules differ (N, words, steps); PINET_ERR_NOMEM. On an error nothing is changed. */
pinet_status pinet_shuffle_mpi_execute(const pinet_shuffle_schedule *sched,
                                       pinet_shuffle_elem elem, void *mem, void *host_mem,
                                       MPI_Comm comm);

/* The collectives, shaped like MPI's own and run on the paper's schedules. `count` is per the
 * MPI call it stands for; the shared size M of the schedule is given for each. Root and host:
 * rank 0. Each returns the same status on every rank: PINET_ERR_SIZE if the communicator's size
 * is not a power of two in [1, PINET_SHUFFLE_MAX_PES] (size 1 copies locally);
 * PINET_ERR_MISMATCH if the ranks disagree on count or elem, or M is not a multiple of the
 * schedule's quantum; PINET_ERR_RANGE (count 0, M above PINET_SHUFFLE_MAX_WORDS, elem);
 * PINET_ERR_NULL; PINET_ERR_NOMEM. */

/* MPI_Bcast from rank 0: buf holds count words (M = count, a multiple of log2 N). */
pinet_status pinet_mpi_bcast(void *buf, uint32_t count, pinet_shuffle_elem elem, MPI_Comm comm);

/* MPI_Scatter from rank 0 (the host): sendbuf (rank 0 only) holds N * count words, rank r
 * receives words [r count, (r + 1) count) into recvbuf. M = N * count. */
pinet_status pinet_mpi_scatter(const void *sendbuf, void *recvbuf, uint32_t count,
                               pinet_shuffle_elem elem, MPI_Comm comm);

/* MPI_Reduce_scatter_block with MPI_SUM (the schedules' integration): every rank's sendbuf
 * holds N * count words; rank r receives the sum over ranks of words [r count, (r + 1) count),
 * summed in the network's order (i32 wraps modulo 2^32). M = N * count. */
pinet_status pinet_mpi_reduce_scatter_block(const void *sendbuf, void *recvbuf, uint32_t count,
                                            pinet_shuffle_elem elem, MPI_Comm comm);

/* MPI_Allgather: rank r contributes count words, every rank receives N * count words, rank r's
 * at [r count, (r + 1) count). M = N * count. */
pinet_status pinet_mpi_allgather(const void *sendbuf, void *recvbuf, uint32_t count,
                                 pinet_shuffle_elem elem, MPI_Comm comm);

/* MPI_Gather to rank 0: rank r contributes count words; recvbuf (rank 0 only) receives N * count
 * words, rank r's at [r count, (r + 1) count). M = N * count. */
pinet_status pinet_mpi_gather(const void *sendbuf, void *recvbuf, uint32_t count,
                              pinet_shuffle_elem elem, MPI_Comm comm);

#ifdef __cplusplus
}
#endif

#endif /* PINET_SHUFFLE_MPI_H */
