/* SPDX-License-Identifier: BSD-3-Clause */
/* Parsing of physical quantities with explicit units (DESIGN 4.8):
 * times (s, ms, us, ns, ps), sizes (B, KiB, MB...), bandwidths (GB/s, Gb/s),
 * flop counts and rates (Gf). */
#ifndef SIMPI_UNITS_H
#define SIMPI_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "core/simtime.h"

/* Each returns true on success. On failure, *why (if not NULL) points to a
 * static description of what was expected. */
bool units_parse_time(const char *s, simtime_t *out, const char **why);
/* Seconds as a double, for model parameters. */
bool units_parse_seconds(const char *s, double *out, const char **why);
/* Size in bytes. If bare_ok, a plain number means bytes. "inf" gives INT64_MAX
 * when inf_ok. */
bool units_parse_size(const char *s, bool bare_ok, bool inf_ok, int64_t *out, const char **why);
/* Bandwidth in bytes per second. */
bool units_parse_bandwidth(const char *s, double *out, const char **why);
/* A flop count (e.g. 2.5Gf) as a double. */
bool units_parse_flops(const char *s, double *out, const char **why);
/* A plain non-negative number without unit. */
bool units_parse_number(const char *s, double *out, const char **why);

/* Formats a time / size for humans into buf. */
const char *units_format_time(simtime_t t, char *buf, int len);
const char *units_format_size(int64_t bytes, char *buf, int len);
/* Writes v in decimal as "%lld" does, without printf; returns its length
 * (at most 20 characters, not terminated). */
int units_format_int(int64_t v, char out[24]);

#endif
