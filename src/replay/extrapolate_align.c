/* SPDX-License-Identifier: BSD-3-Clause */
/* A scale's segments (records up to a blocking collective) brought to the
 * largest scale's order: the shortest edit script between rank 0's
 * segments there and here (Myers, "An O(ND) difference algorithm and its
 * variations", 1986), applied to every rank (extrapolate_align.h). */
#include "replay/extrapolate_align.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"

enum { ALIGN_MAX_EDITS = 1024 };

static uint64_t mix(uint64_t h, uint64_t v) {
    return (h ^ (v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2))) * 0x100000001b3ull;
}

/* The segments of n records: ends[s] is one past segment s's last record;
 * returns their number (a segment ends with each blocking collective, the
 * last one with the last record). ends: room for n + 1. */
static int32_t cut_segments(const struct trace_rec *rec, int32_t n, int32_t *ends) {
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        if (rec[i].op == TOP_COLL || i == n - 1) ends[m++] = i + 1;
    return m;
}

static int32_t count_segments(const struct trace_rec *rec, int32_t n) {
    int32_t m = 0;
    for (int32_t i = 0; i < n; i++)
        m += rec[i].op == TOP_COLL || i == n - 1;
    return m;
}

/* A segment's kind: its collectives (their kind, communicator and root,
 * not their sizes, which may follow P) and the kinds of its other calls,
 * not how many (a corner has fewer neighbours at a smaller scale). */
static uint64_t segment_kind(const struct trace_rec *rec, int32_t from, int32_t to) {
    uint64_t h = 0xcbf29ce484222325ull, calls = 0;
    for (int32_t i = from; i < to; i++) {
        const struct trace_rec *x = &rec[i];
        if (x->op == TOP_COMPUTE || x->op == TOP_COMPUTE_FLOPS) continue;
        if (x->op == TOP_COLL || x->op == TOP_ICOLL)
            h = mix(mix(mix(mix(h, x->op), x->coll), (uint32_t)x->comm), (uint32_t)x->root);
        else
            calls |= 1ull << (x->op & 63);
    }
    return mix(h, calls);
}

/* Fills kind[s] for the segments of n records; returns their number. */
static int32_t segment_kinds(const struct trace_rec *rec, int32_t n, uint64_t **kind) {
    int32_t *ends = xmalloc(sizeof *ends * (size_t)(n + 1));
    int32_t m = cut_segments(rec, n, ends);
    *kind = xmalloc(sizeof **kind * (size_t)(m + 1));
    for (int32_t s = 0; s < m; s++)
        (*kind)[s] = segment_kind(rec, s ? ends[s - 1] : 0, ends[s]);
    free(ends);
    return m;
}

/* Myers' greedy forward search for the shortest edit script from a[0, n)
 * to b[0, m), at most max_d edits, then its path traced back: match[j] is
 * the a index b[j] is kept from, -1 where b[j] is inserted. Returns the
 * script's length, -1 if longer than max_d. */
static int32_t shortest_script(const uint64_t *a, int32_t n, const uint64_t *b, int32_t m,
                               int32_t max_d, int32_t *match) {
    int32_t width = 2 * max_d + 3, off = max_d + 1;
    int32_t *v = xcalloc((size_t)width, sizeof *v);
    int32_t *saved = xmalloc(sizeof *saved * (size_t)width * (size_t)(max_d + 1));
    int32_t found = -1;
    for (int32_t d = 0; d <= max_d && found < 0; d++) {
        memcpy(saved + (size_t)d * (size_t)width, v, sizeof *v * (size_t)width);
        for (int32_t k = -d; k <= d && found < 0; k += 2) {
            bool down = k == -d || (k != d && v[off + k - 1] < v[off + k + 1]);
            int32_t x = down ? v[off + k + 1] : v[off + k - 1] + 1, y = x - k;
            while (x < n && y < m && a[x] == b[y]) {
                x++;
                y++;
            }
            v[off + k] = x;
            if (x >= n && y >= m) found = d;
        }
    }
    if (found >= 0) {
        int32_t x = n, y = m;
        for (int32_t d = found; d >= 0; d--) {
            const int32_t *pv = saved + (size_t)d * (size_t)width; /* after d - 1 edits */
            int32_t k = x - y, px = 0, py = 0;
            if (d > 0) {
                bool down = k == -d || (k != d && pv[off + k - 1] < pv[off + k + 1]);
                int32_t pk = down ? k + 1 : k - 1;
                px = pv[off + pk];
                py = px - pk;
                int32_t sx = down ? px : px + 1, sy = down ? py + 1 : py; /* after the edit */
                for (; x > sx && y > sy; x--, y--)
                    match[y - 1] = x - 1;
                if (down) match[py] = -1; /* b[py] inserted; else a[px] left out */
            }
            for (; d == 0 && x > 0 && y > 0; x--, y--)
                match[y - 1] = x - 1;
            x = px;
            y = py;
        }
    }
    free(v);
    free(saved);
    return found;
}

/* The requests outstanding before each of n records, and at the end
 * (out[n]); a record whose effect on them is not known for certain (a
 * test, a waitany) or that makes a communicator sets bad[i]. */
static void outstanding(const struct trace_rec *rec, int32_t n, int32_t *out, bool *bad) {
    int32_t live = 0;
    for (int32_t i = 0; i < n; i++) {
        const struct trace_rec *x = &rec[i];
        out[i] = live;
        uint8_t op = x->op;
        bad[i] = op == TOP_TEST || op == TOP_WAITANY || op == TOP_TEST_PEER ||
                 op == TOP_WAIT_PEER || op == TOP_COMM_SPLIT || op == TOP_COMM_DUP ||
                 op == TOP_COMM_SELF || op == TOP_CANCEL || op == TOP_BUFFER_ATTACH ||
                 op == TOP_BUFFER_DETACH || op == TOP_RMA_SYNC;
        bool starts = x->req >= 0 && (op == TOP_ISEND || op == TOP_IRECV || op == TOP_ICOLL ||
                                      op == TOP_FILE_IO || op == TOP_RMA);
        if (starts) live++;
        if (op == TOP_WAITALL && x->nids == 0)
            live = 0;
        else if (op == TOP_WAIT || op == TOP_WAITALL || op == TOP_FREE)
            live -= x->nids > 0 ? x->nids : 1;
        if (live < 0) live = 0;
    }
    out[n] = live;
}

/* Whether every segment marked in touched[] is self-contained in rank's
 * records (no request outstanding at its ends, no record of unknown
 * effect in it). */
static bool touched_self_contained(const struct trace_rec *rec, int32_t n, const int32_t *ends,
                                   int32_t nseg, const bool *touched) {
    int32_t *out = xmalloc(sizeof *out * (size_t)(n + 1));
    bool *bad = xmalloc(sizeof *bad * (size_t)(n + 1));
    outstanding(rec, n, out, bad);
    bool ok = true;
    for (int32_t s = 0; s < nseg && ok; s++) {
        if (!touched[s]) continue;
        int32_t from = s ? ends[s - 1] : 0;
        ok = out[from] == 0 && out[ends[s]] == 0;
        for (int32_t i = from; i < ends[s] && ok; i++)
            ok = !bad[i];
    }
    free(out);
    free(bad);
    return ok;
}

/* src[j]: the segment of this scale that the reference's segment j
 * takes, own[j] whether it takes it (else a copy): a kept one; for one
 * inserted, a left-out one of its kind nearest its place (it moved), or
 * else a copy of the nearest kept one of its kind. touched[i]: segment i
 * left out, moved or copied. False if an inserted segment has none of its
 * kind, or the last segments differ. */
static bool plan_sources(const uint64_t *a, int32_t n, const uint64_t *b, int32_t m,
                         const int32_t *match, int32_t *src, bool *own, bool *touched,
                         int32_t *edits) {
    bool *taken = xcalloc((size_t)n + 1, sizeof *taken);
    *edits = 0;
    for (int32_t j = 0; j < m; j++)
        if (match[j] >= 0) taken[match[j]] = true;
    bool ok = m > 0 && match[m - 1] == n - 1;
    for (int32_t i = 0; i < n; i++)
        if (!taken[i]) {
            touched[i] = true;
            ++*edits;
        }
    for (int32_t j = 0, place = 0; j < m && ok; j++) {
        src[j] = match[j];
        own[j] = src[j] >= 0;
        if (own[j]) {
            place = src[j] + 1;
            continue;
        }
        ++*edits;
        for (int32_t d = 0; src[j] < 0 && (place - d >= 0 || place + d < n); d++) {
            if (place - d >= 0 && place - d < n && !taken[place - d] && a[place - d] == b[j])
                src[j] = place - d;
            else if (place + d < n && !taken[place + d] && a[place + d] == b[j])
                src[j] = place + d;
        }
        own[j] = src[j] >= 0;
        if (own[j]) taken[src[j]] = true; /* moved */
        for (int32_t d = 1; src[j] < 0 && (j - d >= 0 || j + d < m); d++) {
            if (j - d >= 0 && match[j - d] >= 0 && b[j - d] == b[j])
                src[j] = match[j - d];
            else if (j + d < m && match[j + d] >= 0 && b[j + d] == b[j])
                src[j] = match[j + d];
        }
        ok = src[j] >= 0;
        if (ok) touched[src[j]] = true;
    }
    free(taken);
    return ok;
}

/* Rank r's records rebuilt from its segments in the order src[0, m): a
 * kept segment moved, a copy's lists duplicated, a left-out one's freed. */
static void rebuild_rank(struct align_ranks *s, int32_t r, const int32_t *ends, int32_t nseg,
                         const int32_t *src, const bool *own, int32_t m) {
    const struct trace_rec *old = s->rec[r];
    int32_t total = 0;
    for (int32_t j = 0; j < m; j++)
        total += ends[src[j]] - (src[j] ? ends[src[j] - 1] : 0);
    struct trace_rec *rec = xmalloc(sizeof *rec * (size_t)(total + 1));
    int32_t *ord = xmalloc(sizeof *ord * (size_t)(total + 1));
    struct step *step = xmalloc(sizeof *step * (size_t)(total + 1));
    bool *used = xcalloc((size_t)nseg + 1, sizeof *used);
    int32_t at = 0;
    for (int32_t j = 0; j < m; j++) {
        int32_t from = src[j] ? ends[src[j] - 1] : 0, to = ends[src[j]];
        bool copy = !own[j];
        if (!copy) used[src[j]] = true;
        for (int32_t i = from; i < to; i++, at++) {
            rec[at] = old[i];
            ord[at] = s->ord[r][i];
            step[at] = s->step[r][i];
            if (copy && old[i].nids > 0) {
                rec[at].ids = xmalloc(sizeof *rec[at].ids * (size_t)old[i].nids);
                memcpy(rec[at].ids, old[i].ids, sizeof *rec[at].ids * (size_t)old[i].nids);
            }
        }
    }
    for (int32_t k = 0; k < nseg; k++)
        for (int32_t i = k ? ends[k - 1] : 0; !used[k] && i < ends[k]; i++)
            free(old[i].ids);
    free(used);
    free(s->rec[r]);
    free(s->ord[r]);
    free(s->step[r]);
    s->rec[r] = rec;
    s->ord[r] = ord;
    s->step[r] = step;
    s->count[r] = total;
    renumber_requests(rec, total);
}

bool align_segments(struct align_ranks *s, const struct trace_rec *ref, int32_t ref_count,
                    int32_t *edits, int32_t *segments) {
    *edits = 0;
    *segments = 0;
    if (s->n < 1 || ref_count < 1 || s->count[0] < 1) return false;
    uint64_t *a, *b;
    int32_t n = segment_kinds(s->rec[0], s->count[0], &a);
    int32_t m = segment_kinds(ref, ref_count, &b);
    *segments = m;
    bool ok = true;
    for (int32_t r = 1; r < s->n && ok; r++)
        ok = count_segments(s->rec[r], s->count[r]) == n;
    int32_t most = m / 10; /* a tenth of the reference's segments */
    int32_t *match = xmalloc(sizeof *match * (size_t)(m + 1));
    int32_t *src = xmalloc(sizeof *src * (size_t)(m + 1));
    bool *touched = xcalloc((size_t)n + 1, sizeof *touched),
         *own = xcalloc((size_t)m + 1, sizeof *own);
    ok = ok &&
         shortest_script(a, n, b, m, most < ALIGN_MAX_EDITS ? most : ALIGN_MAX_EDITS, match) >= 0;
    ok = ok && plan_sources(a, n, b, m, match, src, own, touched, edits) && *edits <= most;
    int32_t longest = 0;
    for (int32_t r = 0; r < s->n; r++)
        longest = s->count[r] > longest ? s->count[r] : longest;
    int32_t *ends = xmalloc(sizeof *ends * (size_t)(longest + 1));
    for (int32_t r = 0; r < s->n && ok && *edits; r++) {
        cut_segments(s->rec[r], s->count[r], ends);
        ok = touched_self_contained(s->rec[r], s->count[r], ends, n, touched);
    }
    for (int32_t r = 0; r < s->n && ok && *edits; r++) {
        cut_segments(s->rec[r], s->count[r], ends);
        rebuild_rank(s, r, ends, n, src, own, m);
    }
    if (!ok) *edits = 0;
    free(ends);
    free(touched);
    free(own);
    free(src);
    free(match);
    free(a);
    free(b);
    return ok;
}
