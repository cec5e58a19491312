/* SPDX-License-Identifier: BSD-3-Clause */
/* The binary trace form: record coding and the reader. A binary trace is
 * mapped; each rank has a cursor over its own chunks (found through the
 * index at the end of the file) and decodes its records where they lie, or
 * from its current chunk decompressed into a buffer of its own. Every
 * field read is bounds-checked and every record checked as the text parser
 * checks its fields, so a damaged file gives an error naming the rank and
 * record, never a crash or a wrong replay. */
#include "replay/trace_bin.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "core/alloc.h"
#include "core/prefetch.h"

/* Which fields follow a record's operation byte (bit i of the mask). */
enum tbin_field {
    F_SIZE,
    F_SIZE2,
    F_FLOPS,
    F_PEER,
    F_PEER2,
    F_TAG,
    F_TAG2,
    F_REQ,
    F_COMM,
    F_ROOT,
    F_COLOR,
    F_KEY,
    F_NEWCOMM,
    F_IDS,
    F_COUNTS,
    F_MODE,
    F_COLL,
};

#define TOP_COUNT (TOP_RMA_SYNC + 1)
/* The operation and collective numbers are the file's (docs/trace-format.md). */
_Static_assert(TOP_INTERVAL_END == 23 && TOP_COLL == 15 && TOP_CANCEL == 20,
               "binary trace operation numbers changed");
_Static_assert(COLL_EXSCAN == 10 && SEND_READY == 3, "binary trace kind numbers changed");
#define MAX_CHUNK_RAW (256u << 20)

uint8_t *tbin_uvarint(uint8_t *p, uint64_t v) {
    while (v >= 0x80) {
        *p++ = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    *p++ = (uint8_t)v;
    return p;
}

static uint8_t *put_svarint(uint8_t *p, int64_t v) {
    return tbin_uvarint(p, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

static bool get_uvarint(const uint8_t **p, const uint8_t *end, uint64_t *v) {
    if (*p < end && **p < 0x80) { /* one byte: most fields */
        *v = *(*p)++;
        return true;
    }
    uint64_t x = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return true;
        }
    }
    return false;
}

static bool get_svarint(const uint8_t **p, const uint8_t *end, int64_t *v) {
    uint64_t u;
    if (!get_uvarint(p, end, &u)) return false;
    *v = (int64_t)(u >> 1) ^ -(int64_t)(u & 1);
    return true;
}

static bool get_int32(const uint8_t **p, const uint8_t *end, int32_t *v) {
    int64_t x;
    if (!get_svarint(p, end, &x) || x < INT32_MIN || x > INT32_MAX) return false;
    *v = (int32_t)x;
    return true;
}

size_t tbin_record_bound(const struct trace_rec *r) {
    return 2 + 3 + 18 * 10 + 8 + 5 * (size_t)(r->nids + 1) + 10 * (2 * (size_t)r->ncounts + 1);
}

static uint32_t field_mask(const struct trace_rec *r) {
    uint32_t m = 0;
    m |= (uint32_t)(r->size != 0) << F_SIZE | (uint32_t)(r->size2 != 0) << F_SIZE2;
    m |= (uint32_t)(r->flops != 0) << F_FLOPS | (uint32_t)(r->peer != 0) << F_PEER;
    m |= (uint32_t)(r->peer2 != 0) << F_PEER2 | (uint32_t)(r->tag != 0) << F_TAG;
    m |= (uint32_t)(r->tag2 != r->tag) << F_TAG2 | (uint32_t)(r->req != -1) << F_REQ;
    m |= (uint32_t)(r->comm != 0) << F_COMM | (uint32_t)(r->root != 0) << F_ROOT;
    m |= (uint32_t)(r->color != INT32_MIN) << F_COLOR | (uint32_t)(r->key != 0) << F_KEY;
    m |= (uint32_t)(r->newcomm != 0) << F_NEWCOMM | (uint32_t)(r->nids > 0) << F_IDS;
    m |= (uint32_t)(r->counts != NULL) << F_COUNTS | (uint32_t)(r->mode != 0) << F_MODE;
    m |= (uint32_t)(r->coll != 0) << F_COLL;
    return m;
}

uint8_t *tbin_encode(uint8_t *p, const struct trace_rec *r) {
    uint32_t m = field_mask(r);
    *p++ = r->op;
    p = tbin_uvarint(p, m);
    const int64_t ints[] = {r->size, r->size2, 0,       r->peer,  r->peer2, r->tag,    r->tag2,
                            r->req,  r->comm,  r->root, r->color, r->key,   r->newcomm};
    for (int f = F_SIZE; f <= F_NEWCOMM; f++) {
        if (!(m >> f & 1)) continue;
        if (f == F_FLOPS) {
            memcpy(p, &r->flops, 8); /* the double's bytes (both ends are little-endian) */
            p += 8;
        } else {
            p = put_svarint(p, ints[f]);
        }
    }
    if (m >> F_IDS & 1) {
        p = tbin_uvarint(p, (uint64_t)r->nids);
        for (int32_t i = 0; i < r->nids; i++)
            p = put_svarint(p, r->ids[i]);
    }
    if (m >> F_COUNTS & 1) {
        p = tbin_uvarint(p, (uint64_t)r->ncounts);
        for (int32_t i = 0; i < 2 * r->ncounts; i++)
            p = put_svarint(p, r->counts[i]);
    }
    if (m >> F_MODE & 1) *p++ = r->mode;
    if (m >> F_COLL & 1) *p++ = r->coll;
    return p;
}

/* A rank's position in its chunks. */
struct tbin_cursor {
    const uint8_t *p, *end; /* the current chunk's records not read yet */
    uint8_t *owned;         /* the current chunk decompressed (NULL: read in the mapping) */
    uint64_t next_entry;    /* where the index lists this rank's next chunk */
    uint64_t last_chunk;    /* offset of the previous chunk (the index holds deltas) */
    uint32_t chunks_left;
    int32_t record;
};

struct tbin_reader {
    char *path;
    const uint8_t *map;
    size_t len;
    uint64_t index_at; /* chunks lie in [TBIN_HEADER, index_at) */
    int32_t nranks, nnames;
    uint8_t codec;
    struct tbin_cursor *cur;
    int64_t buf_bytes, buf_peak;
    ZSTD_DCtx *zd;
};

bool tbin_is_binary(const char *path) {
    char magic[8];
    int fd = open(path, O_RDONLY);
    if (fd < 0) return false;
    bool yes = pread(fd, magic, 8, 0) == 8 && !memcmp(magic, TBIN_MAGIC, 8);
    close(fd);
    return yes;
}

int tbin_codec_by_name(const char *s) {
    return !strcmp(s, "none")   ? TBIN_NONE
           : !strcmp(s, "zstd") ? TBIN_ZSTD
           : !strcmp(s, "gzip") ? TBIN_GZIP
                                : -1;
}

static uint64_t le_read(const uint8_t *p, int n) {
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static bool bad_file(struct tbin_reader *b, struct sim_error *err, const char *what) {
    return err_set(err, "%s: damaged binary trace: %s", b->path, what);
}

/* The header: magic, version, rank count, codec and where the index lies. */
static bool read_header(struct tbin_reader *b, struct sim_error *err) {
    if (b->len < TBIN_HEADER) return bad_file(b, err, "shorter than its header");
    uint32_t version = (uint32_t)le_read(b->map + 8, 4);
    if (version != TBIN_VERSION)
        return err_set(err, "%s: binary trace version %u; this simpi reads version %d", b->path,
                       version, TBIN_VERSION);
    uint64_t n = le_read(b->map + 12, 4);
    b->codec = b->map[16];
    b->index_at = le_read(b->map + 24, 8);
    if (n < 1 || n > INT32_MAX) return bad_file(b, err, "rank count out of range");
    if (b->codec > TBIN_GZIP) return bad_file(b, err, "unknown compression");
    if (b->index_at == 0)
        return err_set(err, "%s: incomplete binary trace (no index: its writer did not finish)",
                       b->path);
    if (b->index_at < TBIN_HEADER || b->index_at >= b->len)
        return bad_file(b, err, "index offset out of range");
    b->nranks = (int32_t)n;
    return true;
}

/* The index: interval names, then each rank's chunk count and offsets. */
static bool read_index(struct tbin_reader *b, int32_t (*intern)(void *, const char *), void *ctx,
                       struct sim_error *err) {
    const uint8_t *p = b->map + b->index_at, *end = b->map + b->len;
    uint64_t n;
    if (end - p < 4 || memcmp(p, TBIN_INDEX_MAGIC, 4)) return bad_file(b, err, "no index");
    p += 4;
    if (!get_uvarint(&p, end, &n) || n > (uint64_t)(end - p))
        return bad_file(b, err, "interval names");
    for (uint64_t i = 0; i < n; i++) {
        uint64_t len;
        if (!get_uvarint(&p, end, &len) || len == 0 || len > (uint64_t)(end - p) || len > 4096 ||
            memchr(p, '\0', len))
            return bad_file(b, err, "interval names");
        char name[4097];
        memcpy(name, p, len);
        name[len] = '\0';
        p += len;
        if (intern(ctx, name) != (int32_t)i) return bad_file(b, err, "interval names repeat");
    }
    b->nnames = (int32_t)n;
    if ((uint64_t)(end - p) < (uint64_t)b->nranks) /* a byte per rank at least */
        return bad_file(b, err, "chunk list shorter than the rank count");
    b->cur = xcalloc((size_t)b->nranks, sizeof *b->cur);
    for (int32_t r = 0; r < b->nranks; r++) {
        uint64_t count, skip;
        if (!get_uvarint(&p, end, &count) || count > (uint64_t)(end - p))
            return bad_file(b, err, "chunk list");
        b->cur[r].chunks_left = (uint32_t)count;
        b->cur[r].next_entry = (uint64_t)(p - b->map);
        for (uint64_t i = 0; i < count; i++)
            if (!get_uvarint(&p, end, &skip)) return bad_file(b, err, "chunk list");
    }
    return true;
}

struct tbin_reader *tbin_open(const char *path, int64_t max_ranks, int32_t *nranks,
                              int32_t (*intern)(void *ctx, const char *name), void *ctx,
                              struct sim_error *err) {
    struct tbin_reader *b = xcalloc(1, sizeof *b);
    b->path = xstrdup(path);
    int fd = open(path, O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0) {
        err_set(err, "%s: cannot open trace: %s", path, strerror(errno));
    } else if (st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m == MAP_FAILED)
            err_set(err, "%s: cannot map trace: %s", path, strerror(errno));
        else
            b->map = m, b->len = (size_t)st.st_size;
    }
    if (fd >= 0) close(fd);
    if (!err->set && read_header(b, err) && b->nranks > max_ranks)
        err_set(err,
                "%s: the trace has %d ranks; this machine's memory allows at most %lld simulated "
                "ranks",
                path, b->nranks, (long long)max_ranks);
    if (!err->set && read_index(b, intern, ctx, err)) {
        *nranks = b->nranks;
        return b;
    }
    tbin_close(b);
    return NULL;
}

void tbin_close(struct tbin_reader *b) {
    if (!b) return;
    for (int32_t r = 0; b->cur && r < b->nranks; r++)
        free(b->cur[r].owned);
    free(b->cur);
    if (b->map) munmap((void *)b->map, b->len);
    ZSTD_freeDCtx(b->zd);
    free(b->path);
    free(b);
}

int64_t tbin_buffer_peak(const struct tbin_reader *b) {
    return b->buf_peak + (int64_t)b->len;
}

static int bad_record(struct tbin_reader *b, int32_t rank, int32_t record, struct sim_error *err,
                      const char *what) {
    err_at(err, b->path, record, "rank %d: damaged binary record (%s)", rank, what);
    return -1;
}

/* Decompresses a chunk's stored bytes into the cursor's own buffer. */
static bool inflate_chunk(struct tbin_reader *b, struct tbin_cursor *c, const uint8_t *src,
                          uint64_t stored, uint64_t raw) {
    c->owned = xmalloc(raw ? raw : 1);
    b->buf_bytes += (int64_t)raw;
    if (b->buf_bytes > b->buf_peak) b->buf_peak = b->buf_bytes;
    if (b->codec == TBIN_ZSTD) {
        if (!b->zd) b->zd = ZSTD_createDCtx();
        size_t got = ZSTD_decompressDCtx(b->zd, c->owned, raw, src, stored);
        return !ZSTD_isError(got) && got == raw;
    }
    uLongf got = (uLongf)raw;
    return uncompress(c->owned, &got, src, (uLong)stored) == Z_OK && got == raw;
}

/* Makes the rank's next chunk current: 1, 0 when it has none, -1 error. */
static int load_chunk(struct tbin_reader *b, int32_t rank, struct sim_error *err) {
    struct tbin_cursor *c = &b->cur[rank];
    if (c->owned) {
        b->buf_bytes -= (int64_t)(c->end - c->owned);
        free(c->owned);
        c->owned = NULL;
    }
    if (c->chunks_left == 0) return 0;
    const uint8_t *e = b->map + c->next_entry, *end = b->map + b->len;
    uint64_t delta, who, raw, stored;
    if (!get_uvarint(&e, end, &delta)) return bad_record(b, rank, c->record, err, "index");
    c->next_entry = (uint64_t)(e - b->map);
    c->chunks_left--;
    uint64_t at = c->last_chunk + delta;
    c->last_chunk = at;
    const uint8_t *p = b->map + at, *limit = b->map + b->index_at;
    if (at < TBIN_HEADER || at >= b->index_at || !get_uvarint(&p, limit, &who) ||
        who != (uint64_t)rank || !get_uvarint(&p, limit, &raw) ||
        !get_uvarint(&p, limit, &stored) || stored > (uint64_t)(limit - p) || raw > MAX_CHUNK_RAW ||
        (b->codec == TBIN_NONE && raw != stored))
        return bad_record(b, rank, c->record, err, "chunk header");
    if (b->codec == TBIN_NONE) {
        c->p = p;
        c->end = p + raw;
        return 1;
    }
    if (!inflate_chunk(b, c, p, stored, raw))
        return bad_record(b, rank, c->record, err, "compressed chunk");
    c->p = c->owned;
    c->end = c->owned + raw;
    return 1;
}

static bool decode_lists(const uint8_t **p, const uint8_t *end, uint32_t m, struct trace_rec *r) {
    uint64_t n;
    if (m >> F_IDS & 1) {
        if (!get_uvarint(p, end, &n) || n == 0 || n > (uint64_t)(end - *p)) return false;
        r->ids = xcalloc(n, sizeof *r->ids);
        r->nids = (int32_t)n;
        for (uint64_t i = 0; i < n; i++)
            if (!get_int32(p, end, &r->ids[i]) || r->ids[i] < 0) return false;
    }
    if (m >> F_COUNTS & 1) {
        if (!get_uvarint(p, end, &n) || n == 0 || 2 * n > (uint64_t)(end - *p)) return false;
        r->counts = xcalloc(2 * n, sizeof *r->counts);
        r->ncounts = (int32_t)n;
        for (uint64_t i = 0; i < 2 * n; i++)
            if (!get_svarint(p, end, &r->counts[i]) || r->counts[i] < 0) return false;
    }
    return true;
}

/* The fields of one record; false when they run past the chunk. */
static bool decode(const uint8_t **p, const uint8_t *end, struct trace_rec *r) {
    uint64_t m;
    r->op = *(*p)++;
    if (!get_uvarint(p, end, &m) || m >> (F_COLL + 1)) return false;
    int64_t v[F_NEWCOMM + 1] = {0};
    /* the fields present, lowest first: a record has a few of the 13 */
    for (uint64_t left = m & ((1u << (F_NEWCOMM + 1)) - 1); left; left &= left - 1) {
        int f = __builtin_ctzll(left);
        if (f == F_FLOPS) {
            if (end - *p < 8) return false;
            memcpy(&r->flops, *p, 8);
            *p += 8;
        } else if (!get_svarint(p, end, &v[f])) {
            return false;
        } else if (f > F_FLOPS && (v[f] < INT32_MIN || v[f] > INT32_MAX)) {
            return false;
        }
    }
    r->size = v[F_SIZE], r->size2 = v[F_SIZE2];
    r->peer = (int32_t)v[F_PEER], r->peer2 = (int32_t)v[F_PEER2], r->tag = (int32_t)v[F_TAG];
    r->tag2 = m >> F_TAG2 & 1 ? (int32_t)v[F_TAG2] : r->tag;
    r->req = m >> F_REQ & 1 ? (int32_t)v[F_REQ] : -1;
    r->comm = (int32_t)v[F_COMM], r->root = (int32_t)v[F_ROOT], r->key = (int32_t)v[F_KEY];
    r->color = m >> F_COLOR & 1 ? (int32_t)v[F_COLOR] : INT32_MIN;
    r->newcomm = (int32_t)v[F_NEWCOMM];
    if (!decode_lists(p, end, (uint32_t)m, r)) return false;
    if (m >> F_MODE & 1) {
        if (*p == end) return false;
        r->mode = *(*p)++;
    }
    if (m >> F_COLL & 1) {
        if (*p == end) return false;
        r->coll = *(*p)++;
    }
    return true;
}

static bool rank_ok(const struct tbin_reader *b, int32_t x, bool any_ok) {
    return (x >= 0 && x < b->nranks) || (any_ok && x == SIM_ANY_SOURCE);
}

static bool ids_ok(const struct trace_rec *r) {
    switch (r->op) {
    case TOP_WAIT:
    case TOP_TEST:
    case TOP_CANCEL:
    case TOP_FREE:
        return r->nids == 1;
    case TOP_WAITANY:
        return r->nids > 0;
    case TOP_WAITALL:
    case TOP_RMA_SYNC:
        return true;
    default:
        return r->nids == 0;
    }
}

/* What the text parser would refuse: the same record is refused here. */
static const char *check(const struct tbin_reader *b, const struct trace_rec *r) {
    bool send = r->op == TOP_SEND || r->op == TOP_ISEND,
         recv = r->op == TOP_RECV || r->op == TOP_IRECV;
    bool sr = r->op == TOP_SENDRECV, split = r->op == TOP_COMM_SPLIT;
    bool coll = r->op == TOP_COLL || r->op == TOP_ICOLL;
    bool comm_new = split || r->op == TOP_COMM_DUP || r->op == TOP_COMM_SELF;
    if (r->op >= TOP_COUNT || r->op == TOP_WAIT_PEER || r->op == TOP_TEST_PEER) return "operation";
    if ((send || sr) && !rank_ok(b, r->peer, false)) return "destination";
    if ((r->op == TOP_ROUND_TRIP || r->op == TOP_RMA) && !rank_ok(b, r->peer, false)) return "peer";
    if (recv && !rank_ok(b, r->peer, true)) return "source";
    if (sr && !rank_ok(b, r->peer2, true)) return "source";
    if (r->size < (recv ? -1 : 0) || r->size2 < 0) return "size";
    if (r->op == TOP_COMPUTE && r->size >= SIMTIME_NEVER) return "duration";
    if (!(r->flops >= 0 && r->flops <= 1e300)) return "flops";
    if ((r->tag < 0 && r->tag != SIM_ANY_TAG) || (r->tag2 < 0 && r->tag2 != SIM_ANY_TAG))
        return "tag";
    if (send && r->tag == SIM_ANY_TAG) return "tag";
    bool nb = r->op == TOP_ISEND || r->op == TOP_IRECV || r->op == TOP_ICOLL ||
              r->op == TOP_FILE_IO || r->op == TOP_RMA;
    if (r->req < -1 || (nb && r->req < 0)) return "request id";
    if (r->comm < 0 || r->root < 0 || r->newcomm < 0 || (comm_new && r->newcomm < 1))
        return "communicator";
    if ((split && r->color == INT32_MIN) ||
        (r->color < 0 && r->color != INT32_MIN && r->color != SIM_UNDEFINED))
        return "color";
    if ((r->op == TOP_RMA && r->mode > 2) || (r->op == TOP_RMA_SYNC && r->mode > 6) ||
        r->mode > 7 || (coll && r->coll >= COLL_KINDS) || (!coll && r->coll))
        return "kind";
    if (r->counts && !(coll && r->mode & 4)) return "counts";
    if (r->op == TOP_INTERVAL_BEGIN && (r->req < 0 || r->req >= b->nnames)) return "interval name";
    return ids_ok(r) ? NULL : "request ids";
}

void tbin_warm(const struct tbin_reader *b, int32_t rank, int stage) {
    const struct tbin_cursor *c = &b->cur[rank];
    if (stage == 0)
        cache_prefetch(c);
    else if (c->p != c->end)
        cache_prefetch(c->p);
}

int tbin_next(struct tbin_reader *b, int32_t rank, struct trace_rec *r, struct sim_error *err) {
    struct tbin_cursor *c = &b->cur[rank];
    while (c->p == c->end) {
        int got = load_chunk(b, rank, err);
        if (got <= 0) return got;
    }
    static const struct trace_rec blank = {.req = -1, .color = INT32_MIN};
    *r = blank;
    r->rank = rank;
    r->line = ++c->record;
    const char *bad = decode(&c->p, c->end, r) ? check(b, r) : "fields run past their chunk";
    if (!bad) return 1;
    trace_rec_clear(r);
    return bad_record(b, rank, c->record, err, bad);
}
