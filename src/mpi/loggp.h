/* SPDX-License-Identifier: BSD-3-Clause */
/* LogGP's CPU (loggp.c): the send and receive overheads, the gap, and the
 * rank's CPU shared by its receives and its computation. */
#ifndef SIMPI_MPI_LOGGP_H
#define SIMPI_MPI_LOGGP_H

#include "mpi/sim_internal.h"

/* Its state (struct sim_cpu) for the platform's costs, and its end. */
void loggp_init(struct sim *s);
void loggp_free(struct sim *s);
simtime_t loggp_post_time_cpu(struct sim *s, int32_t rank, simtime_t now, int64_t size,
                              bool collective);
simtime_t loggp_recv_done_cpu(struct sim *s, int32_t rank, simtime_t ready, int64_t size);
/* When a send called at `now` by rank is posted (a collective's steps
 * follow one another on the rank's CPU): `now` itself without LogGP's
 * costs (inline: every message asks). */
static inline simtime_t loggp_post_time(struct sim *s, int32_t rank, simtime_t now, int64_t size,
                                        bool collective) {
    if (!s->cpu.nic_free && !s->cpu.recv_free && !s->cpu.coll_free) return now;
    return loggp_post_time_cpu(s, rank, now, size, collective);
}
/* When a receive of size bytes whose data are there at `ready` completes
 * (`ready` itself without a receive overhead). */
static inline simtime_t loggp_recv_done(struct sim *s, int32_t rank, simtime_t ready,
                                        int64_t size) {
    if (!s->cpu.recv_free) return ready;
    return loggp_recv_done_cpu(s, rank, ready, size);
}
/* When rank's computation of `duration` starts on its CPU, after the
 * receives it took on (SIMTIME_NEVER: it would end past the largest
 * time); the CPU is then busy until it ends. */
simtime_t loggp_compute_begin(struct sim *s, int32_t rank, simtime_t duration);
/* Transfer id, matched, whose data are there at `ready`, waits for its
 * receiver's CPU (loggp_recv_event takes it in turn). */
void loggp_queue_receive(struct sim *s, uint32_t id, simtime_t ready);
/* EV_RECV: the receiver's CPU is due for the least waiting transfer. */
void loggp_recv_event(void *ctx, const struct event *ev);

#endif
