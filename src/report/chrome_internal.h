/* SPDX-License-Identifier: BSD-3-Clause */
/* The events chrome.c gathers from a run (its Chrome/Perfetto trace), shared
 * with the OTF2 timeline written from them (otf2_timeline.c). */
#ifndef SIMPI_CHROME_INTERNAL_H
#define SIMPI_CHROME_INTERNAL_H

#include "core/outfile.h"
#include "report/analysis_internal.h"

enum { CH_PERIOD, CH_INSTANT, CH_BEGIN, CH_END, CH_MESSAGE };

/* One event: a rank's (period, instant, interval) or a message. */
struct ch_ev {
    simtime_t t, t2; /* begin; period: end; message: lsend, precv */
    int64_t size;    /* message */
    int32_t rank;    /* the track; message: the sender */
    int32_t peer;    /* message: the receiver; interval begin: its name's number */
    uint32_t seq;    /* the rank's count of its events */
    int32_t tag;     /* message */
    uint16_t a, b;   /* period: state, call; instant: call; message: collective */
    uint8_t kind, pad;
};

struct chrome {
    char *otf2_dir; /* --otf2 DIR: written as an OTF2 archive instead */
    struct outfile out;
    bool writing; /* the first worker (or the only one) writes the file */
    int32_t nranks;
    uint32_t *seq; /* per rank */
    struct ch_ev *ev;
    size_t n, cap;
    char **names; /* interval names, numbered by first use here */
    int32_t nnames, names_cap;
    char *what;
    const struct sim_fault_note *faults; /* global instants */
    size_t nfaults;
};

/* Writes c's events as an OTF2 archive in the new folder c->otf2_dir. */
bool chrome_write_otf2(struct chrome *c, struct sim_error *err);

#endif
