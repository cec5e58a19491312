/* SPDX-License-Identifier: BSD-3-Clause */
/* The options of `simpi run` and `simpi replay`, declared once: each one's
 * spellings, argument, check, the commands that take it, and its help.
 * From this table come both commands' parsers and help (so the man page
 * and bash completion, made from the help), and the one block in which
 * `simpi run` hands its options to the program's runtime (SIMPI_OPTIONS:
 * encoded, versioned by the table's digest, decoded and checked there). */
#ifndef SIMPI_OPTIONS_H
#define SIMPI_OPTIONS_H

#include <stdbool.h>

#include "core/error.h"

/* The commands that take an option; OPT_HANDOVER: never typed, only set
 * by simpi run for its program's runtime (not in any help). */
enum { OPT_RUN = 1, OPT_REPLAY = 2, OPT_HANDOVER = 4 };

/* How a value is checked when it is parsed (cli/options.c). */
enum option_check {
    CHECK_NONE,      /* its reader checks it */
    CHECK_ENUM,      /* one of values */
    CHECK_RANKS,     /* a rank count, 1 to 2^31 - 1 */
    CHECK_REPEATS,   /* a count of runs, 1 to 1000 */
    CHECK_TIME,      /* a time above 0 */
    CHECK_FACTOR,    /* a factor above 0, not 1 */
    CHECK_RANK_LIST, /* 0,4,8-11 */
    CHECK_PROCS,     /* a count of processes, or auto */
    CHECK_SET,       /* KEY=VALUE */
    CHECK_FAULT,     /* a fault: becomes a set */
    CHECK_WITH_FT,   /* ulfm: becomes a set */
    CHECK_IDEAL,     /* network, cpu...: becomes a set */
    CHECK_SEEDS,     /* a count: becomes a set */
};

struct option_decl {
    const char *name;          /* the key: "cpu", "np" */
    const char *spelled;       /* how it is typed, comma-separated: "--procs,-j" */
    const char *arg;           /* its value's name (FILE); NULL: a flag */
    bool optional_value;       /* --privatize or --privatize=MODE */
    bool repeatable;           /* given any number of times, each kept */
    const char *fixed;         /* a flag stored as name=fixed ("0": --no-privatize) */
    const char *stored;        /* stored under this name instead (--no-privatize) */
    const char *const *values; /* CHECK_ENUM's values, NULL-ended */
    enum option_check check;
    unsigned commands;       /* OPT_RUN | OPT_REPLAY | OPT_HANDOVER */
    const char *help;        /* one paragraph, wrapped when printed */
    const char *replay_help; /* replay's, where it differs; NULL: help */
};

/* The table, in the order help lists it; *n its length. */
const struct option_decl *options_table(int *n);
/* The declaration named (its key, or a spelling such as "--cpu"); NULL:
 * none. */
const struct option_decl *options_find(const char *name);

/* A set of options and their values, in the order given. */
struct option_value {
    const struct option_decl *decl;
    char *value; /* "1" for a flag */
};
struct option_set {
    struct option_value *v;
    int n;
};

/* Adds name=value (copied); name must be declared (else an internal
 * error: a typo in simpi). */
void optset_add(struct option_set *s, const char *name, const char *value);
/* Replaces every value of name by value (NULL: removes them). */
void optset_put(struct option_set *s, const char *name, const char *value);
/* The last value of name, or NULL. */
const char *optset_get(const struct option_set *s, const char *name);
/* Every value of name, in order, joined by sep (malloc'd; "" if none). */
char *optset_join(const struct option_set *s, const char *name, char sep);
void optset_copy(struct option_set *to, const struct option_set *from);
void optset_free(struct option_set *s);

/* The set as one printable block (malloc'd): a header with the table's
 * digest, then name=value lines (backslash and newline escaped). */
char *optset_encode(const struct option_set *s);
/* Reads a block written by optset_encode (of this simpi: same table);
 * false with why for a malformed one, another table, an unknown name. */
bool optset_decode(const char *block, struct option_set *s, struct sim_error *err);

/* The environment variable that carries the block to the runtime. */
#define OPTIONS_VARIABLE "SIMPI_OPTIONS"

#endif
