/* SPDX-License-Identifier: BSD-3-Clause */
/* The progress line; see progress.h. Costs one clock read (vDSO, no system
 * call) every 65,536 events, and a write to stderr at most every 250 ms. */
#include "report/progress.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/conf.h"
#include "core/units.h"

static struct {
    struct sim *sim;
    double (*share)(void *ctx);
    void *ctx;
    double start, last;
    uint64_t last_events;
    bool shown;
} pg;

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

bool progress_parse(const char *s, enum progress_mode *mode) {
    static const char *const names[] = {"auto", "always", "never", NULL};
    static const enum progress_mode modes[] = {PROGRESS_AUTO, PROGRESS_ALWAYS, PROGRESS_NEVER};
    int i = conf_name_find(s, names);
    if (i >= 0) *mode = modes[i];
    return i >= 0;
}

static void show(void *unused) {
    (void)unused;
    double t = now();
    if (t - pg.start < 1.0 || t - pg.last < 0.25) return;
    uint64_t ev = sim_events(pg.sim);
    double rate = (double)(ev - pg.last_events) / (t - pg.last);
    char vt[48], line[200];
    int n = snprintf(line, sizeof line,
                     "\r\033[K[simpi] virtual %s | %d/%d ranks finished | %.3g events/s",
                     units_format_time(sim_now(pg.sim), vt, sizeof vt), sim_finished_ranks(pg.sim),
                     sim_size(pg.sim), rate);
    double share = pg.share ? pg.share(pg.ctx) : -1;
    if (share > 0.001 && n > 0 && (size_t)n < sizeof line) {
        double left = (t - pg.start) * (1 - share) / share;
        snprintf(line + n, sizeof line - (size_t)n, " | trace %.0f%% read, about %.0f s left",
                 share * 100, left);
    }
    fputs(line, stderr);
    fflush(stderr);
    pg.shown = true;
    pg.last = t;
    pg.last_events = ev;
}

void progress_start(struct sim *s, enum progress_mode mode, double (*trace_share)(void *ctx),
                    void *ctx) {
    if (mode == PROGRESS_NEVER || (mode == PROGRESS_AUTO && !isatty(2))) return;
    memset(&pg, 0, sizeof pg);
    pg.sim = s;
    pg.share = trace_share;
    pg.ctx = ctx;
    pg.start = pg.last = now();
    sim_set_tick(s, show, NULL);
}

void progress_end(void) {
    if (!pg.sim) return;
    sim_set_tick(pg.sim, NULL, NULL);
    if (pg.shown) fputs("\r\033[K", stderr);
    pg.sim = NULL;
}
