/* SPDX-License-Identifier: BSD-3-Clause */
/* A rank's records made comparable across scales before extrapolation
 * (extrapolate.c): request ids renumbered as the lowest free one (a
 * recording numbers them in order, so they drift when a loop runs more
 * times at a larger scale), and loops whose iterations differ by a step
 * (the tag +-1, the peer's XOR distance doubled or halved, as recursive
 * halving and doubling do: NPB CG's log2 P reduction steps; the peer's
 * rank +-1, a master's loop over the ranks) folded into one body whose
 * count is fitted across the scales. */
#ifndef SIMPI_EXTRAPOLATE_FOLD_H
#define SIMPI_EXTRAPOLATE_FOLD_H

#include <stdbool.h>
#include <stdint.h>

#include "replay/trace.h"

/* What a record of a folded loop's body does from one iteration to the
 * next. A stepped value at iteration t of M is base + t (dir +1), base +
 * M - 1 - t (dir -1) or base (dir 0): a tag, or the exponent of a peer's
 * XOR distance (the peer is rank ^ 2^value). */
enum { PEER_RANK_STEP = 2 };
struct step {
    int32_t iters;  /* its loop's iterations at this scale (1: no loop) */
    int16_t len;    /* on a loop's first record: the body's records (else 0) */
    int8_t tag_dir; /* the tag's step */
    int8_t req_dir; /* the request id's (1: one more an iteration) */
    /* each peer field's step: its XOR exponent's (+-1), or the peer's
     * rank's (+-PEER_RANK_STEP: a master's loop over the ranks) */
    int8_t peer_dir[2];
    union {
        float gap; /* on a loop's first record: the mean burst between iterations (ps) */
        /* a variable-count collective's counts (never in a loop), kept as
         * their mean per peer and how far one is from it at most (relative) */
        struct {
            float sent, received, spread[2];
        };
    };
};

/* Writes a waitall whose ids are every request outstanding as a waitall
 * of all (its list's length then no longer follows the loop that posted
 * them: a master's receives from each worker). */
void wait_all_outstanding(struct trace_rec *rec, int32_t n);

/* Renumbers the request ids of a rank's n records (req, and the ids of
 * waits, tests, cancels and frees) as the lowest id free when the request
 * starts; a wait, waitall, cancel or free frees it. */
void renumber_requests(struct trace_rec *rec, int32_t n);

/* How fold_step_loops folds: FOLD_ANY_BLOCK, a body may start with any
 * call, the repetitions then the same record for record (BT's sqrt P
 * cells); FOLD_SEND_SIZES, the sizes a send carries may differ from one
 * repetition to the next (SP's cells, each its own extents), folded as
 * their mean; FOLD_RANK_STEPS, a peer may step by rank (+-1 an iteration:
 * a master's loop over the workers) where it does not by XOR exponent,
 * and a request id by one; FOLD_SEGMENTS, a body may also be whole
 * segments up to a blocking collective, thousands of records, repeated 3
 * times or more, tried first (a time step ended by an allreduce of its
 * dt, run as many times as the physics needs). */
enum { FOLD_ANY_BLOCK = 1, FOLD_SEND_SIZES = 2, FOLD_RANK_STEPS = 4, FOLD_SEGMENTS = 8 };

/* A send: a record whose size is what it sends (a sendrecv's first). */
static inline bool sends_size(const struct trace_rec *x) {
    return x->op == TOP_SEND || x->op == TOP_ISEND || x->op == TOP_SENDRECV;
}

/* Folds the stepped loops of rank's n records in place (rec, and ord:
 * each record's number in the trace), steps filled for the records that
 * remain (the caller's array of n); returns how many remain. A body
 * starts with a record that steps (or as how says) and ends with a call,
 * the bursts between its iterations averaged into gap, each of its
 * bursts the mean over the iterations (and its sends' sizes, as how
 * says: *spread, if larger, the farthest one's relative distance from
 * its mean, *worst its record's number). Folded records' lists are
 * freed. */
int32_t fold_step_loops(struct trace_rec *rec, int32_t *ord, struct step *step, int32_t n,
                        int32_t rank, unsigned how, double *spread, int32_t *worst);

/* Communicators on which tags only order messages: on every channel
 * (sender, receiver) the receives name the tags the sends carry, in the
 * same order, and no receive from any source names a tag. Dropping the
 * tags there matches every message as before (MPI's non-overtaking
 * rule), and makes tags that number cells rank by rank (NPB BT's) the
 * same on every rank. */
enum { FIFO_COMMS = 64 };
struct fifo_comms {
    int32_t comm[FIFO_COMMS];
    bool ok[FIFO_COMMS];
    int n;
};

/* Checks the n ranks' records (rec[r], count[r]) of one scale, each
 * communicator's verdict ANDed into f. */
void fifo_check(struct trace_rec *const *rec, const int32_t *count, int32_t n,
                struct fifo_comms *f);

/* Sets the tags of point-to-point records on f's consistent
 * communicators to 0. */
void drop_tags(struct trace_rec **rec, const int32_t *count, int32_t n, const struct fifo_comms *f);

/* Sorts runs of calls to distinct peers (irecvs, sends, a blocking send
 * recorded as isend and wait), a burst between each, by their peers'
 * codes (code(ctx, rank, peer), above 0; a run with another is left as
 * it is), and runs of waits by their requests: a program that posts its
 * receives in the order of its neighbours' ranks (miniFE's, on ranks
 * laid out by recursive bisection) does the same on every rank of a
 * position once sorted. The request ids stay in the order posted, and
 * their waits follow them. Returns the runs sorted. */
int32_t sort_neighbour_runs(struct trace_rec *rec, int32_t *ord, struct step *step, int32_t n,
                            int32_t rank,
                            int32_t (*code)(const void *ctx, int32_t rank, int32_t peer),
                            const void *ctx);

/* Whether x is a collective with a count per peer (alltoallv ...). */
static inline bool has_counts(const struct trace_rec *x) {
    return (x->op == TOP_COLL || x->op == TOP_ICOLL) && (x->mode & 4);
}

/* The XOR exponent of a peer q of rank r (-1: q is not r ^ 2^e). */
int xor_exponent(int32_t r, int32_t q);

/* A stepped value at iteration t of iters. */
static inline int32_t stepped(int32_t base, int dir, int32_t t, int32_t iters) {
    return dir > 0 ? base + t : dir < 0 ? base + iters - 1 - t : base;
}

#endif
