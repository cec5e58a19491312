/* SPDX-License-Identifier: BSD-3-Clause */
/* The Paraver trace (PREFIX.prv, .pcf, .row), as the Paraver viewer reads
 * it: a header, then state (1), event (2) and communication (3) records
 * sorted by time, in nanoseconds. Records arrive out of order (a message is
 * known when received, long after it was sent), so they are kept as binary
 * runs of RUN_RECORDS, each sorted and written to an unlinked temporary
 * file, and merged into the .prv at the end: memory stays fixed whatever the
 * run's length (the first MEMORY_RECORDS stay in memory). A helper thread
 * sorts and stores each run while the simulation goes on, and writes the
 * text while the runs are merged (on a machine with two cores, the cost of
 * the trace is then mostly hidden; without threads, the same work inline). Events: 50000001-3 for
 * MPI calls (point-to-point, collective, other; value 0 when the call ends), 60000001 for intervals
 * (the interval's id; its parent's when left). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/escape.h"
#include "core/outfile.h"
#include "report/analysis_internal.h"

#define RUN_RECORDS (1 << 16)
#define MEMORY_RECORDS RUN_RECORDS /* kept in memory (12 MiB); later runs go to disk */
#define MERGE_BUFFER 2048          /* records read at a time from each run */
#define EV_P2P 50000001
#define EV_COLL 50000002
#define EV_OTHER 50000003
#define EV_INTERVAL 60000001
#define EV_FAULT 60000002

enum { PRV_STATE = 1, PRV_EVENT = 2, PRV_COMM = 3 };

/* One record: t is the time it sorts by (a state's begin, an event's time,
 * a message's logical send). */
struct prv_rec {
    uint64_t t, a, b, c; /* state: end; event: type, value; comm: psend, lrecv, precv */
    int64_t size;
    int32_t rank, peer, tag;
    uint32_t kind; /* PRV_*; state: its value in tag */
    uint32_t seq;  /* a state or event: the rank's count of its records */
};

struct paraver {
    char *prefix;
    FILE *tmp;           /* runs beyond MEMORY_RECORDS, created when needed */
    struct prv_rec *mem; /* the runs that fit in memory */
    size_t mem_used;
    struct prv_rec *buf, *sorted; /* the run being filled, and in time order */
    struct prv_rec *spare;        /* the run the helper is sorting */
    struct sort_key *keys;        /* 2 x RUN_RECORDS: the radix sort's */
    size_t nbuf;
    /* the helper thread: one job at a time */
    pthread_t thread;
    pthread_mutex_t lock;
    pthread_cond_t cond;
    void (*job)(struct paraver *);
    bool threaded, busy, quit;
    int job_run; /* the run being stored */
    char *text;  /* text being written */
    size_t text_len;
    FILE *out;
    struct run {
        long count, offset; /* offset: in mem, or in the file (records) */
        bool in_file;
    } * runs;
    long file_records;
    int nruns;
    int32_t nranks;
    int32_t *cpu;  /* rank -> Paraver CPU (1-based, node by node) */
    int32_t *node; /* rank -> node (0-based) */
    /* several jobs (docs/jobs.md): each a Paraver application, its ranks
     * tasks 1..n; appl NULL with one job */
    int32_t *appl;      /* rank -> its job (0-based) */
    int32_t *job_first; /* job -> its first rank; [njobs]: every rank */
    int32_t njobs;
    uint32_t *seq;                       /* rank -> records of states and events made so far */
    const int32_t *interval_to;          /* a split run: interval nodes renumbered (NULL: none) */
    const struct sim_fault_note *faults; /* named in the .pcf */
    size_t nfaults;
    int32_t ninterval_to;
    int32_t nnodes;
    bool failed; /* a write to the temporary file failed */
};

static uint64_t ns(simtime_t t) {
    return (uint64_t)(t / 1000);
}

/* The order of the .prv: by time; among equal times the states and events
 * before the messages, those by rank and the rank's own order (a call's end
 * before the next one's begin), the messages by their fields. The order
 * does not depend on the order records were observed in across ranks, so
 * a split run (docs/parallel.md), whose first worker takes every other's
 * records in at the end, writes what one process writes. */
static int rec_cmp(const struct prv_rec *a, const struct prv_rec *b) {
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    bool ca = a->kind == PRV_COMM, cb = b->kind == PRV_COMM;
    if (ca != cb) return ca ? 1 : -1;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (!ca) return (a->seq > b->seq) - (a->seq < b->seq);
    if (a->peer != b->peer) return a->peer < b->peer ? -1 : 1;
    if (a->b != b->b) return a->b < b->b ? -1 : 1;
    if (a->c != b->c) return a->c < b->c ? -1 : 1;
    if (a->a != b->a) return a->a < b->a ? -1 : 1;
    if (a->size != b->size) return a->size < b->size ? -1 : 1;
    return (a->tag > b->tag) - (a->tag < b->tag);
}

static int rec_qsort_cmp(const void *a, const void *b) {
    return rec_cmp(a, b);
}

struct sort_key {
    uint64_t t;
    uint32_t at;
};

/* Stable LSD radix sort of the run by time, 11 bits a pass, only over the
 * bits where its times differ; then the records in that order. */
static void sort_run(struct paraver *pv, const struct prv_rec *src, size_t n, struct prv_rec *dst) {
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        pv->keys[i] = (struct sort_key){src[i].t, (uint32_t)i};
        if (src[i].t < lo) lo = src[i].t;
        if (src[i].t > hi) hi = src[i].t;
    }
    struct sort_key *from = pv->keys, *to = pv->keys + RUN_RECORDS;
    for (int shift = 0; shift < 64 && ((hi - lo) >> shift) != 0; shift += 11) {
        size_t count[2049] = {0};
        for (size_t i = 0; i < n; i++)
            count[(((from[i].t - lo) >> shift) & 2047) + 1]++;
        for (int d = 0; d < 2048; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            to[count[((from[i].t - lo) >> shift) & 2047]++] = from[i];
        struct sort_key *x = from;
        from = to;
        to = x;
    }
    for (size_t i = 0; i < n; i++)
        dst[i] = src[from[i].at];
    for (size_t i = 0, j; i < n; i = j) { /* each group of equal times in rec_cmp's order */
        for (j = i + 1; j < n && dst[j].t == dst[i].t; j++)
            ;
        if (j - i > 1) qsort(dst + i, j - i, sizeof *dst, rec_qsort_cmp);
    }
}

/* --- the helper thread --- */

static void *helper(void *arg) {
    struct paraver *pv = arg;
    pthread_mutex_lock(&pv->lock);
    for (;;) {
        while (!pv->busy && !pv->quit)
            pthread_cond_wait(&pv->cond, &pv->lock);
        if (!pv->busy) break;
        pthread_mutex_unlock(&pv->lock);
        pv->job(pv);
        pthread_mutex_lock(&pv->lock);
        pv->busy = false;
        pthread_cond_broadcast(&pv->cond);
    }
    pthread_mutex_unlock(&pv->lock);
    return NULL;
}

/* Waits until the helper is idle. */
static void helper_wait(struct paraver *pv) {
    if (!pv->threaded) return;
    pthread_mutex_lock(&pv->lock);
    while (pv->busy)
        pthread_cond_wait(&pv->cond, &pv->lock);
    pthread_mutex_unlock(&pv->lock);
}

/* Runs job on the helper (which must be idle), or here without one. */
static void helper_start(struct paraver *pv, void (*job)(struct paraver *)) {
    pv->job = job;
    if (!pv->threaded) {
        job(pv);
        return;
    }
    pthread_mutex_lock(&pv->lock);
    pv->busy = true;
    pthread_cond_broadcast(&pv->cond);
    pthread_mutex_unlock(&pv->lock);
}

static void helper_stop(struct paraver *pv) {
    if (!pv->threaded) return;
    helper_wait(pv);
    pthread_mutex_lock(&pv->lock);
    pv->quit = true;
    pthread_cond_broadcast(&pv->cond);
    pthread_mutex_unlock(&pv->lock);
    pthread_join(pv->thread, NULL);
    pthread_mutex_destroy(&pv->lock);
    pthread_cond_destroy(&pv->cond);
    pv->threaded = false;
}

/* The helper's job: sorts the spare run into memory or the file. */
static void store_run(struct paraver *pv) {
    const struct run *r = &pv->runs[pv->job_run];
    size_t n = (size_t)r->count;
    if (!r->in_file) {
        sort_run(pv, pv->spare, n, pv->mem + r->offset);
        return;
    }
    if (!pv->tmp && !(pv->tmp = tmpfile())) pv->failed = true;
    sort_run(pv, pv->spare, n, pv->sorted);
    if (pv->tmp && fwrite(pv->sorted, sizeof *pv->sorted, n, pv->tmp) != n) pv->failed = true;
}

static void flush_run(struct paraver *pv) {
    if (pv->nbuf == 0) return;
    helper_wait(pv);
    pv->runs = xrealloc_or_die(pv->runs, sizeof *pv->runs * (size_t)(pv->nruns + 1));
    struct run *r = &pv->runs[pv->nruns];
    pv->job_run = pv->nruns++;
    r->count = (long)pv->nbuf;
    r->in_file = pv->mem_used + pv->nbuf > MEMORY_RECORDS;
    if (!r->in_file) {
        if (!pv->mem) pv->mem = xcalloc(MEMORY_RECORDS, sizeof *pv->mem);
        r->offset = (long)pv->mem_used;
        pv->mem_used += pv->nbuf;
    } else {
        if (!pv->sorted) pv->sorted = xcalloc(RUN_RECORDS, sizeof *pv->sorted);
        r->offset = pv->file_records;
        pv->file_records += r->count;
    }
    struct prv_rec *full = pv->buf;
    pv->buf = pv->spare;
    pv->spare = full;
    pv->nbuf = 0;
    helper_start(pv, store_run);
}

static struct prv_rec *add(struct paraver *pv, uint32_t kind, int32_t rank, uint64_t t) {
    if (pv->nbuf == RUN_RECORDS) flush_run(pv);
    struct prv_rec *r = &pv->buf[pv->nbuf++];
    memset(r, 0, sizeof *r);
    r->kind = kind;
    r->rank = rank;
    r->t = t;
    if (kind != PRV_COMM) r->seq = pv->seq[rank]++;
    return r;
}

static void add_event(struct paraver *pv, int32_t rank, uint64_t t, uint64_t type, uint64_t value) {
    struct prv_rec *r = add(pv, PRV_EVENT, rank, t);
    r->a = type;
    r->b = value;
}

static uint64_t call_type(enum sim_call c) {
    if (c >= SIM_CALL_COLL) return EV_COLL;
    return c == SIM_CALL_SYNC || c == SIM_CALL_IO ? EV_OTHER : EV_P2P;
}

static void layout(struct paraver *pv, const struct sim *s) {
    pv->nranks = sim_size(s);
    pv->cpu = xcalloc((size_t)pv->nranks, sizeof *pv->cpu);
    pv->node = xcalloc((size_t)pv->nranks, sizeof *pv->node);
    pv->seq = xcalloc((size_t)pv->nranks, sizeof *pv->seq);
    for (int32_t r = 0; r < pv->nranks; r++) {
        pv->node[r] = sim_rank_node(s, r);
        if (pv->node[r] + 1 > pv->nnodes) pv->nnodes = pv->node[r] + 1;
    }
    int32_t *per_node = xcalloc((size_t)pv->nnodes + 1, sizeof *per_node);
    for (int32_t r = 0; r < pv->nranks; r++)
        per_node[pv->node[r] + 1]++;
    for (int32_t n = 0; n < pv->nnodes; n++)
        per_node[n + 1] += per_node[n]; /* first CPU of each node */
    for (int32_t r = 0; r < pv->nranks; r++)
        pv->cpu[r] = ++per_node[pv->node[r]];
    free(per_node);
    pv->njobs = sim_job_count(s);
    pv->job_first = xcalloc((size_t)pv->njobs + 1, sizeof *pv->job_first);
    for (int32_t j = 0; j < pv->njobs; j++)
        pv->job_first[j] = sim_job_first(s, j);
    pv->job_first[pv->njobs] = pv->nranks;
    if (pv->njobs < 2) return;
    pv->appl = xcalloc((size_t)pv->nranks, sizeof *pv->appl);
    for (int32_t r = 0; r < pv->nranks; r++)
        pv->appl[r] = sim_job_of(s, r);
}

struct paraver *paraver_open(const struct sim *s, const char *prefix, struct sim_error *err) {
    struct paraver *pv = xcalloc(1, sizeof *pv);
    (void)err;
    pv->prefix = xstrdup(prefix);
    pv->buf = xcalloc(RUN_RECORDS, sizeof *pv->buf);
    pv->spare = xcalloc(RUN_RECORDS, sizeof *pv->spare);
    pthread_mutex_init(&pv->lock, NULL);
    pthread_cond_init(&pv->cond, NULL);
    pv->threaded = pthread_create(&pv->thread, NULL, helper, pv) == 0;
    if (!pv->threaded) {
        pthread_mutex_destroy(&pv->lock);
        pthread_cond_destroy(&pv->cond);
    }
    pv->keys = xcalloc(2 * RUN_RECORDS, sizeof *pv->keys);
    layout(pv, s);
    return pv;
}

void paraver_period(struct paraver *pv, const struct sim_period *p) {
    uint64_t b = ns(p->begin), e = ns(p->end);
    if (e > b) {
        struct prv_rec *r = add(pv, PRV_STATE, p->rank, b);
        r->a = e;
        r->tag = p->state;
    }
    if (p->call == SIM_CALL_NONE) return;
    add_event(pv, p->rank, b, call_type(p->call), p->call);
    add_event(pv, p->rank, e, call_type(p->call), 0);
}

void paraver_instant(struct paraver *pv, int32_t rank, simtime_t t, enum sim_call c) {
    add_event(pv, rank, ns(t), call_type(c), c);
    add_event(pv, rank, ns(t), call_type(c), 0);
}

void paraver_message(struct paraver *pv, const struct sim_message *m) {
    struct prv_rec *r = add(pv, PRV_COMM, m->from, ns(m->lsend));
    r->a = ns(m->psend);
    r->b = ns(m->lrecv);
    r->c = ns(m->precv);
    r->size = m->size;
    r->peer = m->to;
    r->tag = m->tag;
}

void paraver_faults(struct paraver *pv, const struct sim_fault_note *log, size_t n) {
    pv->faults = log;
    pv->nfaults = n;
    for (size_t i = 0; i < n; i++)
        add_event(pv, 0, ns(log[i].at), EV_FAULT, i + 1);
}

void paraver_interval(struct paraver *pv, int32_t rank, simtime_t t, int32_t node) {
    add_event(pv, rank, ns(t), EV_INTERVAL, (uint64_t)node);
}

/* --- the .prv: merging the runs --- */

struct run_cursor {
    struct prv_rec *buf; /* a run in memory, or what was read of one in the file */
    long left, offset;   /* records not yet read, next record's index in the file */
    long n, at;
    bool owns; /* buf was allocated for reading the file */
};

static bool cursor_fill(struct paraver *pv, struct run_cursor *c) {
    if (c->at < c->n) return true;
    if (c->left == 0) return false;
    long want = c->left < MERGE_BUFFER ? c->left : MERGE_BUFFER;
    if (fseek(pv->tmp, c->offset * (long)sizeof(struct prv_rec), SEEK_SET) != 0 ||
        fread(c->buf, sizeof *c->buf, (size_t)want, pv->tmp) != (size_t)want) {
        pv->failed = true;
        return false;
    }
    c->offset += want;
    c->left -= want;
    c->n = want;
    c->at = 0;
    return true;
}

/* Decimal digits of v written backwards from end, two at a time; returns
 * the start. */
static char *put_u64(char *end, uint64_t v) {
    static const char pairs[] = "00010203040506070809101112131415161718192021222324"
                                "25262728293031323334353637383940414243444546474849"
                                "50515253545556575859606162636465666768697071727374"
                                "75767778798081828384858687888990919293949596979899";
    while (v >= 100) {
        end -= 2;
        memcpy(end, pairs + 2 * (v % 100), 2);
        v /= 100;
    }
    if (v >= 10) {
        end -= 2;
        memcpy(end, pairs + 2 * v, 2);
    } else {
        *--end = (char)('0' + v);
    }
    return end;
}

static char *put_field(char *o, uint64_t v) {
    char tmp[24], *s = put_u64(tmp + sizeof tmp, v);
    size_t n = (size_t)(tmp + sizeof tmp - s);
    memcpy(o, s, n);
    o[n] = ':';
    return o + n + 1;
}

static char *put_object(char *o, const struct paraver *pv, int32_t rank) {
    int32_t appl = pv->appl ? pv->appl[rank] : 0;
    o = put_field(o, (uint64_t)pv->cpu[rank]);
    o = put_field(o, (uint64_t)appl + 1);
    o = put_field(o, (uint64_t)(rank - pv->job_first[appl]) + 1);
    return put_field(o, 1);
}

/* One record as a line (at most 256 bytes). */
static char *format(char *o, const struct paraver *pv, const struct prv_rec *r) {
    o = put_field(o, r->kind);
    o = put_object(o, pv, r->rank);
    o = put_field(o, r->t);
    if (r->kind == PRV_STATE) {
        o = put_field(o, r->a);
        o = put_field(o, (uint64_t)r->tag);
    } else if (r->kind == PRV_EVENT) {
        uint64_t value = r->b;
        if (r->a == EV_INTERVAL && pv->interval_to && value < (uint64_t)pv->ninterval_to)
            value = (uint64_t)pv->interval_to[value];
        o = put_field(o, r->a);
        o = put_field(o, value);
    } else {
        o = put_field(o, r->a);
        o = put_object(o, pv, r->peer);
        o = put_field(o, r->b);
        o = put_field(o, r->c);
        o = put_field(o, (uint64_t)r->size);
        if (r->tag < 0) *o++ = '-';
        o = put_field(o, (uint64_t)(r->tag < 0 ? -(int64_t)r->tag : r->tag));
    }
    o[-1] = '\n';
    return o;
}

static void write_header(FILE *f, const struct paraver *pv, simtime_t end) {
    time_t now = time(NULL);
    const char *epoch = getenv("SOURCE_DATE_EPOCH"); /* reproducible output */
    if (epoch) now = (time_t)strtoll(epoch, NULL, 10);
    char date[64];
    struct tm tm;
    strftime(date, sizeof date, "%d/%m/%y at %H:%M", gmtime_r(&now, &tm));
    fprintf(f, "#Paraver (%s):%llu_ns:%d(", date, (unsigned long long)ns(end + 999), pv->nnodes);
    int32_t *count = xcalloc((size_t)pv->nnodes, sizeof *count);
    for (int32_t r = 0; r < pv->nranks; r++)
        count[pv->node[r]]++;
    for (int32_t n = 0; n < pv->nnodes; n++)
        fprintf(f, "%s%d", n ? "," : "", count[n]);
    free(count);
    fprintf(f, "):%d", pv->njobs); /* an application per job, each "tasks(1:node,...)" */
    for (int32_t j = 0; j < pv->njobs; j++) {
        fprintf(f, ":%d(", pv->job_first[j + 1] - pv->job_first[j]);
        for (int32_t r = pv->job_first[j]; r < pv->job_first[j + 1]; r++)
            fprintf(f, "%s1:%d", r > pv->job_first[j] ? "," : "", pv->node[r] + 1);
        fputs(")", f);
    }
    fputs("\n", f);
}

/* Whether run cursor a's next record goes before b's (earlier runs first
 * among equal times). */
static bool before(const struct run_cursor *a, const struct run_cursor *b) {
    int c = rec_cmp(&a->buf[a->at], &b->buf[b->at]);
    return c < 0 || (c == 0 && a < b);
}

static void heap_down(struct run_cursor **h, int n, int i) {
    for (;;) {
        int l = 2 * i + 1, m = i;
        if (l < n && before(h[l], h[m])) m = l;
        if (l + 1 < n && before(h[l + 1], h[m])) m = l + 1;
        if (m == i) return;
        struct run_cursor *t = h[i];
        h[i] = h[m];
        h[m] = t;
        i = m;
    }
}

/* The helper's job during the merge: writes a block of text. */
static void write_text(struct paraver *pv) {
    fwrite(pv->text, 1, pv->text_len, pv->out);
}

static void merge_runs(struct paraver *pv, FILE *out) {
    struct run_cursor *cur = xcalloc((size_t)pv->nruns + 1, sizeof *cur);
    struct run_cursor **heap = xcalloc((size_t)pv->nruns + 1, sizeof *heap);
    int n = 0;
    for (int i = 0; i < pv->nruns; i++) {
        const struct run *r = &pv->runs[i];
        if (r->in_file)
            cur[i] = (struct run_cursor){
                xcalloc(MERGE_BUFFER, sizeof(struct prv_rec)), r->count, r->offset, 0, 0, true};
        else
            cur[i] = (struct run_cursor){pv->mem + r->offset, 0, 0, r->count, 0, false};
        if (cursor_fill(pv, &cur[i])) heap[n++] = &cur[i];
    }
    for (int i = n / 2 - 1; i >= 0; i--)
        heap_down(heap, n, i);
    size_t cap = 1 << 20, used = 0;
    char *text = xcalloc(cap, 1), *spare = xcalloc(cap, 1);
    pv->out = out;
    while (n > 0) {
        struct run_cursor *c = heap[0];
        used = (size_t)(format(text + used, pv, &c->buf[c->at++]) - text);
        if (used > cap - 256) {
            helper_wait(pv); /* the previous block is written: hand this one over */
            pv->text = text;
            pv->text_len = used;
            text = spare;
            spare = pv->text;
            used = 0;
            helper_start(pv, write_text);
        }
        if (!cursor_fill(pv, c)) heap[0] = heap[--n];
        heap_down(heap, n, 0);
    }
    helper_wait(pv);
    fwrite(text, 1, used, out);
    free(text);
    free(spare);
    for (int i = 0; i < pv->nruns; i++)
        if (cur[i].owns) free(cur[i].buf);
    free(cur);
    free(heap);
}

/* --- a split run --- */

void paraver_pack(struct paraver *pv, struct blob *b) {
    flush_run(pv);
    helper_wait(pv);
    uint64_t count = (uint64_t)pv->mem_used + (uint64_t)pv->file_records;
    blob_put(b, &count, sizeof count);
    if (pv->mem_used) blob_put(b, pv->mem, sizeof *pv->mem * pv->mem_used);
    if (!pv->file_records || !pv->tmp) return;
    struct prv_rec *chunk = xmalloc(sizeof *chunk * MERGE_BUFFER);
    fflush(pv->tmp);
    bool ok = fseek(pv->tmp, 0, SEEK_SET) == 0;
    for (long left = pv->file_records; left > 0 && ok;) {
        size_t want = left < MERGE_BUFFER ? (size_t)left : MERGE_BUFFER;
        ok = fread(chunk, sizeof *chunk, want, pv->tmp) == want;
        if (ok) blob_put(b, chunk, sizeof *chunk * want);
        left -= (long)want;
    }
    if (!ok) { /* the count promised them: the first worker sees a short blob */
        memset(chunk, 0, sizeof *chunk * MERGE_BUFFER);
        pv->failed = true;
    }
    free(chunk);
}

size_t paraver_unpack(struct paraver *pv, const char *p, size_t len, const int32_t *map,
                      int32_t n) {
    uint64_t count;
    if (len < sizeof count) return 0;
    memcpy(&count, p, sizeof count);
    if (count > (len - sizeof count) / sizeof(struct prv_rec)) return 0;
    for (uint64_t i = 0; i < count; i++) {
        struct prv_rec r;
        memcpy(&r, p + sizeof count + i * sizeof r, sizeof r);
        if (r.rank < 0 || r.rank >= pv->nranks || r.kind < PRV_STATE || r.kind > PRV_COMM ||
            (r.kind == PRV_COMM && (r.peer < 0 || r.peer >= pv->nranks)))
            return 0;
        if (r.kind == PRV_EVENT && r.a == EV_INTERVAL && map && r.b < (uint64_t)n)
            r.b = (uint64_t)map[r.b]; /* in this worker's tree */
        if (pv->nbuf == RUN_RECORDS) flush_run(pv);
        pv->buf[pv->nbuf++] = r; /* its rank's count as its worker made it */
    }
    return sizeof count + count * sizeof(struct prv_rec);
}

/* --- .pcf and .row --- */

static const uint8_t pcf_states[] = {
    SIM_ST_IDLE, SIM_ST_RUNNING, SIM_ST_WAIT_MSG, SIM_ST_BLOCK_SEND, SIM_ST_SYNC,    SIM_ST_TEST,
    SIM_ST_WAIT, SIM_ST_ISEND,   SIM_ST_IO,       SIM_ST_COLL,       SIM_ST_SENDRECV};
static const char *const pcf_colors[] = {"117,195,255", "0,0,255",   "255,0,0",  "255,0,174",
                                         "179,0,0",     "0,255,0",   "235,0,0",  "172,174,41",
                                         "255,144,26",  "255,255,0", "0,224,224"};

static void write_pcf_faults(FILE *f, const struct paraver *pv) {
    if (!pv->nfaults) return;
    fprintf(f, "\n\nEVENT_TYPE\n0    %d    simpi fault\nVALUES\n", EV_FAULT);
    for (size_t i = 0; i < pv->nfaults; i++)
        fprintf(f, "%-3zu %s\n", i + 1, pv->faults[i].what);
}

static void write_pcf(FILE *f, const struct intervals *iv) {
    fputs("DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
          "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
          "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\nDEFAULT_SEMANTIC\n\n"
          "THREAD_FUNC          State As Is\n\n\nSTATES\n",
          f);
    for (size_t i = 0; i < sizeof pcf_states; i++)
        fprintf(f, "%-4d %s\n", pcf_states[i], sim_state_name((enum sim_state)pcf_states[i]));
    fputs("\n\nSTATES_COLOR\n", f);
    for (size_t i = 0; i < sizeof pcf_states; i++)
        fprintf(f, "%-4d {%s}\n", pcf_states[i], pcf_colors[i]);
    static const struct {
        int type;
        const char *name;
    } types[] = {
        {EV_P2P, "MPI Point-to-point"}, {EV_COLL, "MPI Collective Comm"}, {EV_OTHER, "MPI Other"}};
    for (size_t t = 0; t < 3; t++) {
        fprintf(f, "\n\nEVENT_TYPE\n0    %d    %s\nVALUES\n0   Outside MPI\n", types[t].type,
                types[t].name);
        for (int c = 1; c < SIM_CALLS; c++)
            if ((int)call_type((enum sim_call)c) == types[t].type)
                fprintf(f, "%-3d %s\n", c, sim_call_name((enum sim_call)c));
    }
    fprintf(f, "\n\nEVENT_TYPE\n0    %d    simpi interval\nVALUES\n", EV_INTERVAL);
    for (int32_t i = 0; i < iv->nnodes; i++) {
        char name[512];
        escape_line(name, sizeof name, iv->nodes[i].name);
        fprintf(f, "%-3d %s\n", i, name);
    }
    fputc('\n', f);
}

static void write_row(FILE *f, const struct paraver *pv) {
    fprintf(f, "LEVEL CPU SIZE %d\n", pv->nranks);
    for (int32_t n = 0, k = 0; n < pv->nnodes; n++)
        for (int32_t r = 0; r < pv->nranks; r++)
            if (pv->node[r] == n) fprintf(f, "%d.%d\n", n + 1, ++k);
    fprintf(f, "\nLEVEL NODE SIZE %d\n", pv->nnodes);
    for (int32_t n = 0; n < pv->nnodes; n++)
        fprintf(f, "node%d\n", n);
    if (pv->njobs > 1) { /* the jobs as applications, their ranks as tasks */
        fprintf(f, "\nLEVEL APPL SIZE %d\n", pv->njobs);
        for (int32_t j = 0; j < pv->njobs; j++)
            fprintf(f, "job %d\n", j);
    }
    fprintf(f, "\nLEVEL THREAD SIZE %d\n", pv->nranks);
    for (int32_t r = 0; r < pv->nranks; r++)
        fprintf(f, "rank %d\n", r);
}

static bool write_file(const struct paraver *pv, const char *ext, struct sim_error *err,
                       bool (*body)(FILE *, const void *, const void *), const void *a,
                       const void *b) {
    size_t n = strlen(pv->prefix);
    char *path = xcalloc(n + 5, 1);
    memcpy(path, pv->prefix, n);
    memcpy(path + n, ext, 4);
    struct outfile out;
    bool ok = outfile_open(&out, path, err);
    if (ok && !body(out.f, a, b)) {
        outfile_discard(&out);
        ok = err_set(err,
                     "--paraver: the temporary file of %s could not be written or read (is "
                     "the temporary folder full?)",
                     path);
    } else if (ok) {
        ok = outfile_commit(&out, err);
    }
    free(path);
    return ok;
}

struct prv_args {
    struct paraver *pv;
    simtime_t end;
};

static bool prv_body(FILE *f, const void *a, const void *b) {
    (void)b;
    const struct prv_args *p = a;
    if (p->pv->failed) return false;
    write_header(f, p->pv, p->end);
    merge_runs(p->pv, f);
    return !p->pv->failed;
}

static bool pcf_body(FILE *f, const void *a, const void *b) {
    write_pcf(f, a);
    write_pcf_faults(f, b);
    return true;
}

static bool row_body(FILE *f, const void *a, const void *b) {
    (void)b;
    write_row(f, a);
    return true;
}

bool paraver_close(struct paraver *pv, const struct intervals *iv, simtime_t end,
                   struct sim_error *err) {
    bool ok = true;
    if (iv) {
        pv->interval_to = iv->renumbered;
        pv->ninterval_to = iv->renumbered_n;
        flush_run(pv);
        helper_wait(pv);
        if (pv->tmp) fflush(pv->tmp);
        struct prv_args args = {pv, end};
        ok = write_file(pv, ".prv", err, prv_body, &args, NULL) &&
             write_file(pv, ".pcf", err, pcf_body, iv, pv) &&
             write_file(pv, ".row", err, row_body, pv, NULL);
    }
    helper_stop(pv);
    if (pv->tmp) fclose(pv->tmp);
    free(pv->mem);
    free(pv->buf);
    free(pv->spare);
    free(pv->sorted);
    free(pv->keys);
    free(pv->runs);
    free(pv->cpu);
    free(pv->node);
    free(pv->appl);
    free(pv->job_first);
    free(pv->seq);
    free(pv->prefix);
    free(pv);
    return ok;
}
