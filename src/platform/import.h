/* SPDX-License-Identifier: BSD-3-Clause */
/* Platforms of other tools turned into simpi's YAML (import.c). */
#ifndef SIMPI_IMPORT_H
#define SIMPI_IMPORT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/error.h"

/* If path is a SimGrid platform XML file or a Dimemas configuration
 * ("SDDFA"): *imported is set and the
 * equivalent YAML text is returned (malloc'd), or NULL with err set when it
 * cannot be imported. Otherwise NULL with *imported false (not foreign). */
char *platform_import(const char *path, bool *imported, struct sim_error *err);
/* The same for len bytes of text read from file `name`. */
char *platform_import_text(const char *text, size_t len, const char *name, bool *imported,
                           struct sim_error *err);

#endif
