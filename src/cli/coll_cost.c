/* SPDX-License-Identifier: BSD-3-Clause */
/* A trace's prediction replayed quietly on a platform with one more
 * setting (for `--sensitivity`), and `simpi platform collective OP SIZE
 * RANKS`'s times: one call of the
 * collective on RANKS ranks, all entering at time 0, replayed on the
 * platform (with the algorithm its selector chooses, or each algorithm of
 * the operation forced in turn with --all), so that a time is the model's
 * own prediction: its network, contention and protocols included. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/units.h"
#include "mpi/coll/coll.h"
#include "net/network.h"
#include "platform/platform.h"
#include "replay/replay.h"
#include "replay/trace.h"
#include "report/summary.h"

/* The trace of one call, in a temporary file (its path in path[n]). */
static bool write_call_trace(const struct coll_call *c, char *path, size_t n,
                             struct sim_error *err) {
    const char *dir = getenv("TMPDIR");
    snprintf(path, n, "%s/simpi-collective-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f) {
        if (fd >= 0) close(fd);
        return err_set(err, "cannot write a temporary trace in %s", dir && *dir ? dir : "/tmp");
    }
    cli_write_collective_trace(f, c->kind, c->ranks, &c->size, 1, 1, c->nonblocking);
    if (fclose(f) == 0) return true;
    unlink(path);
    return err_set(err, "cannot write a temporary trace in %s", dir && *dir ? dir : "/tmp");
}

bool cli_replay_time(const struct platform_opts *o, const char *extra, const char *trace,
                     simtime_t *t, char *why, size_t n) {
    const char **sets = xmalloc(sizeof *sets * (size_t)(o->nsets + 1));
    for (int i = 0; i < o->nsets; i++)
        sets[i] = o->sets[i];
    int nsets = o->nsets;
    if (extra) sets[nsets++] = extra;
    struct sim_error err = {0};
    struct platform *p = platform_load(o->path, sets, nsets, &err);
    struct network net;
    bool have_net = p && network_init(&net, p, &err);
    struct trace_reader *tr = have_net ? trace_open(trace, &err) : NULL;
    struct replay_result res = {0};
    bool ok = tr && replay_run(tr, p, &net, &res, &err) && res.status == SIM_OK;
    if (ok)
        *t = summary_predicted(res.sim);
    else
        snprintf(why, n, "%s", err.set ? err.msg : sim_failure_report(res.sim));
    if (res.sim) replay_result_free(&res);
    trace_close(tr);
    if (have_net) network_destroy(&net);
    platform_free(p);
    free(sets);
    return ok;
}

bool cli_collective_time(const struct platform_opts *o, const struct coll_call *c,
                         const char *algorithm, simtime_t *t, char *why, size_t n) {
    char path[4096], set[128];
    struct sim_error err = {0};
    if (!write_call_trace(c, path, sizeof path, &err)) {
        snprintf(why, n, "%s", err.msg);
        return false;
    }
    if (algorithm)
        snprintf(set, sizeof set, "mpi.coll.%s=%s", sim_coll_name((enum coll_kind)c->kind),
                 algorithm);
    bool ok = cli_replay_time(o, algorithm ? set : NULL, path, t, why, n);
    unlink(path);
    /* a report's last line break, and what follows the first line */
    why[strcspn(why, "\n")] = '\0';
    return ok;
}
