/* SPDX-License-Identifier: BSD-3-Clause */
/* The simulated run's timeline as an OTF2 archive (--otf2 DIR), for Vampir
 * and the OTF2 tools: the events chrome.c gathers (chrome_internal.h),
 * written per rank in virtual time (picosecond ticks). Each MPI period is
 * its call's region (a collective's with MpiCollectiveBegin/End), each
 * non-blocking call posted a region of no length, each interval a USER
 * region, each point-to-point message an MpiSend at its logical send and an
 * MpiRecv at its arrival; the time between MPI regions is the rank's
 * computation, inside "main". Events of one time keep an order that nests:
 * a receive, the period left, the interval left, the interval entered, the
 * calls posted, the period entered, a send. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "report/chrome_internal.h"
#include "report/otf2out.h"

/* Kinds of record, in their order at one time. */
enum { TL_RECV, TL_LEAVE, TL_INTERVAL_LEAVE, TL_INTERVAL_ENTER, TL_POSTED, TL_ENTER, TL_SEND };

struct tl_rec {
    simtime_t t;
    const struct ch_ev *ev;
    uint32_t order; /* the gathering order: ties stay in it */
    int32_t loc;    /* the rank whose location holds it */
    uint8_t kind;
};

static int by_rank_time(const void *x, const void *y) {
    const struct tl_rec *a = x, *b = y;
    if (a->loc != b->loc) return a->loc < b->loc ? -1 : 1;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
    return (a->order > b->order) - (a->order < b->order);
}

/* Region references: the MPI calls (enum sim_call), then "main", then the
 * intervals' names. */
#define REGION_MAIN ((uint32_t)SIM_CALLS)

static void add(struct tl_rec **v, size_t *n, size_t *cap, int32_t loc, simtime_t t, uint8_t kind,
                const struct ch_ev *e) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 256;
        *v = xrealloc_or_die(*v, sizeof **v * *cap);
    }
    (*v)[*n] = (struct tl_rec){t, e, (uint32_t)*n, loc, kind};
    (*n)++;
}

/* Every rank's records, sorted by rank, then time. */
static size_t all_records(const struct chrome *c, struct tl_rec **v) {
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < c->n; i++) {
        const struct ch_ev *e = &c->ev[i];
        if (e->kind == CH_MESSAGE) {
            if (e->a) continue; /* a collective's: inside its region */
            add(v, &n, &cap, e->rank, e->t, TL_SEND, e);
            add(v, &n, &cap, e->peer, e->t2, TL_RECV, e);
        } else if (e->kind == CH_PERIOD && e->b != 0 && e->a != SIM_ST_RUNNING) {
            add(v, &n, &cap, e->rank, e->t, TL_ENTER, e);
            add(v, &n, &cap, e->rank, e->t2, TL_LEAVE, e);
        } else if (e->kind == CH_INSTANT) {
            add(v, &n, &cap, e->rank, e->t, TL_POSTED, e);
        } else if (e->kind == CH_BEGIN || e->kind == CH_END) {
            add(v, &n, &cap, e->rank, e->t,
                e->kind == CH_BEGIN ? TL_INTERVAL_ENTER : TL_INTERVAL_LEAVE, e);
        }
    }
    if (n) qsort(*v, n, sizeof **v, by_rank_time);
    return n;
}

static bool is_collective(uint16_t call) {
    return call >= SIM_CALL_COLL && call < SIM_CALLS;
}

static void write_record(OTF2_EvtWriter *w, const struct tl_rec *x, uint32_t *stack,
                         int32_t *depth) {
    const struct ch_ev *e = x->ev;
    switch (x->kind) {
    case TL_SEND:
        OTF2_EvtWriter_MpiSend(w, NULL, x->t, (uint32_t)e->peer, 0, (uint32_t)e->tag,
                               (uint64_t)e->size);
        break;
    case TL_RECV:
        OTF2_EvtWriter_MpiRecv(w, NULL, x->t, (uint32_t)e->rank, 0, (uint32_t)e->tag,
                               (uint64_t)e->size);
        break;
    case TL_ENTER:
        OTF2_EvtWriter_Enter(w, NULL, x->t, e->b);
        if (is_collective(e->b)) OTF2_EvtWriter_MpiCollectiveBegin(w, NULL, x->t);
        break;
    case TL_LEAVE:
        if (is_collective(e->b)) {
            static const OTF2_CollectiveOp ops[COLL_KINDS] = {
                OTF2_COLLECTIVE_OP_BARRIER,        OTF2_COLLECTIVE_OP_BCAST,
                OTF2_COLLECTIVE_OP_REDUCE,         OTF2_COLLECTIVE_OP_ALLREDUCE,
                OTF2_COLLECTIVE_OP_GATHER,         OTF2_COLLECTIVE_OP_SCATTER,
                OTF2_COLLECTIVE_OP_ALLGATHER,      OTF2_COLLECTIVE_OP_ALLTOALL,
                OTF2_COLLECTIVE_OP_REDUCE_SCATTER, OTF2_COLLECTIVE_OP_SCAN,
                OTF2_COLLECTIVE_OP_EXSCAN};
            OTF2_EvtWriter_MpiCollectiveEnd(w, NULL, x->t, ops[e->b - SIM_CALL_COLL], 0,
                                            OTF2_UNDEFINED_UINT32, 0, 0);
        }
        OTF2_EvtWriter_Leave(w, NULL, x->t, e->b);
        break;
    case TL_POSTED:
        OTF2_EvtWriter_Enter(w, NULL, x->t, e->a);
        OTF2_EvtWriter_Leave(w, NULL, x->t, e->a);
        break;
    case TL_INTERVAL_ENTER:
        stack[(*depth)++] = REGION_MAIN + 1 + (uint32_t)e->peer;
        OTF2_EvtWriter_Enter(w, NULL, x->t, stack[*depth - 1]);
        break;
    default:
        if (*depth > 0) OTF2_EvtWriter_Leave(w, NULL, x->t, stack[--*depth]);
    }
}

/* Rank r's records v[0..n); *end gets its last time. */
static void write_rank(OTF2_Archive *a, int32_t r, const struct tl_rec *v, size_t n,
                       simtime_t *end) {
    OTF2_EvtWriter *w = OTF2_Archive_GetEvtWriter(a, (OTF2_LocationRef)r);
    uint32_t *stack = xmalloc(sizeof *stack * (n + 1));
    int32_t depth = 0;
    OTF2_EvtWriter_Enter(w, NULL, 0, REGION_MAIN);
    simtime_t last = 0;
    for (size_t i = 0; i < n; i++) {
        write_record(w, &v[i], stack, &depth);
        last = v[i].t;
    }
    while (depth > 0)
        OTF2_EvtWriter_Leave(w, NULL, last, stack[--depth]);
    OTF2_EvtWriter_Leave(w, NULL, last, REGION_MAIN);
    OTF2_Archive_CloseEvtWriter(a, w);
    free(stack);
    if (last > *end) *end = last;
}

static void write_regions(const struct chrome *c, OTF2_GlobalDefWriter *d, uint32_t s) {
    for (uint32_t k = 0; k < (uint32_t)SIM_CALLS; k++, s++) {
        OTF2_GlobalDefWriter_WriteString(d, s, sim_call_name((enum sim_call)k));
        OTF2_GlobalDefWriter_WriteRegion(d, k, s, s, 0,
                                         is_collective((uint16_t)k) ? OTF2_REGION_ROLE_COLL_ALL2ALL
                                                                    : OTF2_REGION_ROLE_POINT2POINT,
                                         k ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                         OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
    OTF2_GlobalDefWriter_WriteString(d, s, "main");
    OTF2_GlobalDefWriter_WriteRegion(d, REGION_MAIN, s, s, 0, OTF2_REGION_ROLE_FUNCTION,
                                     OTF2_PARADIGM_COMPILER, OTF2_REGION_FLAG_NONE, 0, 0, 0);
    s++;
    for (int32_t i = 0; i < c->nnames; i++, s++) {
        OTF2_GlobalDefWriter_WriteString(d, s, c->names[i]);
        OTF2_GlobalDefWriter_WriteRegion(d, REGION_MAIN + 1 + (uint32_t)i, s, s, 0,
                                         OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER,
                                         OTF2_REGION_FLAG_NONE, 0, 0, 0);
    }
}

bool chrome_write_otf2(struct chrome *c, struct sim_error *err) {
    OTF2_Archive *a = otf2out_open(c->otf2_dir, "simpi (the simulated run)", err);
    if (!a) return false;
    struct tl_rec *v = NULL;
    size_t n = all_records(c, &v), at = 0;
    simtime_t end = 0;
    for (int32_t r = 0; r < c->nranks; r++) {
        size_t from = at;
        while (at < n && v[at].loc == r)
            at++;
        write_rank(a, r, v + from, at - from, &end);
    }
    free(v);
    uint32_t s;
    OTF2_GlobalDefWriter *d = otf2out_defs(a, c->nranks, (uint64_t)end, &s);
    write_regions(c, d, s);
    return otf2out_finish(a, c->otf2_dir, c->nranks, true, err);
}
