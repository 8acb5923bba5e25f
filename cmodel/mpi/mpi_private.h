/* mpi_private.h - what libpinet_mpi's files share and do not publish. */
#ifndef PINET_MPI_PRIVATE_H
#define PINET_MPI_PRIVATE_H

#include <mpi.h>

#include "pinet/status.h"

/* Every rank's status to all: the largest code wins (PINET_OK is 0), so that all ranks return
 * the same status and take the same branch afterwards. One MPI_Allreduce of one MPI_INT with
 * MPI_MAX (pinet-mpi's meeting points use the same call, so they match it). */
pinet_status pinet_mpi_agree(pinet_status local, MPI_Comm comm);

#endif /* PINET_MPI_PRIVATE_H */
