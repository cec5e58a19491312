/* SPDX-License-Identifier: BSD-3-Clause */
/* A log for the people who debug the simulator, by category:
 * SIMPI_LOG=net,match (or all) prints what those parts decide, one line
 * each on stderr, "simpi[match] 12.345678 us: ...". Off (the default), a
 * log point costs one test of a global. An unknown category stops simpi
 * with the list of those it knows. */
#ifndef SIMPI_LOG_H
#define SIMPI_LOG_H

#include <stdbool.h>

#include "core/simtime.h"

enum log_category {
    LOG_ENGINE, /* the run: its start and end, time limits */
    LOG_NET,    /* a message's route and costs (latency, transfer) */
    LOG_MATCH,  /* a send and a receive matched, or a message left unexpected */
    LOG_COLL,   /* a collective's algorithm chosen */
    LOG_TRACE,  /* a trace opened: its format, ranks, records */
    LOG_ONLINE, /* the on-line runtime: settings read, ranks started and ended */
    LOG_CATEGORIES
};

/* The categories asked for, one bit each; read from SIMPI_LOG by
 * log_init (or at the first log point). */
extern unsigned log_mask;

/* Reads SIMPI_LOG; false with why (the categories it knows) if it names
 * an unknown one. */
bool log_init(char *why, int n);
void log_write(enum log_category c, simtime_t now, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A log line of category c at simulated time now (SIMTIME_NEVER: none). */
#define SIMPI_LOG(c, now, ...)                                                                     \
    do {                                                                                           \
        if (__builtin_expect(log_mask & (1u << (c)), 0)) log_write(c, now, __VA_ARGS__);           \
    } while (0)

#endif
