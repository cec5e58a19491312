/* SPDX-License-Identifier: BSD-3-Clause */
/* The C library state a process owns, kept per rank as separate processes
 * would have it: the rand()/random() generator, the drand48() family's
 * generator, strtok()'s position, and getopt()'s optind/optarg/opterr/optopt
 * when the program does not reference them (when it does, the linker copies
 * them into the program's data segment and privatization makes them per
 * rank already). These functions replace the C library's for the whole
 * program; each rank's state is allocated on its first use (8 bytes per
 * rank until then). Sequences are those of the C library: a rank that calls
 * srand(s) then rand() gets what a process would.
 *
 * The environment is per rank too (getenv, setenv, putenv, unsetenv): a rank
 * gets its own array on its first call, and its own copy of each string that
 * getenv hands it, so that editing one in place (strtok on a PATH) is seen by
 * that rank alone; environ is the running rank's.
 *
 * What stays shared (docs/online.md): the strings of the environment read
 * through environ directly, the current
 * directory, locale, stdio streams and file descriptors, signal handlers,
 * and the internal position of getopt within a clustered option argument
 * ("-abc") when a rank switches in the middle of parsing one. */
#define _GNU_SOURCE /* random_r, drand48_r, RTLD_NEXT */
#include <dlfcn.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/alloc.h"
#include "online/privatize.h"
#include "online/runtime.h"

struct libc_state {
    struct random_data rnd;
    char rnd_state[128]; /* the C library's default: TYPE_3 */
    struct drand48_data d48;
    char *strtok_next;
    char *optarg;
    int optind, opterr, optopt;
    /* the rank's environment, made on its first getenv or setenv: its own
     * array, whose strings stay the process's until getenv hands one out,
     * then the rank's own copy (listed in owned, to be copied once) */
    char **env;
    bool env_ours; /* env is simpi's array (else one setenv allocated) */
    char **owned;
    size_t nowned;
};

static struct libc_state **per_rank;
static struct libc_state outside; /* before or after the simulation */

static void state_init(struct libc_state *st) {
    memset(st, 0, sizeof *st);
    initstate_r(1, st->rnd_state, sizeof st->rnd_state, &st->rnd);
    st->optind = 1;
    st->opterr = 1;
    st->optopt = '?';
}

static struct libc_state *state(void) {
    struct runtime *rt = simpi_rt;
    static bool outside_ready;
    if (!rt || rt->current < 0 || !rt->ranks) {
        if (!outside_ready) state_init(&outside), outside_ready = true;
        return &outside;
    }
    if (!per_rank) per_rank = xcalloc((size_t)rt->n, sizeof *per_rank);
    struct libc_state **slot = &per_rank[rt->current];
    if (!*slot) {
        *slot = xmalloc(sizeof **slot);
        state_init(*slot);
    }
    return *slot;
}

int rand(void) {
    int32_t v;
    random_r(&state()->rnd, &v);
    return v;
}

long random(void) {
    int32_t v;
    random_r(&state()->rnd, &v);
    return v;
}

void srand(unsigned seed) {
    srandom_r(seed, &state()->rnd);
}

void srandom(unsigned seed) {
    srandom_r(seed, &state()->rnd);
}

double drand48(void) {
    double v;
    drand48_r(&state()->d48, &v);
    return v;
}

long lrand48(void) {
    long v;
    lrand48_r(&state()->d48, &v);
    return v;
}

long mrand48(void) {
    long v;
    mrand48_r(&state()->d48, &v);
    return v;
}

void srand48(long seed) {
    srand48_r(seed, &state()->d48);
}

unsigned short *seed48(unsigned short seed[3]) {
    static unsigned short old[3];
    struct drand48_data *d = &state()->d48;
    memcpy(old, d->__x, sizeof old);
    seed48_r(seed, d);
    return old;
}

void lcong48(unsigned short param[7]) {
    lcong48_r(param, &state()->d48);
}

char *strtok(char *s, const char *delim) {
    return strtok_r(s, delim, &state()->strtok_next);
}

/* getopt and its long forms: when optind & co. are the C library's (not
 * privatized), each rank's values are swapped in around the call. */
typedef int (*getopt_fn)(int, char *const *, const char *, const struct option *, int *);

static int with_rank_options(int (*call)(void *), void *args) {
    if (privatize_covers(&optind)) return call(args);
    struct libc_state *st = state();
    optind = st->optind;
    opterr = st->opterr;
    optopt = st->optopt;
    optarg = st->optarg;
    int r = call(args);
    st->optind = optind;
    st->opterr = opterr;
    st->optopt = optopt;
    st->optarg = optarg;
    return r;
}

struct getopt_args {
    const char *name;
    int argc;
    char *const *argv;
    const char *opts;
    const struct option *longopts;
    int *longindex;
};

static int call_getopt(void *p) {
    struct getopt_args *a = p;
    if (!a->longopts && !strcmp(a->name, "getopt")) {
        int (*real)(int, char *const *, const char *) =
            (int (*)(int, char *const *, const char *))dlsym(RTLD_NEXT, "getopt");
        return real ? real(a->argc, a->argv, a->opts) : -1;
    }
    getopt_fn real = (getopt_fn)dlsym(RTLD_NEXT, a->name);
    return real ? real(a->argc, a->argv, a->opts, a->longopts, a->longindex) : -1;
}

int getopt(int argc, char *const argv[], const char *opts) {
    struct getopt_args a = {"getopt", argc, argv, opts, NULL, NULL};
    return with_rank_options(call_getopt, &a);
}

int getopt_long(int argc, char *const argv[], const char *opts, const struct option *longopts,
                int *longindex) {
    struct getopt_args a = {"getopt_long", argc, argv, opts, longopts, longindex};
    return with_rank_options(call_getopt, &a);
}

int getopt_long_only(int argc, char *const argv[], const char *opts, const struct option *longopts,
                     int *longindex) {
    struct getopt_args a = {"getopt_long_only", argc, argv, opts, longopts, longindex};
    return with_rank_options(call_getopt, &a);
}

/* --- the environment, per rank --- */

extern char **environ;
static char **process_environ; /* outside the ranks */

/* The rank's environment array, made from the process's on first use. */
static struct libc_state *rank_env(void) {
    struct libc_state *st = state();
    if (st == &outside || st->env) return st;
    size_t n = 0;
    while (environ && environ[n])
        n++;
    st->env = xmalloc((n + 1) * sizeof *st->env);
    memcpy(st->env, environ, n * sizeof *st->env);
    st->env[n] = NULL;
    st->env_ours = true;
    environ = st->env;
    return st;
}

void libc_state_enter(int32_t rank) {
    if (!process_environ) process_environ = environ;
    struct libc_state *st = per_rank ? per_rank[rank] : NULL;
    environ = st && st->env ? st->env : process_environ;
}

void libc_state_leave(int32_t rank) {
    struct libc_state *st = per_rank ? per_rank[rank] : NULL;
    if (st && st->env) st->env = environ; /* setenv may have moved the array */
    environ = process_environ;
}

static bool owned_by(const struct libc_state *st, const char *s) {
    for (size_t i = 0; i < st->nowned; i++)
        if (st->owned[i] == s) return true;
    return false;
}

char *getenv(const char *name) {
    struct libc_state *st = rank_env();
    size_t len = strlen(name);
    if (!environ || !len || strchr(name, '=')) return NULL;
    for (char **e = environ; *e; e++) {
        if (strncmp(*e, name, len) || (*e)[len] != '=') continue;
        if (st != &outside && !owned_by(st, *e)) {
            st->owned = xrealloc_or_die(st->owned, (st->nowned + 1) * sizeof *st->owned);
            *e = st->owned[st->nowned++] = xstrdup(*e);
        }
        return *e + len + 1;
    }
    return NULL;
}

char *secure_getenv(const char *name) {
    return getuid() == geteuid() && getgid() == getegid() ? getenv(name) : NULL;
}

/* Calls the C library's function on the rank's array; the array simpi made
 * is freed once the C library has replaced it with its own. */
static void after_env_change(struct libc_state *st, char **before) {
    if (st == &outside || environ == before) return;
    if (st->env_ours) free(before);
    st->env_ours = false;
    st->env = environ;
}

int setenv(const char *name, const char *value, int overwrite) {
    struct libc_state *st = rank_env();
    char **before = environ;
    int (*real)(const char *, const char *, int) =
        (int (*)(const char *, const char *, int))dlsym(RTLD_NEXT, "setenv");
    int rc = real ? real(name, value, overwrite) : -1;
    after_env_change(st, before);
    return rc;
}

int unsetenv(const char *name) {
    struct libc_state *st = rank_env();
    char **before = environ;
    int (*real)(const char *) = (int (*)(const char *))dlsym(RTLD_NEXT, "unsetenv");
    int rc = real ? real(name) : -1;
    after_env_change(st, before);
    return rc;
}

int putenv(char *string) {
    struct libc_state *st = rank_env();
    char **before = environ;
    int (*real)(char *) = (int (*)(char *))dlsym(RTLD_NEXT, "putenv");
    int rc = real ? real(string) : -1;
    after_env_change(st, before);
    return rc;
}
