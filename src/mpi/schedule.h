/* SPDX-License-Identifier: BSD-3-Clause */
/* Collectives: their schedules (sched.c) and Dimemas' analytic model
 * (analytic.c). */
#ifndef SIMPI_MPI_SCHEDULE_H
#define SIMPI_MPI_SCHEDULE_H

#include "mpi/sim_internal.h"

/* sched.c */
struct request *sched_start(struct sim *s, int32_t rank, struct comm *c, int32_t myrank,
                            enum coll_kind kind, int64_t size, int32_t root,
                            const struct sched_counts *v, bool nonblocking);
void sched_notify(struct sim *s, struct sched *sc, simtime_t done);
/* Advances every schedule whose round completed; call after each event. */
void sched_drain(struct sim *s);
void sched_describe(struct sim *s, struct sched *sc);
int sched_targets(const struct sched *sc, int32_t *out, int max);
/* Reads the platform's mpi.coll map (an algorithm forced per operation). */
bool sched_read_forced(struct sim *s, struct sim_error *err);
/* The analytic model (analytic.c): registers req, this member's part of
 * collective `tag` on c; completes every member once all have arrived. */
struct request *analytic_start(struct sim *s, struct request *req, struct comm *c, int32_t myrank,
                               enum coll_kind kind, int64_t size, int32_t root, uint32_t tag);
void analytic_free_all(struct sim *s);
/* Frees the variable counts of schedules a stopped run left unfinished. */
void sched_free_all_counts(struct sim *s);
/* Marks a step of sc with the collective it belongs to (`coll`) and the
 * collective's root (`user_id`): what the mismatch check compares, even
 * once the step has left its schedule. */
void sched_mark(const struct sched *sc, struct request *step);
/* Whether the schedules of a matched collective message are the same
 * operation (and root); if not, stops the run with a mismatch report. */
bool sched_check_partner(struct sim *s, const struct request *send, const struct request *recv);

/* steps.c: a collective's steps matched apart from users' messages. A
 * step's send (posted, its receiver here) meets its receiver's waiting
 * steps; a step's receive meets the sends that came first. */
void steps_send(struct sim *s, struct request *send);
void steps_recv(struct sim *s, struct request *recv);
/* fn on every step's send no receive took (at the end of a run). */
void steps_each_unmatched(struct sim *s, void (*fn)(struct sim *s, struct request *send));
int64_t steps_unmatched(const struct sim *s);

/* sched.c: a collective whose communicator has a failed member ends as
 * failed (its schedule runs on without it); false if none failed. */
bool sched_fail(struct sim *s, struct request *req);

/* A member's arrival at a collective of Dimemas' analytic model (analytic.c). */
struct an_arrival {
    uint32_t ctx, tag;
    int32_t myrank, root, world;
    uint8_t kind;
    int64_t m, sr; /* max(sent, received) and sent + received */
    simtime_t at;
};

/* analytic.c: another worker's member arrived (part.c). */
void analytic_arrive(struct sim *s, struct comm *c, const struct an_arrival *a);

#endif
