/* SPDX-License-Identifier: BSD-3-Clause */
/* An extrapolation read as a trace (trace_extrapolated.h): the file names
 * the scales and the target, the extrapolator generates each rank's
 * records when the replay asks for them. */
#include "replay/trace_extrapolated.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "replay/extrapolate.h"

enum { MAX_TRACES = 16 };

struct textrap {
    struct extrapolator *e;
    trace_intern_fn intern;
    void *ctx;
};

bool textrap_detect(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) return false;
    char line[64] = "";
    bool yes = fgets(line, sizeof line, f) &&
               !strncmp(line, EXTRAPOLATION_MAGIC "\n", sizeof EXTRAPOLATION_MAGIC);
    fclose(f);
    return yes;
}

/* path's trace line's PATH, relative to the file's folder unless absolute */
static char *trace_path(const char *file, const char *name) {
    const char *slash = strrchr(file, '/');
    if (name[0] == '/' || !slash) return xstrdup(name);
    size_t dir = (size_t)(slash - file) + 1, len = dir + strlen(name) + 1;
    char *p = xmalloc(len);
    memcpy(p, file, dir);
    strcpy(p + dir, name);
    return p;
}

/* Reads the file's lines: the target and the traces; false with why. */
static bool read_file(const char *path, long *ranks, char **paths, int *n, struct sim_error *err) {
    FILE *f = fopen(path, "r");
    if (!f) return err_set(err, "%s: cannot open: %s", path, strerror(errno));
    char line[4096];
    int lineno = 0;
    bool ok = true;
    *ranks = 0;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        char *end;
        if (lineno == 1 || line[0] == '#' || line[0] == '\0') continue;
        if (!strncmp(line, "ranks ", 6)) {
            *ranks = strtol(line + 6, &end, 10);
            if (*end || *ranks < 1 || *ranks > INT32_MAX)
                ok = err_set(err, "%s:%d: field 'ranks': found '%s', expected a rank count", path,
                             lineno, line + 6);
        } else if (!strncmp(line, "trace ", 6) && *n < MAX_TRACES) {
            paths[(*n)++] = trace_path(path, line + 6);
        } else {
            ok = err_set(err,
                         "%s:%d: found '%s', expected 'ranks N' or 'trace PATH' (at most %d "
                         "traces)",
                         path, lineno, line, MAX_TRACES);
        }
    }
    fclose(f);
    if (ok && !*ranks) ok = err_set(err, "%s: no 'ranks N' line: the target's rank count", path);
    return ok;
}

void *textrap_open(const char *path, const char *temp_dir, int64_t max_ranks,
                   trace_intern_fn intern, void *ctx, int32_t *nranks, struct sim_error *err) {
    (void)temp_dir;
    char *paths[MAX_TRACES];
    int n = 0;
    long ranks;
    bool ok = read_file(path, &ranks, paths, &n, err);
    if (ok && ranks > max_ranks)
        ok = err_set(err, "%s: %ld ranks: more than the %lld this machine's memory allows", path,
                     ranks, (long long)max_ranks);
    struct extrapolation x;
    struct extrapolator *e = ok ? extrapolator_open(paths, n, (int32_t)ranks, &x, err) : NULL;
    for (int i = 0; i < n; i++)
        free(paths[i]);
    if (!e) return NULL;
    struct textrap *t = xcalloc(1, sizeof *t);
    *t = (struct textrap){e, intern, ctx};
    *nranks = extrapolator_ranks(e);
    return t;
}

int textrap_next(void *source, int32_t rank, struct trace_rec *r, trace_probe_fn probe,
                 void *probe_ctx, struct sim_error *err) {
    (void)probe, (void)probe_ctx, (void)err;
    struct textrap *t = source;
    const struct trace_reader *names;
    int got = extrapolator_next(t->e, rank, r, &names);
    if (got > 0 && r->op == TOP_INTERVAL_BEGIN) /* its name's id in the replay's table */
        r->req = t->intern(t->ctx, trace_interval_name(names, r->req));
    return got;
}

void textrap_close(void *source) {
    struct textrap *t = source;
    if (!t) return;
    extrapolator_close(t->e);
    free(t);
}
