/* libFuzzer target: the platform reader (YAML -> tree -> platform ->
 * network models) must reject or accept any input without crashing. */
#include <stdint.h>
#include <stdlib.h>

#include "net/network.h"
#include "platform/platform.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

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
            }
            network_destroy(&n);
        }
        platform_free(p);
    }
    return 0;
}
