/* SPDX-License-Identifier: BSD-3-Clause */
/* Output files that are never half-written or stale: the content goes to a
 * temporary file beside the destination, every write is checked, and the
 * temporary replaces the destination atomically (rename) only when all of
 * it was written. "-" means standard output. A link is followed (as
 * open() would, with the kernel's rule for links in shared sticky folders)
 * and kept: the file it names is replaced. A device, a FIFO, or a name of
 * a descriptor (/dev/stdout, /proc/self/fd/N, /dev/fd/N, or a link to one)
 * is written in place, a descriptor at its own offset. */
#ifndef SIMPI_OUTFILE_H
#define SIMPI_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "core/error.h"

struct outfile {
    FILE *f;
    char *path;    /* destination */
    char *tmp;     /* temporary beside it (beside a link's target); NULL when written in place */
    bool in_place; /* a device, a pipe or a descriptor (/dev/stdout), written directly */
};

/* Opens path for writing (through a temporary). On failure, err names the
 * path and the reason (an unwritable folder, a path that is a folder...). */
bool outfile_open(struct outfile *o, const char *path, struct sim_error *err);
/* Flushes and checks every write, then renames the temporary over the
 * destination. On failure (a full disk...), the destination is untouched
 * and err says why. Frees o either way. */
bool outfile_commit(struct outfile *o, struct sim_error *err);
/* Whether path can be written, found before a run rather than after it:
 * opened as outfile_open would, then dropped. A pipe or device is not
 * opened (that would wait for a reader) and counts as writable; NULL too. */
bool outfile_writable(const char *path, struct sim_error *err);
/* Drops what was written; the destination is untouched. */
void outfile_discard(struct outfile *o);
/* Removes every temporary still being written (async-signal-safe): for a
 * handler about to end the process, so that no *.tmp.* file is left. */
void outfile_remove_pending(void);
/* A temporary folder of rank files (rank<R>.trace) that
 * outfile_remove_pending removes too, until forgotten. dir must live as
 * long as it is noted. */
void outfile_note_temp_dir(char *dir);
void outfile_forget_temp_dir(const char *dir);

#endif
