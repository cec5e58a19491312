/* SPDX-License-Identifier: BSD-3-Clause */
/* Flow-level contention: every transfer is a flow along its route (the
 * topology's links, plus the injection and ejection links of a direct
 * network). A flow first waits the route's latency (overhead + link
 * latencies, paid once), then sends its bytes at a rate that the links'
 * bandwidths decide: each link's bandwidth is shared max-min fairly among
 * the flows crossing it (progressive filling: the link with the smallest
 * fair share fixes the rate of its flows, which are taken out of every
 * other link, and so on). Whenever flows start sending or end, the rates
 * of the flows crossing their links are recomputed (the others keep
 * theirs and the bandwidth they use), their bytes sent so far are
 * accounted, and the completion events of those whose rate changed are
 * moved: the cost grows with the flows touched, not with all flows. This
 * is exact max-min whenever every flow whose fair rate changes shares a
 * link with a flow that started or ended (two flows on a link, flows
 * through one backbone...); elsewhere a flow keeps its rate until a flow
 * on one of its links starts or ends. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "net/contention_internal.h"

struct flink;
struct share_entry;

struct flow {
    struct flow *prev, *next; /* every flow not yet freed */
    void *arg;
    int32_t *links; /* indices in the link table */
    int32_t *slots; /* its place in each of those links' flow arrays */
    int nlinks;
    double remaining; /* bytes */
    double rate;      /* bytes/s */
    double old_rate;  /* before the current recomputation */
    simtime_t last;   /* when remaining was last brought up to date */
    uint32_t gen;     /* of its latest completion event (earlier ones are stale) */
    uint32_t mark;
    int32_t events; /* scheduled and not yet delivered: freed when none is left */
    int32_t job;    /* its source node's job (several jobs), or -1 */
    bool fixed, ended;
};

struct flink {
    int64_t id;
    double capacity; /* bytes/s */
    struct flow **flows;
    int32_t nflows, cap;
    uint32_t mark, ver;
    int64_t cpos; /* place in the collected links */
    bool dirty;
    /* progressive filling */
    double left;
    int32_t unfixed;
    /* statistics */
    double bytes, busy;
    simtime_t busy_since;
    double *job_bytes; /* several jobs: each one's bytes (made at its first) */
};

struct flows {
    struct flink *links;
    int32_t nlinks, links_cap;
    int32_t *slots; /* open addressing: link id -> index + 1 */
    int64_t slots_cap;
    uint32_t stamp;
    struct flow **comp_flows;
    int32_t *comp_links;
    int64_t ncomp_flows, ncomp_links, comp_flows_cap, comp_links_cap;
    int64_t *route;
    int *classes;
    int64_t updates; /* flows whose rate was recomputed */
    int32_t njobs;   /* several jobs: links count each one's bytes */
    struct flow *all;
    struct share_entry *heap;
    int64_t nheap, heap_cap;
    int32_t *dirty; /* links whose flows changed since the last recomputation */
    int32_t ndirty, dirty_cap;
    bool pending; /* a recomputation event is scheduled at the current time */
};

/* gen 0: latency paid, start sending; UINT32_MAX: recompute the rates
 * (arg NULL); otherwise the end of a flow, if gen is its latest. */
enum { PHASE_SEND = 0 };
#define PHASE_RECOMPUTE UINT32_MAX

static bool flow_create(struct contention *c, struct sim_error *err) {
    (void)err;
    struct flows *f = xcalloc(1, sizeof *f);
    f->slots_cap = 1024;
    f->slots = xcalloc((size_t)f->slots_cap, sizeof *f->slots);
    f->route = xmalloc(sizeof *f->route * (TOPO_MAX_HOPS + 3));
    f->classes = xmalloc(sizeof *f->classes * (TOPO_MAX_HOPS + 3));
    c->priv = f;
    return true;
}

static void flow_destroy(struct contention *c) {
    struct flows *f = c->priv;
    while (f->all) { /* a run that stopped early */
        struct flow *fl = f->all;
        f->all = fl->next;
        free(fl->links);
        free(fl);
    }
    for (int32_t i = 0; i < f->nlinks; i++) {
        free(f->links[i].flows);
        free(f->links[i].job_bytes);
    }
    free(f->links);
    free(f->slots);
    free(f->comp_flows);
    free(f->comp_links);
    free(f->dirty);
    free(f->heap);
    free(f->route);
    free(f->classes);
    free(f);
}

static uint64_t hash_id(int64_t id) {
    uint64_t x = (uint64_t)id * 0x9e3779b97f4a7c15ull;
    return x ^ (x >> 29);
}

static void rehash(struct flows *f) {
    f->slots_cap *= 2;
    free(f->slots);
    f->slots = xcalloc((size_t)f->slots_cap, sizeof *f->slots);
    for (int32_t i = 0; i < f->nlinks; i++) {
        uint64_t h = hash_id(f->links[i].id) & (uint64_t)(f->slots_cap - 1);
        while (f->slots[h])
            h = (h + 1) & (uint64_t)(f->slots_cap - 1);
        f->slots[h] = i + 1;
    }
}

/* The link table index of link id, created on first use. */
static int32_t link_index(struct contention *c, int64_t id, double capacity) {
    struct flows *f = c->priv;
    uint64_t mask = (uint64_t)(f->slots_cap - 1), h = hash_id(id) & mask;
    for (; f->slots[h]; h = (h + 1) & mask)
        if (f->links[f->slots[h] - 1].id == id) return f->slots[h] - 1;
    if (f->nlinks == f->links_cap) {
        f->links_cap = f->links_cap ? 2 * f->links_cap : 64;
        f->links = xrealloc_or_die(f->links, sizeof *f->links * (size_t)f->links_cap);
    }
    int32_t i = f->nlinks++;
    f->links[i] = (struct flink){.id = id, .capacity = capacity};
    f->slots[h] = i + 1;
    if ((int64_t)f->nlinks * 2 > f->slots_cap) rehash(f);
    return i;
}

static void flow_start(struct contention *c, int32_t src, int32_t dst, int64_t size, simtime_t at,
                       void *arg) {
    struct flows *f = c->priv;
    const struct topology *t = &c->net->topo;
    int hops, n = 1;
    double bw_intra = 0;
    simtime_t lat;
    if (src == dst) { /* intra-node, with network.intra_contention: the node's memory */
        f->route[0] = t->links + 2 * t->nodes + 1 + src;
        bw_intra = p2p_model_bandwidth(&c->net->intra);
        lat = p2p_model_cost(&c->net->intra, 0);
    } else {
        n = network_route(c->net, src, dst, f->route, f->classes, &hops);
        lat = simtime_from_seconds(network_path(c->net, src, dst)->latency);
    }
    struct flow *fl = xcalloc(1, sizeof *fl);
    fl->next = f->all;
    if (f->all) f->all->prev = fl;
    f->all = fl;
    fl->arg = arg;
    fl->job = c->node_job ? c->node_job[src] : -1;
    f->njobs = c->njobs;
    fl->remaining = (double)size;
    fl->links = xmalloc(sizeof *fl->links * (size_t)(n ? 2 * n : 1));
    fl->slots = fl->links + n;
    fl->nlinks = n;
    for (int i = 0; i < n; i++)
        fl->links[i] =
            link_index(c, f->route[i], src == dst ? bw_intra : t->cls[f->classes[i]].bandwidth);
    fl->events++;
    engine_schedule(c->eng, simtime_add(at, lat), -1, c->kind, PHASE_SEND, fl);
}

/* Brings a flow's remaining bytes up to now, and its links' statistics. */
static void advance(struct flows *f, struct flow *fl, simtime_t now) {
    double dt = simtime_to_seconds(now - fl->last), sent = fl->rate * dt;
    if (sent > fl->remaining) sent = fl->remaining;
    fl->remaining -= sent;
    fl->last = now;
    for (int i = 0; i < fl->nlinks; i++) {
        struct flink *l = &f->links[fl->links[i]];
        l->bytes += sent;
        if (fl->job < 0 || sent == 0) continue;
        if (!l->job_bytes) l->job_bytes = xcalloc((size_t)f->njobs, sizeof *l->job_bytes);
        l->job_bytes[fl->job] += sent;
    }
}

static void push_flow(struct flows *f, struct flow *fl) {
    if (f->ncomp_flows == f->comp_flows_cap) {
        f->comp_flows_cap = f->comp_flows_cap ? 2 * f->comp_flows_cap : 64;
        f->comp_flows =
            xrealloc_or_die(f->comp_flows, sizeof *f->comp_flows * (size_t)f->comp_flows_cap);
    }
    f->comp_flows[f->ncomp_flows++] = fl;
}

static void push_link(struct flows *f, int32_t l) {
    if (f->ncomp_links == f->comp_links_cap) {
        f->comp_links_cap = f->comp_links_cap ? 2 * f->comp_links_cap : 64;
        f->comp_links =
            xrealloc_or_die(f->comp_links, sizeof *f->comp_links * (size_t)f->comp_links_cap);
    }
    f->comp_links[f->ncomp_links++] = l;
}

/* The flows crossing the seed links (those whose rates are recomputed),
 * and every link they cross. */
static void collect(struct flows *f, const int32_t *seed, int64_t nseed) {
    f->stamp++;
    f->ncomp_flows = f->ncomp_links = 0;
    for (int64_t i = 0; i < nseed; i++) {
        struct flink *l = &f->links[seed[i]];
        for (int32_t j = 0; j < l->nflows; j++) {
            struct flow *fl = l->flows[j];
            if (fl->mark == f->stamp) continue;
            fl->mark = f->stamp;
            push_flow(f, fl);
        }
    }
    for (int64_t k = 0; k < f->ncomp_flows; k++) {
        const struct flow *fl = f->comp_flows[k];
        for (int m = 0; m < fl->nlinks; m++)
            if (f->links[fl->links[m]].mark != f->stamp) {
                f->links[fl->links[m]].mark = f->stamp;
                push_link(f, fl->links[m]);
            }
    }
}

/* A candidate bottleneck: a link's fair share when it was pushed. */
struct share_entry {
    double share;
    int64_t pos; /* the link's place in comp_links: ties go to the first */
    uint32_t ver;
};

static bool entry_before(const struct share_entry *a, const struct share_entry *b) {
    return a->share < b->share || (a->share == b->share && a->pos < b->pos);
}

static void heap_push(struct flows *f, struct share_entry e) {
    if (f->nheap == f->heap_cap) {
        f->heap_cap = f->heap_cap ? 2 * f->heap_cap : 256;
        f->heap = xrealloc_or_die(f->heap, sizeof *f->heap * (size_t)f->heap_cap);
    }
    int64_t i = f->nheap++;
    while (i > 0 && entry_before(&e, &f->heap[(i - 1) / 2])) {
        f->heap[i] = f->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    f->heap[i] = e;
}

static struct share_entry heap_pop(struct flows *f) {
    struct share_entry top = f->heap[0], last = f->heap[--f->nheap];
    int64_t i = 0, n = f->nheap;
    for (;;) {
        int64_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && entry_before(&f->heap[c + 1], &f->heap[c])) c++;
        if (!entry_before(&f->heap[c], &last)) break;
        f->heap[i] = f->heap[c];
        i = c;
    }
    if (n > 0) f->heap[i] = last;
    return top;
}

static void push_link_share(struct flows *f, struct flink *l) {
    if (l->unfixed > 0) heap_push(f, (struct share_entry){l->left / l->unfixed, l->cpos, ++l->ver});
}

/* Max-min fair rates of the collected flows, by progressive filling: the
 * link with the smallest fair share (bandwidth left / flows not yet fixed)
 * fixes its flows at that share, which is taken from their other links;
 * shares only grow as flows are fixed, so candidates wait in a heap and an
 * outdated entry is skipped. */
static void fill(struct flows *f) {
    f->nheap = 0;
    for (int64_t k = 0; k < f->ncomp_links; k++) { /* what the other flows leave */
        struct flink *l = &f->links[f->comp_links[k]];
        l->left = l->capacity;
        l->unfixed = 0;
        l->cpos = k;
        for (int32_t j = 0; j < l->nflows; j++) {
            if (l->flows[j]->mark == f->stamp)
                l->unfixed++;
            else
                l->left -= l->flows[j]->rate;
        }
        if (l->left < l->capacity * 1e-9) l->left = l->capacity * 1e-9; /* rounding */
        push_link_share(f, l);
    }
    for (int64_t k = 0; k < f->ncomp_flows; k++)
        f->comp_flows[k]->fixed = false;
    while (f->nheap > 0) {
        struct share_entry e = heap_pop(f);
        struct flink *tight = &f->links[f->comp_links[e.pos]];
        if (e.ver != tight->ver || tight->unfixed == 0) continue; /* outdated */
        for (int32_t j = 0; j < tight->nflows; j++) {
            struct flow *fl = tight->flows[j];
            if (fl->fixed || fl->mark != f->stamp) continue;
            fl->fixed = true;
            fl->rate = e.share;
            for (int m = 0; m < fl->nlinks; m++) {
                struct flink *o = &f->links[fl->links[m]];
                o->left -= e.share;
                if (o->left < 0) o->left = 0;
                o->unfixed--;
                if (o != tight) push_link_share(f, o);
            }
        }
    }
}

/* Recomputes the rates around the seed links and moves the completions. */
static void rebalance(struct contention *c, const int32_t *seed, int64_t nseed) {
    struct flows *f = c->priv;
    simtime_t now = c->eng->now;
    collect(f, seed, nseed);
    for (int64_t k = 0; k < f->ncomp_flows; k++) {
        advance(f, f->comp_flows[k], now);
        f->comp_flows[k]->old_rate = f->comp_flows[k]->rate;
    }
    fill(f);
    f->updates += f->ncomp_flows;
    for (int64_t k = 0; k < f->ncomp_flows; k++) {
        struct flow *fl = f->comp_flows[k];
        if (fl->rate == fl->old_rate && fl->gen > 0) continue; /* its end stays */
        double secs = fl->remaining / fl->rate;
        simtime_t end =
            secs < 9e6 ? simtime_add(now, (simtime_t)llround(secs * 1e12)) : SIMTIME_NEVER;
        fl->events++;
        engine_schedule(c->eng, end, -1, c->kind, ++fl->gen, fl);
    }
}

static void link_add(struct flink *l, struct flow *fl, int m, simtime_t now) {
    if (l->nflows == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4;
        l->flows = xrealloc_or_die(l->flows, sizeof *l->flows * (size_t)l->cap);
    }
    if (l->nflows == 0) l->busy_since = now;
    fl->slots[m] = l->nflows;
    l->flows[l->nflows++] = fl;
}

/* Takes the flow out of its m-th link: the last flow there takes its
 * place (and learns its new slot). */
static void link_remove(struct flows *f, struct flow *fl, int m, simtime_t now) {
    struct flink *l = &f->links[fl->links[m]];
    int32_t j = fl->slots[m], end = --l->nflows;
    struct flow *last = l->flows[end];
    l->flows[j] = last;
    for (int k = 0; k < last->nlinks; k++) /* a route may cross a link twice */
        if (last->links[k] == fl->links[m] && last->slots[k] == end) last->slots[k] = j;
    if (l->nflows == 0) l->busy += simtime_to_seconds(now - l->busy_since);
}

static void release(struct flows *f, struct flow *fl) {
    if (!fl->ended || fl->events > 0) return;
    if (fl->prev)
        fl->prev->next = fl->next;
    else
        f->all = fl->next;
    if (fl->next) fl->next->prev = fl->prev;
    free(fl->links);
    free(fl);
}

static void finish(struct contention *c, struct flow *fl) {
    fl->ended = true;
    c->done(c->ctx, fl->arg);
}

/* Marks a flow's links for the recomputation at the current time, which
 * runs once however many flows start or end at this time. */
static void mark_dirty(struct contention *c, const struct flow *fl) {
    struct flows *f = c->priv;
    for (int i = 0; i < fl->nlinks; i++) {
        struct flink *l = &f->links[fl->links[i]];
        if (l->dirty) continue;
        l->dirty = true;
        if (f->ndirty == f->dirty_cap) {
            f->dirty_cap = f->dirty_cap ? 2 * f->dirty_cap : 64;
            f->dirty = xrealloc_or_die(f->dirty, sizeof *f->dirty * (size_t)f->dirty_cap);
        }
        f->dirty[f->ndirty++] = fl->links[i];
    }
    if (!f->pending) {
        f->pending = true;
        engine_schedule(c->eng, c->eng->now, -1, c->kind, PHASE_RECOMPUTE, NULL);
    }
}

static void recompute_dirty(struct contention *c) {
    struct flows *f = c->priv;
    f->pending = false;
    for (int32_t i = 0; i < f->ndirty; i++)
        f->links[f->dirty[i]].dirty = false;
    rebalance(c, f->dirty, f->ndirty);
    f->ndirty = 0;
}

static void flow_event(struct contention *c, const struct event *ev) {
    struct flows *f = c->priv;
    struct flow *fl = ev->arg;
    simtime_t now = c->eng->now;
    if (ev->gen == PHASE_RECOMPUTE) {
        recompute_dirty(c);
        return;
    }
    fl->events--;
    if (fl->ended || (ev->gen != PHASE_SEND && ev->gen != fl->gen)) { /* moved since */
        release(f, fl);
        return;
    }
    if (ev->gen == PHASE_SEND) {
        if (fl->remaining <= 0 || fl->nlinks == 0) {
            finish(c, fl);
            release(f, fl);
            return;
        }
        fl->last = now;
        for (int i = 0; i < fl->nlinks; i++)
            link_add(&f->links[fl->links[i]], fl, i, now);
        mark_dirty(c, fl);
        return;
    }
    advance(f, fl, now);
    for (int i = 0; i < fl->nlinks; i++)
        link_remove(f, fl, i, now);
    mark_dirty(c, fl);
    finish(c, fl);
    release(f, fl);
}

static int by_busy(const void *a, const void *b) {
    const struct link_load *x = a, *y = b;
    if (x->busy != y->busy) return x->busy < y->busy ? 1 : -1;
    return x->link < y->link ? -1 : x->link > y->link;
}

static int flow_top_links(const struct contention *c, struct link_load *out, int n) {
    const struct flows *f = c->priv;
    struct link_load *all = xcalloc((size_t)f->nlinks + 1, sizeof *all);
    for (int32_t i = 0; i < f->nlinks; i++)
        all[i] = (struct link_load){f->links[i].id, f->links[i].busy, f->links[i].bytes,
                                    f->links[i].capacity};
    qsort(all, (size_t)f->nlinks, sizeof *all, by_busy);
    int k = n < f->nlinks ? n : f->nlinks;
    memcpy(out, all, sizeof *out * (size_t)k);
    free(all);
    return k;
}

/* The bytes a link carried beyond its largest job's (0: one job's only). */
static double met_bytes(const struct flows *f, const struct flink *l) {
    double largest = 0;
    for (int32_t j = 0; l->job_bytes && j < f->njobs; j++)
        if (l->job_bytes[j] > largest) largest = l->job_bytes[j];
    return l->job_bytes ? l->bytes - largest : 0;
}

static int by_met(const void *a, const void *b) {
    const struct link_shared *x = a, *y = b;
    if (x->met != y->met) return x->met < y->met ? 1 : -1;
    return x->link < y->link ? -1 : x->link > y->link;
}

static int flow_shared_links(const struct contention *c, struct link_shared *out, int n) {
    const struct flows *f = c->priv;
    struct link_shared *all = xcalloc((size_t)f->nlinks + 1, sizeof *all);
    int32_t k = 0;
    for (int32_t i = 0; i < f->nlinks; i++) {
        double met = met_bytes(f, &f->links[i]);
        if (met > 0) all[k++] = (struct link_shared){f->links[i].id, met, f->links[i].job_bytes};
    }
    qsort(all, (size_t)k, sizeof *all, by_met);
    if (k > n) k = n;
    memcpy(out, all, sizeof *out * (size_t)k);
    free(all);
    return k;
}

const struct contention_ops contention_flow = {
    "flow", flow_create, flow_start, flow_event, flow_top_links, flow_destroy, flow_shared_links};
