/* SPDX-License-Identifier: BSD-3-Clause */
/* Trace reader: header, sources (one shared file or one file per rank),
 * per-rank record queues, streaming through zlib with bounded buffers. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/alloc.h"
#include "core/log.h"
#include "core/outfile.h"
#include "core/pool.h"
#include "core/prefetch.h"
#include "core/rankfile.h"
#include "core/ranktable.h"
#include "replay/trace_format.h"
#include "replay/trace_internal.h"

#define SHARED_BUF (1 << 18)
#define RANK_BUF (1 << 12)
#define MAX_OPEN_RANK_FILES 512
#define MAX_LINE (1 << 20)

/* An open source's handle and buffer of lines read ahead. */
struct source_io {
    gzFile gz;
    char *buf;
    size_t cap, start, end;
};

/* A file read line by line; can be closed and reopened at the same place.
 * A rank's cursor over the mapped shared file is one (48 bytes a rank)
 * that is never opened: it reads the mapping in place. */
struct source {
    char *path;
    struct source_io *io; /* while open */
    int64_t consumed;     /* uncompressed offset of io->buf[io->start] */
    int line;
    bool eof;
    uint8_t kind;     /* enum source_kind */
    bool mapped;      /* a cursor over the reader's mapping of the shared file */
    struct run *runs; /* shared rank-ordered file: this rank's runs of records */
    int32_t nruns, next_run;
};

/* A run: consecutive records of one rank in a shared file. */
struct run {
    int64_t offset;
    int32_t line, rank;
};

struct rank_queue {
    struct trace_rec *head, *tail;
};

/* Where a line of a rank lies in the mapped shared file, read past while
 * serving another rank: parsed when its rank needs it. */
struct line_ref {
    int64_t offset;
    int32_t line, len;
};

/* A rank's lines read ahead, oldest first (a ring that doubles when full). */
struct line_queue {
    struct line_ref *ref;
    uint32_t head, count, cap;
};

struct trace_reader {
    const struct trace_dialect *dialect; /* another tool's lines; NULL: native */
    void *dialect_state;
    struct trace_rec *extra;  /* a second record from the last line (a dialect's) */
    struct source shared;     /* used when per_rank == NULL */
    struct source *per_rank;  /* a rank table: ranks not kept are never written */
    struct run *pending_runs; /* a shared file's runs until the cursors are set up */
    int64_t npending_runs;
    bool cursors_pending;  /* (even with no runs: a trace without records) */
    bool per_rank_files;   /* per_rank from a folder of rank files (every rank's) */
    int32_t *cursor_ranks; /* otherwise the ranks whose cursors are set up (kept) */
    int32_t ncursor_ranks;
    bool (*keep)(void *ctx, int32_t rank); /* trace_keep_ranks: NULL keeps all */
    void *keep_ctx;
    int32_t nranks;
    int open_count, clock_hand;
    struct rank_queue *queues;
    struct line_queue *lines; /* a finely interleaved mapped file: lines read ahead */
    int64_t lines_bytes, lines_peak;
    struct pool recs;
    uint64_t records;
    struct name_index { /* the names records give (intervals) */
        char **list;
        int32_t n, cap;
        int32_t *table; /* name -> index + 1, open addressing */
        size_t table_cap;
    } names;
    const char *map; /* the shared plain file, mapped once for all rank cursors */
    size_t map_len;
    char *line_buf; /* a header, index or dialect line copied for string functions */
    size_t line_cap;
    int64_t bytes_read, bytes_total; /* for the progress line (total 0: unknown) */
    char *temp_dir; /* a Dimemas trace translated into native files, removed at close */
    const struct trace_format *format_ops; /* a format that gives records (trace_format.h) */
    void *source;                          /* its reader; NULL: a text trace */
    bool (*finished)(void *ctx, int32_t rank, int32_t id); /* trace_set_request_probe */
    void *finished_ctx;
};

static bool source_open(struct trace_reader *t, struct source *s, struct sim_error *err);

/* Plain files are read with pread at the source's offset (cheap to resume
 * anywhere, no descriptor kept); gzip files through a zlib handle kept open
 * while the source's buffer is (reopening one means decompressing again up
 * to the offset). */
enum source_kind { SRC_UNKNOWN, SRC_PLAIN, SRC_GZIP };

static void source_close(struct trace_reader *t, struct source *s) {
    if (!s->io) return;
    if (s->io->gz) gzclose(s->io->gz);
    /* consumed already is the offset of buf[start]: reopening resumes there */
    free(s->io->buf);
    free(s->io);
    s->io = NULL;
    t->open_count--;
}

/* Whether this process reads rank's records (trace_keep_ranks). */
static bool kept(const struct trace_reader *t, int32_t rank) {
    return !t->keep || t->keep(t->keep_ctx, rank);
}

/* Frees another per-rank buffer when too many are in use (clock order). */
static void make_room(struct trace_reader *t, struct source *keep) {
    while (t->per_rank && t->open_count >= MAX_OPEN_RANK_FILES) {
        int32_t cursors = t->per_rank_files ? t->nranks : t->ncursor_ranks;
        int32_t r = t->per_rank_files ? t->clock_hand : t->cursor_ranks[t->clock_hand];
        t->clock_hand = (t->clock_hand + 1) % cursors;
        struct source *v = &t->per_rank[r];
        if (v != keep && v->io) source_close(t, v);
    }
}

static int sniff_kind(const char *path) {
    unsigned char magic[2] = {0, 0};
    int fd = open(path, O_RDONLY);
    if (fd < 0) return SRC_UNKNOWN;
    ssize_t got = pread(fd, magic, 2, 0);
    close(fd);
    return got == 2 && magic[0] == 0x1f && magic[1] == 0x8b ? SRC_GZIP : SRC_PLAIN;
}

static bool source_open(struct trace_reader *t, struct source *s, struct sim_error *err) {
    if (s->io) return true;
    if (s->kind == SRC_UNKNOWN && (s->kind = (uint8_t)sniff_kind(s->path)) == SRC_UNKNOWN)
        return err_set(err, "%s: cannot open trace file: %s", s->path, strerror(errno));
    make_room(t, s);
    gzFile gz = NULL;
    if (s->kind == SRC_GZIP) {
        gz = gzopen(s->path, "rb");
        if (!gz) return err_set(err, "%s: cannot open trace file: %s", s->path, strerror(errno));
        gzbuffer(gz, t->per_rank ? 8192 : 1 << 17);
        if (s->consumed > 0 && gzseek(gz, s->consumed, SEEK_SET) < 0) {
            gzclose(gz);
            return err_set(err, "%s: cannot seek to offset %lld", s->path, (long long)s->consumed);
        }
    }
    size_t cap = t->per_rank ? RANK_BUF : SHARED_BUF;
    s->io = xmalloc(sizeof *s->io);
    *s->io = (struct source_io){gz, xmalloc(cap + 1), cap, 0, 0};
    t->open_count++;
    return true;
}

/* Reads up to n bytes following the buffered ones; -1 on error. Plain
 * files are read with pread. */
static ssize_t source_fill(struct source *s, char *dst, size_t n, struct sim_error *err) {
    if (s->kind == SRC_GZIP) {
        int got = gzread(s->io->gz, dst, (unsigned)n), code;
        if (got < 0) err_set(err, "%s: read error: %s", s->path, gzerror(s->io->gz, &code));
        return got;
    }
    int fd = open(s->path, O_RDONLY);
    ssize_t got = fd < 0 ? -1 : pread(fd, dst, n, (off_t)(s->consumed + (int64_t)s->io->end));
    if (got < 0) err_set(err, "%s: read error: %s", s->path, strerror(errno));
    if (fd >= 0) close(fd);
    return got;
}

/* Doubles a source's buffer for a long line, up to MAX_LINE bytes. */
static bool source_grow(struct source *s, struct sim_error *err) {
    struct source_io *b = s->io;
    if (b->cap >= MAX_LINE)
        return err_at(err, s->path, s->line + 1, "line longer than %d bytes", MAX_LINE);
    b->cap *= 2;
    b->buf = xrealloc_or_die(b->buf, b->cap + 1);
    return true;
}

/* The next line of a cursor over the mapped shared file, where it lies in
 * the mapping (no per-rank buffer: a million ranks would each fill one to
 * read a line or two, and no copy). NULL at the end or on error. */
static const char *mapped_line(struct trace_reader *t, struct source *s, size_t *len,
                               struct sim_error *err) {
    size_t at = (size_t)s->consumed;
    if (at >= t->map_len) {
        s->eof = true;
        return NULL;
    }
    const char *p = t->map + at;
    size_t left = t->map_len - at;
    const char *nl = memchr(p, '\n', left < MAX_LINE ? left : MAX_LINE);
    if (!nl && left >= MAX_LINE) {
        err_at(err, s->path, s->line + 1, "line longer than %d bytes", MAX_LINE);
        return NULL;
    }
    *len = nl ? (size_t)(nl - p) : left;
    s->consumed += (int64_t)(*len + (nl ? 1 : 0));
    s->line++;
    return p;
}

/* The next line (without its newline) where it lies, valid until the next
 * call, and its length; NULL at EOF or on error. */
static const char *source_line(struct trace_reader *t, struct source *s, size_t *len,
                               struct sim_error *err) {
    if (s->eof) return NULL;
    if (s->mapped) return mapped_line(t, s, len, err);
    if (!source_open(t, s, err)) return NULL;
    struct source_io *b = s->io;
    for (;;) {
        char *nl = memchr(b->buf + b->start, '\n', b->end - b->start);
        if (nl) {
            char *line = b->buf + b->start;
            *len = (size_t)(nl - line);
            s->consumed += nl + 1 - line;
            b->start = (size_t)(nl + 1 - b->buf);
            s->line++;
            return line;
        }
        memmove(b->buf, b->buf + b->start, b->end - b->start);
        b->end -= b->start;
        b->start = 0;
        if (b->end == b->cap && !source_grow(s, err)) return NULL;
        ssize_t got = source_fill(s, b->buf + b->end, b->cap - b->end, err);
        if (got < 0) return NULL;
        if (got == 0) {
            if (b->end == 0) {
                s->eof = true;
                source_close(t, s);
                return NULL;
            }
            b->buf[b->end++] = '\n'; /* last line without a newline */
            continue;
        }
        b->end += (size_t)got;
    }
}

/* Line [l, l + len) copied into the reader's line buffer, NUL-terminated. */
static char *line_copy(struct trace_reader *t, const char *l, size_t len) {
    if (len + 1 > t->line_cap) {
        t->line_cap = len + 1 > 256 ? len + 1 : 256;
        t->line_buf = xrealloc_or_die(t->line_buf, t->line_cap);
    }
    memcpy(t->line_buf, l, len);
    t->line_buf[len] = '\0';
    return t->line_buf;
}

/* source_line copied into the reader's line buffer and NUL-terminated, for
 * the header, index and dialect lines that string functions read. */
static char *source_line_str(struct trace_reader *t, struct source *s, struct sim_error *err) {
    size_t len;
    const char *l = source_line(t, s, &len, err);
    return l ? line_copy(t, l, len) : NULL;
}

static int64_t max_ranks_override;

void trace_set_max_ranks(int64_t n) {
    max_ranks_override = n;
}

/* The most ranks this machine can simulate: about 1 KiB each must fit in
 * physical memory (or the override, for tests and fuzzing). */
static int64_t max_ranks(void) {
    if (max_ranks_override > 0) return max_ranks_override;
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    int64_t bytes = pages > 0 && page > 0 ? (int64_t)pages * page : INT64_C(1) << 34;
    int64_t n = bytes / 1024;
    return n < INT32_MAX ? n : INT32_MAX;
}

static bool check_rank_count(int64_t n, const char *path, int line, struct sim_error *err) {
    if (n <= max_ranks()) return true;
    return err_at(err, path, line,
                  "the trace has %lld ranks; this machine's memory allows at most %lld "
                  "simulated ranks",
                  (long long)n, (long long)max_ranks());
}

/* What makes a header line unreadable that the eye does not see: a UTF-8
 * byte-order mark, Windows line endings; "" if neither. */
static const char *invisible_cause(const char *l) {
    if (!strncmp(l, "\xef\xbb\xbf", 3))
        return " (the file starts with a UTF-8 byte-order mark: save it without one)";
    size_t n = strlen(l);
    if (n && l[n - 1] == '\r')
        return " (its lines end in CR LF, Windows line endings: convert them, e.g. dos2unix)";
    return "";
}

/* "simpi-trace 1", trailing spaces or tabs allowed (as on every line). */
static bool is_version_line(const char *l) {
    if (strncmp(l, "simpi-trace 1", 13) != 0) return false;
    return l[13 + strspn(l + 13, " \t")] == '\0';
}

static bool blank_or_comment(const char *l) {
    while (*l == ' ' || *l == '\t' || *l == '\r')
        l++;
    return *l == '\0' || *l == '#';
}

/* Reads the header lines "simpi-trace 1" and "ranks N" (ranks optional for
 * per-rank files); leaves the source at the first record. */
static bool read_header(struct trace_reader *t, struct source *s, int32_t *nranks, bool need_ranks,
                        struct sim_error *err) {
    char *l;
    int stage = 0;
    while (stage < 2) {
        int64_t before = s->consumed;
        int line_before = s->line;
        if (!(l = source_line_str(t, s, err))) {
            if (err->set) return false;
            if (stage == 0) return err_at(err, s->path, 0, "empty trace: expected 'simpi-trace 1'");
            break;
        }
        if (blank_or_comment(l)) continue;
        if (stage == 0) {
            if (strncmp(l, "simpi-trace", 11) != 0)
                return err_at(
                    err, s->path, s->line,
                    "not a simpi trace: expected the header 'simpi-trace 1', found '%.40s'", l);
            if (!is_version_line(l))
                return err_at(err, s->path, s->line,
                              "unsupported trace version '%.40s'; this simpi reads "
                              "'simpi-trace 1'%s",
                              l, invisible_cause(l));
            stage = 1;
            continue;
        }
        long v;
        char *end;
        if (strncmp(l, "ranks ", 6) == 0 && (v = strtol(l + 6, &end, 10)) > 0 && v < INT32_MAX &&
            blank_or_comment(end)) {
            *nranks = (int32_t)v;
            return check_rank_count(v, s->path, s->line, err);
        }
        if (strncmp(l, "ranks", 5) == 0)
            return err_at(
                err, s->path, s->line,
                "field 'ranks': found '%.40s', expected 'ranks N' with N from 1 to 2147483646", l);
        if (need_ranks)
            return err_at(err, s->path, s->line,
                          "expected 'ranks N' after the header, found '%.40s'", l);
        /* Per-rank file without "ranks": rewind to this record. */
        s->consumed = before;
        s->line = line_before;
        source_close(t, s);
        s->eof = false;
        break;
    }
    if (need_ranks) return err_at(err, s->path, 0, "missing 'ranks N' line");
    return true;
}

static struct trace_reader *reader_new(void) {
    struct trace_reader *t = xcalloc(1, sizeof *t);
    pool_init(&t->recs, sizeof(struct trace_rec), 4096);
    return t;
}

static void raise_fd_limit(void) {
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
}

static bool setup_per_rank(struct trace_reader *t, char **paths, int32_t n, struct sim_error *err) {
    raise_fd_limit();
    t->nranks = n;
    t->per_rank = xcalloc((size_t)n, sizeof *t->per_rank);
    t->per_rank_files = true;
    for (int32_t i = 0; i < n; i++)
        t->per_rank[i].path = paths[i];
    for (int32_t i = 0; i < n && !t->dialect; i++) {
        int32_t declared = n;
        if (!read_header(t, &t->per_rank[i], &declared, false, err)) return false;
        if (declared != n)
            return err_at(err, t->per_rank[i].path, 0,
                          "says 'ranks %d' but the trace has %d per-rank files", declared, n);
        source_close(t, &t->per_rank[i]);
    }
    return true;
}

/* Takes the per-rank paths (and their array) when ok, else frees them. */
static bool adopt_paths(struct trace_reader *t, char **paths, int32_t n, bool ok,
                        struct sim_error *err) {
    if (ok)
        ok = setup_per_rank(t, paths, n, err);
    else
        for (int32_t i = 0; i < n; i++)
            free(paths[i]);
    free(paths);
    return ok;
}

/* Directory: files rank<R>.trace or rank<R>.trace.gz for R = 0..N-1. */
static bool open_source(struct trace_reader *t, const struct trace_format *f, const char *path,
                        struct sim_error *err);

static bool open_directory(struct trace_reader *t, const char *dir, struct sim_error *err) {
    DIR *d = opendir(dir);
    if (!d) return err_set(err, "%s: cannot open directory: %s", dir, strerror(errno));
    int32_t n = 0;
    struct dirent *e;
    char anchor[4096] = "";
    while ((e = readdir(d))) {
        long r;
        char *end;
        size_t len = strlen(e->d_name);
        if (len > 5 && !strcmp(e->d_name + len - 5, ".otf2")) /* an OTF2 archive's folder */
            snprintf(anchor, sizeof anchor, "%s/%s", dir, e->d_name);
        if (strncmp(e->d_name, "rank", 4) == 0 && (r = strtol(e->d_name + 4, &end, 10)) >= 0 &&
            end != e->d_name + 4 && (!strcmp(end, ".trace") || !strcmp(end, ".trace.gz")) &&
            r < INT32_MAX && r + 1 > n)
            n = (int32_t)(r + 1);
    }
    closedir(d);
    /* an archive's folder: its anchor file is the trace */
    const struct trace_format *f = n == 0 && *anchor ? trace_format_of(anchor) : NULL;
    if (f) return open_source(t, f, anchor, err);
    if (n == 0)
        return err_set(err,
                       "%s: directory holds no per-rank traces (rank0.trace, rank1.trace...) "
                       "nor an OTF2 archive (traces.otf2)",
                       dir);
    if (!check_rank_count(n, dir, 0, err)) return false;
    char **paths = xcalloc((size_t)n, sizeof *paths);
    bool ok = true;
    for (int32_t i = 0; i < n && ok; i++) {
        size_t len = strlen(dir) + 32;
        paths[i] = xmalloc(len);
        struct stat st;
        snprintf(paths[i], len, "%s/rank%d.trace.gz", dir, i);
        bool gz = stat(paths[i], &st) == 0;
        snprintf(paths[i], len, "%s/rank%d.trace", dir, i);
        bool plain = stat(paths[i], &st) == 0;
        if (plain && gz) /* which one is the trace? */
            ok = err_set(err,
                         "%s: both rank%d.trace and rank%d.trace.gz are there; remove the one "
                         "that is not this trace's",
                         dir, i, i);
        else if (gz)
            snprintf(paths[i], len, "%s/rank%d.trace.gz", dir, i);
        else if (!plain)
            ok =
                err_set(err, "%s: per-rank trace for rank %d is missing (rank%d.trace)", dir, i, i);
    }
    return adopt_paths(t, paths, n, ok, err);
}

/* Index file: "simpi-trace-index 1", "ranks N", then "R PATH" lines. */
static bool open_index(struct trace_reader *t, const char *path, struct sim_error *err) {
    struct source s = {.path = (char *)path};
    char *l;
    int32_t n = 0, seen = 0;
    char **paths = NULL;
    const char *slash = strrchr(path, '/');
    size_t dirlen = slash ? (size_t)(slash - path + 1) : 0;
    bool ok = true;
    while (ok && (l = source_line_str(t, &s, err))) {
        if (blank_or_comment(l) || !strncmp(l, "simpi-trace-index", 17)) continue;
        long v, r;
        char *end;
        if (!paths) {
            if (strncmp(l, "ranks ", 6) || (v = strtol(l + 6, &end, 10)) <= 0 || v >= INT32_MAX)
                ok = err_at(err, path, s.line, "expected 'ranks N', found '%.40s'", l);
            else if (!(ok = check_rank_count(v, path, s.line, err)))
                continue;
            else
                paths = xcalloc((size_t)(n = (int32_t)v), sizeof *paths);
            continue;
        }
        r = strtol(l, &end, 10);
        while (*end == ' ' || *end == '\t')
            end++;
        if (end == l || r < 0 || r >= n || !*end || paths[r]) {
            ok = err_at(err, path, s.line, "expected 'RANK PATH' with a new rank below %d", n);
            continue;
        }
        size_t at = end[0] == '/' ? 0 : dirlen; /* an absolute path stays as it is */
        paths[r] = xmalloc(at + strlen(end) + 1);
        memcpy(paths[r], path, at);
        strcpy(paths[r] + at, end);
        seen++;
    }
    source_close(t, &s);
    if (ok && err->set) ok = false;
    if (ok && (!paths || seen != n))
        ok = err_at(err, path, 0, "index lists %d of %d ranks", seen, n);
    return adopt_paths(t, paths, paths ? n : 0, ok, err);
}

/* The first non-blank, non-comment line of a file (at most len-1 bytes). */
static bool first_line(const char *path, char *buf, int len) {
    gzFile f = gzopen(path, "rb");
    if (!f) return false;
    bool found = false, raw_first = true;
    while (!found && gzgets(f, buf, len)) {
        buf[strcspn(buf, "\r\n")] = '\0';
        /* a Dimemas header starts with '#' but is not a comment */
        found = !blank_or_comment(buf) || (raw_first && !strncmp(buf, "#DIMEMAS", 8));
        raw_first = false;
    }
    gzclose(f);
    return found;
}

static bool file_exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* A per-rank path of a description file: as written, else relative to the
 * description's folder, else its base name in that folder. */
static char *resolve_near(const char *desc, const char *p) {
    const char *slash = strrchr(desc, '/');
    size_t dirlen = slash ? (size_t)(slash - desc + 1) : 0;
    if (file_exists(p) || p[0] == '/' || !dirlen) return xstrdup(p);
    const char *cands[2] = {p, strrchr(p, '/') ? strrchr(p, '/') + 1 : p};
    for (int i = 0; i < 2; i++) {
        char *q = xmalloc(dirlen + strlen(cands[i]) + 1);
        memcpy(q, desc, dirlen);
        strcpy(q + dirlen, cands[i]);
        if (file_exists(q)) return q;
        free(q);
    }
    return xstrdup(p);
}

/* A description file (a dialect's): one per-rank trace path per line. */
static bool open_description(struct trace_reader *t, const char *path,
                             const struct trace_dialect *d, struct sim_error *err) {
    gzFile f = gzopen(path, "rb");
    char line[4096];
    int32_t n = 0, cap = 0;
    char **paths = NULL;
    while (f && gzgets(f, line, sizeof line)) {
        line[strcspn(line, "\r\n")] = '\0';
        if (blank_or_comment(line)) continue;
        if (n == cap)
            paths = xrealloc_or_die(paths, sizeof *paths * (size_t)(cap = cap ? cap * 2 : 64));
        paths[n++] = resolve_near(path, line);
    }
    if (f) gzclose(f);
    bool ok = true;
    for (int32_t i = 0; i < n && ok; i++)
        if (!file_exists(paths[i]))
            ok = err_at(err, path, 0, "the trace of rank %d, '%s', does not exist", i, paths[i]);
    t->dialect = d;
    return adopt_paths(t, paths, n, ok, err);
}

/* One file of a dialect holding every rank's actions: the rank count is
 * the largest rank that appears, plus one (a first streaming pass). */
static bool open_single(struct trace_reader *t, const char *path, const struct trace_dialect *d,
                        struct sim_error *err) {
    gzFile f = gzopen(path, "rb");
    char line[4096];
    long top = -1;
    uint8_t *seen = NULL; /* the ranks that have actions */
    size_t seen_cap = 0;
    while (f && gzgets(f, line, sizeof line)) {
        char *end;
        long r = strtol(line, &end, 10);
        if (end == line || r < 0 || r >= INT32_MAX) continue;
        if (r > top) top = r;
        if ((size_t)r >= seen_cap && r <= max_ranks()) {
            size_t cap = seen_cap ? seen_cap : 64;
            while (cap <= (size_t)r)
                cap *= 2;
            seen = xrealloc_or_die(seen, cap);
            memset(seen + seen_cap, 0, cap - seen_cap);
            seen_cap = cap;
        }
        if ((size_t)r < seen_cap) seen[r] = 1;
    }
    if (f) gzclose(f);
    t->dialect = d;
    t->shared.path = xstrdup(path);
    bool ok = check_rank_count(top + 1, path, 0, err);
    for (long r = 0; ok && r < top; r++)
        if (!seen[r]) /* not a rank count: ranks 0 and 5 are not 6 ranks */
            ok = err_at(err, path, 0,
                        "rank %ld has no actions, though rank %ld has: a %s trace holds "
                        "every rank's actions, from rank 0 up",
                        r, top, d->title);
    free(seen);
    if (!ok) return false;
    t->nranks = (int32_t)(top + 1);
    return t->nranks > 0 || err_at(err, path, 0, "no actions found");
}

/* The first field of a line; false for a blank line or a comment. */
static bool first_field(const char *l, size_t len, struct field *f) {
    return trace_next_field(&l, l + len, f);
}

/* The rank field of a record line, checked: every line belongs to a run
 * that some rank's cursor reads, so none is skipped unseen. */
static bool run_rank(const struct trace_reader *t, struct field f, int32_t *rank, const char *path,
                     int line, struct sim_error *err) {
    if (trace_field_int(f, 0, t->nranks - 1, rank)) return true;
    if (f.n == 5 && !memcmp(f.p, "ranks", 5))
        return err_at(err, path, line,
                      "a second 'ranks' line (the header already declared %d ranks)", t->nranks);
    return err_at(err, path, line,
                  "field 'rank': found '%.*s', expected a rank from 0 to %d at the start of a "
                  "record 'RANK OPERATION ...'",
                  (int)(f.n < 24 ? f.n : 23), f.p, t->nranks - 1);
}

/* Records the runs of a shared file after its header, while there are few
 * (at most RUNS_PER_RANK per rank on average); returns their count, or -1
 * when the file is finely interleaved (then it is read in one pass, queueing
 * records of ranks other than the one being served, which stays bounded). */
#define RUNS_PER_RANK 4
static int64_t scan_runs(struct trace_reader *t, struct run **out, struct sim_error *err) {
    struct source s = t->shared;
    s.io = NULL;
    s.eof = false;
    int64_t n = 0, cap = 0, limit = (int64_t)t->nranks * RUNS_PER_RANK + 64;
    long last = -1;
    const char *l;
    size_t len;
    for (int64_t at = s.consumed; (l = source_line(t, &s, &len, err)); at = s.consumed) {
        struct field f;
        if (!first_field(l, len, &f)) continue; /* blank, or a comment */
        int32_t r;
        if (!run_rank(t, f, &r, s.path, s.line, err)) break;
        if (r == last) continue; /* the rest of each line is checked when read */
        if (n == limit) {
            n = -1;
            break;
        }
        if (n == cap)
            *out = xrealloc_or_die(*out, sizeof **out * (size_t)(cap = cap ? cap * 2 : 256));
        (*out)[n++] = (struct run){at, s.line, (int32_t)r};
        last = r;
    }
    source_close(t, &s);
    return err->set ? -2 : n;
}

/* Gives each rank this process reads (trace_keep_ranks) its own cursor over
 * its runs (see scan_runs), at its first record: the cursors are a rank
 * table, of which a worker of a split run writes only its ranks' entries.
 * A rank with one run (the common case) keeps it in its cursor: no array,
 * and all cursors share the file's name. */
static void setup_runs(struct trace_reader *t) {
    struct run *runs = t->pending_runs;
    int64_t n = t->npending_runs;
    t->pending_runs = NULL;
    t->cursors_pending = false;
    t->cursor_ranks = xmalloc(sizeof *t->cursor_ranks * (size_t)t->nranks);
    for (int32_t r = 0; r < t->nranks; r++) {
        if (!kept(t, r)) continue;
        t->cursor_ranks[t->ncursor_ranks++] = r;
        struct source *s = &t->per_rank[r];
        s->path = t->shared.path;
        s->eof = true; /* until a run of its own */
        s->mapped = t->map != NULL;
        if (t->map) s->kind = SRC_PLAIN;
    }
    for (int64_t i = 0; i < n; i++)
        if (runs[i].rank >= 0 && runs[i].rank < t->nranks && kept(t, runs[i].rank))
            t->per_rank[runs[i].rank].nruns++;
    for (int64_t i = 0; i < n; i++) {
        if (runs[i].rank < 0 || runs[i].rank >= t->nranks || !kept(t, runs[i].rank)) continue;
        struct source *s = &t->per_rank[runs[i].rank];
        if (s->eof) { /* the first run: the cursor starts there */
            s->eof = false;
            s->consumed = runs[i].offset;
            s->line = runs[i].line - 1;
            s->next_run = 0; /* counts the runs kept until the end of this loop */
            if (s->nruns > 1) s->runs = xcalloc((size_t)s->nruns, sizeof *s->runs);
        }
        if (s->runs) s->runs[s->next_run] = runs[i];
        s->next_run++;
    }
    for (int64_t i = 0; i < n; i++)
        if (runs[i].rank >= 0 && runs[i].rank < t->nranks && kept(t, runs[i].rank))
            t->per_rank[runs[i].rank].next_run = 1;
    free(runs);
    t->cursor_ranks =
        xrealloc_or_die(t->cursor_ranks, sizeof *t->cursor_ranks * (size_t)(t->ncursor_ranks + 1));
}

/* Maps a plain shared file once, so that the rank cursors over its runs
 * read it without opening it again at every refill (at 65,536 ranks that
 * was 196,112 open/pread/close triples). Gzip files keep their handles. */
static void map_shared(struct trace_reader *t) {
    if (t->shared.kind != SRC_PLAIN) return;
    int fd = open(t->shared.path, O_RDONLY);
    struct stat st;
    if (fd < 0) return;
    if (fstat(fd, &st) == 0 && st.st_size > 0) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (m != MAP_FAILED) {
            t->map = m;
            t->map_len = (size_t)st.st_size;
        }
    }
    close(fd);
}

/* A gzip shared file read by many rank cursors: each would decompress from
 * the start to reach its runs (quadratic: 45 s for 4,096 ranks of 2
 * iterations). It is decompressed once into a temporary file, unlinked at
 * once (nothing is left behind whatever the end), and mapped as a plain
 * file is. On failure (no room in TMPDIR) the cursors read the gzip file. */
static void map_gzip(struct trace_reader *t) {
    if (t->shared.kind != SRC_GZIP || t->nranks < 2) return;
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/simpi-gunzip-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0) return;
    unlink(path);
    gzFile gz = gzopen(t->shared.path, "rb");
    char *buf = xmalloc(1 << 20);
    int got = 0;
    size_t total = 0;
    bool ok = gz != NULL;
    while (ok && (got = gzread(gz, buf, 1 << 20)) > 0) {
        ok = write(fd, buf, (size_t)got) == got;
        total += (size_t)got;
    }
    ok = ok && got == 0 && total > 0;
    if (gz) gzclose(gz);
    free(buf);
    void *m = ok ? mmap(NULL, total, PROT_READ, MAP_PRIVATE, fd, 0) : MAP_FAILED;
    close(fd);
    if (m == MAP_FAILED) return;
    t->map = m;
    t->map_len = total;
}

static bool index_runs(struct trace_reader *t, struct sim_error *err) {
    struct run *runs = NULL;
    int64_t n = scan_runs(t, &runs, err);
    if (n >= 0) {
        raise_fd_limit();
        t->per_rank = ranktable_alloc((size_t)t->nranks, sizeof *t->per_rank);
        t->pending_runs = runs; /* the cursors are set up at the first record */
        t->npending_runs = n;
        t->cursors_pending = true;
        runs = NULL;
        source_close(t, &t->shared);
        map_shared(t);
        if (!t->map) map_gzip(t);
    }
    if (n == -1) { /* finely interleaved: one cursor over the whole file, mapped when plain */
        source_close(t, &t->shared);
        map_shared(t);
        t->shared.mapped = t->map != NULL;
        if (t->map) t->lines = xcalloc((size_t)t->nranks, sizeof *t->lines);
    }
    free(runs);
    return n != -2;
}

/* Moves a rank's cursor to its next run; false when it has none left. */
static bool next_run(struct trace_reader *t, struct source *s) {
    source_close(t, s);
    if (s->next_run >= s->nruns) {
        s->eof = true;
        return false;
    }
    struct run *r = &s->runs[s->next_run++];
    s->consumed = r->offset;
    s->line = r->line - 1;
    return true;
}

/* A Dimemas trace: translated into native per-rank files in a temporary
 * folder (trace_dim.c), read as a directory. */
static bool make_temp_dir(struct trace_reader *t, const char *path, const char *kind,
                          struct sim_error *err) {
    const char *tmp = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/simpi-%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", kind);
    if (!mkdtemp(dir))
        return err_set(err, "%s: cannot create a temporary folder in %s: %s", path,
                       tmp && *tmp ? tmp : "/tmp", strerror(errno));
    t->temp_dir = xstrdup(dir);
    outfile_note_temp_dir(t->temp_dir);
    return true;
}

static void remove_temp_dir(struct trace_reader *t) {
    if (!t->temp_dir) return;
    outfile_forget_temp_dir(t->temp_dir);
    rankfile_remove(t->temp_dir, 0, -1);
    rmdir(t->temp_dir);
    free(t->temp_dir);
    t->temp_dir = NULL;
}

static int32_t intern_name(void *ctx, const char *name) {
    return trace_intern(ctx, name);
}

/* A format that gives its records itself (trace_formats.c); messages
 * name path. */
static bool open_source(struct trace_reader *t, const struct trace_format *f, const char *path,
                        struct sim_error *err) {
    if (f->needs_temp_dir && !make_temp_dir(t, path, f->name, err)) return false;
    if (f->translate)
        return f->translate(path, t->temp_dir, err) && open_directory(t, t->temp_dir, err);
    t->shared.path = xstrdup(path);
    int32_t n = 0;
    t->source = f->open(path, t->temp_dir, max_ranks(), intern_name, t, &n, err);
    t->nranks = n;
    if (t->source) t->format_ops = f;
    return t->source != NULL;
}

/* Chooses the reader from the first bytes (binary, OTF2) or the first line:
 * native header, index, a dialect (trace_format.h). */
static bool open_file(struct trace_reader *t, const char *path, struct sim_error *err) {
    char head[4096];
    const struct trace_format *f = trace_format_of(path);
    if (f) return open_source(t, f, path, err);
    if (!first_line(path, head, sizeof head))
        return err_at(err, path, 0, "empty trace: expected 'simpi-trace 1'");
    if (!strncmp(head, "simpi-trace-index", 17)) return open_index(t, path, err);
    if (!strncmp(head, "simpi-trace", 11)) {
        t->shared.path = xstrdup(path);
        return read_header(t, &t->shared, &t->nranks, true, err) && index_runs(t, err);
    }
    /* a description lists existing files that hold a dialect's actions */
    char *copy = resolve_near(path, head);
    char sub[4096];
    bool listed = file_exists(copy) && first_line(copy, sub, sizeof sub);
    free(copy);
    for (int i = 0; trace_dialects[i]; i++) {
        const struct trace_dialect *d = trace_dialects[i];
        if (listed && d->is_action(sub)) return open_description(t, path, d, err);
        if (d->holds_all_ranks(head)) return open_single(t, path, d, err);
    }
    return err_at(err, path, 1,
                  "not a trace: expected the header 'simpi-trace 1', an index, a Dimemas trace "
                  "('#DIMEMAS:...') or a SimGrid time-independent trace; found '%.40s'%s",
                  head, invisible_cause(head));
}

/* A dialect's state, for its files (a file shared by ranks once). */
static void prepare_dialect(struct trace_reader *t) {
    if (!t->per_rank_files) {
        t->dialect_state = t->dialect->prepare(&t->shared.path, 1, t->nranks);
        return;
    }
    char **paths = xcalloc((size_t)t->nranks, sizeof *paths);
    int32_t n = 0;
    for (int32_t i = 0; i < t->nranks; i++)
        if (!n || t->per_rank[i].path != paths[n - 1]) paths[n++] = t->per_rank[i].path;
    t->dialect_state = t->dialect->prepare(paths, n, t->nranks);
    free(paths);
}

struct trace_reader *trace_open(const char *path, struct sim_error *err) {
    struct trace_reader *t = reader_new();
    struct stat st;
    bool ok;
    if (stat(path, &st) != 0) {
        err_set(err, "%s: cannot open trace: %s", path, strerror(errno));
        ok = false;
    } else if (S_ISDIR(st.st_mode)) {
        ok = open_directory(t, path, err);
    } else {
        ok = open_file(t, path, err);
    }
    SIMPI_LOG(LOG_TRACE, SIMTIME_NEVER, "%s: %s, %d ranks%s%s", path, ok ? "opened" : "refused",
              ok ? t->nranks : 0, ok ? "" : ": ", ok ? "" : err->msg);
    if (ok && !t->source && !t->lines) /* these readers queue no records */
        t->queues = ranktable_alloc((size_t)t->nranks, sizeof *t->queues);
    if (ok && !S_ISDIR(st.st_mode) && t->shared.path && t->shared.kind == SRC_PLAIN)
        t->bytes_total = st.st_size; /* a plain file: its share read can be told */
    if (ok && t->dialect) prepare_dialect(t);
    if (!ok) {
        trace_close(t);
        return NULL;
    }
    return t;
}

void trace_close(struct trace_reader *t) {
    if (!t) return;
    if (t->source) t->format_ops->close(t->source);
    if (t->map) munmap((void *)t->map, t->map_len);
    source_close(t, &t->shared);
    free(t->shared.path);
    free(t->pending_runs);
    int32_t cursors = t->per_rank_files ? t->nranks : t->ncursor_ranks;
    for (int32_t k = 0; t->per_rank && k < cursors; k++) {
        int32_t i = t->per_rank_files ? k : t->cursor_ranks[k];
        source_close(t, &t->per_rank[i]);
        if (t->per_rank[i].path != t->shared.path) free(t->per_rank[i].path);
        free(t->per_rank[i].runs);
    }
    if (t->per_rank_files)
        free(t->per_rank);
    else
        ranktable_free(t->per_rank, (size_t)t->nranks, sizeof *t->per_rank);
    free(t->line_buf);
    /* records read ahead for ranks that never got to them (a run stopped
     * early) may own arrays */
    int32_t queued = t->cursor_ranks ? t->ncursor_ranks : t->nranks; /* only kept ranks queue */
    for (int32_t k = 0; t->queues && k < queued; k++)
        for (struct trace_rec *r = t->queues[t->cursor_ranks ? t->cursor_ranks[k] : k].head; r;
             r = r->next)
            trace_rec_clear(r);
    free(t->cursor_ranks);
    ranktable_free(t->queues, (size_t)t->nranks, sizeof *t->queues);
    for (int32_t i = 0; t->lines && i < t->nranks; i++)
        free(t->lines[i].ref);
    free(t->lines);
    if (t->dialect) t->dialect->release(t->dialect_state);
    if (t->extra) pool_put(&t->recs, t->extra);
    for (int32_t i = 0; i < t->names.n; i++)
        free(t->names.list[i]);
    free(t->names.list);
    free(t->names.table);
    pool_destroy(&t->recs);
    remove_temp_dir(t);
    free(t);
}

double trace_share_read(const struct trace_reader *t) {
    return t->bytes_total > 0 ? (double)t->bytes_read / (double)t->bytes_total : -1;
}

int32_t trace_ranks(const struct trace_reader *t) {
    return t->nranks;
}
uint64_t trace_records(const struct trace_reader *t) {
    return t->records;
}

const char *trace_file_of(const struct trace_reader *t, int32_t rank) {
    return t->per_rank && t->per_rank_files ? t->per_rank[rank].path : t->shared.path;
}

static size_t name_hash(const char *name, size_t cap) {
    uint64_t h = 1469598103934665603ull;
    for (; *name; name++)
        h = (h ^ (unsigned char)*name) * 1099511628211ull;
    return (size_t)(h & (cap - 1));
}

/* Re-inserts every name into a table twice as large. */
static void grow_name_table(struct trace_reader *t) {
    free(t->names.table);
    t->names.table_cap = t->names.table_cap ? 2 * t->names.table_cap : 64;
    t->names.table = xcalloc(t->names.table_cap, sizeof *t->names.table);
    for (int32_t i = 0; i < t->names.n; i++) {
        size_t h = name_hash(t->names.list[i], t->names.table_cap);
        while (t->names.table[h])
            h = (h + 1) & (t->names.table_cap - 1);
        t->names.table[h] = i + 1;
    }
}

int32_t trace_intern(struct trace_reader *t, const char *name) {
    if (2 * ((size_t)t->names.n + 1) > t->names.table_cap) grow_name_table(t);
    size_t h = name_hash(name, t->names.table_cap);
    for (; t->names.table[h]; h = (h + 1) & (t->names.table_cap - 1))
        if (!strcmp(t->names.list[t->names.table[h] - 1], name)) return t->names.table[h] - 1;
    if (t->names.n == t->names.cap) {
        t->names.cap = t->names.cap ? t->names.cap * 2 : 16;
        t->names.list =
            xrealloc_or_die(t->names.list, sizeof *t->names.list * (size_t)t->names.cap);
    }
    t->names.list[t->names.n] = xstrdup(name);
    t->names.table[h] = t->names.n + 1;
    return t->names.n++;
}

int32_t trace_interval_count(const struct trace_reader *t) {
    return t->names.n;
}

const char *trace_interval_name(const struct trace_reader *t, int32_t id) {
    return id >= 0 && id < t->names.n ? t->names.list[id] : "?";
}

/* Reads and parses the next record line of a source; NULL at EOF or error. */
/* Parses a dialect's action line; 1 record, 0 nothing, -1 error. A
 * second record, if any, is left in t->extra. */
static int parse_dialect(struct trace_reader *t, struct source *s, char *l, struct trace_rec *r,
                         struct sim_error *err) {
    int32_t rank = t->per_rank ? (int32_t)(s - t->per_rank) : -1;
    struct trace_rec *x = pool_get_raw(&t->recs);
    bool has_x = false;
    int got = t->dialect->parse(t->dialect_state, l, rank, t->nranks, r, x, &has_x, s->path,
                                s->line, err);
    if (got == 1 && has_x) {
        x->ids = NULL;
        x->nids = 0;
        x->counts = NULL;
        t->extra = x;
    } else {
        pool_put(&t->recs, x);
    }
    return got;
}

/* A split run reading one shared file: whether line l is a record of
 * another worker's rank (its leading rank number says so), which this
 * worker need not parse; its own worker reads it, and reports it if it is
 * malformed. */
static bool others_record(const struct trace_reader *t, const struct source *s, const char *l,
                          size_t len) {
    if (!t->keep || s != &t->shared || t->dialect) return false;
    struct field f;
    int32_t rank;
    if (!first_field(l, len, &f) || !trace_field_int(f, 0, t->nranks - 1, &rank)) return false;
    if (f.p + f.n == l + len || (f.p[f.n] != ' ' && f.p[f.n] != '\t')) return false;
    return !t->keep(t->keep_ctx, rank);
}

/* Parses line l of source s into r: 1 a record, 0 nothing, -1 an error. */
static int parse_line(struct trace_reader *t, struct source *s, const char *l, size_t len,
                      struct trace_rec *r, struct sim_error *err) {
    if (!t->dialect) return trace_parse_span(t, l, len, t->nranks, r, s->path, s->line, err);
    char *copy = line_copy(t, l, len);
    return blank_or_comment(copy) ? 0 : parse_dialect(t, s, copy, r, err);
}

static struct trace_rec *read_record(struct trace_reader *t, struct source *s,
                                     struct sim_error *err) {
    const char *l;
    size_t len;
    for (;;) {
        int64_t before = s->consumed;
        if (!(l = source_line(t, s, &len, err))) break;
        t->bytes_read += s->consumed - before;
        if (others_record(t, s, l, len)) continue;
        struct trace_rec *r = pool_get_raw(&t->recs); /* parse fills it */
        int got = parse_line(t, s, l, len, r, err);
        if (got != 1) {
            pool_put(&t->recs, r);
            if (got < 0) return NULL;
            continue;
        }
        t->records++;
        return r;
    }
    return NULL;
}

static void queue_push_back(struct rank_queue *q, struct trace_rec *r) {
    r->next = NULL;
    if (q->tail)
        q->tail->next = r;
    else
        q->head = r;
    q->tail = r;
}

static void queue_push_front(struct rank_queue *q, struct trace_rec *r) {
    r->next = q->head;
    q->head = r;
    if (!q->tail) q->tail = r;
}

static void line_push(struct trace_reader *t, struct line_queue *q, struct line_ref ref) {
    if (q->count == q->cap) {
        uint32_t cap = q->cap ? 2 * q->cap : 4;
        struct line_ref *v = xmalloc(sizeof *v * cap);
        for (uint32_t i = 0; i < q->count; i++)
            v[i] = q->ref[(q->head + i) % q->cap];
        free(q->ref);
        t->lines_bytes += (int64_t)(sizeof *v * (cap - q->cap));
        if (t->lines_bytes > t->lines_peak) t->lines_peak = t->lines_bytes;
        q->ref = v;
        q->head = 0;
        q->cap = cap;
    }
    q->ref[(q->head + q->count++) % q->cap] = ref;
}

/* Parses the mapped line at ref as a record of the shared file. */
static struct trace_rec *parse_mapped(struct trace_reader *t, struct line_ref ref,
                                      struct sim_error *err) {
    struct trace_rec *r = pool_get_raw(&t->recs);
    if (trace_parse_span(t, t->map + ref.offset, (size_t)ref.len, t->nranks, r, t->shared.path,
                         ref.line, err) != 1) {
        pool_put(&t->recs, r);
        return NULL;
    }
    t->records++;
    return r;
}

/* The next record of a rank from a finely interleaved mapped file: a line
 * read ahead for it, else the file is read on, and the lines of other
 * ranks are queued by where they lie (a few bytes each) until their rank
 * needs them. */
static struct trace_rec *mapped_next(struct trace_reader *t, int32_t rank, struct sim_error *err) {
    struct line_queue *q = &t->lines[rank];
    if (q->count) {
        struct line_ref ref = q->ref[q->head];
        q->head = (q->head + 1) % q->cap;
        q->count--;
        return parse_mapped(t, ref, err);
    }
    struct source *s = &t->shared;
    const char *l;
    size_t len;
    while ((l = source_line(t, s, &len, err))) {
        struct line_ref ref = {(int64_t)(l - t->map), s->line, (int32_t)len};
        t->bytes_read += (int64_t)len + 1;
        struct field f;
        int32_t who;
        if (!first_field(l, len, &f)) continue;
        if (!trace_field_int(f, 0, t->nranks - 1, &who) || who == rank)
            return parse_mapped(t, ref, err);                /* its own, or an error to report */
        if (t->keep && !t->keep(t->keep_ctx, who)) continue; /* another worker's */
        line_push(t, &t->lines[who], ref);
    }
    return NULL;
}

/* The next record of a format that gives records itself. */
static struct trace_rec *source_next(struct trace_reader *t, int32_t rank, struct sim_error *err) {
    struct trace_rec *r = pool_get_raw(&t->recs);
    if (t->format_ops->next(t->source, rank, r, t->finished, t->finished_ctx, err) == 1) {
        t->records++;
        return r;
    }
    pool_put(&t->recs, r);
    return NULL;
}

static bool trace_follows_replay(const struct trace_reader *t) {
    return t->source && t->format_ops->follows_replay;
}

struct trace_reader *trace_open_convertible(const char *path, struct sim_error *err) {
    struct trace_reader *t = trace_open(path, err);
    if (t && trace_follows_replay(t)) {
        err_set(err,
                "%s: a GOAL schedule's operations run as their dependencies allow, in an order "
                "the replay finds: it is replayed (simpi replay), not converted",
                path);
        trace_close(t);
        t = NULL;
    }
    return t;
}

void trace_set_request_probe(struct trace_reader *t, bool (*finished)(void *, int32_t, int32_t),
                             void *ctx) {
    t->finished = finished;
    t->finished_ctx = ctx;
}

void trace_warm(const struct trace_reader *t, int32_t rank, int stage) {
    if (t->source) {
        if (t->format_ops->warm) t->format_ops->warm(t->source, rank, stage);
    } else if (t->lines) {
        const struct line_queue *q = &t->lines[rank];
        if (stage == 0)
            cache_prefetch(q);
        else if (q->count)
            cache_prefetch(t->map + q->ref[q->head].offset);
    }
}

struct trace_rec *trace_next(struct trace_reader *t, int32_t rank, struct sim_error *err) {
    if (t->source) return source_next(t, rank, err);
    if (t->lines) return mapped_next(t, rank, err);
    struct rank_queue *q = &t->queues[rank];
    if (q->head) {
        struct trace_rec *r = q->head;
        if (!(q->head = r->next)) q->tail = NULL;
        return r;
    }
    if (t->cursors_pending) setup_runs(t);
    if (t->per_rank) {
        struct source *s = &t->per_rank[rank];
        struct trace_rec *r = read_record(t, s, err);
        while (r && r->rank != rank && s->nruns) { /* end of this run */
            trace_release(t, r);
            t->records--; /* read again by its own rank */
            r = next_run(t, s) ? read_record(t, s, err) : NULL;
        }
        if (r && r->rank != rank) {
            err_at(err, s->path, r->line, "record of rank %d in the file of rank %d", r->rank,
                   rank);
            trace_release(t, r);
            return NULL;
        }
        if (r && t->extra) queue_push_front(q, t->extra);
        t->extra = NULL;
        return r;
    }
    struct trace_rec *r;
    while ((r = read_record(t, &t->shared, err))) {
        struct trace_rec *x = t->extra;
        t->extra = NULL;
        if (r->rank == rank) {
            if (x) queue_push_front(q, x);
            return r;
        }
        if (t->keep && !t->keep(t->keep_ctx, r->rank)) { /* another worker's */
            t->records--;
            trace_release(t, r);
            if (x) trace_release(t, x);
            continue;
        }
        queue_push_back(&t->queues[r->rank], r);
        if (x) queue_push_back(&t->queues[r->rank], x);
    }
    return NULL;
}

void trace_keep_ranks(struct trace_reader *t, bool (*keep)(void *ctx, int32_t rank), void *ctx) {
    t->keep = keep;
    t->keep_ctx = ctx;
}

int trace_read(struct trace_reader *t, int32_t rank, struct trace_rec *r, struct sim_error *err) {
    if (t->source) {
        int got = t->format_ops->next(t->source, rank, r, t->finished, t->finished_ctx, err);
        t->records += got == 1;
        return got == 1 ? 1 : err->set ? -1 : 0;
    }
    struct trace_rec *q = trace_next(t, rank, err);
    if (!q) return err->set ? -1 : 0;
    *r = *q; /* its lists go with it */
    pool_put(&t->recs, q);
    return 1;
}

void trace_release(struct trace_reader *t, struct trace_rec *r) {
    trace_rec_clear(r);
    pool_put(&t->recs, r);
}

int64_t trace_buffer_peak(const struct trace_reader *t) {
    return (int64_t)(t->recs.peak * t->recs.obj_size) + t->lines_peak + (int64_t)t->map_len +
           (t->source && t->format_ops->buffer_peak ? t->format_ops->buffer_peak(t->source) : 0);
}

bool trace_rec_fail(const struct trace_reader *t, const struct trace_rec *r, struct sim_error *err,
                    const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return err_at(err, trace_file_of(t, r->rank), r->line, "rank %d: %s", r->rank, msg);
}
