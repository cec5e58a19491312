/* SPDX-License-Identifier: BSD-3-Clause */
/* Messages that take effect at a rank later (land.c), and those they carry:
 * storage (io.c), one-sided operations (rma.c). */
#ifndef SIMPI_MPI_LAND_H
#define SIMPI_MPI_LAND_H

#include "mpi/sim_internal.h"

/* land.c */
/* EV_LAND: the least landing takes effect. */
void land_event(void *ctx, const struct event *ev);
void land_init(struct sim *s);
/* Whose a landing is: the front end's (sim_land), or the MPI layer's
 * shared storage (io.c: a request reaching its server, the reply). */
enum {
    LAND_FRONT,
    LAND_STORAGE_REQUEST,
    LAND_STORAGE_REPLY,
    LAND_CANCEL_REQUEST,
    LAND_CANCEL_REPLY,
    LAND_RMA_TARGET,   /* replay: an operation's target side (rma.c) */
    LAND_RMA_LOCK,     /* one-sided synchronisation (rma.c): a lock request, */
    LAND_RMA_GRANT,    /* its grant, */
    LAND_RMA_RELEASE,  /* an unlock, */
    LAND_RMA_POST,     /* a post, */
    LAND_RMA_COMPLETE, /* a complete */
};
void land_post(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint8_t kind,
               const struct sim_piece *pieces, int n);
/* pt2pt.c: a cancellation's landing (a send's, at its receiver, and the
 * answer) takes effect at rank target. */
void pt2pt_cancel_land(struct sim *s, uint8_t kind, int32_t target, const void *msg, uint32_t len);
/* io.c: a storage landing takes effect at rank target. */
void io_land(struct sim *s, uint8_t kind, int32_t target, int32_t origin, const void *msg,
             uint32_t len);
/* A landing that crossed from another worker (part.c), with its origin's count. */
void land_accept(struct sim *s, int32_t origin, int32_t target, simtime_t at, uint32_t seq,
                 uint8_t kind, const void *msg, uint32_t len);
void land_free_all(struct sim *s);

void rma_land(struct sim *s, int32_t target, const void *msg, uint32_t len);
void rma_sync_land(struct sim *s, uint8_t kind, int32_t target, const void *msg, uint32_t len);
/* io.c */
void io_free_all(struct sim *s);
void rma_free_all(struct sim *s);

#endif
