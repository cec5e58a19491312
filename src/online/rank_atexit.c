/* SPDX-License-Identifier: BSD-3-Clause */
/* Each rank's exit handlers, run when the rank ends, as a process runs its
 * own at exit. A C++ function-local static object (`static std::map m;`
 * in a function, or a static in main) is constructed the first time a
 * rank passes its definition, and its destructor is registered then with
 * __cxa_atexit (atexit() calls it too). Every rank passes it, with its own
 * guard variable, so the process would destroy the object once per rank
 * at its own exit: in one image of the program, at one address (a double
 * free). Registrations made while a rank runs are therefore that rank's:
 * they run in reverse order, on the rank's own globals, when its main
 * returns or it calls exit(). Registrations made outside ranks (the
 * program's and its libraries' constructors, simpi's own) go to the C
 * library as usual. */
#define _GNU_SOURCE
#include "online/rank_atexit.h"

#include <dlfcn.h>
#include <stdlib.h>

#include "core/alloc.h"
#include "online/runtime.h"

struct handler {
    void (*fn)(void *);
    void *arg;
};

struct rank_handlers {
    struct handler *list;
    size_t n, cap;
};

static struct rank_handlers *ranks; /* one per rank, made at the first registration */
static int32_t nranks;

typedef int (*cxa_atexit_fn)(void (*)(void *), void *, void *);

/* The rank a registration belongs to, or -1 (the C library's). */
static int32_t registering_rank(void) {
    struct runtime *rt = simpi_rt;
    if (!rt || rt->in_mpi || !runtime_in_rank() || !runtime_on_main_thread()) return -1;
    return rt->current;
}

int __cxa_atexit(void (*fn)(void *), void *arg, void *dso) {
    int32_t r = registering_rank();
    if (r < 0) {
        static cxa_atexit_fn real;
        if (!real) real = (cxa_atexit_fn)dlsym(RTLD_NEXT, "__cxa_atexit");
        return real(fn, arg, dso);
    }
    if (!ranks) {
        nranks = simpi_rt->n;
        ranks = xcalloc((size_t)nranks, sizeof *ranks);
    }
    struct rank_handlers *h = &ranks[r];
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 8;
        h->list = xrealloc_or_die(h->list, h->cap * sizeof *h->list);
    }
    h->list[h->n++] = (struct handler){fn, arg};
    return 0;
}

void rank_atexit_run(int32_t rank) {
    if (!ranks || rank < 0 || rank >= nranks) return;
    struct rank_handlers *h = &ranks[rank];
    while (h->n > 0) { /* (a handler may register another: it runs next) */
        struct handler last = h->list[--h->n];
        last.fn(last.arg);
    }
    free(h->list);
    *h = (struct rank_handlers){0};
}
