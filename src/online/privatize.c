/* SPDX-License-Identifier: BSD-3-Clause */
/* Privatization: every rank has its own copy of the program's writable
 * globals and of its thread-local (__thread) variables, as separate
 * processes would. The runtime is the shared libsimpi.so, so the
 * executable's data segment holds only the program's variables (and the
 * linker's copies of C library variables such as optind or environ, which
 * become per rank too). Two ways, chosen at start:
 *
 *  - copy: the program's variables (from its symbol table) are copied out
 *    of and into place around each switch to a rank. Cost per switch: two
 *    copies of at most PRIVATIZE_COPY_LIMIT bytes, the only mode used below
 *    that size.
 *  - remap: the whole writable data segment is backed by one memfd holding
 *    one page-aligned copy per rank; switching to a rank maps its copy in
 *    place (one mmap call, no copy), and the pages it then touches fault in
 *    from the page cache. Cost per switch: about a microsecond whatever the
 *    size of the globals (a program with 64 MiB of static arrays switches as
 *    fast as one with 64 KiB). Two map entries in all (the segment and a
 *    view of every copy), so it works at any rank count; memory is the
 *    pages each rank's copy really holds (zero pages are never written).
 *
 *  - images (more than PRIVATIZE_IMAGES_FROM bytes, when the program is
 *    position-independent and the images fit in vm.max_map_count): every
 *    rank runs in its own image of the program, mapped at its own address
 *    (images.c), so its globals stay mapped; a switch maps only the page or
 *    two of the library variables the program copies (stdout, optind).
 *    Falls back to remap (saying why) otherwise.
 *
 * Thread-local variables of the program are copied around each switch (cost
 * proportional to their size, usually a few bytes); errno is saved and
 * restored per rank by the runtime.
 *
 * Data simpi writes for a rank that is not running (a message delivered
 * into a global array, a collective's output) goes to that rank's copy
 * through the MPI layer's address hook (privatize_address). */
#define _GNU_SOURCE /* memfd_create, dl_iterate_phdr */
#include "online/privatize.h"

#include <elf.h>
#include <errno.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/alloc.h"
#include "mpi/sim.h"
#include "online/globals.h"
#include "online/images.h"

static struct {
    enum privatize_mode mode;
    int32_t nranks, loaded, mapped;
    char *data, *data_end; /* the program's writable segment */
    /* remap mode: faults and kernel time while ranks ran */
    int64_t faults;
    double kernel;
    struct rusage at_load;
    /* copy mode */
    struct global_range *ranges;
    int nranges;
    size_t total;
    char *copies; /* nranks x total bytes */
    /* remap mode */
    char *seg;    /* page-aligned start of the writable segment */
    size_t size;  /* its page-aligned size */
    int fd;       /* memfd: nranks x size */
    char *window; /* a view of every rank's copy */
    /* thread-local variables */
    char *tls;
    size_t tls_size;
    char *tls_copies;
} pv = {.loaded = -1, .mapped = -1, .fd = -1};

static size_t page_size(void) {
    long p = sysconf(_SC_PAGESIZE);
    return p > 0 ? (size_t)p : 4096;
}

/* The executable's writable segments after their read-only-after-
 * relocation part, from the first one's start to the last one's end (the
 * medium code model adds a segment for .ldata after the one of .data, .bss
 * and .lbss; the gap between them is the executable's own reservation),
 * and its thread-local block (first entry of dl_iterate_phdr). */
enum { MAX_WRITABLE = 8 };
struct exe_layout {
    char *seg, *seg_end, *tls;
    size_t tls_size;
    /* the writable segments themselves, page-rounded: what lies between them
     * is no data of the program's (its pages are never read) */
    char *part[MAX_WRITABLE], *part_end[MAX_WRITABLE];
    int nparts;
};

/* Whether the page at p lies in one of the layout's writable segments. */
static bool in_writable_part(const struct exe_layout *l, const char *p) {
    for (int i = 0; i < l->nparts; i++)
        if (p >= l->part[i] && p < l->part_end[i]) return true;
    return l->nparts == 0;
}

static int read_layout(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    struct exe_layout *l = data;
    size_t pg = page_size();
    uintptr_t relro_end = 0, lo = 0, hi = 0;
    for (int i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        uintptr_t a = info->dlpi_addr + ph->p_vaddr;
        if (ph->p_type == PT_LOAD && (ph->p_flags & PF_W)) {
            if (!lo || a < lo) lo = a;
            if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
            if (l->nparts < MAX_WRITABLE) {
                l->part[l->nparts] = (char *)(a / pg * pg);
                l->part_end[l->nparts++] = (char *)((a + ph->p_memsz + pg - 1) / pg * pg);
            }
        } else if (ph->p_type == PT_GNU_RELRO) {
            relro_end = a + ph->p_memsz;
        } else if (ph->p_type == PT_TLS) {
            l->tls = info->dlpi_tls_data;
            l->tls_size = ph->p_memsz;
        }
    }
    lo = lo / pg * pg;
    relro_end = (relro_end + pg - 1) / pg * pg;
    if (relro_end > lo) lo = relro_end;
    hi = (hi + pg - 1) / pg * pg;
    l->seg = (char *)lo;
    l->seg_end = hi > lo ? (char *)hi : (char *)lo;
    return 1; /* the first entry is the program itself */
}

/* Whether a page holds only zero bytes. Reads the program's memory as it
 * is, redzones of AddressSanitizer included. */
__attribute__((no_sanitize("address"))) static bool page_is_zero(const char *p, size_t pg) {
    const volatile uint64_t *w = (const volatile uint64_t *)(const void *)p;
    for (size_t i = 0; i < pg / 8; i++)
        if (w[i]) return false;
    return true;
}

/* Writes without the C library's (sanitizer-intercepted) wrappers. */
static bool raw_pwrite(int fd, const void *buf, size_t n, off_t at) {
    return syscall(SYS_pwrite64, fd, buf, n, at) == (long)n;
}

static bool remap_init(const struct exe_layout *l, struct sim_error *err) {
    size_t pg = page_size(), n = (size_t)pv.nranks;
    pv.seg = l->seg;
    pv.size = (size_t)(l->seg_end - l->seg);
    pv.fd = memfd_create("simpi-globals", MFD_CLOEXEC);
    if (pv.fd < 0 || ftruncate(pv.fd, (off_t)(pv.size * n)) != 0)
        return err_set(err, "privatization: cannot create %zu bytes of per-rank globals: %s",
                       pv.size * n, strerror(errno));
    /* pages never touched are zero: skipped without reading them */
    unsigned char *resident = xcalloc(pv.size / pg + 1, 1);
    if (mincore(pv.seg, pv.size, resident) != 0) memset(resident, 1, pv.size / pg + 1);
    for (size_t off = 0; off < pv.size; off += pg) {
        if (!in_writable_part(l, pv.seg + off) || !(resident[off / pg] & 1) ||
            page_is_zero(pv.seg + off, pg))
            continue; /* the memfd's holes read as zeros */
        for (size_t r = 0; r < n; r++)
            if (!raw_pwrite(pv.fd, pv.seg + off, pg, (off_t)(r * pv.size + off))) {
                free(resident);
                return err_set(err, "privatization: cannot fill the per-rank globals: %s",
                               strerror(errno));
            }
    }
    free(resident);
    pv.window = mmap(NULL, pv.size * n, PROT_READ | PROT_WRITE, MAP_SHARED, pv.fd, 0);
    if (pv.window == MAP_FAILED) {
        pv.window = NULL;
        return err_set(err, "privatization: cannot map the per-rank globals: %s", strerror(errno));
    }
    return true;
}

static void copy_init(struct global_range *ranges, int nranges) {
    pv.ranges = ranges;
    pv.nranges = nranges;
    pv.total = 0;
    for (int i = 0; i < nranges; i++)
        pv.total += ranges[i].len;
    pv.copies = xmalloc(pv.total * (size_t)pv.nranks);
    for (int32_t r = 0; r < pv.nranks; r++) { /* everyone starts from the initial values */
        size_t off = 0;
        for (int i = 0; i < nranges; i++) {
            memcpy(pv.copies + (size_t)r * pv.total + off, ranges[i].addr, ranges[i].len);
            off += ranges[i].len;
        }
    }
}

static void tls_init(const struct exe_layout *l) {
    if (!l->tls || l->tls_size == 0) return;
    pv.tls = l->tls;
    pv.tls_size = l->tls_size;
    pv.tls_copies = xmalloc(pv.tls_size * (size_t)pv.nranks);
    for (int32_t r = 0; r < pv.nranks; r++)
        memcpy(pv.tls_copies + (size_t)r * pv.tls_size, pv.tls, pv.tls_size);
}

const char *privatize_mode_name(enum privatize_mode mode) {
    static const char *const names[] = {"none", "copy", "remap", "images"};
    return names[mode];
}

bool privatize_parse_mode(const char *name, enum privatize_mode *mode) {
    for (int m = PRIVATIZE_COPY; m <= PRIVATIZE_IMAGES; m++)
        if (!strcmp(name, privatize_mode_name((enum privatize_mode)m))) {
            *mode = (enum privatize_mode)m;
            return true;
        }
    return false;
}

/* Every rank this process runs gets an image (images.c). */
static bool images_init(const struct privatize_request *rq, struct privatize_info *info, char *why,
                        size_t len) {
    bool *wanted = xcalloc((size_t)rq->n, sizeof *wanted);
    for (int32_t r = 0; r < rq->n; r++)
        info->images += wanted[r] = !rq->owned || rq->owned[r];
    bool ok = images_load(rq->n, wanted, rq->argc, rq->argv, why, len);
    free(wanted);
    if (!ok) { /* nothing was made: the caller falls back */
        info->images = 0;
        return false;
    }
    pv.mode = PRIVATIZE_IMAGES;
    return true;
}

/* The mode for the program's globals: the one asked for, else by size. */
static enum privatize_mode choose(const struct privatize_request *rq, struct globals_info g,
                                  int nranges, struct privatize_info *info) {
    char why[200];
    bool small = !g.stripped && nranges > 0 && (size_t)g.bytes <= PRIVATIZE_COPY_LIMIT;
    if (rq->mode != PRIVATIZE_NONE) return rq->mode;
    if (globals_library()) return PRIVATIZE_COPY; /* the others cover the executable only */
    if (small && (size_t)g.bytes <= PRIVATIZE_IMAGES_FROM) return PRIVATIZE_COPY;
    if (images_possible(rq->n, why, sizeof why)) return PRIVATIZE_IMAGES;
    if (small) return PRIVATIZE_COPY;
    snprintf(info->note, sizeof info->note, "%s", why);
    return PRIVATIZE_REMAP;
}

static bool data_init(const struct privatize_request *rq, const struct exe_layout *l,
                      struct global_range *ranges, int nranges, struct privatize_info *info,
                      struct sim_error *err) {
    enum privatize_mode m = choose(rq, info->globals, nranges, info);
    char why[200];
    if (globals_library() && m != PRIVATIZE_COPY) {
        free(ranges);
        return err_set(err,
                       "--privatize=%s: the program's main is in %s, whose globals only "
                       "--privatize=copy makes private (remap and images cover the executable)",
                       privatize_mode_name(m), globals_library());
    }
    if (m == PRIVATIZE_IMAGES) { /* chosen by size: choose() found images possible */
        bool possible = rq->mode != PRIVATIZE_IMAGES || images_possible(rq->n, why, sizeof why);
        if (!possible || !images_init(rq, info, why, sizeof why)) {
            if (rq->mode == PRIVATIZE_IMAGES) {
                free(ranges);
                return err_set(err, "--privatize=images: %s", why);
            }
            snprintf(info->note, sizeof info->note, "%s", why); /* remapped instead */
            m = PRIVATIZE_REMAP;
        } else {
            free(ranges);
            info->data_bytes = (int64_t)(l->seg_end - l->seg);
            return true;
        }
    }
    if (m == PRIVATIZE_COPY && (info->globals.stripped || nranges == 0)) {
        free(ranges);
        return err_set(err, "--privatize=copy: the program is stripped (no symbol table): its "
                            "globals cannot be listed; use remap or images");
    }
    if (m == PRIVATIZE_COPY) {
        copy_init(ranges, nranges);
        pv.mode = PRIVATIZE_COPY;
        info->data_bytes = (int64_t)pv.total;
        return true;
    }
    free(ranges);
    if (l->seg_end > l->seg && !remap_init(l, err)) return false;
    pv.mode = l->seg_end > l->seg ? PRIVATIZE_REMAP : PRIVATIZE_NONE;
    info->data_bytes = (int64_t)pv.size;
    return true;
}

bool privatize_init(const struct privatize_request *rq, struct privatize_info *info,
                    struct sim_error *err) {
    memset(info, 0, sizeof *info);
    struct exe_layout l = {0};
    dl_iterate_phdr(read_layout, &l);
    struct global_range *ranges = NULL;
    int nranges = 0;
    struct globals_info g = globals_scan(&ranges, &nranges);
    info->globals = g;
    info->tls_bytes = l.tls ? (int64_t)l.tls_size : 0;
    pv.nranks = rq->n;
    pv.data = l.seg;
    pv.data_end = l.seg_end;
    bool data = rq->force || rq->mode != PRIVATIZE_NONE || g.count > 0 || g.stripped;
    if (data && !data_init(rq, &l, ranges, nranges, info, err)) return false;
    if (!data) free(ranges);
    info->mode = pv.mode;
    if (!data && info->tls_bytes == 0) return true;
    tls_init(&l);
    return true;
}

void *privatize_in_rank(int32_t rank, const void *fn) {
    return pv.mode == PRIVATIZE_IMAGES ? images_in_rank(rank, fn) : (void *)fn;
}

void *privatize_address(void *ctx, int32_t owner, void *addr) {
    (void)ctx;
    char *a = addr;
    if (owner < 0 || owner >= pv.nranks) return addr;
    if (pv.tls && a >= pv.tls && a < pv.tls + pv.tls_size)
        return owner == pv.loaded
                   ? addr
                   : pv.tls_copies + (size_t)owner * pv.tls_size + (size_t)(a - pv.tls);
    if (pv.mode == PRIVATIZE_REMAP && a >= pv.seg && a < pv.seg + pv.size)
        return owner == pv.mapped ? addr
                                  : pv.window + (size_t)owner * pv.size + (size_t)(a - pv.seg);
    if (pv.mode != PRIVATIZE_COPY || owner == pv.loaded) return addr; /* images: their own */
    size_t off = 0;
    for (int i = 0; i < pv.nranges; i++) {
        if (a >= pv.ranges[i].addr && a < pv.ranges[i].addr + pv.ranges[i].len)
            return pv.copies + (size_t)owner * pv.total + off + (size_t)(a - pv.ranges[i].addr);
        off += pv.ranges[i].len;
    }
    return addr;
}

/* Copies the program's variables to or from rank's copies. */
static void swap_copies(int32_t rank, bool in) {
    char *c = pv.copies + (size_t)rank * pv.total;
    for (int i = 0; i < pv.nranges; i++) {
        if (in)
            memcpy(pv.ranges[i].addr, c, pv.ranges[i].len);
        else
            memcpy(c, pv.ranges[i].addr, pv.ranges[i].len);
        c += pv.ranges[i].len;
    }
}

bool privatize_covers(const void *addr) {
    const char *a = addr;
    if (pv.mode == PRIVATIZE_IMAGES) { /* the library variables are mapped per rank */
        const char *h = images_home(a);
        return h >= pv.data && h < pv.data_end;
    }
    if (pv.mode == PRIVATIZE_REMAP) return a >= pv.seg && a < pv.seg + pv.size;
    for (int i = 0; pv.mode == PRIVATIZE_COPY && i < pv.nranges; i++)
        if (a >= pv.ranges[i].addr && a < pv.ranges[i].addr + pv.ranges[i].len) return true;
    return false;
}

static double seconds(struct timeval t) {
    return (double)t.tv_sec + (double)t.tv_usec * 1e-6;
}

void privatize_load(int32_t rank) {
    if (pv.mode == PRIVATIZE_COPY) swap_copies(rank, true);
    if (pv.mode == PRIVATIZE_IMAGES) images_enter(rank);
    if (pv.mode == PRIVATIZE_REMAP && pv.mapped != rank) {
        void *m = mmap(pv.seg, pv.size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, pv.fd,
                       (off_t)((size_t)rank * pv.size));
        if (m == MAP_FAILED) { /* the program's data would be wrong: never go on */
            fprintf(stderr, "simpi: error: privatization: cannot map the globals of rank %d: %s\n",
                    rank, strerror(errno));
            _exit(1);
        }
        pv.mapped = rank;
    }
    if (pv.mode == PRIVATIZE_REMAP) getrusage(RUSAGE_THREAD, &pv.at_load);
    if (pv.tls) memcpy(pv.tls, pv.tls_copies + (size_t)rank * pv.tls_size, pv.tls_size);
    pv.loaded = rank;
}

void privatize_save(int32_t rank) {
    struct rusage now;
    if (pv.mode == PRIVATIZE_REMAP && getrusage(RUSAGE_THREAD, &now) == 0) {
        pv.faults += now.ru_minflt - pv.at_load.ru_minflt;
        pv.kernel += seconds(now.ru_stime) - seconds(pv.at_load.ru_stime);
    }
    if (pv.mode == PRIVATIZE_COPY) swap_copies(rank, false);
    if (pv.tls) memcpy(pv.tls_copies + (size_t)rank * pv.tls_size, pv.tls, pv.tls_size);
    pv.loaded = -1;
}

void privatize_faults(int64_t *faults, double *kernel_seconds) {
    *faults = pv.faults;
    *kernel_seconds = pv.kernel;
}

void privatize_unshare(void) {
    if (pv.mode != PRIVATIZE_IMAGES) return;
    images_end();
    pv.mode = PRIVATIZE_NONE; /* the images stay mapped: their destructors run at exit */
}

void privatize_end(void) {
    privatize_unshare();
    if (pv.window) munmap(pv.window, pv.size * (size_t)pv.nranks);
    if (pv.fd >= 0) close(pv.fd);
    free(pv.copies);
    free(pv.ranges);
    free(pv.tls_copies);
    memset(&pv, 0, sizeof pv);
    pv.loaded = pv.mapped = -1;
    pv.fd = -1;
}
