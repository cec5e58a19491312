/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the --jobs file reader and the placement of the jobs it
 * describes (docs/jobs.md) must reject or accept any input without
 * crashing. Each job gets a few ranks on the built-in platform of 16 nodes
 * in groups of 4. */
#include <stdint.h>
#include <stdlib.h>

#include "platform/platform.h"
#include "replay/jobs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct sim_error err = {0};
    struct job_set js;
    if (!jobs_load_buffer(&js, (const char *)data, size, "fuzz/jobs.yaml", &err)) return 0;
    static const char *const sets[] = {"nodes=16", "cores_per_node=2"};
    struct platform *p = platform_load(NULL, sets, 2, &err);
    if (p) {
        int64_t *ranks = calloc((size_t)js.n + 1, sizeof *ranks);
        for (int32_t j = 0; j < js.n; j++)
            ranks[j] = 1 + j % 5;
        free(jobs_place(&js, ranks, p, 4, &err));
        free(ranks);
        platform_free(p);
    }
    jobs_free(&js);
    return 0;
}
