/* recon_mpi.c - libpinet_mpi: the parallel reconstructions with one MPI rank per PE
 * (recon_mpi.h). The algorithms are recon_par.c's; this file only supplies the two hooks of a
 * pinet_recon_dist: agree on the status, then run a schedule with pinet_shuffle_mpi_execute or
 * gather a diagnostic to rank 0. */
#include <limits.h>

#include "mpi_private.h"
#include "pinet/recon_mpi.h"
#include "pinet/shuffle_mpi.h"

/* One meeting: every rank's status so far to all. After an agreed failure every later meeting
 * returns it at once, on every rank alike, with no message. */
static pinet_status meet(pinet_recon_mpi *r, pinet_status local) {
  if (r->status != PINET_OK) return r->status;
  r->meetings++;
  r->status = pinet_mpi_agree(local, r->comm);
  return r->status;
}

static pinet_status mpi_step(void *ctx, pinet_status local, const pinet_shuffle_schedule *sched,
                             pinet_shuffle_elem elem, void *pe_mem, void *host_mem) {
  pinet_recon_mpi *r = ctx;
  pinet_status st = meet(r, local);
  if (st != PINET_OK || sched == NULL) return st;
  /* the same status on every rank (shuffle_mpi.h) */
  r->status = pinet_shuffle_mpi_execute(sched, elem, pe_mem, host_mem, r->comm);
  return r->status;
}

static pinet_status mpi_gather(void *ctx, pinet_status local, const void *part, size_t bytes,
                               void *all) {
  pinet_recon_mpi *r = ctx;
  pinet_status st = meet(r, bytes > (size_t)INT_MAX ? PINET_ERR_RANGE : local);
  if (st != PINET_OK) return st;
  if (MPI_Gather(part, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, 0, r->comm) !=
      MPI_SUCCESS) {
    r->status = PINET_ERR_ILLEGAL_STATE;
  }
  return r->status;
}

pinet_status pinet_recon_mpi_dist(pinet_recon_mpi *state, MPI_Comm comm, pinet_recon_dist *dist) {
  if (state == NULL || dist == NULL) return PINET_ERR_NULL;
  int rank = 0;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || rank < 0) return PINET_ERR_ILLEGAL_STATE;
  state->comm = comm;
  state->status = PINET_OK;
  state->meetings = 0;
  dist->pe = (uint32_t)rank;
  dist->ctx = state;
  dist->step = mpi_step;
  dist->gather = mpi_gather;
  return PINET_OK;
}

/* The run's N (the communicator's size, checked alike on every rank) and this rank's hooks. */
static pinet_status comm_setup(MPI_Comm comm, uint32_t *pes, pinet_recon_mpi *state,
                               pinet_recon_dist *dist) {
  int size = 0;
  if (MPI_Comm_size(comm, &size) != MPI_SUCCESS) return PINET_ERR_ILLEGAL_STATE;
  if (size < 1 || size > 64 || (size & (size - 1)) != 0) return PINET_ERR_SIZE;
  *pes = (uint32_t)size;
  return pinet_recon_mpi_dist(state, comm, dist);
}

pinet_status pinet_fbp_mpi(pinet_fbp *p, const float *sino, pinet_recon_arith arith,
                           int frac_bits, float *img, pinet_recon_comm *comm_out,
                           uint64_t *per_pe_work, MPI_Comm comm) {
  uint32_t pes = 0;
  pinet_recon_mpi state;
  pinet_recon_dist dist;
  pinet_status st = comm_setup(comm, &pes, &state, &dist);
  if (st != PINET_OK) return st;
  return pinet_fbp_parallel_dist(p, sino, pes, arith, frac_bits, &dist, img, comm_out,
                                 per_pe_work);
}

pinet_status pinet_em_mpi(const pinet_sysmat *m, const double *counts, uint32_t iters,
                          pinet_em_partition part, pinet_recon_arith arith, double *lambda_out,
                          double *loglik, pinet_recon_comm *comm_out, uint64_t *per_pe_work,
                          MPI_Comm comm) {
  uint32_t pes = 0;
  pinet_recon_mpi state;
  pinet_recon_dist dist;
  pinet_status st = comm_setup(comm, &pes, &state, &dist);
  if (st != PINET_OK) return st;
  return pinet_em_parallel_dist(m, counts, iters, pes, part, arith, &dist, lambda_out, loglik,
                                comm_out, per_pe_work);
}
