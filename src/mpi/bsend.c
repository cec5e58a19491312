/* SPDX-License-Identifier: BSD-3-Clause */
/* Buffered sends (MPI_Bsend, docs/models.md): a rank's attached buffer
 * (struct bsend_state, made at its first buffered send or attach) holds
 * each message and MPI_BSEND_OVERHEAD bytes until it is delivered; a send
 * that finds no room stops the run with the buffer's account. The send
 * itself completes at its post (pt2pt.c's time_buffered). */
#include <stdlib.h>

#include "core/alloc.h"
#include "core/units.h"
#include "mpi/bsend.h"
#include "mpi/record.h"
#include "mpi/sim_internal.h"

/* A rank's buffered sends, made at its first (capacity 0 until a buffer
 * is attached). */
static struct bsend_state *rank_bsend(struct sim *s, int32_t rank) {
    struct rank_rare *rare = rank_rare(&s->ranks[rank]);
    if (!rare->bsend) rare->bsend = xcalloc(1, sizeof *rare->bsend);
    return rare->bsend;
}

bool bsend_reserve(struct sim *s, int32_t rank, struct request *r) {
    struct bsend_state *b = rank_bsend(s, rank);
    int64_t need = r->size + SIM_BSEND_OVERHEAD;
    int kept = 0;
    for (int i = 0; i < b->nheld; i++) {
        struct request *h = b->held[i];
        if ((h->flags & RF_MATCHED) && h->partner_time <= s->eng.now) {
            b->used -= h->size + SIM_BSEND_OVERHEAD;
            h->flags &= (uint8_t)~RF_BSEND;
            request_maybe_free(s, h);
        } else {
            b->held[kept++] = h;
        }
    }
    b->nheld = kept;
    int64_t cap = b->capacity, used = b->used;
    if (cap - used < need) {
        char tb[48];
        sim_fail(s,
                 "buffered send overflow at virtual time %s: rank %d called MPI_Bsend of %lld "
                 "bytes to rank %d, but its attached buffer of %lld bytes has %lld bytes in "
                 "flight in %d undelivered messages (%lld free)",
                 units_format_time(s->eng.now, tb, sizeof tb), rank, (long long)r->size, r->peer,
                 (long long)cap, (long long)used, b->nheld, (long long)(cap - used));
        return false;
    }
    if (b->nheld == b->cap) {
        b->cap = b->cap ? b->cap * 2 : 8;
        b->held = xrealloc_or_die(b->held, sizeof *b->held * (size_t)b->cap);
    }
    b->held[b->nheld++] = r;
    b->used += need;
    r->flags |= RF_BSEND;
    return true;
}

void sim_buffer_attach(struct sim *s, int32_t rank, int64_t size) {
    rank_bsend(s, rank)->capacity = size;
    if (s->rec) record_buffer(s, rank, size);
}

void sim_buffer_detach(struct sim *s, int32_t rank) {
    const struct rank_rare *r = s->ranks[rank].rare;
    if (r && r->bsend) r->bsend->capacity = 0;
    if (s->rec) record_buffer(s, rank, -1);
}

void bsend_free(struct rank_rare *rare) {
    if (!rare->bsend) return;
    free(rare->bsend->held);
    free(rare->bsend);
    rare->bsend = NULL;
}
