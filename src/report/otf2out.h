/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing OTF2 archives as Score-P lays out MPI traces (shared by `simpi
 * convert --to otf2` and the --otf2 timeline): one location group "MPI
 * Rank R" per rank with its "Master thread" location R, the MPI
 * COMM_LOCATIONS group (0), MPI_COMM_WORLD (comm 0 over group 1) and
 * MPI_COMM_SELF (comm 1 over group 2), picosecond ticks. */
#ifndef SIMPI_OTF2OUT_H
#define SIMPI_OTF2OUT_H

#include <otf2/otf2.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/error.h"

#define OTF2OUT_TICKS_PER_SECOND 1000000000000ull /* picoseconds, as simpi's clock */

/* Whether dir can take a new archive, found before a run as the other
 * outputs are (outfile_writable): it must not exist (nor be a link, even
 * to nothing), and its folder must let it be made. NULL: true. */
bool otf2out_writable(const char *dir, struct sim_error *err);
/* A new archive in the new folder dir (dir/traces.otf2), its event files
 * open; NULL with err set. */
OTF2_Archive *otf2out_open(const char *dir, const char *creator, struct sim_error *err);
/* The global definitions every archive has, the clock's length given;
 * *next_string gets the first string reference left free. */
OTF2_GlobalDefWriter *otf2out_defs(OTF2_Archive *a, int32_t nranks, uint64_t length,
                                   uint32_t *next_string);
/* Empty local definitions, as Score-P's tools expect, and the archive
 * closed; a failed one (ok false, or any error of the OTF2 library while
 * it was written: a full disk...) removed with its folder. */
bool otf2out_finish(OTF2_Archive *a, const char *dir, int32_t nranks, bool ok,
                    struct sim_error *err);

#endif
