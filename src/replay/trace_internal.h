/* SPDX-License-Identifier: BSD-3-Clause */
/* Shared between the trace reader files. */
#ifndef SIMPI_TRACE_INTERNAL_H
#define SIMPI_TRACE_INTERNAL_H

#include "replay/trace.h"

#define MAX_TOKENS 1024

/* A field of a record line: where it starts in the line and its length
 * (the line is read where it lies, never written). */
struct field {
    const char *p;
    int32_t n;
};

/* The next field of [*at, end), *at moved past it; false at the line's
 * end or a '#'. */
bool trace_next_field(const char **at, const char *end, struct field *f);
/* Splits [s, end) into fields at blanks (space, tab, CR), stopping at '#';
 * returns the number of fields, or -1 when there are more than max. */
int trace_fields(const char *s, const char *end, struct field *f, int max);
/* A decimal integer field in [min, max]. */
bool trace_field_int(struct field f, int32_t min, int32_t max, int32_t *out);
/* Parses the record line [line, line + len): 1 with rec filled, 0 for a
 * blank or comment line, -1 on error (err names file and line). */
int trace_parse_span(struct trace_reader *t, const char *line, size_t len, int32_t nranks,
                     struct trace_rec *rec, const char *file, int lineno, struct sim_error *err);

int32_t trace_intern(struct trace_reader *t, const char *name);
/* Splits a line in place at blanks, stopping at '#'; returns the number of
 * fields, or -1 when there are more than max. */
int trace_tokenize(char *line, char **tok, int max);
/* A decimal integer in [min, max]. */
bool trace_parse_int(const char *s, int32_t min, int32_t max, int32_t *out);

/* SimGrid time-independent traces (trace_tit.c). Parses one action line of
 * the trace of rank `rank`. Returns 1 with rec filled (and *extra filled and
 * *has_extra set when the action needs a second record: the computation that
 * follows a reduction), 0 for an action with no simulated effect (init,
 * finalize, location, comm_size...), -1 on error. default_dt holds the rank's
 * default datatype size, set by its init action. */
struct tit_pairs;
int tit_parse_line(char *line, int32_t rank, int32_t nranks, uint8_t *default_dt,
                   struct tit_pairs *pairs, struct trace_rec *rec, struct trace_rec *extra,
                   bool *has_extra, const char *file, int lineno, struct sim_error *err);
/* MPI_PROC_NULL and SMPI's dropped sendRecv lines (trace_tit_null.c): a
 * first pass over the trace's files counts each pair's messages; then,
 * for each sendRecv half in trace order, whether its partner traced it
 * (false: replay it as MPI_PROC_NULL). */
struct tit_pairs *tit_pairs_scan(char *const *paths, int32_t npaths, int32_t nranks);
void tit_pairs_free(struct tit_pairs *p);
bool tit_pairs_matched(struct tit_pairs *p, int32_t src, int32_t dst, bool send);

/* A record a writer cannot convert: err names its file, line and rank. */
bool trace_rec_fail(const struct trace_reader *t, const struct trace_rec *r, struct sim_error *err,
                    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* Whether path (gzip allowed) begins with a Dimemas header. */
bool dim_is_dimemas(const char *path);
/* Dimemas traces (trace_dim.c): translates path into native per-rank files
 * dir/rank<R>.trace; *nranks gets the task count. */
bool dim_translate(const char *path, const char *dir, int32_t *nranks, struct sim_error *err);
#endif
