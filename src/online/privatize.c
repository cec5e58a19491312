/* --privatize: every rank gets its own copy of the program's writable
 * globals (found by globals_scan). The copies are swapped in and out around
 * each switch to a rank, so the cost per switch is proportional to the size
 * of the globals; data that simpi writes for a rank that is not running (a
 * message delivered into a global array, a collective's output) goes to that
 * rank's copy through sim_address_hook. */
#include "online/privatize.h"

#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "mpi/sim.h"
#include "online/globals.h"

static struct global_range *ranges;
static int nranges;
static size_t total;
static char *copies; /* nranks x total bytes */
static int32_t loaded = -1, nranks;

static void *translate(int32_t owner, void *addr) {
    if (owner == loaded || owner < 0 || owner >= nranks) return addr;
    size_t off = 0;
    for (int i = 0; i < nranges; i++) {
        char *a = addr;
        if (a >= ranges[i].addr && a < ranges[i].addr + ranges[i].len)
            return copies + (size_t)owner * total + off + (size_t)(a - ranges[i].addr);
        off += ranges[i].len;
    }
    return addr;
}

int64_t privatize_init(int32_t n) {
    globals_scan(&ranges, &nranges);
    total = 0;
    for (int i = 0; i < nranges; i++)
        total += ranges[i].len;
    nranks = n;
    if (total == 0) return 0;
    copies = xmalloc(total * (size_t)n);
    for (int32_t r = 0; r < n; r++) { /* everyone starts from the initial values */
        size_t off = 0;
        for (int i = 0; i < nranges; i++) {
            memcpy(copies + (size_t)r * total + off, ranges[i].addr, ranges[i].len);
            off += ranges[i].len;
        }
    }
    sim_address_hook = translate;
    return (int64_t)total;
}

void privatize_load(int32_t rank) {
    if (!copies) return;
    size_t off = 0;
    for (int i = 0; i < nranges; i++) {
        memcpy(ranges[i].addr, copies + (size_t)rank * total + off, ranges[i].len);
        off += ranges[i].len;
    }
    loaded = rank;
}

void privatize_save(int32_t rank) {
    if (!copies) return;
    size_t off = 0;
    for (int i = 0; i < nranges; i++) {
        memcpy(copies + (size_t)rank * total + off, ranges[i].addr, ranges[i].len);
        off += ranges[i].len;
    }
    loaded = -1;
}

void privatize_end(void) {
    free(copies);
    free(ranges);
    copies = NULL;
    ranges = NULL;
    sim_address_hook = NULL;
}
