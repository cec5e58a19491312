/* SPDX-License-Identifier: BSD-3-Clause */
/* Dimemas traces (.dim, docs/interop.md): reading, by translating them into
 * simpi's native per-rank files in a temporary folder (one streaming pass,
 * a bounded buffer per rank), and writing. The format, as Dimemas reads it:
 *   #DIMEMAS:NAME:OFFSETS[,OFFSET]:TASKS(THREADS,...),COMMUNICATORS
 *   d:1:COMM:SIZE:TASK:...                 a communicator
 *   1:TASK:THREAD:SECONDS                  CPU burst
 *   2:TASK:THREAD:DEST:SIZE:TAG:COMM:SYNC  send (SYNC bit 1: synchronous,
 *                                          bit 2: immediate)
 *   3:TASK:THREAD:SRC:SIZE:TAG:COMM:TYPE   receive (TYPE 0 recv, 1 irecv,
 *                                          2 wait for an irecv)
 *   10:TASK:THREAD:OP:COMM:ROOT:ROOT_THREAD:BYTES_SENT:BYTES_RECEIVED[:SYNC]
 *                                          global operation: OP 0-15 (barrier ...
 *                                          alltoallw), 16-31 their immediate
 *                                          forms; ROOT is 1 at the root and 0
 *                                          elsewhere (reduce: the root's task,
 *                                          as prv2dim writes it); SYNC 1
 *                                          blocking (the 9-field form), 0 a
 *                                          non-blocking start, 2 its wait
 *   11:TASK:THREAD:SECONDS                 GPU burst (simpi: computation)
 *   20:TASK:THREAD:TYPE:VALUE              event (block begin, VALUE 0: end)
 *   0:TASK:THREAD                          no operation
 *   s:TASK:OFFSET...                       offsets (the end of the records)
 * Sends and receives may also name the peer's thread after the peer. Tasks
 * and threads count from 0; simpi reads one thread per task and
 * communicators holding every task in order (MPI_COMM_WORLD). */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/rankfile.h"
#include "replay/trace_internal.h"
#include "replay/trace_write.h"

#define DIM_MAX_FIELDS 16
#define DIM_INTERVAL_EVENT 60000001

/* Dimemas' global operation ids and simpi's collectives. */
static const struct {
    int id;
    uint8_t kind;
    const char *name;
} glops[] = {{0, COLL_BARRIER, "barrier"},
             {1, COLL_BCAST, "bcast"},
             {2, COLL_GATHER, "gather"},
             {3, COLL_GATHER, "gatherv"},
             {4, COLL_SCATTER, "scatter"},
             {5, COLL_SCATTER, "scatterv"},
             {6, COLL_ALLGATHER, "allgather"},
             {7, COLL_ALLGATHER, "allgatherv"},
             {8, COLL_ALLTOALL, "alltoall"},
             {9, COLL_ALLTOALL, "alltoallv"},
             {10, COLL_REDUCE, "reduce"},
             {11, COLL_ALLREDUCE, "allreduce"},
             {12, COLL_REDUCE_SCATTER, "reduce_scatter"},
             {13, COLL_REDUCE_SCATTER, "reduce_scatter_block"},
             {14, COLL_SCAN, "scan"},
             {15, COLL_ALLTOALL, "alltoallw"}};
#define DIM_GLOPS 16       /* ids 16-31: the immediate forms of 0-15 */
#define DIM_GLOP_REDUCE 10 /* its ROOT field is the root's task */
#define DIM_GLOP_ASYNC 0   /* SYNC: a non-blocking start */
#define DIM_GLOP_SYNC 1    /* blocking */
#define DIM_GLOP_WAIT 2    /* the wait of a non-blocking one */

/* Event types read as intervals: simpi's own, and Extrae's user functions
 * (begin: the function's id, end: 0). Other events (MPI call blocks,
 * counters) have no simulated effect. */
#define DIM_USER_FUNCTION_EVENT 60000019

/* --- reading: translation into native per-rank files --- */

struct dim_rank {
    char *buf;
    size_t len;
    int32_t next_req;
    bool started;
    /* outstanding irecvs, oldest first: (source, tag) -> request id */
    struct pending_recv {
        int32_t src, tag, id;
    } * recvs;
    int nrecvs, cap;
    /* non-blocking global operations started, oldest first */
    struct pending_glop {
        int32_t op, id;
    } * glops;
    int nglops, gcap;
    int64_t rooted; /* global operations with a root seen so far */
};

struct dim_reader {
    const char *path;
    char *dir;
    int line;
    int32_t ntasks;
    int32_t *world_ids; /* communicator ids that are MPI_COMM_WORLD */
    int nworld;
    struct dim_rank *ranks;
    size_t cap;
    struct sim_error *err;
    /* the first pass finds the root of each rooted global operation (the
     * k-th one of every task): prv2dim marks it at the root only */
    bool finding_roots;
    int32_t *roots;
    int64_t nroots;
};

__attribute__((format(printf, 2, 3))) static bool dfail(struct dim_reader *d, const char *fmt,
                                                        ...) {
    va_list ap;
    va_start(ap, fmt);
    err_vat(d->err, d->path, d->line, fmt, ap);
    va_end(ap);
    return false;
}

static bool flush_dim_rank(struct dim_reader *d, int32_t r) {
    struct dim_rank *k = &d->ranks[r];
    bool ok = rankfile_append(d->dir, r, d->ntasks, &k->started, k->buf ? k->buf : "", k->len);
    k->len = 0;
    return ok || err_set(d->err, "%s: cannot write the translated trace in %s: %s", d->path, d->dir,
                         strerror(errno));
}

__attribute__((format(printf, 3, 4))) static bool emit(struct dim_reader *d, int32_t r,
                                                       const char *fmt, ...) {
    struct dim_rank *k = &d->ranks[r];
    if (!k->buf) k->buf = xcalloc(d->cap, 1);
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (k->len + (size_t)n + 24 > d->cap && !flush_dim_rank(d, r)) return false;
    k->len += (size_t)snprintf(k->buf + k->len, d->cap - k->len, "%d %s\n", r, line);
    return true;
}

/* Splits "a:b:c" in place; returns the number of fields. */
static int split_colons(char *l, char **f, int max) {
    int n = 0;
    l[strcspn(l, "\r\n")] = 0;
    for (char *p = l; n < max;) { /* the last field keeps the rest of the line */
        f[n++] = p;
        char *c = n < max ? strchr(p, ':') : NULL;
        if (!c) break;
        *c = 0;
        p = c + 1;
    }
    return n;
}

static bool int_field(struct dim_reader *d, const char *s, const char *what, long lo, long hi,
                      long *out) {
    char *end;
    errno = 0;
    *out = 0; /* set either way: compilers that inline the callers see it */
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno || v < lo || v > hi)
        return dfail(d, "field '%s': found '%s', expected an integer from %ld to %ld", what, s, lo,
                     hi);
    *out = v;
    return true;
}

static bool comm_field(struct dim_reader *d, const char *s) {
    long c = 0;
    if (!int_field(d, s, "communicator", 0, INT32_MAX, &c)) return false;
    for (int i = 0; i < d->nworld; i++)
        if (d->world_ids[i] == c) return true;
    return dfail(d,
                 "communicator %ld is not defined as one holding every task (simpi reads "
                 "MPI_COMM_WORLD only in Dimemas traces)",
                 c);
}

static void peer_text(long v, char *out, size_t n) {
    if (v < 0)
        snprintf(out, n, "any");
    else
        snprintf(out, n, "%ld", v);
}

/* send / receive: "PEER[:PEER_THREAD]:SIZE:TAG:COMM:LAST" after the thread. */
static bool p2p_fields(struct dim_reader *d, char **f, int n, long *peer, long *size, long *tag,
                       long *last) {
    if (n != 8 && n != 9) return dfail(d, "a message record has %d fields, expected 8 or 9", n);
    int o = n == 9 ? 1 : 0; /* the peer's thread */
    return int_field(d, f[3], "peer", -1, d->ntasks - 1, peer) &&
           int_field(d, f[4 + o], "size", 0, INT64_MAX / 2, size) &&
           int_field(d, f[5 + o], "tag", -1, INT32_MAX, tag) && comm_field(d, f[6 + o]) &&
           int_field(d, f[7 + o], "synchronism or receive type", 0, 3, last);
}

static bool dim_send(struct dim_reader *d, int32_t r, char **f, int n) {
    long peer = 0, size = 0, tag = 0, sync = 0;
    if (!p2p_fields(d, f, n, &peer, &size, &tag, &sync)) return false;
    if (peer < 0) return dfail(d, "a send to task %ld", peer);
    const char *op = sync & 2 ? (sync & 1 ? "issend" : "isend") : (sync & 1 ? "ssend" : "send");
    if (sync & 2) { /* Dimemas never waits for an immediate send: freed at once */
        int32_t id = d->ranks[r].next_req++;
        return emit(d, r, "%s %ld %ld tag=%ld req=%d", op, peer, size, tag < 0 ? 0 : tag, id) &&
               emit(d, r, "free %d", id);
    }
    return emit(d, r, "%s %ld %ld tag=%ld", op, peer, size, tag < 0 ? 0 : tag);
}

static bool dim_recv(struct dim_reader *d, int32_t r, char **f, int n) {
    long peer = 0, size = 0, tag = 0, type = 0;
    if (!p2p_fields(d, f, n, &peer, &size, &tag, &type)) return false;
    char src[16], tg[24];
    peer_text(peer, src, sizeof src);
    if (tag < 0)
        snprintf(tg, sizeof tg, "any");
    else
        snprintf(tg, sizeof tg, "%ld", tag);
    struct dim_rank *k = &d->ranks[r];
    if (type == 0) return emit(d, r, "recv %s %ld tag=%s", src, size, tg);
    if (type == 1) {
        if (k->nrecvs == k->cap) {
            k->cap = k->cap ? 2 * k->cap : 16;
            k->recvs = xrealloc_or_die(k->recvs, sizeof *k->recvs * (size_t)k->cap);
        }
        k->recvs[k->nrecvs++] = (struct pending_recv){(int32_t)peer, (int32_t)tag, k->next_req};
        return emit(d, r, "irecv %s %ld tag=%s req=%d", src, size, tg, k->next_req++);
    }
    for (int i = 0; i < k->nrecvs; i++) { /* type 2: wait for the oldest such irecv */
        if (k->recvs[i].src != peer || k->recvs[i].tag != tag) continue;
        int32_t id = k->recvs[i].id;
        memmove(&k->recvs[i], &k->recvs[i + 1], sizeof *k->recvs * (size_t)(k->nrecvs - i - 1));
        k->nrecvs--;
        return emit(d, r, "wait %d", id);
    }
    return dfail(d,
                 "a wait (receive type 2) for source %s tag %s with no such immediate receive "
                 "before it",
                 src, tg);
}

/* A global operation's block from its bytes sent and received. */
static long glop_size(int kind, long sent, long recvd, int32_t ntasks) {
    switch (kind) {
    case COLL_BARRIER:
        return 0;
    case COLL_BCAST:
        return sent > recvd ? sent : recvd;
    case COLL_SCATTER:
    case COLL_REDUCE_SCATTER:
        return recvd;
    case COLL_ALLTOALL:
        return sent / (ntasks > 0 ? ntasks : 1);
    default:
        return sent;
    }
}

static bool rooted(int kind) {
    return kind == COLL_BCAST || kind == COLL_GATHER || kind == COLL_SCATTER || kind == COLL_REDUCE;
}

/* The root of task r's next rooted operation: set by the first pass (the
 * task that marked itself), or recorded there from a reduce's field. */
static void note_root(struct dim_reader *d, int32_t r, long root_field, int op, bool mark) {
    int64_t k = d->ranks[r].rooted++;
    if (!d->finding_roots) return;
    if (k >= d->nroots) {
        int64_t cap = d->nroots ? 2 * d->nroots : 64;
        while (cap <= k)
            cap *= 2;
        d->roots = xrealloc_or_die(d->roots, sizeof *d->roots * (size_t)cap);
        for (int64_t i = d->nroots; i < cap; i++)
            d->roots[i] = -1;
        d->nroots = cap;
    }
    if (op == DIM_GLOP_REDUCE && root_field >= 0)
        d->roots[k] = (int32_t)root_field;
    else if (mark && d->roots[k] < 0)
        d->roots[k] = r;
}

static int32_t root_of(const struct dim_reader *d, int32_t r) {
    int64_t k = d->ranks[r].rooted - 1;
    return k >= 0 && k < d->nroots && d->roots[k] >= 0 ? d->roots[k] : 0;
}

/* A wait for task r's oldest non-blocking global operation of this id. */
static bool glop_wait(struct dim_reader *d, int32_t r, long op) {
    struct dim_rank *k = &d->ranks[r];
    for (int i = 0; i < k->nglops; i++) {
        if (k->glops[i].op != op) continue;
        int32_t id = k->glops[i].id;
        memmove(&k->glops[i], &k->glops[i + 1], sizeof *k->glops * (size_t)(k->nglops - i - 1));
        k->nglops--;
        return emit(d, r, "wait %d", id);
    }
    return dfail(d, "the wait of global operation %ld with no such operation started before it",
                 op);
}

static bool glop_fields(struct dim_reader *d, char **f, int n, long *id, long *root, long *sent,
                        long *recvd, long *sync) {
    long root_th = 0;
    if (n != 9 && n != 10)
        return dfail(d, "a global operation has %d fields, expected 9 or 10 (with SYNC)", n);
    *sync = DIM_GLOP_SYNC;
    return int_field(d, f[3], "global operation", 0, 2 * DIM_GLOPS - 1, id) &&
           comm_field(d, f[4]) &&
           int_field(d, f[5], "root", -1, d->ntasks > 2 ? d->ntasks - 1 : 1, root) &&
           int_field(d, f[6], "root thread", -1, 0, &root_th) &&
           int_field(d, f[7], "bytes sent", 0, INT64_MAX / 2, sent) &&
           int_field(d, f[8], "bytes received", 0, INT64_MAX / 2, recvd) &&
           (n == 9 || int_field(d, f[9], "synchronism (0 start, 1 blocking, 2 wait)", 0, 2, sync));
}

static bool dim_glop(struct dim_reader *d, int32_t r, char **f, int n) {
    long id = 0, root = 0, sent = 0, recvd = 0, sync = 0;
    if (!glop_fields(d, f, n, &id, &root, &sent, &recvd, &sync)) return false;
    long op = id % DIM_GLOPS; /* the immediate forms share their blocking form's model */
    int kind = glops[op].kind;
    if (sync == DIM_GLOP_WAIT) return d->finding_roots || glop_wait(d, r, id);
    if (rooted(kind)) note_root(d, r, root, (int)op, root == 1);
    if (d->finding_roots) return true;
    const char *name = sim_coll_name((enum coll_kind)kind);
    long size = glop_size(kind, sent, recvd, d->ntasks);
    char args[64] = "";
    if (kind != COLL_BARRIER)
        snprintf(args, sizeof args, " %ld root=%d", size, rooted(kind) ? root_of(d, r) : 0);
    if (sync == DIM_GLOP_SYNC) return emit(d, r, "%s%s", name, args);
    struct dim_rank *k = &d->ranks[r];
    if (k->nglops == k->gcap) {
        k->gcap = k->gcap ? 2 * k->gcap : 8;
        k->glops = xrealloc_or_die(k->glops, sizeof *k->glops * (size_t)k->gcap);
    }
    k->glops[k->nglops++] = (struct pending_glop){(int32_t)id, k->next_req};
    return emit(d, r, "i%s%s req=%d", name, args, k->next_req++);
}

static bool dim_event(struct dim_reader *d, int32_t r, char **f, int n) {
    long type = 0, value = 0;
    if (n != 5) return dfail(d, "an event has %d fields, expected 5", n);
    if (!int_field(d, f[3], "event type", 0, INT64_MAX / 2, &type) ||
        !int_field(d, f[4], "event value", 0, INT64_MAX / 2, &value))
        return false;
    if (d->finding_roots) return true;
    if (type != DIM_INTERVAL_EVENT && type != DIM_USER_FUNCTION_EVENT)
        return true; /* no simulated effect */
    if (value == 0) return emit(d, r, "interval_end");
    if (type == DIM_USER_FUNCTION_EVENT) return emit(d, r, "interval_begin function_%ld", value);
    return emit(d, r, "interval_begin interval_%ld", value);
}

/* A CPU (1) or GPU (11) burst: computation of that many seconds. */
static bool dim_burst(struct dim_reader *d, int32_t r, char **f, int n) {
    char *end;
    double s = n == 4 ? strtod(f[3], &end) : -1;
    if (n != 4 || end == f[3] || *end || !(s >= 0) || s > 9e6)
        return dfail(d, "field 'burst duration': found '%s', expected seconds", n > 3 ? f[3] : "");
    return d->finding_roots || emit(d, r, "compute %.0fps", s * 1e12);
}

/* One record line (not a definition). */
static bool dim_record(struct dim_reader *d, char *l) {
    char *f[DIM_MAX_FIELDS];
    int n = split_colons(l, f, DIM_MAX_FIELDS);
    long op = 0, task = 0, thread = 0;
    if (n < 3 || !int_field(d, f[0], "operation", 0, 20, &op) ||
        !int_field(d, f[1], "task", 0, d->ntasks - 1, &task) ||
        !int_field(d, f[2], "thread", 0, 0, &thread))
        return false;
    int32_t r = (int32_t)task;
    switch (op) {
    case 0:
        return true;
    case 1:
    case 11:
        return dim_burst(d, r, f, n);
    case 2:
        return d->finding_roots || dim_send(d, r, f, n);
    case 3:
        return d->finding_roots || dim_recv(d, r, f, n);
    case 10:
        return dim_glop(d, r, f, n);
    case 20:
        return dim_event(d, r, f, n);
    default:
        return dfail(d, "unknown record type %ld (expected 0, 1, 2, 3, 10, 11 or 20)", op);
    }
}

/* "d:1:COMM:SIZE:TASK:..." — a communicator of every task, in order. */
static bool dim_definition(struct dim_reader *d, char *l) {
    char *f[4];
    int n = split_colons(l, f, 4);
    long type = 0, id = 0, size = 0;
    if (n < 4 || !int_field(d, f[1], "definition type", 1, 3, &type)) return false;
    if (type != 1) return true; /* files and windows: no simulated effect */
    char *rest = f[3];
    char *colon = strchr(rest, ':');
    if (colon) *colon = 0;
    if (!int_field(d, f[2], "communicator", 0, INT32_MAX, &id) ||
        !int_field(d, rest, "communicator size", 1, INT32_MAX, &size))
        return false;
    long k = 0;
    for (char *p = colon ? colon + 1 : NULL; p && *p; k++) {
        char *end;
        long task = strtol(p, &end, 10);
        if (end == p || task != k)
            return dfail(d,
                         "communicator %ld is not every task in order (simpi reads "
                         "MPI_COMM_WORLD only in Dimemas traces)",
                         id);
        p = *end == ':' ? end + 1 : end;
    }
    if (k != size || size != d->ntasks)
        return dfail(d,
                     "communicator %ld holds %ld of the %d tasks (simpi reads MPI_COMM_WORLD "
                     "only in Dimemas traces)",
                     id, size, d->ntasks);
    d->world_ids = xrealloc_or_die(d->world_ids, sizeof *d->world_ids * (size_t)(d->nworld + 1));
    d->world_ids[d->nworld++] = (int32_t)id;
    return true;
}

/* "#DIMEMAS:NAME:OFFSETS:TASKS(THREADS,...),COMMS": the task count. */
static bool dim_header(struct dim_reader *d, const char *l) {
    const char *open = strrchr(l, '(');
    const char *p = open;
    while (p && p > l && p[-1] >= '0' && p[-1] <= '9')
        p--;
    char *end;
    long tasks = p ? strtol(p, &end, 10) : -1;
    if (!open || p == open || tasks < 1 || tasks > INT32_MAX || end != open)
        return dfail(d, "the header: expected '#DIMEMAS:NAME:OFFSETS:TASKS(THREADS,...),COMMS'");
    long listed = 1;
    for (const char *q = open + 1; *q && *q != ')'; q++) {
        listed += *q == ',';
        if (*q == ',' ? q[1] != '1' : (*q != '1' || (q[1] != ',' && q[1] != ')')))
            return dfail(d,
                         "tasks with several threads are not supported (the header lists "
                         "'%.40s')",
                         open);
    }
    if (listed != tasks)
        return dfail(d, "the header gives %ld tasks but lists the threads of %ld", tasks, listed);
    d->ntasks = (int32_t)tasks;
    return true;
}

/* A header line lists every task's threads: about 5 bytes a task, so at a
 * million tasks several MiB. */
#define DIM_MAX_LINE (64 << 20)

/* Drops the spaces and tabs that end a line (before its newline, if any):
 * an editor's leftovers, invisible and meaningless. */
static void trim_trailing_blanks(char *line, size_t len) {
    bool newline = len > 0 && line[len - 1] == '\n';
    size_t end = len - newline;
    while (end > 0 && (line[end - 1] == ' ' || line[end - 1] == '\t'))
        end--;
    if (newline) line[end++] = '\n';
    line[end] = '\0';
}

/* Reads one whole line into *line, growing it (up to DIM_MAX_LINE: then
 * *too_long), without its trailing blanks. False at the end of the file. */
static bool read_line(gzFile f, char **line, size_t *cap, bool *too_long) {
    size_t len = 0;
    (*line)[0] = 0;
    while (gzgets(f, *line + len, (int)(*cap - len))) {
        len += strlen(*line + len);
        bool whole = (len > 0 && (*line)[len - 1] == '\n') || len + 1 < *cap;
        if (whole) { /* (or the last line, without a newline) */
            trim_trailing_blanks(*line, len);
            return true;
        }
        if (*cap >= DIM_MAX_LINE) {
            *too_long = true;
            return true;
        }
        *line = xrealloc_or_die(*line, *cap *= 2);
    }
    return len > 0;
}

/* One pass over the file: finding the roots, then translating. */
static bool dim_pass(struct dim_reader *d) {
    gzFile f = gzopen(d->path, "rb");
    if (!f) return err_set(d->err, "%s: cannot open trace: %s", d->path, strerror(errno));
    size_t cap = 1 << 16;
    char *line = xcalloc(cap, 1);
    bool ok = true, records = false, too_long = false;
    d->line = 0;
    d->nworld = 0;
    while (ok && read_line(f, &line, &cap, &too_long)) {
        d->line++;
        if (too_long) {
            ok = dfail(d, "a line longer than %zu bytes", (size_t)DIM_MAX_LINE);
            break;
        }
        if (d->line == 1) {
            ok = dim_header(d, line);
            if (ok && !d->ranks) {
                d->ranks = xcalloc((size_t)d->ntasks, sizeof *d->ranks);
                d->cap = ((size_t)64 << 20) / (size_t)d->ntasks;
                d->cap = d->cap < 4096 ? 4096 : d->cap > 65536 ? 65536 : d->cap;
            }
            continue;
        }
        if (line[0] == '\n' || line[0] == '#') continue;
        if (line[0] == 's' && line[1] == ':') break; /* offsets: the records have ended */
        if (line[0] == 'd' && line[1] == ':') {
            ok =
                records ? dfail(d, "a definition after the first record") : dim_definition(d, line);
            continue;
        }
        if (d->nworld == 0) {
            d->world_ids = xrealloc_or_die(d->world_ids, sizeof *d->world_ids);
            d->world_ids[0] = 0;
            d->nworld = 1;
        }
        records = true;
        ok = dim_record(d, line);
    }
    gzclose(f);
    free(line);
    for (int32_t r = 0; d->ranks && r < d->ntasks; r++)
        d->ranks[r].rooted = 0;
    return ok;
}

bool dim_is_dimemas(const char *path) {
    gzFile f = gzopen(path, "rb");
    char head[16] = "";
    bool dim = f && gzgets(f, head, sizeof head) && !strncmp(head, "#DIMEMAS", 8);
    if (f) gzclose(f);
    return dim;
}

bool dim_translate(const char *path, const char *dir, int32_t *nranks, struct sim_error *err) {
    struct dim_reader d = {.path = path, .err = err, .finding_roots = true};
    d.dir = xstrdup(dir);
    bool ok = dim_pass(&d);
    d.finding_roots = false;
    ok = ok && dim_pass(&d);
    for (int32_t r = 0; ok && r < d.ntasks; r++)
        ok = flush_dim_rank(&d, r);
    for (int32_t r = 0; ok && r < d.ntasks; r++)
        if (d.ranks[r].nglops)
            ok = err_set(err, "%s: task %d starts global operation %d and never waits for it", path,
                         r, d.ranks[r].glops[0].op);
    for (int32_t r = 0; d.ranks && r < d.ntasks; r++) {
        free(d.ranks[r].buf);
        free(d.ranks[r].recvs);
        free(d.ranks[r].glops);
    }
    if (ok && d.ntasks == 0) ok = err_at(err, path, 1, "empty Dimemas trace");
    *nranks = d.ntasks;
    free(d.ranks);
    free(d.world_ids);
    free(d.roots);
    free(d.dir);
    return ok;
}

/* --- writing --- */

/* A request of the rank being written: what its wait becomes. */
struct dim_req {
    int32_t id, peer, tag;
    int64_t size;
    bool recv;
    int32_t glop; /* a non-blocking global operation's id (16-31), else -1 */
    int32_t root_field;
    int64_t sent, recvd;
};

struct dim_writer {
    FILE *out;
    struct trace_reader *t;
    int32_t rank;
    struct dim_req *reqs;
    int nreqs, cap;
    struct sim_error *err;
};

static void track(struct dim_writer *w, int32_t id, int32_t peer, int32_t tag, int64_t size,
                  bool recv) {
    if (w->nreqs == w->cap) {
        w->cap = w->cap ? 2 * w->cap : 16;
        w->reqs = xrealloc_or_die(w->reqs, sizeof *w->reqs * (size_t)w->cap);
    }
    w->reqs[w->nreqs++] = (struct dim_req){id, peer, tag, size, recv, -1, 0, 0, 0};
}

/* Drops tracked request i. */
static void forget(struct dim_writer *w, int i) {
    memmove(&w->reqs[i], &w->reqs[i + 1], sizeof *w->reqs * (size_t)(w->nreqs - i - 1));
    w->nreqs--;
}

/* Completes request i: a receive's wait record (a send has none). */
static void complete(struct dim_writer *w, int i) {
    struct dim_req q = w->reqs[i];
    forget(w, i);
    if (q.glop >= 0)
        fprintf(w->out, "10:%d:0:%d:0:%d:0:%lld:%lld:%d\n", w->rank, q.glop, q.root_field,
                (long long)q.sent, (long long)q.recvd, DIM_GLOP_WAIT);
    else if (q.recv)
        fprintf(w->out, "3:%d:0:%d:%lld:%d:0:2\n", w->rank, q.peer, (long long)q.size, q.tag);
}

static int find_req(const struct dim_writer *w, int32_t id) {
    for (int i = 0; i < w->nreqs; i++)
        if (w->reqs[i].id == id) return i;
    return -1;
}

/* MPI_Request_free: Dimemas has none; an immediate send needs no wait
 * there, so the request is forgotten without a record. */
static bool write_free(struct dim_writer *w, const struct trace_rec *r) {
    int i = find_req(w, r->ids[0]);
    if (i >= 0) forget(w, i);
    return true;
}

static bool write_wait(struct dim_writer *w, const struct trace_rec *r) {
    if (r->op == TOP_WAIT_PEER || r->op == TOP_TEST_PEER) { /* SimGrid's: by peer and tag */
        for (int i = 0; i < w->nreqs; i++)
            if (w->reqs[i].recv == (r->mode == 0) && w->reqs[i].peer == r->peer &&
                w->reqs[i].tag == r->tag) {
                complete(w, i);
                return true;
            }
        return true;
    }
    if (r->nids == 0) { /* waitall: every outstanding request */
        while (w->nreqs)
            complete(w, 0);
        return true;
    }
    if (r->op == TOP_WAITANY)
        return trace_rec_fail(w->t, r, w->err, "waitany has no Dimemas equivalent");
    for (int k = 0; k < r->nids; k++) {
        int i = find_req(w, r->ids[k]);
        if (i < 0)
            return trace_rec_fail(w->t, r, w->err, "waits for request %d, never started",
                                  r->ids[k]);
        complete(w, i);
    }
    return true;
}

static int glop_of(uint8_t kind, bool v) {
    if (kind == COLL_REDUCE_SCATTER) return 12;
    for (size_t i = 0; i < sizeof glops / sizeof *glops; i++)
        if (glops[i].kind == kind && (strchr(glops[i].name, 'v') != NULL) == v) return glops[i].id;
    return -1;
}

static bool write_coll(struct dim_writer *w, const struct trace_rec *r) {
    int id = glop_of(r->coll, r->counts != NULL || (r->mode & 4));
    if (id < 0)
        return trace_rec_fail(w->t, r, w->err, "%s has no Dimemas equivalent",
                              sim_coll_name(r->coll));
    int64_t n = trace_ranks(w->t), s = r->size, sent = s, recvd = s;
    switch (r->coll) { /* bytes sent and received, as Dimemas counts them */
    case COLL_BARRIER:
        sent = recvd = 0;
        break;
    case COLL_BCAST:
        sent = w->rank == r->root ? s : 0;
        recvd = w->rank == r->root ? 0 : s;
        break;
    case COLL_GATHER:
        recvd = w->rank == r->root ? n * s : 0;
        break;
    case COLL_SCATTER:
        sent = w->rank == r->root ? n * s : 0;
        break;
    case COLL_ALLGATHER:
        recvd = n * s;
        break;
    case COLL_ALLTOALL:
        sent = recvd = n * s;
        break;
    case COLL_REDUCE_SCATTER:
        sent = n * s;
        break;
    default:
        break;
    }
    /* ROOT: 1 at the root, 0 elsewhere; a reduce's: the root's task (as
     * prv2dim writes them) */
    int root_field = id == DIM_GLOP_REDUCE ? r->root : rooted(r->coll) && w->rank == r->root;
    if (r->op == TOP_ICOLL) { /* started here, its wait record at its wait */
        track(w, r->req, -1, 0, 0, false);
        struct dim_req *q = &w->reqs[w->nreqs - 1];
        q->glop = id + DIM_GLOPS;
        q->root_field = root_field;
        q->sent = sent;
        q->recvd = recvd;
    }
    fprintf(w->out, "10:%d:0:%d:0:%d:0:%lld:%lld:%d\n", w->rank,
            r->op == TOP_ICOLL ? id + DIM_GLOPS : id, root_field, (long long)sent, (long long)recvd,
            r->op == TOP_ICOLL ? DIM_GLOP_ASYNC : DIM_GLOP_SYNC);
    return true;
}

static bool write_p2p(struct dim_writer *w, const struct trace_rec *r) {
    int32_t me = w->rank;
    int sync = r->mode == SEND_SYNC ? 1 : 0;
    switch (r->op) {
    case TOP_SEND:
        fprintf(w->out, "2:%d:0:%d:%lld:%d:0:%d\n", me, r->peer, (long long)r->size, r->tag, sync);
        return true;
    case TOP_ISEND:
        fprintf(w->out, "2:%d:0:%d:%lld:%d:0:%d\n", me, r->peer, (long long)r->size, r->tag,
                sync | 2);
        track(w, r->req, r->peer, r->tag, r->size, false);
        return true;
    case TOP_RECV:
    case TOP_IRECV:
        fprintf(w->out, "3:%d:0:%d:%lld:%d:0:%d\n", me, r->peer,
                (long long)(r->size < 0 ? 0 : r->size), r->tag, r->op == TOP_IRECV);
        if (r->op == TOP_IRECV) track(w, r->req, r->peer, r->tag, r->size < 0 ? 0 : r->size, true);
        return true;
    default: /* sendrecv: an immediate send and a receive */
        fprintf(w->out, "2:%d:0:%d:%lld:%d:0:2\n3:%d:0:%d:%lld:%d:0:0\n", me, r->peer,
                (long long)r->size, r->tag, me, r->peer2, (long long)r->size2, r->tag2);
        return true;
    }
}

static bool write_record(struct dim_writer *w, const struct trace_rec *r) {
    if (r->comm != 0 && r->op != TOP_COMPUTE && r->op != TOP_COMPUTE_FLOPS &&
        r->op < TOP_COMM_SPLIT)
        return trace_rec_fail(w->t, r, w->err,
                              "communicator %d: only MPI_COMM_WORLD converts to Dimemas", r->comm);
    switch (r->op) {
    case TOP_COMPUTE:
        fprintf(w->out, "1:%d:0:%.12f\n", w->rank, simtime_to_seconds(r->size));
        return true;
    case TOP_COMPUTE_FLOPS:
        return trace_rec_fail(w->t, r, w->err,
                              "a computation in flops has no Dimemas equivalent (give durations)");
    case TOP_SEND:
    case TOP_ISEND:
    case TOP_RECV:
    case TOP_IRECV:
    case TOP_SENDRECV:
        return write_p2p(w, r);
    case TOP_FREE:
        return write_free(w, r);
    case TOP_WAIT:
    case TOP_WAITALL:
    case TOP_WAITANY:
    case TOP_TEST:
    case TOP_WAIT_PEER:
    case TOP_TEST_PEER:
        return write_wait(w, r);
    case TOP_COLL:
    case TOP_ICOLL:
        return write_coll(w, r);
    case TOP_INTERVAL_BEGIN:
        fprintf(w->out, "20:%d:0:%d:%d\n", w->rank, DIM_INTERVAL_EVENT, r->req + 1);
        return true;
    case TOP_INTERVAL_END:
        fprintf(w->out, "20:%d:0:%d:0\n", w->rank, DIM_INTERVAL_EVENT);
        return true;
    case TOP_COMM_SELF:
    case TOP_BUFFER_ATTACH:
    case TOP_BUFFER_DETACH:
        return true; /* no effect on the timing Dimemas simulates */
    default:
        return trace_rec_fail(
            w->t, r, w->err,
            "this record (communicator creation, cancel, file I/O, one-sided) has no "
            "Dimemas equivalent");
    }
}

/* The offsets as prv2dim writes them: "1,OFFSET" in the header (written
 * zero-padded first, filled in at the end), and an "s:TASK:OFFSET" line per
 * task after the records, where each task's records start. Dimemas 5.x
 * needs them (it stops on a trace whose header says 0). An output that
 * cannot seek (a pipe) gets the header's 0 and no offsets. */
#define DIM_OFFSET_DIGITS 15

bool dim_write(struct trace_reader *t, FILE *out, const char *name, struct sim_error *err) {
    int32_t n = trace_ranks(t);
    fprintf(out, "#DIMEMAS:\"%s\":", name);
    off_t hint = ftello(out);
    if (hint >= 0)
        fprintf(out, "1,%0*d", DIM_OFFSET_DIGITS, 0);
    else
        fputc('0', out);
    fprintf(out, ":%d(", n);
    for (int32_t r = 0; r < n; r++)
        fprintf(out, r ? ",1" : "1");
    fprintf(out, "),1\nd:1:0:%d", n);
    for (int32_t r = 0; r < n; r++)
        fprintf(out, ":%d", r);
    fputc('\n', out);
    struct dim_writer w = {.out = out, .t = t, .err = err};
    off_t *starts = xcalloc((size_t)n + 1, sizeof *starts);
    bool ok = true;
    for (w.rank = 0; ok && w.rank < n; w.rank++) {
        w.nreqs = 0;
        starts[w.rank] = ftello(out);
        struct trace_rec *r;
        while (ok && (r = trace_next(t, w.rank, err))) {
            ok = write_record(&w, r);
            trace_release(t, r);
        }
        ok = ok && !err->set;
    }
    off_t offsets = ftello(out);
    if (ok && hint >= 0 && offsets >= 0) {
        for (int32_t r = 0; r < n; r++)
            fprintf(out, "s:%d:%lld\n", r, (long long)starts[r]);
        if (fseeko(out, hint, SEEK_SET) != 0 ||
            fprintf(out, "1,%0*lld", DIM_OFFSET_DIGITS, (long long)offsets) < 0 ||
            fseeko(out, 0, SEEK_END) != 0)
            ok = err_set(err, "%s: cannot write the offsets into the header", name);
    }
    free(starts);
    free(w.reqs);
    return ok;
}
