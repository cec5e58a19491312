/* SPDX-License-Identifier: BSD-3-Clause */
/* The communicators of a trace, resolved across its ranks for OTF2's
 * definitions (trace_otf2_write.c): a first pass collects each rank's
 * comm_split, comm_define and comm_dup records in order; then a creation
 * whose parent every member has reached as its next one is one call, whose
 * colors make the new communicators (members ordered by key, then by their
 * place in the parent), as MPI_Comm_split makes them. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "replay/trace_internal.h"
#include "replay/trace_otf2.h"

struct creation {
    int32_t parent, color, key, made; /* parent: the rank's id; made: the global one, -1 none */
    int32_t newcomm;
};

struct rank_comms {
    struct creation *c;
    int32_t n, cap, next;
    int32_t *local, *global; /* the rank's communicator ids and what they are */
    int32_t nmap, capmap;
    int32_t *selfs, nselfs; /* its comm_self ids */
};

struct gcomm {
    int32_t *members, n, parent;
};

struct otf2_comms {
    struct rank_comms *ranks;
    struct gcomm *comms; /* [0] the world */
    int32_t nranks, ncomms, cap;
};

static void map_put(struct rank_comms *r, int32_t local, int32_t global) {
    if (r->nmap == r->capmap) {
        r->capmap = r->capmap ? 2 * r->capmap : 4;
        r->local = xrealloc_or_die(r->local, sizeof *r->local * (size_t)r->capmap);
        r->global = xrealloc_or_die(r->global, sizeof *r->global * (size_t)r->capmap);
    }
    r->local[r->nmap] = local, r->global[r->nmap++] = global;
}

int32_t otf2_comms_lookup(const struct otf2_comms *c, int32_t rank, int32_t local) {
    if (local == SIM_COMM_WORLD_ID) return 0;
    const struct rank_comms *r = &c->ranks[rank];
    for (int32_t i = r->nmap - 1; i >= 0; i--)
        if (r->local[i] == local) return r->global[i];
    for (int32_t i = 0; i < r->nselfs; i++)
        if (r->selfs[i] == local) return OTF2_COMM_SELF_GLOBAL;
    return -1;
}

static bool collect(struct otf2_comms *c, struct trace_reader *t, int32_t rank,
                    struct sim_error *err) {
    struct rank_comms *r = &c->ranks[rank];
    struct trace_rec *rec;
    while ((rec = trace_next(t, rank, err))) {
        if (rec->op == TOP_COMM_SELF) {
            r->selfs = xrealloc_or_die(r->selfs, sizeof *r->selfs * (size_t)(r->nselfs + 1));
            r->selfs[r->nselfs++] = rec->newcomm;
        } else if (rec->op == TOP_COMM_SPLIT || rec->op == TOP_COMM_DUP) {
            if (r->n == r->cap) {
                r->cap = r->cap ? 2 * r->cap : 4;
                r->c = xrealloc_or_die(r->c, sizeof *r->c * (size_t)r->cap);
            }
            bool dup = rec->op == TOP_COMM_DUP;
            r->c[r->n++] = (struct creation){rec->comm, dup ? 0 : rec->color, dup ? 0 : rec->key,
                                             -1, rec->newcomm};
        }
        trace_release(t, rec);
    }
    return !err->set;
}

static int32_t add_comm(struct otf2_comms *c, int32_t parent, int32_t n) {
    if (c->ncomms == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 8;
        c->comms = xrealloc_or_die(c->comms, sizeof *c->comms * (size_t)c->cap);
    }
    c->comms[c->ncomms] =
        (struct gcomm){xmalloc(sizeof(int32_t) * (size_t)(n > 0 ? n : 1)), n, parent};
    return c->ncomms++;
}

struct split_member {
    int32_t color, key, place, rank;
};

static int by_color_key(const void *a, const void *b) {
    const struct split_member *x = a, *y = b;
    if (x->color != y->color) return x->color < y->color ? -1 : 1;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return (x->place > y->place) - (x->place < y->place);
}

/* Whether every member of g has a creation on g as its next one. */
static bool call_ready(const struct otf2_comms *c, int32_t g) {
    const struct gcomm *p = &c->comms[g];
    for (int32_t i = 0; i < p->n; i++) {
        const struct rank_comms *r = &c->ranks[p->members[i]];
        if (r->next >= r->n || otf2_comms_lookup(c, p->members[i], r->c[r->next].parent) != g)
            return false;
    }
    return p->n > 0;
}

/* The call on g every member has reached: its new communicators. */
static void resolve(struct otf2_comms *c, int32_t g) {
    int32_t n = c->comms[g].n;
    struct split_member *m = xmalloc(sizeof *m * (size_t)(n > 0 ? n : 1));
    for (int32_t i = 0; i < n; i++) {
        int32_t rank = c->comms[g].members[i];
        struct creation *k = &c->ranks[rank].c[c->ranks[rank].next];
        m[i] = (struct split_member){k->color, k->key, i, rank};
    }
    qsort(m, (size_t)n, sizeof *m, by_color_key);
    for (int32_t i = 0, j; i < n; i = j) {
        for (j = i; j < n && m[j].color == m[i].color;)
            j++;
        int32_t made = m[i].color == SIM_UNDEFINED ? -1 : add_comm(c, g, j - i);
        for (int32_t k = i; k < j; k++) {
            struct rank_comms *r = &c->ranks[m[k].rank];
            struct creation *cr = &r->c[r->next++];
            cr->made = made;
            if (made < 0) continue;
            c->comms[made].members[k - i] = m[k].rank;
            map_put(r, cr->newcomm, made);
        }
    }
    free(m);
}

struct otf2_comms *otf2_comms_scan(const char *in, struct sim_error *err) {
    struct trace_reader *t = trace_open_convertible(in, err);
    if (!t) return NULL;
    struct otf2_comms *c = xcalloc(1, sizeof *c);
    c->nranks = trace_ranks(t);
    c->ranks = xcalloc((size_t)c->nranks, sizeof *c->ranks);
    bool ok = true;
    for (int32_t r = 0; r < c->nranks && ok; r++)
        ok = collect(c, t, r, err);
    trace_close(t);
    int32_t world = add_comm(c, -1, c->nranks);
    for (int32_t r = 0; r < c->nranks; r++)
        c->comms[world].members[r] = r;
    for (bool progress = ok; progress;) {
        progress = false;
        for (int32_t g = 0; g < c->ncomms; g++)
            while (call_ready(c, g)) {
                resolve(c, g);
                progress = true;
            }
    }
    for (int32_t r = 0; r < c->nranks && ok; r++)
        if (c->ranks[r].next < c->ranks[r].n)
            ok = err_set(err,
                         "%s: rank %d: its communicator creations do not match the other "
                         "ranks' (creation %d of %d, on its communicator %d)",
                         in, r, c->ranks[r].next + 1, c->ranks[r].n,
                         c->ranks[r].c[c->ranks[r].next].parent);
    if (!ok) {
        otf2_comms_free(c);
        return NULL;
    }
    return c;
}

int32_t otf2_comms_count(const struct otf2_comms *c) {
    return c->ncomms;
}

const int32_t *otf2_comms_members(const struct otf2_comms *c, int32_t g, int32_t *n,
                                  int32_t *parent) {
    *n = c->comms[g].n;
    *parent = c->comms[g].parent;
    return c->comms[g].members;
}

void otf2_comms_free(struct otf2_comms *c) {
    if (!c) return;
    for (int32_t r = 0; r < c->nranks; r++) {
        free(c->ranks[r].c);
        free(c->ranks[r].local);
        free(c->ranks[r].global);
        free(c->ranks[r].selfs);
    }
    for (int32_t g = 0; g < c->ncomms; g++)
        free(c->comms[g].members);
    free(c->ranks);
    free(c->comms);
    free(c);
}
