/* SPDX-License-Identifier: BSD-3-Clause */
/* The run's status and its failure report: the lowest layer of the MPI
 * layer (docs/architecture.md, "The MPI layer's layers"). Any part may
 * fail the run (sim_fail: the first failure wins, the engine stops) or
 * add to the report; nothing here calls another part of the layer. */
#include <stdarg.h>
#include <stdio.h>

#include "core/alloc.h"
#include "core/units.h"
#include "mpi/part.h"
#include "mpi/sim_internal.h"

void sim_report_append(struct sim *s, const char *fmt, ...) {
    va_list ap;
    for (;;) {
        size_t room = s->out.report_cap - s->out.report_len;
        va_start(ap, fmt);
        int n = vsnprintf(s->out.report ? s->out.report + s->out.report_len : NULL,
                          s->out.report ? room : 0, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if (s->out.report && (size_t)n < room) {
            s->out.report_len += (size_t)n;
            return;
        }
        s->out.report_cap = (s->out.report_cap + (size_t)n + 1) * 2;
        s->out.report = xrealloc_or_die(s->out.report, s->out.report_cap);
    }
}

static void fail_with(struct sim *s, enum sim_status st, const char *fmt, va_list ap) {
    if (s->status != SIM_OK) return;
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    s->status = st;
    sim_report_append(s, "%s\n", msg);
    engine_stop(&s->eng);
}

void sim_fail(struct sim *s, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fail_with(s, SIM_APP_ERROR, fmt, ap);
    va_end(ap);
}

void sim_fail_status(struct sim *s, enum sim_status st, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fail_with(s, st, fmt, ap);
    va_end(ap);
}

void sim_fail_reading(struct sim *s, const char *msg) {
    sim_fail_status(s, SIM_INPUT_ERROR, "%s", msg);
    s->out.failed_reading = true;
}

bool sim_failed_reading(const struct sim *s) {
    return s->out.failed_reading;
}

int sim_exit_code(enum sim_status st) {
    static const int codes[] = {
        [SIM_OK] = 0,          [SIM_DEADLOCK] = 3,      [SIM_APP_ERROR] = 4,
        [SIM_INPUT_ERROR] = 1, [SIM_INTERRUPTED] = 130, [SIM_TIME_LIMIT] = 124, /* as timeout(1) */
        [SIM_FAULT] = 6};
    return codes[st];
}

enum sim_status sim_status(const struct sim *s) {
    return s->status;
}

const char *sim_failure_report(const struct sim *s) {
    return s->out.report ? s->out.report : "";
}
void sim_time_overflow(struct sim *s, int32_t rank, const char *what) {
    char tb[48];
    sim_fail_status(s, SIM_INPUT_ERROR,
                    "virtual time overflow on rank %d at virtual time %s: %s would end beyond the "
                    "largest simulated time (%s)",
                    rank, units_format_time(s->eng.now, tb, sizeof tb), what, SIMTIME_LIMIT_TEXT);
}
