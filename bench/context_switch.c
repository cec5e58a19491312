/* SPDX-License-Identifier: BSD-3-Clause */
/* Benchmark: cost of one context switch (rank <-> scheduler), measured over
 * ten million round trips between two contexts. Prints nanoseconds per
 * switch and the implementation in use. */
#include <stdio.h>

#include "core/memstat.h"
#include "online/context.h"

#define ROUNDS 10000000L

static struct ctx main_ctx, other;
static volatile long counter;

static void bouncer(void *arg) {
    (void)arg;
    ctx_entered();
    for (;;) {
        counter++;
        ctx_switch(&other, &main_ctx);
    }
}

int main(void) {
    struct stacks st;
    if (!stacks_alloc(&st, 1, 64 * 1024, true)) return 1;
    ctx_init(&other, stacks_at(&st, 0), st.size, bouncer, NULL);
    ctx_switch(&main_ctx, &other); /* warm up */
    double t0 = memstat_wall_seconds();
    for (long i = 0; i < ROUNDS; i++)
        ctx_switch(&main_ctx, &other);
    double t = memstat_wall_seconds() - t0;
    printf("context switch (%s): %.1f ns per switch (%ld round trips in %.3f s)\n",
           ctx_implementation(), t * 1e9 / (2.0 * ROUNDS), ROUNDS, t);
    stacks_free(&st);
    return counter == ROUNDS + 1 ? 0 : 1;
}
