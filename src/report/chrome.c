/* SPDX-License-Identifier: BSD-3-Clause */
/* The Chrome trace / Perfetto JSON (the Trace Event Format): one process,
 * one track (thread) per rank; each period a complete event ("X") named by
 * its MPI call, non-blocking calls instant events ("i"), intervals as
 * begin/end events ("B"/"E"), and each message a flow arrow ("s" at the
 * sender's logical send, "f" at the receiver's arrival). Timestamps in
 * microseconds with picosecond digits. The events are kept as the run goes
 * and written at its end in an order that does not depend on the order the
 * run reported them: by time, rank and the rank's own count (a rank's
 * events keep their order), then the messages by send time, numbered in
 * that order. So a split run (docs/parallel.md), whose first worker gathers
 * the others' events, writes the same file as one process. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"
#include "core/escape.h"
#include "core/outfile.h"
#include "report/analysis_internal.h"
#include "report/chrome_internal.h"

static void put_us(FILE *f, simtime_t t) {
    fprintf(f, "%" PRId64 ".%06" PRId64, (int64_t)(t / 1000000), (int64_t)(t % 1000000));
}

static void event_head(FILE *f, const char *ph, int32_t rank, simtime_t t) {
    fprintf(f, ",\n{\"ph\":\"%s\",\"pid\":0,\"tid\":%d,\"ts\":", ph, rank);
    put_us(f, t);
}

struct chrome *chrome_open(const struct sim *s, const char *path, const char *what,
                           struct sim_error *err) {
    struct chrome *c = xcalloc(1, sizeof *c);
    c->writing = sim_reports(s);
    if (c->writing && !outfile_open(&c->out, path, err)) {
        free(c);
        return NULL;
    }
    c->nranks = sim_size(s);
    c->seq = xcalloc((size_t)c->nranks, sizeof *c->seq);
    c->what = xstrdup(what ? what : "simpi");
    return c;
}

static struct ch_ev *add(struct chrome *c, int kind, int32_t rank, simtime_t t) {
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 4096;
        c->ev = xrealloc_or_die(c->ev, sizeof *c->ev * c->cap);
    }
    struct ch_ev *e = &c->ev[c->n++];
    memset(e, 0, sizeof *e);
    e->kind = (uint8_t)kind;
    e->rank = rank;
    e->t = t;
    if (kind != CH_MESSAGE) e->seq = c->seq[rank]++;
    return e;
}

void chrome_period(struct chrome *c, const struct sim_period *p) {
    if (p->end <= p->begin) return;
    struct ch_ev *e = add(c, CH_PERIOD, p->rank, p->begin);
    e->t2 = p->end;
    e->a = (uint16_t)p->state;
    e->b = (uint16_t)p->call;
}

void chrome_instant(struct chrome *c, int32_t rank, simtime_t t, enum sim_call call) {
    add(c, CH_INSTANT, rank, t)->a = (uint16_t)call;
}

void chrome_message(struct chrome *c, const struct sim_message *m) {
    struct ch_ev *e = add(c, CH_MESSAGE, m->from, m->lsend);
    e->t2 = m->precv;
    e->peer = m->to;
    e->size = m->size;
    e->tag = m->tag;
    e->a = m->collective;
}

static int32_t name_number(struct chrome *c, const char *name) {
    for (int32_t i = c->nnames - 1; i >= 0; i--) /* a loop's interval: the last ones first */
        if (!strcmp(c->names[i], name)) return i;
    if (c->nnames == c->names_cap) {
        c->names_cap = c->names_cap ? 2 * c->names_cap : 16;
        c->names = xrealloc_or_die(c->names, sizeof *c->names * (size_t)c->names_cap);
    }
    c->names[c->nnames] = xstrdup(name);
    return c->nnames++;
}

void chrome_interval(struct chrome *c, int32_t rank, simtime_t t, const char *name) {
    struct ch_ev *e = add(c, name ? CH_BEGIN : CH_END, rank, t);
    if (name) e->peer = name_number(c, name);
}

/* --- the order written --- */

static int cmp_event(const void *x, const void *y) {
    const struct ch_ev *a = x, *b = y;
    if ((a->kind == CH_MESSAGE) != (b->kind == CH_MESSAGE)) return a->kind == CH_MESSAGE ? 1 : -1;
    if (a->t != b->t) return a->t < b->t ? -1 : 1;
    if (a->rank != b->rank) return a->rank < b->rank ? -1 : 1;
    if (a->kind != CH_MESSAGE) return a->seq < b->seq ? -1 : a->seq > b->seq;
    if (a->peer != b->peer) return a->peer < b->peer ? -1 : 1;
    if (a->t2 != b->t2) return a->t2 < b->t2 ? -1 : 1;
    if (a->size != b->size) return a->size < b->size ? -1 : 1;
    return a->tag < b->tag ? -1 : a->tag > b->tag;
}

static void write_event(FILE *f, const struct chrome *c, const struct ch_ev *e, uint64_t *flows) {
    switch (e->kind) {
    case CH_PERIOD:
        event_head(f, "X", e->rank, e->t);
        fputs(",\"dur\":", f);
        put_us(f, e->t2 - e->t);
        fprintf(f, ",\"cat\":\"%s\",\"name\":\"%s\",\"args\":{\"state\":\"%s\"}}",
                e->a == SIM_ST_RUNNING ? "compute" : "mpi",
                e->a == SIM_ST_RUNNING ? "compute" : sim_call_name((enum sim_call)e->b),
                sim_state_name((enum sim_state)e->a));
        break;
    case CH_INSTANT:
        event_head(f, "i", e->rank, e->t);
        fprintf(f, ",\"s\":\"t\",\"cat\":\"mpi\",\"name\":\"%s\"}",
                sim_call_name((enum sim_call)e->a));
        break;
    case CH_BEGIN:
    case CH_END:
        event_head(f, e->kind == CH_BEGIN ? "B" : "E", e->rank, e->t);
        if (e->kind == CH_BEGIN) {
            fputs(",\"cat\":\"interval\",\"name\":", f);
            escape_json(f, c->names[e->peer]);
        }
        fputc('}', f);
        break;
    default: {
        uint64_t id = ++*flows;
        event_head(f, "s", e->rank, e->t);
        fprintf(f, ",\"cat\":\"message\",\"name\":\"message\",\"id\":%" PRIu64 "}", id);
        event_head(f, "f", e->peer, e->t2);
        fprintf(f,
                ",\"bp\":\"e\",\"cat\":\"message\",\"name\":\"message\",\"id\":%" PRIu64
                ",\"args\":{\"bytes\":%" PRId64 ",\"tag\":%d,\"from\":%d,\"collective\":%s}}",
                id, e->size, e->tag, e->rank, e->a ? "true" : "false");
    }
    }
}

static void write_all(struct chrome *c) {
    FILE *f = c->out.f;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":0,\"name\":"
          "\"process_name\",\"args\":{\"name\":",
          f);
    escape_json(f, c->what);
    fputs("}}", f);
    for (int32_t r = 0; r < c->nranks; r++) {
        fprintf(f,
                ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_name\",\"args\":{"
                "\"name\":\"rank %d\"}}",
                r, r);
        fprintf(f,
                ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_sort_index\","
                "\"args\":{\"sort_index\":%d}}",
                r, r);
    }
    if (c->n) qsort(c->ev, c->n, sizeof *c->ev, cmp_event);
    uint64_t flows = 0;
    for (size_t i = 0; i < c->n; i++)
        write_event(f, c, &c->ev[i], &flows);
    for (size_t i = 0; i < c->nfaults; i++) { /* a fault: an instant across the whole trace */
        fputs(",\n{\"ph\":\"i\",\"s\":\"g\",\"pid\":0,\"tid\":0,\"ts\":", f);
        put_us(f, c->faults[i].at);
        fputs(",\"cat\":\"fault\",\"name\":", f);
        escape_json(f, c->faults[i].what);
        fputs("}", f);
    }
    fputs("\n]}\n", f);
}

/* --- a split run: a worker's events for the first --- */

void chrome_pack(const struct chrome *c, struct blob *b) {
    blob_put(b, &c->nnames, sizeof c->nnames);
    for (int32_t i = 0; i < c->nnames; i++) {
        uint32_t len = (uint32_t)strlen(c->names[i]);
        blob_put(b, &len, sizeof len);
        blob_put(b, c->names[i], len);
    }
    uint64_t n = c->n;
    blob_put(b, &n, sizeof n);
    blob_put(b, c->ev, sizeof *c->ev * c->n);
}

size_t chrome_unpack(struct chrome *c, const char *p, size_t len) {
    size_t at = 0;
    int32_t nnames;
    if (len < sizeof nnames) return 0;
    memcpy(&nnames, p, sizeof nnames);
    at += sizeof nnames;
    int32_t *map = xcalloc((size_t)(nnames > 0 ? nnames : 1), sizeof *map);
    bool ok = nnames >= 0;
    for (int32_t i = 0; ok && i < nnames; i++) { /* the names, renumbered here */
        uint32_t l;
        ok = at + sizeof l <= len;
        if (ok) memcpy(&l, p + at, sizeof l);
        ok = ok && at + sizeof l + l <= len;
        if (!ok) break;
        char *name = xmalloc(l + 1);
        memcpy(name, p + at + sizeof l, l);
        name[l] = 0;
        map[i] = name_number(c, name);
        free(name);
        at += sizeof l + l;
    }
    uint64_t n = 0;
    ok = ok && at + sizeof n <= len;
    if (ok) memcpy(&n, p + at, sizeof n);
    ok = ok && n <= (len - at - sizeof n) / sizeof(struct ch_ev);
    for (uint64_t k = 0; ok && k < n; k++) {
        struct ch_ev e;
        memcpy(&e, p + at + sizeof n + k * sizeof e, sizeof e);
        if (e.kind == CH_BEGIN) {
            if (e.peer < 0 || e.peer >= nnames) break;
            e.peer = map[e.peer];
        }
        *add(c, CH_MESSAGE, 0, 0) = e; /* a message's slot: no count taken */
    }
    free(map);
    return ok ? at + sizeof n + (size_t)n * sizeof(struct ch_ev) : 0;
}

void chrome_faults(struct chrome *c, const struct sim_fault_note *log, size_t n) {
    c->faults = log;
    c->nfaults = n;
}

struct chrome *chrome_open_otf2(const struct sim *s, const char *dir, const char *what,
                                struct sim_error *err) {
    struct stat st;
    if (sim_reports(s) && stat(dir, &st) == 0) {
        err_set(err, "%s: already exists; the OTF2 timeline is written to a new folder", dir);
        return NULL;
    }
    struct chrome *c = xcalloc(1, sizeof *c);
    c->writing = sim_reports(s);
    c->otf2_dir = xstrdup(dir);
    c->nranks = sim_size(s);
    c->seq = xcalloc((size_t)c->nranks, sizeof *c->seq);
    c->what = xstrdup(what ? what : "simpi");
    return c;
}

bool chrome_close(struct chrome *c, struct sim_error *err) {
    bool ok = false;
    if (c->writing && err && c->otf2_dir) {
        ok = chrome_write_otf2(c, err);
    } else if (c->writing && err) {
        write_all(c);
        ok = outfile_commit(&c->out, err);
    } else if (c->writing && !c->otf2_dir) {
        outfile_discard(&c->out);
    }
    free(c->otf2_dir);
    for (int32_t i = 0; i < c->nnames; i++)
        free(c->names[i]);
    free(c->names);
    free(c->ev);
    free(c->seq);
    free(c->what);
    free(c);
    return ok;
}
