/* Network construction from the platform tree. */
#include "net/network.h"

#include <string.h>

bool network_init(struct network *n, const struct conf_node *root, struct sim_error *err) {
    memset(n, 0, sizeof *n);
    const struct conf_node *intra = conf_map_get(root, "intra");
    const struct conf_node *inter = conf_map_get(root, "inter");
    if (!intra || !inter) return err_set(err, "platform lacks intra: or inter:");
    if (!p2p_model_init(&n->intra, intra, "intra", err) ||
        !p2p_model_init(&n->inter, inter, "inter", err)) {
        network_destroy(n);
        return false;
    }
    n->intra_zero = p2p_model_cost(&n->intra, 0);
    n->inter_zero = p2p_model_cost(&n->inter, 0);
    return true;
}

void network_destroy(struct network *n) {
    p2p_model_destroy(&n->intra);
    p2p_model_destroy(&n->inter);
}
