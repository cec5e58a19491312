/* SPDX-License-Identifier: BSD-3-Clause */
/* Recording the run as a trace (record.c). */
#ifndef SIMPI_MPI_RECORD_H
#define SIMPI_MPI_RECORD_H

#include "mpi/sim_internal.h"

/* record.c: each called only when s->rec is set */
void record_skip(struct sim *s, const char *what);
void record_compute(struct sim *s, int32_t rank, simtime_t duration);
/* A signal with the id sim_find_request knows it by (-1: none). */
struct request *signal_new_id(struct sim *s, int32_t rank, int32_t peer, const char *what,
                              int32_t id);
/* rma_put|rma_get TARGET SIZE comm=C req=N (the origin's side) */
void record_rma(struct sim *s, struct request *r, int32_t comm_id, int32_t target, int64_t size,
                int kind);
/* rma_lock, rma_unlock, rma_grants, rma_post, rma_complete, rma_start,
 * rma_wait records (rma.c's synchronisation) */
void record_rma_sync(struct sim *s, int32_t rank, int32_t comm_id, int kind, int32_t peer,
                     bool exclusive, const int32_t *group, int n);
/* file_io BYTES req=N (its wait records follow), round_trip PEER */
void record_io(struct sim *s, struct request *r, int64_t bytes);
void record_round_trip(struct sim *s, int32_t rank, int32_t peer);
void record_p2p(struct sim *s, struct request *r, int32_t comm_id, int32_t peer, int32_t tag,
                int64_t size, bool send, enum send_mode mode);
void record_coll(struct sim *s, struct request *r, int32_t comm_id, enum coll_kind kind,
                 int64_t size, int32_t root, const struct sched_counts *v, bool nonblocking);
void record_wait(struct sim *s, int32_t rank, struct request **reqs, int n, bool any);
void record_test(struct sim *s, int32_t rank, const struct request *req);
void record_cancel(struct sim *s, int32_t rank, const struct request *req);
void record_free(struct sim *s, int32_t rank, const struct request *req);
void record_comm(struct sim *s, int32_t rank, int32_t parent, int32_t color, int32_t key,
                 int32_t new_id, bool dup);
void record_comm_self(struct sim *s, int32_t rank, int32_t id);
void record_buffer(struct sim *s, int32_t rank, int64_t size);
/* A split run: the operations a trace could not express, here, and those
 * of the other workers, counted in by the first. */
int64_t record_skipped(const struct sim *s);
void record_skipped_elsewhere(struct sim *s, int64_t n);
void record_interval(struct sim *s, int32_t rank, const char *name);

#endif
