/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the platform reader (YAML -> tree -> platform ->
 * network models) must reject or accept any input without crashing. */
#include <stdint.h>
#include <stdlib.h>

#include "net/network.h"
#include "platform/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The faults: read against the topology, then taken in order (a few dozen)
 * with a route after each. */
static void take_faults(struct network *n, const struct platform *p) {
    struct sim_error err = {0};
    if (!network_faults_init(n, p, &err)) return;
    struct fault_event e;
    for (int k = 0; k < 48 && faults_next_time(n->faults) != SIMTIME_NEVER; k++) {
        if (!faults_pop(n->faults, &e)) continue;
        network_faults_changed(n);
        if (p->nodes > 1) (void)network_connected(n, 0, (int32_t)(p->nodes - 1));
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    struct sim_error err = {0};
    struct platform *p = platform_load_buffer((const char *)data, size, "fuzz.yaml", NULL, 0, &err);
    if (p) {
        struct network n;
        if (network_init(&n, p, &err)) {
            if (platform_fit_ranks(p, 64, &err)) {
                for (int r = 0; r < 64; r++)
                    (void)platform_node_of(p, r);
                (void)network_cost(&n, 0, 1, 12345);
                (void)network_cost(&n, 0, 0, 1 << 20);
                take_faults(&n, p);
            }
            network_destroy(&n);
        }
        platform_free(p);
    }
    return 0;
}
