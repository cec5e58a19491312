/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI_PROC_NULL in SimGrid time-independent traces. SMPI 3.32's tracer
 * writes a point-to-point call with MPI_PROC_NULL with the partner -333
 * (read as an operation that completes at once), but drops an MPI_Sendrecv
 * with MPI_PROC_NULL on one side altogether: in a non-periodic halo the
 * edge rank's line is missing while its real partner's sendRecv still
 * names it. A first pass over the trace counts, for each ordered pair of
 * ranks, the messages the sender's trace sends and the receiver's trace
 * receives (send, isend, sendRecv; recv, irecv, sendRecv). Where a side
 * has more than the other, the excess are halves of sendRecv calls whose
 * partner's line was dropped: the last ones of that pair are then replayed
 * as MPI_PROC_NULL halves (the call completes that side at once), so the
 * replay neither deadlocks on a receive that no trace sends nor leaves a
 * large send waiting for a receive that no trace posts. The message the
 * dropped line did send or receive is lost with it: the replay cannot
 * charge its time (docs/trace-format.md). */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/hash.h"
#include "replay/trace_internal.h"

struct pair_count {
    uint64_t key;                         /* src << 32 | dst, plus one; 0: empty slot */
    int64_t sends, recvs;                 /* all the pair's messages, as each side traced them */
    int64_t sr_sends, sr_recvs;           /* of which by sendRecv */
    int64_t sr_sends_seen, sr_recvs_seen; /* sendRecv halves replayed so far */
};

struct tit_pairs {
    struct pair_count *slots;
    size_t cap, used;
};

static uint64_t pair_key(int32_t src, int32_t dst) {
    return ((uint64_t)(uint32_t)src << 32 | (uint32_t)dst) + 1;
}

/* The slot of key, or the empty one where it would go. */
static struct pair_count *slot(const struct tit_pairs *p, uint64_t key) {
    size_t i = (size_t)hash_mix64(key) & (p->cap - 1);
    while (p->slots[i].key && p->slots[i].key != key)
        i = (i + 1) & (p->cap - 1);
    return &p->slots[i];
}

static void grow(struct tit_pairs *p) {
    struct pair_count *old = p->slots;
    size_t old_cap = p->cap;
    p->cap = p->cap ? 2 * p->cap : 1024;
    p->slots = xcalloc(p->cap, sizeof *p->slots);
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].key) *slot(p, old[i].key) = old[i];
    free(old);
}

static struct pair_count *find(struct tit_pairs *p, uint64_t key, bool add) {
    if (add && 2 * (p->used + 1) > p->cap) grow(p);
    if (!p->cap) return NULL;
    struct pair_count *c = slot(p, key);
    if (c->key || !add) return c->key ? c : NULL;
    c->key = key;
    p->used++;
    return c;
}

/* A rank field of a line: -1 unless it is a rank of the trace. */
static int32_t rank_of(const char *s, int32_t nranks) {
    int32_t r;
    return trace_parse_int(s, 0, nranks - 1, &r) ? r : -1;
}

static void count(struct tit_pairs *p, int32_t src, int32_t dst, bool send, bool sr) {
    if (src < 0 || dst < 0) return;
    struct pair_count *c = find(p, pair_key(src, dst), true);
    if (send) {
        c->sends++;
        c->sr_sends += sr;
    } else {
        c->recvs++;
        c->sr_recvs += sr;
    }
}

/* One line's messages (only its first fields are needed). */
static void count_line(struct tit_pairs *p, char *line, int32_t nranks) {
    char *tok[8];
    int n = trace_tokenize(line, tok, 8);
    if (n < 0) n = 8; /* a long collective line: its first fields are enough */
    if (n < 3) return;
    int32_t me = rank_of(tok[0], nranks);
    const char *a = tok[1];
    if (!strcmp(a, "send") || !strcmp(a, "isend")) {
        count(p, me, rank_of(tok[2], nranks), true, false);
    } else if (!strcmp(a, "recv") || !strcmp(a, "irecv")) {
        count(p, rank_of(tok[2], nranks), me, false, false);
    } else if ((!strcmp(a, "sendRecv") || !strcmp(a, "sendrecv")) && n >= 6) {
        count(p, me, rank_of(tok[3], nranks), true, true);
        count(p, rank_of(tok[5], nranks), me, false, true);
    }
}

static void scan_file(struct tit_pairs *p, const char *path, int32_t nranks) {
    gzFile f = gzopen(path, "rb");
    char buf[4096];
    bool line_start = true;
    while (f && gzgets(f, buf, sizeof buf)) {
        size_t len = strlen(buf);
        bool whole = len > 0 && buf[len - 1] == '\n';
        if (line_start) count_line(p, buf, nranks); /* a long line's rest is skipped */
        line_start = whole;
    }
    if (f) gzclose(f);
}

struct tit_pairs *tit_pairs_scan(char *const *paths, int32_t npaths, int32_t nranks) {
    struct tit_pairs *p = xcalloc(1, sizeof *p);
    for (int32_t i = 0; i < npaths; i++)
        scan_file(p, paths[i], nranks);
    return p;
}

void tit_pairs_free(struct tit_pairs *p) {
    if (!p) return;
    free(p->slots);
    free(p);
}

bool tit_pairs_matched(struct tit_pairs *p, int32_t src, int32_t dst, bool send) {
    struct pair_count *c = p ? find(p, pair_key(src, dst), false) : NULL;
    if (!c) return true;
    int64_t mine = send ? c->sends : c->recvs, theirs = send ? c->recvs : c->sends;
    int64_t sr = send ? c->sr_sends : c->sr_recvs;
    int64_t k = send ? c->sr_sends_seen++ : c->sr_recvs_seen++;
    int64_t excess = mine > theirs ? mine - theirs : 0;
    return k < sr - excess;
}
