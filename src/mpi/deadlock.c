/* SPDX-License-Identifier: BSD-3-Clause */
/* Deadlock analysis: when no event is left and ranks are still blocked, the
 * wait-for graph (a blocked rank -> the ranks it waits for) is printed, with
 * a cycle in it if there is one, or the finished ranks that are waited for. */
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/units.h"
#include "mpi/part.h"
#include "mpi/sim_internal.h"
#include "mpi/wait.h"

#define MAX_TARGETS 64

void deadlock_note_elsewhere(struct sim *s, int32_t rank, const int32_t *targets, int n,
                             const char *text, size_t len) {
    if (!s->split.blocked_elsewhere)
        s->split.blocked_elsewhere = xcalloc((size_t)s->nranks, sizeof *s->split.blocked_elsewhere);
    struct blocked_elsewhere *b = &s->split.blocked_elsewhere[rank];
    b->n = n;
    b->targets = xmalloc(sizeof *b->targets * (size_t)n + 1);
    memcpy(b->targets, targets, sizeof *b->targets * (size_t)n);
    b->text = xcalloc(len + 1, 1);
    memcpy(b->text, text, len);
}

void deadlock_free(struct sim *s) {
    for (int32_t i = 0; s->split.blocked_elsewhere && i < s->nranks; i++) {
        free(s->split.blocked_elsewhere[i].text);
        free(s->split.blocked_elsewhere[i].targets);
    }
    free(s->split.blocked_elsewhere);
}

/* A blocked rank's targets: its own requests' peers, or in a split run what
 * the rank's worker sent (deadlock_note_elsewhere). */
static int targets_of(struct sim *s, int32_t rank, int32_t *out, int max) {
    if (sim_local(s, rank)) return wait_targets(s, rank, out, max);
    const struct blocked_elsewhere *b =
        s->split.blocked_elsewhere ? &s->split.blocked_elsewhere[rank] : NULL;
    int n = b ? (b->n < max ? b->n : max) : 0;
    if (n) memcpy(out, b->targets, sizeof *out * (size_t)n);
    return n;
}

static void describe(struct sim *s, int32_t rank) {
    const struct blocked_elsewhere *b =
        s->split.blocked_elsewhere ? &s->split.blocked_elsewhere[rank] : NULL;
    if (sim_local(s, rank))
        wait_describe(s, rank);
    else
        sim_report_append(s, "%s", b && b->text ? b->text : "blocked (in another worker)");
}

char *deadlock_describe(struct sim *s, int32_t rank) {
    char *saved = s->out.report;
    size_t len = s->out.report_len, cap = s->out.report_cap;
    s->out.report = NULL;
    s->out.report_len = s->out.report_cap = 0;
    wait_describe(s, rank);
    char *text = s->out.report ? s->out.report : xstrdup("");
    s->out.report = saved;
    s->out.report_len = len;
    s->out.report_cap = cap;
    return text;
}

/* The colours of the depth-first search. */
enum { WHITE, GREY, BLACK };

/* Depth-first search from `start` over blocked ranks; on finding a cycle,
 * prints it and returns true. Iterative: the path is kept in `path`. */
static bool find_cycle(struct sim *s, int32_t start, uint8_t *colour, int32_t *path,
                       int32_t *next_edge) {
    int32_t depth = 0, targets[MAX_TARGETS];
    path[0] = start;
    next_edge[0] = 0;
    colour[start] = GREY;
    while (depth >= 0) {
        int32_t v = path[depth];
        int n = targets_of(s, v, targets, MAX_TARGETS);
        if (next_edge[depth] >= n) {
            colour[v] = BLACK;
            depth--;
            continue;
        }
        int32_t w = targets[next_edge[depth]++];
        if (s->ranks[w].state == RS_FINISHED || colour[w] == BLACK) continue;
        if (colour[w] == GREY) {
            int32_t from = depth;
            while (path[from] != w)
                from--;
            sim_report_append(s, "cycle:");
            for (int32_t k = from; k <= depth; k++)
                sim_report_append(s, " %d ->", path[k]);
            sim_report_append(s, " %d\n", w);
            return true;
        }
        colour[w] = GREY;
        path[++depth] = w;
        next_edge[depth] = 0;
    }
    return false;
}

/* Lists up to a few blocked ranks that wait for a rank that has finished. */
static void report_finished_targets(struct sim *s) {
    int32_t targets[MAX_TARGETS];
    int shown = 0;
    for (int32_t i = 0; i < s->nranks && shown < 8; i++) {
        if (s->ranks[i].state == RS_FINISHED) continue;
        int n = targets_of(s, i, targets, MAX_TARGETS);
        for (int k = 0; k < n; k++) {
            if (s->ranks[targets[k]].state != RS_FINISHED) continue;
            sim_report_append(s, "rank %d waits for rank %d, which has finished its program\n", i,
                              targets[k]);
            shown++;
            break;
        }
    }
}

static void report_cycle(struct sim *s) {
    uint8_t *colour = xcalloc((size_t)s->nranks, 1);
    int32_t *path = xcalloc((size_t)s->nranks, sizeof *path);
    int32_t *next_edge = xcalloc((size_t)s->nranks, sizeof *next_edge);
    bool found = false;
    for (int32_t i = 0; i < s->nranks && !found; i++)
        if (s->ranks[i].state != RS_FINISHED && colour[i] == WHITE)
            found = find_cycle(s, i, colour, path, next_edge);
    if (!found) report_finished_targets(s);
    free(colour);
    free(path);
    free(next_edge);
}

void report_deadlock(struct sim *s) {
    char tb[48];
    int32_t stuck = 0;
    for (int32_t i = 0; i < s->nranks; i++)
        stuck += s->ranks[i].state != RS_FINISHED;
    sim_report_append(s,
                      "deadlock at virtual time %s: %d of %d ranks are blocked and no event "
                      "can wake them\nwait-for graph (rank: operation -> ranks it waits for):\n",
                      units_format_time(s->eng.now, tb, sizeof tb), stuck, s->nranks);
    int shown = 0;
    for (int32_t i = 0; i < s->nranks; i++) {
        if (s->ranks[i].state == RS_FINISHED) continue;
        if (shown++ >= 64) {
            sim_report_append(s, "  ... (%d more blocked ranks)\n", stuck - 64);
            break;
        }
        sim_report_append(s, "  rank %d: ", i);
        describe(s, i);
        sim_report_append(s, "\n");
    }
    report_cycle(s);
}
