/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi gen OP`: collective benchmark traces, as OSU's and IMB's
 * collective tests time them: every rank calls collective OP of each size
 * ITERS times back to back, the iterations of each size in an interval of
 * their own (OP_SIZE), so that the summary, the JSON and the report give
 * each size's time. Also the one-call trace that `simpi platform collective`
 * replays to give an algorithm's time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/outfile.h"
#include "core/units.h"
#include "mpi/coll/coll.h"

/* Operations simpi gen writes: those with one size (no variable counts). */
int cli_coll_kind(const char *name) {
    for (int k = 0; k < COLL_KINDS; k++)
        if (!strcmp(sim_coll_name((enum coll_kind)k), name)) return k;
    return -1;
}

/* A size as an interval's name: 8B, 64KiB, 1MiB (no spaces). */
static void size_name(int64_t size, char *out, size_t n) {
    static const char *const units[] = {"GiB", "MiB", "KiB"};
    for (int u = 0; u < 3; u++) {
        int64_t scale = (int64_t)1 << (10 * (3 - u));
        if (size >= scale && size % scale == 0) {
            snprintf(out, n, "%lld%s", (long long)(size / scale), units[u]);
            return;
        }
    }
    snprintf(out, n, "%lldB", (long long)size);
}

/* One rank's call of kind (blocking, or non-blocking and its wait). */
static void write_call(FILE *f, long rank, enum coll_kind kind, int64_t size, bool nonblocking) {
    bool rooted =
        kind == COLL_BCAST || kind == COLL_REDUCE || kind == COLL_GATHER || kind == COLL_SCATTER;
    fprintf(f, "%ld %s%s", rank, nonblocking ? "i" : "", sim_coll_name(kind));
    if (kind != COLL_BARRIER) fprintf(f, " %lld", (long long)size);
    if (rooted) fputs(" root=0", f);
    if (nonblocking) fprintf(f, " req=0\n%ld wait 0", rank);
    fputc('\n', f);
}

void cli_write_collective_trace(FILE *f, int kind, long ranks, const int64_t *sizes, int nsizes,
                                long iters, bool nonblocking) {
    fprintf(f, "simpi-trace 1\nranks %ld\n# %s%s, %ld iteration%s of each size\n", ranks,
            nonblocking ? "i" : "", sim_coll_name(kind), iters, iters == 1 ? "" : "s");
    for (int s = 0; s < nsizes; s++) {
        char name[48];
        size_name(sizes[s], name, sizeof name);
        for (long r = 0; r < ranks && nsizes > 1; r++)
            fprintf(f, "%ld interval_begin %s_%s\n", r, sim_coll_name((enum coll_kind)kind), name);
        for (long it = 0; it < iters; it++)
            for (long r = 0; r < ranks; r++)
                write_call(f, r, (enum coll_kind)kind, sizes[s], nonblocking);
        for (long r = 0; r < ranks && nsizes > 1; r++)
            fprintf(f, "%ld interval_end\n", r);
    }
}

int cli_parse_sizes(const char *list, int64_t **sizes) {
    int n = 0;
    *sizes = NULL;
    for (const char *v = list;; v++) {
        size_t len = strcspn(v, ",");
        char one[64];
        int64_t size;
        if (len == 0 || len >= sizeof one) return -1;
        memcpy(one, v, len);
        one[len] = '\0';
        if (!units_parse_size(one, true, false, &size, NULL)) return -1;
        *sizes = xrealloc_or_die(*sizes, sizeof **sizes * (size_t)(n + 1));
        (*sizes)[n++] = size;
        v += len;
        if (!*v) return n;
    }
}

static int usage(void) {
    fprintf(stderr, "usage: simpi gen OP --ranks N [--size SIZE[,SIZE...]] [--iters K] "
                    "[--nonblocking] [-o FILE]\n  OP: barrier, bcast, reduce, allreduce, "
                    "gather, scatter, allgather, alltoall, reduce_scatter, scan, exscan\n");
    return EXIT_USAGE;
}

int cmd_gen_collective(int argc, char **argv) {
    int kind = cli_coll_kind(argv[1]);
    long ranks = 0, iters = 10;
    const char *sizes_text = "8", *out_path = "-";
    bool nonblocking = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "--nonblocking")) {
            nonblocking = true;
            continue;
        }
        if (!v) return usage();
        i++;
        if (!strcmp(a, "--ranks")) {
            ranks = strtol(v, &end, 10);
            if (*end || ranks < 1 || ranks > INT32_MAX) return usage();
        } else if (!strcmp(a, "--iters")) {
            iters = strtol(v, &end, 10);
            if (*end || iters < 1 || iters > 1000000) return usage();
        } else if (!strcmp(a, "--size")) {
            sizes_text = v;
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
            out_path = v;
        } else {
            return usage();
        }
    }
    int64_t *sizes = NULL;
    int nsizes = cli_parse_sizes(sizes_text, &sizes);
    if (kind < 0 || ranks < 1 || nsizes < 1) {
        free(sizes);
        return usage();
    }
    struct outfile out;
    struct sim_error err = {0};
    bool ok = outfile_open(&out, out_path, &err);
    if (ok) {
        cli_write_collective_trace(out.f, kind, ranks, sizes, nsizes, iters, nonblocking);
        ok = outfile_commit(&out, &err);
    }
    free(sizes);
    if (ok) return 0;
    err_print(&err);
    return EXIT_INPUT_ERROR;
}
