/* SPDX-License-Identifier: BSD-3-Clause */
/* mpi-ext.h: where Open MPI's users include its extensions. simpi's one
 * extension is ULFM, the fault-tolerance interface (MPIX_Comm_revoke,
 * MPIX_Comm_shrink, MPIX_Comm_agree, MPIX_Comm_failure_ack,
 * MPIX_Comm_failure_get_acked, MPIX_ERR_PROC_FAILED, MPIX_ERR_REVOKED),
 * declared in mpi.h as MPICH declares it; this header says it is there as
 * Open MPI's does (docs/faults.md). */
#ifndef SIMPI_MPI_EXT_H
#define SIMPI_MPI_EXT_H

#include <mpi.h>

#define OMPI_HAVE_MPI_EXT_FTMPI 1
#define MPIX_HAVE_FT 1

#endif
