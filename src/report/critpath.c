/* SPDX-License-Identifier: BSD-3-Clause */
/* The critical path (docs/analysis.md, "The critical path"): the chain of
 * computation bursts, waits and messages that ends at the predicted time.
 * The observer's periods and messages are kept per rank; at the end the
 * chain is walked back from the rank that finished last: a burst leads to
 * what its rank did before it; a wait that a message ended leads to that
 * message's sender when it posted the send (or, for a message that could
 * leave only once its receive was posted, to the receiver at that post); a
 * send that ended when its message was received late (rendezvous,
 * synchronous) leads to the receiver when it posted the receive; a wait no
 * message ended, to what its rank did before it. Its length splits
 * into computation, latency (the network's cost of an empty message on the
 * route), transfer (the rest of the message's cost on an idle network) and
 * waiting (handshakes, queues at interfaces and links, MPI calls' own time
 * and what no message explains). Each message and each period is taken at
 * most once, so the walk ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "core/alloc.h"
#include "core/escape.h"
#include "core/units.h"
#include "net/network.h"
#include "report/analysis_internal.h"

/* Beyond this many periods and messages kept (a message counts twice: its
 * sender's and its receiver's), the path is not computed and a note says
 * so: about 400 MB. */
#define CP_MAX_RECORDS ((size_t)8 << 20)

struct cp_period {
    simtime_t begin, end;
    uint8_t running;
};

struct cp_msg {
    simtime_t lsend, psend, lrecv, precv;
    int64_t size;
    int32_t from, to;
};

/* A rank's periods, the messages it received and those it sent. */
struct cp_rank {
    struct cp_period *p;
    struct cp_msg *m, *out;
    size_t np, capp, nm, capm, nout, capout;
    simtime_t finish;
};

struct critpath {
    int32_t nranks;
    struct cp_rank *r;
    size_t records;
    bool over, computed;
    struct cp_totals tot;
    struct cp_segment *seg;
    size_t nseg, capseg;
};

struct critpath *critpath_open(const struct sim *s) {
    struct critpath *cp = xcalloc(1, sizeof *cp);
    cp->nranks = sim_size(s);
    cp->r = xcalloc((size_t)cp->nranks, sizeof *cp->r);
    return cp;
}

void critpath_free(struct critpath *cp) {
    if (!cp) return;
    for (int32_t i = 0; i < cp->nranks; i++) {
        free(cp->r[i].p);
        free(cp->r[i].m);
        free(cp->r[i].out);
    }
    free(cp->r);
    free(cp->seg);
    free(cp);
}

/* Past the limit: what was kept is of no use now. */
static void give_up(struct critpath *cp) {
    cp->over = true;
    for (int32_t i = 0; i < cp->nranks; i++) {
        simtime_t finish = cp->r[i].finish;
        free(cp->r[i].p);
        free(cp->r[i].m);
        free(cp->r[i].out);
        cp->r[i] = (struct cp_rank){.finish = finish};
    }
}

/* One more record kept; false past the limit (then nothing more is). */
static bool room(struct critpath *cp) {
    if (cp->over) return false;
    if (++cp->records <= CP_MAX_RECORDS) return true;
    give_up(cp);
    return false;
}

void critpath_period(struct critpath *cp, const struct sim_period *p) {
    if (p->rank < 0 || p->rank >= cp->nranks || p->end <= p->begin || !room(cp)) return;
    struct cp_rank *r = &cp->r[p->rank];
    if (r->np == r->capp) {
        r->capp = r->capp ? 2 * r->capp : 16;
        r->p = xrealloc_or_die(r->p, sizeof *r->p * r->capp);
    }
    r->p[r->np++] = (struct cp_period){p->begin, p->end, p->state == SIM_ST_RUNNING};
}

/* Appends msg to a list of them (*v of *n, room for *cap). */
static void push_msg(struct cp_msg **v, size_t *n, size_t *cap, const struct cp_msg *msg) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 16;
        *v = xrealloc_or_die(*v, sizeof **v * *cap);
    }
    (*v)[(*n)++] = *msg;
}

void critpath_message(struct critpath *cp, const struct sim_message *m) {
    if (m->to < 0 || m->to >= cp->nranks || m->from < 0 || m->from >= cp->nranks || !room(cp) ||
        !room(cp))
        return;
    struct cp_msg msg = {m->lsend, m->psend, m->lrecv, m->precv, m->size, m->from, m->to};
    struct cp_rank *to = &cp->r[m->to], *from = &cp->r[m->from];
    push_msg(&to->m, &to->nm, &to->capm, &msg);
    push_msg(&from->out, &from->nout, &from->capout, &msg);
}

void critpath_finish_rank(struct critpath *cp, int32_t rank, simtime_t t) {
    if (rank >= 0 && rank < cp->nranks) cp->r[rank].finish = t;
}

/* --- a split run: each worker's records, gathered in the first --- */

/* A period with its rank, as packed. */
struct cp_packed_period {
    struct cp_period p;
    int32_t rank;
};

void critpath_pack(const struct critpath *cp, bool (*owns)(void *ctx, int32_t rank), void *ctx,
                   struct blob *b) {
    uint64_t over = cp->over, np = 0, nm = 0;
    for (int32_t i = 0; i < cp->nranks; i++)
        if (owns(ctx, i)) {
            np += cp->r[i].np;
            nm += cp->r[i].nm; /* a message is observed where it is received */
        }
    blob_put(b, &over, sizeof over);
    blob_put(b, &np, sizeof np);
    blob_put(b, &nm, sizeof nm);
    for (int32_t i = 0; i < cp->nranks; i++) /* all the periods, then all the messages */
        for (size_t k = 0; owns(ctx, i) && k < cp->r[i].np; k++) {
            struct cp_packed_period pp = {cp->r[i].p[k], i};
            blob_put(b, &pp, sizeof pp);
        }
    for (int32_t i = 0; i < cp->nranks; i++)
        if (owns(ctx, i) && cp->r[i].nm) blob_put(b, cp->r[i].m, sizeof *cp->r[i].m * cp->r[i].nm);
    for (int32_t i = 0; i < cp->nranks; i++)
        if (owns(ctx, i)) {
            simtime_t f[2] = {i, cp->r[i].finish}; /* each rank's finish, its own worker's */
            blob_put(b, f, sizeof f);
        }
    simtime_t end[2] = {-1, 0};
    blob_put(b, end, sizeof end);
}

size_t critpath_unpack(struct critpath *cp, const char *p, size_t len) {
    uint64_t over, np, nm;
    size_t head = 3 * sizeof(uint64_t);
    if (len < head) return 0;
    memcpy(&over, p, sizeof over);
    memcpy(&np, p + 8, sizeof np);
    memcpy(&nm, p + 16, sizeof nm);
    size_t body = (size_t)np * sizeof(struct cp_packed_period) + (size_t)nm * sizeof(struct cp_msg);
    if (np > len || nm > len || len - head < body) return 0;
    const char *at = p + head;
    for (uint64_t k = 0; k < np && !cp->over; k++, at += sizeof(struct cp_packed_period)) {
        struct cp_packed_period pp;
        memcpy(&pp, at, sizeof pp);
        if (pp.rank < 0 || pp.rank >= cp->nranks || !room(cp)) continue;
        struct cp_rank *r = &cp->r[pp.rank];
        if (r->np == r->capp) {
            r->capp = r->capp ? 2 * r->capp : 16;
            r->p = xrealloc_or_die(r->p, sizeof *r->p * r->capp);
        }
        r->p[r->np++] = pp.p;
    }
    at = p + head + (size_t)np * sizeof(struct cp_packed_period);
    for (uint64_t k = 0; k < nm && !cp->over; k++, at += sizeof(struct cp_msg)) {
        struct cp_msg m;
        memcpy(&m, at, sizeof m);
        if (m.to < 0 || m.to >= cp->nranks || m.from < 0 || m.from >= cp->nranks || !room(cp) ||
            !room(cp))
            continue;
        push_msg(&cp->r[m.to].m, &cp->r[m.to].nm, &cp->r[m.to].capm, &m);
        push_msg(&cp->r[m.from].out, &cp->r[m.from].nout, &cp->r[m.from].capout, &m);
    }
    size_t used = head + body;
    for (;;) { /* its ranks' finish times, to the end mark */
        simtime_t f[2];
        if (len - used < sizeof f) return 0;
        memcpy(f, p + used, sizeof f);
        used += sizeof f;
        if (f[0] < 0) break;
        if (f[0] < cp->nranks) cp->r[f[0]].finish = f[1];
    }
    if (over && !cp->over) give_up(cp);
    return used;
}

/* Total orders, so that the path does not depend on the order records
 * came in (a split run gathers them differently). */
static int by_begin(const void *a, const void *b) {
    const struct cp_period *x = a, *y = b;
    if (x->begin != y->begin) return x->begin < y->begin ? -1 : 1;
    if (x->end != y->end) return x->end < y->end ? -1 : 1;
    return (int)x->running - (int)y->running;
}

static int by_arrival(const void *a, const void *b) {
    const struct cp_msg *x = a, *y = b;
    const simtime_t kx[] = {x->precv, x->lsend, x->psend, x->lrecv, x->size, x->from, x->to};
    const simtime_t ky[] = {y->precv, y->lsend, y->psend, y->lrecv, y->size, y->from, y->to};
    for (int i = 0; i < 7; i++)
        if (kx[i] != ky[i]) return kx[i] < ky[i] ? -1 : 1;
    return 0;
}

/* The last period of r beginning before t, below index `below`, or -1. */
static ssize_t period_before(const struct cp_rank *r, simtime_t t, ssize_t below) {
    ssize_t lo = 0, hi = below; /* the first index whose begin >= t, in [lo, hi] */
    while (lo < hi) {
        ssize_t mid = (lo + hi) / 2;
        if (r->p[mid].begin < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - 1;
}

/* The message of list m (by arrival) that ended a wait in (begin, t]: the
 * last to arrive by t after begin, its receive posted by t, below index
 * `below`; or -1. */
static ssize_t message_ending(const struct cp_msg *m, simtime_t begin, simtime_t t, ssize_t below) {
    ssize_t lo = 0, hi = below;
    while (lo < hi) {
        ssize_t mid = (lo + hi) / 2;
        if (m[mid].precv <= t)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (ssize_t i = lo - 1; i >= 0 && m[i].precv > begin; i--)
        if (m[i].lrecv <= t) return i;
    return -1;
}

static void add_segment(struct critpath *cp, int kind, int32_t rank, int32_t from, simtime_t t0,
                        simtime_t t1) {
    if (cp->nseg == cp->capseg) {
        cp->capseg = cp->capseg ? 2 * cp->capseg : 64;
        cp->seg = xrealloc_or_die(cp->seg, sizeof *cp->seg * cp->capseg);
    }
    cp->seg[cp->nseg++] = (struct cp_segment){t0, t1, rank, from, (uint8_t)kind};
}

/* A message's time [lsend, t] on the path, split into its parts. */
static void charge_message(struct critpath *cp, const struct sim *s, const struct cp_msg *m,
                           int32_t to, simtime_t from_t, simtime_t t) {
    const struct network *net = sim_network(s);
    int32_t a = sim_rank_node(s, m->from), b = sim_rank_node(s, to);
    simtime_t lat = network_cost(net, a, b, 0), whole = network_cost(net, a, b, m->size);
    simtime_t flight = m->precv > m->psend ? m->precv - m->psend : 0, span = t - from_t;
    if (lat > flight) lat = flight;
    simtime_t transfer = whole > lat ? whole - lat : 0;
    if (lat + transfer > flight) transfer = flight - lat;
    if (lat + transfer > span) { /* a message bound by its receive: only its last part */
        transfer = span > lat ? span - lat : 0;
        if (lat > span) lat = span;
    }
    cp->tot.latency += lat;
    cp->tot.transfer += transfer;
    cp->tot.waiting += span - lat - transfer;
    cp->tot.messages++;
}

/* The rank that finished last (the lowest of equals), or -1. */
static int32_t last_rank(const struct critpath *cp) {
    int32_t last = -1;
    for (int32_t i = 0; i < cp->nranks; i++)
        if (cp->r[i].np && (last < 0 || cp->r[i].finish > cp->r[last].finish)) last = i;
    return last;
}

void critpath_compute(struct critpath *cp, const struct sim *s) {
    if (cp->over || cp->computed) return;
    ssize_t *pcur = xcalloc((size_t)cp->nranks, sizeof *pcur);
    ssize_t *mcur = xcalloc((size_t)cp->nranks, sizeof *mcur);
    ssize_t *ocur = xcalloc((size_t)cp->nranks, sizeof *ocur);
    for (int32_t i = 0; i < cp->nranks; i++) {
        struct cp_rank *r = &cp->r[i];
        if (r->np) qsort(r->p, r->np, sizeof *r->p, by_begin);
        if (r->nm) qsort(r->m, r->nm, sizeof *r->m, by_arrival);
        if (r->nout) qsort(r->out, r->nout, sizeof *r->out, by_arrival);
        pcur[i] = (ssize_t)r->np;
        mcur[i] = (ssize_t)r->nm;
        ocur[i] = (ssize_t)r->nout;
    }
    int32_t rank = last_rank(cp);
    simtime_t t = rank >= 0 ? cp->r[rank].finish : 0;
    cp->tot.length = t;
    cp->computed = rank >= 0;
    while (rank >= 0 && t > 0) {
        struct cp_rank *r = &cp->r[rank];
        ssize_t i = period_before(r, t, pcur[rank]);
        if (i < 0) { /* before its first period: it started late (a job's start) */
            cp->tot.waiting += t;
            break;
        }
        const struct cp_period *p = &r->p[i];
        pcur[rank] = i;   /* periods from here on are left behind */
        if (p->end < t) { /* a gap: unobserved time */
            cp->tot.waiting += t - p->end;
            t = p->end;
        }
        if (p->running) {
            cp->tot.computation += t - p->begin;
            cp->tot.bursts++;
            add_segment(cp, CP_COMPUTE, rank, rank, p->begin, t);
            t = p->begin;
            continue;
        }
        pcur[rank] = i + 1; /* the wait may have more before a message's send */
        ssize_t k = message_ending(r->m, p->begin, t, mcur[rank]);
        if (k >= 0) { /* a message received ended it */
            const struct cp_msg *m = &r->m[k];
            mcur[rank] = k; /* each message taken once */
            bool bound_by_receive = m->lrecv > m->lsend && m->psend >= m->lrecv;
            simtime_t from_t = bound_by_receive ? m->lrecv : m->lsend;
            charge_message(cp, s, m, rank, from_t, t);
            add_segment(cp, CP_MESSAGE, rank, bound_by_receive ? rank : m->from, from_t, t);
            if (!bound_by_receive) rank = m->from;
            t = from_t;
            continue;
        }
        k = message_ending(r->out, p->begin, t, ocur[rank]);
        if (k >= 0) { /* a send that ended with its receipt (rendezvous, synchronous) */
            const struct cp_msg *m = &r->out[k];
            ocur[rank] = k;
            bool receiver_late = m->lrecv > m->lsend;
            simtime_t from_t = receiver_late ? m->lrecv : m->lsend;
            charge_message(cp, s, m, m->to, from_t, t);
            add_segment(cp, CP_MESSAGE, m->to, receiver_late ? m->to : rank, from_t, t);
            if (receiver_late) rank = m->to;
            t = from_t;
            continue;
        }
        pcur[rank] = i; /* a wait nothing ended: the call's own time */
        cp->tot.waiting += t - p->begin;
        add_segment(cp, CP_MPI, rank, rank, p->begin, t);
        t = p->begin;
    }
    free(pcur);
    free(mcur);
    free(ocur);
}

const struct cp_totals *critpath_totals(const struct critpath *cp) {
    return cp && cp->computed ? &cp->tot : NULL;
}

const struct cp_segment *critpath_segments(const struct critpath *cp, size_t *n) {
    *n = cp && cp->computed ? cp->nseg : 0;
    return cp ? cp->seg : NULL;
}

/* Why a path asked for was not computed, or NULL. */
static const char *why_not(const struct critpath *cp) {
    if (cp->over)
        return "not computed: the run has more than 8 million periods and messages (its "
               "record would take more than 400 MB)";
    return cp->computed ? NULL : "not computed: no rank finished";
}

void critpath_print(const struct critpath *cp, FILE *out) {
    const char *why = why_not(cp);
    if (why) {
        fprintf(out, "critical path: %s\n", why);
        return;
    }
    const struct cp_totals *t = &cp->tot;
    double len = t->length > 0 ? (double)t->length : 1;
    char b[5][48];
    fprintf(out,
            "critical path: %s: computation %s (%.1f%%), latency %s (%.1f%%), transfer %s "
            "(%.1f%%), waiting %s (%.1f%%); %lld bursts and %lld messages\n",
            units_format_time(t->length, b[0], sizeof b[0]),
            units_format_time(t->computation, b[1], sizeof b[1]),
            100 * (double)t->computation / len, units_format_time(t->latency, b[2], sizeof b[2]),
            100 * (double)t->latency / len, units_format_time(t->transfer, b[3], sizeof b[3]),
            100 * (double)t->transfer / len, units_format_time(t->waiting, b[4], sizeof b[4]),
            100 * (double)t->waiting / len, (long long)t->bursts, (long long)t->messages);
}

void critpath_json(const struct critpath *cp, FILE *f) {
    const char *why = why_not(cp);
    const struct cp_totals *t = &cp->tot;
    fprintf(f,
            "  \"critical_path\": {\"computed\": %s, \"length\": %.12g, \"computation\": %.12g, "
            "\"latency\": %.12g, \"transfer\": %.12g, \"waiting\": %.12g, \"bursts\": %lld, "
            "\"messages\": %lld, \"note\": ",
            why ? "false" : "true", analysis_seconds(t->length), analysis_seconds(t->computation),
            analysis_seconds(t->latency), analysis_seconds(t->transfer),
            analysis_seconds(t->waiting), (long long)t->bursts, (long long)t->messages);
    escape_json(f, why ? why : "");
    fputs("},\n", f);
}
