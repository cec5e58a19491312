/* SPDX-License-Identifier: BSD-3-Clause */
/* A SimGrid zone of <host>, <router>, <link> and <route> elements as a
 * simpi graph topology (docs/interop.md, docs/network.md). Full routing
 * stays full; Floyd, Dijkstra and DijkstraCache, whose routes are edges
 * searched for the fewest hops, become routing: shortest. SHARED links are
 * shared (flow contention, as SimGrid's model), SPLITDUPLEX links become
 * two links NAME_UP and NAME_DOWN (a symmetrical route uses the other one
 * on its way back), FATPIPE links are fat pipes (then without contention,
 * which simpi's flow model cannot give them). Routes between zones, host
 * links and other zones are refused with their line. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/alloc.h"
#include "platform/import_internal.h"

struct zhost {
    const char *id, *speed, *core;
    int line;
};

struct zlink {
    const char *id, *bw, *lat;
    bool split, fatpipe;
    int line;
};

struct zctn {
    const char *id, *dir;
    int line;
};

struct zroute {
    const char *src, *dst;
    bool symmetrical;
    int first, n, line; /* its link_ctn */
};

struct zone {
    struct zhost *hosts, *routers;
    struct zlink *links;
    struct zctn *ctns;
    struct zroute *routes;
    int nhosts, nrouters, nlinks, nctns, nroutes;
    int cap_hosts, cap_routers, cap_links, cap_ctns, cap_routes;
    const char *routing;
    int routing_line;
};

/* Room for one more item of a growing array. */
static void *grow(void *a, int n, int *cap, size_t size) {
    if (n < *cap) return a;
    *cap = *cap ? 2 * *cap : 16;
    return xrealloc_or_die(a, size * (size_t)*cap);
}

#define PUSH(arr, n, cap) (arr = grow(arr, n, &cap, sizeof *arr), &arr[n++])

static bool zone_link(struct scanner *s, const struct tag *t, struct zone *z) {
    const char *id = attr(t, "id"), *bw = attr(t, "bandwidth"), *sh = attr(t, "sharing_policy");
    if (!id || !bw) return xfail(s, t->line, "<link>: id and bandwidth are required");
    if (sh && strcmp(sh, "SHARED") && strcmp(sh, "SPLITDUPLEX") && strcmp(sh, "FATPIPE"))
        return xfail(s, t->line,
                     "<link id=\"%s\">: sharing_policy \"%s\": simpi imports SHARED, "
                     "SPLITDUPLEX and FATPIPE",
                     id, sh);
    struct zlink *l = PUSH(z->links, z->nlinks, z->cap_links);
    *l = (struct zlink){id,
                        bw,
                        attr(t, "latency"),
                        sh && !strcmp(sh, "SPLITDUPLEX"),
                        sh && !strcmp(sh, "FATPIPE"),
                        t->line};
    return true;
}

static bool zone_route(struct scanner *s, const struct tag *t, struct zone *z) {
    const char *src = attr(t, "src"), *dst = attr(t, "dst"), *sym = attr(t, "symmetrical");
    if (!src || !dst) return xfail(s, t->line, "<route>: src and dst are required");
    if (t->empty)
        return xfail(s, t->line, "<route src=\"%s\" dst=\"%s\">: no <link_ctn>", src, dst);
    struct zroute *r = PUSH(z->routes, z->nroutes, z->cap_routes);
    *r = (struct zroute){src, dst, !sym || !strcasecmp(sym, "yes"), z->nctns, 0, t->line};
    return true;
}

/* One element of the zone; false on error. in_route: the route whose
 * <link_ctn> come, or -1. */
static bool zone_tag(struct scanner *s, const struct tag *t, struct zone *z, int *in_route) {
    const char *n = t->name;
    if (!simgrid_check_attrs(s, t)) return false;
    if (!strcmp(n, "zone") || !strcmp(n, "AS")) {
        if (z->routing)
            return xfail(s, t->line,
                         "a zone inside a zone: simpi imports one zone of hosts (routes between "
                         "zones are not imported)");
        z->routing = attr(t, "routing") ? attr(t, "routing") : "Full";
        z->routing_line = t->line;
    } else if (!strcmp(n, "host")) {
        const char *id = attr(t, "id");
        if (!id) return xfail(s, t->line, "<host>: id is required");
        *PUSH(z->hosts, z->nhosts, z->cap_hosts) =
            (struct zhost){id, attr(t, "speed"), attr(t, "core"), t->line};
    } else if (!strcmp(n, "router")) {
        if (!attr(t, "id")) return xfail(s, t->line, "<router>: id is required");
        *PUSH(z->routers, z->nrouters, z->cap_routers) =
            (struct zhost){attr(t, "id"), NULL, NULL, t->line};
    } else if (!strcmp(n, "link")) {
        return zone_link(s, t, z);
    } else if (!strcmp(n, "route")) {
        if (!zone_route(s, t, z)) return false;
        *in_route = z->nroutes - 1;
    } else if (!strcmp(n, "/route")) {
        *in_route = -1;
    } else if (!strcmp(n, "link_ctn")) {
        if (*in_route < 0 || !attr(t, "id"))
            return xfail(s, t->line, "<link_ctn id=...> belongs in a <route>");
        *PUSH(z->ctns, z->nctns, z->cap_ctns) =
            (struct zctn){attr(t, "id"), attr(t, "direction"), t->line};
        z->routes[*in_route].n++;
    } else if (!strcmp(n, "cluster") || !strcmp(n, "zoneRoute") || !strcmp(n, "ASroute") ||
               !strcmp(n, "bypassRoute") || !strcmp(n, "bypassZoneRoute") ||
               !strcmp(n, "bypassASroute") || !strcmp(n, "host_link") || !strcmp(n, "backbone") ||
               !strcmp(n, "cabinet") || !strcmp(n, "peer")) {
        return xfail(s, t->line,
                     "<%s>: simpi imports one zone of hosts, routers, links and routes, or one "
                     "<cluster>; describe this platform in simpi's YAML (docs/network.md, "
                     "topology: graph)",
                     n);
    }
    return true;
}

static const struct zlink *find_link(const struct zone *z, const char *id) {
    for (int i = 0; i < z->nlinks; i++)
        if (!strcmp(z->links[i].id, id)) return &z->links[i];
    return NULL;
}

/* A name as a YAML double-quoted scalar. */
static void yaml_name(FILE *y, const char *name, const char *suffix) {
    fputc('"', y);
    for (const unsigned char *p = (const unsigned char *)name; *p; p++)
        if (*p == '"' || *p == '\\')
            fprintf(y, "\\%c", *p);
        else
            fputc(*p < 0x20 ? '?' : *p, y);
    fprintf(y, "%s\"", suffix);
}

/* Every host alike (simpi's platforms have one kind of node). */
static bool zone_hosts_alike(struct scanner *s, const struct zone *z) {
    const struct zhost *h0 = &z->hosts[0];
    for (int i = 1; i < z->nhosts; i++) {
        const struct zhost *h = &z->hosts[i];
        if (strcmp(h->speed ? h->speed : "", h0->speed ? h0->speed : "") ||
            strcmp(h->core ? h->core : "1", h0->core ? h0->core : "1"))
            return xfail(s, h->line,
                         "<host id=\"%s\"> differs from \"%s\" in speed or cores: simpi's "
                         "platforms have one kind of node",
                         h->id, h0->id);
    }
    return true;
}

static void yaml_names(FILE *y, const char *key, const struct zhost *v, int n) {
    fprintf(y, "  %s: [", key);
    for (int i = 0; i < n; i++) {
        if (i) fprintf(y, ", ");
        yaml_name(y, v[i].id, "");
    }
    fprintf(y, "]\n");
}

static void yaml_links(FILE *y, const struct zone *z) {
    fprintf(y, "  links:\n");
    for (int i = 0; i < z->nlinks; i++) {
        const struct zlink *l = &z->links[i];
        char bw[64], lat[64];
        simgrid_value(l->bw, bw, sizeof bw, true);
        simgrid_value(l->lat ? l->lat : "0", lat, sizeof lat, false);
        for (int k = 0; k < (l->split ? 2 : 1); k++) {
            fprintf(y, "    ");
            yaml_name(y, l->id, l->split ? (k ? "_DOWN" : "_UP") : "");
            fprintf(y, ": {latency: %s, bandwidth: %s%s}\n", lat, bw,
                    l->fatpipe ? ", sharing: fatpipe" : "");
        }
    }
}

/* One route's links, forwards or (its way back) backwards with UP and
 * DOWN swapped. */
static bool yaml_route_links(struct scanner *s, FILE *y, const struct zone *z,
                             const struct zroute *r, bool back) {
    fprintf(y, ", links: [");
    for (int k = 0; k < r->n; k++) {
        const struct zctn *c = &z->ctns[r->first + (back ? r->n - 1 - k : k)];
        const struct zlink *l = find_link(z, c->id);
        if (!l) return xfail(s, c->line, "<link_ctn id=\"%s\">: no such <link>", c->id);
        bool up = c->dir && !strcmp(c->dir, "UP"), down = c->dir && !strcmp(c->dir, "DOWN");
        if (l->split && !up && !down)
            return xfail(s, c->line,
                         "<link_ctn id=\"%s\">: the link is SPLITDUPLEX: direction UP or DOWN",
                         c->id);
        if (k) fprintf(y, ", ");
        yaml_name(y, l->id, !l->split ? "" : up != back ? "_UP" : "_DOWN");
    }
    fprintf(y, "]");
    return true;
}

static bool yaml_routes(struct scanner *s, FILE *y, const struct zone *z) {
    fprintf(y, "  routes:\n");
    for (int i = 0; i < z->nroutes; i++) {
        const struct zroute *r = &z->routes[i];
        bool split = false;
        for (int k = 0; k < r->n; k++) {
            const struct zlink *l = find_link(z, z->ctns[r->first + k].id);
            split |= l && l->split;
        }
        for (int back = 0; back < (split && r->symmetrical ? 2 : 1); back++) {
            fprintf(y, "    - {from: ");
            yaml_name(y, back ? r->dst : r->src, "");
            fprintf(y, ", to: ");
            yaml_name(y, back ? r->src : r->dst, "");
            if (!yaml_route_links(s, y, z, r, back)) return false;
            fprintf(y, "%s}\n", !r->symmetrical || split ? ", symmetrical: false" : "");
        }
    }
    return true;
}

static bool zone_yaml(struct scanner *s, const struct zone *z, FILE *y) {
    if (!z->nhosts) return xfail(s, 1, "no <host> and no <cluster> in this SimGrid platform");
    const char *routing = z->routing ? z->routing : "Full";
    bool full = !strcmp(routing, "Full");
    if (!full && strcmp(routing, "Floyd") && strcmp(routing, "Dijkstra") &&
        strcmp(routing, "DijkstraCache"))
        return xfail(s, z->routing_line,
                     "routing=\"%s\": simpi imports zones with Full, Floyd, Dijkstra or "
                     "DijkstraCache routing",
                     routing);
    if (!zone_hosts_alike(s, z)) return false;
    bool fatpipe = false, all_fatpipe = z->nlinks > 0;
    for (int i = 0; i < z->nlinks; i++) {
        fatpipe |= z->links[i].fatpipe;
        all_fatpipe &= z->links[i].fatpipe;
    }
    const struct zhost *h = &z->hosts[0];
    fprintf(y, "# imported from %s, a SimGrid zone of %d hosts (routing %s)\n", s->path, z->nhosts,
            routing);
    fprintf(y, "nodes: %d\ncores_per_node: %s\n", z->nhosts, h->core ? h->core : "1");
    if (h->speed) {
        char sp[64];
        snprintf(sp, sizeof sp, "%.*s", (int)strcspn(h->speed, ","), h->speed); /* first pstate */
        fprintf(y, "speed: %s%s\n", sp, strspn(sp, "0123456789.eE+-") == strlen(sp) ? "f" : "");
    }
    fprintf(y, "network:\n  topology: graph\n  routing: %s\n", full ? "full" : "shortest");
    yaml_names(y, "hosts", z->hosts, z->nhosts);
    if (z->nrouters) yaml_names(y, "routers", z->routers, z->nrouters);
    yaml_links(y, z);
    if (!yaml_routes(s, y, z)) return false;
    if (all_fatpipe)
        fprintf(y, "  # FATPIPE links only: no contention, each message has the links' whole\n"
                   "  # bandwidth\n  interfaces: unlimited\n");
    else if (fatpipe)
        fprintf(y, "  # FATPIPE links: no contention (simpi's flow model shares every link);\n"
                   "  # each node's interface carries one message after another\n");
    else
        fprintf(y, "  contention: flow\n");
    return true;
}

bool import_zone(struct scanner *s, FILE *y) {
    struct zone z = {0};
    struct tag t;
    int got = 0, in_route = -1;
    bool ok = true;
    while (ok && (got = next_tag(s, &t)) > 0)
        ok = zone_tag(s, &t, &z, &in_route);
    ok = ok && got == 0 && zone_yaml(s, &z, y);
    free(z.hosts);
    free(z.routers);
    free(z.links);
    free(z.ctns);
    free(z.routes);
    return ok;
}
