/* SPDX-License-Identifier: BSD-3-Clause */
/* Reads peak RSS from getrusage and wall time from CLOCK_MONOTONIC. */
#include "core/memstat.h"

#include <sys/resource.h>
#include <time.h>

int64_t memstat_peak_rss(void) {
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru) != 0) return 0;
    return (int64_t)ru.ru_maxrss * 1024;
}

double memstat_wall_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
