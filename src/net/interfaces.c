/* SPDX-License-Identifier: BSD-3-Clause */
/* Serial network interfaces: per node, the busy intervals of its injection
 * and ejection sides, and the earliest-gap reservation of a message's wire
 * time on each (interfaces.h). */
#include "net/interfaces.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/ranktable.h"

void interfaces_init(struct interfaces *f, int64_t nodes) {
    f->out = ranktable_alloc((size_t)nodes, sizeof *f->out);
    f->in = ranktable_alloc((size_t)nodes, sizeof *f->in);
    f->nodes = nodes;
}

/* Whether a is the more loaded (busier, then the lower node, injection first). */
static bool heavier(const struct nic_load *a, const struct nic_load *b) {
    if (a->busy != b->busy) return a->busy > b->busy;
    if (a->node != b->node) return a->node < b->node;
    return a->ejection < b->ejection;
}

/* Puts l among the top (*n of at most cap), in order. */
static void top_insert(struct nic_load *top, int *n, int cap, const struct nic_load *l) {
    if (l->busy <= 0 || (*n == cap && !heavier(l, &top[cap - 1]))) return;
    int i = *n < cap ? (*n)++ : cap - 1;
    while (i > 0 && heavier(l, &top[i - 1])) {
        top[i] = top[i - 1];
        i--;
    }
    top[i] = *l;
}

int interfaces_top(const struct interfaces *f, bool (*keep)(void *ctx, int32_t node), void *ctx,
                   struct nic_load *out, int n) {
    int got = 0;
    for (int64_t node = 0; node < f->nodes; node++) {
        if (keep && !keep(ctx, (int32_t)node)) continue;
        for (int side = 0; side < 2; side++) {
            const struct nic_side *sd = side ? &f->in[node] : &f->out[node];
            struct nic_load l = {(int32_t)node, (uint8_t)side, sd->messages,
                                 simtime_to_seconds(sd->busy_total)};
            top_insert(out, &got, n, &l);
        }
    }
    return got;
}

void interfaces_top_merge(struct nic_load *top, int *n, int cap, const struct nic_load *more,
                          int m) {
    for (int i = 0; i < m; i++)
        top_insert(top, n, cap, &more[i]);
}

void interfaces_destroy(struct interfaces *f) {
    ranktable_free(f->out, (size_t)f->nodes, sizeof *f->out);
    ranktable_free(f->in, (size_t)f->nodes, sizeof *f->in);
    memset(f, 0, sizeof *f);
}

/* The algorithm works on a side's intervals wherever they are kept: the
 * array `busy` of *n intervals, with room for one more. */

/* Drops the intervals that ended at or before now (they are first). */
static inline void forget_past(struct nic_busy *busy, uint32_t *n, simtime_t now) {
    if (*n == 0 || busy[0].to > now) return; /* most calls: nothing to drop */
    uint32_t k = 0;
    while (k < *n && busy[k].to <= now)
        k++;
    *n -= k;
    memmove(busy, busy + k, sizeof *busy * *n);
}

/* Joins the two intervals with the shortest gap between them (the first
 * such pair), counting the gap busy: the side keeps NIC_INTERVALS. */
static void join_closest(struct nic_busy *busy, uint32_t *n) {
    uint32_t best = 0;
    for (uint32_t i = 1; i + 1 < *n; i++)
        if (busy[i + 1].from - busy[i].to < busy[best + 1].from - busy[best].to) best = i;
    busy[best].to = busy[best + 1].to;
    (*n)--;
    memmove(busy + best + 1, busy + best + 2, sizeof *busy * (*n - best - 1));
}

/* Inserts [t, t + len) at position i (free there), merged with the
 * intervals it touches. */
static void insert_busy(struct nic_busy *busy, uint32_t *n, uint32_t i, simtime_t t,
                        simtime_t len) {
    simtime_t end = simtime_add(t, len);
    bool joins_prev = i > 0 && busy[i - 1].to == t;
    bool joins_next = i < *n && busy[i].from == end;
    if (joins_prev && joins_next) {
        busy[i - 1].to = busy[i].to;
        (*n)--;
        memmove(busy + i, busy + i + 1, sizeof *busy * (*n - i));
        return;
    }
    if (joins_prev) {
        busy[i - 1].to = end;
        return;
    }
    if (joins_next) {
        busy[i].from = t;
        return;
    }
    memmove(busy + i + 1, busy + i, sizeof *busy * (*n - i));
    busy[i] = (struct nic_busy){t, end};
    if (++*n > NIC_INTERVALS) join_closest(busy, n);
}

/* Puts [t, end) after every interval (none ends after t). */
static void append_busy(struct nic_busy *busy, uint32_t *n, simtime_t t, simtime_t end) {
    if (*n > 0 && busy[*n - 1].to == t) { /* touches the last */
        busy[*n - 1].to = end;
        return;
    }
    busy[(*n)++] = (struct nic_busy){t, end};
    if (*n > NIC_INTERVALS) join_closest(busy, n);
}

/* Reserves len (> 0) at the earliest t >= ready that the intervals, whose
 * past is forgotten, leave free; returns t. */
static inline simtime_t reserve_gap(struct nic_busy *busy, uint32_t *n, simtime_t ready,
                                    simtime_t len) {
    simtime_t t = ready;
    if (*n == 0 || busy[*n - 1].to <= t) { /* after every interval: most messages */
        append_busy(busy, n, t, simtime_add(t, len));
        return t;
    }
    uint32_t i = 0;
    for (; i < *n; i++) {
        const struct nic_busy *b = &busy[i];
        if (b->to <= t) continue;                  /* ends before the candidate */
        if (b->from >= simtime_add(t, len)) break; /* the gap before it holds the message */
        t = b->to;                                 /* overlaps: try after it */
    }
    insert_busy(busy, n, i, t, len);
    return t;
}

simtime_t nic_side_reserve(struct nic_side *side, simtime_t now, simtime_t ready, simtime_t len) {
    if (len <= 0) return ready;
    forget_past(side->busy, &side->n, now);
    simtime_t t = reserve_gap(side->busy, &side->n, ready, len);
    side->messages++;
    side->busy_total += len;
    return t;
}

/* A busy list's first room: three intervals fill a 64-byte block of
 * malloc's (with its header), and hold a collective's copies ahead of the
 * clock (one a round inside the node), so that most lists are allocated
 * once; growing from one interval took three allocations a rank. */
enum { BUSY_LIST_FIRST = 3 };

simtime_t busy_list_reserve(struct busy_list **list, simtime_t now, simtime_t ready,
                            simtime_t len) {
    if (len <= 0) return ready;
    struct busy_list *l = *list;
    if (l) forget_past(l->busy, &l->n, now);
    if (!l || l->n == l->cap) { /* room for one more: the most a side holds is NIC_INTERVALS + 1 */
        uint32_t cap = l ? 2 * l->cap : BUSY_LIST_FIRST;
        if (cap > NIC_INTERVALS + 1) cap = NIC_INTERVALS + 1;
        l = xrealloc_or_die(l, sizeof *l + sizeof l->busy[0] * cap);
        if (!*list) l->n = 0;
        l->cap = cap;
        *list = l;
    }
    return reserve_gap(l->busy, &l->n, ready, len);
}

simtime_t interfaces_inject(struct interfaces *f, int32_t src, simtime_t now, simtime_t ready,
                            simtime_t wire_out) {
    return nic_side_reserve(&f->out[src], now, ready, wire_out);
}

simtime_t interfaces_eject(struct interfaces *f, int32_t dst, simtime_t now, simtime_t first_byte,
                           simtime_t wire_in) {
    return simtime_add(nic_side_reserve(&f->in[dst], now, first_byte, wire_in), wire_in);
}
