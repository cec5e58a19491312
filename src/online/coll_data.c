/* Rendezvous slots for collective data (see coll_data.h). */
#include "online/coll_data.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "mpi.h"
#include "online/dtype.h"

struct member {
    void *in; /* copy of the input */
    void *out;
    uint8_t arrived, served;
};

struct slot {
    struct slot *next;
    uint32_t ctx, seq;
    int32_t n, arrived;
    struct coll_call call; /* of the first arrival: kind, root, op, type, sizes */
    struct member *m;
};

static struct slot *slots;

static struct slot *find_slot(uint32_t ctx, uint32_t seq, int32_t n, const struct coll_call *c) {
    for (struct slot *s = slots; s; s = s->next)
        if (s->ctx == ctx && s->seq == seq) return s;
    struct slot *s = xcalloc(1, sizeof *s);
    s->ctx = ctx;
    s->seq = seq;
    s->n = n;
    s->call = *c;
    s->m = xcalloc((size_t)n, sizeof *s->m);
    s->next = slots;
    slots = s;
    return s;
}

static void drop_slot(struct slot *s) {
    for (struct slot **p = &slots; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    for (int32_t i = 0; i < s->n; i++)
        free(s->m[i].in);
    free(s->m);
    free(s);
}

/* Bytes of input a member contributes for this collective. */
static int64_t in_bytes(const struct slot *s, int32_t who) {
    int64_t block = s->call.count * s->call.esize;
    switch (s->call.kind) {
    case COLL_BCAST:
        return who == s->call.root ? block : 0;
    case COLL_SCATTER:
        return who == s->call.root ? block * s->n : 0;
    case COLL_ALLTOALL:
        return block * s->n;
    case COLL_BARRIER:
        return 0;
    default:
        return block;
    }
}

/* result = in_0 op in_1 op ... op in_(n-1), folded from the right. */
static int reduce_all(struct slot *s, void *result) {
    int64_t bytes = s->call.count * s->call.esize;
    memcpy(result, s->m[s->n - 1].in, (size_t)bytes);
    for (int32_t j = s->n - 2; j >= 0; j--) {
        int rc = op_apply(s->call.op, s->call.type, s->m[j].in, result, s->call.count);
        if (rc != 0) return rc;
    }
    return 0;
}

/* Writes member r's output; everything it depends on has arrived. */
static void serve(struct slot *s, int32_t r, const void *reduced) {
    struct member *m = &s->m[r];
    int64_t block = s->call.count * s->call.esize;
    m->served = 1;
    if (!m->out) return;
    switch (s->call.kind) {
    case COLL_BCAST:
        if (r != s->call.root) memcpy(m->out, s->m[s->call.root].in, (size_t)block);
        break;
    case COLL_SCATTER:
        memcpy(m->out, (char *)s->m[s->call.root].in + block * r, (size_t)block);
        break;
    case COLL_REDUCE:
    case COLL_ALLREDUCE:
        memcpy(m->out, reduced, (size_t)block);
        break;
    case COLL_GATHER:
    case COLL_ALLGATHER:
        for (int32_t j = 0; j < s->n; j++)
            memcpy((char *)m->out + block * j, s->m[j].in, (size_t)block);
        break;
    case COLL_ALLTOALL:
        for (int32_t j = 0; j < s->n; j++)
            memcpy((char *)m->out + block * j, (char *)s->m[j].in + block * r, (size_t)block);
        break;
    default:
        break;
    }
}

static bool root_only(enum coll_kind k) {
    return k == COLL_BCAST || k == COLL_SCATTER;
}

int coll_data_arrive(uint32_t ctx, uint32_t seq, int32_t n, int32_t me, const struct coll_call *c) {
    struct slot *s = find_slot(ctx, seq, n, c);
    struct member *m = &s->m[me];
    int64_t bytes = in_bytes(s, me);
    if (bytes > 0 && c->in) {
        m->in = xmalloc((size_t)bytes);
        memcpy(m->in, c->in, (size_t)bytes);
    }
    m->out = c->out;
    m->arrived = 1;
    s->arrived++;
    int rc = 0;
    if (root_only(s->call.kind)) {
        if (me == s->call.root) {
            for (int32_t j = 0; j < n; j++)
                if (s->m[j].arrived && !s->m[j].served) serve(s, j, NULL);
        } else if (s->m[s->call.root].arrived) {
            serve(s, me, NULL);
        }
    } else if (s->arrived == n) {
        void *reduced = NULL;
        if (s->call.kind == COLL_REDUCE || s->call.kind == COLL_ALLREDUCE) {
            reduced = xmalloc((size_t)(s->call.count * s->call.esize) + 1);
            rc = reduce_all(s, reduced);
        }
        for (int32_t j = 0; j < n && rc == 0; j++)
            serve(s, j, reduced);
        free(reduced);
    }
    if (s->arrived == n) drop_slot(s);
    return rc;
}
