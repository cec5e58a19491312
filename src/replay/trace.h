/* SPDX-License-Identifier: BSD-3-Clause */
/* The native trace format reader (docs/trace-format.md). Streams records:
 * from one file holding all ranks (interleaved; records of ranks not yet
 * needed are queued) or from one file per rank (a directory or an index
 * file). Plain and .gz files are read alike through zlib. */
#ifndef SIMPI_TRACE_H
#define SIMPI_TRACE_H

#include <stdint.h>

#include "core/error.h"
#include "mpi/sim.h"

enum trace_op {
    TOP_COMPUTE,
    TOP_COMPUTE_FLOPS,
    TOP_SEND,  /* blocking send; mode in rec.mode */
    TOP_ISEND, /* non-blocking send; mode in rec.mode */
    TOP_RECV,
    TOP_IRECV,
    TOP_SENDRECV,
    TOP_WAIT,
    TOP_WAITALL,
    TOP_WAITANY,
    TOP_TEST,
    TOP_WAIT_PEER, /* wait for the request with (peer, tag); mode: 1 send, 0 recv */
    TOP_TEST_PEER,
    TOP_BUFFER_ATTACH,
    TOP_BUFFER_DETACH,
    TOP_COLL,  /* blocking collective; kind in rec.coll */
    TOP_ICOLL, /* non-blocking collective */
    TOP_COMM_SPLIT,
    TOP_COMM_DUP,
    TOP_COMM_SELF, /* a communicator of the rank alone, known as newcomm */
    TOP_CANCEL,    /* MPI_Cancel of request ids[0] */
    TOP_FREE,      /* MPI_Request_free of request ids[0] */
    TOP_INTERVAL_BEGIN,
    TOP_INTERVAL_END,
    TOP_FILE_IO,    /* file_io BYTES req=N: a storage request (MPI-IO), completed by a wait */
    TOP_ROUND_TRIP, /* round_trip PEER: a question to peer's node and its answer */
    TOP_RMA,        /* rma_get|rma_put|rma_fetch TARGET SIZE comm=C req=N (mode 0, 1, 2) */
    TOP_RMA_SYNC,   /* rma_lock ... rma_wait: mode the kind (0-6), peer the
                       member, tag 1 for an exclusive lock, ids the from= members */
};

struct trace_rec {
    struct trace_rec *next;
    int64_t size;  /* bytes; compute: picoseconds */
    int64_t size2; /* sendrecv: receive size */
    double flops;  /* TOP_COMPUTE_FLOPS; TOP_COMPUTE: instructions counted (0: none) */
    int32_t rank, peer, peer2, tag, tag2, req, comm, root, color, key, newcomm;
    int32_t nids; /* waitall / waitany ids (0 = all outstanding) */
    int32_t *ids; /* malloc'd when nids > 0; freed by trace_release / trace_rec_clear */
    /* variable-count collectives (mode bit 4): bytes per peer, [0, ncounts)
     * sent and [ncounts, 2 ncounts) received, malloc'd (NULL when the rank
     * holds no counts), freed with ids; mode bit 1: the sent counts are
     * given, bit 2: the received ones */
    int64_t *counts;
    int32_t ncounts;
    int32_t line;
    uint8_t op, mode, coll;
};

struct trace_reader;

/* Caps the rank count a trace may declare (default: what physical memory
 * allows at about 1 KiB per rank); for tests and fuzzing. */
void trace_set_max_ranks(int64_t n);
/* Opens a trace file, directory of per-rank files, or index file. */
struct trace_reader *trace_open(const char *path, struct sim_error *err);
void trace_close(struct trace_reader *t);
int32_t trace_ranks(const struct trace_reader *t);
/* The next record of `rank`, or NULL at the end of its trace or on error
 * (then err is set). Give the record back with trace_release. */
struct trace_rec *trace_next(struct trace_reader *t, int32_t rank, struct sim_error *err);
void trace_release(struct trace_reader *t, struct trace_rec *r);
/* The next record of `rank` written into r, the caller's (the replay's
 * path: a binary trace decodes straight into it, no record is taken from
 * the pool or given back); 1, or 0 at the end of the rank's trace, -1 on
 * error (err set). Free its lists with trace_rec_clear. */
int trace_read(struct trace_reader *t, int32_t rank, struct trace_rec *r, struct sim_error *err);
/* Asks for the memory rank's next records are read from (a replay's
 * engine knows which rank comes next): stage 0 the rank's cursor, stage 1
 * the bytes it points to. Binary and mapped text traces; others ignore it. */
void trace_warm(const struct trace_reader *t, int32_t rank, int stage);
/* Records of ranks that keep(ctx, rank) rejects are read past and dropped
 * (a worker of a split run replays its ranks only); they do not count in
 * trace_records. */
void trace_keep_ranks(struct trace_reader *t, bool (*keep)(void *ctx, int32_t rank), void *ctx);
/* A trace whose next records depend on what completed (a GOAL schedule's
 * operations run as their dependencies allow) asks finished(ctx, rank, id)
 * whether the request id of rank has completed; the replay sets it. */
void trace_set_request_probe(struct trace_reader *t, bool (*finished)(void *, int32_t, int32_t),
                             void *ctx);
/* trace_open for converting the trace: one whose records depend on the
 * replay (a GOAL schedule) cannot be, and is an error saying so. */
struct trace_reader *trace_open_convertible(const char *path, struct sim_error *err);
/* Frees what a parsed record owns (for records not obtained from trace_next). */
void trace_rec_clear(struct trace_rec *r);
/* Peak bytes of the trace held for reading: queued records and lines (the
 * interleaved reader's read-ahead), compressed binary chunks, and the size
 * of a mapped trace file. */
int64_t trace_buffer_peak(const struct trace_reader *t);
uint64_t trace_records(const struct trace_reader *t);
/* The share (0..1) of a plain single-file trace read so far; -1 if unknown. */
double trace_share_read(const struct trace_reader *t);
/* Name of the file a record came from (for error messages). */
const char *trace_file_of(const struct trace_reader *t, int32_t rank);
/* Interval names are interned; the id of a name and back. */
const char *trace_interval_name(const struct trace_reader *t, int32_t id);
int32_t trace_interval_count(const struct trace_reader *t);

/* Parses one record line (no header lines) into rec; exposed for the fuzzer
 * and unit tests. nranks bounds rank fields; t (may be NULL) interns interval
 * names. */
bool trace_parse_line(struct trace_reader *t, char *line, int32_t nranks, struct trace_rec *rec,
                      const char *file, int lineno, struct sim_error *err);

#endif
