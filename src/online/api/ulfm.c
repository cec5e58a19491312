/* SPDX-License-Identifier: BSD-3-Clause */
/* ULFM, the fault-tolerance extension of MPI as MPICH and Open MPI ship it
 * (docs/faults.md): the error classes MPIX_ERR_PROC_FAILED and
 * MPIX_ERR_REVOKED, and MPIX_Comm_revoke, _is_revoked, _shrink, _agree,
 * _failure_ack, _failure_get_acked, and Open MPI 5's _get_failed,
 * _ack_failed, _ishrink and _iagree (the last two complete within the
 * call: their request is done). Which ranks failed comes from the MPI
 * layer (a node's crash, sim_rank_failed); revocation is kept here, by the
 * communicator's context, for every member. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

static uint32_t *revoked; /* contexts of revoked communicators */
static int nrevoked;

/* Acknowledged failures, per (rank, communicator context): the failed
 * members' world ranks when the rank last called MPIX_Comm_failure_ack. */
struct acked {
    int32_t rank;
    uint32_t ctx;
    int32_t *world, n;
};
static struct acked *acks;
static int nacks;

static uint32_t context_of(MPI_Comm comm) {
    return sim_comm_context(simpi_rt->sim, runtime_rank(), comm);
}

bool api_comm_revoked(MPI_Comm comm) {
    if (!nrevoked) return false;
    uint32_t ctx = context_of(comm);
    for (int i = 0; i < nrevoked; i++)
        if (revoked[i] == ctx) return true;
    return false;
}

int api_check_failures(const char *func, MPI_Comm comm) {
    if (!nrevoked || !strncmp(func, "MPIX_", 5) || !strncmp(func, "MPI_Comm_", 9))
        return MPI_SUCCESS; /* ULFM's own calls and the communicator's management go on */
    if (api_comm_revoked(comm))
        return api_error(func, MPIX_ERR_REVOKED, "the communicator was revoked (MPIX_Comm_revoke)");
    return MPI_SUCCESS;
}

/* The world ranks of comm's members, failed (want_failed) or alive. */
static int32_t *members(MPI_Comm comm, bool want_failed, int *count) {
    int n;
    int32_t *w = api_comm_members(comm, &n);
    *count = 0;
    for (int i = 0; i < n; i++)
        if (sim_rank_failed(simpi_rt->sim, w[i]) == want_failed) w[(*count)++] = w[i];
    return w;
}

int PMPIX_Comm_revoke(MPI_Comm comm) {
    API_ENTER("MPIX_Comm_revoke");
    int rc = api_check_comm("MPIX_Comm_revoke", comm);
    if (rc == MPI_SUCCESS && !api_comm_revoked(comm)) {
        revoked = xrealloc_or_die(revoked, sizeof *revoked * (size_t)(nrevoked + 1));
        revoked[nrevoked++] = context_of(comm);
    }
    API_RETURN(rc);
}

int PMPIX_Comm_is_revoked(MPI_Comm comm, int *flag) {
    API_ENTER("MPIX_Comm_is_revoked");
    int rc = api_check_comm("MPIX_Comm_is_revoked", comm);
    if (rc == MPI_SUCCESS) *flag = api_comm_revoked(comm);
    API_RETURN(rc);
}

/* A communicator of the members alive now, made by them (the members'
 * views agree: failures are known to every rank at once). */
int PMPIX_Comm_shrink(MPI_Comm comm, MPI_Comm *newcomm) {
    API_ENTER("MPIX_Comm_shrink");
    int rc = api_check_comm("MPIX_Comm_shrink", comm);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    int n;
    int32_t *alive = members(comm, false, &n);
    rc = api_comm_create_group(comm, alive, n, -7001, newcomm);
    free(alive);
    API_RETURN(rc);
}

static struct acked *acked_of(MPI_Comm comm) {
    int32_t me = runtime_rank();
    uint32_t ctx = context_of(comm);
    for (int i = 0; i < nacks; i++)
        if (acks[i].rank == me && acks[i].ctx == ctx) return &acks[i];
    acks = xrealloc_or_die(acks, sizeof *acks * (size_t)(nacks + 1));
    acks[nacks] = (struct acked){me, ctx, NULL, 0};
    return &acks[nacks++];
}

int PMPIX_Comm_failure_ack(MPI_Comm comm) {
    API_ENTER("MPIX_Comm_failure_ack");
    int rc = api_check_comm("MPIX_Comm_failure_ack", comm);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    struct acked *a = acked_of(comm);
    free(a->world);
    a->world = members(comm, true, &a->n);
    API_RETURN(MPI_SUCCESS);
}

int PMPIX_Comm_failure_get_acked(MPI_Comm comm, MPI_Group *failedgrp) {
    API_ENTER("MPIX_Comm_failure_get_acked");
    int rc = api_check_comm("MPIX_Comm_failure_get_acked", comm);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    struct acked *a = acked_of(comm);
    *failedgrp = a->n ? api_group_of(a->world, a->n) : MPI_GROUP_EMPTY;
    API_RETURN(MPI_SUCCESS);
}

/* The bitwise AND of the flags of the members alive, which all get it;
 * MPIX_ERR_PROC_FAILED when a member failed that this rank has not
 * acknowledged (the flag is computed all the same). */
int PMPIX_Comm_agree(MPI_Comm comm, int *flag) {
    API_ENTER("MPIX_Comm_agree");
    int rc = api_check_comm("MPIX_Comm_agree", comm);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    int n, nfailed;
    int32_t *alive = members(comm, false, &n), *failed = members(comm, true, &nfailed);
    MPI_Comm tmp;
    rc = api_comm_create_group(comm, alive, n, -7002, &tmp);
    if (rc == MPI_SUCCESS) {
        PMPI_Allreduce(MPI_IN_PLACE, flag, 1, MPI_INT, MPI_BAND, tmp);
        PMPI_Comm_free(&tmp);
    }
    free(alive);
    free(failed);
    if (rc == MPI_SUCCESS && nfailed > acked_of(comm)->n)
        rc = api_error("MPIX_Comm_agree", MPIX_ERR_PROC_FAILED,
                       "%d member%s failed that this rank has not acknowledged "
                       "(MPIX_Comm_failure_ack)",
                       nfailed - acked_of(comm)->n, nfailed - acked_of(comm)->n == 1 ? "" : "s");
    API_RETURN(rc);
}

/* The failed members known now (Open MPI 5's and MPICH 4's form). */
int PMPIX_Comm_get_failed(MPI_Comm comm, MPI_Group *failedgrp) {
    API_ENTER("MPIX_Comm_get_failed");
    int rc = api_check_comm("MPIX_Comm_get_failed", comm);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    int n;
    int32_t *failed = members(comm, true, &n);
    *failedgrp = n ? api_group_of(failed, n) : MPI_GROUP_EMPTY;
    free(failed);
    API_RETURN(MPI_SUCCESS);
}

/* Acknowledges the first num_to_ack failed members (in the order of
 * MPIX_Comm_get_failed); *num_acked: how many are acknowledged now. */
int PMPIX_Comm_ack_failed(MPI_Comm comm, int num_to_ack, int *num_acked) {
    API_ENTER("MPIX_Comm_ack_failed");
    int rc = api_check_comm("MPIX_Comm_ack_failed", comm);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    struct acked *a = acked_of(comm);
    int n;
    int32_t *failed = members(comm, true, &n);
    if (num_to_ack > n) num_to_ack = n;
    if (num_to_ack > a->n) {
        free(a->world);
        a->world = failed;
        a->n = num_to_ack;
        failed = NULL;
    }
    free(failed);
    *num_acked = a->n;
    API_RETURN(MPI_SUCCESS);
}

/* A request already complete, for the non-blocking forms done in the call. */
static void done_request(MPI_Request *req) {
    struct simpi_request *w = api_request_new();
    w->active = true;
    *req = w;
}

int PMPIX_Comm_ishrink(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *req) {
    int rc = PMPIX_Comm_shrink(comm, newcomm);
    if (rc == MPI_SUCCESS) done_request(req);
    return rc;
}

int PMPIX_Comm_iagree(MPI_Comm comm, int *flags, MPI_Request *req) {
    int rc = PMPIX_Comm_agree(comm, flags);
    done_request(req);
    return rc;
}

#pragma weak MPIX_Comm_get_failed = PMPIX_Comm_get_failed
#pragma weak MPIX_Comm_ack_failed = PMPIX_Comm_ack_failed
#pragma weak MPIX_Comm_ishrink = PMPIX_Comm_ishrink
#pragma weak MPIX_Comm_iagree = PMPIX_Comm_iagree
#pragma weak MPIX_Comm_revoke = PMPIX_Comm_revoke
#pragma weak MPIX_Comm_is_revoked = PMPIX_Comm_is_revoked
#pragma weak MPIX_Comm_shrink = PMPIX_Comm_shrink
#pragma weak MPIX_Comm_failure_ack = PMPIX_Comm_failure_ack
#pragma weak MPIX_Comm_failure_get_acked = PMPIX_Comm_failure_get_acked
#pragma weak MPIX_Comm_agree = PMPIX_Comm_agree
