/* flow contention: placeholder until the max-min model lands. */
#include "net/contention_internal.h"

static bool flow_create(struct contention *c, struct sim_error *err) {
    (void)c;
    return err_set(err, "network.contention: flow is not implemented yet");
}

static void flow_destroy(struct contention *c) {
    (void)c;
}

const struct contention_ops contention_flow = {"flow", flow_create, NULL, NULL, NULL, flow_destroy};
