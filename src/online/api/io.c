/* SPDX-License-Identifier: BSD-3-Clause */
/* MPI-IO (MPI-3.1 chapter 13) for on-line programs: files on the host file
 * system, opened collectively; views (displacement, etype, filetype, the
 * native or external32 representation); explicit offsets, individual and
 * shared file pointers; independent, collective, split collective and
 * non-blocking reads and writes; size, preallocation, sync, hints, error
 * handlers per file.
 *
 * The data is read and written at the call (pread/pwrite of each
 * contiguous piece the view maps the access to); the time is that of the
 * platform's storage model (src/mpi/io.c, docs/models.md "File I/O"): one
 * request of the access's bytes per call, collective calls first
 * synchronising the file's group. Absolute paths are taken under the
 * platform's storage.root when it is set (as a simulated file system
 * mounted there).
 *
 * The shared file pointer lives with the file's first member (its "home"):
 * an independent access through it asks the home for its place (a landing
 * there and back, sim_land), and the collective ones (ordered accesses,
 * seek_shared) learn the home's pointer with their exchange. So in a split
 * run, where each worker opens the file for its own members, the home's
 * worker creates it (and deletes it on close) and tells the others how the
 * open went, the pointer has one keeper, and the run gives what one
 * process gives. */
#define _GNU_SOURCE /* pread, pwrite, ftruncate, fsync */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "online/api/api.h"

struct view {
    MPI_Offset disp;
    MPI_Datatype etype, filetype;
    bool external32;
};

/* Hints kept and returned by MPI_File_get_info (simpi acts on none). */
#define FILE_HINTS 4
static const char *const file_hint_keys[FILE_HINTS] = {"access_style", "collective_buffering",
                                                       "cb_nodes", "striping_factor"};

struct file_member {
    int32_t world;
    MPI_Comm comm; /* the file's private communicator, as this rank names it */
    struct view view;
    MPI_Offset pos; /* individual file pointer, in etypes */
    int errhandler;
    bool closed;
    struct request *waiter; /* the rank waits for the home's answer (shared pointer) */
    MPI_Offset fetched;     /* and the answer */
    int64_t split_bytes;    /* a split collective's bytes, for its _end */
    uint64_t ordered_calls; /* its ordered accesses so far (io_ordered) */
    bool split_open;
    char hints[FILE_HINTS][64];
};

struct mfile {
    int n, joined, nclosed;
    uint32_t key_ctx, key_seq; /* the opening call */
    int fd, amode, open_error;
    char *path; /* on the host */
    bool atomic;
    MPI_Offset shared_pos;  /* shared file pointer, in etypes (the home's is the one) */
    uint64_t ordered_moved; /* the ordered accesses whose move of it is done (io_ordered) */
    int nlocal;             /* members run by this worker (all but in a split run) */
    bool home;              /* this worker runs the first member */
    struct file_member *m;
};

static struct mfile **files; /* handle = index + 1 (MPI_FILE_NULL is 0) */
static int nfiles;
static int *default_handlers; /* per rank: the handler of MPI_FILE_NULL (0: MPI_ERRORS_RETURN) */

static int default_handler(void) {
    return default_handlers && default_handlers[runtime_rank()] ? default_handlers[runtime_rank()]
                                                                : MPI_ERRORS_RETURN;
}

static struct file_member *member_of(struct mfile *f) {
    int32_t world = runtime_rank();
    for (int i = 0; f && i < f->n; i++)
        if (f->m[i].world == world && !f->m[i].closed) return &f->m[i];
    return NULL;
}

static struct mfile *file_get(MPI_File fh) {
    return fh >= 1 && fh <= nfiles ? files[fh - 1] : NULL;
}

static int file_error(const char *func, MPI_File fh, const struct file_member *me, int code,
                      const char *what) {
    return api_error_handler(me ? me->errhandler : default_handler(), fh, func, code, "%s", what);
}

#define FILE_OR_FAIL(func, fh, f, me)                                                              \
    struct mfile *f = file_get(fh);                                                                \
    struct file_member *me = member_of(f);                                                         \
    if (!me) return file_error(func, fh, NULL, MPI_ERR_FILE, "not an open file")

/* Waits for a storage request of `bytes` (blocking calls). */
static void storage_wait(int64_t bytes) {
    struct request *r = sim_io(simpi_rt->sim, runtime_rank(), bytes, -1);
    runtime_wait(&r, 1, false);
}

/* The host path of a program's file name. */
static char *host_path(const char *name) {
    const char *root = simpi_rt->plat->storage.root;
    if (strncmp(name, "file:", 5) == 0) name += 5; /* ROMIO-style prefixes */
    if (!root || name[0] != '/') return xstrdup(name);
    char *p = xmalloc(strlen(root) + strlen(name) + 1);
    strcpy(p, root);
    strcat(p, name);
    return p;
}

static int errno_class(int e) {
    switch (e) {
    case ENOENT:
        return MPI_ERR_NO_SUCH_FILE;
    case EEXIST:
        return MPI_ERR_FILE_EXISTS;
    case EACCES:
    case EPERM:
        return MPI_ERR_ACCESS;
    case EROFS:
        return MPI_ERR_READ_ONLY;
    case ENOSPC:
        return MPI_ERR_NO_SPACE;
    case EDQUOT:
        return MPI_ERR_QUOTA;
    case EISDIR:
    case ENAMETOOLONG:
        return MPI_ERR_BAD_FILE;
    default:
        return MPI_ERR_IO;
    }
}

/* --- opening and closing --- */

static bool amode_valid(int amode) {
    int rw = !!(amode & MPI_MODE_RDONLY) + !!(amode & MPI_MODE_WRONLY) + !!(amode & MPI_MODE_RDWR);
    if (rw != 1) return false;
    if ((amode & MPI_MODE_RDONLY) && (amode & (MPI_MODE_CREATE | MPI_MODE_EXCL))) return false;
    return !((amode & MPI_MODE_RDWR) && (amode & MPI_MODE_SEQUENTIAL));
}

static void host_open(struct mfile *f, const char *name) {
    int flags = f->amode & MPI_MODE_RDONLY   ? O_RDONLY
                : f->amode & MPI_MODE_WRONLY ? O_WRONLY
                                             : O_RDWR;
    if (f->amode & MPI_MODE_CREATE) flags |= O_CREAT;
    if (f->amode & MPI_MODE_EXCL) flags |= O_EXCL;
    f->path = host_path(name);
    f->fd = open(f->path, flags | O_CLOEXEC, 0644);
    f->open_error = f->fd < 0 ? errno_class(errno) : MPI_SUCCESS;
}

/* The result of an open made by another worker (the file's home). */
struct opened {
    uint32_t key_ctx, key_seq;
    int32_t error;
};
static struct opened *opened_elsewhere;
static int nopened;

void io_take_opened(const void *msg, uint32_t len) {
    if (len < sizeof(struct opened)) return;
    opened_elsewhere =
        xrealloc_or_die(opened_elsewhere, sizeof *opened_elsewhere * (size_t)(nopened + 1));
    memcpy(&opened_elsewhere[nopened++], msg, sizeof(struct opened));
}

/* Another worker's part of the file: opened as its home's worker opened
 * it (the home created it if asked; its result came with the open's
 * exchange, which ends only after the home's members joined). */
static void open_like_home(struct mfile *f) {
    int32_t error = MPI_ERR_IO;
    for (int i = 0; i < nopened; i++)
        if (opened_elsewhere[i].key_ctx == f->key_ctx &&
            opened_elsewhere[i].key_seq == f->key_seq) {
            error = opened_elsewhere[i].error;
            opened_elsewhere[i] = opened_elsewhere[--nopened];
            break;
        }
    f->open_error = error;
    if (error != MPI_SUCCESS) return;
    int flags = f->amode & MPI_MODE_RDONLY   ? O_RDONLY
                : f->amode & MPI_MODE_WRONLY ? O_WRONLY
                                             : O_RDWR;
    f->fd = open(f->path, flags | O_CLOEXEC);
    if (f->fd < 0) f->open_error = errno_class(errno);
}

/* The file being opened by this collective call: the first member to
 * arrive (in this worker) joins it, the others join. The home's worker
 * opens it, and tells the other workers with members how that went. */
static struct mfile *file_join(MPI_Comm comm, const char *name, int amode, MPI_File *handle) {
    struct sim *s = simpi_rt->sim;
    int32_t world = runtime_rank();
    uint32_t ctx = sim_comm_context(s, world, comm), seq = api_next_coll_seq(world, comm);
    for (int i = nfiles - 1; i >= 0; i--) {
        struct mfile *f = files[i];
        if (f && f->joined < f->nlocal && f->key_ctx == ctx && f->key_seq == seq) {
            *handle = i + 1;
            return f;
        }
    }
    struct mfile *f = xcalloc(1, sizeof *f);
    f->n = sim_comm_size(s, world, comm);
    f->key_ctx = ctx;
    f->key_seq = seq;
    f->amode = amode;
    f->fd = -1;
    f->m = xcalloc((size_t)f->n, sizeof *f->m);
    for (int i = 0; i < f->n; i++) {
        f->m[i].world = sim_comm_member(s, world, comm, i);
        f->nlocal += sim_worker_of(s, f->m[i].world) == sim_worker_me(s);
    }
    f->home = sim_worker_of(s, f->m[0].world) == sim_worker_me(s);
    if (f->home) {
        host_open(f, name);
        struct opened o = {ctx, seq, f->open_error};
        const int32_t *others;
        int nothers = sim_comm_workers(s, world, comm, &others);
        struct sim_piece piece = {&o, sizeof o};
        for (int i = 0; i < nothers; i++)
            runtime_post_front(FRONT_FILE_OPENED, others[i], &piece, 1);
    } else {
        f->path = host_path(name);
    }
    files = xrealloc_or_die(files, sizeof *files * (size_t)(nfiles + 1));
    files[nfiles++] = f;
    *handle = nfiles;
    return f;
}

static void hints_take(struct file_member *me, MPI_Info info) {
    api_hints_take(info, file_hint_keys, FILE_HINTS, me->hints[0], sizeof me->hints[0]);
}

/* A member leaves the file; the last one closes it. */
static void member_close(struct mfile *f, struct file_member *me, MPI_File fh) {
    me->closed = true;
    dt_release(me->view.etype);
    dt_release(me->view.filetype);
    if (++f->nclosed < f->nlocal) return;
    if (f->fd >= 0) {
        close(f->fd);
        if (f->home && (f->amode & MPI_MODE_DELETE_ON_CLOSE)) unlink(f->path);
    }
    free(f->path);
    free(f->m);
    free(f);
    files[fh - 1] = NULL;
}

static int file_open(MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh) {
    int rc = api_check_comm("MPI_File_open", comm);
    if (rc != MPI_SUCCESS) return rc;
    *fh = MPI_FILE_NULL;
    if (!amode_valid(amode))
        return file_error("MPI_File_open", MPI_FILE_NULL, NULL, MPI_ERR_AMODE,
                          "the access mode needs one of RDONLY, WRONLY, RDWR (RDONLY without "
                          "CREATE or EXCL, RDWR without SEQUENTIAL)");
    MPI_File handle;
    struct mfile *f = file_join(comm, name, amode, &handle);
    struct file_member *me = &f->m[sim_comm_rank(simpi_rt->sim, runtime_rank(), comm)];
    f->joined++;
    me->view = (struct view){0, MPI_BYTE, MPI_BYTE, false};
    me->errhandler = default_handler();
    hints_take(me, info);
    me->comm = api_comm_dup_private(comm); /* every member has joined when it returns */
    if (!f->home && f->fd < 0 && f->open_error == MPI_SUCCESS) open_like_home(f);
    storage_wait(0); /* the open: a metadata request */
    if (f->open_error != MPI_SUCCESS) {
        int code = f->open_error;
        char what[600];
        snprintf(what, sizeof what, "cannot open '%s' (%s)", f->path, name);
        member_close(f, me, handle);
        return file_error("MPI_File_open", MPI_FILE_NULL, NULL, code, what);
    }
    *fh = handle;
    return MPI_SUCCESS;
}

static int file_close(MPI_File *fh) {
    FILE_OR_FAIL("MPI_File_close", *fh, f, me);
    api_coll_barrier(me->comm);
    member_close(f, me, *fh);
    *fh = MPI_FILE_NULL;
    return MPI_SUCCESS;
}

static int file_delete(const char *name, MPI_Info info) {
    (void)info;
    char *path = host_path(name);
    int rc = unlink(path) == 0 ? MPI_SUCCESS : errno_class(errno);
    free(path);
    storage_wait(0);
    if (rc != MPI_SUCCESS)
        return file_error("MPI_File_delete", MPI_FILE_NULL, NULL, rc, "cannot delete the file");
    return MPI_SUCCESS;
}

/* --- views --- */

static int file_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                         const char *datarep, MPI_Info info) {
    FILE_OR_FAIL("MPI_File_set_view", fh, f, me);
    int rc;
    if ((rc = api_check_type("MPI_File_set_view", etype, 1)) != MPI_SUCCESS ||
        (rc = api_check_type("MPI_File_set_view", filetype, 1)) != MPI_SUCCESS)
        return rc;
    if (!dt_committed(filetype) || dt_size(etype) <= 0 || dt_size(filetype) <= 0 ||
        dt_size(filetype) % dt_size(etype) != 0)
        return file_error("MPI_File_set_view", fh, me, MPI_ERR_TYPE,
                          "the filetype must be committed and made of whole etypes");
    bool ext32 = strcmp(datarep, "external32") == 0;
    if (!ext32 && strcmp(datarep, "native") != 0 && strcmp(datarep, "internal") != 0)
        return file_error("MPI_File_set_view", fh, me, MPI_ERR_UNSUPPORTED_DATAREP,
                          "data representations are native, internal and external32");
    if (disp == MPI_DISPLACEMENT_CURRENT) {
        if (!(f->amode & MPI_MODE_SEQUENTIAL))
            return file_error("MPI_File_set_view", fh, me, MPI_ERR_ARG,
                              "MPI_DISPLACEMENT_CURRENT needs MPI_MODE_SEQUENTIAL");
        disp = me->view.disp + me->pos * dt_size(me->view.etype);
    }
    dt_release(me->view.etype);
    dt_release(me->view.filetype);
    dt_retain(etype);
    dt_retain(filetype);
    me->view = (struct view){disp, etype, filetype, ext32};
    me->pos = 0;
    f->shared_pos = 0;
    hints_take(me, info);
    api_coll_barrier(me->comm);
    return MPI_SUCCESS;
}

static int file_get_view(MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
                         char *datarep) {
    FILE_OR_FAIL("MPI_File_get_view", fh, f, me);
    (void)f;
    *disp = me->view.disp;
    *etype = me->view.etype; /* derived types: duplicates the program may free */
    if (*etype >= DT_FIRST_DERIVED) PMPI_Type_dup(me->view.etype, etype);
    *filetype = me->view.filetype;
    if (*filetype >= DT_FIRST_DERIVED) PMPI_Type_dup(me->view.filetype, filetype);
    strcpy(datarep, me->view.external32 ? "external32" : "native");
    return MPI_SUCCESS;
}

/* Calls io(ctx, file offset, len, data) on each contiguous piece of the
 * view's data bytes [pos, pos + n), adjacent pieces merged; stops at the
 * first piece io does not complete. Returns the bytes done. */
static int64_t view_each(const struct view *v, int64_t pos, int64_t n, char *data,
                         int64_t (*io)(void *, int64_t, int64_t, char *), void *ctx) {
    struct dt_block one;
    int nb;
    const struct dt_block *b = dt_blocks(v->filetype, &nb, &one);
    int64_t tile_bytes = dt_size(v->filetype), extent = dt_extent(v->filetype);
    int64_t tile = pos / tile_bytes, within = pos % tile_bytes, done = 0;
    int64_t run_off = -1, run_len = 0; /* the piece being merged */
    int i = 0;
    while (within >= b[i].len) /* the block holding `within` */
        within -= b[i++].len;
    while (done < n) {
        int64_t take = b[i].len - within < n - done ? b[i].len - within : n - done;
        int64_t off = v->disp + tile * extent + b[i].off + within;
        if (run_len > 0 && off != run_off + run_len) {
            int64_t got = io(ctx, run_off, run_len, data + done - run_len);
            if (got < run_len) return done - run_len + got;
            run_len = 0;
        }
        if (run_len == 0) run_off = off;
        run_len += take;
        done += take;
        within = 0;
        if (++i == nb) i = 0, tile++;
    }
    if (run_len > 0) {
        int64_t got = io(ctx, run_off, run_len, data + done - run_len);
        if (got < run_len) return done - run_len + got;
    }
    return done;
}

static int64_t host_read(void *ctx, int64_t off, int64_t len, char *data) {
    int fd = *(int *)ctx;
    int64_t done = 0;
    while (done < len) {
        ssize_t k = pread(fd, data + done, (size_t)(len - done), (off_t)(off + done));
        if (k <= 0) break; /* end of file (or an error: a short read) */
        done += k;
    }
    return done;
}

static int64_t host_write(void *ctx, int64_t off, int64_t len, char *data) {
    int fd = *(int *)ctx;
    int64_t done = 0;
    while (done < len) {
        ssize_t k = pwrite(fd, data + done, (size_t)(len - done), (off_t)(off + done));
        if (k <= 0) break;
        done += k;
    }
    return done;
}

/* --- reading and writing --- */

enum io_pointer { IO_EXPLICIT, IO_INDIVIDUAL, IO_SHARED };

struct io_call {
    const char *func;
    bool write, collective;
    enum io_pointer ptr;
    MPI_Offset offset; /* IO_EXPLICIT, in etypes */
    void *buf;
    int count;
    MPI_Datatype type;
};

/* --- the shared file pointer, kept by the file's home --- */

/* What a member asks the home and what comes back (landings, sim_land). */
struct io_land {
    uint8_t kind, pad[3];
    uint32_t key_ctx, key_seq; /* the file */
    int32_t from;              /* the member that asked */
    int64_t etypes;            /* to add (fetch, adjust); the place (fetched) */
};

static struct mfile *file_by_key(uint32_t ctx, uint32_t seq) {
    for (int i = 0; i < nfiles; i++)
        if (files[i] && files[i]->key_ctx == ctx && files[i]->key_seq == seq) return files[i];
    return NULL;
}

/* Sends kind about member `from` between the home and that member. */
static void io_send(const struct mfile *f, int kind, int from, int64_t etypes) {
    struct sim *s = simpi_rt->sim;
    struct io_land m = {.kind = (uint8_t)kind, .key_ctx = f->key_ctx, .key_seq = f->key_seq};
    m.from = from;
    m.etypes = etypes;
    bool answer = kind == IO_LAND_FETCHED;
    int32_t origin = answer ? f->m[0].world : f->m[from].world;
    int32_t to_world = answer ? f->m[from].world : f->m[0].world;
    struct sim_piece piece = {&m, sizeof m};
    sim_land(s, origin, to_world, simtime_add(sim_now(s), sim_control_latency(s, origin, to_world)),
             &piece, 1);
}

/* Moves the shared pointer by etypes at the home; returns where it was
 * when the request arrived there (the rank waits for the answer). */
static MPI_Offset shared_fetch_add(struct mfile *f, struct file_member *me, MPI_Offset etypes) {
    int mine = (int)(me - f->m);
    me->waiter = sim_signal_new(simpi_rt->sim, me->world, f->m[0].world,
                                "the shared file pointer (its keeper's answer)");
    struct request *r = me->waiter;
    io_send(f, IO_LAND_FETCH, mine, etypes);
    runtime_wait(&r, 1, false);
    sim_record_round_trip(simpi_rt->sim, me->world, f->m[0].world); /* its time in a trace */
    return me->fetched;
}

void api_io_land(int32_t target, const void *msg, uint32_t len) {
    struct io_land m;
    if (len < sizeof m) return;
    memcpy(&m, msg, sizeof m);
    struct mfile *f = file_by_key(m.key_ctx, m.key_seq);
    if (!f || m.from < 0 || m.from >= f->n) return; /* closed since */
    if (m.kind == IO_LAND_FETCH) {
        MPI_Offset was = f->shared_pos;
        f->shared_pos += m.etypes;
        io_send(f, IO_LAND_FETCHED, m.from, was);
    } else if (m.kind == IO_LAND_ADJUST) {
        f->shared_pos += m.etypes;
    } else if (m.kind == IO_LAND_FETCHED && f->m[m.from].world == target && f->m[m.from].waiter) {
        f->m[m.from].fetched = m.etypes;
        sim_signal_fire(simpi_rt->sim, f->m[m.from].waiter, sim_now(simpi_rt->sim));
        f->m[m.from].waiter = NULL;
    }
}

static int check_access(MPI_File fh, struct mfile *f, struct file_member *me,
                        const struct io_call *c) {
    int rc = api_check_type(c->func, c->type, c->count);
    if (rc != MPI_SUCCESS) return rc;
    if (c->write && (f->amode & MPI_MODE_RDONLY))
        return file_error(c->func, fh, me, MPI_ERR_READ_ONLY, "the file was opened read-only");
    if (!c->write && (f->amode & MPI_MODE_WRONLY))
        return file_error(c->func, fh, me, MPI_ERR_ACCESS, "the file was opened write-only");
    if (c->ptr == IO_EXPLICIT && (f->amode & MPI_MODE_SEQUENTIAL))
        return file_error(c->func, fh, me, MPI_ERR_UNSUPPORTED_OPERATION,
                          "explicit offsets on a file opened with MPI_MODE_SEQUENTIAL");
    if (c->ptr == IO_EXPLICIT && c->offset < 0)
        return file_error(c->func, fh, me, MPI_ERR_ARG, "negative offset");
    if ((dt_size(c->type) * c->count) % dt_size(me->view.etype) != 0)
        return file_error(c->func, fh, me, MPI_ERR_TYPE,
                          "the data is not a whole number of the view's etypes");
    if (me->view.external32 && dt_external32_unit(c->type) == 0)
        return file_error(c->func, fh, me, MPI_ERR_UNSUPPORTED_DATAREP,
                          "external32 of this datatype (mixed or long double) is not supported");
    return MPI_SUCCESS;
}

/* Moves the data of an access starting at view byte pos; returns the bytes
 * moved (fewer than asked when a read reaches the end of the file). */
static int64_t move_data(struct mfile *f, struct file_member *me, const struct io_call *c,
                         int64_t pos) {
    int64_t bytes = dt_size(c->type) * c->count;
    char *packed = xmalloc(bytes > 0 ? (size_t)bytes : 1);
    int unit = me->view.external32 ? dt_external32_unit(c->type) : 1;
    int64_t done;
    if (c->write) {
        dt_pack(c->type, c->buf, c->count, packed);
        dt_swap_bytes(packed, bytes, unit);
        done = view_each(&me->view, pos, bytes, packed, host_write, &f->fd);
    } else {
        done = view_each(&me->view, pos, bytes, packed, host_read, &f->fd);
        dt_swap_bytes(packed, done, unit);
        int64_t whole = done / dt_size(c->type) * dt_size(c->type);
        dt_unpack(c->type, packed, whole / (dt_size(c->type) ? dt_size(c->type) : 1), c->buf);
    }
    free(packed);
    return done;
}

/* The view byte where an access starts; advances the pointer it uses. */
static int64_t access_start(struct mfile *f, struct file_member *me, const struct io_call *c) {
    int64_t esize = dt_size(me->view.etype), etypes = dt_size(c->type) * c->count / esize;
    switch (c->ptr) {
    case IO_EXPLICIT:
        return c->offset * esize;
    case IO_INDIVIDUAL:
        me->pos += etypes;
        return (me->pos - etypes) * esize;
    default:
        return shared_fetch_add(f, me, etypes) * esize;
    }
}

static void io_status(MPI_Status *status, int64_t bytes) {
    if (status == MPI_STATUS_IGNORE) return;
    status->MPI_SOURCE = MPI_ANY_SOURCE;
    status->MPI_TAG = MPI_ANY_TAG;
    status->MPI_ERROR = MPI_SUCCESS;
    status->simpi_bytes = bytes;
    status->simpi_cancelled = 0;
}

/* A request for a non-blocking access: done when the storage is. */
static MPI_Request io_request(int64_t bytes) {
    struct simpi_request *q = api_request_new();
    q->r = sim_io(simpi_rt->sim, runtime_rank(), bytes, -1);
    q->active = true;
    q->is_recv = true; /* its status carries a count */
    q->tgt.source = MPI_ANY_SOURCE;
    q->tgt.tag = MPI_ANY_TAG;
    q->tgt.size = q->tgt.capacity = bytes;
    return q;
}

static int io_access(MPI_File fh, const struct io_call *c, MPI_Status *status,
                     MPI_Request *request) {
    FILE_OR_FAIL(c->func, fh, f, me);
    int rc = check_access(fh, f, me, c);
    if (rc != MPI_SUCCESS) return rc;
    if (c->collective && !request) api_coll_barrier(me->comm);
    int64_t pos = access_start(f, me, c);
    int64_t done = move_data(f, me, c, pos);
    if (c->ptr != IO_EXPLICIT && done < dt_size(c->type) * c->count) { /* a short read */
        int64_t back = (dt_size(c->type) * c->count - done) / dt_size(me->view.etype);
        if (c->ptr == IO_INDIVIDUAL)
            me->pos -= back;
        else /* the home gives the unread part back */
            io_send(f, IO_LAND_ADJUST, (int)(me - f->m), -back);
    }
    if (request) {
        *request = io_request(done);
        return MPI_SUCCESS;
    }
    storage_wait(done);
    io_status(status, done);
    return MPI_SUCCESS;
}

/* Ordered access: ranks in order from the shared pointer, collectively.
 * The members' counts and the home's pointer are exchanged (an allgather),
 * and the first member, at the home, moves the pointer past them all. */
static int io_ordered(MPI_File fh, struct io_call *c, MPI_Status *status) {
    FILE_OR_FAIL(c->func, fh, f, me);
    int rc = check_access(fh, f, me, c);
    if (rc != MPI_SUCCESS) return rc;
    int mine = (int)(me - f->m);
    int64_t my[2] = {dt_size(c->type) * c->count / dt_size(me->view.etype), f->shared_pos};
    int64_t *all = xmalloc(sizeof my * (size_t)f->n);
    api_coll_allgather(my, (int)sizeof my, all, me->comm);
    MPI_Offset place = all[1], total = 0; /* the first member's (the home's) pointer */
    for (int i = 0; i < f->n; i++) {
        if (i == mine) place += total;
        total += all[2 * i];
    }
    free(all);
    /* the first member back from the exchange moves the pointer, so that
     * no member can ask the home for it before it moved (the home itself
     * may come back later than the member that asks) */
    if (f->ordered_moved < ++me->ordered_calls) {
        f->shared_pos += total;
        f->ordered_moved = me->ordered_calls;
    }
    c->ptr = IO_EXPLICIT;
    c->offset = place;
    int64_t done = move_data(f, me, c, c->offset * dt_size(me->view.etype));
    storage_wait(done);
    io_status(status, done);
    return MPI_SUCCESS;
}

/* --- positions --- */

/* The file offset of view byte pos. */
static int64_t note_offset(void *ctx, int64_t off, int64_t len, char *data) {
    (void)data;
    *(int64_t *)ctx = off;
    return len;
}

static int64_t view_file_offset(const struct view *v, int64_t pos) {
    int64_t off = 0;
    char byte; /* the view's mapping of one byte, without moving it */
    view_each(v, pos, 1, &byte, note_offset, &off);
    return off;
}

/* The view's data bytes that lie before file offset end. */
static int64_t view_bytes_before(const struct view *v, int64_t end) {
    if (end <= v->disp) return 0;
    struct dt_block one;
    int nb;
    const struct dt_block *b = dt_blocks(v->filetype, &nb, &one);
    int64_t extent = dt_extent(v->filetype), rest = (end - v->disp) % extent;
    int64_t bytes = (end - v->disp) / extent * dt_size(v->filetype);
    for (int i = 0; i < nb; i++)
        bytes += rest <= b[i].off ? 0 : rest >= b[i].off + b[i].len ? b[i].len : rest - b[i].off;
    return bytes;
}

static int64_t file_size(const struct mfile *f) {
    struct stat st;
    return fstat(f->fd, &st) == 0 ? (int64_t)st.st_size : 0;
}

static int seek_to(const char *func, MPI_File fh, struct mfile *f, struct file_member *me,
                   MPI_Offset *ptr, MPI_Offset offset, int whence) {
    MPI_Offset base = 0;
    if (whence == MPI_SEEK_CUR)
        base = *ptr;
    else if (whence == MPI_SEEK_END)
        base = view_bytes_before(&me->view, file_size(f)) / dt_size(me->view.etype);
    else if (whence != MPI_SEEK_SET)
        return file_error(func, fh, me, MPI_ERR_ARG, "whence is not MPI_SEEK_SET, CUR or END");
    if (base + offset < 0)
        return file_error(func, fh, me, MPI_ERR_ARG, "the position would be negative");
    *ptr = base + offset;
    return MPI_SUCCESS;
}

static int file_seek(MPI_File fh, MPI_Offset offset, int whence) {
    FILE_OR_FAIL("MPI_File_seek", fh, f, me);
    return seek_to("MPI_File_seek", fh, f, me, &me->pos, offset, whence);
}

/* Collective: the first member (at the home) moves the pointer and tells
 * the others the outcome. */
static int file_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
    FILE_OR_FAIL("MPI_File_seek_shared", fh, f, me);
    bool first = me == &f->m[0];
    MPI_Offset pos = f->shared_pos;
    int rc = first ? seek_to("MPI_File_seek_shared", fh, f, me, &pos, offset, whence) : MPI_SUCCESS;
    int64_t outcome[2] = {pos, rc};
    api_coll_bcast(outcome, 2, MPI_INT64_T, 0, me->comm);
    if (!first && outcome[1] != MPI_SUCCESS)
        rc =
            file_error("MPI_File_seek_shared", fh, me, (int)outcome[1],
                       "whence is not MPI_SEEK_SET, CUR or END, or the position would be negative");
    if (first && rc == MPI_SUCCESS) f->shared_pos = pos;
    api_coll_barrier(me->comm); /* nobody uses the pointer before it moved */
    return rc;
}

static int file_get_position(MPI_File fh, MPI_Offset *offset) {
    FILE_OR_FAIL("MPI_File_get_position", fh, f, me);
    (void)f;
    *offset = me->pos;
    return MPI_SUCCESS;
}

static int file_get_position_shared(MPI_File fh, MPI_Offset *offset) {
    FILE_OR_FAIL("MPI_File_get_position_shared", fh, f, me);
    *offset = shared_fetch_add(f, me, 0);
    return MPI_SUCCESS;
}

static int file_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset *disp) {
    FILE_OR_FAIL("MPI_File_get_byte_offset", fh, f, me);
    (void)f;
    *disp = view_file_offset(&me->view, offset * dt_size(me->view.etype));
    return MPI_SUCCESS;
}

/* --- the file as a whole --- */

static int file_get_size(MPI_File fh, MPI_Offset *size) {
    FILE_OR_FAIL("MPI_File_get_size", fh, f, me);
    (void)me;
    *size = file_size(f);
    return MPI_SUCCESS;
}

static int resize(const char *func, MPI_File fh, MPI_Offset size, bool grow_only) {
    FILE_OR_FAIL(func, fh, f, me);
    if (size < 0) return file_error(func, fh, me, MPI_ERR_ARG, "negative size");
    if (f->amode & MPI_MODE_RDONLY)
        return file_error(func, fh, me, MPI_ERR_READ_ONLY, "the file was opened read-only");
    api_coll_barrier(me->comm);
    int rc = MPI_SUCCESS;
    if ((!grow_only || size > file_size(f)) && ftruncate(f->fd, (off_t)size) != 0)
        rc = file_error(func, fh, me, errno_class(errno), "cannot change the file's size");
    storage_wait(0);
    api_coll_barrier(me->comm);
    return rc;
}

static int file_set_size(MPI_File fh, MPI_Offset size) {
    return resize("MPI_File_set_size", fh, size, false);
}

static int file_preallocate(MPI_File fh, MPI_Offset size) {
    return resize("MPI_File_preallocate", fh, size, true);
}

static int file_sync(MPI_File fh) {
    FILE_OR_FAIL("MPI_File_sync", fh, f, me);
    api_coll_barrier(me->comm);
    if (fsync(f->fd) != 0 && errno != EINVAL)
        return file_error("MPI_File_sync", fh, me, errno_class(errno), "fsync failed");
    storage_wait(0);
    return MPI_SUCCESS;
}

static int file_get_amode(MPI_File fh, int *amode) {
    FILE_OR_FAIL("MPI_File_get_amode", fh, f, me);
    (void)me;
    *amode = f->amode;
    return MPI_SUCCESS;
}

static int file_get_group(MPI_File fh, MPI_Group *group) {
    FILE_OR_FAIL("MPI_File_get_group", fh, f, me);
    (void)f;
    *group = api_comm_group(me->comm);
    return MPI_SUCCESS;
}

static int file_set_atomicity(MPI_File fh, int flag) {
    FILE_OR_FAIL("MPI_File_set_atomicity", fh, f, me);
    f->atomic = flag != 0; /* one rank runs at a time: accesses are atomic anyway */
    api_coll_barrier(me->comm);
    return MPI_SUCCESS;
}

static int file_get_atomicity(MPI_File fh, int *flag) {
    FILE_OR_FAIL("MPI_File_get_atomicity", fh, f, me);
    (void)me;
    *flag = f->atomic;
    return MPI_SUCCESS;
}

static int file_set_info(MPI_File fh, MPI_Info info) {
    FILE_OR_FAIL("MPI_File_set_info", fh, f, me);
    (void)f;
    hints_take(me, info);
    return MPI_SUCCESS;
}

static int file_get_info(MPI_File fh, MPI_Info *info) {
    FILE_OR_FAIL("MPI_File_get_info", fh, f, me);
    (void)f;
    return api_hints_info(info, file_hint_keys, FILE_HINTS, me->hints[0], sizeof me->hints[0],
                          NULL);
}

static int file_get_type_extent(MPI_File fh, MPI_Datatype type, MPI_Aint *extent) {
    FILE_OR_FAIL("MPI_File_get_type_extent", fh, f, me);
    (void)f, (void)me;
    int rc = api_check_type("MPI_File_get_type_extent", type, 1);
    if (rc == MPI_SUCCESS) *extent = dt_extent(type); /* external32 sizes are LP64's */
    return rc;
}

/* --- error handlers --- */

static int file_set_errhandler(MPI_File fh, MPI_Errhandler handler) {
    if (fh == MPI_FILE_NULL) { /* the handler of files to come */
        if (!default_handlers) default_handlers = xcalloc((size_t)simpi_rt->n, sizeof(int));
        default_handlers[runtime_rank()] = handler;
        return MPI_SUCCESS;
    }
    FILE_OR_FAIL("MPI_File_set_errhandler", fh, f, me);
    (void)f;
    me->errhandler = handler;
    return MPI_SUCCESS;
}

static int file_get_errhandler(MPI_File fh, MPI_Errhandler *handler) {
    if (fh == MPI_FILE_NULL) {
        *handler = default_handler();
        return MPI_SUCCESS;
    }
    FILE_OR_FAIL("MPI_File_get_errhandler", fh, f, me);
    (void)f;
    *handler = me->errhandler;
    return MPI_SUCCESS;
}

static int file_call_errhandler(MPI_File fh, int code) {
    struct file_member *me = member_of(file_get(fh));
    file_error("MPI_File_call_errhandler", fh, me, code, "called by the program");
    return MPI_SUCCESS;
}

int PMPI_File_create_errhandler(MPI_File_errhandler_function *fn, MPI_Errhandler *errhandler) {
    return PMPI_Comm_create_errhandler((MPI_Comm_errhandler_function *)fn, errhandler);
}

MPI_Fint PMPI_File_c2f(MPI_File fh) {
    return fh;
}

MPI_File PMPI_File_f2c(MPI_Fint fh) {
    return fh;
}

/* --- split collectives: the access happens at _begin --- */

static int split_begin(MPI_File fh, struct io_call *c, bool ordered) {
    FILE_OR_FAIL(c->func, fh, f, me);
    (void)f;
    if (me->split_open)
        return file_error(c->func, fh, me, MPI_ERR_OTHER, "a split collective is already active");
    MPI_Status st;
    int rc = ordered ? io_ordered(fh, c, &st) : io_access(fh, c, &st, NULL);
    if (rc != MPI_SUCCESS) return rc;
    me->split_open = true;
    me->split_bytes = st.simpi_bytes;
    return MPI_SUCCESS;
}

static int split_end(const char *func, MPI_File fh, MPI_Status *status) {
    FILE_OR_FAIL(func, fh, f, me);
    (void)f;
    if (!me->split_open)
        return file_error(func, fh, me, MPI_ERR_OTHER, "no split collective is active");
    me->split_open = false;
    io_status(status, me->split_bytes);
    return MPI_SUCCESS;
}

/* --- entry points --- */

#define IO_ENTRY(NAME, body, PARAMS, ARGS)                                                         \
    int P##NAME PARAMS {                                                                           \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(body ARGS);                                                                     \
    }

IO_ENTRY(MPI_File_open, file_open,
         (MPI_Comm comm, const char *name, int amode, MPI_Info info, MPI_File *fh),
         (comm, name, amode, info, fh))
IO_ENTRY(MPI_File_close, file_close, (MPI_File * fh), (fh))
IO_ENTRY(MPI_File_delete, file_delete, (const char *name, MPI_Info info), (name, info))
IO_ENTRY(MPI_File_set_view, file_set_view,
         (MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
          const char *datarep, MPI_Info info),
         (fh, disp, etype, filetype, datarep, info))
IO_ENTRY(MPI_File_get_view, file_get_view,
         (MPI_File fh, MPI_Offset *disp, MPI_Datatype *etype, MPI_Datatype *filetype,
          char *datarep),
         (fh, disp, etype, filetype, datarep))
IO_ENTRY(MPI_File_seek, file_seek, (MPI_File fh, MPI_Offset offset, int whence),
         (fh, offset, whence))
IO_ENTRY(MPI_File_seek_shared, file_seek_shared, (MPI_File fh, MPI_Offset offset, int whence),
         (fh, offset, whence))
IO_ENTRY(MPI_File_get_position, file_get_position, (MPI_File fh, MPI_Offset *offset), (fh, offset))
IO_ENTRY(MPI_File_get_position_shared, file_get_position_shared, (MPI_File fh, MPI_Offset *offset),
         (fh, offset))
IO_ENTRY(MPI_File_get_byte_offset, file_get_byte_offset,
         (MPI_File fh, MPI_Offset offset, MPI_Offset *disp), (fh, offset, disp))
IO_ENTRY(MPI_File_get_size, file_get_size, (MPI_File fh, MPI_Offset *size), (fh, size))
IO_ENTRY(MPI_File_set_size, file_set_size, (MPI_File fh, MPI_Offset size), (fh, size))
IO_ENTRY(MPI_File_preallocate, file_preallocate, (MPI_File fh, MPI_Offset size), (fh, size))
IO_ENTRY(MPI_File_sync, file_sync, (MPI_File fh), (fh))
IO_ENTRY(MPI_File_get_amode, file_get_amode, (MPI_File fh, int *amode), (fh, amode))
IO_ENTRY(MPI_File_get_group, file_get_group, (MPI_File fh, MPI_Group *group), (fh, group))
IO_ENTRY(MPI_File_set_atomicity, file_set_atomicity, (MPI_File fh, int flag), (fh, flag))
IO_ENTRY(MPI_File_get_atomicity, file_get_atomicity, (MPI_File fh, int *flag), (fh, flag))
IO_ENTRY(MPI_File_set_info, file_set_info, (MPI_File fh, MPI_Info info), (fh, info))
IO_ENTRY(MPI_File_get_info, file_get_info, (MPI_File fh, MPI_Info *info), (fh, info))
IO_ENTRY(MPI_File_get_type_extent, file_get_type_extent,
         (MPI_File fh, MPI_Datatype type, MPI_Aint *extent), (fh, type, extent))
IO_ENTRY(MPI_File_set_errhandler, file_set_errhandler, (MPI_File fh, MPI_Errhandler handler),
         (fh, handler))
IO_ENTRY(MPI_File_get_errhandler, file_get_errhandler, (MPI_File fh, MPI_Errhandler *handler),
         (fh, handler))
IO_ENTRY(MPI_File_call_errhandler, file_call_errhandler, (MPI_File fh, int code), (fh, code))

/* Reads and writes: explicit offset (_at), individual pointer, shared
 * pointer; blocking with a status or non-blocking with a request. */
#define AT_FN(NAME, WRITE, COLL, CONST)                                                            \
    int P##NAME(MPI_File fh, MPI_Offset offset, CONST void *buf, int count, MPI_Datatype type,     \
                MPI_Status *status) {                                                              \
        API_ENTER(#NAME);                                                                          \
        struct io_call c = {#NAME, WRITE, COLL, IO_EXPLICIT, offset, (void *)buf, count, type};    \
        API_RETURN(io_access(fh, &c, status, NULL));                                               \
    }
#define IAT_FN(NAME, WRITE, COLL, CONST)                                                           \
    int P##NAME(MPI_File fh, MPI_Offset offset, CONST void *buf, int count, MPI_Datatype type,     \
                MPI_Request *request) {                                                            \
        API_ENTER(#NAME);                                                                          \
        struct io_call c = {#NAME, WRITE, COLL, IO_EXPLICIT, offset, (void *)buf, count, type};    \
        API_RETURN(io_access(fh, &c, MPI_STATUS_IGNORE, request));                                 \
    }
#define PTR_FN(NAME, WRITE, PTR, COLL, CONST)                                                      \
    int P##NAME(MPI_File fh, CONST void *buf, int count, MPI_Datatype type, MPI_Status *status) {  \
        API_ENTER(#NAME);                                                                          \
        struct io_call c = {#NAME, WRITE, COLL, PTR, 0, (void *)buf, count, type};                 \
        API_RETURN(io_access(fh, &c, status, NULL));                                               \
    }
#define IPTR_FN(NAME, WRITE, PTR, COLL, CONST)                                                     \
    int P##NAME(MPI_File fh, CONST void *buf, int count, MPI_Datatype type,                        \
                MPI_Request *request) {                                                            \
        API_ENTER(#NAME);                                                                          \
        struct io_call c = {#NAME, WRITE, COLL, PTR, 0, (void *)buf, count, type};                 \
        API_RETURN(io_access(fh, &c, MPI_STATUS_IGNORE, request));                                 \
    }
#define ORDERED_FN(NAME, WRITE, CONST)                                                             \
    int P##NAME(MPI_File fh, CONST void *buf, int count, MPI_Datatype type, MPI_Status *status) {  \
        API_ENTER(#NAME);                                                                          \
        struct io_call c = {#NAME, WRITE, true, IO_SHARED, 0, (void *)buf, count, type};           \
        API_RETURN(io_ordered(fh, &c, status));                                                    \
    }
#define NOCONST

AT_FN(MPI_File_read_at, false, false, NOCONST)
AT_FN(MPI_File_write_at, true, false, const)
AT_FN(MPI_File_read_at_all, false, true, NOCONST)
AT_FN(MPI_File_write_at_all, true, true, const)
IAT_FN(MPI_File_iread_at, false, false, NOCONST)
IAT_FN(MPI_File_iwrite_at, true, false, const)
IAT_FN(MPI_File_iread_at_all, false, true, NOCONST)
IAT_FN(MPI_File_iwrite_at_all, true, true, const)
PTR_FN(MPI_File_read, false, IO_INDIVIDUAL, false, NOCONST)
PTR_FN(MPI_File_write, true, IO_INDIVIDUAL, false, const)
PTR_FN(MPI_File_read_all, false, IO_INDIVIDUAL, true, NOCONST)
PTR_FN(MPI_File_write_all, true, IO_INDIVIDUAL, true, const)
PTR_FN(MPI_File_read_shared, false, IO_SHARED, false, NOCONST)
PTR_FN(MPI_File_write_shared, true, IO_SHARED, false, const)
IPTR_FN(MPI_File_iread, false, IO_INDIVIDUAL, false, NOCONST)
IPTR_FN(MPI_File_iwrite, true, IO_INDIVIDUAL, false, const)
IPTR_FN(MPI_File_iread_all, false, IO_INDIVIDUAL, true, NOCONST)
IPTR_FN(MPI_File_iwrite_all, true, IO_INDIVIDUAL, true, const)
IPTR_FN(MPI_File_iread_shared, false, IO_SHARED, false, NOCONST)
IPTR_FN(MPI_File_iwrite_shared, true, IO_SHARED, false, const)
ORDERED_FN(MPI_File_read_ordered, false, NOCONST)
ORDERED_FN(MPI_File_write_ordered, true, const)

#define SPLIT_AT_FN(NAME, WRITE, CONST)                                                            \
    int P##NAME(MPI_File fh, MPI_Offset offset, CONST void *buf, int count, MPI_Datatype type) {   \
        API_ENTER(#NAME);                                                                          \
        struct io_call c = {#NAME, WRITE, true, IO_EXPLICIT, offset, (void *)buf, count, type};    \
        API_RETURN(split_begin(fh, &c, false));                                                    \
    }
#define SPLIT_FN(NAME, WRITE, PTR, ORDERED, CONST)                                                 \
    int P##NAME(MPI_File fh, CONST void *buf, int count, MPI_Datatype type) {                      \
        API_ENTER(#NAME);                                                                          \
        struct io_call c = {#NAME, WRITE, true, PTR, 0, (void *)buf, count, type};                 \
        API_RETURN(split_begin(fh, &c, ORDERED));                                                  \
    }
#define SPLIT_END_FN(NAME, CONST)                                                                  \
    int P##NAME(MPI_File fh, CONST void *buf, MPI_Status *status) {                                \
        (void)buf;                                                                                 \
        API_ENTER(#NAME);                                                                          \
        API_RETURN(split_end(#NAME, fh, status));                                                  \
    }

SPLIT_AT_FN(MPI_File_read_at_all_begin, false, NOCONST)
SPLIT_AT_FN(MPI_File_write_at_all_begin, true, const)
SPLIT_FN(MPI_File_read_all_begin, false, IO_INDIVIDUAL, false, NOCONST)
SPLIT_FN(MPI_File_write_all_begin, true, IO_INDIVIDUAL, false, const)
SPLIT_FN(MPI_File_read_ordered_begin, false, IO_SHARED, true, NOCONST)
SPLIT_FN(MPI_File_write_ordered_begin, true, IO_SHARED, true, const)
SPLIT_END_FN(MPI_File_read_at_all_end, NOCONST)
SPLIT_END_FN(MPI_File_write_at_all_end, const)
SPLIT_END_FN(MPI_File_read_all_end, NOCONST)
SPLIT_END_FN(MPI_File_write_all_end, const)
SPLIT_END_FN(MPI_File_read_ordered_end, NOCONST)
SPLIT_END_FN(MPI_File_write_ordered_end, const)

#pragma weak MPI_File_c2f = PMPI_File_c2f
#pragma weak MPI_File_call_errhandler = PMPI_File_call_errhandler
#pragma weak MPI_File_close = PMPI_File_close
#pragma weak MPI_File_create_errhandler = PMPI_File_create_errhandler
#pragma weak MPI_File_delete = PMPI_File_delete
#pragma weak MPI_File_f2c = PMPI_File_f2c
#pragma weak MPI_File_get_amode = PMPI_File_get_amode
#pragma weak MPI_File_get_atomicity = PMPI_File_get_atomicity
#pragma weak MPI_File_get_byte_offset = PMPI_File_get_byte_offset
#pragma weak MPI_File_get_errhandler = PMPI_File_get_errhandler
#pragma weak MPI_File_get_group = PMPI_File_get_group
#pragma weak MPI_File_get_info = PMPI_File_get_info
#pragma weak MPI_File_get_position = PMPI_File_get_position
#pragma weak MPI_File_get_position_shared = PMPI_File_get_position_shared
#pragma weak MPI_File_get_size = PMPI_File_get_size
#pragma weak MPI_File_get_type_extent = PMPI_File_get_type_extent
#pragma weak MPI_File_get_view = PMPI_File_get_view
#pragma weak MPI_File_iread = PMPI_File_iread
#pragma weak MPI_File_iread_all = PMPI_File_iread_all
#pragma weak MPI_File_iread_at = PMPI_File_iread_at
#pragma weak MPI_File_iread_at_all = PMPI_File_iread_at_all
#pragma weak MPI_File_iread_shared = PMPI_File_iread_shared
#pragma weak MPI_File_iwrite = PMPI_File_iwrite
#pragma weak MPI_File_iwrite_all = PMPI_File_iwrite_all
#pragma weak MPI_File_iwrite_at = PMPI_File_iwrite_at
#pragma weak MPI_File_iwrite_at_all = PMPI_File_iwrite_at_all
#pragma weak MPI_File_iwrite_shared = PMPI_File_iwrite_shared
#pragma weak MPI_File_open = PMPI_File_open
#pragma weak MPI_File_preallocate = PMPI_File_preallocate
#pragma weak MPI_File_read = PMPI_File_read
#pragma weak MPI_File_read_all = PMPI_File_read_all
#pragma weak MPI_File_read_all_begin = PMPI_File_read_all_begin
#pragma weak MPI_File_read_all_end = PMPI_File_read_all_end
#pragma weak MPI_File_read_at = PMPI_File_read_at
#pragma weak MPI_File_read_at_all = PMPI_File_read_at_all
#pragma weak MPI_File_read_at_all_begin = PMPI_File_read_at_all_begin
#pragma weak MPI_File_read_at_all_end = PMPI_File_read_at_all_end
#pragma weak MPI_File_read_ordered = PMPI_File_read_ordered
#pragma weak MPI_File_read_ordered_begin = PMPI_File_read_ordered_begin
#pragma weak MPI_File_read_ordered_end = PMPI_File_read_ordered_end
#pragma weak MPI_File_read_shared = PMPI_File_read_shared
#pragma weak MPI_File_seek = PMPI_File_seek
#pragma weak MPI_File_seek_shared = PMPI_File_seek_shared
#pragma weak MPI_File_set_atomicity = PMPI_File_set_atomicity
#pragma weak MPI_File_set_errhandler = PMPI_File_set_errhandler
#pragma weak MPI_File_set_info = PMPI_File_set_info
#pragma weak MPI_File_set_size = PMPI_File_set_size
#pragma weak MPI_File_set_view = PMPI_File_set_view
#pragma weak MPI_File_sync = PMPI_File_sync
#pragma weak MPI_File_write = PMPI_File_write
#pragma weak MPI_File_write_all = PMPI_File_write_all
#pragma weak MPI_File_write_all_begin = PMPI_File_write_all_begin
#pragma weak MPI_File_write_all_end = PMPI_File_write_all_end
#pragma weak MPI_File_write_at = PMPI_File_write_at
#pragma weak MPI_File_write_at_all = PMPI_File_write_at_all
#pragma weak MPI_File_write_at_all_begin = PMPI_File_write_at_all_begin
#pragma weak MPI_File_write_at_all_end = PMPI_File_write_at_all_end
#pragma weak MPI_File_write_ordered = PMPI_File_write_ordered
#pragma weak MPI_File_write_ordered_begin = PMPI_File_write_ordered_begin
#pragma weak MPI_File_write_ordered_end = PMPI_File_write_ordered_end
#pragma weak MPI_File_write_shared = PMPI_File_write_shared
