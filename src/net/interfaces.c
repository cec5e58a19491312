/* SPDX-License-Identifier: BSD-3-Clause */
/* Serial network interfaces: per node, the busy intervals of its injection
 * and ejection sides, and the earliest-gap reservation of a message's wire
 * time on each (interfaces.h). */
#include "net/interfaces.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
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

/* Drops the intervals that ended at or before now (they are first). */
static inline void forget_past(struct nic_side *side, simtime_t now) {
    if (side->n == 0 || side->busy[0].to > now) return; /* most calls: nothing to drop */
    uint32_t k = 0;
    while (k < side->n && side->busy[k].to <= now)
        k++;
    if (k == 0) return;
    side->n -= k;
    memmove(side->busy, side->busy + k, sizeof *side->busy * side->n);
}

/* Joins the two intervals with the shortest gap between them (the first
 * such pair), counting the gap busy: the side keeps NIC_INTERVALS. */
static void join_closest(struct nic_side *side) {
    uint32_t best = 0;
    for (uint32_t i = 1; i + 1 < side->n; i++)
        if (side->busy[i + 1].from - side->busy[i].to <
            side->busy[best + 1].from - side->busy[best].to)
            best = i;
    side->busy[best].to = side->busy[best + 1].to;
    side->n--;
    memmove(side->busy + best + 1, side->busy + best + 2,
            sizeof *side->busy * (side->n - best - 1));
}

/* Inserts [t, t + len) at position i (free there), merged with the
 * intervals it touches. */
static void insert_busy(struct nic_side *side, uint32_t i, simtime_t t, simtime_t len) {
    simtime_t end = simtime_add(t, len);
    bool joins_prev = i > 0 && side->busy[i - 1].to == t;
    bool joins_next = i < side->n && side->busy[i].from == end;
    if (joins_prev && joins_next) {
        side->busy[i - 1].to = side->busy[i].to;
        side->n--;
        memmove(side->busy + i, side->busy + i + 1, sizeof *side->busy * (side->n - i));
        return;
    }
    if (joins_prev) {
        side->busy[i - 1].to = end;
        return;
    }
    if (joins_next) {
        side->busy[i].from = t;
        return;
    }
    memmove(side->busy + i + 1, side->busy + i, sizeof *side->busy * (side->n - i));
    side->busy[i] = (struct nic_busy){t, end};
    if (++side->n > NIC_INTERVALS) join_closest(side);
}

/* Puts [t, end) after every interval of the side (none ends after t). */
static void append_busy(struct nic_side *side, simtime_t t, simtime_t end) {
    uint32_t n = side->n;
    if (n > 0 && side->busy[n - 1].to == t) { /* touches the last */
        side->busy[n - 1].to = end;
        return;
    }
    side->busy[n] = (struct nic_busy){t, end};
    side->n = n + 1;
    if (side->n > NIC_INTERVALS) join_closest(side);
}

simtime_t nic_side_reserve(struct nic_side *side, simtime_t now, simtime_t ready, simtime_t len) {
    if (len <= 0) return ready;
    forget_past(side, now);
    simtime_t t = ready;
    uint32_t n = side->n;
    if (n == 0 || side->busy[n - 1].to <= t) { /* after every interval: most messages */
        append_busy(side, t, simtime_add(t, len));
    } else {
        uint32_t i = 0;
        for (; i < n; i++) {
            const struct nic_busy *b = &side->busy[i];
            if (b->to <= t) continue;                  /* ends before the candidate */
            if (b->from >= simtime_add(t, len)) break; /* the gap before it holds the message */
            t = b->to;                                 /* overlaps: try after it */
        }
        insert_busy(side, i, t, len);
    }
    side->messages++;
    side->busy_total += len;
    return t;
}

simtime_t interfaces_inject(struct interfaces *f, int32_t src, simtime_t now, simtime_t ready,
                            simtime_t wire_out) {
    return nic_side_reserve(&f->out[src], now, ready, wire_out);
}

simtime_t interfaces_eject(struct interfaces *f, int32_t dst, simtime_t now, simtime_t first_byte,
                           simtime_t wire_in) {
    return simtime_add(nic_side_reserve(&f->in[dst], now, first_byte, wire_in), wire_in);
}
