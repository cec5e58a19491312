/* SPDX-License-Identifier: BSD-3-Clause */
/* What the importers of other tools' platforms share (src/platform/
 * import*.c): the XML scanner of tags and attributes, its file:line
 * errors, and SimGrid's units. */
#ifndef SIMPI_IMPORT_INTERNAL_H
#define SIMPI_IMPORT_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"

#define MAX_ATTRS 32

struct tag {
    char name[32]; /* "/name" for an end tag */
    char *key[MAX_ATTRS], *val[MAX_ATTRS];
    int n, line;
    bool empty; /* <name ... /> */
};

struct scanner {
    const char *path;
    char *text, *p; /* the file's text, cut in place; where the scan is */
    int line;
    struct sim_error *err;
};

/* Sets the error at path:line; returns false. */
__attribute__((format(printf, 3, 4))) bool xfail(struct scanner *s, int line, const char *fmt, ...);
/* The next element's tag (start, or end as "/name"); 0 at the end of the
 * text, -1 on error. Comments, processing instructions and DOCTYPE are
 * skipped. */
int next_tag(struct scanner *s, struct tag *t);
/* The attribute's value, or NULL. */
const char *attr(const struct tag *t, const char *key);
/* Refuses an attribute SimGrid's element does not have (file, line, the
 * nearest name and the list), and warns of one simpi does not model. */
bool simgrid_check_attrs(struct scanner *s, const struct tag *t);
/* SimGrid units as simpi's: bandwidths "125MBps" (bytes) or "1Gbps" (bits)
 * become "125MB/s" / "1Gb/s", bare numbers bytes/s or seconds; times and
 * flop rates are alike. */
void simgrid_value(const char *v, char *out, size_t n, bool bandwidth);

/* A SimGrid zone of <host>, <router>, <link> and <route> elements, from the
 * scanner's start, as the YAML of a graph topology (src/platform/
 * import_zone.c). */
bool import_zone(struct scanner *s, FILE *y);

#endif
