/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi extrapolate TRACE... --ranks N [-o OUT]`: the traces of one
 * program at a few small scales written as its trace at N ranks
 * (replay/extrapolate.c, docs/extrapolation.md); what the laws found say
 * goes to stderr. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/outfile.h"
#include "replay/extrapolate.h"

static int usage(void) {
    fprintf(stderr, "usage: simpi extrapolate TRACE TRACE... --ranks N [-o OUT]   (the traces of "
                    "one program at two or more scales; one trace at its own N: each burst "
                    "its class's mean)\n");
    return EXIT_USAGE;
}

int cmd_extrapolate(int argc, char **argv) {
    char **paths = xcalloc((size_t)argc + 1, sizeof *paths);
    int npaths = 0;
    long ranks = 0;
    const char *out = "-";
    for (int i = 1; i < argc; i++) {
        char *end;
        if (!strcmp(argv[i], "--ranks") && i + 1 < argc) {
            ranks = strtol(argv[++i], &end, 10);
            if (*end || ranks < 1 || ranks > INT32_MAX) {
                fprintf(stderr, "simpi extrapolate: --ranks: found '%s', expected a rank count\n",
                        argv[i]);
                free(paths);
                return EXIT_USAGE;
            }
        } else if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1]) {
            fprintf(stderr, "simpi extrapolate: unknown option '%s'\n", argv[i]);
            free(paths);
            return usage();
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (!ranks || npaths < 1) {
        free(paths);
        return usage();
    }
    struct sim_error err = {0};
    struct outfile o = {0};
    struct extrapolation x;
    bool ok =
        outfile_open(&o, out, &err) && extrapolate(paths, npaths, (int32_t)ranks, o.f, &x, &err);
    if (ok)
        ok = outfile_commit(&o, &err);
    else if (o.f)
        outfile_discard(&o);
    free(paths);
    if (!ok) {
        fprintf(stderr, "simpi extrapolate: %s\n", err.msg);
        return EXIT_INPUT_ERROR;
    }
    fprintf(stderr,
            "simpi extrapolate: %ld ranks on a %d-D%s grid, %d positions, %d numbers fitted; "
            "computation within %.2g%% of its laws%s%s%s\n",
            ranks, x.ndims, extrapolation_grid_word(&x), x.classes, x.fields, 100 * x.worst_error,
            x.worst[0] ? " (the worst: " : "", x.worst, x.worst[0] ? ")" : "");
    extrapolation_say_counts(&x, stderr, "simpi extrapolate: ");
    return 0;
}
