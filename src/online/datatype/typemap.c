/* SPDX-License-Identifier: BSD-3-Clause */
/* The datatype engine: derived datatypes built by flattening their typemap
 * into byte blocks, their bounds (with MPI-1's sticky markers), packing and
 * unpacking, reference counts, and how each was made (envelopes). The MPI
 * entry points over it are in src/online/api/datatype.c. */
#include "online/datatype/typemap.h"

#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "mpi.h"
#include "online/datatype/predefined.h"

struct dtype {
    int64_t size, lb, extent, true_lb, true_ub, nbasic;
    struct dt_block *blocks;
    int nblocks, basic, align;
    /* explicit bounds: MPI_LB / MPI_UB markers, or a resized type (MPI-3.1
     * 4.1.7: they are sticky and win over the data's bounds) */
    bool has_lb, has_ub;
    struct dt_envelope env; /* how it was made (MPI_Type_get_envelope / contents) */
    int refs;               /* operations still using it (requests, file views) */
    bool user_freed;        /* MPI_Type_free was called: gone with the last reference */
    bool committed, used;
};

static struct dtype *types; /* index t - DT_FIRST_DERIVED */
static int ntypes, cap;

static struct dtype *get(int t) {
    if (t < DT_FIRST_DERIVED || t - DT_FIRST_DERIVED >= ntypes) return NULL;
    struct dtype *d = &types[t - DT_FIRST_DERIVED];
    return d->used ? d : NULL;
}

int64_t dt_size(int t) {
    if (t > 0 && t < DT_FIRST_DERIVED) return dtype_size(t);
    struct dtype *d = get(t);
    return d ? d->size : -1;
}

int64_t dt_extent(int t) {
    struct dtype *d = get(t);
    return d ? d->extent : dt_size(t);
}

int64_t dt_lb(int t) {
    struct dtype *d = get(t);
    return d ? d->lb : 0;
}

int64_t dt_true_lb(int t) {
    struct dtype *d = get(t);
    return d ? d->true_lb : 0;
}

int64_t dt_true_extent(int t) {
    struct dtype *d = get(t);
    return d ? d->true_ub - d->true_lb : dt_size(t);
}

bool dt_predefined(int t) {
    return !get(t) && dt_size(t) >= 0;
}

bool dt_committed(int t) {
    struct dtype *d = get(t);
    return !d || d->committed;
}

bool dt_contiguous(int t) {
    struct dtype *d = get(t);
    if (!d) return true;
    return d->nblocks == 1 && d->blocks[0].off == 0 && d->blocks[0].len == d->extent && d->lb == 0;
}

int dt_basic(int t, int64_t *per_element) {
    struct dtype *d = get(t);
    if (!d) {
        *per_element = 1;
        return t;
    }
    *per_element = d->nbasic;
    return d->basic;
}

/* The blocks of one element of t (a predefined type is one block). */
const struct dt_block *dt_blocks(int t, int *n, struct dt_block *one) {
    struct dtype *d = get(t);
    if (d) {
        *n = d->nblocks;
        return d->blocks;
    }
    one->off = 0;
    one->len = dtype_size(t);
    *n = 1;
    return one;
}

static void add_block(struct dtype *d, int *cap_blocks, int64_t off, int64_t len) {
    if (len <= 0) return;
    if (d->nblocks && d->blocks[d->nblocks - 1].off + d->blocks[d->nblocks - 1].len == off) {
        d->blocks[d->nblocks - 1].len += len; /* merge with the previous block */
        return;
    }
    if (d->nblocks == *cap_blocks) {
        *cap_blocks = *cap_blocks ? *cap_blocks * 2 : 8;
        d->blocks = xrealloc_or_die(d->blocks, sizeof *d->blocks * (size_t)*cap_blocks);
    }
    d->blocks[d->nblocks++] = (struct dt_block){off, len};
}

static int alignment_of(int t) {
    struct dtype *d = get(t);
    if (d) return d->align;
    int s = dtype_size(t);
    if (t == MPI_FLOAT_INT || t == MPI_DOUBLE_INT || t == MPI_LONG_INT || t == MPI_2INT ||
        t == MPI_SHORT_INT || t == MPI_LONG_DOUBLE_INT || t == MPI_2INTEGER || t == MPI_2REAL ||
        t == MPI_2DOUBLE_PRECISION)
        return s >= 16 ? 16 : s >= 8 ? 8 : 4;
    if (t == MPI_COMPLEX || t == MPI_COMPLEX8 || t == MPI_C_FLOAT_COMPLEX || t == MPI_2COMPLEX ||
        t == MPI_CXX_FLOAT_COMPLEX)
        return 4; /* complex types align as their parts */
    if (t == MPI_DOUBLE_COMPLEX || t == MPI_COMPLEX16 || t == MPI_C_DOUBLE_COMPLEX ||
        t == MPI_2DOUBLE_COMPLEX || t == MPI_CXX_DOUBLE_COMPLEX)
        return 8;
    return s > 16 ? 16 : s < 1 ? 1 : s;
}

static int new_handle(void) {
    if (ntypes == cap) {
        cap = cap ? cap * 2 : 64;
        types = xrealloc_or_die(types, sizeof *types * (size_t)cap);
    }
    memset(&types[ntypes], 0, sizeof *types);
    types[ntypes].used = true;
    return DT_FIRST_DERIVED + ntypes++;
}

/* The explicit bounds met while building a type. */
struct markers {
    bool has_lb, has_ub;
    int64_t lb, ub;
};

static void mark(struct markers *m, bool upper, int64_t at) {
    if (upper && (!m->has_ub || at > m->ub)) m->ub = at, m->has_ub = true;
    if (!upper && (!m->has_lb || at < m->lb)) m->lb = at, m->has_lb = true;
}

/* Appends `len` elements of old at byte displacement disp. */
static void append(struct dtype *d, int *cap_blocks, int old, int64_t disp, int len, bool *first,
                   struct markers *m) {
    struct dt_block one;
    int nb;
    const struct dt_block *b = dt_blocks(old, &nb, &one);
    int64_t ext = dt_extent(old), lb = dt_lb(old);
    for (int k = 0; k < len; k++)
        for (int i = 0; i < nb; i++)
            add_block(d, cap_blocks, disp + k * ext + b[i].off, b[i].len);
    if (len <= 0) return;
    int64_t lo = disp + lb, hi = disp + lb + len * ext;
    struct dtype *od = get(old);
    if (od && od->has_lb) mark(m, false, ext >= 0 ? lo : lo + (len - 1) * ext);
    if (od && od->has_ub) mark(m, true, ext >= 0 ? hi : disp + lb + ext);
    int64_t tlo = disp + dt_true_lb(old),
            thi = disp + (len - 1) * ext + dt_true_lb(old) + dt_true_extent(old);
    if (*first || lo < d->lb) d->lb = lo;
    if (*first || hi > d->lb + d->extent) d->extent = hi - d->lb;
    if (*first || tlo < d->true_lb) d->true_lb = tlo;
    if (*first || thi > d->true_ub) d->true_ub = thi;
    *first = false;
}

/* Explicit bounds replace the data's (a type of no data takes them alone). */
static void apply_markers(struct dtype *d, const struct markers *m, bool no_data) {
    int64_t ub = d->lb + d->extent;
    if (m->has_lb) d->lb = m->lb;
    if (m->has_ub) ub = m->ub;
    if (no_data && !m->has_ub) ub = d->lb;
    if (no_data && !m->has_lb) d->lb = m->has_ub ? m->ub : 0;
    d->extent = ub - d->lb;
    d->has_lb = m->has_lb;
    d->has_ub = m->has_ub;
}

int dt_create_blocks(int count, const int *blocklens, const int64_t *displs, const int *ts,
                     bool is_struct, int *out) {
    for (int i = 0; i < count; i++)
        if (dt_size(ts[i]) < 0 || blocklens[i] < 0)
            return blocklens[i] < 0 ? MPI_ERR_ARG : MPI_ERR_TYPE;
    int h = new_handle();
    struct dtype *d = get(h);
    int cap_blocks = 0, basic = -1;
    bool first = true;
    struct markers m = {0};
    d->align = 1;
    for (int i = 0; i < count; i++) {
        if (ts[i] == MPI_LB || ts[i] == MPI_UB) { /* a bound, no data */
            mark(&m, ts[i] == MPI_UB, displs[i]);
            continue;
        }
        append(d, &cap_blocks, ts[i], displs[i], blocklens[i], &first, &m);
        int64_t per;
        int b = dt_basic(ts[i], &per);
        basic = basic == -1 || basic == b ? b : 0;
        d->nbasic += per * blocklens[i];
        d->size += dt_size(ts[i]) * blocklens[i];
        if (alignment_of(ts[i]) > d->align) d->align = alignment_of(ts[i]);
    }
    d->basic = basic < 0 ? 0 : basic;
    if (is_struct && d->extent % d->align && !m.has_ub)
        d->extent += d->align - d->extent % d->align;
    apply_markers(d, &m, first);
    *out = h;
    return MPI_SUCCESS;
}

int dt_create_resized(int old, int64_t lb, int64_t extent, int *out) {
    int one = 1;
    int64_t zero = 0;
    int rc = dt_create_blocks(1, &one, &zero, &old, false, out);
    if (rc != MPI_SUCCESS) return rc;
    struct dtype *d = get(*out);
    d->lb = lb;
    d->extent = extent;
    d->has_lb = d->has_ub = true;
    return MPI_SUCCESS;
}

int dt_commit(int t) {
    struct dtype *d = get(t);
    if (d) d->committed = true;
    return d || dt_size(t) > 0 ? MPI_SUCCESS : MPI_ERR_TYPE;
}

static void destroy(struct dtype *d) {
    free(d->blocks);
    free(d->env.ints);
    free(d->env.aints);
    free(d->env.types);
    memset(d, 0, sizeof *d); /* handles are not reused */
}

int dt_free(int t) {
    struct dtype *d = get(t);
    if (!d || d->user_freed) return MPI_ERR_TYPE;
    if (d->refs > 0) /* MPI: freed once the operations using it are done */
        d->user_freed = true;
    else
        destroy(d);
    return MPI_SUCCESS;
}

void dt_retain(int t) {
    struct dtype *d = get(t);
    if (d) d->refs++;
}

void dt_release(int t) {
    struct dtype *d = get(t);
    if (d && --d->refs == 0 && d->user_freed) destroy(d);
}

/* Whether count elements of these blocks are one run of bytes (one block
 * filling the extent: MPI_CHAR's, a contiguous type's): one copy of them
 * all, not one per element. */
static bool one_run(const struct dt_block *b, int nb, int64_t ext) {
    return nb == 1 && b[0].len == ext && ext > 0;
}

void dt_pack_blocks(const struct dt_block *b, int nb, int64_t ext, const void *buf, int64_t count,
                    void *packed) {
    if (one_run(b, nb, ext)) {
        if (count > 0) memmove(packed, (const char *)buf + b[0].off, (size_t)(count * ext));
        return;
    }
    char *o = packed;
    for (int64_t e = 0; e < count; e++)
        for (int i = 0; i < nb; i++) {
            memcpy(o, (const char *)buf + e * ext + b[i].off, (size_t)b[i].len);
            o += b[i].len;
        }
}

void dt_unpack_blocks(const struct dt_block *b, int nb, int64_t ext, const void *packed,
                      int64_t count, void *buf) {
    if (one_run(b, nb, ext)) {
        if (count > 0) memmove((char *)buf + b[0].off, packed, (size_t)(count * ext));
        return;
    }
    const char *in = packed;
    for (int64_t e = 0; e < count; e++)
        for (int i = 0; i < nb; i++) {
            memcpy((char *)buf + e * ext + b[i].off, in, (size_t)b[i].len);
            in += b[i].len;
        }
}

void dt_pack(int t, const void *buf, int64_t count, void *packed) {
    if (dt_contiguous(t)) { /* one copy, not one per element (4 MiB of MPI_CHAR) */
        if (count > 0 && dt_size(t) > 0) memmove(packed, buf, (size_t)(count * dt_size(t)));
        return;
    }
    struct dt_block one;
    int nb;
    const struct dt_block *b = dt_blocks(t, &nb, &one);
    dt_pack_blocks(b, nb, dt_extent(t), buf, count, packed);
}

void dt_unpack(int t, const void *packed, int64_t count, void *buf) {
    if (dt_contiguous(t)) {
        if (count > 0 && dt_size(t) > 0) memmove(buf, packed, (size_t)(count * dt_size(t)));
        return;
    }
    struct dt_block one;
    int nb;
    const struct dt_block *b = dt_blocks(t, &nb, &one);
    dt_unpack_blocks(b, nb, dt_extent(t), packed, count, buf);
}

static void *copy_of(const void *src, size_t n, size_t size) {
    void *p = xcalloc(n + 1, size);
    if (n) memcpy(p, src, n * size);
    return p;
}

void dt_set_envelope(int t, int combiner, int ni, const int *ints, int na, const int64_t *aints,
                     int nt, const int *types) {
    struct dtype *d = get(t);
    if (!d) return;
    free(d->env.ints);
    free(d->env.aints);
    free(d->env.types);
    d->env = (struct dt_envelope){combiner,
                                  ni,
                                  na,
                                  nt,
                                  copy_of(ints, (size_t)ni, sizeof *ints),
                                  copy_of(aints, (size_t)na, sizeof *aints),
                                  copy_of(types, (size_t)nt, sizeof *types)};
}

const struct dt_envelope *dt_get_envelope(int t) {
    struct dtype *d = get(t);
    return d ? &d->env : NULL;
}

void dt_set_combiner(int t, int combiner) {
    struct dtype *d = get(t);
    if (d) d->env.combiner = combiner;
}

/* --- the external32 representation (big-endian) --- */

int dt_external32_unit(int type) {
    int64_t per;
    int basic = dt_basic(type, &per);
    switch (basic) {
    case 0:
    case MPI_LONG: /* 4 bytes in external32, 8 here: not a byte swap */
    case MPI_UNSIGNED_LONG:
    case MPI_WCHAR:
    case MPI_LONG_DOUBLE:
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX:
    case MPI_REAL16:
    case MPI_COMPLEX32:
    case MPI_FLOAT_INT:
    case MPI_DOUBLE_INT:
    case MPI_LONG_INT:
    case MPI_SHORT_INT:
    case MPI_LONG_DOUBLE_INT:
        return 0;
    case MPI_C_FLOAT_COMPLEX:
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX:
    case MPI_COMPLEX:
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX8:
    case MPI_COMPLEX16:
    case MPI_2INT:
    case MPI_2REAL:
    case MPI_2DOUBLE_PRECISION:
    case MPI_2INTEGER:
        return dtype_size(basic) / 2;
    case MPI_2COMPLEX:
        return 4;
    case MPI_2DOUBLE_COMPLEX:
        return 8;
    default:
        return dtype_size(basic);
    }
}

void dt_swap_bytes(char *p, int64_t n, int unit) {
    for (int64_t i = 0; unit > 1 && i + unit <= n; i += unit)
        for (int a = 0, b = unit - 1; a < b; a++, b--) {
            char t = p[i + a];
            p[i + a] = p[i + b];
            p[i + b] = t;
        }
}
