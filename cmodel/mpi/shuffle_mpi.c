/* shuffle_mpi.c - libpinet_mpi: the shuffle schedules with one MPI rank per PE (shuffle_mpi.h).
 * Only the public schedule API is used: the same finished schedule as pinet_shuffle_execute,
 * executed step by step with point-to-point messages between each transfer's two ends. */
#include <stdlib.h>
#include <string.h>

#include "mpi_private.h"
#include "pinet/shuffle_mpi.h"

/* The rank holding a schedule endpoint: PE r is rank r, the host (-1) is on rank 0. */
static int rank_of(int32_t pe) { return pe < 0 ? 0 : (int)pe; }

pinet_status pinet_mpi_agree(pinet_status local, MPI_Comm comm) {
  int mine = (int)local, all = 0;
  if (MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_MAX, comm) != MPI_SUCCESS) {
    return PINET_ERR_ILLEGAL_STATE;
  }
  return (pinet_status)all;
}

/* Every rank's value of `v` equal? (one MPI_Allreduce of {v, -v} with MPI_MAX) */
static int same_everywhere(int64_t v, MPI_Comm comm, int *same) {
  int64_t mine[2] = {v, -v}, all[2] = {0, 0};
  if (MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_MAX, comm) != MPI_SUCCESS) return 0;
  *same = all[0] == v && -all[1] == v;
  return 1;
}

pinet_status pinet_shuffle_mpi_execute(const pinet_shuffle_schedule *sched,
                                       pinet_shuffle_elem elem, void *mem, void *host_mem,
                                       MPI_Comm comm) {
  int rank = 0, size = 0;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS) {
    return PINET_ERR_ILLEGAL_STATE;
  }
  const size_t esize = pinet_shuffle_elem_size(elem);
  const uint32_t steps = pinet_shuffle_schedule_step_count(sched);
  pinet_status st = PINET_OK;
  if (sched == NULL || mem == NULL ||
      (rank == 0 && pinet_shuffle_schedule_host_words(sched) > 0 && host_mem == NULL)) {
    st = PINET_ERR_NULL;
  } else if (esize == 0) {
    st = PINET_ERR_RANGE;
  } else if (steps == 0) {
    st = PINET_ERR_ILLEGAL_STATE; /* a finished schedule has at least one step */
  } else if (pinet_shuffle_schedule_pes(sched) != (uint32_t)size) {
    st = PINET_ERR_SIZE;
  } else if (pinet_shuffle_schedule_cut_through(sched)) {
    /* a round moves a whole step: a cut-through relay would send words not received yet */
    st = PINET_ERR_ILLEGAL_STATE;
  }
  /* The largest send and receive volume of any step on this rank, and its message count. */
  size_t send_max = 0, recv_max = 0, msg_max = 0;
  for (uint32_t s = 0; st == PINET_OK && s < steps; s++) {
    const pinet_shuffle_transfer *t = NULL;
    size_t nt = 0;
    if (pinet_shuffle_schedule_step(sched, s, &t, &nt) != PINET_OK) {
      st = PINET_ERR_ILLEGAL_STATE;
      break;
    }
    size_t sw = 0, rw = 0, msgs = 0;
    for (size_t i = 0; i < nt; i++) {
      const int from = rank_of(t[i].src), to = rank_of(t[i].dst);
      if (from == rank && to != rank) { sw += t[i].words; msgs++; }
      if (to == rank) { rw += t[i].words; msgs += from != rank; }
    }
    send_max = sw > send_max ? sw : send_max;
    recv_max = rw > recv_max ? rw : recv_max;
    msg_max = msgs > msg_max ? msgs : msg_max;
  }
  /* What each rank sees alone, then the ranks must run one schedule: compare its shape
   * everywhere before the first message. */
  st = pinet_mpi_agree(st, comm);
  if (st != PINET_OK) return st;
  int s1 = 1, s2 = 1, s3 = 1;
  if (!same_everywhere(pinet_shuffle_schedule_words(sched), comm, &s1) ||
      !same_everywhere(steps, comm, &s2) || !same_everywhere((int64_t)elem, comm, &s3)) {
    return PINET_ERR_ILLEGAL_STATE;
  }
  if (!(s1 && s2 && s3)) return PINET_ERR_MISMATCH; /* the same answer on every rank */
  unsigned char *send = malloc((send_max ? send_max : 1) * esize);
  unsigned char *recv = malloc((recv_max ? recv_max : 1) * esize);
  MPI_Request *req = malloc((msg_max ? msg_max : 1) * sizeof *req);
  st = pinet_mpi_agree(send == NULL || recv == NULL || req == NULL ? PINET_ERR_NOMEM : PINET_OK,
                       comm);
  for (uint32_t s = 0; st == PINET_OK && s < steps; s++) {
    const pinet_shuffle_transfer *t = NULL;
    size_t nt = 0;
    (void)pinet_shuffle_schedule_step(sched, s, &t, &nt);
    /* 1. every source word as it is before the step: staged for sending, or copied straight
     *    into the receive area when both ends are on this rank (self-loops, host <-> PE 0). */
    size_t spos = 0, rpos = 0;
    int nreq = 0;
    for (size_t i = 0; i < nt; i++) {
      const int from = rank_of(t[i].src), to = rank_of(t[i].dst);
      const size_t bytes = (size_t)t[i].words * esize;
      const unsigned char *src = (const unsigned char *)(t[i].src < 0 ? host_mem : mem) +
                                 (size_t)t[i].src_offset * esize;
      if (to == rank) {
        if (from == rank) {
          memcpy(recv + rpos * esize, src, bytes);
        } else if (MPI_Irecv(recv + rpos * esize, (int)bytes, MPI_BYTE, from, (int)i, comm,
                             &req[nreq++]) != MPI_SUCCESS) {
          st = PINET_ERR_ILLEGAL_STATE;
        }
        rpos += t[i].words;
      } else if (from == rank) {
        memcpy(send + spos * esize, src, bytes);
        if (MPI_Isend(send + spos * esize, (int)bytes, MPI_BYTE, to, (int)i, comm,
                      &req[nreq++]) != MPI_SUCCESS) {
          st = PINET_ERR_ILLEGAL_STATE;
        }
        spos += t[i].words;
      }
    }
    if (MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE) != MPI_SUCCESS) st = PINET_ERR_ILLEGAL_STATE;
    /* 2. COPY writes, 3. ADD combines, each in schedule order, applied as the engine applies
     *    them (pinet_shuffle_apply). */
    for (int pass = 0; st == PINET_OK && pass < 2; pass++) {
      const pinet_shuffle_combine want = pass == 0 ? PINET_SHUFFLE_COPY : PINET_SHUFFLE_ADD;
      rpos = 0;
      for (size_t i = 0; i < nt; i++) {
        if (rank_of(t[i].dst) != rank) continue;
        if (t[i].combine == want) {
          unsigned char *dst = (unsigned char *)(t[i].dst < 0 ? host_mem : mem) +
                               (size_t)t[i].dst_offset * esize;
          (void)pinet_shuffle_apply(elem, want, dst, recv + rpos * esize, t[i].words);
        }
        rpos += t[i].words;
      }
    }
  }
  free(send);
  free(recv);
  free(req);
  return st;
}

/* ---- the collectives ------------------------------------------------------------------------ */

/* Where a collective's buffers meet the schedule's memories on this rank. */
typedef struct {
  const void *pe_in;   /* this PE's input region (see pinet_shuffle_schedule_input_region) */
  const void *host_in; /* rank 0: the host's input region */
  void *pe_out;        /* this PE's output region */
} coll_bufs;

static pinet_status run_collective(pinet_shuffle_op op, uint32_t count, pinet_shuffle_elem elem,
                                   const coll_bufs *b, MPI_Comm comm) {
  int rank = 0, size = 0;
  if (MPI_Comm_rank(comm, &rank) != MPI_SUCCESS || MPI_Comm_size(comm, &size) != MPI_SUCCESS) {
    return PINET_ERR_ILLEGAL_STATE;
  }
  const size_t esize = pinet_shuffle_elem_size(elem);
  /* 1. what every rank sees alone: the communicator's size is the same everywhere */
  uint32_t log2n = 0;
  if (size != 1 && pinet_shuffle_log2((uint32_t)size, &log2n) != PINET_OK) return PINET_ERR_SIZE;
  pinet_status st = PINET_OK;
  if (esize == 0) st = PINET_ERR_RANGE;
  else if (count == 0) st = PINET_ERR_RANGE;
  /* 2. count and type agreed by all */
  int same_count = 1, same_elem = 1;
  if (!same_everywhere(count, comm, &same_count) ||
      !same_everywhere((int64_t)elem, comm, &same_elem)) {
    return PINET_ERR_ILLEGAL_STATE;
  }
  if (st == PINET_OK && (!same_count || !same_elem)) st = PINET_ERR_MISMATCH;
  st = pinet_mpi_agree(st, comm);
  if (st != PINET_OK) return st;
  const uint64_t M64 = op == PINET_SHUFFLE_OP_BCAST ? count : (uint64_t)count * (uint32_t)size;
  if (M64 > PINET_SHUFFLE_MAX_WORDS) return PINET_ERR_RANGE;
  const uint32_t M = (uint32_t)M64;
  if (size == 1) { /* one PE: the collective is a copy */
    const void *in = b->pe_in != NULL ? b->pe_in : b->host_in;
    if (b->pe_out != NULL && in != NULL && b->pe_out != in) memcpy(b->pe_out, in, M * esize);
    return PINET_OK;
  }
  /* 3. the schedule (the same everywhere: same op, N, M) and this rank's memories */
  pinet_shuffle_schedule *s = NULL;
  st = pinet_shuffle_build(&s, op, (uint32_t)size, M);
  if (st != PINET_OK) return st; /* identical on every rank */
  const uint32_t host_words = pinet_shuffle_schedule_host_words(s);
  unsigned char *mem = calloc(M, esize);
  unsigned char *host = rank == 0 && host_words > 0 ? calloc(host_words, esize) : NULL;
  if (mem == NULL || (rank == 0 && host_words > 0 && host == NULL)) st = PINET_ERR_NOMEM;
  uint32_t off = 0, words = 0;
  if (st == PINET_OK) {
    (void)pinet_shuffle_schedule_input_region(s, rank, &off, &words);
    if (words > 0 && b->pe_in == NULL) st = PINET_ERR_NULL;
    else if (words > 0) memcpy(mem + (size_t)off * esize, b->pe_in, (size_t)words * esize);
  }
  if (st == PINET_OK && rank == 0 && host_words > 0) {
    (void)pinet_shuffle_schedule_input_region(s, PINET_SHUFFLE_HOST, &off, &words);
    if (words > 0 && b->host_in == NULL) st = PINET_ERR_NULL;
    else if (words > 0) memcpy(host + (size_t)off * esize, b->host_in, (size_t)words * esize);
  }
  if (st == PINET_OK) {
    (void)pinet_shuffle_schedule_output_region(s, rank, &off, &words);
    if (words > 0 && b->pe_out == NULL) st = PINET_ERR_NULL;
  }
  st = pinet_mpi_agree(st, comm);
  if (st == PINET_OK) st = pinet_shuffle_mpi_execute(s, elem, mem, host, comm);
  if (st == PINET_OK && words > 0) {
    memcpy(b->pe_out, mem + (size_t)off * esize, (size_t)words * esize);
  }
  free(mem);
  free(host);
  pinet_shuffle_schedule_free(s);
  return st;
}

pinet_status pinet_mpi_bcast(void *buf, uint32_t count, pinet_shuffle_elem elem, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  coll_bufs b = {rank == 0 ? buf : NULL, NULL, buf};
  return run_collective(PINET_SHUFFLE_OP_BCAST, count, elem, &b, comm);
}

pinet_status pinet_mpi_scatter(const void *sendbuf, void *recvbuf, uint32_t count,
                               pinet_shuffle_elem elem, MPI_Comm comm) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  /* One rank: the host's words are the PE's (run_collective copies host_in). */
  coll_bufs b = {NULL, rank == 0 ? sendbuf : NULL, recvbuf};
  return run_collective(PINET_SHUFFLE_OP_SCATTER, count, elem, &b, comm);
}

pinet_status pinet_mpi_reduce_scatter_block(const void *sendbuf, void *recvbuf, uint32_t count,
                                            pinet_shuffle_elem elem, MPI_Comm comm) {
  coll_bufs b = {sendbuf, NULL, recvbuf};
  return run_collective(PINET_SHUFFLE_OP_INTEGRATE, count, elem, &b, comm);
}

pinet_status pinet_mpi_allgather(const void *sendbuf, void *recvbuf, uint32_t count,
                                 pinet_shuffle_elem elem, MPI_Comm comm) {
  coll_bufs b = {sendbuf, NULL, recvbuf};
  return run_collective(PINET_SHUFFLE_OP_ALLGATHER, count, elem, &b, comm);
}

pinet_status pinet_mpi_gather(const void *sendbuf, void *recvbuf, uint32_t count,
                              pinet_shuffle_elem elem, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  coll_bufs b = {sendbuf, NULL, rank == 0 ? recvbuf : NULL};
  return run_collective(PINET_SHUFFLE_OP_GATHER, count, elem, &b, comm);
}
