/* SPDX-License-Identifier: BSD-3-Clause */
/* Error values passed up from parsers and models: one message naming the file,
 * line, field, what was found and what was expected (DESIGN 4.7). */
#ifndef SIMPI_ERROR_H
#define SIMPI_ERROR_H

#include <stdarg.h>
#include <stdbool.h>

struct sim_error {
    bool set;
    char msg[1024];
};

/* Records the first error only; later calls keep the first message. Returns false
 * so that callers can write `return err_set(err, ...)`. */
bool err_set(struct sim_error *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Same with a "file:line: " prefix (line 0 omits the line). */
bool err_at(struct sim_error *err, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* err_at with a va_list, for callers' own variadic helpers. */
bool err_vat(struct sim_error *err, const char *file, int line, const char *fmt, va_list ap);

/* Prints "simpi: error: MSG" to stderr. */
void err_print(const struct sim_error *err);

/* Stops simpi itself (out of memory...): prints "simpi: error: MSG" and
 * ends the process with status 1 by the exit_group system call, so that
 * the on-line runtime's exit() and _exit() of a simulated rank are never
 * involved. */
_Noreturn void err_fatal(const char *msg);
/* Ends the process with status by the exit_group system call made
 * directly: in a program built with simpicc, _exit() and syscall() are the
 * on-line runtime's (they end one simulated rank), which core never
 * calls. No atexit handler runs, no stdio buffer is flushed. */
_Noreturn void err_exit_process(int status);

/* Levenshtein distance, for "did you mean" suggestions. */
int err_edit_distance(const char *a, const char *b);

#endif
