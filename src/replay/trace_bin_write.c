/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing the binary trace form: each rank's records gather in a buffer of
 * its own (grown as needed up to a chunk's size), which becomes a chunk of
 * the file, compressed when asked, when full, when all the buffers together
 * pass a budget, and at the end; the index of every rank's chunks and the
 * interval names close the file, and the header is then given the index's
 * offset (a file without it is refused as unfinished). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "core/alloc.h"
#include "replay/trace_bin.h"

#define CHUNK_MAX (64u << 10)     /* raw bytes of one chunk, at most */
#define CHUNK_MIN 256u            /* ... and at least (unless a rank's records end) */
#define CHUNKS_BUDGET (64u << 20) /* a reader's chunk buffers, all ranks together */
#define PENDING_MAX (32u << 20)   /* raw bytes waiting in all the buffers */

struct wrank {
    uint8_t *buf;
    uint32_t len, cap;
    uint64_t *chunks; /* offsets of the rank's chunks, in order */
    uint32_t nchunks, chunks_cap;
};

struct tbin_writer {
    FILE *f;
    char *path;
    int32_t nranks;
    enum tbin_codec codec;
    uint64_t at; /* bytes written */
    uint64_t pending;
    uint32_t chunk_max; /* so that one chunk per rank fits the readers' budget */
    struct wrank *ranks;
    uint8_t *zbuf;
    size_t zcap;
    ZSTD_CCtx *zc;
    bool failed;
};

static void put_le(uint8_t *p, uint64_t v, int n) {
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void emit(struct tbin_writer *w, const void *p, size_t n) {
    if (n && fwrite(p, 1, n, w->f) != n) w->failed = true;
    w->at += n;
}

struct tbin_writer *tbin_writer_new(FILE *f, const char *name, int32_t nranks,
                                    enum tbin_codec codec) {
    struct tbin_writer *w = xcalloc(1, sizeof *w);
    w->f = f;
    w->path = xstrdup(name);
    w->nranks = nranks;
    w->codec = codec;
    w->ranks = xcalloc((size_t)nranks, sizeof *w->ranks);
    uint64_t share = CHUNKS_BUDGET / (uint64_t)nranks;
    w->chunk_max = share > CHUNK_MAX ? CHUNK_MAX : share < CHUNK_MIN ? CHUNK_MIN : (uint32_t)share;
    uint8_t h[TBIN_HEADER] = {0};
    memcpy(h, TBIN_MAGIC, 8);
    put_le(h + 8, TBIN_VERSION, 4);
    put_le(h + 12, (uint64_t)nranks, 4);
    h[16] = (uint8_t)codec; /* bytes 24..31: the index's offset, written last */
    emit(w, h, sizeof h);
    return w;
}

/* The stored form of n raw bytes: themselves, or compressed into zbuf. */
static const uint8_t *stored_form(struct tbin_writer *w, const uint8_t *raw, size_t n,
                                  size_t *stored) {
    if (w->codec == TBIN_NONE) {
        *stored = n;
        return raw;
    }
    size_t bound = w->codec == TBIN_ZSTD ? ZSTD_compressBound(n) : compressBound((uLong)n);
    if (bound > w->zcap) w->zbuf = xrealloc_or_die(w->zbuf, w->zcap = bound);
    if (w->codec == TBIN_ZSTD) {
        if (!w->zc) w->zc = ZSTD_createCCtx();
        *stored = ZSTD_compressCCtx(w->zc, w->zbuf, w->zcap, raw, n, 3);
        if (ZSTD_isError(*stored)) w->failed = true;
    } else {
        uLongf got = (uLongf)w->zcap;
        if (compress2(w->zbuf, &got, raw, (uLong)n, Z_DEFAULT_COMPRESSION) != Z_OK)
            w->failed = true;
        *stored = got;
    }
    return w->zbuf;
}

/* Writes raw records of a rank as one chunk: rank, raw and stored sizes
 * (varints), then the stored bytes. */
static void write_chunk(struct tbin_writer *w, int32_t rank, const uint8_t *raw, size_t n) {
    struct wrank *k = &w->ranks[rank];
    if (k->nchunks == k->chunks_cap) {
        k->chunks_cap = k->chunks_cap ? 2 * k->chunks_cap : 1;
        k->chunks = xrealloc_or_die(k->chunks, sizeof *k->chunks * k->chunks_cap);
    }
    k->chunks[k->nchunks++] = w->at;
    size_t stored;
    const uint8_t *data = stored_form(w, raw, n, &stored);
    uint8_t head[30],
        *e = tbin_uvarint(tbin_uvarint(tbin_uvarint(head, (uint64_t)rank), n), stored);
    emit(w, head, (size_t)(e - head));
    emit(w, data, stored);
}

static void flush_rank(struct tbin_writer *w, int32_t rank) {
    struct wrank *k = &w->ranks[rank];
    if (!k->len) return;
    write_chunk(w, rank, k->buf, k->len);
    w->pending -= k->len;
    k->len = 0;
}

static void flush_all(struct tbin_writer *w) {
    for (int32_t r = 0; r < w->nranks; r++)
        flush_rank(w, r);
}

bool tbin_writer_put(struct tbin_writer *w, const struct trace_rec *r, struct sim_error *err) {
    struct wrank *k = &w->ranks[r->rank];
    size_t need = tbin_record_bound(r);
    if (need > w->chunk_max) { /* a record larger than a chunk: a chunk of its own */
        flush_rank(w, r->rank);
        uint8_t *tmp = xmalloc(need);
        write_chunk(w, r->rank, tmp, (size_t)(tbin_encode(tmp, r) - tmp));
        free(tmp);
    } else {
        if (k->len + need > w->chunk_max) flush_rank(w, r->rank);
        if (k->len + need > k->cap) {
            uint32_t cap = k->cap ? k->cap : 64;
            while (cap < k->len + need)
                cap *= 2;
            k->buf = xrealloc_or_die(k->buf, cap);
            k->cap = cap;
        }
        uint32_t n = (uint32_t)(tbin_encode(k->buf + k->len, r) - (k->buf + k->len));
        k->len += n;
        w->pending += n;
        if (w->pending > PENDING_MAX) flush_all(w);
    }
    if (w->failed) return err_set(err, "%s: cannot write: %s", w->path, strerror(errno));
    return true;
}

/* The index: its magic, the interval names, each rank's chunk offsets as
 * deltas from the previous one. */
static void write_index(struct tbin_writer *w, const char *const *names, int32_t nnames) {
    uint8_t tmp[40];
    emit(w, TBIN_INDEX_MAGIC, 4);
    emit(w, tmp, (size_t)(tbin_uvarint(tmp, (uint64_t)nnames) - tmp));
    for (int32_t i = 0; i < nnames; i++) {
        size_t len = strlen(names[i]);
        emit(w, tmp, (size_t)(tbin_uvarint(tmp, len) - tmp));
        emit(w, names[i], len);
    }
    for (int32_t r = 0; r < w->nranks; r++) {
        struct wrank *k = &w->ranks[r];
        emit(w, tmp, (size_t)(tbin_uvarint(tmp, k->nchunks) - tmp));
        uint64_t last = 0;
        for (uint32_t i = 0; i < k->nchunks; i++) {
            emit(w, tmp, (size_t)(tbin_uvarint(tmp, k->chunks[i] - last) - tmp));
            last = k->chunks[i];
        }
    }
}

static void writer_free(struct tbin_writer *w) {
    for (int32_t r = 0; r < w->nranks; r++) {
        free(w->ranks[r].buf);
        free(w->ranks[r].chunks);
    }
    free(w->ranks);
    free(w->zbuf);
    ZSTD_freeCCtx(w->zc);
    free(w->path);
    free(w);
}

bool tbin_writer_finish(struct tbin_writer *w, const char *const *names, int32_t nnames,
                        struct sim_error *err) {
    flush_all(w);
    uint64_t index_at = w->at;
    write_index(w, names, nnames);
    uint8_t off[8];
    put_le(off, index_at, 8);
    if (fflush(w->f) != 0 || fseek(w->f, 24, SEEK_SET) != 0 || fwrite(off, 1, 8, w->f) != 8 ||
        fseek(w->f, 0, SEEK_END) != 0)
        w->failed = true;
    bool ok = !w->failed || err_set(err, "%s: cannot write: %s", w->path, strerror(errno));
    writer_free(w);
    return ok;
}

void tbin_writer_abort(struct tbin_writer *w) {
    if (w) writer_free(w);
}
