/* SPDX-License-Identifier: BSD-3-Clause */
/* The interval tree and the DVM Predictor's characteristics: node 0 is the
 * whole program; an interval is a child of the interval it was entered in,
 * found again by name when re-entered (a loop body accumulates, with its
 * entry count). Each period a rank spends is added to the interval it is
 * in; collectives are grouped by call to measure the spread of their
 * completion and the synchronisation loss of members that came early. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/ranktable.h"
#include "report/analysis_internal.h"

struct pending_coll {
    uint64_t id;
    int32_t members, arrived;
    simtime_t first_exit, last_exit, last_entry;
    int32_t *rank, *node; /* members seen so far */
    simtime_t *entry;
    bool blocking; /* every member so far entered in the call (not a wait) */
};

void intervals_init(struct intervals *iv, int32_t nranks) {
    memset(iv, 0, sizeof *iv);
    iv->nranks = nranks;
    iv->nnodes = 1;
    iv->nodes[0].name = xstrdup("whole program");
    iv->nodes[0].parent = -1;
    iv->nodes[0].rank = ranktable_alloc((size_t)nranks, sizeof(struct acc));
    iv->track = ranktable_alloc((size_t)nranks, sizeof *iv->track);
}

static void free_pending(struct pending_coll *pc) {
    free(pc->rank);
    free(pc->node);
    free(pc->entry);
    free(pc);
}

static void free_coll(struct inode *n, int32_t nranks) {
    if (!n->coll) return;
    for (int k = 0; k < COLL_KINDS; k++)
        if (n->coll[k]) ranktable_free(n->coll[k], (size_t)nranks, sizeof *n->coll[k]);
    free(n->coll);
}

void intervals_free(struct intervals *iv) {
    for (int32_t i = 0; i < iv->nnodes; i++) {
        free(iv->nodes[i].name);
        ranktable_free(iv->nodes[i].rank, (size_t)iv->nranks, sizeof(struct acc));
        free_coll(&iv->nodes[i], iv->nranks);
    }
    for (int32_t r = 0; r < iv->nranks; r++) {
        free(iv->track[r].stack);
    }
    ranktable_free(iv->track, (size_t)iv->nranks, sizeof *iv->track);
    free(iv->unpack_map);
    free(iv->renumbered);
    for (size_t i = 0; i < iv->colls_cap; i++)
        if (iv->colls[i]) free_pending(iv->colls[i]);
    free(iv->colls);
}

int32_t intervals_current(const struct intervals *iv, int32_t rank) {
    const struct rank_track *t = &iv->track[rank];
    return t->depth ? t->stack[t->depth - 1].node : 0;
}

static struct acc *acc_of(struct intervals *iv, int32_t node, int32_t rank) {
    return &iv->nodes[node].rank[rank];
}

/* Node n's table of each rank's time in collectives of kind k, allocated
 * (zero) when first needed. */
static simtime_t *coll_table(struct inode *n, int k, int32_t nranks) {
    if (!n->coll) n->coll = xcalloc(COLL_KINDS, sizeof *n->coll);
    if (!n->coll[k]) n->coll[k] = ranktable_alloc((size_t)nranks, sizeof *n->coll[k]);
    return n->coll[k];
}

simtime_t inode_coll_total(const struct inode *n, int32_t r) {
    simtime_t t = 0;
    for (int k = 0; n->coll && k < COLL_KINDS; k++)
        if (n->coll[k]) t += n->coll[k][r];
    return t;
}

static void note_unbalanced(struct intervals *iv, const char *what, int32_t rank) {
    if (iv->unbalanced++ == 0)
        snprintf(iv->first_unbalanced, sizeof iv->first_unbalanced, "rank %d: %s", rank, what);
}

static size_t name_slot(int32_t parent, const char *name) {
    uint64_t h = 1469598103934665603ull ^ (uint64_t)(uint32_t)parent;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 1099511628211ull;
    return (size_t)(h % (2 * MAX_INTERVALS));
}

/* The child of parent called name, created if new (-1 when the tree is
 * full): found through a hash table, so that many names cost no more than
 * a few (200,000 distinct names took 69 s with a scan of the tree). */
static int32_t child_named(struct intervals *iv, int32_t parent, const char *name) {
    size_t h = name_slot(parent, name);
    for (; iv->by_name[h]; h = (h + 1) % (2 * MAX_INTERVALS)) {
        const struct inode *n = &iv->nodes[iv->by_name[h] - 1];
        if (n->parent == parent && !strcmp(n->name, name)) return iv->by_name[h] - 1;
    }
    if (iv->nnodes == MAX_INTERVALS) {
        iv->too_many = true;
        return -1;
    }
    iv->by_name[h] = iv->nnodes + 1;
    struct inode *n = &iv->nodes[iv->nnodes];
    n->name = xstrdup(name);
    n->parent = parent;
    n->depth = iv->nodes[parent].depth + 1;
    n->rank = ranktable_alloc((size_t)iv->nranks, sizeof(struct acc));
    return iv->nnodes++;
}

int32_t intervals_enter(struct intervals *iv, int32_t rank, simtime_t t, const char *name) {
    struct rank_track *tr = &iv->track[rank];
    int32_t had = iv->nnodes, node = child_named(iv, intervals_current(iv, rank), name);
    if (node < 0) node = intervals_current(iv, rank); /* counted in its parent */
    if (iv->nnodes > had) {
        iv->nodes[node].first_t = t;
        iv->nodes[node].first_rank = rank;
        iv->nodes[node].first_seq = tr->enters;
    }
    tr->enters++;
    if (tr->depth == tr->cap) {
        tr->cap = tr->cap ? 2 * tr->cap : 4;
        tr->stack = xrealloc_or_die(tr->stack, sizeof *tr->stack * (size_t)tr->cap);
    }
    tr->stack[tr->depth++] = (struct track_entry){t, node};
    acc_of(iv, node, rank)->entries++;
    return node;
}

int32_t intervals_leave(struct intervals *iv, int32_t rank, simtime_t t) {
    struct rank_track *tr = &iv->track[rank];
    if (tr->depth == 0) {
        note_unbalanced(iv, "an interval end without a matching begin (ignored)", rank);
        return 0;
    }
    tr->depth--;
    acc_of(iv, tr->stack[tr->depth].node, rank)->exec += t - tr->stack[tr->depth].entered;
    return intervals_current(iv, rank);
}

void intervals_finish(struct intervals *iv, int32_t rank, simtime_t t) {
    struct rank_track *tr = &iv->track[rank];
    if (tr->depth > 0) {
        char what[200];
        snprintf(what, sizeof what,
                 "%d interval(s) still open at its end, the innermost '%.80s' "
                 "(closed there)",
                 tr->depth, iv->nodes[tr->stack[tr->depth - 1].node].name);
        note_unbalanced(iv, what, rank);
    }
    while (tr->depth > 0)
        intervals_leave(iv, rank, t);
    struct acc *a = acc_of(iv, 0, rank);
    a->exec = t;
    a->entries = 1;
}

/* --- collectives grouped by call --- */

static size_t coll_slot(const struct intervals *iv, uint64_t id) {
    size_t h = (size_t)(id * 0x9e3779b97f4a7c15ull) & (iv->colls_cap - 1);
    while (iv->colls[h] && iv->colls[h]->id != id)
        h = (h + 1) & (iv->colls_cap - 1);
    return h;
}

static void colls_grow(struct intervals *iv) {
    struct pending_coll **old = iv->colls;
    size_t n = iv->colls_cap;
    iv->colls_cap = n ? 2 * n : 64;
    iv->colls = xcalloc(iv->colls_cap, sizeof *iv->colls);
    for (size_t i = 0; i < n; i++)
        if (old[i]) iv->colls[coll_slot(iv, old[i]->id)] = old[i];
    free(old);
}

static void colls_remove(struct intervals *iv, size_t h) {
    iv->colls[h] = NULL;
    iv->colls_used--;
    /* re-insert the rest of the cluster (linear probing) */
    for (size_t i = (h + 1) & (iv->colls_cap - 1); iv->colls[i];
         i = (i + 1) & (iv->colls_cap - 1)) {
        struct pending_coll *pc = iv->colls[i];
        iv->colls[i] = NULL;
        iv->colls[coll_slot(iv, pc->id)] = pc;
    }
}

/* Every member has finished the call: its spread, and each member's wait
 * for the last to enter. */
/* A call all members made: counted in the interval of the member that
 * entered it last (the latest entry, then the highest rank), whichever order
 * the members were seen in (a split run's workers see them in another). */
static void coll_complete(struct intervals *iv, struct pending_coll *pc) {
    int32_t last = 0;
    for (int32_t i = 1; i < pc->arrived; i++)
        if (pc->entry[i] > pc->entry[last] ||
            (pc->entry[i] == pc->entry[last] && pc->rank[i] > pc->rank[last]))
            last = i;
    struct inode *n = &iv->nodes[pc->node[last]];
    simtime_t spread = pc->last_exit - pc->first_exit;
    n->spread_sum += spread;
    if (spread > n->spread_max) n->spread_max = spread;
    n->coll_calls++;
    if (!pc->blocking) return;
    for (int32_t i = 0; i < pc->arrived; i++)
        acc_of(iv, pc->node[i], pc->rank[i])->sync_loss += pc->last_entry - pc->entry[i];
}

/* The call `id` of `members` waiting for its members (made, with its first
 * exit at first_exit, if new); *slot: its place in the table. */
static struct pending_coll *pending_for(struct intervals *iv, uint64_t id, int32_t members,
                                        simtime_t first_exit, size_t *slot) {
    if (2 * (iv->colls_used + 1) > iv->colls_cap) colls_grow(iv);
    size_t h = *slot = coll_slot(iv, id);
    struct pending_coll *pc = iv->colls[h];
    if (pc) return pc;
    pc = xcalloc(1, sizeof *pc);
    pc->id = id;
    pc->members = members;
    pc->first_exit = first_exit;
    pc->blocking = true;
    pc->rank = xcalloc((size_t)members, sizeof *pc->rank);
    pc->node = xcalloc((size_t)members, sizeof *pc->node);
    pc->entry = xcalloc((size_t)members, sizeof *pc->entry);
    iv->colls[h] = pc;
    iv->colls_used++;
    return pc;
}

static void coll_note(struct intervals *iv, const struct sim_period *p, int32_t node) {
    if (p->coll_members <= 1) return;
    size_t h;
    struct pending_coll *pc = pending_for(iv, p->coll_id, p->coll_members, p->end, &h);
    if (pc->arrived == pc->members) return; /* a call id reused before completion */
    pc->rank[pc->arrived] = p->rank;
    pc->node[pc->arrived] = node;
    pc->entry[pc->arrived++] = p->begin;
    pc->blocking &= p->state == SIM_ST_COLL;
    if (p->end < pc->first_exit) pc->first_exit = p->end;
    if (p->end > pc->last_exit) pc->last_exit = p->end;
    if (p->begin > pc->last_entry) pc->last_entry = p->begin;
    if (pc->arrived < pc->members) return;
    coll_complete(iv, pc);
    colls_remove(iv, h);
    free_pending(pc);
}

static void acc_add(struct acc *to, const struct acc *from) {
    to->cpu += from->cpu;
    to->p2p += from->p2p;
    to->other += from->other;
    to->sync_loss += from->sync_loss;
    to->overlap += from->overlap;
}

/* Adds node from's collective times of every rank into node to's. */
static void coll_add(struct inode *to, const struct inode *from, int32_t nranks) {
    for (int k = 0; from->coll && k < COLL_KINDS; k++) {
        if (!from->coll[k]) continue;
        simtime_t *t = coll_table(to, k, nranks);
        for (int32_t r = 0; r < nranks; r++)
            t[r] += from->coll[k][r];
    }
}

/* --- a split run's workers' observations, merged in the first --- */

void blob_put(struct blob *b, const void *p, size_t n) {
    bytes_append(&b->data, &b->len, &b->cap, p, n);
}

struct packed_coll {
    uint64_t id;
    int32_t members, arrived;
    simtime_t first_exit, last_exit, last_entry;
    uint8_t blocking;
};

struct packed_node {
    int32_t parent, first_rank, first_seq, name_len, naccs;
    simtime_t first_t, spread_sum, spread_max;
    int64_t coll_calls;
};

/* A rank's figures in a node as a split run's workers send them: its
 * accumulator and its time in each kind of collective. */
struct packed_acc {
    struct acc a;
    simtime_t coll[COLL_KINDS];
};

static bool packed_of(const struct inode *n, int32_t r, struct packed_acc *pa) {
    static const struct packed_acc zero;
    pa->a = n->rank[r];
    for (int k = 0; k < COLL_KINDS; k++)
        pa->coll[k] = inode_coll(n, k, r);
    return memcmp(pa, &zero, sizeof zero) != 0;
}

void intervals_pack(const struct intervals *iv, bool (*owns)(void *ctx, int32_t rank), void *ctx,
                    struct blob *b) {
    blob_put(b, &iv->nnodes, sizeof iv->nnodes);
    for (int32_t i = 0; i < iv->nnodes; i++) {
        const struct inode *n = &iv->nodes[i];
        struct packed_node pn = {
            n->parent,     n->first_rank, n->first_seq, (int32_t)strlen(n->name), 0, n->first_t,
            n->spread_sum, n->spread_max, n->coll_calls};
        size_t at = b->len; /* its count of ranks is written once known */
        blob_put(b, &pn, sizeof pn);
        blob_put(b, n->name, (size_t)pn.name_len);
        struct packed_acc pa;
        for (int32_t r = 0; r < iv->nranks; r++)
            if (owns(ctx, r) && packed_of(n, r, &pa)) {
                blob_put(b, &r, sizeof r);
                blob_put(b, &pa, sizeof pa);
                pn.naccs++;
            }
        memcpy(b->data + at + offsetof(struct packed_node, naccs), &pn.naccs, sizeof pn.naccs);
    }
    blob_put(b, &iv->unbalanced, sizeof iv->unbalanced);
    blob_put(b, iv->first_unbalanced, sizeof iv->first_unbalanced);
    blob_put(b, &iv->too_many, sizeof iv->too_many);
    blob_put(b, &iv->colls_used, sizeof iv->colls_used);
    for (size_t i = 0; i < iv->colls_cap; i++) {
        const struct pending_coll *pc = iv->colls[i];
        if (!pc) continue;
        struct packed_coll c = {pc->id,        pc->members,    pc->arrived, pc->first_exit,
                                pc->last_exit, pc->last_entry, pc->blocking};
        blob_put(b, &c, sizeof c);
        blob_put(b, pc->rank, sizeof *pc->rank * (size_t)pc->arrived);
        blob_put(b, pc->node, sizeof *pc->node * (size_t)pc->arrived);
        blob_put(b, pc->entry, sizeof *pc->entry * (size_t)pc->arrived);
    }
}

/* Adds another worker's part of a collective call, its members' interval
 * nodes given in this tree's numbering. */
static void coll_merge(struct intervals *iv, const struct packed_coll *c, const int32_t *rank,
                       const int32_t *node, const simtime_t *entry) {
    size_t h;
    struct pending_coll *pc = pending_for(iv, c->id, c->members, c->first_exit, &h);
    for (int32_t i = 0; i < c->arrived && pc->arrived < pc->members; i++) {
        pc->rank[pc->arrived] = rank[i];
        pc->node[pc->arrived] = node[i];
        pc->entry[pc->arrived++] = entry[i];
    }
    pc->blocking &= c->blocking;
    if (c->first_exit < pc->first_exit) pc->first_exit = c->first_exit;
    if (c->last_exit > pc->last_exit) pc->last_exit = c->last_exit;
    if (c->last_entry > pc->last_entry) pc->last_entry = c->last_entry;
    if (pc->arrived < pc->members) return;
    coll_complete(iv, pc);
    colls_remove(iv, h);
    free_pending(pc);
}

static bool key_before(const struct inode *a, const struct inode *b) {
    if (a->first_t != b->first_t) return a->first_t < b->first_t;
    if (a->first_rank != b->first_rank) return a->first_rank < b->first_rank;
    return a->first_seq < b->first_seq;
}

/* Reads a blob's intervals into this tree: local node i is map[i] here. */
#define TAKE(dst, n)                                                                               \
    do {                                                                                           \
        if (*at + (n) > len) return false;                                                         \
        memcpy((dst), p + *at, (n));                                                               \
        *at += (n);                                                                                \
    } while (0)

static bool unpack_nodes(struct intervals *iv, const char *p, size_t len, size_t *at, int32_t *map,
                         int32_t nnodes) {
    char name[1024];
    for (int32_t i = 0; i < nnodes; i++) {
        struct packed_node pn;
        TAKE(&pn, sizeof pn);
        if (pn.name_len < 0 || pn.name_len >= (int32_t)sizeof name || pn.naccs < 0) return false;
        if (i > 0 && (pn.parent < 0 || pn.parent >= i)) return false;
        TAKE(name, (size_t)pn.name_len);
        name[pn.name_len] = 0;
        int32_t had = iv->nnodes, g = i == 0 ? 0 : child_named(iv, map[pn.parent], name);
        if (g < 0) g = map[pn.parent]; /* the tree is full: counted in its parent */
        struct inode *n = &iv->nodes[g];
        struct inode key = {
            .first_t = pn.first_t, .first_rank = pn.first_rank, .first_seq = pn.first_seq};
        if (g > 0 && (iv->nnodes > had || key_before(&key, n))) {
            n->first_t = pn.first_t;
            n->first_rank = pn.first_rank;
            n->first_seq = pn.first_seq;
        }
        map[i] = g;
        n->spread_sum += pn.spread_sum;
        n->coll_calls += pn.coll_calls;
        if (pn.spread_max > n->spread_max) n->spread_max = pn.spread_max;
        for (int32_t k = 0; k < pn.naccs; k++) {
            int32_t r;
            struct packed_acc pa;
            TAKE(&r, sizeof r);
            TAKE(&pa, sizeof pa);
            if (r < 0 || r >= iv->nranks) return false;
            struct acc *to = &n->rank[r];
            acc_add(to, &pa.a);
            to->exec += pa.a.exec;
            to->entries += pa.a.entries;
            for (int c = 0; c < COLL_KINDS; c++)
                if (pa.coll[c]) coll_table(n, c, iv->nranks)[r] += pa.coll[c];
        }
    }
    return true;
}

static bool unpack_colls(struct intervals *iv, const char *p, size_t len, size_t *at,
                         const int32_t *map, int32_t nnodes) {
    size_t ncolls;
    TAKE(&ncolls, sizeof ncolls);
    for (size_t k = 0; k < ncolls; k++) {
        struct packed_coll c;
        TAKE(&c, sizeof c);
        if (c.arrived < 0 || c.arrived > c.members) return false;
        size_t n = (size_t)c.arrived;
        int32_t *rank = xmalloc(sizeof *rank * n + 1), *node = xmalloc(sizeof *node * n + 1);
        simtime_t *entry = xmalloc(sizeof *entry * n + 1);
        bool ok = *at + (2 * sizeof *rank + sizeof *entry) * n <= len;
        if (ok) {
            memcpy(rank, p + *at, sizeof *rank * n);
            memcpy(node, p + *at + sizeof *rank * n, sizeof *node * n);
            memcpy(entry, p + *at + 2 * sizeof *rank * n, sizeof *entry * n);
            *at += (2 * sizeof *rank + sizeof *entry) * n;
            for (size_t i = 0; i < n && ok; i++) {
                ok = node[i] >= 0 && node[i] < nnodes && rank[i] >= 0 && rank[i] < iv->nranks;
                if (ok) node[i] = map[node[i]];
            }
            if (ok) coll_merge(iv, &c, rank, node, entry);
        }
        free(rank);
        free(node);
        free(entry);
        if (!ok) return false;
    }
    return true;
}
#undef TAKE

size_t intervals_unpack(struct intervals *iv, const char *p, size_t len) {
    size_t at = 0;
    int32_t nnodes;
    if (len < sizeof nnodes) return 0;
    memcpy(&nnodes, p, sizeof nnodes);
    at += sizeof nnodes;
    if (nnodes < 1 || nnodes > MAX_INTERVALS) return 0;
    free(iv->unpack_map); /* the previous blob's: no longer needed */
    int32_t *map = iv->unpack_map = xmalloc(sizeof *map * (size_t)nnodes);
    iv->unpack_n = nnodes;
    int64_t unbalanced;
    char first[sizeof iv->first_unbalanced];
    bool too_many, ok = unpack_nodes(iv, p, len, &at, map, nnodes) &&
                        at + sizeof unbalanced + sizeof first + sizeof too_many <= len;
    if (ok) {
        memcpy(&unbalanced, p + at, sizeof unbalanced);
        memcpy(first, p + at + sizeof unbalanced, sizeof first);
        memcpy(&too_many, p + at + sizeof unbalanced + sizeof first, sizeof too_many);
        at += sizeof unbalanced + sizeof first + sizeof too_many;
        if (unbalanced && !iv->unbalanced) memcpy(iv->first_unbalanced, first, sizeof first);
        iv->unbalanced += unbalanced;
        iv->too_many |= too_many;
        ok = unpack_colls(iv, p, len, &at, map, nnodes);
    }
    iv->merged = true;
    return ok ? at : 0;
}

/* After a split run's merge: the nodes numbered as one process numbers them,
 * in the order they were first entered (parents stay before children). */
static void renumber(struct intervals *iv) {
    int32_t n = iv->nnodes, *order = xmalloc(sizeof *order * (size_t)n),
            *to = xmalloc(sizeof *to * (size_t)n);
    for (int32_t i = 0; i < n; i++)
        order[i] = i;
    for (int32_t i = 2; i < n; i++) /* insertion sort of 1..n-1 by first entry */
        for (int32_t j = i; j > 1 && key_before(&iv->nodes[order[j]], &iv->nodes[order[j - 1]]);
             j--) {
            int32_t t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
    struct inode *old = xmalloc(sizeof *old * (size_t)n);
    memcpy(old, iv->nodes, sizeof *old * (size_t)n);
    for (int32_t i = 0; i < n; i++)
        to[order[i]] = i;
    for (int32_t i = 0; i < n; i++) {
        iv->nodes[i] = old[order[i]];
        if (i > 0) iv->nodes[i].parent = to[iv->nodes[i].parent];
    }
    memset(iv->by_name, 0, sizeof iv->by_name); /* rebuilt for the new numbers */
    for (int32_t i = 1; i < n; i++) {
        size_t h = name_slot(iv->nodes[i].parent, iv->nodes[i].name);
        while (iv->by_name[h])
            h = (h + 1) % (2 * MAX_INTERVALS);
        iv->by_name[h] = i + 1;
    }
    free(old);
    free(order);
    iv->renumbered = to; /* for the records that name nodes (Paraver's) */
    iv->renumbered_n = n;
}

void intervals_period(struct intervals *iv, const struct sim_period *p) {
    if (p->end > iv->track[p->rank].last) iv->track[p->rank].last = p->end;
    int32_t node = intervals_current(iv, p->rank);
    struct acc *a = acc_of(iv, node, p->rank);
    simtime_t d = p->end - p->begin;
    if (p->state == SIM_ST_RUNNING)
        a->cpu += d;
    else if (p->coll >= 0)
        coll_table(&iv->nodes[node], p->coll, iv->nranks)[p->rank] += d;
    else if (p->state == SIM_ST_SYNC || p->state == SIM_ST_IO)
        a->other += d;
    else
        a->p2p += d;
    a->sync_loss += p->sync_loss;
    a->overlap += p->overlap;
    if (p->coll >= 0) coll_note(iv, p, node);
}

/* --- after the run --- */

void intervals_integrate(struct intervals *iv, const struct sim *s) {
    if (iv->integrated) return;
    iv->integrated = true;
    if (iv->merged) renumber(iv);
    for (int32_t r = 0; r < iv->nranks; r++) { /* ranks that never finished (a failed run) */
        if (iv->nodes[0].rank[r].entries == 0) {
            /* until it stopped; a fault's abort (never in a split run) comes
             * in the middle of computations, counted whole: until their end */
            simtime_t now = sim_now(s), last = iv->track[r].last;
            bool fault = sim_status(s) == SIM_FAULT;
            iv->nodes[0].rank[r].exec = fault && last > now ? last : now;
            iv->nodes[0].rank[r].entries = 1;
        }
    }
    /* children come after their parents: add them in from the last */
    for (int32_t i = iv->nnodes - 1; i > 0; i--) {
        struct inode *n = &iv->nodes[i], *up = &iv->nodes[n->parent];
        for (int32_t r = 0; r < iv->nranks; r++)
            acc_add(&up->rank[r], &n->rank[r]);
        coll_add(up, n, iv->nranks);
        up->spread_sum += n->spread_sum;
        up->coll_calls += n->coll_calls;
        if (n->spread_max > up->spread_max) up->spread_max = n->spread_max;
    }
}

double analysis_seconds(simtime_t t) {
    return simtime_to_seconds(t);
}

void intervals_totals(const struct intervals *iv, int32_t node, struct interval_totals *t) {
    const struct inode *n = &iv->nodes[node];
    memset(t, 0, sizeof *t);
    simtime_t max_cpu = 0;
    for (int32_t r = 0; r < iv->nranks; r++) {
        const struct acc *a = &n->rank[r];
        if (a->entries == 0) continue;
        t->ranks++;
        if (a->exec > t->time) t->time = a->exec;
        if (a->cpu > max_cpu) max_cpu = a->cpu;
    }
    for (int32_t r = 0; r < iv->nranks; r++) {
        const struct acc *a = &n->rank[r];
        if (a->entries == 0) continue;
        t->cpu += analysis_seconds(a->cpu);
        t->p2p += analysis_seconds(a->p2p);
        t->other += analysis_seconds(a->other);
        for (int k = 0; k < COLL_KINDS; k++)
            t->coll[k] += analysis_seconds(inode_coll(n, k, r));
        t->comm += analysis_seconds(a->p2p + a->other + inode_coll_total(n, r));
        t->idle += analysis_seconds(t->time - a->exec);
        t->imbalance += analysis_seconds(max_cpu - a->cpu);
        t->sync_loss += analysis_seconds(a->sync_loss);
        t->overlap += analysis_seconds(a->overlap);
    }
    double capacity = analysis_seconds(t->time) * t->ranks;
    t->lost = capacity - t->cpu;
    t->efficiency = capacity > 0 ? t->cpu / capacity : 1.0;
}
