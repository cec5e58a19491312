/* SPDX-License-Identifier: BSD-3-Clause */
/* Groups (MPI-3.1 section 6.3): tables of world ranks, their queries and
 * the set operations. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

struct group {
    int32_t *w;
    int n;
    int32_t *where; /* world rank -> index in w, or -1 (built on first lookup) */
};

static struct group *groups; /* handle = index + 2 (0: null, 1: empty) */

static int ngroups;

static MPI_Group group_new(int32_t *w, int n) {
    if (n == 0) { /* every empty group is MPI_GROUP_EMPTY */
        free(w);
        return MPI_GROUP_EMPTY;
    }
    groups = realloc(groups, sizeof *groups * (size_t)(ngroups + 1));
    if (!groups) abort();
    groups[ngroups] = (struct group){w, n, NULL};
    return 2 + ngroups++;
}

static struct group *group_get(MPI_Group g) {
    static struct group empty;
    if (g == MPI_GROUP_EMPTY) return &empty;
    return g >= 2 && g - 2 < ngroups && groups[g - 2].w ? &groups[g - 2] : NULL;
}

MPI_Group api_group_of(const int32_t *world, int n) {
    int32_t *w = xmalloc(sizeof *w * (size_t)(n + 1));
    memcpy(w, world, sizeof *w * (size_t)n);
    return group_new(w, n);
}

const int32_t *api_group_members(MPI_Group group, int *n) {
    struct group *g = group_get(group);
    static const int32_t none[1];
    *n = g ? g->n : 0;
    return g ? (g->w ? g->w : none) : NULL;
}

MPI_Group api_comm_group(MPI_Comm comm) {
    int n;
    int32_t *w = api_comm_members(comm, &n);
    return group_new(w, n);
}

int PMPI_Comm_group(MPI_Comm comm, MPI_Group *group) {
    API_ENTER("MPI_Comm_group");
    int rc = api_check_comm("MPI_Comm_group", comm);
    if (rc == MPI_SUCCESS) *group = api_comm_group(comm);
    API_RETURN(rc);
}

#define GROUP_OR_FAIL(func, g, var)                                                                \
    struct group *var = group_get(g);                                                              \
    if (!var) return api_error(func, MPI_ERR_GROUP, "group %d is not valid", g)

int PMPI_Group_size(MPI_Group g, int *size) {
    GROUP_OR_FAIL("MPI_Group_size", g, gr);
    *size = gr->n;
    return MPI_SUCCESS;
}

/* A member's index: a table by world rank, so that translating ranks costs
 * the same whatever the group's size. */
static int index_of(struct group *g, int32_t world) {
    if (g->n == 0 || world < 0 || world >= simpi_rt->n) return MPI_UNDEFINED;
    if (!g->where) {
        g->where = xmalloc(sizeof *g->where * (size_t)simpi_rt->n);
        memset(g->where, 0xff, sizeof *g->where * (size_t)simpi_rt->n);
        for (int i = g->n - 1; i >= 0; i--)
            g->where[g->w[i]] = i;
    }
    return g->where[world] < 0 ? MPI_UNDEFINED : g->where[world];
}

int PMPI_Group_rank(MPI_Group g, int *rank) {
    GROUP_OR_FAIL("MPI_Group_rank", g, gr);
    *rank = index_of(gr, runtime_rank());
    return MPI_SUCCESS;
}

int PMPI_Group_incl(MPI_Group g, int n, const int ranks[], MPI_Group *out) {
    GROUP_OR_FAIL("MPI_Group_incl", g, gr);
    int32_t *w = xcalloc((size_t)n + 1, sizeof *w);
    for (int i = 0; i < n; i++) {
        if (ranks[i] < 0 || ranks[i] >= gr->n) {
            free(w);
            return api_error("MPI_Group_incl", MPI_ERR_RANK, "rank %d not in the group", ranks[i]);
        }
        w[i] = gr->w[ranks[i]];
    }
    *out = group_new(w, n);
    return MPI_SUCCESS;
}

int PMPI_Group_excl(MPI_Group g, int n, const int ranks[], MPI_Group *out) {
    GROUP_OR_FAIL("MPI_Group_excl", g, gr);
    int32_t *w = xcalloc((size_t)gr->n + 1, sizeof *w);
    int k = 0;
    for (int i = 0; i < gr->n; i++) {
        bool drop = false;
        for (int j = 0; j < n && !drop; j++)
            drop = ranks[j] == i;
        if (!drop) w[k++] = gr->w[i];
    }
    *out = group_new(w, k);
    return MPI_SUCCESS;
}

int PMPI_Group_range_incl(MPI_Group g, int n, int ranges[][3], MPI_Group *out) {
    GROUP_OR_FAIL("MPI_Group_range_incl", g, gr);
    int32_t *w = xcalloc((size_t)gr->n + 1, sizeof *w);
    int k = 0;
    for (int i = 0; i < n; i++) {
        int first = ranges[i][0], last = ranges[i][1], stride = ranges[i][2];
        if (stride == 0) {
            free(w);
            return api_error("MPI_Group_range_incl", MPI_ERR_ARG, "stride 0");
        }
        for (int r = first; stride > 0 ? r <= last : r >= last; r += stride)
            if (r >= 0 && r < gr->n && k < gr->n) w[k++] = gr->w[r];
    }
    *out = group_new(w, k);
    return MPI_SUCCESS;
}

/* The ranks a (first, last, stride) triple names, in its order. */
static int range_ranks(int first, int last, int stride, int size, int *out, int room) {
    int k = 0;
    for (int r = first; stride > 0 ? r <= last : r >= last; r += stride)
        if (r >= 0 && r < size && k < room) out[k++] = r;
    return k;
}

int PMPI_Group_range_excl(MPI_Group g, int n, int ranges[][3], MPI_Group *out) {
    GROUP_OR_FAIL("MPI_Group_range_excl", g, gr);
    int *drop = xcalloc((size_t)gr->n + 1, sizeof *drop),
        *r = xcalloc((size_t)gr->n + 1, sizeof *r);
    for (int i = 0; i < n; i++) {
        if (ranges[i][2] == 0) {
            free(drop);
            free(r);
            return api_error("MPI_Group_range_excl", MPI_ERR_ARG, "stride 0");
        }
        int k = range_ranks(ranges[i][0], ranges[i][1], ranges[i][2], gr->n, r, gr->n);
        for (int j = 0; j < k; j++)
            drop[r[j]] = 1;
    }
    int32_t *w = xcalloc((size_t)gr->n + 1, sizeof *w);
    int k = 0;
    for (int i = 0; i < gr->n; i++)
        if (!drop[i]) w[k++] = gr->w[i];
    free(drop);
    free(r);
    *out = group_new(w, k);
    return MPI_SUCCESS;
}

int PMPI_Group_translate_ranks(MPI_Group a, int n, const int ranks_a[], MPI_Group b,
                               int ranks_b[]) {
    GROUP_OR_FAIL("MPI_Group_translate_ranks", a, ga);
    GROUP_OR_FAIL("MPI_Group_translate_ranks", b, gb);
    for (int i = 0; i < n; i++)
        ranks_b[i] = ranks_a[i] == MPI_PROC_NULL             ? MPI_PROC_NULL
                     : ranks_a[i] >= 0 && ranks_a[i] < ga->n ? index_of(gb, ga->w[ranks_a[i]])
                                                             : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

/* union (mode 0), intersection (1), difference (2), in the order MPI gives */
static int group_setop(const char *func, MPI_Group a, MPI_Group b, int mode, MPI_Group *out) {
    GROUP_OR_FAIL(func, a, ga);
    GROUP_OR_FAIL(func, b, gb);
    int32_t *w = xcalloc((size_t)(ga->n + gb->n) + 1, sizeof *w);
    int k = 0;
    for (int i = 0; i < ga->n; i++) {
        bool in_b = index_of(gb, ga->w[i]) != MPI_UNDEFINED;
        if (mode == 0 || (mode == 1 && in_b) || (mode == 2 && !in_b)) w[k++] = ga->w[i];
    }
    for (int i = 0; mode == 0 && i < gb->n; i++)
        if (index_of(ga, gb->w[i]) == MPI_UNDEFINED) w[k++] = gb->w[i];
    *out = group_new(w, k);
    return MPI_SUCCESS;
}

int PMPI_Group_union(MPI_Group a, MPI_Group b, MPI_Group *out) {
    return group_setop("MPI_Group_union", a, b, 0, out);
}

int PMPI_Group_intersection(MPI_Group a, MPI_Group b, MPI_Group *out) {
    return group_setop("MPI_Group_intersection", a, b, 1, out);
}

int PMPI_Group_difference(MPI_Group a, MPI_Group b, MPI_Group *out) {
    return group_setop("MPI_Group_difference", a, b, 2, out);
}

int PMPI_Group_compare(MPI_Group a, MPI_Group b, int *result) {
    GROUP_OR_FAIL("MPI_Group_compare", a, ga);
    GROUP_OR_FAIL("MPI_Group_compare", b, gb);
    bool order = ga->n == gb->n, set = ga->n == gb->n;
    for (int i = 0; i < ga->n && order; i++)
        order = ga->w[i] == gb->w[i];
    for (int i = 0; i < ga->n && set; i++)
        set = index_of(gb, ga->w[i]) != MPI_UNDEFINED;
    *result = order ? MPI_IDENT : set ? MPI_SIMILAR : MPI_UNEQUAL;
    return MPI_SUCCESS;
}

int PMPI_Group_free(MPI_Group *g) {
    struct group *gr = group_get(*g);
    if (gr && *g != MPI_GROUP_EMPTY) {
        free(gr->w);
        free(gr->where);
        gr->w = NULL;
        gr->where = NULL;
    }
    *g = MPI_GROUP_NULL;
    return MPI_SUCCESS;
}

#pragma weak MPI_Comm_group = PMPI_Comm_group
#pragma weak MPI_Group_size = PMPI_Group_size
#pragma weak MPI_Group_rank = PMPI_Group_rank
#pragma weak MPI_Group_incl = PMPI_Group_incl
#pragma weak MPI_Group_excl = PMPI_Group_excl
#pragma weak MPI_Group_range_incl = PMPI_Group_range_incl
#pragma weak MPI_Group_range_excl = PMPI_Group_range_excl
#pragma weak MPI_Group_translate_ranks = PMPI_Group_translate_ranks
#pragma weak MPI_Group_union = PMPI_Group_union
#pragma weak MPI_Group_intersection = PMPI_Group_intersection
#pragma weak MPI_Group_difference = PMPI_Group_difference
#pragma weak MPI_Group_compare = PMPI_Group_compare
#pragma weak MPI_Group_free = PMPI_Group_free
