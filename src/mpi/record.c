/* SPDX-License-Identifier: BSD-3-Clause */
/* Recording a run as a native trace (`simpi run --trace-out DIR`, as SMPI's
 * -trace-ti): every action a rank gives the MPI layer becomes a record of
 * DIR/rank<R>.trace, so that the run replays on any platform without
 * running the program again (docs/trace-format.md). Point-to-point and
 * collective calls are recorded in their non-blocking form with the waits
 * that complete them (a blocking call is a post and a wait at the same
 * instant: the replay is the same). Each rank's lines gather in a buffer,
 * appended to its file when full (open, write, close: no descriptor per
 * rank stays open). File I/O is recorded as the storage requests and the
 * round trips to the shared file pointer's keeper that it makes; one-sided
 * operations as their origins' sides (rma_put, rma_get), replay landing the
 * targets' sides, and their synchronisation (rma_lock ... rma_wait). What a
 * trace cannot express (probes, matched receives, communicators from
 * groups, intercommunicators)
 * is counted and reported; so are operations on communicators made from
 * them. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/rankdir.h"
#include "core/rankfile.h"
#include "mpi/part.h"
#include "mpi/record.h"
#include "mpi/sim_internal.h"

#define RECORD_MEMORY ((size_t)64 << 20) /* for all the ranks' buffers */

struct rec_rank {
    char *buf;
    size_t len;
    int32_t next_id;
    int32_t depth; /* intervals open */
    bool started;  /* its file exists */
};

struct recorder {
    struct rankdir out; /* the rank files are staged in out.stage */
    struct rec_rank *ranks;
    size_t cap; /* per rank */
    int64_t skipped;
    const char *first_skipped;
    int write_errno;
    char failed_path[512];
};

/* Appends the rank's buffer to its file (creating it with the header). */
static void flush_rank(struct sim *s, int32_t rank) {
    struct recorder *rc = s->rec;
    struct rec_rank *r = &rc->ranks[rank];
    if (r->len == 0 && r->started) return;
    if (!rankfile_append(rc->out.stage, rank, s->nranks, &r->started, r->buf, r->len) &&
        !rc->write_errno) {
        rc->write_errno = errno ? errno : EIO;
        rankfile_path(rc->out.dir, rank, rc->failed_path, sizeof rc->failed_path);
    }
    r->len = 0;
}

__attribute__((format(printf, 3, 4))) static void put(struct sim *s, int32_t rank, const char *fmt,
                                                      ...) {
    struct recorder *rc = s->rec;
    struct rec_rank *r = &rc->ranks[rank];
    if (!r->buf) r->buf = xcalloc(rc->cap, 1);
    for (int tries = 0; tries < 2; tries++) {
        va_list ap;
        va_start(ap, fmt);
        size_t room = rc->cap - r->len;
        int n = snprintf(r->buf + r->len, room, "%d ", rank);
        if (n > 0 && (size_t)n < room)
            n += vsnprintf(r->buf + r->len + n, room - (size_t)n, fmt, ap);
        va_end(ap);
        if (n > 0 && (size_t)n < room) {
            r->len += (size_t)n;
            return;
        }
        flush_rank(s, rank);
    }
    /* a record longer than the buffer (a v-collective's counts at scale) */
    va_list ap;
    va_start(ap, fmt);
    char *line = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&line, &len);
    fprintf(m, "%d ", rank);
    vfprintf(m, fmt, ap);
    fclose(m);
    va_end(ap);
    char *saved = r->buf;
    r->buf = line;
    r->len = len;
    flush_rank(s, rank);
    r->buf = saved;
    free(line);
}

bool sim_record_start(struct sim *s, const char *dir, struct sim_error *err) {
    struct rankdir out;
    if (!rankdir_begin(&out, dir, "--trace-out", err)) return false;
    sim_record_start_staged(s, &out);
    return true;
}

void sim_record_start_staged(struct sim *s, const struct rankdir *staged) {
    struct recorder *rc = xcalloc(1, sizeof *rc);
    rc->out = *staged;
    rc->ranks = xcalloc((size_t)s->nranks, sizeof *rc->ranks);
    rc->cap = RECORD_MEMORY / (size_t)s->nranks;
    if (rc->cap > 65536) rc->cap = 65536;
    if (rc->cap < 1024) rc->cap = 1024;
    s->rec = rc;
}

void sim_record_flush(struct sim *s) {
    for (int32_t r = 0; s->rec && r < s->nranks; r++)
        if (sim_local(s, r)) flush_rank(s, r);
}

/* A run that did not end well leaves a trace of what it reached, every
 * rank's file ending with an `incomplete` record that replay refuses. */
static void mark_incomplete(struct sim *s) {
    const char *why = sim_failure_report(s);
    char reason[160];
    size_t i = 0;
    for (; why[i] && why[i] != '\n' && i + 1 < sizeof reason; i++)
        reason[i] = (unsigned char)why[i] < ' ' ? ' ' : why[i];
    reason[i] = 0;
    for (int32_t r = 0; r < s->nranks; r++) {
        if (!sim_local(s, r)) s->rec->ranks[r].started = true; /* its worker wrote its file */
        put(s, r, "incomplete # the recorded run ended early: %s\n", reason);
    }
}

bool sim_record_finish(struct sim *s, struct sim_error *err) {
    struct recorder *rc = s->rec;
    if (!rc) return true;
    bool partial = sim_status(s) != SIM_OK;
    if (partial) mark_incomplete(s);
    for (int32_t r = 0; r < s->nranks; r++)
        if (sim_local(s, r) || rc->ranks[r].len) flush_rank(s, r);
    bool ok = true;
    if (rc->write_errno) {
        ok = err_set(err, "--trace-out: cannot write %s: %s", rc->failed_path,
                     strerror(rc->write_errno));
        rankdir_abandon(&rc->out, s->nranks);
    } else {
        if (partial)
            fprintf(stderr,
                    "simpi: warning: the trace in %s is incomplete (the run ended early) and is "
                    "marked so: replay refuses it\n",
                    rc->out.dir);
        else if (rc->skipped)
            fprintf(stderr,
                    "simpi: warning: the trace in %s lacks %lld operation(s) a trace cannot "
                    "express (the first: %s); its replay leaves them out\n",
                    rc->out.dir, (long long)rc->skipped, rc->first_skipped);
        ok = rankdir_commit(&rc->out, s->nranks, err);
    }
    for (int32_t r = 0; r < s->nranks; r++)
        free(rc->ranks[r].buf);
    free(rc->ranks);
    free(rc);
    s->rec = NULL;
    return ok;
}

void record_skip(struct sim *s, const char *what) {
    if (s->rec->skipped++ == 0) s->rec->first_skipped = what;
}

int64_t record_skipped(const struct sim *s) {
    return s->rec ? s->rec->skipped : 0;
}

void record_skipped_elsewhere(struct sim *s, int64_t n) {
    if (!s->rec || n <= 0) return;
    if (!s->rec->skipped) s->rec->first_skipped = "in a rank of another worker";
    s->rec->skipped += n;
}

void record_compute(struct sim *s, int32_t rank, simtime_t duration) {
    /* in the traced machine's time: replay divides by the platform's speed */
    simtime_t t = duration;
    if (s->plat->flop_rate <= 0 && s->plat->speed != 1.0)
        t = (simtime_t)((double)duration * s->plat->speed + 0.5);
    put(s, rank, "compute %lldps\n", (long long)t);
}

/* Whether an operation on the rank's communicator comm_id can be recorded
 * (if not, it is counted as left out). */
static bool traceable(struct sim *s, int32_t rank, int32_t comm_id) {
    int32_t me;
    const struct comm *c = sim_comm_get(s, rank, comm_id, &me);
    if (c && !c->untraced) return true;
    record_skip(s, "an operation on a communicator made from a group or an intercommunicator");
    return false;
}

static int32_t new_id(struct sim *s, struct request *r) {
    r->rec_id = s->rec->ranks[r->owner].next_id++;
    return r->rec_id;
}

static void put_tag(char *out, size_t n, const char *key, int32_t v, int32_t any) {
    if (v == any)
        snprintf(out, n, " %s=any", key);
    else
        snprintf(out, n, " %s=%d", key, v);
}

void record_p2p(struct sim *s, struct request *r, int32_t comm_id, int32_t peer, int32_t tag,
                int64_t size, bool send, enum send_mode mode) {
    static const char *const sends[] = {"isend", "issend", "ibsend", "irsend"};
    if (!traceable(s, r->owner, comm_id)) return;
    char tagf[32];
    put_tag(tagf, sizeof tagf, "tag", tag, SIM_ANY_TAG);
    int32_t id = new_id(s, r);
    if (send) {
        put(s, r->owner, "%s %d %lld%s comm=%d req=%d\n", sends[mode & 3], peer, (long long)size,
            tagf, comm_id, id);
        return;
    }
    char src[16], sz[24] = "";
    if (peer == SIM_ANY_SOURCE)
        snprintf(src, sizeof src, "any");
    else
        snprintf(src, sizeof src, "%d", peer);
    if (size >= 0) snprintf(sz, sizeof sz, " %lld", (long long)size);
    put(s, r->owner, "irecv %s%s%s comm=%d req=%d\n", src, sz, tagf, comm_id, id);
}

void record_rma(struct sim *s, struct request *r, int32_t comm_id, int32_t target, int64_t size,
                int kind) {
    static const char *const names[] = {"rma_get", "rma_put", "rma_fetch"};
    if (!traceable(s, r->owner, comm_id)) return;
    put(s, r->owner, "%s %d %lld comm=%d req=%d\n", names[kind % 3], target, (long long)size,
        comm_id, new_id(s, r));
}

static char *counts_text(const int64_t *v, int32_t n);

const char *const sim_rma_sync_names[7] = {"rma_lock",     "rma_unlock", "rma_grants", "rma_post",
                                           "rma_complete", "rma_start",  "rma_wait"};

void record_rma_sync(struct sim *s, int32_t rank, int32_t comm_id, int kind, int32_t peer,
                     bool exclusive, const int32_t *group, int n) {
    if (!traceable(s, rank, comm_id)) return;
    if (kind <= 1) {
        put(s, rank, "%s %d %s comm=%d\n", sim_rma_sync_names[kind], peer,
            exclusive ? "exclusive" : "shared", comm_id);
    } else if (kind <= 4) {
        if (peer >= 0)
            put(s, rank, "%s %d comm=%d\n", sim_rma_sync_names[kind], peer, comm_id);
        else
            put(s, rank, "%s comm=%d\n", sim_rma_sync_names[kind], comm_id);
    } else {
        int64_t *v = xmalloc(sizeof *v * (size_t)(n + 1));
        for (int i = 0; i < n; i++)
            v[i] = group[i];
        char *list = counts_text(v, n);
        put(s, rank, "%s comm=%d%s%s\n", sim_rma_sync_names[kind], comm_id, n ? " from=" : "",
            n ? list : "");
        free(list);
        free(v);
    }
}

void record_io(struct sim *s, struct request *r, int64_t bytes) {
    put(s, r->owner, "file_io %lld req=%d\n", (long long)bytes, new_id(s, r));
}

void record_round_trip(struct sim *s, int32_t rank, int32_t peer) {
    put(s, rank, "round_trip %d\n", peer);
}

/* "a,b,c" of n counts into a growing string. */
static char *counts_text(const int64_t *v, int32_t n) {
    char *out = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&out, &len);
    for (int32_t i = 0; i < n; i++)
        fprintf(m, "%s%lld", i ? "," : "", (long long)v[i]);
    fclose(m);
    return out;
}

void record_coll(struct sim *s, struct request *r, int32_t comm_id, enum coll_kind kind,
                 int64_t size, int32_t root, const struct sched_counts *v, bool nonblocking) {
    if (!traceable(s, r->owner, comm_id)) return;
    int32_t n = sim_comm_size(s, r->owner, comm_id);
    char *send = v && v->send ? counts_text(v->send, n) : NULL;
    char *recv = v && v->recv ? counts_text(v->recv, n) : NULL;
    char sz[24] = "";
    if (kind != COLL_BARRIER) snprintf(sz, sizeof sz, " %lld", (long long)size);
    /* a blocking call is recorded as one (its wait is not: the request has
     * no id), so that replay chooses its algorithm by the blocking rules */
    char req[24] = "";
    if (nonblocking) snprintf(req, sizeof req, " req=%d", new_id(s, r));
    put(s, r->owner, "%s%s%s%s root=%d comm=%d%s%s%s%s%s\n", nonblocking ? "i" : "",
        sim_coll_name(kind), v ? "v" : "", sz, root, comm_id, send ? " send=" : "",
        send ? send : "", recv ? " recv=" : "", recv ? recv : "", req);
    free(send);
    free(recv);
}

void record_wait(struct sim *s, int32_t rank, struct request **reqs, int n, bool any) {
    if (!reqs) {
        put(s, rank, "waitall\n");
        return;
    }
    char line[4096];
    size_t len = 0;
    int ids = 0;
    for (int i = 0; i < n; i++) {
        if (!reqs[i] || reqs[i]->rec_id < 0 || !(reqs[i]->flags & RF_USER)) continue;
        if (len + 16 >= sizeof line) {
            record_skip(s, "a wait on more requests than a record holds");
            return;
        }
        len += (size_t)snprintf(line + len, sizeof line - len, " %d", reqs[i]->rec_id);
        ids++;
    }
    if (ids == 0) return;
    put(s, rank, "%s%s\n", any ? "waitany" : ids == 1 ? "wait" : "waitall", line);
}

void record_test(struct sim *s, int32_t rank, const struct request *req) {
    if (req->rec_id >= 0) put(s, rank, "test %d\n", req->rec_id);
}

void record_cancel(struct sim *s, int32_t rank, const struct request *req) {
    put(s, rank, "cancel %d\n", req->rec_id);
}

void record_free(struct sim *s, int32_t rank, const struct request *req) {
    if (req->rec_id >= 0) put(s, rank, "free %d\n", req->rec_id);
}

void record_comm(struct sim *s, int32_t rank, int32_t parent, int32_t color, int32_t key,
                 int32_t new_id, bool dup) {
    if (!traceable(s, rank, parent)) return;
    if (dup)
        put(s, rank, "comm_dup %d new=%d\n", parent, new_id);
    else if (color == SIM_UNDEFINED)
        put(s, rank, "comm_split %d color=undefined key=%d new=%d\n", parent, key, new_id);
    else
        put(s, rank, "comm_split %d color=%d key=%d new=%d\n", parent, color, key, new_id);
}

void record_comm_self(struct sim *s, int32_t rank, int32_t id) {
    put(s, rank, "comm_self new=%d\n", id);
}

void record_buffer(struct sim *s, int32_t rank, int64_t size) {
    if (size < 0)
        put(s, rank, "buffer_detach\n");
    else
        put(s, rank, "buffer_attach %lld\n", (long long)size);
}

/* An interval's name as one trace field: whitespace, '#' and control
 * characters become '_'. */
void record_interval(struct sim *s, int32_t rank, const char *name) {
    struct rec_rank *r = &s->rec->ranks[rank];
    if (!name) { /* an end without a begin is ignored on-line: left out */
        if (r->depth > 0) put(s, rank, "interval_end\n");
        r->depth -= r->depth > 0;
        return;
    }
    r->depth++;
    char field[256];
    size_t i = 0;
    for (; name[i] && i + 1 < sizeof field; i++) {
        unsigned char c = (unsigned char)name[i];
        field[i] = c <= ' ' || c == '#' || c == 0x7f ? '_' : (char)c;
    }
    field[i] = 0;
    put(s, rank, "interval_begin %s\n", i ? field : "_");
}
