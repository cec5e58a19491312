/* SPDX-License-Identifier: BSD-3-Clause */
/* A folder of per-rank trace files (DIR/rank<R>.trace) written safely, for
 * `simpi run --trace-out DIR` and the translation of Dimemas traces. The
 * files are written into a private staging folder inside DIR (mkdtemp: mode
 * 0700, owned by this user), never through a name someone else can plant;
 * at the end they replace DIR's rank files by rename under a lock, so that
 * DIR holds one run's complete set, never two runs' files interleaved. A
 * folder that is a link owned by another user, or a folder another user
 * owns, is refused. */
#ifndef SIMPI_RANKDIR_H
#define SIMPI_RANKDIR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

struct rankdir {
    char *dir;   /* destination, as given */
    char *stage; /* DIR/.simpi-stage.XXXXXX: where the rank files are written */
};

/* Creates DIR when absent (mode 0777 less the umask) and the staging folder
 * inside it. what names the option in messages ("--trace-out"). */
bool rankdir_begin(struct rankdir *d, const char *dir, const char *what, struct sim_error *err);
/* Moves the nranks staged files into DIR (removing DIR's rank files of
 * higher numbers, left by a larger earlier run) and removes the staging
 * folder. Frees d. */
bool rankdir_commit(struct rankdir *d, int32_t nranks, struct sim_error *err);
/* Removes the staging folder and what it holds; DIR is untouched. */
void rankdir_abandon(struct rankdir *d, int32_t nranks);
/* Whether path may be written by this user without following a link or a
 * folder that another user controls: false with err set otherwise. */
bool rankdir_check_owner(const char *path, const char *what, struct sim_error *err);

#endif
