/* recon_mpi.h - the parallel FBP and EM of pinet/recon.h with one MPI rank per PE (libpinet_mpi,
 * docs/mpi.md).
 *
 * Rank r of the communicator is PE r and holds only that PE's memories; rank 0 is also the host
 * (it holds the sinogram to scatter and receives the image). Every rank makes the same call with
 * the same arguments. The schedules are pinet_shuffle_mpi_execute's (messages only along the de
 * Bruijn links), the local kernels the same as in pinet_fbp_parallel / pinet_em_parallel, so the
 * image on rank 0 is bit for bit the simulated parallel run's on N = communicator-size PEs.
 * The EM log-likelihood (a host-side diagnostic, not part of the algorithm) is gathered to rank 0
 * with MPI_Gather, outside the schedules, as the simulation reads it outside them.
 *
 * Failures: a rank that fails (e.g. an allocation) tells the others at the next meeting point,
 * an MPI_Allreduce before each schedule, and every rank returns the same status; no rank waits
 * for a message that will not come. */
#ifndef PINET_RECON_MPI_H
#define PINET_RECON_MPI_H

#include <mpi.h>
#include <stdint.h>

#include "pinet/recon.h"
#include "pinet/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The state behind a pinet_recon_dist on MPI ranks (for pinet_fbp_parallel_dist and
 * pinet_em_parallel_dist, e.g. from a program that drives them itself, as pinet-mpi does). */
typedef struct pinet_recon_mpi {
  MPI_Comm comm;
  pinet_status status; /* the agreed status so far: after a failure, no more messages */
  uint32_t meetings;   /* agreements this rank has taken part in */
} pinet_recon_mpi;

/* Fill state and dist for this rank of comm (dist->pe = the rank; dist->ctx = state, which must
 * outlive dist's use). Purely local: PINET_ERR_NULL, PINET_ERR_ILLEGAL_STATE if MPI cannot tell
 * the rank. */
pinet_status pinet_recon_mpi_dist(pinet_recon_mpi *state, MPI_Comm comm, pinet_recon_dist *dist);

/* pinet_fbp_parallel on the ranks of comm (N = its size, a power of two in 1 .. 64, else
 * PINET_ERR_SIZE on every rank). img is written on rank 0 only; comm_out and per_pe_work (may be
 * NULL) on every rank, the same. Errors: as pinet_fbp_parallel, the same on every rank. */
pinet_status pinet_fbp_mpi(pinet_fbp *p, const float *sino, pinet_recon_arith arith,
                           int frac_bits, float *img, pinet_recon_comm *comm_out,
                           uint64_t *per_pe_work, MPI_Comm comm);

/* pinet_em_parallel on the ranks of comm likewise: lambda_out and loglik (may be NULL, on every
 * rank alike) written on rank 0 only. */
pinet_status pinet_em_mpi(const pinet_sysmat *m, const double *counts, uint32_t iters,
                          pinet_em_partition part, pinet_recon_arith arith, double *lambda_out,
                          double *loglik, pinet_recon_comm *comm_out, uint64_t *per_pe_work,
                          MPI_Comm comm);

#ifdef __cplusplus
}
#endif

#endif /* PINET_RECON_MPI_H */
