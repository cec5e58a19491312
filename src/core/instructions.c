/* SPDX-License-Identifier: BSD-3-Clause */
/* User-mode instruction counts of the calling thread through
 * perf_event_open's hardware instruction counter (core/instructions.h). */
#define _GNU_SOURCE
#include "core/instructions.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int instructions_open(const char **why) {
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.type = PERF_TYPE_HARDWARE;
    a.size = sizeof a;
    a.config = PERF_COUNT_HW_INSTRUCTIONS;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    int fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
    if (fd < 0) *why = strerror(errno);
    return fd;
}

uint64_t instructions_read(int fd, uint64_t otherwise) {
    uint64_t v = 0;
    if (fd < 0 || read(fd, &v, sizeof v) != (ssize_t)sizeof v) return otherwise;
    return v;
}
