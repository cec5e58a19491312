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
 * What stays shared (docs/online.md): the environment (setenv), the current
 * directory, locale, stdio streams and file descriptors, signal handlers,
 * and the internal position of getopt within a clustered option argument
 * ("-abc") when a rank switches in the middle of parsing one. */
#define _GNU_SOURCE /* random_r, drand48_r, RTLD_NEXT */
#include <dlfcn.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/pool.h"
#include "online/privatize.h"
#include "online/runtime.h"

struct libc_state {
    struct random_data rnd;
    char rnd_state[128]; /* the C library's default: TYPE_3 */
    struct drand48_data d48;
    char *strtok_next;
    char *optarg;
    int optind, opterr, optopt;
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
