/* SPDX-License-Identifier: BSD-3-Clause */
/* Structures shared by the analysis files: the interval tree (intervals.c)
 * and the writers fed by the observer (paraver.c, chrome.c, html.c). */
#ifndef SIMPI_ANALYSIS_INTERNAL_H
#define SIMPI_ANALYSIS_INTERNAL_H

#include "core/divide.h"
#include "report/analysis.h"
#include "report/summary.h"

#define MAX_INTERVALS 4096

/* What one rank did inside one interval (times in picoseconds). exec and
 * entries are the interval's own; the others exclude nested intervals until
 * intervals_integrate adds them in. Its time in collectives is kept apart,
 * per kind (struct inode's coll): most intervals see a few kinds, or none. */
struct acc {
    simtime_t exec, cpu, p2p, other, sync_loss, overlap;
    int64_t entries;
};

struct inode {
    char *name;
    int32_t parent, depth;
    struct acc *rank; /* [nranks], allocated when first entered */
    simtime_t **coll; /* per kind of collective: each rank's time in it ([nranks], a rank
                         table), allocated when the kind is first timed here; NULL until one */
    simtime_t spread_sum, spread_max; /* collective completion spread */
    int64_t coll_calls;
    /* when it was first entered: time, rank, that rank's count of entries
     * (the engine's order, in which a split run's first worker renumbers) */
    simtime_t first_t;
    int32_t first_rank, first_seq;
};

/* Rank r's time in collectives of kind k inside node n, and in all kinds. */
static inline simtime_t inode_coll(const struct inode *n, int k, int32_t r) {
    return n->coll && n->coll[k] ? n->coll[k][r] : 0;
}
simtime_t inode_coll_total(const struct inode *n, int32_t r);

/* An interval's characteristics over its ranks (docs/analysis.md). */
struct interval_totals {
    int32_t ranks;  /* ranks that entered it */
    simtime_t time; /* T: longest execution time over ranks */
    double cpu, comm, idle, imbalance, sync_loss, overlap, lost, efficiency; /* seconds */
    double p2p, other, coll[COLL_KINDS];
};

/* An interval a rank is in, and when it entered it. */
struct track_entry {
    simtime_t entered;
    int32_t node;
};

struct rank_track {
    struct track_entry *stack; /* the intervals it is in, innermost last */
    int32_t depth, cap;
    int32_t enters; /* intervals entered so far */
    simtime_t last; /* the end of its latest period (a failed run's unfinished ranks) */
};

struct pending_coll; /* a collective call some members have finished */

struct intervals {
    int32_t nranks, nnodes;
    struct inode nodes[MAX_INTERVALS];
    int32_t by_name[2 * MAX_INTERVALS]; /* (parent, name) -> node + 1, open addressing */
    struct rank_track *track;
    struct pending_coll **colls; /* open addressing by call id */
    size_t colls_cap, colls_used;
    int64_t unbalanced; /* interval ends without a begin, intervals left open */
    char first_unbalanced[256];
    bool too_many;         /* MAX_INTERVALS reached */
    bool cpu_not_measured; /* --cpu=ignore: efficiency is not measured */
    bool integrated;
    bool merged; /* a split run's first worker took other workers' intervals in */
    /* a split run's first worker: the last blob's nodes in this tree
     * (unpack_map[i]), then, once renumbered, each node's final number */
    int32_t *unpack_map, unpack_n;
    int32_t *renumbered, renumbered_n;
};

void intervals_init(struct intervals *iv, int32_t nranks);
void intervals_free(struct intervals *iv);
void intervals_period(struct intervals *iv, const struct sim_period *p);
/* Returns the node entered (or left: the node now current). */
int32_t intervals_enter(struct intervals *iv, int32_t rank, simtime_t t, const char *name);
int32_t intervals_leave(struct intervals *iv, int32_t rank, simtime_t t);
void intervals_finish(struct intervals *iv, int32_t rank, simtime_t t);
/* After the run: adds nested intervals into their parents. */
void intervals_integrate(struct intervals *iv, const struct sim *s);
void intervals_totals(const struct intervals *iv, int32_t node, struct interval_totals *t);
/* A split run (docs/parallel.md): a worker's observations of the ranks it
 * owns (the whole program's per-rank figures) and its collective calls
 * still waiting for members of other workers, appended to *buf; the first
 * worker adds them to its own, completing those calls. Unpack returns the
 * bytes read, 0 if the blob is malformed. */
struct blob {
    char *data;
    size_t len, cap;
};
void blob_put(struct blob *b, const void *p, size_t n);
void intervals_pack(const struct intervals *iv, bool (*owns)(void *ctx, int32_t rank), void *ctx,
                    struct blob *b);
size_t intervals_unpack(struct intervals *iv, const char *p, size_t len);
int32_t intervals_current(const struct intervals *iv, int32_t rank);

struct paraver;
struct paraver *paraver_open(const struct sim *s, const char *prefix, struct sim_error *err);
/* A split run: every record a worker made (of its ranks), for the first,
 * which takes them in, their intervals given by `map` (the blob's node i is
 * map[i] here; n of them). Unpack returns the bytes read, 0 if malformed. */
void paraver_pack(struct paraver *pv, struct blob *b);
size_t paraver_unpack(struct paraver *pv, const char *p, size_t len, const int32_t *map, int32_t n);
void paraver_period(struct paraver *pv, const struct sim_period *p);
void paraver_instant(struct paraver *pv, int32_t rank, simtime_t t, enum sim_call c);
void paraver_message(struct paraver *pv, const struct sim_message *m);
void paraver_interval(struct paraver *pv, int32_t rank, simtime_t t, int32_t node);
bool paraver_close(struct paraver *pv, const struct intervals *iv, simtime_t end,
                   struct sim_error *err);
/* The run's faults (docs/faults.md), as events of type "simpi fault" on
 * rank 0's row (value: the fault's number from 1, named in the .pcf), and
 * as global instants of the Chrome trace; the log outlives the close. */
void paraver_faults(struct paraver *pv, const struct sim_fault_note *log, size_t n);

struct chrome;
struct chrome *chrome_open(const struct sim *s, const char *path, const char *what,
                           struct sim_error *err);
/* The same events, written as an OTF2 timeline in the new folder dir
 * (--otf2 DIR, otf2_timeline.c) when closed. */
struct chrome *chrome_open_otf2(const struct sim *s, const char *dir, const char *what,
                                struct sim_error *err);
void chrome_period(struct chrome *c, const struct sim_period *p);
void chrome_instant(struct chrome *c, int32_t rank, simtime_t t, enum sim_call call);
void chrome_message(struct chrome *c, const struct sim_message *m);
void chrome_interval(struct chrome *c, int32_t rank, simtime_t t, const char *name);
/* Writes the file (err NULL: discards it). */
bool chrome_close(struct chrome *c, struct sim_error *err);
void chrome_faults(struct chrome *c, const struct sim_fault_note *log, size_t n);
/* A split run: a worker's events for the first, which adds them to its own
 * (unpack returns the bytes read, 0 if malformed). */
void chrome_pack(const struct chrome *c, struct blob *b);
size_t chrome_unpack(struct chrome *c, const char *p, size_t len);

/* Messages and bytes from rank to rank, ranks grouped into at most
 * MATRIX_GROUPS (a square of groups x groups cells). */
#define MATRIX_GROUPS 64
/* A cell's two counts side by side: a message adds to both, one line. */
struct matrix_cell {
    int64_t msgs, bytes;
};
struct comm_matrix {
    int32_t groups, group_size;
    struct divisor by_group;  /* a rank's group: a division a message (two were 1% of a replay) */
    struct matrix_cell *cell; /* [groups * groups], by (sender's group, receiver's) */
};
void matrix_json(const struct comm_matrix *m, FILE *f);

struct timeline;
struct critpath;
struct timeline *timeline_open(const struct sim *s, const char *ranks, struct sim_error *err);
void timeline_period(struct timeline *tl, const struct sim_period *p);
void timeline_message(struct timeline *tl, const struct sim_message *m);
bool report_write(const char *path, struct timeline *tl, const struct intervals *iv,
                  const struct comm_matrix *mx, const struct critpath *cp, const struct sim *s,
                  const struct run_info *info, const char *command, struct sim_error *err);
void timeline_free(struct timeline *tl);
/* A split run: a worker's timeline records of its ranks that may be shown
 * (and of the messages they received), for the first worker, which adds
 * them to its own; unpack returns the bytes read, 0 if malformed. */
void timeline_pack(struct timeline *tl, const struct sim *s, bool (*owns)(void *ctx, int32_t rank),
                   void *ctx, struct blob *b);
size_t timeline_unpack(struct timeline *tl, const char *p, size_t len);

/* Parses a --timeline-ranks list of ranks below n into out (at most max);
 * returns the count, or -1 (err says why). */
int analysis_rank_list(const char *list, int32_t n, int32_t *out, int max, struct sim_error *err);
/* One interval as a JSON object (with per-rank arrays if per_rank). */
void analysis_interval_json(const struct intervals *iv, int32_t i, FILE *f, bool per_rank);

/* critpath.c: the critical path (docs/analysis.md), from the periods and
 * messages observed; computed at the end of the run. */
enum { CP_COMPUTE, CP_MESSAGE, CP_MPI };
struct cp_totals {
    simtime_t length, computation, latency, transfer, waiting;
    int64_t bursts, messages;
};
/* A piece of the path, latest first: a burst or an MPI call's own time on
 * rank (from == rank), or a message from rank `from` at t0 to rank at t1. */
struct cp_segment {
    simtime_t t0, t1;
    int32_t rank, from;
    uint8_t kind;
};
struct critpath;
struct critpath *critpath_open(const struct sim *s);
void critpath_period(struct critpath *cp, const struct sim_period *p);
void critpath_message(struct critpath *cp, const struct sim_message *m);
void critpath_finish_rank(struct critpath *cp, int32_t rank, simtime_t t);
/* A split run: a worker's records of its ranks (and of the messages they
 * received) for the first, which adds them to its own; unpack returns the
 * bytes read, 0 if malformed. */
struct blob;
void critpath_pack(const struct critpath *cp, bool (*owns)(void *ctx, int32_t rank), void *ctx,
                   struct blob *b);
size_t critpath_unpack(struct critpath *cp, const char *p, size_t len);
void critpath_compute(struct critpath *cp, const struct sim *s);
/* NULL when not computed. */
const struct cp_totals *critpath_totals(const struct critpath *cp);
const struct cp_segment *critpath_segments(const struct critpath *cp, size_t *n);
void critpath_print(const struct critpath *cp, FILE *out);
void critpath_json(const struct critpath *cp, FILE *f);
void critpath_free(struct critpath *cp);

/* Appends a time in seconds with enough digits for picoseconds. */
double analysis_seconds(simtime_t t);

#endif
