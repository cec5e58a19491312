/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators (MPI-3.1 section 6.4): size and rank, duplication, split,
 * creation from groups, comparison, names and info. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

/* The world ranks of a communicator's members (caller frees). */
int32_t *api_comm_members(MPI_Comm comm, int *n) {
    int32_t *local = api_inter_local_members(comm, n);
    if (local) return local; /* an intercommunicator's group is its local group */
    struct sim *s = simpi_rt->sim;
    *n = sim_comm_size(s, runtime_rank(), comm);
    int32_t *w = xcalloc((size_t)*n + 1, sizeof *w);
    for (int i = 0; i < *n; i++)
        w[i] = sim_comm_member(s, runtime_rank(), comm, i);
    return w;
}

int PMPI_Comm_compare(MPI_Comm a, MPI_Comm b, int *result) {
    API_ENTER("MPI_Comm_compare");
    int rc = api_check_comm("MPI_Comm_compare", a);
    if (rc == MPI_SUCCESS) rc = api_check_comm("MPI_Comm_compare", b);
    if (rc != MPI_SUCCESS) API_RETURN(rc);
    struct sim *s = simpi_rt->sim;
    if (sim_comm_context(s, runtime_rank(), a) == sim_comm_context(s, runtime_rank(), b)) {
        *result = MPI_IDENT;
        API_RETURN(MPI_SUCCESS);
    }
    int na, nb;
    int32_t *wa = api_comm_members(a, &na), *wb = api_comm_members(b, &nb);
    bool same_order = na == nb, same_set = na == nb;
    for (int i = 0; i < na && same_order; i++)
        same_order = wa[i] == wb[i];
    for (int i = 0; i < na && same_set; i++) {
        bool found = false;
        for (int j = 0; j < nb && !found; j++)
            found = wa[i] == wb[j];
        same_set = found;
    }
    *result = same_order ? MPI_CONGRUENT : same_set ? MPI_SIMILAR : MPI_UNEQUAL;
    free(wa);
    free(wb);
    API_RETURN(MPI_SUCCESS);
}

/* Communicator names, per rank and communicator id (a small table). */
struct name {
    int32_t rank;
    MPI_Comm comm;
    char text[MPI_MAX_OBJECT_NAME];
};

static struct name *names;

static int nnames;

int PMPI_Comm_set_name(MPI_Comm comm, const char *name) {
    int32_t r = runtime_rank();
    int i = 0;
    while (i < nnames && !(names[i].rank == r && names[i].comm == comm))
        i++;
    if (i == nnames) {
        names = realloc(names, sizeof *names * (size_t)(++nnames));
        if (!names) abort();
        names[i].rank = r;
        names[i].comm = comm;
    }
    strncpy(names[i].text, name, MPI_MAX_OBJECT_NAME - 1);
    names[i].text[MPI_MAX_OBJECT_NAME - 1] = '\0';
    return MPI_SUCCESS;
}

int PMPI_Comm_get_name(MPI_Comm comm, char *name, int *resultlen) {
    int32_t r = runtime_rank();
    const char *found = comm == MPI_COMM_WORLD  ? "MPI_COMM_WORLD"
                        : comm == MPI_COMM_SELF ? "MPI_COMM_SELF"
                                                : "";
    for (int i = 0; i < nnames; i++)
        if (names[i].rank == r && names[i].comm == comm) found = names[i].text;
    *resultlen = (int)strlen(found);
    memcpy(name, found, (size_t)*resultlen + 1);
    return MPI_SUCCESS;
}

/* Ranks may pass different (disjoint) groups (MPI-2.2): the members of each
 * group form a communicator, told apart by the group's lowest world rank,
 * in the group's order. */
int PMPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *newcomm) {
    int n = 0, idx = MPI_UNDEFINED, color = MPI_UNDEFINED;
    const int32_t *w = api_group_members(g, &n);
    for (int i = 0; i < n; i++)
        if (w[i] == runtime_rank()) idx = i;
    if (api_is_inter(comm)) /* g: a subgroup of this side's group; the other side passes its own */
        return PMPI_Comm_split(comm, idx == MPI_UNDEFINED ? MPI_UNDEFINED : 0, idx, newcomm);
    for (int i = 0; idx != MPI_UNDEFINED && i < n; i++)
        if (color == MPI_UNDEFINED || w[i] < color) color = w[i];
    return PMPI_Comm_split(comm, color, idx, newcomm);
}

/* Collective over the group's members only (MPI-3.0). */
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group g, int tag, MPI_Comm *newcomm) {
    API_ENTER("MPI_Comm_create_group");
    int n;
    const int32_t *w = api_group_members(g, &n);
    if (!w) API_RETURN(api_error("MPI_Comm_create_group", MPI_ERR_GROUP, "group %d", g));
    API_RETURN(api_comm_create_group(comm, w, n, tag, newcomm));
}

/* MPI_COMM_TYPE_SHARED: the ranks of this rank's node. */
int PMPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm) {
    (void)info;
    int color = type == MPI_COMM_TYPE_SHARED ? platform_node_of(simpi_rt->plat, runtime_rank())
                                             : MPI_UNDEFINED;
    return PMPI_Comm_split(comm, color, key, newcomm);
}

int PMPI_Comm_size(MPI_Comm comm, int *size) {
    API_ENTER("MPI_Comm_size");
    int rc = api_check_comm("MPI_Comm_size", comm);
    if (rc == MPI_SUCCESS)
        *size = api_is_inter(comm) ? api_inter_local_size(comm)
                                   : sim_comm_size(simpi_rt->sim, runtime_rank(), comm);
    API_RETURN(rc);
}

int PMPI_Comm_rank(MPI_Comm comm, int *rank) {
    API_ENTER("MPI_Comm_rank");
    int rc = api_check_comm("MPI_Comm_rank", comm);
    if (rc == MPI_SUCCESS) *rank = sim_comm_rank(simpi_rt->sim, runtime_rank(), comm);
    API_RETURN(rc);
}

/* Communicator ids are per rank; each rank numbers its new ones from 2. */
MPI_Comm api_comm_new_id(void) {
    static int32_t *next;
    struct runtime *rt = simpi_rt;
    if (!next) next = xcalloc((size_t)rt->n, sizeof *next);
    return 2 + next[rt->current]++;
}

static int split(const char *func, MPI_Comm comm, int color, int key, MPI_Comm *newcomm, bool dup) {
    int rc = api_check_comm(func, comm);
    if (rc != MPI_SUCCESS) return rc;
    if (dup && api_is_inter(comm)) return api_inter_dup(comm, newcomm);
    if (api_is_inter(comm)) {
        if (color < 0 && color != MPI_UNDEFINED)
            return api_error(func, MPI_ERR_ARG, "color %d is negative", color);
        return api_inter_split(comm, color, key, newcomm);
    }
    if (!dup && color < 0 && color != MPI_UNDEFINED)
        return api_error(func, MPI_ERR_ARG, "color %d is negative", color);
    MPI_Comm id = api_comm_new_id();
    struct sim *s = simpi_rt->sim;
    int32_t me = runtime_rank();
    struct request *q =
        dup ? sim_comm_dup(s, me, comm, id)
            : sim_comm_split(s, me, comm, color == MPI_UNDEFINED ? SIM_UNDEFINED : color, key, id);
    runtime_wait(&q, 1, false);
    *newcomm = sim_comm_valid(s, me, id) ? id : MPI_COMM_NULL;
    api_inherit_errhandler(comm, *newcomm);
    if (dup && (rc = api_copy_attrs(comm, id)) != MPI_SUCCESS) {
        *newcomm = MPI_COMM_NULL; /* a copy callback failed: MPI_Comm_dup fails with it */
        return api_error(func, rc, "an attribute copy callback returned error %d", rc);
    }
    return MPI_SUCCESS;
}

MPI_Comm api_comm_dup_private(MPI_Comm comm) {
    MPI_Comm id = api_comm_new_id();
    struct request *q = sim_comm_dup(simpi_rt->sim, runtime_rank(), comm, id);
    runtime_wait(&q, 1, false);
    return id;
}

int api_comm_create_group(MPI_Comm comm, const int32_t *world, int n, int tag, MPI_Comm *newcomm) {
    int rc = api_check_comm("MPI_Comm_create_group", comm);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Comm id = api_comm_new_id();
    struct request *q =
        sim_comm_create_group(simpi_rt->sim, runtime_rank(), comm, world, n, tag, id);
    if (!q) { /* not a member: nothing to join */
        *newcomm = MPI_COMM_NULL;
        return MPI_SUCCESS;
    }
    runtime_wait(&q, 1, false);
    *newcomm = id;
    api_inherit_errhandler(comm, id);
    return MPI_SUCCESS;
}

int PMPI_Comm_dup(MPI_Comm comm, MPI_Comm *newcomm) {
    API_ENTER("MPI_Comm_dup");
    API_RETURN(split("MPI_Comm_dup", comm, 0, 0, newcomm, true));
}

/* The duplicate is made within the call (as MPI_Comm_dup: the members meet
 * there), and the request is complete. A program whose ranks call it at
 * different points of their communication order may deadlock here where a
 * real MPI would progress; simpi then reports the deadlock. */
int PMPI_Comm_idup(MPI_Comm comm, MPI_Comm *newcomm, MPI_Request *request) {
    API_ENTER("MPI_Comm_idup");
    int rc = split("MPI_Comm_idup", comm, 0, 0, newcomm, true);
    if (rc == MPI_SUCCESS) {
        struct simpi_request *q = api_request_new();
        q->active = true;
        *request = q;
    }
    API_RETURN(rc);
}

/* Info hints on communicators: simpi has none to act on, so a
 * communicator's info is always empty (MPI lets an implementation ignore
 * hints it does not use). */
int PMPI_Comm_dup_with_info(MPI_Comm comm, MPI_Info info, MPI_Comm *newcomm) {
    (void)info;
    API_ENTER("MPI_Comm_dup_with_info");
    API_RETURN(split("MPI_Comm_dup_with_info", comm, 0, 0, newcomm, true));
}

int PMPI_Comm_set_info(MPI_Comm comm, MPI_Info info) {
    (void)info;
    API_ENTER("MPI_Comm_set_info");
    API_RETURN(api_check_comm("MPI_Comm_set_info", comm));
}

int PMPI_Comm_get_info(MPI_Comm comm, MPI_Info *info_used) {
    API_ENTER("MPI_Comm_get_info");
    int rc = api_check_comm("MPI_Comm_get_info", comm);
    if (rc == MPI_SUCCESS) rc = PMPI_Info_create(info_used);
    API_RETURN(rc);
}

int api_comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    return split("MPI_Comm_split", comm, color, key, newcomm, false);
}

int PMPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm *newcomm) {
    API_ENTER("MPI_Comm_split");
    API_RETURN(split("MPI_Comm_split", comm, color, key, newcomm, false));
}

int PMPI_Comm_free(MPI_Comm *comm) {
    API_ENTER("MPI_Comm_free");
    int rc = api_check_comm("MPI_Comm_free", *comm);
    if (rc == MPI_SUCCESS && (*comm == MPI_COMM_WORLD || *comm == MPI_COMM_SELF))
        API_RETURN(api_error("MPI_Comm_free", MPI_ERR_COMM, "%s cannot be freed",
                             *comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF"));
    if (rc == MPI_SUCCESS) api_delete_attrs(*comm);
    if (rc == MPI_SUCCESS) api_inter_free(*comm);
    if (rc == MPI_SUCCESS) sim_comm_release(simpi_rt->sim, runtime_rank(), *comm);
    if (rc == MPI_SUCCESS) *comm = MPI_COMM_NULL;
    API_RETURN(rc);
}

#pragma weak MPI_Comm_create_group = PMPI_Comm_create_group
#pragma weak MPI_Comm_idup = PMPI_Comm_idup
#pragma weak MPI_Comm_compare = PMPI_Comm_compare
#pragma weak MPI_Comm_set_name = PMPI_Comm_set_name
#pragma weak MPI_Comm_get_name = PMPI_Comm_get_name
#pragma weak MPI_Comm_create = PMPI_Comm_create
#pragma weak MPI_Comm_split_type = PMPI_Comm_split_type
#pragma weak MPI_Comm_dup_with_info = PMPI_Comm_dup_with_info
#pragma weak MPI_Comm_set_info = PMPI_Comm_set_info
#pragma weak MPI_Comm_get_info = PMPI_Comm_get_info
#pragma weak MPI_Comm_size = PMPI_Comm_size
#pragma weak MPI_Comm_rank = PMPI_Comm_rank
#pragma weak MPI_Comm_dup = PMPI_Comm_dup
#pragma weak MPI_Comm_split = PMPI_Comm_split
#pragma weak MPI_Comm_free = PMPI_Comm_free
