/* MPI entry points beyond the core: persistent requests, more completion
 * calls, user-defined operations, communicator queries and attributes,
 * groups and group-based communicator creation. */
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "online/api.h"

/* --- persistent requests --- */

#define INIT_FN(NAME, MODE)                                                                        \
    int P##NAME(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,   \
                MPI_Request *request) {                                                            \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(                                                                                \
            api_make_persistent(#NAME, buf, count, type, dest, tag, comm, MODE, false, request));  \
    }

INIT_FN(MPI_Send_init, SEND_STANDARD)
INIT_FN(MPI_Ssend_init, SEND_SYNC)
INIT_FN(MPI_Bsend_init, SEND_BUFFERED)
INIT_FN(MPI_Rsend_init, SEND_READY)

int PMPI_Recv_init(void *buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                   MPI_Request *request) {
    API_ENTER("MPI_Recv_init");
    API_RETURN(api_make_persistent("MPI_Recv_init", buf, count, type, source, tag, comm, 0, true,
                                   request));
}

int PMPI_Start(MPI_Request *request) {
    API_ENTER("MPI_Start");
    struct simpi_request *q = *request;
    if (!q || !q->persistent || q->active)
        API_RETURN(api_error("MPI_Start", MPI_ERR_REQUEST, "not an inactive persistent request"));
    api_start(q);
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Startall(int count, MPI_Request requests[]) {
    for (int i = 0; i < count; i++) {
        int rc = PMPI_Start(&requests[i]);
        if (rc != MPI_SUCCESS) return rc;
    }
    return MPI_SUCCESS;
}

int PMPI_Request_free(MPI_Request *request) {
    API_ENTER("MPI_Request_free");
    struct simpi_request *q = *request;
    if (q && q->active && q->r) runtime_wait(&q->r, 1, false); /* let it complete first */
    if (q) api_request_free(q);
    *request = MPI_REQUEST_NULL;
    API_RETURN(MPI_SUCCESS);
}

/* --- more completion calls, built on Test and Wait --- */

/* The first completed of the active requests, if any. */
static int test_any(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
    *index = MPI_UNDEFINED;
    *flag = 1; /* true when no request is active */
    for (int i = 0; i < count; i++) {
        if (!requests[i] || !requests[i]->active) continue;
        *flag = 0;
        int done = 0, rc = api_test_one(&requests[i], &done, status);
        if (rc != MPI_SUCCESS) return rc;
        if (done) {
            *index = i;
            *flag = 1;
            return MPI_SUCCESS;
        }
    }
    if (!*flag) api_poll_charge();
    if (*flag) api_empty_status(status); /* no active request */
    return MPI_SUCCESS;
}

int PMPI_Testany(int count, MPI_Request requests[], int *index, int *flag, MPI_Status *status) {
    API_ENTER("MPI_Testany");
    API_RETURN(test_any(count, requests, index, flag, status));
}

int PMPI_Testsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status statuses[]) {
    API_ENTER("MPI_Testsome");
    int n = 0, active = 0;
    for (int i = 0; i < incount; i++) {
        if (!requests[i] || !requests[i]->active) continue;
        active++;
        int done = 0;
        MPI_Status *st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[n];
        api_test_one(&requests[i], &done, st);
        if (done) indices[n++] = i;
    }
    if (active && n == 0) api_poll_charge();
    *outcount = active ? n : MPI_UNDEFINED;
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Waitsome(int incount, MPI_Request requests[], int *outcount, int indices[],
                  MPI_Status statuses[]) {
    int index;
    MPI_Status *first = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[0];
    int rc = PMPI_Waitany(incount, requests, &index, first);
    if (rc != MPI_SUCCESS || index == MPI_UNDEFINED) {
        *outcount = MPI_UNDEFINED;
        return rc;
    }
    indices[0] = index;
    int more = 0;
    PMPI_Testsome(incount, requests, &more, indices + 1,
                  statuses == MPI_STATUSES_IGNORE ? MPI_STATUSES_IGNORE : statuses + 1);
    *outcount = 1 + (more == MPI_UNDEFINED ? 0 : more);
    return MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request request, int *flag, MPI_Status *status) {
    API_ENTER("MPI_Request_get_status");
    struct simpi_request *q = request;
    *flag = !q || !q->active || !q->r || sim_request_done(simpi_rt->sim, q->r);
    if (*flag && q && q->active)
        api_fill_status(status, q);
    else if (*flag)
        api_empty_status(status);
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Cancel(MPI_Request *request) {
    API_ENTER("MPI_Cancel");
    struct simpi_request *q = *request;
    if (q && q->active && q->greq)
        api_greq_cancel(q);
    else if (q && q->active && q->r && !q->stage)
        q->cancelled = sim_cancel(simpi_rt->sim, runtime_rank(), q->r);
    API_RETURN(MPI_SUCCESS);
}

int PMPI_Test_cancelled(const MPI_Status *status, int *flag) {
    *flag = status->simpi_cancelled;
    return MPI_SUCCESS;
}

/* --- user-defined operations --- */

int PMPI_Op_create(MPI_User_function *fn, int commute, MPI_Op *op) {
    *op = op_register((user_op_fn)fn, commute != 0);
    return MPI_SUCCESS;
}

int PMPI_Op_free(MPI_Op *op) {
    if (!op_free(*op))
        return api_error("MPI_Op_free", MPI_ERR_OP, "op %d is not user-defined", *op);
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int PMPI_Op_commutative(MPI_Op op, int *commute) {
    if (!op_valid(op)) return api_error("MPI_Op_commutative", MPI_ERR_OP, "op %d is not valid", op);
    *commute = op_commutes(op);
    return MPI_SUCCESS;
}

/* --- communicator queries and attributes --- */

/* The world ranks of a communicator's members (caller frees). */
static int32_t *members(MPI_Comm comm, int *n) {
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
    int32_t *wa = members(a, &na), *wb = members(b, &nb);
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

int PMPI_Comm_test_inter(MPI_Comm comm, int *flag) {
    (void)comm;
    *flag = 0;
    return MPI_SUCCESS;
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

/* Predefined attributes, then the user's (api_user_attr). */
bool api_user_attr(MPI_Comm comm, int keyval, void **value);

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag) {
    static int tag_ub = 0x7fffffff, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE, wtime_global = 1;
    static int universe, lastused;
    universe = simpi_rt ? simpi_rt->n : 1;
    lastused = api_last_used_code();
    if (api_user_attr(comm, keyval, (void **)value)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    int *v = keyval == MPI_TAG_UB            ? &tag_ub
             : keyval == MPI_HOST            ? &host
             : keyval == MPI_IO              ? &io
             : keyval == MPI_WTIME_IS_GLOBAL ? &wtime_global
             : keyval == MPI_UNIVERSE_SIZE   ? &universe
             : keyval == MPI_LASTUSEDCODE    ? &lastused
                                             : NULL; /* MPI_APPNUM: not set */
    *flag = v != NULL;
    if (v) *(int **)value = v;
    return MPI_SUCCESS;
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag) {
    return PMPI_Comm_get_attr(comm, keyval, value, flag);
}

/* --- groups: tables of world ranks --- */

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

const int32_t *api_group_members(MPI_Group group, int *n) {
    struct group *g = group_get(group);
    static const int32_t none[1];
    *n = g ? g->n : 0;
    return g ? (g->w ? g->w : none) : NULL;
}

MPI_Group api_comm_group(MPI_Comm comm) {
    int n;
    int32_t *w = members(comm, &n);
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

/* Comm_create: a split in which members of the group take color 0, ordered
 * by their rank in the group. */
/* Ranks may pass different (disjoint) groups (MPI-2.2): the members of each
 * group form a communicator, told apart by the group's lowest world rank,
 * in the group's order. */
int PMPI_Comm_create(MPI_Comm comm, MPI_Group g, MPI_Comm *newcomm) {
    struct group *gr = group_get(g);
    int idx = gr ? index_of(gr, runtime_rank()) : MPI_UNDEFINED, color = MPI_UNDEFINED;
    for (int i = 0; idx != MPI_UNDEFINED && i < gr->n; i++)
        if (color == MPI_UNDEFINED || gr->w[i] < color) color = gr->w[i];
    return PMPI_Comm_split(comm, color, idx, newcomm);
}

/* Collective over the group's members only (MPI-3.0). */
int PMPI_Comm_create_group(MPI_Comm comm, MPI_Group g, int tag, MPI_Comm *newcomm) {
    API_ENTER("MPI_Comm_create_group");
    struct group *gr = group_get(g);
    if (!gr) API_RETURN(api_error("MPI_Comm_create_group", MPI_ERR_GROUP, "group %d", g));
    API_RETURN(api_comm_create_group(comm, gr->w, gr->n, tag, newcomm));
}

#pragma weak MPI_Comm_create_group = PMPI_Comm_create_group

/* MPI_COMM_TYPE_SHARED: the ranks of this rank's node. */
int PMPI_Comm_split_type(MPI_Comm comm, int type, int key, MPI_Info info, MPI_Comm *newcomm) {
    (void)info;
    int color = type == MPI_COMM_TYPE_SHARED ? platform_node_of(simpi_rt->plat, runtime_rank())
                                             : MPI_UNDEFINED;
    return PMPI_Comm_split(comm, color, key, newcomm);
}

#pragma weak MPI_Send_init = PMPI_Send_init
#pragma weak MPI_Ssend_init = PMPI_Ssend_init
#pragma weak MPI_Bsend_init = PMPI_Bsend_init
#pragma weak MPI_Rsend_init = PMPI_Rsend_init
#pragma weak MPI_Recv_init = PMPI_Recv_init
#pragma weak MPI_Start = PMPI_Start
#pragma weak MPI_Startall = PMPI_Startall
#pragma weak MPI_Request_free = PMPI_Request_free
#pragma weak MPI_Testany = PMPI_Testany
#pragma weak MPI_Testsome = PMPI_Testsome
#pragma weak MPI_Waitsome = PMPI_Waitsome
#pragma weak MPI_Request_get_status = PMPI_Request_get_status
#pragma weak MPI_Cancel = PMPI_Cancel
#pragma weak MPI_Test_cancelled = PMPI_Test_cancelled
#pragma weak MPI_Op_create = PMPI_Op_create
#pragma weak MPI_Op_free = PMPI_Op_free
#pragma weak MPI_Op_commutative = PMPI_Op_commutative
#pragma weak MPI_Comm_compare = PMPI_Comm_compare
#pragma weak MPI_Comm_test_inter = PMPI_Comm_test_inter
#pragma weak MPI_Comm_set_name = PMPI_Comm_set_name
#pragma weak MPI_Comm_get_name = PMPI_Comm_get_name
#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr
#pragma weak MPI_Attr_get = PMPI_Attr_get
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
#pragma weak MPI_Comm_create = PMPI_Comm_create
#pragma weak MPI_Comm_split_type = PMPI_Comm_split_type

/* --- user attributes (keyvals) --- */

/* Keyvals and attributes of communicators and datatypes (their handles are
 * ints, so their callbacks have the same type). */
enum attr_kind { ATTR_COMM, ATTR_TYPE, ATTR_WIN };

struct keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    bool used;    /* the keyval exists (freed ones live on while attributes use them) */
    bool freed;   /* MPI_*_free_keyval was called */
    int32_t refs; /* attributes set with it */
    uint8_t kind;
};
static struct keyval *keyvals; /* keyval = index + KEYVAL_BASE */
static int nkeyvals;
#define KEYVAL_BASE 16

struct attr {
    struct attr *next;
    int32_t rank;
    MPI_Comm comm; /* or the datatype */
    int keyval;
    void *value;
    uint8_t kind;
};
static struct attr *attrs;

/* MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN, MPI_WIN_DUP_FN: the copy keeps the
 * attribute value. */
static int dup_value(void *in, void *out, int *flag) {
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int simpi_comm_dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)comm, (void)keyval, (void)extra;
    return dup_value(in, out, flag);
}

int simpi_type_dup_fn(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)type, (void)keyval, (void)extra;
    return dup_value(in, out, flag);
}

int simpi_win_dup_fn(MPI_Win win, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)win, (void)keyval, (void)extra;
    return dup_value(in, out, flag);
}

static struct keyval *keyval_get(int k, enum attr_kind kind) {
    return k >= KEYVAL_BASE && k - KEYVAL_BASE < nkeyvals && keyvals[k - KEYVAL_BASE].used &&
                   keyvals[k - KEYVAL_BASE].kind == kind
               ? &keyvals[k - KEYVAL_BASE]
               : NULL;
}

static int keyval_create(enum attr_kind kind, MPI_Comm_copy_attr_function *copy,
                         MPI_Comm_delete_attr_function *del, int *keyval, void *extra) {
    keyvals = realloc(keyvals, sizeof *keyvals * (size_t)(nkeyvals + 1));
    if (!keyvals) abort();
    keyvals[nkeyvals] = (struct keyval){copy, del, extra, true, false, 0, (uint8_t)kind};
    *keyval = KEYVAL_BASE + nkeyvals++;
    return MPI_SUCCESS;
}

/* A freed keyval stays valid for the attributes still set with it (MPI
 * counts references) and disappears with the last one. */
static int keyval_free(const char *func, enum attr_kind kind, int *keyval) {
    struct keyval *k = keyval_get(*keyval, kind);
    if (!k) return api_error(func, MPI_ERR_KEYVAL, "keyval %d", *keyval);
    k->freed = true; /* again while attributes keep it: nothing more (as MPICH) */
    if (k->refs == 0) k->used = false;
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static void attr_unlink(struct attr **pp) {
    struct attr *a = *pp;
    struct keyval *k = &keyvals[a->keyval - KEYVAL_BASE];
    *pp = a->next;
    free(a);
    if (--k->refs == 0 && k->freed) k->used = false;
}

static struct attr **attr_find(enum attr_kind kind, int obj, int keyval) {
    int32_t r = runtime_rank();
    struct attr **pp = &attrs;
    while (*pp && !((*pp)->rank == r && (*pp)->kind == kind && (*pp)->comm == obj &&
                    (*pp)->keyval == keyval))
        pp = &(*pp)->next;
    return pp;
}

/* copying: an attribute copied on dup may use a freed keyval */
static int attr_store(const char *func, enum attr_kind kind, int obj, int keyval, void *value,
                      bool copying) {
    struct keyval *k = keyval_get(keyval, kind);
    if (!k || (k->freed && !copying)) return api_error(func, MPI_ERR_KEYVAL, "keyval %d", keyval);
    struct attr **pp = attr_find(kind, obj, keyval);
    if (*pp && k->del) { /* replacing a value deletes the old one first */
        int rc = k->del(obj, keyval, (*pp)->value, k->extra);
        if (rc != MPI_SUCCESS) return rc;
        pp = attr_find(kind, obj, keyval); /* the callback may have changed the list */
    }
    if (!*pp) {
        *pp = xcalloc(1, sizeof **pp);
        (*pp)->rank = runtime_rank();
        (*pp)->kind = (uint8_t)kind;
        (*pp)->comm = obj;
        (*pp)->keyval = keyval;
        k->refs++;
    }
    (*pp)->value = value;
    return MPI_SUCCESS;
}

static int attr_set(const char *func, enum attr_kind kind, int obj, int keyval, void *value) {
    return attr_store(func, kind, obj, keyval, value, false);
}

/* A value that is not set is not an error: deleting it does nothing. */
static int attr_delete(const char *func, enum attr_kind kind, int obj, int keyval) {
    struct keyval *k = keyval_get(keyval, kind);
    if (!k) return api_error(func, MPI_ERR_KEYVAL, "keyval %d", keyval);
    struct attr *a = *attr_find(kind, obj, keyval);
    if (!a) return MPI_SUCCESS;
    int rc = k->del ? k->del(obj, keyval, a->value, k->extra) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS) return rc;                /* the callback's error: the attribute stays */
    struct attr **pp = attr_find(kind, obj, keyval); /* the callback may have changed the list */
    if (*pp) attr_unlink(pp);
    return MPI_SUCCESS;
}

/* On dup: the copy callbacks decide what the new object gets. */
static int attrs_copy(enum attr_kind kind, int from, int to) {
    int32_t r = runtime_rank();
    for (struct attr *a = attrs; a; a = a->next) {
        struct keyval *k = keyval_get(a->keyval, kind);
        if (a->rank != r || a->kind != kind || a->comm != from || !k || !k->copy) continue;
        void *out = NULL;
        int flag = 0, rc = k->copy(from, a->keyval, k->extra, a->value, &out, &flag);
        if (rc != MPI_SUCCESS) return rc;
        if (flag) attr_store("MPI_Comm_dup", kind, to, a->keyval, out, true);
    }
    return MPI_SUCCESS;
}

/* On free: the delete callbacks run. */
static void attrs_delete(enum attr_kind kind, int obj) {
    int32_t r = runtime_rank();
    for (struct attr **pp = &attrs; *pp;) {
        struct attr *a = *pp;
        if (a->rank != r || a->kind != kind || a->comm != obj) {
            pp = &a->next;
            continue;
        }
        struct keyval *k = keyval_get(a->keyval, kind);
        int key = a->keyval;
        if (k && k->del) k->del(obj, key, a->value, k->extra);
        pp = attr_find(kind, obj, key); /* the callback may have changed the list */
        if (*pp) attr_unlink(pp);
        pp = &attrs;
    }
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                            int *keyval, void *extra) {
    return keyval_create(ATTR_COMM, copy, del, keyval, extra);
}

int PMPI_Comm_free_keyval(int *keyval) {
    return keyval_free("MPI_Comm_free_keyval", ATTR_COMM, keyval);
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value) {
    return attr_set("MPI_Comm_set_attr", ATTR_COMM, comm, keyval, value);
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
    return attr_delete("MPI_Comm_delete_attr", ATTR_COMM, comm, keyval);
}

/* User keyvals for MPI_Comm_get_attr (the predefined ones are handled there). */
bool api_user_attr(MPI_Comm comm, int keyval, void **value) {
    struct attr *a = *attr_find(ATTR_COMM, comm, keyval);
    if (a) *value = a->value;
    return a != NULL;
}

int api_copy_attrs(MPI_Comm from, MPI_Comm to) {
    return attrs_copy(ATTR_COMM, from, to);
}

void api_delete_attrs(MPI_Comm comm) {
    attrs_delete(ATTR_COMM, comm);
}

/* Datatype attributes: the same store; copied by MPI_Type_dup, deleted by
 * MPI_Type_free. */
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy, MPI_Type_delete_attr_function *del,
                            int *keyval, void *extra) {
    return keyval_create(ATTR_TYPE, (MPI_Comm_copy_attr_function *)copy,
                         (MPI_Comm_delete_attr_function *)del, keyval, extra);
}

int PMPI_Type_free_keyval(int *keyval) {
    return keyval_free("MPI_Type_free_keyval", ATTR_TYPE, keyval);
}

int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void *value) {
    return attr_set("MPI_Type_set_attr", ATTR_TYPE, type, keyval, value);
}

int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void *value, int *flag) {
    if (!keyval_get(keyval, ATTR_TYPE))
        return api_error("MPI_Type_get_attr", MPI_ERR_KEYVAL, "keyval %d", keyval);
    struct attr *a = *attr_find(ATTR_TYPE, type, keyval);
    *flag = a != NULL;
    if (a) *(void **)value = a->value;
    return MPI_SUCCESS;
}

int PMPI_Type_delete_attr(MPI_Datatype type, int keyval) {
    return attr_delete("MPI_Type_delete_attr", ATTR_TYPE, type, keyval);
}

int api_type_copy_attrs(MPI_Datatype from, MPI_Datatype to) {
    return attrs_copy(ATTR_TYPE, from, to);
}

void api_type_delete_attrs(MPI_Datatype type) {
    attrs_delete(ATTR_TYPE, type);
}

/* Window attributes: the same store; deleted by MPI_Win_free. The
 * predefined ones (MPI_WIN_BASE...) are answered by api_rma.c. */
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy, MPI_Win_delete_attr_function *del,
                           int *keyval, void *extra) {
    return keyval_create(ATTR_WIN, (MPI_Comm_copy_attr_function *)copy,
                         (MPI_Comm_delete_attr_function *)del, keyval, extra);
}

int PMPI_Win_free_keyval(int *keyval) {
    return keyval_free("MPI_Win_free_keyval", ATTR_WIN, keyval);
}

int PMPI_Win_set_attr(MPI_Win win, int keyval, void *value) {
    return attr_set("MPI_Win_set_attr", ATTR_WIN, win, keyval, value);
}

int PMPI_Win_delete_attr(MPI_Win win, int keyval) {
    return attr_delete("MPI_Win_delete_attr", ATTR_WIN, win, keyval);
}

int api_win_get_user_attr(MPI_Win win, int keyval, void *value, int *flag) {
    if (!keyval_get(keyval, ATTR_WIN))
        return api_error("MPI_Win_get_attr", MPI_ERR_KEYVAL, "keyval %d", keyval);
    struct attr *a = *attr_find(ATTR_WIN, win, keyval);
    *flag = a != NULL;
    if (a) *(void **)value = a->value;
    return MPI_SUCCESS;
}

void api_win_delete_attrs(MPI_Win win) {
    attrs_delete(ATTR_WIN, win);
}

#pragma weak MPI_Win_create_keyval = PMPI_Win_create_keyval
#pragma weak MPI_Win_free_keyval = PMPI_Win_free_keyval
#pragma weak MPI_Win_set_attr = PMPI_Win_set_attr
#pragma weak MPI_Win_delete_attr = PMPI_Win_delete_attr
#pragma weak MPI_Type_create_keyval = PMPI_Type_create_keyval
#pragma weak MPI_Type_free_keyval = PMPI_Type_free_keyval
#pragma weak MPI_Type_set_attr = PMPI_Type_set_attr
#pragma weak MPI_Type_get_attr = PMPI_Type_get_attr
#pragma weak MPI_Type_delete_attr = PMPI_Type_delete_attr

int PMPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval,
                       void *extra) {
    return PMPI_Comm_create_keyval(copy, del, keyval, extra);
}
int PMPI_Keyval_free(int *keyval) {
    return PMPI_Comm_free_keyval(keyval);
}
int PMPI_Attr_put(MPI_Comm comm, int keyval, void *value) {
    return PMPI_Comm_set_attr(comm, keyval, value);
}
int PMPI_Attr_delete(MPI_Comm comm, int keyval) {
    return PMPI_Comm_delete_attr(comm, keyval);
}

/* --- user error handlers --- */

static MPI_Comm_errhandler_function **handlers; /* errhandler = index + HANDLER_BASE */
static int nhandlers;
#define HANDLER_BASE 3

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function *fn, MPI_Errhandler *errhandler) {
    handlers = realloc(handlers, sizeof *handlers * (size_t)(nhandlers + 1));
    if (!handlers) abort();
    handlers[nhandlers] = fn;
    *errhandler = HANDLER_BASE + nhandlers++;
    return MPI_SUCCESS;
}

int PMPI_Errhandler_free(MPI_Errhandler *errhandler) {
    *errhandler = MPI_ERRHANDLER_NULL;
    return MPI_SUCCESS;
}

/* Calls a user handler; false if errhandler is not one. */
bool api_call_user_handler(int errhandler, MPI_Comm comm, int code) {
    if (errhandler < HANDLER_BASE || errhandler - HANDLER_BASE >= nhandlers) return false;
    handlers[errhandler - HANDLER_BASE](&comm, &code);
    return true;
}

#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval
#pragma weak MPI_Comm_free_keyval = PMPI_Comm_free_keyval
#pragma weak MPI_Comm_set_attr = PMPI_Comm_set_attr
#pragma weak MPI_Comm_delete_attr = PMPI_Comm_delete_attr
#pragma weak MPI_Keyval_create = PMPI_Keyval_create
#pragma weak MPI_Keyval_free = PMPI_Keyval_free
#pragma weak MPI_Attr_put = PMPI_Attr_put
#pragma weak MPI_Attr_delete = PMPI_Attr_delete
#pragma weak MPI_Comm_create_errhandler = PMPI_Comm_create_errhandler
#pragma weak MPI_Errhandler_free = PMPI_Errhandler_free
