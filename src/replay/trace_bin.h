/* SPDX-License-Identifier: BSD-3-Clause */
/* The binary trace form (docs/trace-format.md, "Binary traces"): a header,
 * chunks of one rank's records each (varint-coded, optionally compressed
 * with zstd or gzip's deflate, one frame per chunk), and an index at the end
 * that lists every rank's chunks, so that a rank's records are read without
 * touching another's. Records decode to exactly the struct trace_rec that
 * the text form gives. */
#ifndef SIMPI_TRACE_BIN_H
#define SIMPI_TRACE_BIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "replay/trace.h"

#define TBIN_MAGIC "\x89SIMPIB\n" /* 8 bytes: not text, and a changed newline shows */
#define TBIN_VERSION 1
#define TBIN_HEADER 32
#define TBIN_CHUNK_HEADER 12
#define TBIN_INDEX_MAGIC "SPBI"

enum tbin_codec { TBIN_NONE, TBIN_ZSTD, TBIN_GZIP };

/* Whether the first bytes of a file are the binary form's magic. */
bool tbin_is_binary(const char *path);
/* The codec named s ("none", "zstd", "gzip"), or -1. */
int tbin_codec_by_name(const char *s);

/* Writes v as a varint (LEB128) at p; returns the end. */
uint8_t *tbin_uvarint(uint8_t *p, uint64_t v);
/* Encodes r (its rank aside: a chunk says whose records it holds) at p,
 * which has room for tbin_record_bound(r) bytes; returns the end. */
uint8_t *tbin_encode(uint8_t *p, const struct trace_rec *r);
size_t tbin_record_bound(const struct trace_rec *r);

/* Reader side (trace_bin.c), used by trace.c. */
struct tbin_reader;
/* Opens the binary trace at path (mapped), refusing more than max_ranks
 * ranks before allocating for them; *nranks gets its rank count and
 * intern(ctx, name) is called for each interval name, in id order. */
struct tbin_reader *tbin_open(const char *path, int64_t max_ranks, int32_t *nranks,
                              int32_t (*intern)(void *ctx, const char *name), void *ctx,
                              struct sim_error *err);
/* Decodes the next record of rank into r (rank and line set: the line is
 * the record's position in the rank's stream). 1 a record, 0 the end of
 * the rank's records, -1 an error. */
int tbin_next(struct tbin_reader *b, int32_t rank, struct trace_rec *r, struct sim_error *err);
/* trace_warm's for a binary trace: the rank's cursor, then its next bytes. */
void tbin_warm(const struct tbin_reader *b, int32_t rank, int stage);
void tbin_close(struct tbin_reader *b);
/* Bytes of chunk buffers held at the peak (compressed traces), plus the
 * mapped file's size (its pages count in the resident set). */
int64_t tbin_buffer_peak(const struct tbin_reader *b);

/* Writer side (trace_bin_write.c), onto f (a regular file, which it seeks
 * back into at the end); name is for messages. */
struct tbin_writer;
struct tbin_writer *tbin_writer_new(FILE *f, const char *name, int32_t nranks,
                                    enum tbin_codec codec);
bool tbin_writer_put(struct tbin_writer *w, const struct trace_rec *r, struct sim_error *err);
/* Writes the remaining chunks, the interval names and the index, and gives
 * the header the index's offset; frees w (f stays open). */
bool tbin_writer_finish(struct tbin_writer *w, const char *const *names, int32_t nnames,
                        struct sim_error *err);
/* Frees w after an error (f stays open; the caller drops it). */
void tbin_writer_abort(struct tbin_writer *w);

#endif
