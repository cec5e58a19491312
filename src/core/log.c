/* SPDX-License-Identifier: BSD-3-Clause */
/* SIMPI_LOG: the categories asked for, and their lines (log.h). */
#include "core/log.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"

unsigned log_mask;

static const char *const names[LOG_CATEGORIES] = {"engine", "net",   "match",
                                                  "coll",   "trace", "online"};

bool log_init(char *why, int n) {
    const char *v = getenv("SIMPI_LOG");
    log_mask = 0;
    while (v && *v) {
        size_t len = strcspn(v, ",");
        int found = -1;
        for (int c = 0; c < LOG_CATEGORIES && found < 0; c++)
            if (strlen(names[c]) == len && !strncmp(v, names[c], len)) found = c;
        if (len == 3 && !strncmp(v, "all", 3)) {
            log_mask = (1u << LOG_CATEGORIES) - 1;
        } else if (found >= 0) {
            log_mask |= 1u << found;
        } else if (len > 0) {
            snprintf(why, (size_t)n,
                     "SIMPI_LOG: found '%.*s', expected a list of engine, net, match, coll, "
                     "trace, online or all",
                     (int)(len > 40 ? 40 : len), v);
            log_mask = 0;
            return false;
        }
        v += len + (v[len] == ',');
    }
    return true;
}

void log_write(enum log_category c, simtime_t now, const char *fmt, ...) {
    char when[48] = "";
    if (now != SIMTIME_NEVER) {
        char t[32];
        snprintf(when, sizeof when, " %s", units_format_time(now, t, sizeof t));
    }
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    fprintf(stderr, "simpi[%s]%s: %s\n", names[c], when, line);
}
