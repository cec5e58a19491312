/* SPDX-License-Identifier: BSD-3-Clause */
/* Point-to-point (pt2pt.c): the sends and receives of user calls and
 * schedules, matching and the protocols. */
#ifndef SIMPI_MPI_PT2PT_H
#define SIMPI_MPI_PT2PT_H

#include "mpi/sim_internal.h"

/* pt2pt.c: internal send/receive used by user calls and schedules */
struct request *pt2pt_post_send(struct sim *s, int32_t rank, struct comm *c, int32_t myrank,
                                uint32_t ctx, int32_t dest, int32_t tag, int64_t size,
                                enum send_mode mode, struct sched *owner, simtime_t at,
                                const void *buf);
struct request *pt2pt_post_recv(struct sim *s, int32_t rank, struct comm *c, uint32_t ctx,
                                int32_t source, int32_t tag, int64_t size, struct sched *owner,
                                simtime_t at, struct sim_recv_target *target);
/* Applies the protocol to a matched pair (the file comment's times). */
void pt2pt_match(struct sim *s, struct request *send, struct request *recv);
/* Frees the payloads of messages never received (at the end of a run). */
void pt2pt_free_payloads(struct sim *s);
/* A rank's any-source receive decides: the earliest candidate has arrived. */
void pt2pt_any_event(void *ctx, const struct event *ev);
/* The contention model's hook: transfer (index) `arg` has arrived. */
void pt2pt_transfer_done(void *ctx, void *arg);
/* A stand-in for a send of another worker (part.c) meets its receiver's
 * queues, as the send would have when posted. */
void pt2pt_accept_remote(struct sim *s, struct request *proxy);
/* Whether a send is done when posted and nothing about its receipt matters
 * to its sender (an eager standard or ready send): a split run then sends
 * no update back. */
bool pt2pt_done_at_post(const struct sim *s, const struct request *send);
/* The sender's worker learns what became of its send r on the receiver's. */
void pt2pt_remote_update(struct sim *s, struct request *r, uint8_t flags, simtime_t done,
                         simtime_t partner);
/* The completion of a matched transfer whose data have arrived (at its
 * `arrival`), which frees it (sim.up.transfer_arrived); with a
 * receive overhead, once the receiver's CPU takes it (loggp.c). */
void pt2pt_finish_transfer(struct sim *s, uint32_t id);

/* pt2pt.c: a posted receive withdrawn and ended as failed (now). */
void pt2pt_fail_recv(struct sim *s, struct request *r);
int64_t pt2pt_unmatched(const struct sim *s);
/* At the run's end: the messages sent but never received count as their
 * senders' (sent, unlike received, they were). */
void pt2pt_count_unmatched_sent(struct sim *s);
/* Counts send q, never received, as its sender's. */
void pt2pt_count_sent(struct sim *s, struct request *q);

#endif
