/* SPDX-License-Identifier: BSD-3-Clause */
/* Writing names that come from traces and programs (interval names, paths,
 * arguments) into structured files without letting them break out: JSON
 * strings safe to embed in HTML, and single-line plain text. */
#ifndef SIMPI_ESCAPE_H
#define SIMPI_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* s as a quoted JSON string: quotes, backslashes and control characters
 * escaped, '<', '>' and '&' as \u escapes (so that the JSON may sit inside
 * an HTML <script>), invalid UTF-8 bytes as U+FFFD. */
void escape_json(FILE *f, const char *s);
/* s on one line of at most cap - 1 bytes: control characters (newlines
 * included) and invalid UTF-8 bytes become '?'. */
void escape_line(char *out, size_t cap, const char *s);

#endif
