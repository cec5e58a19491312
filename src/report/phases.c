/* SPDX-License-Identifier: BSD-3-Clause */
/* Phases found in a program that marks no intervals (docs/analysis.md,
 * "Phases found from the calls"): each rank's periods (computation and MPI
 * calls) are kept while the run goes; at its end, the longest stretch of
 * each rank's sequence that repeats with a fixed period is its main loop,
 * one repetition an iteration, and the calls before and after it are
 * phases of their own. The interval tree is then built again from the kept
 * periods with these intervals entered and left, as if the program had
 * marked them: whole program > before the loop, main loop > iteration (one
 * entry per repetition), after the loop. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "report/analysis_internal.h"
#include "report/phases.h"

/* Bytes of periods kept at most (about 10 a period, encoded), and ranks
 * beyond which nothing is kept: the largest runs keep their memory. */
#define PHASES_MAX_BYTES ((size_t)1 << 26)
#define PHASES_MAX_RANKS 65536
/* The middle window searched for the loop's body, and the longest body;
 * without a loop there, the start searched for short bodies */
#define SEARCH_WINDOW 8192
#define MAX_BODY 2048
#define SHORT_WINDOW 2048
#define SHORT_BODY 128
#define MIN_REPEATS 3

void phases_init(struct phases *ph, const struct sim *s) {
    memset(ph, 0, sizeof *ph);
    ph->nranks = sim_size(s);
    /* several jobs (docs/jobs.md): one may mark intervals and another not,
     * and a split run's workers could then find phases in some ranks only */
    if (ph->nranks > PHASES_MAX_RANKS || sim_job_count(s) > 1) {
        ph->off = true;
        return;
    }
    ph->finish = xcalloc((size_t)ph->nranks, sizeof *ph->finish);
    ph->last_end = xcalloc((size_t)ph->nranks, sizeof *ph->last_end);
    ph->done = xcalloc((size_t)ph->nranks, sizeof *ph->done);
    for (int32_t r = 0; r < ph->nranks; r++)
        ph->owned += sim_owns(s, r);
}

void phases_free(struct phases *ph) {
    free(ph->log);
    free(ph->finish);
    free(ph->last_end);
    free(ph->done);
    memset(ph, 0, sizeof *ph);
    ph->off = true;
}

static void give_up(struct phases *ph) {
    free(ph->log);
    ph->log = NULL;
    ph->len = ph->cap = 0;
    ph->off = true;
}

/* --- the periods, encoded: rank, begin after the rank's last end, length
 * (LEB128 varints), state, call and collective, then what is not zero --- */

enum { HAS_SYNC = 1, HAS_OVERLAP = 2, HAS_COLL = 4, BEFORE_LAST = 8 };

static uint8_t *put_varint(uint8_t *o, uint64_t v) {
    while (v >= 0x80) {
        *o++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *o++ = (uint8_t)v;
    return o;
}

static const uint8_t *get_varint(const uint8_t *i, uint64_t *v) {
    uint64_t x = 0;
    for (int shift = 0;; shift += 7) {
        x |= (uint64_t)(*i & 0x7f) << shift;
        if (!(*i++ & 0x80)) break;
    }
    *v = x;
    return i;
}

/* Encodes p after the rank's last end (*last), into o (room for 64 bytes). */
static uint8_t *encode(uint8_t *o, const struct sim_period *p, simtime_t *last) {
    uint8_t flags = (p->sync_loss ? HAS_SYNC : 0) | (p->overlap ? HAS_OVERLAP : 0) |
                    (p->coll_id || p->coll_members ? HAS_COLL : 0) |
                    (p->begin < *last ? BEFORE_LAST : 0);
    o = put_varint(o, (uint64_t)p->rank);
    *o++ = flags;
    *o++ = p->state;
    *o++ = p->call;
    *o++ = (uint8_t)p->coll;
    o = put_varint(o, flags & BEFORE_LAST ? (uint64_t)(*last - p->begin)
                                          : (uint64_t)(p->begin - *last));
    o = put_varint(o, (uint64_t)(p->end - p->begin));
    if (flags & HAS_SYNC) o = put_varint(o, (uint64_t)p->sync_loss);
    if (flags & HAS_OVERLAP) o = put_varint(o, (uint64_t)p->overlap);
    if (flags & HAS_COLL) {
        o = put_varint(o, p->coll_id);
        o = put_varint(o, (uint64_t)p->coll_members);
    }
    *last = p->end;
    return o;
}

/* Decodes the period at i (last: each rank's last end so far); returns
 * what follows. */
static const uint8_t *decode(const uint8_t *i, struct sim_period *p, simtime_t *last) {
    uint64_t v;
    memset(p, 0, sizeof *p);
    i = get_varint(i, &v);
    p->rank = (int32_t)v;
    uint8_t flags = *i++;
    p->state = *i++;
    p->call = *i++;
    p->coll = (int8_t)*i++;
    i = get_varint(i, &v);
    p->begin = flags & BEFORE_LAST ? last[p->rank] - (simtime_t)v : last[p->rank] + (simtime_t)v;
    i = get_varint(i, &v);
    p->end = p->begin + (simtime_t)v;
    if (flags & HAS_SYNC) i = get_varint(i, &v), p->sync_loss = (simtime_t)v;
    if (flags & HAS_OVERLAP) i = get_varint(i, &v), p->overlap = (simtime_t)v;
    if (flags & HAS_COLL) {
        i = get_varint(i, &p->coll_id);
        i = get_varint(i, &v);
        p->coll_members = (int32_t)v;
    }
    last[p->rank] = p->end;
    return i;
}

void phases_period(struct phases *ph, const struct sim_period *p) {
    if (ph->off || p->rank < 0 || p->rank >= ph->nranks) return;
    if (ph->cap - ph->len < 64) {
        if (ph->cap >= PHASES_MAX_BYTES) {
            give_up(ph);
            return;
        }
        ph->cap = ph->cap ? 2 * ph->cap : 65536;
        ph->log = xrealloc_or_die(ph->log, ph->cap);
    }
    ph->len = (size_t)(encode(ph->log + ph->len, p, &ph->last_end[p->rank]) - ph->log);
}

void phases_marked(struct phases *ph) {
    give_up(ph); /* the program's own intervals */
}

bool phases_finished(struct phases *ph, int32_t rank, simtime_t t) {
    if (ph->off || rank < 0 || rank >= ph->nranks || ph->done[rank]) return false;
    ph->done[rank] = true;
    ph->finish[rank] = t;
    return ++ph->finished == ph->owned;
}

static uint32_t token_of(const struct sim_period *p) {
    return (uint32_t)p->state << 16 | (uint32_t)p->call << 8 | (uint32_t)(uint8_t)(p->coll + 1);
}

/* The longest stretch of tok[0..n) where tok[i] == tok[i + len]: its start
 * and length. */
static size_t stretch(const uint32_t *tok, size_t n, size_t len, size_t *start) {
    size_t best = 0, run = 0;
    *start = 0;
    for (size_t i = 0; i + len < n; i++) {
        run = tok[i] == tok[i + len] ? run + 1 : 0;
        if (run > best) {
            best = run;
            *start = i + 1 - run;
        }
    }
    return best;
}

/* The smallest period of w[0..m) (m - the longest proper border, by the
 * prefix function). */
static size_t smallest_period(const uint32_t *w, size_t m, size_t *border) {
    border[0] = 0;
    for (size_t i = 1, k = 0; i < m; i++) {
        while (k > 0 && w[i] != w[k])
            k = border[k - 1];
        if (w[i] == w[k]) k++;
        border[i] = k;
    }
    return m - border[m - 1];
}

/* The loop of one rank's sequence: its body's length, first period and
 * repetitions (0 when none repeats MIN_REPEATS times). The body is the
 * smallest period of the sequence's middle (a window of SEARCH_WINDOW),
 * else the best of the short bodies over the sequence's start; each rank
 * alone, so that a split run finds what one process finds. */
static size_t find_loop(const uint32_t *tok, size_t n, size_t *border, size_t *start,
                        size_t *repeats) {
    size_t body = 0, covered = 0, m = n < SEARCH_WINDOW ? n : SEARCH_WINDOW;
    *repeats = 0;
    if (n < MIN_REPEATS) return 0;
    size_t p = smallest_period(tok + (n - m) / 2, m, border);
    if (p * MIN_REPEATS <= m && p <= MAX_BODY) {
        body = p;
    } else { /* no loop through the middle: the body covering most of the start */
        size_t window = n < SHORT_WINDOW ? n : SHORT_WINDOW;
        for (size_t len = 1; len <= SHORT_BODY && len * MIN_REPEATS <= window; len++) {
            size_t s0, run = stretch(tok, window, len, &s0);
            if (run + len > covered) body = len, covered = run + len;
        }
    }
    if (!body) return 0;
    covered = stretch(tok, n, body, start) + body; /* over the whole sequence */
    *repeats = covered / body;
    return *repeats >= MIN_REPEATS ? body : 0;
}

/* Where each rank's intervals begin and end, in its own periods' numbers. */
struct rank_loop {
    size_t first, body, repeats, count; /* count: the rank's periods */
    size_t next;                        /* periods of the rank replayed so far */
    simtime_t last_end;
};

/* Enters and leaves rank r's intervals due before its period number k. */
static void boundaries(struct intervals *iv, struct rank_loop *l, int32_t r, size_t k,
                       simtime_t t) {
    size_t end = l->first + l->body * l->repeats;
    if (k == 0 && l->first > 0) intervals_enter(iv, r, t, "before the loop");
    if (k == l->first) {
        if (l->first > 0) intervals_leave(iv, r, t);
        intervals_enter(iv, r, t, "main loop");
        intervals_enter(iv, r, t, "iteration");
    } else if (k > l->first && k < end && (k - l->first) % l->body == 0) {
        intervals_leave(iv, r, t);
        intervals_enter(iv, r, t, "iteration");
    } else if (k == end) {
        intervals_leave(iv, r, t);
        intervals_leave(iv, r, t);
        if (k < l->count) intervals_enter(iv, r, t, "after the loop");
    }
}

/* Calls f(ctx, period) for each kept period, in order. */
static void each_period(const struct phases *ph, void (*f)(void *ctx, const struct sim_period *p),
                        void *ctx) {
    if (!ph->log) return; /* nothing kept */
    simtime_t *last = xcalloc((size_t)ph->nranks, sizeof *last);
    struct sim_period p;
    for (const uint8_t *i = ph->log, *end = ph->log + ph->len; i < end;) {
        i = decode(i, &p, last);
        f(ctx, &p);
    }
    free(last);
}

struct tokens {
    size_t *at, *fill; /* [nranks + 1]: each rank's first token; where the next goes */
    uint32_t *tok;
    size_t n;
};

static void count_period(void *ctx, const struct sim_period *p) {
    struct tokens *t = ctx;
    t->at[p->rank + 1]++;
    t->n++;
}

static void put_token(void *ctx, const struct sim_period *p) {
    struct tokens *t = ctx;
    t->tok[t->fill[p->rank]++] = token_of(p);
}

static bool find_loops(const struct phases *ph, struct rank_loop *loops) {
    struct tokens t = {xcalloc((size_t)ph->nranks + 1, sizeof *t.at), NULL, NULL, 0};
    each_period(ph, count_period, &t);
    size_t *at = t.at;
    uint32_t *tok = t.tok = xmalloc(sizeof *tok * (t.n ? t.n : 1));
    for (int32_t r = 0; r < ph->nranks; r++)
        at[r + 1] += at[r];
    size_t *fill = xmalloc(sizeof *fill * ((size_t)ph->nranks + 1));
    memcpy(fill, at, sizeof *fill * ((size_t)ph->nranks + 1));
    t.fill = fill;
    each_period(ph, put_token, &t);
    bool any = false;
    size_t *border = xmalloc(sizeof *border * SEARCH_WINDOW);
    for (int32_t r = 0; r < ph->nranks; r++) {
        struct rank_loop *l = &loops[r];
        l->count = at[r + 1] - at[r];
        l->body = find_loop(tok + at[r], l->count, border, &l->first, &l->repeats);
        any |= l->body > 0;
    }
    free(border);
    free(fill);
    free(at);
    free(tok);
    return any;
}

struct replaying {
    struct intervals *iv;
    struct rank_loop *loops;
};

/* A kept period into the tree, after the intervals due before it. */
static void replay_period(void *ctx, const struct sim_period *p) {
    struct replaying *rp = ctx;
    struct rank_loop *l = &rp->loops[p->rank];
    if (l->body) boundaries(rp->iv, l, p->rank, l->next, p->begin);
    l->next++;
    l->last_end = p->end;
    intervals_period(rp->iv, p);
}

bool phases_rebuild(struct phases *ph, struct intervals *iv) {
    if (ph->off || ph->finished != ph->owned || iv->nnodes != 1) return false;
    struct rank_loop *loops = xcalloc((size_t)ph->nranks, sizeof *loops);
    if (!find_loops(ph, loops)) {
        free(loops);
        return false;
    }
    bool unmeasured = iv->cpu_not_measured;
    intervals_free(iv);
    intervals_init(iv, ph->nranks);
    iv->cpu_not_measured = unmeasured;
    struct replaying rp = {iv, loops};
    each_period(ph, replay_period, &rp);
    for (int32_t r = 0; r < ph->nranks; r++) {
        struct rank_loop *l = &loops[r];
        if (!ph->done[r]) continue;
        if (l->body && l->first + l->body * l->repeats == l->count) /* the loop ends the rank */
            boundaries(iv, l, r, l->count, l->last_end);
        while (iv->track[r].depth > 0) /* "after the loop" ends with the rank */
            intervals_leave(iv, r, ph->finish[r]);
        intervals_finish(iv, r, ph->finish[r]);
    }
    free(loops);
    give_up(ph);
    return true;
}
