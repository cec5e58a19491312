/* SPDX-License-Identifier: BSD-3-Clause */
/* OTF2 archives read as simpi trace records, through OTF2's reader
 * library (docs/interop.md, "OTF2").
 *
 * The definitions give the ranks (the MPI COMM_LOCATIONS group: member i
 * is the location of world rank i), the communicators (COMM_GROUP groups
 * of ranks) and the regions (those of paradigm MPI are MPI calls). Each
 * rank's location is then read on its own, one event at a time, when the
 * replay needs its next record: the time outside MPI calls becomes compute
 * records; each call's records (MpiSend, MpiIrecv, MpiCollectiveEnd...)
 * become the call's records at its Leave. A non-blocking receive or
 * collective learns its peer and size at completion only: its record waits
 * in the rank's queue, with the records after it, until then. Derived
 * communicators are made at the start from their definitions: one split of
 * the world for each run of disjoint communicators. */
#include "replay/trace_otf2.h"

#include <fcntl.h>
#include <otf2/otf2.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/simtime.h"

#define NO_REF UINT32_MAX
#define OP_DROPPED 255 /* a record taken back (a receive cancelled unmatched) */
#define MAX_DEFS (1u << 24)
#define OTF2_ATTACH_SIZE ((int64_t)1 << 40) /* MPI_Buffer_attach: its size is not recorded */

struct odef_group {
    uint8_t type, paradigm;
    uint32_t n;
    uint64_t *members;
};

struct odef_comm {
    uint32_t group, parent;
    bool defined, inter;
    int32_t id;    /* simpi's communicator id; -1: not an MPI communicator */
    int32_t batch; /* the world split that makes it; -1: world or self */
    int32_t color;
};

/* What a region is to the replay. */
/* CALL_USER: a region the user marked (paradigm USER: Score-P's user regions), an interval */
enum call_kind { CALL_NONE, CALL_MPI, CALL_FREE, CALL_ATTACH, CALL_DETACH, CALL_USER };

struct odef_region {
    uint8_t kind, send_mode;
    int32_t interval; /* CALL_USER: the interval's name id */
};

/* A request in flight: OTF2's id, simpi's, and the sequence number of its
 * record while it waits for its completion (-1 otherwise). */
struct oreq {
    uint64_t otf2_id;
    int64_t seq;
    int32_t id;
    bool send;
};

/* The events of the MPI call in progress. */
struct ocall {
    OTF2_RegionRef region;
    struct trace_rec send, recv, coll;
    bool has_send, has_recv, has_coll;
    bool sync_after;   /* a one-sided synchronisation (fence): the operations completed first */
    int32_t lock_comm; /* a lock asked for in this call: its grants waited for (-1: none) */
    int32_t *done, *cancelled;
    int32_t ndone, ncancelled, cap_done, cap_cancelled;
};

struct orank {
    OTF2_LocationRef loc;
    OTF2_EvtReader *evt;
    struct trace_rec *q; /* records made, not yet handed out: a ring */
    uint32_t head, count, cap;
    int64_t pushed; /* sequence number of the next record */
    struct oreq *reqs;
    int32_t nreqs, cap_reqs, next_id;
    uint64_t busy_from, excluded, last_time;
    int32_t depth, events;
    struct ocall call;
    bool started, ended;
};

struct otf2_in {
    char *path;
    OTF2_Reader *reader;
    uint64_t resolution;
    char **strings;
    uint32_t nstrings;
    struct odef_group *groups;
    uint32_t ngroups;
    struct odef_comm *comms;
    uint32_t ncomms;
    struct odef_region *regions;
    uint32_t nregions;
    uint32_t comm_locations; /* the MPI COMM_LOCATIONS group */
    int32_t nranks, nbatches, next_comm_id;
    struct orank *ranks;
    int32_t *rank_comms; /* each rank's derived communicators, in definition order */
    int64_t *rank_comms_at;
    int32_t *keys; /* the rank's position in rank_comms' communicator */
    int32_t cur;   /* the rank whose events are being read */
    struct sim_error *err;
    bool failed;
    int32_t ranks_without_events; /* ranks read to their end that had none */
    int32_t (*intern)(void *ctx, const char *name);
    void *intern_ctx;
    OTF2_EvtReaderCallbacks *callbacks;
    bool local_defs;    /* the local definition files are open */
    uint32_t *win_comm; /* each RMA window's communicator */
    uint32_t nwins;
};

bool otf2_is_anchor(const char *path) {
    unsigned char head[8] = {0};
    int fd = open(path, O_RDONLY);
    if (fd < 0) return false;
    ssize_t got = pread(fd, head, sizeof head, 0);
    close(fd);
    return got == (ssize_t)sizeof head && !memcmp(head + 1, "BOTF2", 5);
}

/* ---- errors ---------------------------------------------------------------- */

/* The library's first complaint since the last reset: it says why (a file
 * missing, a record damaged), where the failing call only says that. */
static char lib_message[256];

static OTF2_ErrorCode keep_message(void *ud, const char *file, uint64_t line, const char *function,
                                   OTF2_ErrorCode code, const char *fmt, va_list va) {
    (void)ud, (void)file, (void)line, (void)function;
    if (!lib_message[0] && fmt) {
        char text[200];
        vsnprintf(text, sizeof text, fmt, va);
        snprintf(lib_message, sizeof lib_message, " (%s: %s)", OTF2_Error_GetDescription(code),
                 text);
    }
    return code;
}

static OTF2_CallbackCode fail(struct otf2_in *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static OTF2_CallbackCode fail(struct otf2_in *o, const char *fmt, ...) {
    if (o->failed) return OTF2_CALLBACK_INTERRUPT;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    int len = vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (len >= 0 && (size_t)len < sizeof msg)
        snprintf(msg + len, sizeof msg - (size_t)len, "%s", lib_message);
    lib_message[0] = '\0';
    if (o->cur >= 0)
        err_set(o->err, "%s: rank %d, event %d: %s", o->path, o->cur, o->ranks[o->cur].events, msg);
    else
        err_set(o->err, "%s: %s", o->path, msg);
    o->failed = true;
    return OTF2_CALLBACK_INTERRUPT;
}

static bool lib_fail(struct otf2_in *o, OTF2_ErrorCode code, const char *what) {
    if (!o->failed && !lib_message[0]) fail(o, "%s: %s", what, OTF2_Error_GetDescription(code));
    if (!o->failed) fail(o, "%s", what);
    return false;
}

/* ---- definitions ----------------------------------------------------------- */

/* Grows a table indexed by definition id to hold id. */
static bool table_room(struct otf2_in *o, void **table, uint32_t *n, size_t size, uint32_t id) {
    if (id >= MAX_DEFS) {
        fail(o, "definition id %u is too large (at most %u)", id, MAX_DEFS - 1);
        return false;
    }
    if (id < *n) return true;
    uint32_t m = *n ? *n : 64;
    while (m <= id)
        m *= 2;
    *table = xrealloc_or_die(*table, (size_t)m * size);
    memset((char *)*table + (size_t)*n * size, 0, (size_t)(m - *n) * size);
    *n = m;
    return true;
}

static OTF2_CallbackCode def_clock(void *ud, uint64_t resolution, uint64_t offset, uint64_t length,
                                   uint64_t realtime) {
    (void)offset, (void)length, (void)realtime;
    struct otf2_in *o = ud;
    if (resolution == 0) return fail(o, "clock properties: a timer resolution of 0 ticks/s");
    o->resolution = resolution;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *ud, OTF2_StringRef self, const char *s) {
    struct otf2_in *o = ud;
    if (!table_room(o, (void **)&o->strings, &o->nstrings, sizeof *o->strings, self))
        return OTF2_CALLBACK_INTERRUPT;
    free(o->strings[self]);
    o->strings[self] = xstrdup(s);
    return OTF2_CALLBACK_SUCCESS;
}

static const char *string_of(const struct otf2_in *o, uint32_t ref) {
    return ref < o->nstrings && o->strings[ref] ? o->strings[ref] : "";
}

static uint8_t send_mode_of(const char *name) {
    if (strstr(name, "Ssend")) return SEND_SYNC;
    if (strstr(name, "Bsend")) return SEND_BUFFERED;
    if (strstr(name, "Rsend")) return SEND_READY;
    return SEND_STANDARD;
}

static OTF2_CallbackCode def_region(void *ud, OTF2_RegionRef self, OTF2_StringRef name,
                                    OTF2_StringRef canonical, OTF2_StringRef description,
                                    OTF2_RegionRole role, OTF2_Paradigm paradigm,
                                    OTF2_RegionFlag flags, OTF2_StringRef file, uint32_t begin,
                                    uint32_t end) {
    (void)canonical, (void)description, (void)role, (void)flags, (void)file, (void)begin, (void)end;
    struct otf2_in *o = ud;
    if (!table_room(o, (void **)&o->regions, &o->nregions, sizeof *o->regions, self))
        return OTF2_CALLBACK_INTERRUPT;
    const char *s = string_of(o, name);
    struct odef_region *r = &o->regions[self];
    r->kind = paradigm == OTF2_PARADIGM_MPI || !strncmp(s, "MPI_", 4) ? CALL_MPI : CALL_NONE;
    if (r->kind == CALL_MPI) {
        if (!strcmp(s, "MPI_Request_free")) r->kind = CALL_FREE;
        if (!strcmp(s, "MPI_Buffer_attach")) r->kind = CALL_ATTACH;
        if (!strcmp(s, "MPI_Buffer_detach")) r->kind = CALL_DETACH;
    }
    if (r->kind == CALL_NONE && paradigm == OTF2_PARADIGM_USER) {
        r->kind = CALL_USER;
        r->interval = o->intern(o->intern_ctx, s);
    }
    r->send_mode = send_mode_of(s);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *ud, OTF2_GroupRef self, OTF2_StringRef name,
                                   OTF2_GroupType type, OTF2_Paradigm paradigm,
                                   OTF2_GroupFlag flags, uint32_t n, const uint64_t *members) {
    (void)name, (void)flags;
    struct otf2_in *o = ud;
    if (!table_room(o, (void **)&o->groups, &o->ngroups, sizeof *o->groups, self))
        return OTF2_CALLBACK_INTERRUPT;
    struct odef_group *g = &o->groups[self];
    free(g->members);
    g->type = type;
    g->paradigm = paradigm;
    g->n = n;
    g->members = xmalloc(sizeof *members * (n ? n : 1));
    memcpy(g->members, members, sizeof *members * n);
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS && paradigm == OTF2_PARADIGM_MPI)
        o->comm_locations = self;
    return OTF2_CALLBACK_SUCCESS;
}

/* Communicator self's definition: over group (an inter-communicator: none). */
static OTF2_CallbackCode put_comm(struct otf2_in *o, OTF2_CommRef self, uint32_t group,
                                  uint32_t parent, bool inter) {
    if (!table_room(o, (void **)&o->comms, &o->ncomms, sizeof *o->comms, self))
        return OTF2_CALLBACK_INTERRUPT;
    o->comms[self] = (struct odef_comm){group, parent, true, inter, -1, -1, 0};
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                  OTF2_GroupRef group, OTF2_CommRef parent, OTF2_CommFlag flags) {
    (void)name, (void)flags;
    return put_comm(ud, self, group, parent, false);
}

static OTF2_CallbackCode def_inter_comm(void *ud, OTF2_CommRef self, OTF2_StringRef name,
                                        OTF2_GroupRef a, OTF2_GroupRef b, OTF2_CommRef common,
                                        OTF2_CommFlag flags) {
    (void)name, (void)a, (void)b, (void)common, (void)flags;
    return put_comm(ud, self, NO_REF, NO_REF, true);
}

static OTF2_CallbackCode def_rma_win(void *ud, OTF2_RmaWinRef self, OTF2_StringRef name,
                                     OTF2_CommRef comm, OTF2_RmaWinFlag flags) {
    (void)name, (void)flags;
    struct otf2_in *o = ud;
    uint32_t n = o->nwins;
    if (!table_room(o, (void **)&o->win_comm, &o->nwins, sizeof *o->win_comm, self))
        return OTF2_CALLBACK_INTERRUPT;
    for (uint32_t i = n; i < o->nwins; i++)
        o->win_comm[i] = NO_REF;
    o->win_comm[self] = comm;
    return OTF2_CALLBACK_SUCCESS;
}

static bool read_global_defs(struct otf2_in *o) {
    OTF2_GlobalDefReader *gdr = OTF2_Reader_GetGlobalDefReader(o->reader);
    if (!gdr) return fail(o, "no global definitions (not a complete OTF2 archive)"), false;
    OTF2_GlobalDefReaderCallbacks *cb = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(cb, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(cb, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(cb, def_region);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(cb, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(cb, def_comm);
    OTF2_GlobalDefReaderCallbacks_SetInterCommCallback(cb, def_inter_comm);
    OTF2_GlobalDefReaderCallbacks_SetRmaWinCallback(cb, def_rma_win);
    OTF2_Reader_RegisterGlobalDefCallbacks(o->reader, gdr, cb, o);
    OTF2_GlobalDefReaderCallbacks_Delete(cb);
    uint64_t n = 0;
    OTF2_ErrorCode rc = OTF2_Reader_ReadAllGlobalDefinitions(o->reader, gdr, &n);
    if (o->failed) return false;
    if (rc != OTF2_SUCCESS) return lib_fail(o, rc, "reading the global definitions");
    return true;
}

/* ---- ranks and communicators ------------------------------------------------ */

static bool find_ranks(struct otf2_in *o, int64_t max_ranks) {
    if (o->comm_locations == NO_REF)
        return fail(o, "not an MPI trace: no MPI COMM_LOCATIONS group in the definitions (a "
                       "trace of CUDA, OpenMP or threads alone has no ranks to replay)"),
               false;
    struct odef_group *g = &o->groups[o->comm_locations];
    if (g->n == 0) return fail(o, "the MPI COMM_LOCATIONS group has no members"), false;
    if ((int64_t)g->n > max_ranks)
        return fail(o, "%u ranks: more than this machine can replay (at most %lld)", g->n,
                    (long long)max_ranks),
               false;
    o->nranks = (int32_t)g->n;
    o->ranks = xcalloc((size_t)o->nranks, sizeof *o->ranks);
    for (int32_t r = 0; r < o->nranks; r++)
        o->ranks[r].loc = g->members[r];
    return true;
}

/* Whether group g lists the ranks 0..N-1 in order. */
static bool is_world_group(const struct otf2_in *o, const struct odef_group *g) {
    if (g->n != (uint32_t)o->nranks) return false;
    for (uint32_t i = 0; i < g->n; i++)
        if (g->members[i] != i) return false;
    return true;
}

/* Whether communicator c is made by a world split at the start. */
static bool is_derived(const struct otf2_in *o, uint32_t c) {
    return o->comms[c].defined && o->comms[c].batch >= 0;
}

/* Gives each MPI communicator simpi's id and, for the derived ones, the
 * world split that makes it: disjoint communicators defined one after
 * another share a split (each its own color). */
static bool plan_comms(struct otf2_in *o) {
    int32_t *last_batch = xmalloc(sizeof *last_batch * (size_t)o->nranks);
    for (int32_t r = 0; r < o->nranks; r++)
        last_batch[r] = -1;
    bool world = false;
    int32_t batch = -1, colors = 0;
    int64_t total = 0;
    o->next_comm_id = 1;
    for (uint32_t c = 0; c < o->ncomms; c++) {
        struct odef_comm *d = &o->comms[c];
        if (!d->defined || d->inter || d->group >= o->ngroups) continue;
        struct odef_group *g = &o->groups[d->group];
        if (g->paradigm != OTF2_PARADIGM_MPI) continue; /* thread teams and the like */
        if (g->type == OTF2_GROUP_TYPE_COMM_SELF) {
            d->id = o->next_comm_id++;
            continue;
        }
        if (g->type != OTF2_GROUP_TYPE_COMM_GROUP) continue;
        if (!world && d->parent == OTF2_UNDEFINED_COMM && is_world_group(o, g)) {
            d->id = SIM_COMM_WORLD_ID;
            world = true;
            continue;
        }
        for (uint32_t i = 0; i < g->n; i++)
            if (g->members[i] >= (uint64_t)o->nranks) {
                free(last_batch);
                return fail(o, "communicator %u: member %llu is not a rank (%d ranks)", c,
                            (unsigned long long)g->members[i], o->nranks),
                       false;
            }
        bool clash = batch < 0;
        for (uint32_t i = 0; i < g->n && !clash; i++)
            clash = last_batch[g->members[i]] == batch;
        if (clash) batch++, colors = 0;
        for (uint32_t i = 0; i < g->n; i++)
            last_batch[g->members[i]] = batch;
        d->id = o->next_comm_id++;
        d->batch = batch;
        d->color = colors++;
        total += g->n;
    }
    free(last_batch);
    o->nbatches = batch + 1;
    /* each rank's derived communicators, in definition order (a counting sort) */
    o->rank_comms_at = xcalloc((size_t)o->nranks + 1, sizeof *o->rank_comms_at);
    o->rank_comms = xmalloc(sizeof *o->rank_comms * (size_t)(total ? total : 1));
    o->keys = xmalloc(sizeof *o->keys * (size_t)(total ? total : 1));
    for (uint32_t c = 0; c < o->ncomms; c++)
        if (is_derived(o, c))
            for (uint32_t i = 0; i < o->groups[o->comms[c].group].n; i++)
                o->rank_comms_at[o->groups[o->comms[c].group].members[i] + 1]++;
    for (int32_t r = 0; r < o->nranks; r++)
        o->rank_comms_at[r + 1] += o->rank_comms_at[r];
    int64_t *fill = xmalloc(sizeof *fill * (size_t)o->nranks);
    memcpy(fill, o->rank_comms_at, sizeof *fill * (size_t)o->nranks);
    for (uint32_t c = 0; c < o->ncomms; c++)
        if (is_derived(o, c))
            for (uint32_t i = 0; i < o->groups[o->comms[c].group].n; i++) {
                int64_t at = fill[o->groups[o->comms[c].group].members[i]]++;
                o->rank_comms[at] = (int32_t)c;
                o->keys[at] = (int32_t)i;
            }
    free(fill);
    if (!world)
        return fail(o, "no MPI_COMM_WORLD: no communicator over every rank in order"), false;
    return true;
}

/* ---- a rank's queue of records -------------------------------------------- */

static struct trace_rec *push(struct otf2_in *o, struct orank *k, uint8_t op) {
    if (k->count == k->cap) {
        uint32_t cap = k->cap ? 2 * k->cap : 16;
        struct trace_rec *q = xmalloc(sizeof *q * cap);
        for (uint32_t i = 0; i < k->count; i++)
            q[i] = k->q[(k->head + i) % k->cap];
        free(k->q);
        k->q = q;
        k->head = 0;
        k->cap = cap;
    }
    struct trace_rec *r = &k->q[(k->head + k->count++) % k->cap];
    *r = (struct trace_rec){.op = op,
                            .rank = (int32_t)(k - o->ranks),
                            .req = -1,
                            .color = INT32_MIN,
                            .line = k->events};
    k->pushed++;
    return r;
}

static struct trace_rec *at_seq(struct orank *k, int64_t seq) {
    int64_t first = k->pushed - k->count;
    if (seq < first) return NULL;
    return &k->q[(k->head + (uint32_t)(seq - first)) % k->cap];
}

/* The derived communicators and MPI_COMM_SELF, made before the rank's first event. */
static void prologue(struct otf2_in *o, struct orank *k) {
    int32_t rank = (int32_t)(k - o->ranks);
    int64_t at = o->rank_comms_at[rank], end = o->rank_comms_at[rank + 1];
    for (int32_t b = 0; b < o->nbatches; b++) {
        struct trace_rec *r = push(o, k, TOP_COMM_SPLIT);
        r->comm = SIM_COMM_WORLD_ID;
        r->mode = 1; /* comm_define: its exchange is charged where the program made it */
        if (at < end && o->comms[o->rank_comms[at]].batch == b) {
            const struct odef_comm *c = &o->comms[o->rank_comms[at]];
            r->color = c->color, r->key = o->keys[at], r->newcomm = c->id;
            at++;
        } else {
            r->color = SIM_UNDEFINED, r->newcomm = o->next_comm_id + b;
        }
    }
    for (uint32_t c = 0; c < o->ncomms; c++)
        if (o->comms[c].defined && o->comms[c].id > 0 && o->comms[c].batch < 0)
            push(o, k, TOP_COMM_SELF)->newcomm = o->comms[c].id;
}

/* ---- requests --------------------------------------------------------------- */

static struct oreq *req_find(struct orank *k, uint64_t id) {
    for (int32_t i = 0; i < k->nreqs; i++)
        if (k->reqs[i].otf2_id == id) return &k->reqs[i];
    return NULL;
}

/* A new request: the smallest simpi id not in use on the rank. */
static struct oreq *req_new(struct otf2_in *o, struct orank *k, uint64_t id, bool send) {
    if (req_find(k, id)) {
        fail(o, "request %llu started again before it completed", (unsigned long long)id);
        return NULL;
    }
    if (k->nreqs == k->cap_reqs) {
        k->cap_reqs = k->cap_reqs ? 2 * k->cap_reqs : 8;
        k->reqs = xrealloc_or_die(k->reqs, sizeof *k->reqs * (size_t)k->cap_reqs);
    }
    int32_t sid = 0;
    for (bool used = true; used; sid += used) {
        used = false;
        for (int32_t i = 0; i < k->nreqs && !used; i++)
            used = k->reqs[i].id == sid;
    }
    struct oreq *q = &k->reqs[k->nreqs++];
    *q = (struct oreq){id, -1, sid, send};
    return q;
}

static void req_drop(struct orank *k, struct oreq *q) {
    *q = k->reqs[--k->nreqs];
}

static void list_add(int32_t **list, int32_t *n, int32_t *cap, int32_t v) {
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 8;
        *list = xrealloc_or_die(*list, sizeof **list * (size_t)*cap);
    }
    (*list)[(*n)++] = v;
}

/* ---- translating events ---------------------------------------------------- */

/* The rank being read, its clock and position moved to this event. */
static struct orank *at_event(struct otf2_in *o, OTF2_TimeStamp time, uint64_t pos) {
    struct orank *k = &o->ranks[o->cur];
    k->events = pos < INT32_MAX ? (int32_t)pos + 1 : INT32_MAX;
    /* A location's events are in time order (OTF2 requires it); one that
     * goes back (a moved or damaged timestamp) would turn into a negative
     * or huge computation: refused, naming the event (fill() stops). */
    if (k->started && time < k->last_time)
        fail(o, "time goes backwards: this event is at %llu ticks, the one before at %llu",
             (unsigned long long)time, (unsigned long long)k->last_time);
    else if ((unsigned __int128)time * 1000000000000u / o->resolution >= (uint64_t)SIMTIME_NEVER)
        fail(o,
             "a time of %llu ticks at %llu ticks a second is past what simpi's picosecond "
             "clock holds (" SIMTIME_LIMIT_TEXT ")",
             (unsigned long long)time, (unsigned long long)o->resolution);
    if (!k->started) k->busy_from = time, k->started = true;
    if (time > k->last_time) k->last_time = time;
    return k;
}

static struct orank *rank_of(struct otf2_in *o) {
    return &o->ranks[o->cur];
}

static int32_t comm_id(struct otf2_in *o, OTF2_CommRef c) {
    if (c >= o->ncomms || !o->comms[c].defined) return fail(o, "undefined communicator %u", c), -1;
    if (o->comms[c].inter)
        return fail(o, "communicator %u is an inter-communicator: not replayed yet", c), -1;
    if (o->comms[c].id < 0) return fail(o, "communicator %u is not an MPI communicator", c), -1;
    return o->comms[c].id;
}

static uint32_t comm_size(const struct otf2_in *o, OTF2_CommRef c) {
    const struct odef_group *g = &o->groups[o->comms[c].group];
    return g->type == OTF2_GROUP_TYPE_COMM_SELF ? 1 : g->n;
}

static int32_t comm_rank(const struct otf2_in *o, OTF2_CommRef c, int32_t world) {
    const struct odef_group *g = &o->groups[o->comms[c].group];
    if (g->type == OTF2_GROUP_TYPE_COMM_SELF) return 0;
    for (uint32_t i = 0; i < g->n; i++)
        if (g->members[i] == (uint64_t)world) return (int32_t)i;
    return -1;
}

static int64_t ticks_to_ps(const struct otf2_in *o, uint64_t ticks) {
    return (int64_t)(((unsigned __int128)ticks * 1000000000000u + o->resolution / 2) /
                     o->resolution);
}

/* The computation since the last MPI call, up to time. */
static void computation(struct otf2_in *o, struct orank *k, uint64_t time) {
    uint64_t span = time > k->busy_from ? time - k->busy_from : 0;
    span = span > k->excluded ? span - k->excluded : 0;
    if (span) push(o, k, TOP_COMPUTE)->size = ticks_to_ps(o, span);
    k->excluded = 0;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    if (k->depth > 0) {
        k->depth++;
        return OTF2_CALLBACK_SUCCESS;
    }
    if (region >= o->nregions) return fail(o, "undefined region %u", region);
    if (o->regions[region].kind == CALL_NONE) return OTF2_CALLBACK_SUCCESS;
    computation(o, k, time);
    if (o->regions[region].kind == CALL_USER) { /* a marked region: an interval */
        push(o, k, TOP_INTERVAL_BEGIN)->req = o->regions[region].interval;
        k->busy_from = time;
        return OTF2_CALLBACK_SUCCESS;
    }
    k->depth = 1;
    struct ocall *c = &k->call;
    c->region = region;
    c->has_send = c->has_recv = c->has_coll = c->sync_after = false;
    c->lock_comm = -1;
    c->ndone = c->ncancelled = 0;
    return OTF2_CALLBACK_SUCCESS;
}

/* A record on the requests ids[0..n) (wait, waitall, cancel, free). */
static void push_ids(struct otf2_in *o, struct orank *k, uint8_t op, const int32_t *ids,
                     int32_t n) {
    struct trace_rec *r = push(o, k, op);
    r->ids = xmalloc(sizeof *r->ids * (size_t)(n > 0 ? n : 1));
    memcpy(r->ids, ids, sizeof *r->ids * (size_t)n);
    r->nids = n;
}

static void emit_waits(struct otf2_in *o, struct orank *k) {
    struct ocall *c = &k->call;
    for (int32_t i = 0; i < c->ncancelled; i++) {
        push_ids(o, k, TOP_CANCEL, &c->cancelled[i], 1);
        list_add(&c->done, &c->ndone, &c->cap_done, c->cancelled[i]);
    }
    if (!c->ndone) return;
    if (o->regions[c->region].kind == CALL_FREE) {
        for (int32_t i = 0; i < c->ndone; i++)
            push_ids(o, k, TOP_FREE, &c->done[i], 1);
        return;
    }
    push_ids(o, k, c->ndone == 1 ? TOP_WAIT : TOP_WAITALL, c->done, c->ndone);
}

/* At the end of an MPI call: its records. */
static void emit_call(struct otf2_in *o, struct orank *k) {
    struct ocall *c = &k->call;
    if (c->sync_after) emit_waits(o, k), c->ndone = c->ncancelled = 0;
    if (c->has_coll) *push(o, k, c->coll.op) = c->coll;
    if (c->has_send && c->has_recv) {
        struct trace_rec *r = push(o, k, TOP_SENDRECV);
        r->peer = c->send.peer, r->size = c->send.size, r->tag = c->send.tag;
        r->peer2 = c->recv.peer, r->size2 = c->recv.size, r->tag2 = c->recv.tag;
        r->comm = c->send.comm;
    } else if (c->has_send) {
        *push(o, k, TOP_SEND) = c->send;
    } else if (c->has_recv) {
        *push(o, k, TOP_RECV) = c->recv;
    }
    emit_waits(o, k);
    if (o->regions[c->region].kind == CALL_ATTACH)
        push(o, k, TOP_BUFFER_ATTACH)->size = OTF2_ATTACH_SIZE;
    if (o->regions[c->region].kind == CALL_DETACH) push(o, k, TOP_BUFFER_DETACH);
    if (c->lock_comm >= 0) { /* MPI_Win_lock: its grant */
        struct trace_rec *r = push(o, k, TOP_RMA_SYNC);
        r->mode = 2, r->comm = c->lock_comm;
    }
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_RegionRef region) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    if (k->depth == 0 && region < o->nregions && o->regions[region].kind == CALL_USER) {
        computation(o, k, time);
        push(o, k, TOP_INTERVAL_END);
        k->busy_from = time;
        return OTF2_CALLBACK_SUCCESS;
    }
    if (k->depth == 0 || --k->depth > 0) return OTF2_CALLBACK_SUCCESS;
    emit_call(o, k);
    k->busy_from = time;
    k->excluded = 0;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode outside_call(struct otf2_in *o, const char *what) {
    return fail(o, "%s outside an MPI call (the region around it is missing)", what);
}

/* A point-to-point record's fields: its peer checked against the communicator. */
static bool p2p(struct otf2_in *o, struct trace_rec *r, uint8_t op, uint32_t peer,
                OTF2_CommRef comm, uint32_t tag, uint64_t len) {
    int32_t id = comm_id(o, comm);
    if (id < 0) return false;
    if (peer >= comm_size(o, comm))
        return fail(o, "peer %u is outside communicator %u (%u ranks)", peer, comm,
                    comm_size(o, comm)),
               false;
    if (len > INT64_MAX / 2) return fail(o, "message length %llu", (unsigned long long)len), false;
    *r = (struct trace_rec){.op = op,
                            .rank = o->cur,
                            .peer = (int32_t)peer,
                            .comm = id,
                            .tag = (int32_t)(tag & INT32_MAX),
                            .size = (int64_t)len,
                            .req = -1,
                            .color = INT32_MIN,
                            .line = rank_of(o)->events};
    r->tag2 = r->tag;
    return true;
}

/* A blocking send's or receive's record, kept until the call's end. */
static OTF2_CallbackCode blocking(struct otf2_in *o, OTF2_TimeStamp time, uint64_t pos, bool send,
                                  uint32_t peer, OTF2_CommRef comm, uint32_t tag, uint64_t len) {
    struct orank *k = at_event(o, time, pos);
    if (!k->depth) return outside_call(o, send ? "MpiSend" : "MpiRecv");
    bool *has = send ? &k->call.has_send : &k->call.has_recv;
    if (*has) return fail(o, "a second %s in one MPI call", send ? "MpiSend" : "MpiRecv");
    struct trace_rec *r = send ? &k->call.send : &k->call.recv;
    if (!p2p(o, r, send ? TOP_SEND : TOP_RECV, peer, comm, tag, len))
        return OTF2_CALLBACK_INTERRUPT;
    if (send) r->mode = o->regions[k->call.region].send_mode;
    *has = true;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                 OTF2_AttributeList *attrs, uint32_t receiver, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len) {
    (void)loc, (void)attrs;
    return blocking(ud, time, pos, true, receiver, comm, tag, len);
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                 OTF2_AttributeList *attrs, uint32_t sender, OTF2_CommRef comm,
                                 uint32_t tag, uint64_t len) {
    (void)loc, (void)attrs;
    return blocking(ud, time, pos, false, sender, comm, tag, len);
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, uint32_t receiver, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    struct trace_rec r;
    if (!p2p(o, &r, TOP_ISEND, receiver, comm, tag, len)) return OTF2_CALLBACK_INTERRUPT;
    struct oreq *q = req_new(o, k, req, true);
    if (!q) return OTF2_CALLBACK_INTERRUPT;
    r.req = q->id;
    r.mode = k->depth ? o->regions[k->call.region].send_mode : SEND_STANDARD;
    *push(o, k, TOP_ISEND) = r;
    return OTF2_CALLBACK_SUCCESS;
}

/* A request completed in the current call (or cancelled): waited for there. */
static OTF2_CallbackCode complete(struct otf2_in *o, uint64_t req, bool cancelled,
                                  struct oreq **out) {
    struct orank *k = rank_of(o);
    if (!k->depth) return outside_call(o, "a request's completion");
    struct oreq *q = req_find(k, req);
    if (!q) return fail(o, "request %llu completes but was never started", (unsigned long long)req);
    *out = q;
    struct ocall *c = &k->call;
    if (cancelled)
        list_add(&c->cancelled, &c->ncancelled, &c->cap_cancelled, q->id);
    else
        list_add(&c->done, &c->ndone, &c->cap_done, q->id);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                           void *ud, OTF2_AttributeList *attrs, uint64_t req) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    at_event(o, time, pos);
    struct oreq *q;
    if (complete(o, req, false, &q) != OTF2_CALLBACK_SUCCESS) return OTF2_CALLBACK_INTERRUPT;
    req_drop(rank_of(o), q);
    return OTF2_CALLBACK_SUCCESS;
}

/* A request whose record waits for its completion to know its peer and
 * size (a receive) or its operation (a collective). */
static OTF2_CallbackCode pending(struct otf2_in *o, OTF2_TimeStamp time, uint64_t pos, uint64_t req,
                                 uint8_t op) {
    struct orank *k = at_event(o, time, pos);
    struct oreq *q = req_new(o, k, req, false);
    if (!q) return OTF2_CALLBACK_INTERRUPT;
    q->seq = k->pushed;
    push(o, k, op)->req = q->id;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv_request(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                          void *ud, OTF2_AttributeList *attrs, uint64_t req) {
    (void)loc, (void)attrs;
    return pending(ud, time, pos, req, TOP_IRECV);
}

/* A waiting record filled in: r's fields into the record of request q. */
static OTF2_CallbackCode fill_pending(struct otf2_in *o, struct oreq *q,
                                      const struct trace_rec *r) {
    struct orank *k = rank_of(o);
    struct trace_rec *w = at_seq(k, q->seq);
    if (!w) return fail(o, "request %llu: its record was lost", (unsigned long long)q->otf2_id);
    int32_t line = w->line;
    *w = *r;
    w->req = q->id;
    w->line = line;
    q->seq = -1;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, uint32_t sender, OTF2_CommRef comm,
                                  uint32_t tag, uint64_t len, uint64_t req) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    at_event(o, time, pos);
    struct oreq *q;
    struct trace_rec r;
    if (complete(o, req, false, &q) != OTF2_CALLBACK_SUCCESS) return OTF2_CALLBACK_INTERRUPT;
    if (q->send || q->seq < 0)
        return fail(o, "MpiIrecv completes request %llu, which is not a receive",
                    (unsigned long long)req);
    if (!p2p(o, &r, TOP_IRECV, sender, comm, tag, len) ||
        fill_pending(o, q, &r) != OTF2_CALLBACK_SUCCESS)
        return OTF2_CALLBACK_INTERRUPT;
    req_drop(rank_of(o), q);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_cancelled(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                      void *ud, OTF2_AttributeList *attrs, uint64_t req) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    struct oreq *q = req_find(k, req);
    if (q && q->seq >= 0) { /* a receive never matched: it and its cancellation are nothing */
        struct trace_rec *w = at_seq(k, q->seq);
        if (w) w->op = OP_DROPPED;
        req_drop(k, q);
        return OTF2_CALLBACK_SUCCESS;
    }
    if (complete(o, req, true, &q) != OTF2_CALLBACK_SUCCESS) return OTF2_CALLBACK_INTERRUPT;
    req_drop(k, q);
    return OTF2_CALLBACK_SUCCESS;
}

/* Score-P's byte counts (sizeSent, sizeReceived) of a collective back to
 * the block simpi's record takes: N ranks, me the rank's place. The
 * in-place forms count one block fewer. */
static int64_t block_of(OTF2_CollectiveOp op, uint64_t s, uint64_t r, uint32_t n, int32_t me,
                        int32_t root) {
    uint64_t m = n > 1 ? n - 1 : 1;
#define PER(x) ((x) % n == 0 ? (x) / n : (x) / m)
    switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST:
        return (int64_t)(me == root ? PER(s) : r);
    case OTF2_COLLECTIVE_OP_REDUCE:
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
        return (int64_t)(me != root ? s : s ? s : r / m);
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
        return (int64_t)(me != root ? r : r ? r : s / m);
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
        return (int64_t)PER(r);
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        return (int64_t)PER(s);
    case OTF2_COLLECTIVE_OP_SCAN:
        return (int64_t)(r % (uint64_t)(me + 1) == 0 ? r / (uint64_t)(me + 1) : r / (me ? me : 1));
    case OTF2_COLLECTIVE_OP_EXSCAN:
        return (int64_t)(me > 0 ? r / (uint64_t)me : s / m);
    default:
        return 0;
    }
#undef PER
}

/* A communicator's or window's creation: the communicators are defined at
 * the start (prologue), the exchange is charged here. */
static bool is_creation(OTF2_CollectiveOp op) {
    return op == OTF2_COLLECTIVE_OP_CREATE_HANDLE || op == OTF2_COLLECTIVE_OP_ALLOCATE ||
           op == OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE;
}

/* Freeing a communicator or a window: nothing charged, nothing recorded. */
static bool is_release(OTF2_CollectiveOp op) {
    return op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE || op == OTF2_COLLECTIVE_OP_DEALLOCATE ||
           op == OTF2_COLLECTIVE_OP_DESTROY_HANDLE_AND_DEALLOCATE;
}

static int coll_kind_of(OTF2_CollectiveOp op) {
    switch (op) {
    case OTF2_COLLECTIVE_OP_BARRIER:
        return COLL_BARRIER;
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE: /* what simpi charges a split: see coll_rec */
    case OTF2_COLLECTIVE_OP_ALLOCATE:
    case OTF2_COLLECTIVE_OP_CREATE_HANDLE_AND_ALLOCATE:
        return COLL_ALLGATHER;
    case OTF2_COLLECTIVE_OP_BCAST:
        return COLL_BCAST;
    case OTF2_COLLECTIVE_OP_GATHER:
    case OTF2_COLLECTIVE_OP_GATHERV:
        return COLL_GATHER;
    case OTF2_COLLECTIVE_OP_SCATTER:
    case OTF2_COLLECTIVE_OP_SCATTERV:
        return COLL_SCATTER;
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
        return COLL_ALLGATHER;
    case OTF2_COLLECTIVE_OP_ALLTOALL:
    case OTF2_COLLECTIVE_OP_ALLTOALLV:
    case OTF2_COLLECTIVE_OP_ALLTOALLW:
        return COLL_ALLTOALL;
    case OTF2_COLLECTIVE_OP_ALLREDUCE:
        return COLL_ALLREDUCE;
    case OTF2_COLLECTIVE_OP_REDUCE:
        return COLL_REDUCE;
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER:
    case OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK:
        return COLL_REDUCE_SCATTER;
    case OTF2_COLLECTIVE_OP_SCAN:
        return COLL_SCAN;
    case OTF2_COLLECTIVE_OP_EXSCAN:
        return COLL_EXSCAN;
    default:
        return -1;
    }
}

/* A collective's record from its end event. */
static bool coll_rec(struct otf2_in *o, struct trace_rec *r, uint8_t op, OTF2_CollectiveOp kind,
                     OTF2_CommRef comm, uint32_t root, uint64_t sent, uint64_t received) {
    int c = coll_kind_of(kind);
    if (c < 0)
        return fail(o, "collective operation %u is not an MPI collective simpi replays", kind),
               false;
    int32_t id = comm_id(o, comm);
    if (id < 0) return false;
    uint32_t n = comm_size(o, comm);
    int32_t me = comm_rank(o, comm, o->cur);
    if (me < 0) return fail(o, "rank %d is not in communicator %u", o->cur, comm), false;
    bool rooted = c == COLL_BCAST || c == COLL_REDUCE || c == COLL_GATHER || c == COLL_SCATTER;
    if (rooted && root >= n)
        return fail(o, "root %u is outside communicator %u (%u ranks)", root, comm, n), false;
    if (!rooted) root = 0;
    *r = (struct trace_rec){.op = op,
                            .rank = o->cur,
                            .comm = id,
                            .root = (int32_t)root,
                            .coll = (uint8_t)c,
                            .req = -1,
                            .color = INT32_MIN,
                            .line = rank_of(o)->events};
    r->size = c == COLL_BARRIER ? 0 : block_of(kind, sent, received, n, me, (int32_t)root);
    if (is_creation(kind)) r->size = 8; /* each member's color and key, as simpi charges a split */
    return true;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                     void *ud, OTF2_AttributeList *attrs, OTF2_CollectiveOp kind,
                                     OTF2_CommRef comm, uint32_t root, uint64_t sent,
                                     uint64_t received) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    if (!k->depth) return outside_call(o, "MpiCollectiveEnd");
    if (is_release(kind)) return OTF2_CALLBACK_SUCCESS;
    if (k->call.has_coll) return fail(o, "a second collective in one MPI call");
    if (!coll_rec(o, &k->call.coll, TOP_COLL, kind, comm, root, sent, received))
        return OTF2_CALLBACK_INTERRUPT;
    k->call.has_coll = true;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_icoll_request(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                          void *ud, OTF2_AttributeList *attrs, uint64_t req) {
    (void)loc, (void)attrs;
    return pending(ud, time, pos, req, TOP_ICOLL);
}

static OTF2_CallbackCode ev_icoll_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                           void *ud, OTF2_AttributeList *attrs,
                                           OTF2_CollectiveOp kind, OTF2_CommRef comm, uint32_t root,
                                           uint64_t sent, uint64_t received, uint64_t req) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    at_event(o, time, pos);
    struct oreq *q;
    struct trace_rec r;
    if (complete(o, req, false, &q) != OTF2_CALLBACK_SUCCESS) return OTF2_CALLBACK_INTERRUPT;
    if (q->seq < 0)
        return fail(o, "NonBlockingCollectiveComplete of request %llu, not a collective's",
                    (unsigned long long)req);
    if (!coll_rec(o, &r, TOP_ICOLL, kind, comm, root, sent, received) ||
        fill_pending(o, q, &r) != OTF2_CALLBACK_SUCCESS)
        return OTF2_CALLBACK_INTERRUPT;
    req_drop(rank_of(o), q);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_flush(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos, void *ud,
                                  OTF2_AttributeList *attrs, OTF2_TimeStamp stop) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    if (!k->depth && stop > time)
        k->excluded += stop - time; /* the tracer's time, not the program's */
    return OTF2_CALLBACK_SUCCESS;
}

/* MPI-IO (an I/O operation inside an MPI call): a file access of the bytes
 * asked for through the platform's storage, completed where OTF2 says
 * (the same call for a blocking one, a wait for a non-blocking one). I/O
 * outside MPI calls (POSIX, ISO C) is the program's own time. */
#define IO_KEY(id) ((id) | (UINT64_C(1) << 63)) /* apart from MPI's request ids */

static OTF2_CallbackCode ev_io_begin(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                     void *ud, OTF2_AttributeList *attrs, OTF2_IoHandleRef handle,
                                     OTF2_IoOperationMode mode, OTF2_IoOperationFlag flags,
                                     uint64_t bytes, uint64_t matching) {
    (void)loc, (void)attrs, (void)handle, (void)mode, (void)flags;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    if (!k->depth) return OTF2_CALLBACK_SUCCESS;
    struct oreq *q = req_new(o, k, IO_KEY(matching), true);
    if (!q) return OTF2_CALLBACK_INTERRUPT;
    struct trace_rec *r = push(o, k, TOP_FILE_IO);
    r->size = bytes > INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)bytes;
    r->req = q->id;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_io_complete(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                        void *ud, OTF2_AttributeList *attrs,
                                        OTF2_IoHandleRef handle, uint64_t bytes,
                                        uint64_t matching) {
    (void)loc, (void)attrs, (void)handle, (void)bytes;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    if (!k->depth || !req_find(k, IO_KEY(matching))) return OTF2_CALLBACK_SUCCESS;
    struct oreq *q;
    if (complete(o, IO_KEY(matching), false, &q) != OTF2_CALLBACK_SUCCESS)
        return OTF2_CALLBACK_INTERRUPT;
    req_drop(k, q);
    return OTF2_CALLBACK_SUCCESS;
}

/* ---- one-sided communication: on the window's communicator ---- */

#define RMA_KEY(id) ((id) | (UINT64_C(3) << 62)) /* apart from MPI's and I/O's ids */
#define LOCK_KEY(id) ((id) | (UINT64_C(1) << 62))

/* The communicator of window win as simpi names it, or -1 (failed). */
static int32_t win_comm_id(struct otf2_in *o, OTF2_RmaWinRef win, OTF2_CommRef *ref) {
    if (win >= o->nwins || o->win_comm[win] == NO_REF)
        return fail(o, "undefined RMA window %u", win), -1;
    *ref = o->win_comm[win];
    return comm_id(o, *ref);
}

/* A put (or accumulate) or get of bytes with member remote of window win. */
static OTF2_CallbackCode rma_op(struct otf2_in *o, OTF2_TimeStamp time, uint64_t pos,
                                OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                                uint64_t matching, bool put) {
    struct orank *k = at_event(o, time, pos);
    OTF2_CommRef ref;
    int32_t comm = win_comm_id(o, win, &ref);
    if (comm < 0) return OTF2_CALLBACK_INTERRUPT;
    if (remote >= comm_size(o, ref))
        return fail(o, "RMA target %u is outside window %u's communicator", remote, win);
    struct oreq *q = req_new(o, k, RMA_KEY(matching), true);
    if (!q) return OTF2_CALLBACK_INTERRUPT;
    struct trace_rec *r = push(o, k, TOP_RMA);
    r->mode = put, r->peer = (int32_t)remote, r->comm = comm, r->req = q->id;
    r->size = bytes > INT64_MAX / 2 ? INT64_MAX / 2 : (int64_t)bytes;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_rma_put(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                    void *ud, OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
                                    uint32_t remote, uint64_t bytes, uint64_t matching) {
    (void)loc, (void)attrs;
    return rma_op(ud, time, pos, win, remote, bytes, matching, true);
}

static OTF2_CallbackCode ev_rma_get(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                    void *ud, OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
                                    uint32_t remote, uint64_t bytes, uint64_t matching) {
    (void)loc, (void)attrs;
    return rma_op(ud, time, pos, win, remote, bytes, matching, false);
}

/* An atomic (accumulate, fetch, compare and swap): a put of the larger side. */
static OTF2_CallbackCode ev_rma_atomic(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                       void *ud, OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
                                       uint32_t remote, OTF2_RmaAtomicType type, uint64_t sent,
                                       uint64_t received, uint64_t matching) {
    (void)loc, (void)attrs, (void)type;
    return rma_op(ud, time, pos, win, remote, sent > received ? sent : received, matching, true);
}

/* An operation completed (at a fence, an unlock, a flush, a wait). */
static OTF2_CallbackCode rma_done(struct otf2_in *o, OTF2_TimeStamp time, uint64_t pos,
                                  uint64_t matching) {
    struct orank *k = at_event(o, time, pos);
    struct oreq *q;
    if (complete(o, RMA_KEY(matching), false, &q) != OTF2_CALLBACK_SUCCESS)
        return OTF2_CALLBACK_INTERRUPT;
    req_drop(k, q);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_rma_blocking(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                         void *ud, OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
                                         uint64_t matching) {
    (void)loc, (void)attrs, (void)win;
    return rma_done(ud, time, pos, matching);
}

static OTF2_CallbackCode ev_rma_nonblocking(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                            void *ud, OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
                                            uint64_t matching) {
    (void)loc, (void)attrs, (void)win;
    return rma_done(ud, time, pos, matching);
}

/* MPI_Win_fence (and the window's creation, its release): a collective of
 * the window's communicator, after the operations it completes. */
static OTF2_CallbackCode ev_rma_coll_end(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                         void *ud, OTF2_AttributeList *attrs,
                                         OTF2_CollectiveOp kind, OTF2_RmaSyncLevel level,
                                         OTF2_RmaWinRef win, uint32_t root, uint64_t sent,
                                         uint64_t received) {
    (void)loc, (void)attrs, (void)level;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    if (!k->depth) return outside_call(o, "RmaCollectiveEnd");
    if (is_release(kind)) return OTF2_CALLBACK_SUCCESS;
    OTF2_CommRef ref;
    if (win_comm_id(o, win, &ref) < 0) return OTF2_CALLBACK_INTERRUPT;
    if (k->call.has_coll) return fail(o, "a second collective in one MPI call");
    if (!coll_rec(o, &k->call.coll, TOP_COLL, kind, ref, root, sent, received))
        return OTF2_CALLBACK_INTERRUPT;
    k->call.has_coll = k->call.sync_after = true;
    return OTF2_CALLBACK_SUCCESS;
}

/* MPI_Win_lock: a lock asked of member remote (its grant waited for where
 * RmaAcquireLock says). */
static OTF2_CallbackCode ev_rma_lock(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                     void *ud, OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
                                     uint32_t remote, uint64_t lock, OTF2_LockType type) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    OTF2_CommRef ref;
    int32_t comm = win_comm_id(o, win, &ref);
    if (comm < 0) return OTF2_CALLBACK_INTERRUPT;
    if (!k->depth) return outside_call(o, "RmaRequestLock");
    struct oreq *q = req_new(o, k, LOCK_KEY(lock), type == OTF2_LOCK_EXCLUSIVE);
    if (!q) return OTF2_CALLBACK_INTERRUPT;
    struct trace_rec *r = push(o, k, TOP_RMA_SYNC);
    r->mode = 0, r->peer = (int32_t)remote, r->comm = comm, r->tag = q->send;
    return OTF2_CALLBACK_SUCCESS;
}

/* A lock granted: the call that got it waits for its grants. */
static OTF2_CallbackCode ev_rma_acquire(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                        void *ud, OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
                                        uint32_t remote, uint64_t lock, OTF2_LockType type) {
    (void)loc, (void)attrs, (void)remote, (void)lock, (void)type;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    OTF2_CommRef ref;
    int32_t comm = win_comm_id(o, win, &ref);
    if (comm < 0) return OTF2_CALLBACK_INTERRUPT;
    if (k->depth) k->call.lock_comm = comm;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_rma_unlock(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                       void *ud, OTF2_AttributeList *attrs, OTF2_RmaWinRef win,
                                       uint32_t remote, uint64_t lock) {
    (void)loc, (void)attrs;
    struct otf2_in *o = ud;
    struct orank *k = at_event(o, time, pos);
    OTF2_CommRef ref;
    int32_t comm = win_comm_id(o, win, &ref);
    if (comm < 0) return OTF2_CALLBACK_INTERRUPT;
    struct oreq *q = req_find(k, LOCK_KEY(lock));
    if (!q) return fail(o, "lock %llu released but never asked for", (unsigned long long)lock);
    if (k->depth) { /* the operations the unlock completes, before it */
        emit_waits(o, k);
        k->call.ndone = k->call.ncancelled = 0;
    }
    struct trace_rec *r = push(o, k, TOP_RMA_SYNC);
    r->mode = 1, r->peer = (int32_t)remote, r->comm = comm, r->tag = q->send;
    req_drop(k, q);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode refuse_group_sync(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                           void *ud, OTF2_AttributeList *attrs,
                                           OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                           OTF2_GroupRef group) {
    (void)loc, (void)attrs, (void)level, (void)win, (void)group;
    at_event(ud, time, pos);
    return fail(ud, "general active target synchronisation (MPI_Win_post, start, complete, "
                    "wait: RmaGroupSync) is not replayed from OTF2 yet");
}

static OTF2_CallbackCode refuse_comm_create(OTF2_LocationRef loc, OTF2_TimeStamp time, uint64_t pos,
                                            void *ud, OTF2_AttributeList *attrs,
                                            OTF2_CommRef comm) {
    (void)loc, (void)time, (void)pos, (void)attrs, (void)comm;
    (void)ud; /* the communicators are made at the start from their definitions */
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_EvtReaderCallbacks *event_callbacks(void) {
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_complete);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_request);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_cancelled);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb, ev_icoll_request);
    OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(cb, ev_icoll_complete);
    OTF2_EvtReaderCallbacks_SetBufferFlushCallback(cb, ev_flush);
    OTF2_EvtReaderCallbacks_SetIoOperationBeginCallback(cb, ev_io_begin);
    OTF2_EvtReaderCallbacks_SetIoOperationCompleteCallback(cb, ev_io_complete);
    OTF2_EvtReaderCallbacks_SetRmaPutCallback(cb, ev_rma_put);
    OTF2_EvtReaderCallbacks_SetRmaGetCallback(cb, ev_rma_get);
    OTF2_EvtReaderCallbacks_SetRmaAtomicCallback(cb, ev_rma_atomic);
    OTF2_EvtReaderCallbacks_SetRmaOpCompleteBlockingCallback(cb, ev_rma_blocking);
    OTF2_EvtReaderCallbacks_SetRmaOpCompleteNonBlockingCallback(cb, ev_rma_nonblocking);
    OTF2_EvtReaderCallbacks_SetRmaCollectiveEndCallback(cb, ev_rma_coll_end);
    OTF2_EvtReaderCallbacks_SetRmaRequestLockCallback(cb, ev_rma_lock);
    OTF2_EvtReaderCallbacks_SetRmaAcquireLockCallback(cb, ev_rma_acquire);
    OTF2_EvtReaderCallbacks_SetRmaReleaseLockCallback(cb, ev_rma_unlock);
    OTF2_EvtReaderCallbacks_SetRmaGroupSyncCallback(cb, refuse_group_sync);
    OTF2_EvtReaderCallbacks_SetCommCreateCallback(cb, refuse_comm_create);
    return cb;
}

/* ---- opening ----------------------------------------------------------------- */

static bool open_events(struct otf2_in *o) {
    for (int32_t r = 0; r < o->nranks; r++)
        if (OTF2_Reader_SelectLocation(o->reader, o->ranks[r].loc) != OTF2_SUCCESS)
            return fail(o, "location %llu of rank %d", (unsigned long long)o->ranks[r].loc, r),
                   false;
    o->local_defs = OTF2_Reader_OpenDefFiles(o->reader) == OTF2_SUCCESS;
    OTF2_ErrorCode rc = OTF2_Reader_OpenEvtFiles(o->reader);
    if (rc != OTF2_SUCCESS) return lib_fail(o, rc, "opening the event files");
    o->callbacks = event_callbacks();
    return true;
}

/* The event reader of rank k, made when it is first read (OTF2 clears a
 * chunk buffer for each), and its local definitions: the mappings
 * Score-P's events use. */
static bool open_rank(struct otf2_in *o, struct orank *k) {
    k->evt = OTF2_Reader_GetEvtReader(o->reader, k->loc);
    if (!k->evt)
        return fail(o, "no events of rank %d (location %llu)", (int)(k - o->ranks),
                    (unsigned long long)k->loc),
               false;
    OTF2_Reader_RegisterEvtCallbacks(o->reader, k->evt, o->callbacks, o);
    OTF2_DefReader *dr = o->local_defs ? OTF2_Reader_GetDefReader(o->reader, k->loc) : NULL;
    if (dr) {
        uint64_t n = 0;
        OTF2_Reader_ReadAllLocalDefinitions(o->reader, dr, &n);
        OTF2_Reader_CloseDefReader(o->reader, dr);
    }
    return true;
}

struct otf2_in *otf2_open(const char *path, int64_t max_ranks, int32_t *nranks,
                          int32_t (*intern)(void *ctx, const char *name), void *intern_ctx,
                          struct sim_error *err) {
    struct otf2_in *o = xcalloc(1, sizeof *o);
    o->intern = intern, o->intern_ctx = intern_ctx;
    o->path = xstrdup(path);
    o->err = err;
    o->cur = -1;
    o->comm_locations = NO_REF;
    o->resolution = 1;
    OTF2_Error_RegisterCallback(keep_message, NULL);
    lib_message[0] = '\0';
    o->reader = OTF2_Reader_Open(path);
    bool ok = o->reader != NULL;
    if (!ok) fail(o, "cannot open as an OTF2 archive");
    if (ok) OTF2_Reader_SetSerialCollectiveCallbacks(o->reader);
    ok = ok && read_global_defs(o) && find_ranks(o, max_ranks) && plan_comms(o) && open_events(o);
    if (!ok) {
        otf2_close(o);
        return NULL;
    }
    *nranks = o->nranks;
    return o;
}

void otf2_close(struct otf2_in *o) {
    if (!o) return;
    if (o->callbacks) OTF2_EvtReaderCallbacks_Delete(o->callbacks);
    if (o->reader && o->local_defs) OTF2_Reader_CloseDefFiles(o->reader);
    if (o->reader) OTF2_Reader_Close(o->reader);
    for (uint32_t i = 0; i < o->nstrings; i++)
        free(o->strings[i]);
    for (uint32_t i = 0; i < o->ngroups; i++)
        free(o->groups[i].members);
    for (int32_t r = 0; o->ranks && r < o->nranks; r++) {
        struct orank *k = &o->ranks[r];
        for (uint32_t i = 0; i < k->count; i++)
            trace_rec_clear(&k->q[(k->head + i) % k->cap]);
        free(k->q);
        free(k->reqs);
        free(k->call.done);
        free(k->call.cancelled);
    }
    free(o->strings);
    free(o->groups);
    free(o->comms);
    free(o->regions);
    free(o->win_comm);
    free(o->ranks);
    free(o->rank_comms);
    free(o->rank_comms_at);
    free(o->keys);
    free(o->path);
    free(o);
}

/* ---- reading a rank ----------------------------------------------------------- */

/* Whether the rank's first queued record waits for its completion. */
static bool waiting(const struct orank *k) {
    int64_t first = k->pushed - k->count;
    for (int32_t i = 0; i < k->nreqs; i++)
        if (k->reqs[i].seq == first) return true;
    return false;
}

/* Reads the rank's events until its queue's first record is ready. */
static bool fill(struct otf2_in *o, struct orank *k) {
    o->cur = (int32_t)(k - o->ranks);
    if (!k->evt && !k->ended && !open_rank(o, k)) return false;
    if (!k->started && !k->pushed) prologue(o, k);
    while (!k->ended && (k->count == 0 || waiting(k))) {
        uint64_t got = 0;
        OTF2_ErrorCode rc = OTF2_EvtReader_ReadEvents(k->evt, 1, &got);
        if (o->failed) return false;
        if (rc != OTF2_SUCCESS) return lib_fail(o, rc, "reading events");
        if (got == 0) {
            k->ended = true;
            if (k->depth == 0) computation(o, k, k->last_time);
            /* definitions without events: nothing to predict, refused as
             * an empty trace is */
            if (!k->started && ++o->ranks_without_events == o->nranks)
                return fail(o,
                            "no events: the archive holds definitions only, none of its %d "
                            "rank%s recorded an event",
                            o->nranks, o->nranks == 1 ? "" : "s"),
                       false;
        }
    }
    if (k->ended && k->count && waiting(k))
        return fail(o, "the trace ends before a non-blocking receive or collective completes "
                       "(its peer and size are recorded at completion only)"),
               false;
    return true;
}

int otf2_next(struct otf2_in *o, int32_t rank, struct trace_rec *rec, struct sim_error *err) {
    struct orank *k = &o->ranks[rank];
    o->err = err;
    for (;;) {
        if (!fill(o, k)) return -1;
        if (!k->count) return 0;
        *rec = k->q[k->head];
        k->head = (k->head + 1) % k->cap;
        k->count--;
        if (rec->op != OP_DROPPED) return 1;
    }
}

void otf2_rank_done(struct otf2_in *o, int32_t rank) {
    struct orank *k = &o->ranks[rank];
    if (k->evt) OTF2_Reader_CloseEvtReader(o->reader, k->evt);
    k->evt = NULL;
    k->ended = true;
}
