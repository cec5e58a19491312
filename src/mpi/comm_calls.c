/* SPDX-License-Identifier: BSD-3-Clause */
/* The creation of communicators as the front ends call it (sim.h): each
 * is recorded for --trace-out, joins the communicator being made
 * (comm.c), tells the other workers of a split run, and costs its
 * exchange: an allgather of 8 bytes per rank, as an MPI library agrees on
 * a new communicator's context. */
#include "mpi/part.h"
#include "mpi/record.h"
#include "mpi/schedule.h"
#include "mpi/sim_internal.h"

struct request *sim_comm_split(struct sim *s, int32_t rank, int32_t comm_id, int32_t color,
                               int32_t key, int32_t new_id) {
    if (s->rec) record_comm(s, rank, comm_id, color, key, new_id, false);
    int32_t me;
    uint32_t seq;
    struct comm *c = comm_split_join(s, rank, comm_id, color, key, new_id, &me, &seq);
    if (!c) return NULL;
    if (s->split.part)
        part_post_split(s, c, me, color, key, new_id, seq); /* for the other workers */
    struct request *r = sched_start(s, rank, c, me, COLL_ALLGATHER, 8, 0, NULL, false);
    request_track(s, r, -1);
    return r;
}

void sim_comm_split_defined(struct sim *s, int32_t rank, int32_t comm_id, int32_t color,
                            int32_t key, int32_t new_id) {
    if (s->rec) record_comm(s, rank, comm_id, color, key, new_id, false);
    int32_t me;
    uint32_t seq;
    struct comm *c = comm_split_join(s, rank, comm_id, color, key, new_id, &me, &seq);
    if (!c) return;
    if (s->split.part) part_post_split(s, c, me, color, key, new_id, seq);
    (*comm_coll_seq(s, c, rank, me))++; /* the next call on c is another one */
}

struct request *sim_comm_dup(struct sim *s, int32_t rank, int32_t comm_id, int32_t new_id) {
    return sim_comm_split(s, rank, comm_id, 0, 0, new_id);
}

void sim_comm_self(struct sim *s, int32_t rank, int32_t id) {
    if (s->rec) record_comm_self(s, rank, id);
    comm_self_make(s, rank, id);
}

struct request *sim_comm_create_group(struct sim *s, int32_t rank, int32_t comm_id,
                                      const int32_t *world, int32_t n, int32_t tag,
                                      int32_t new_id) {
    if (s->rec) record_skip(s, "MPI_Comm_create_group");
    int32_t mine;
    struct comm *c = comm_group_join(s, rank, comm_id, world, n, tag, new_id, &mine);
    if (!c) return NULL;
    struct request *r = sched_start(s, rank, c, mine, COLL_ALLGATHER, 8, 0, NULL, false);
    request_track(s, r, -1);
    return r;
}

void sim_intercomm_create(struct sim *s, int32_t rank, const int32_t *local, int32_t nl,
                          const int32_t *remote, int32_t nr, int32_t tag, int32_t new_id) {
    if (s->rec) record_skip(s, "an intercommunicator");
    comm_inter_join(s, rank, local, nl, remote, nr, tag, new_id);
}
