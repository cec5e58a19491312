/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi convert IN OUT [--to native|binary|dim|simgrid|otf2] [--compress C]`:
 * any trace simpi reads (native text or binary, per-rank folder or index,
 * SimGrid time-independent, Dimemas .dim) written as a native text trace
 * (one file, rank after rank), a binary trace (trace_bin_write.c), a Dimemas
 * trace or a SimGrid time-independent trace (a folder), by the writers of
 * replay/ (trace_write.c, trace_dim.c, trace_tit_write.c,
 * trace_otf2_write.c); the format comes
 * from --to, else OUT's extension (.dim: Dimemas, .sbt: binary, otherwise
 * text). Written atomically; records that have no
 * equivalent in the output format stop the conversion naming their file and line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/outfile.h"
#include "replay/trace.h"
#include "replay/trace_bin.h"
#include "replay/trace_write.h"

bool cli_convert_to_binary(const char *in, const char *out, int codec, struct sim_error *err) {
    struct trace_reader *t = trace_open_convertible(in, err);
    struct outfile o;
    bool ok = t && outfile_open(&o, out, err);
    if (ok && o.in_place) {
        outfile_discard(&o);
        ok = err_set(err, "%s: a binary trace must be a regular file (its index is written last)",
                     out);
    } else if (ok) {
        ok = trace_write_binary(t, o.f, out, (enum tbin_codec)codec, err);
        if (ok)
            ok = outfile_commit(&o, err);
        else
            outfile_discard(&o);
    }
    trace_close(t);
    return ok;
}

bool cli_convert_to_otf2(const char *in, const char *out, struct sim_error *err) {
    return otf2_write(in, out, err);
}

static int convert_usage(void) {
    fprintf(stderr, "usage: simpi convert IN OUT [--to native|binary|dim|simgrid|otf2] [--compress "
                    "none|zstd|gzip]   (format of OUT from --to, else its extension: .dim is "
                    "Dimemas, .sbt binary)\n");
    return EXIT_USAGE;
}

static bool ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && !strcmp(s + n - m, suffix);
}

int cmd_convert(int argc, char **argv) {
    const char *in = NULL, *out = NULL, *to = NULL, *compress = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--to") && i + 1 < argc)
            to = argv[++i];
        else if (!strcmp(argv[i], "--compress") && i + 1 < argc)
            compress = argv[++i];
        else if (!in)
            in = argv[i];
        else if (!out)
            out = argv[i];
        else
            return convert_usage(); /* too many */
    }
    if (!in || !out ||
        (to && strcmp(to, "native") && strcmp(to, "binary") && strcmp(to, "dim") &&
         strcmp(to, "simgrid") && strcmp(to, "otf2")))
        return convert_usage();
    if (!to) to = ends_with(out, ".dim") ? "dim" : ends_with(out, ".sbt") ? "binary" : "native";
    int codec = compress ? tbin_codec_by_name(compress) : TBIN_ZSTD;
    if (codec < 0 || (compress && strcmp(to, "binary"))) {
        fprintf(stderr, "simpi convert: --compress takes none, zstd or gzip, and applies to --to "
                        "binary\n");
        return EXIT_USAGE;
    }
    struct sim_error err = {0};
    if (!strcmp(to, "binary")) {
        if (cli_convert_to_binary(in, out, codec, &err)) return 0;
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    if (!strcmp(to, "otf2")) {
        if (cli_convert_to_otf2(in, out, &err)) return 0;
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    struct trace_reader *t = trace_open_convertible(in, &err);
    if (t && !strcmp(to, "simgrid")) { /* a folder of files */
        bool done = tit_write(t, out, &err);
        trace_close(t);
        if (done) return 0;
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    struct outfile o;
    bool ok = t && outfile_open(&o, out, &err);
    if (ok) {
        const char *base = strrchr(in, '/');
        ok = !strcmp(to, "dim") ? dim_write(t, o.f, base ? base + 1 : in, &err)
                                : trace_write_native(t, o.f, &err);
        if (ok)
            ok = outfile_commit(&o, &err);
        else
            outfile_discard(&o);
    }
    trace_close(t);
    if (!ok) {
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    return 0;
}
