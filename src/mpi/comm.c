/* SPDX-License-Identifier: BSD-3-Clause */
/* Communicators: the world, per-rank handle tables (rank, id) -> comm,
 * collective sequence numbers, the joining of communicators being made
 * (split, dup, from groups, intercommunicators) and a split run's contexts.
 * A layer below the protocols (docs/architecture.md): the calls that
 * record a creation and charge its exchange are in comm_calls.c. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "mpi/part.h"
#include "mpi/sim_internal.h"
#include "net/contention.h"

/* MPI_Comm_create_group: only the members call. The first to arrive builds
 * the communicator (the members agree on the group), the others join it;
 * a collector per call, keyed by parent, tag and members, lives until all
 * have joined. */
struct group_collector {
    struct group_collector *next;
    struct comm *parent, *comm;
    int32_t tag, arrived, expected; /* expected: the members that run here */
    uint8_t *joined;
};

/* An intercommunicator being created: cl as its first member's group (L)
 * sees it (the remote group R as its members), cr as R's members see it;
 * both share one context. */
struct inter_collector {
    struct inter_collector *next;
    struct comm *cl, *cr;
    int32_t tag, arrived, expected; /* expected: the members that run here */
    uint8_t *joined;                /* L's members, then R's */
};

struct split_entry {
    int32_t color, key, prank, new_id;
};

struct split_collector {
    struct split_collector *next;
    struct comm *parent;
    uint32_t seq;
    int32_t arrived;
    struct split_entry *entries;
};

static size_t handle_hash(int32_t rank, int32_t id, size_t cap) {
    return (size_t)hash_mix64((uint64_t)(uint32_t)rank << 32 | (uint32_t)id) & (cap - 1);
}

static struct comm_handle *handle_slot(const struct sim *s, int32_t rank, int32_t id) {
    if (!s->comms.handles_cap) return NULL;
    size_t i = handle_hash(rank, id, s->comms.handles_cap);
    for (;;) {
        struct comm_handle *h = &s->comms.handles[i];
        if (!h->comm || (h->rank == rank && h->id == id)) return h;
        i = (i + 1) & (s->comms.handles_cap - 1);
    }
}

static void handle_put(struct sim *s, int32_t rank, int32_t id, struct comm *c, int32_t myrank);

static void handles_grow(struct sim *s) {
    struct comm_handle *old = s->comms.handles;
    size_t oldcap = s->comms.handles_cap;
    s->comms.handles_cap = oldcap ? oldcap * 2 : 1024;
    s->comms.handles = xcalloc(s->comms.handles_cap, sizeof *s->comms.handles);
    s->comms.handles_used = 0;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i].comm) {
            handle_put(s, old[i].rank, old[i].id, old[i].comm, old[i].myrank);
            handle_slot(s, old[i].rank, old[i].id)->freed = old[i].freed;
        }
    free(old);
}

static void handle_put(struct sim *s, int32_t rank, int32_t id, struct comm *c, int32_t myrank) {
    if ((s->comms.handles_used + 1) * 2 > s->comms.handles_cap) handles_grow(s);
    struct comm_handle *h = handle_slot(s, rank, id);
    if (!h->comm) s->comms.handles_used++;
    h->rank = rank;
    h->id = id;
    h->comm = c;
    h->myrank = myrank;
    h->freed = false;
}

struct comm *sim_comm_get(const struct sim *s, int32_t rank, int32_t id, int32_t *myrank) {
    if (id == SIM_COMM_WORLD_ID && s->jobs.n > 1) { /* the world of the rank's job */
        int32_t j = sim_job_of(s, rank);
        *myrank = rank - s->jobs.first[j];
        return s->jobs.world[j];
    }
    if (id == SIM_COMM_WORLD_ID) {
        *myrank = rank;
        return (struct comm *)&s->world;
    }
    struct comm_handle *h = handle_slot(s, rank, id);
    if (!h || !h->comm || h->freed) return NULL;
    *myrank = h->myrank;
    return h->comm;
}

void sim_comm_release(struct sim *s, int32_t rank, int32_t comm_id) {
    struct comm_handle *h = comm_id == SIM_COMM_WORLD_ID ? NULL : handle_slot(s, rank, comm_id);
    if (h && h->comm) h->freed = true;
}

bool sim_comm_freed(const struct sim *s, int32_t rank, int32_t comm_id) {
    struct comm_handle *h = comm_id == SIM_COMM_WORLD_ID ? NULL : handle_slot(s, rank, comm_id);
    return h && h->comm && h->freed;
}

bool sim_comm_valid(const struct sim *s, int32_t rank, int32_t comm_id) {
    int32_t me;
    return sim_comm_get(s, rank, comm_id, &me) != NULL;
}

int32_t sim_comm_size(const struct sim *s, int32_t rank, int32_t comm_id) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    return c ? c->size : 0;
}

uint32_t *comm_coll_seq(struct sim *s, struct comm *c, int32_t world_rank, int32_t myrank) {
    if (c == &s->world) return &s->ranks[world_rank].world_coll_seq;
    return &c->coll_seq[myrank];
}

static struct comm *comm_new(struct sim *s, int32_t size) {
    struct comm *c = xcalloc(1, sizeof *c);
    c->ctx = s->comms.next_ctx;
    s->comms.next_ctx += 2;
    c->size = size;
    c->nworkers = -1;
    c->world = xcalloc((size_t)size, sizeof *c->world);
    c->coll_seq = xcalloc((size_t)size, sizeof *c->coll_seq);
    if (s->comms.n == s->comms.cap) {
        s->comms.cap = s->comms.cap ? s->comms.cap * 2 : 16;
        s->comms.list = xrealloc_or_die(s->comms.list, sizeof *s->comms.list * s->comms.cap);
    }
    s->comms.list[s->comms.n++] = c;
    return c;
}

void comm_free_all(struct sim *s) {
    free(s->world.workers);
    for (size_t i = 0; i < s->comms.n; i++) {
        free(s->comms.list[i]->workers);
        free(s->comms.list[i]->world);
        free(s->comms.list[i]->coll_seq);
        free(s->comms.list[i]);
    }
    free(s->comms.list);
    free(s->comms.handles);
    free(s->jobs.first);
    free(s->jobs.start);
    free(s->jobs.world);
    free(s->jobs.node_job);
    while (s->comms.splits) {
        struct split_collector *n = s->comms.splits->next;
        free(s->comms.splits->entries);
        free(s->comms.splits);
        s->comms.splits = n;
    }
    while (s->comms.inter_creates) {
        struct inter_collector *n = s->comms.inter_creates->next;
        free(s->comms.inter_creates->joined);
        free(s->comms.inter_creates);
        s->comms.inter_creates = n;
    }
    while (s->comms.groups_made) {
        struct group_made *g = s->comms.groups_made;
        s->comms.groups_made = g->next;
        free(g);
    }
    while (s->comms.group_creates) {
        struct group_collector *n = s->comms.group_creates->next;
        free(s->comms.group_creates->joined);
        free(s->comms.group_creates);
        s->comms.group_creates = n;
    }
}

static int cmp_split(const void *a, const void *b) {
    const struct split_entry *x = a, *y = b;
    if (x->color != y->color) return x->color < y->color ? -1 : 1;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return x->prank < y->prank ? -1 : x->prank > y->prank;
}

/* Called once every member contributed: builds one communicator per color. */
static void split_build(struct sim *s, struct split_collector *sc) {
    struct comm *p = sc->parent;
    qsort(sc->entries, (size_t)p->size, sizeof *sc->entries, cmp_split);
    int32_t i = 0;
    while (i < p->size) {
        int32_t j = i;
        while (j < p->size && sc->entries[j].color == sc->entries[i].color)
            j++;
        if (sc->entries[i].color != SIM_UNDEFINED) {
            struct comm *c = comm_new(s, j - i);
            /* a split run's workers all build it, in orders of their own:
             * its context comes from what it is, not from a count */
            if (s->split.workers)
                c->ctx = comm_drawn_context(s, p->ctx, sc->seq, sc->entries[i].color);
            c->untraced = p->untraced;
            for (int32_t k = i; k < j; k++) {
                int32_t w = comm_world_rank(p, sc->entries[k].prank);
                c->world[k - i] = w;
                handle_put(s, w, sc->entries[k].new_id, c, k - i);
            }
        }
        i = j;
    }
}

/* --- a split run's contexts: drawn from what a communicator is, the same
 * in every worker whatever order they build it in --- */

uint32_t comm_drawn_context(struct sim *s, uint32_t parent_ctx, uint32_t seq, int32_t color) {
    uint64_t h = ((uint64_t)parent_ctx << 32 | seq) ^ ((uint64_t)(uint32_t)color << 17);
    h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ull; /* splitmix64's finaliser */
    h = (h ^ (h >> 27)) * 0x94d049bb133111ebull;
    h ^= h >> 31;
    /* even (collectives use ctx + 1), above the counted contexts */
    uint32_t ctx = 0x80000000u | ((uint32_t)h & 0x7ffffffeu);
    if (comm_by_context(s, ctx) || comm_by_context(s, ctx + 1))
        sim_fail(s,
                 "two communicators of this split run drew the same context (%u); run "
                 "without --procs",
                 ctx);
    return ctx;
}

uint64_t comm_members_hash(uint64_t h, const int32_t *world, int32_t n) {
    h ^= 1469598103934665603ull; /* FNV-1a */
    for (int32_t i = 0; i < n; i++)
        h = (h ^ (uint32_t)world[i]) * 1099511628211ull;
    return h;
}

uint32_t comm_made_context(struct sim *s, uint32_t parent_ctx, uint64_t key) {
    struct group_made *g = s->comms.groups_made;
    while (g && !(g->parent_ctx == parent_ctx && g->hash == key))
        g = g->next;
    if (!g) {
        g = xcalloc(1, sizeof *g);
        *g = (struct group_made){s->comms.groups_made, parent_ctx, key, 0};
        s->comms.groups_made = g;
    }
    /* apart from the splits' contexts: the key in the parent's place */
    return comm_drawn_context(s, parent_ctx ^ (uint32_t)(key >> 32) ^ 0x5bd1e995u, g->count++,
                              (int32_t)(uint32_t)key);
}

struct comm *comm_by_context(struct sim *s, uint32_t ctx) {
    if (ctx == s->world.ctx) return &s->world;
    for (size_t i = 0; i < s->comms.n; i++)
        if (s->comms.list[i]->ctx == ctx) return s->comms.list[i];
    return NULL;
}

void split_contribute(struct sim *s, struct comm *parent, int32_t myrank, int32_t color,
                      int32_t key, int32_t new_id, uint32_t seq) {
    struct split_collector **pp = &s->comms.splits, *sc;
    while ((sc = *pp) && !(sc->parent == parent && sc->seq == seq))
        pp = &sc->next;
    if (!sc) {
        sc = xcalloc(1, sizeof *sc);
        sc->parent = parent;
        sc->seq = seq;
        sc->entries = xcalloc((size_t)parent->size, sizeof *sc->entries);
        sc->next = s->comms.splits;
        s->comms.splits = sc;
        pp = &s->comms.splits;
    }
    sc->entries[myrank] = (struct split_entry){color, key, myrank, new_id};
    if (++sc->arrived < parent->size) return;
    split_build(s, sc);
    *pp = sc->next;
    free(sc->entries);
    free(sc);
}

struct comm *comm_split_join(struct sim *s, int32_t rank, int32_t comm_id, int32_t color,
                             int32_t key, int32_t new_id, int32_t *me, uint32_t *seq) {
    struct comm *c = sim_comm_get(s, rank, comm_id, me);
    if (!c) return NULL;
    *seq = *comm_coll_seq(s, c, rank, *me);
    split_contribute(s, c, *me, color, key, new_id, *seq);
    return c;
}

uint32_t sim_comm_context(const struct sim *s, int32_t rank, int32_t comm_id) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    return c ? c->ctx : UINT32_MAX;
}

int32_t sim_comm_rank(const struct sim *s, int32_t rank, int32_t comm_id) {
    int32_t me = -1;
    return sim_comm_get(s, rank, comm_id, &me) ? me : -1;
}

int32_t sim_job_of(const struct sim *s, int32_t rank) {
    int32_t lo = 0, hi = s->jobs.n > 1 ? s->jobs.n - 1 : 0; /* the last job whose first <= rank */
    while (lo < hi) {
        int32_t mid = lo + (hi - lo + 1) / 2;
        if (s->jobs.first[mid] <= rank)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

int32_t sim_job_count(const struct sim *s) {
    return s->jobs.n > 1 ? s->jobs.n : 1;
}

int32_t sim_job_first(const struct sim *s, int32_t job) {
    return s->jobs.n > 1 ? s->jobs.first[job] : 0;
}

void sim_set_jobs(struct sim *s, int32_t njobs, const int32_t *first, const simtime_t *start) {
    if (njobs < 1) return;
    s->jobs.n = njobs;
    s->jobs.first = xcalloc((size_t)njobs + 1, sizeof *s->jobs.first);
    memcpy(s->jobs.first, first, sizeof *first * ((size_t)njobs + 1));
    s->jobs.start = xcalloc((size_t)njobs, sizeof *s->jobs.start);
    memcpy(s->jobs.start, start, sizeof *start * (size_t)njobs);
    if (njobs < 2) return;
    s->jobs.node_job = xmalloc(sizeof *s->jobs.node_job * (size_t)(s->plat->nodes + 1));
    memset(s->jobs.node_job, 0xff, sizeof *s->jobs.node_job * (size_t)(s->plat->nodes + 1));
    for (int32_t j = 0; j < njobs; j++)
        for (int32_t r = first[j]; r < first[j + 1]; r++)
            s->jobs.node_job[sim_node(s, r)] = j;
    contention_set_jobs(s->cont, s->jobs.node_job, njobs);
    s->jobs.world = xcalloc((size_t)njobs, sizeof *s->jobs.world);
    for (int32_t j = 0; j < njobs; j++) {
        struct comm *c = comm_new(s, first[j + 1] - first[j]);
        for (int32_t i = 0; i < c->size; i++)
            c->world[i] = first[j] + i;
        s->jobs.world[j] = c;
    }
}

void comm_self_make(struct sim *s, int32_t rank, int32_t id) {
    struct comm *c = comm_new(s, 1);
    c->world[0] = rank;
    handle_put(s, rank, id, c, 0);
}

int32_t sim_comm_member(const struct sim *s, int32_t rank, int32_t comm_id, int32_t member) {
    int32_t me;
    struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    return c && member >= 0 && member < c->size ? comm_world_rank(c, member) : -1;
}

static bool same_members(const struct comm *c, const int32_t *world, int32_t n) {
    if (c->size != n) return false;
    for (int32_t i = 0; i < n; i++)
        if (c->world[i] != world[i]) return false;
    return true;
}

struct comm *comm_group_join(struct sim *s, int32_t rank, int32_t comm_id, const int32_t *world,
                             int32_t n, int32_t tag, int32_t new_id, int32_t *mine_out) {
    int32_t me, mine = -1;
    struct comm *parent = sim_comm_get(s, rank, comm_id, &me);
    for (int32_t i = 0; i < n && mine < 0; i++)
        if (world[i] == rank) mine = i;
    if (!parent || mine < 0) return NULL;
    struct group_collector **pp = &s->comms.group_creates, *gc;
    while ((gc = *pp) && !(gc->parent == parent && gc->tag == tag &&
                           same_members(gc->comm, world, n) && !gc->joined[mine]))
        pp = &gc->next;
    if (!gc) {
        gc = xcalloc(1, sizeof *gc);
        gc->parent = parent;
        gc->tag = tag;
        gc->joined = xcalloc((size_t)n, 1);
        gc->comm = comm_new(s, n);
        gc->comm->untraced = 1;
        memcpy(gc->comm->world, world, sizeof *world * (size_t)n);
        for (int32_t i = 0; i < n; i++)
            gc->expected += sim_local(s, world[i]);
        /* a split run: every worker that holds members makes the same
         * context, from the group and the call's place among its calls */
        if (s->split.workers)
            gc->comm->ctx =
                comm_made_context(s, parent->ctx, comm_members_hash((uint32_t)tag, world, n));
        gc->next = s->comms.group_creates;
        s->comms.group_creates = gc;
        pp = &s->comms.group_creates;
    }
    gc->joined[mine] = 1;
    struct comm *c = gc->comm;
    handle_put(s, rank, new_id, c, mine);
    if (++gc->arrived == gc->expected) {
        *pp = gc->next;
        free(gc->joined);
        free(gc);
    }
    *mine_out = mine;
    return c;
}

/* A communicator of size n whose rank arrays hold `room` members (an
 * intercommunicator's side indexes them by local rank). */
static struct comm *inter_side(struct sim *s, const int32_t *remote, int32_t n, int32_t room) {
    struct comm *c = comm_new(s, n);
    c->untraced = 1;
    memcpy(c->world, remote, sizeof *remote * (size_t)n);
    free(c->coll_seq);
    c->coll_seq = xcalloc((size_t)(room > n ? room : n) + 1, sizeof *c->coll_seq);
    return c;
}

void comm_inter_join(struct sim *s, int32_t rank, const int32_t *local, int32_t nl,
                     const int32_t *remote, int32_t nr, int32_t tag, int32_t new_id) {
    int32_t mine = -1;
    for (int32_t i = 0; i < nl && mine < 0; i++)
        if (local[i] == rank) mine = i;
    if (mine < 0) return;
    struct inter_collector **pp = &s->comms.inter_creates, *ic;
    bool left = false;
    for (; (ic = *pp); pp = &ic->next) {
        if (ic->tag != tag) continue;
        left = same_members(ic->cl, remote, nr) && same_members(ic->cr, local, nl);
        bool right = same_members(ic->cr, remote, nr) && same_members(ic->cl, local, nl);
        int32_t slot = left ? mine : ic->cr->size + mine;
        if ((left || right) && !ic->joined[slot]) break;
    }
    if (!ic) {
        ic = xcalloc(1, sizeof *ic);
        ic->tag = tag;
        ic->cl = inter_side(s, remote, nr, nl);
        ic->cr = inter_side(s, local, nl, nr);
        if (s->split.workers) { /* the same in every worker, whichever side came first */
            uint64_t a = comm_members_hash(0, local, nl), b = comm_members_hash(0, remote, nr);
            uint64_t key = (a < b ? a * 31 + b : b * 31 + a) ^ (uint32_t)tag;
            ic->cl->ctx = comm_made_context(s, UINT32_MAX, key);
        }
        ic->cr->ctx = ic->cl->ctx; /* one context: messages cross between the sides */
        for (int32_t i = 0; i < nl; i++)
            ic->expected += sim_local(s, local[i]);
        for (int32_t i = 0; i < nr; i++)
            ic->expected += sim_local(s, remote[i]);
        ic->joined = xcalloc((size_t)(nl + nr), 1);
        ic->next = s->comms.inter_creates;
        s->comms.inter_creates = ic;
        pp = &s->comms.inter_creates;
        left = true;
    }
    ic->joined[left ? mine : ic->cr->size + mine] = 1;
    handle_put(s, rank, new_id, left ? ic->cl : ic->cr, mine);
    if (++ic->arrived == ic->expected) {
        *pp = ic->next;
        free(ic->joined);
        free(ic);
    }
}
