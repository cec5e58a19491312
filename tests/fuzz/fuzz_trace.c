/* SPDX-License-Identifier: BSD-3-Clause */
/* libFuzzer target: the trace reader and the replay of what it accepts. The
 * input is written to a temporary file, opened as a trace, and, when it has
 * few ranks, replayed on the built-in platform; a deadlock or application
 * error is a fine outcome, a crash or sanitizer report is not. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "net/network.h"
#include "platform/platform.h"
#include "replay/replay.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void replay_small(struct trace_reader *t) {
    struct sim_error err = {0};
    struct platform *p = platform_load(NULL, NULL, 0, &err);
    struct network n;
    if (!p || !network_init(&n, p, &err)) abort();
    struct replay_result res;
    if (replay_run(t, p, &n, &res, &err) || res.sim) replay_result_free(&res);
    network_destroy(&n);
    platform_free(p);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char path[] = "/tmp/simpi-fuzz-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0) return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    struct sim_error err = {0};
    trace_set_max_ranks(4096); /* keep within the fuzzer's memory limit */
    struct trace_reader *t = trace_open(path, &err);
    if (t && trace_ranks(t) <= 16) replay_small(t);
    trace_close(t);
    unlink(path);
    return 0;
}
