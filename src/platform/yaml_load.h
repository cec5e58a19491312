/* SPDX-License-Identifier: BSD-3-Clause */
/* Loads a YAML document into a configuration tree (libyaml), keeping line
 * numbers for error messages. */
#ifndef SIMPI_YAML_LOAD_H
#define SIMPI_YAML_LOAD_H

#include <stddef.h>

#include "core/conf.h"

/* Parses text (len bytes) that came from file `name`. Returns NULL with err set
 * on a syntax error, an empty document, or a top level that is not a map. */
struct conf_node *yaml_load_buffer(const char *text, size_t len, const char *name,
                                   struct sim_error *err);

#endif
