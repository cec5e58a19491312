/* SPDX-License-Identifier: BSD-3-Clause */
/* Platforms of other tools (docs/interop.md): a SimGrid platform XML file or
 * a Dimemas configuration (.cfg) is turned into the equivalent simpi YAML
 * text, which the platform loader then reads as if the user had written it
 * (`--platform` accepts them directly; `simpi platform convert` prints the
 * YAML). From SimGrid, a <cluster> (speed, core, bw, lat, bb_bw, bb_lat, and
 * its FLAT, TORUS, FAT_TREE or DRAGONFLY topology); other zones are refused
 * by name. The XML is read by a small scanner of tags and attributes
 * (comments, processing instructions and DOCTYPE skipped). From Dimemas,
 * the environment, node, multi-node and mapping records. Errors name the
 * file and line. */
#include "platform/import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/conf.h"
#include "core/readfile.h"
#include "core/units.h"

#include "platform/import_internal.h"

bool xfail(struct scanner *s, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_vat(s->err, s->path, line, fmt, ap);
    va_end(ap);
    return false;
}

/* Moves past `end` (counting lines); false if it never comes. */
static bool skip_past(struct scanner *s, const char *end) {
    char *q = strstr(s->p, end);
    if (!q) return xfail(s, s->line, "unterminated '%.4s...'", s->p);
    for (; s->p < q + strlen(end); s->p++)
        s->line += *s->p == '\n';
    return true;
}

int next_tag(struct scanner *s, struct tag *t) {
    for (;;) {
        while (*s->p && *s->p != '<')
            s->line += *s->p++ == '\n';
        if (!*s->p) return 0;
        if (!strncmp(s->p, "<!--", 4)) {
            if (!skip_past(s, "-->")) return -1;
        } else if (s->p[1] == '?' || s->p[1] == '!') {
            if (!skip_past(s, ">")) return -1;
        } else {
            break;
        }
    }
    t->line = s->line;
    t->n = 0;
    t->empty = false;
    if (s->p[1] == '/') { /* an end tag: "/name" */
        size_t len = strcspn(s->p + 2, " \t\r\n>");
        snprintf(t->name, sizeof t->name, "/%.*s", (int)len, s->p + 2);
        return skip_past(s, ">") ? 1 : -1;
    }
    s->p++;
    size_t len = strcspn(s->p, " \t\r\n/>");
    snprintf(t->name, sizeof t->name, "%.*s", (int)len, s->p);
    s->p += len;
    for (;;) {
        while (isspace((unsigned char)*s->p))
            s->line += *s->p++ == '\n';
        if (*s->p == '/' || *s->p == '>') {
            t->empty = *s->p == '/';
            if (!skip_past(s, ">")) return -1;
            return 1;
        }
        if (!*s->p) return xfail(s, t->line, "unterminated <%s>", t->name) ? 0 : -1;
        char *key = s->p;
        s->p += strcspn(s->p, "= \t\r\n>");
        char *eq = s->p;
        while (isspace((unsigned char)*s->p))
            s->p++;
        if (*s->p != '=' || (s->p[1] != '"' && s->p[1] != '\''))
            return xfail(s, s->line, "<%s>: expected name=\"value\"", t->name) ? 0 : -1;
        char quote = s->p[1];
        *eq = 0;
        char *val = s->p + 2, *close = strchr(val, quote);
        if (!close) return xfail(s, s->line, "<%s>: unterminated value", t->name) ? 0 : -1;
        *close = 0;
        for (char *c = val; c < close; c++)
            s->line += *c == '\n';
        s->p = close + 1;
        if (t->n < MAX_ATTRS) {
            t->key[t->n] = key;
            t->val[t->n++] = val;
        }
    }
}

const char *attr(const struct tag *t, const char *key) {
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->key[i], key)) return t->val[i];
    return NULL;
}

/* The attributes of SimGrid's elements (simgrid.dtd, platform version 4.1)
 * that simpi imports: those it reads or that only name things, then those
 * SimGrid models and simpi does not (a warning says each is ignored). */
static const char *const cluster_attrs[] = {"id",
                                            "prefix",
                                            "suffix",
                                            "radical",
                                            "speed",
                                            "core",
                                            "bw",
                                            "lat",
                                            "topology",
                                            "topo_parameters",
                                            "router_id",
                                            "loopback_bw",
                                            "loopback_lat",
                                            "bb_bw",
                                            "bb_lat",
                                            "sharing_policy",
                                            "bb_sharing_policy",
                                            "limiter_link",
                                            "availability_file",
                                            "state_file",
                                            NULL};
static const char *const host_attrs[] = {
    "id", "speed", "core", "pstate", "coordinates", "availability_file", "state_file", NULL};
static const char *const link_attrs[] = {
    "id",           "bandwidth",  "latency", "sharing_policy", "bandwidth_file",
    "latency_file", "state_file", NULL};
static const char *const route_attrs[] = {"src", "dst", "gw_src", "gw_dst", "symmetrical", NULL};
static const char *const router_attrs[] = {"id", "coordinates", NULL};
static const char *const zone_attrs[] = {"id", "routing", NULL};
static const char *const ctn_attrs[] = {"id", "direction", NULL};
static const char *const platform_attrs[] = {"version", NULL};
static const char *const ignored_attrs[] = {
    "pstate",     "coordinates",    "limiter_link", "availability_file",
    "state_file", "bandwidth_file", "latency_file", NULL};
static const struct {
    const char *tag;
    const char *const *known;
} element_attrs[] = {
    {"cluster", cluster_attrs}, {"host", host_attrs},     {"link", link_attrs},
    {"route", route_attrs},     {"router", router_attrs}, {"zone", zone_attrs},
    {"AS", zone_attrs},         {"link_ctn", ctn_attrs},  {"platform", platform_attrs}};

static bool listed(const char *name, const char *const *names) {
    for (int i = 0; names[i]; i++)
        if (!strcmp(names[i], name)) return true;
    return false;
}

bool simgrid_check_attrs(struct scanner *s, const struct tag *t) {
    const char *const *known = NULL;
    for (size_t i = 0; i < sizeof element_attrs / sizeof element_attrs[0]; i++)
        if (!strcmp(element_attrs[i].tag, t->name)) known = element_attrs[i].known;
    if (!known) return true;
    for (int i = 0; i < t->n; i++) {
        const char *key = t->key[i];
        if (!listed(key, known)) {
            const char *near = conf_name_closest(key, known);
            char list[512] = "";
            for (int k = 0; known[k]; k++)
                snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", k ? ", " : "",
                         known[k]);
            return xfail(s, t->line, "<%s>: unknown attribute '%s'%s%s%s; SimGrid's <%s> has: %s",
                         t->name, key, near ? " (did you mean '" : "", near ? near : "",
                         near ? "'?)" : "", t->name, list);
        }
        if (listed(key, ignored_attrs) ||
            (!strcmp(key, "sharing_policy") && strcmp(t->val[i], "SPLITDUPLEX") &&
             strcmp(t->name, "link")) ||
            (!strcmp(key, "bb_sharing_policy") && strcmp(t->val[i], "SHARED")))
            fprintf(stderr, "simpi: %s:%d: <%s %s=\"%s\">: not modelled by simpi, ignored\n",
                    s->path, t->line, t->name, key, t->val[i]);
    }
    return true;
}

void simgrid_value(const char *v, char *out, size_t n, bool bandwidth) {
    size_t len = strlen(v);
    if (bandwidth && len > 3 && !strcmp(v + len - 3, "Bps"))
        snprintf(out, n, "%.*sB/s", (int)(len - 3), v);
    else if (bandwidth && len > 3 && !strcmp(v + len - 3, "bps"))
        snprintf(out, n, "%.*sb/s", (int)(len - 3), v);
    else if (bandwidth && strspn(v, "0123456789.eE+-") == len)
        snprintf(out, n, "%sB/s", v); /* a bare number: bytes per second */
    else if (!bandwidth && strspn(v, "0123456789.eE+-") == len)
        snprintf(out, n, "%ss", v); /* a bare number: seconds */
    else
        snprintf(out, n, "%s", v);
}

/* The number of hosts of a radical "0-15" or "0-3,8,10-11" (-1 when
 * malformed, or when numbers or the count pass 2^31 - 1). */
static long radical_count(const char *r) {
    long n = 0;
    for (const char *p = r; *p;) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p || a < 0 || a > INT32_MAX) return -1;
        if (*end == '-') {
            const char *q = end + 1;
            b = strtol(q, &end, 10);
            if (end == q || b < a || b > INT32_MAX) return -1;
        }
        n += b - a + 1;
        if (n > INT32_MAX) return -1;
        if (*end && *end != ',') return -1;
        p = *end ? end + 1 : end;
    }
    return n;
}

/* Splits "a,b,c" into longs; returns the count or -1. */
static int longs(const char *s, long *out, int max) {
    int n = 0;
    for (const char *p = s; *p && n < max;) {
        char *end;
        out[n++] = strtol(p, &end, 10);
        if (end == p || out[n - 1] < 1) return -1;
        if (*end && *end != ',') return -1;
        p = *end ? end + 1 : end;
    }
    return n;
}

static void list_text(char *out, size_t n, const long *v, int k) {
    size_t o = (size_t)snprintf(out, n, "[");
    for (int i = 0; i < k && o < n; i++)
        o += (size_t)snprintf(out + o, n - o, "%s%ld", i ? ", " : "", v[i]);
    if (o < n) snprintf(out + o, n - o, "]");
}

/* The topology's part of the YAML: "network:" keys after topology. */
static bool cluster_topology(struct scanner *s, const struct tag *t, FILE *y, long hosts,
                             const char *bw, const char *lat) {
    const char *topo = attr(t, "topology"), *params = attr(t, "topo_parameters");
    if (!topo || !strcmp(topo, "FLAT")) {
        fprintf(y, "network:\n  topology: star\n  link_latency: %s\n  link_bandwidth: %s\n", lat,
                bw);
        return true;
    }
    long v[4][16];
    int k[4] = {0};
    char parts[4][256] = {{0}};
    int np = 0;
    for (const char *p = params ? params : ""; *p && np < 4; np++) {
        size_t len = strcspn(p, ";");
        snprintf(parts[np], sizeof parts[np], "%.*s", (int)len, p);
        k[np] = longs(parts[np], v[np], 16);
        p += len + (p[len] == ';');
    }
    char a[256], b[256];
    if (!strcmp(topo, "TORUS")) {
        if (np != 1 || k[0] < 1) return xfail(s, t->line, "TORUS: topo_parameters \"X,Y,...\"");
        list_text(a, sizeof a, v[0], k[0]);
        fprintf(y, "network:\n  topology: torus\n  dims: %s\n", a);
    } else if (!strcmp(topo, "FAT_TREE")) {
        if (np != 4 || k[0] != 1 || k[1] != v[0][0] || k[2] != v[0][0] || k[3] != v[0][0])
            return xfail(s, t->line, "FAT_TREE: topo_parameters \"H;M1,..,MH;W1,..,WH;P1,..,PH\"");
        list_text(a, sizeof a, v[1], k[1]);
        list_text(b, sizeof b, v[2], k[2]);
        fprintf(y, "network:\n  topology: fat_tree\n  levels: %ld\n  down: %s\n  up: %s\n", v[0][0],
                a, b);
    } else if (!strcmp(topo, "DRAGONFLY")) {
        /* groups,links between two groups; chassis,links; routers,links; nodes */
        if (np != 4 || k[0] != 2 || k[1] != 2 || k[2] != 2 || k[3] != 1)
            return xfail(s, t->line, "DRAGONFLY: topo_parameters \"G,GL;C,CL;R,RL;N\"");
        long groups = v[0][0], routers = v[1][0] * v[2][0], per_group = (groups - 1) * v[0][1];
        if (per_group % routers)
            return xfail(s, t->line,
                         "DRAGONFLY: %ld global links per group do not spread evenly over its %ld "
                         "routers (simpi's dragonfly gives every router as many)",
                         per_group, routers);
        fprintf(y,
                "network:\n  topology: dragonfly\n  groups: %ld\n  routers: %ld\n"
                "  nodes_per_router: %ld\n  globals: %ld\n",
                groups, routers, v[3][0], per_group / routers);
    } else {
        return xfail(s, t->line, "topology \"%s\": expected FLAT, TORUS, FAT_TREE or DRAGONFLY",
                     topo);
    }
    fprintf(y, "  link_latency: %s\n  link_bandwidth: %s\n", lat, bw);
    (void)hosts;
    return true;
}

/* One <cluster> as the YAML platform. */
static bool import_cluster(struct scanner *s, const struct tag *t, FILE *y) {
    const char *radical = attr(t, "radical"), *speed = attr(t, "speed"), *bw = attr(t, "bw"),
               *lat = attr(t, "lat"), *core = attr(t, "core"), *bb_bw = attr(t, "bb_bw"),
               *bb_lat = attr(t, "bb_lat"), *lo_bw = attr(t, "loopback_bw"),
               *lo_lat = attr(t, "loopback_lat");
    long hosts = radical ? radical_count(radical) : -1;
    if (hosts < 1)
        return xfail(s, t->line,
                     "<cluster>: radical \"0-15\" (the hosts: ranges of numbers up to 2^31 - 1) is "
                     "required");
    if (!bw || !lat) return xfail(s, t->line, "<cluster>: bw and lat are required");
    if (!lo_bw != !lo_lat)
        return xfail(s, t->line, "<cluster>: loopback_bw and loopback_lat go together");
    char bws[64], lats[64], sp[64], bbb[64], bbl[64];
    simgrid_value(bw, bws, sizeof bws, true);
    simgrid_value(lat, lats, sizeof lats, false);
    fprintf(y, "# imported from %s:%d, a SimGrid <cluster id=\"%s\">\n", s->path, t->line,
            attr(t, "id") ? attr(t, "id") : "");
    fprintf(y, "nodes: %ld\ncores_per_node: %s\n", hosts, core ? core : "1");
    if (speed) {
        snprintf(sp, sizeof sp, "%.*s", (int)strcspn(speed, ","), speed); /* first pstate */
        fprintf(y, "speed: %s%s\n", sp, strspn(sp, "0123456789.eE+-") == strlen(sp) ? "f" : "");
    }
    if (lo_bw) { /* a host's loopback link: messages between its own ranks */
        char lb[64], ll[64];
        simgrid_value(lo_bw, lb, sizeof lb, true);
        simgrid_value(lo_lat, ll, sizeof ll, false);
        fprintf(y, "intra:\n  model: affine\n  latency: %s\n  bandwidth: %s\n", ll, lb);
    }
    if (bb_bw) { /* the backbone caps every transfer */
        simgrid_value(bb_bw, bbb, sizeof bbb, true);
        double a, b;
        if (units_parse_bandwidth(bws, &a, NULL) && units_parse_bandwidth(bbb, &b, NULL) && b < a)
            snprintf(bws, sizeof bws, "%s", bbb);
    }
    if (!cluster_topology(s, t, y, hosts, bws, lats)) return false;
    if (bb_lat) {
        simgrid_value(bb_lat, bbl, sizeof bbl, false);
        fprintf(y, "  overhead: %s\n", bbl);
    }
    fprintf(y, "  contention: flow\n");
    return true;
}

/* A <cluster>, or else (the first <host>, <router> or <link> comes before
 * any cluster) a zone of hosts and links, read again from the start of the
 * text (orig, len bytes) by import_zone. */
static bool import_simgrid(struct scanner *s, FILE *y, const char *orig, size_t len) {
    struct tag t;
    int got, clusters = 0;
    while ((got = next_tag(s, &t)) > 0) {
        if (!simgrid_check_attrs(s, &t)) return false;
        if (!strcmp(t.name, "cluster")) {
            if (clusters++) return xfail(s, t.line, "a second <cluster>: simpi imports one");
            if (!import_cluster(s, &t, y)) return false;
        } else if (!strcmp(t.name, "host") || !strcmp(t.name, "link") || !strcmp(t.name, "route") ||
                   !strcmp(t.name, "router")) {
            if (clusters)
                return xfail(s, t.line,
                             "<%s> besides a <cluster>: simpi imports one cluster, or one zone "
                             "of hosts, routers, links and routes",
                             t.name);
            memcpy(s->text, orig, len);
            s->p = s->text;
            s->line = 1;
            return import_zone(s, y);
        }
    }
    if (got < 0) return false;
    return clusters || xfail(s, 1, "no <cluster> in this SimGrid platform");
}

/* Whether the file starts (after blanks) with XML. */
static bool is_xml(const char *text) {
    while (isspace((unsigned char)*text))
        text++;
    return !strncmp(text, "<?xml", 5) || !strncmp(text, "<platform", 9) ||
           !strncmp(text, "<!DOCTYPE platform", 18);
}

/* --- Dimemas configuration files (.cfg, "SDDFA") --- */

/* The fields of a record "NAME" {a, "b", [2] {c, d}};; : top-level values
 * split at commas (strings unquoted, a list kept whole); returns the count. */
static int cfg_fields(char *body, char **f, int max) {
    int n = 0, depth = 0;
    bool quoted = false;
    char *start = body;
    for (char *p = body;; p++) {
        if (*p == '"') quoted = !quoted;
        if (!quoted && *p == '{') depth++;
        if (!quoted && *p == '}') depth--;
        if (*p == 0 || (!quoted && depth == 0 && *p == ',')) {
            bool end = *p == 0;
            *p = 0;
            while (isspace((unsigned char)*start) || *start == '"')
                start++;
            char *e = start + strlen(start);
            while (e > start && (isspace((unsigned char)e[-1]) || e[-1] == '"'))
                *--e = 0;
            if (n < max) f[n++] = start;
            if (end) return n;
            start = p + 1;
        }
    }
}

struct cfg_platform {
    long nodes, cores, buses;
    double net_bw, speed, intra_bw, inter_startup, intra_startup;
    long in_links;
    long intra_buses; /* 0: no limit on a node's simultaneous copies */
    char *mapping;    /* "0,0,1,1..." */
    bool node_seen;
    long tasks_per_node; /* predefined mapping: N TASKS_PER_NODE (0: none) */
    bool interleaved;    /* predefined mapping: INTERLEAVED */
    bool fs_seen;        /* file system parameters */
    double fs_latency, fs_bw;
    long fs_concurrency;
};

static bool cfg_number(struct scanner *s, int line, const char *v, const char *what, double *out) {
    char *end;
    *out = strtod(v, &end);
    if (end == v || *end || !isfinite(*out) || *out < 0)
        return xfail(s, line, "field '%s': found '%s', expected a non-negative number", what, v);
    return true;
}

/* A count (nodes, processors, buses, links): a whole number, at most 2^30. */
static bool cfg_count(struct scanner *s, int line, const char *v, const char *what, long *out) {
    double d;
    if (!cfg_number(s, line, v, what, &d)) return false;
    if (d > 1073741824.0 || d != floor(d))
        return xfail(s, line, "field '%s': found '%s', expected a whole number up to 2^30", what,
                     v);
    *out = (long)d;
    return true;
}

/* "node information" (14, 13 or the old 11 fields) or "multi node
 * information" (14): processors, speed, startups and intra bandwidth. */
static bool cfg_node(struct scanner *s, int line, char **f, int n, bool multi,
                     struct cfg_platform *c) {
    double speed, intra_lat = 0, intra_bw = 0, inter_lat = 0;
    long procs, in_links, intra_buses = 0;
    int o = n == 13 ? -1 : 0; /* the 13-field form has no node id */
    bool ok;
    if (n == 14 || n == 13)
        ok = cfg_count(s, line, f[3 + o], "number_of_processors", &procs) &&
             cfg_number(s, line, f[4 + o], "speed_ratio_instrumented_vs_simulated", &speed) &&
             cfg_number(s, line, f[5 + o], "intra_node_startup", &intra_lat) &&
             cfg_number(s, line, f[6 + o], "intra_node_bandwidth", &intra_bw) &&
             cfg_count(s, line, f[7 + o], "intra_node_buses", &intra_buses) &&
             cfg_number(s, line, f[10 + o], "inter_node_startup", &inter_lat) &&
             cfg_count(s, line, f[11 + o], "inter_node_input_links", &in_links);
    else if (n == 11 && !multi)
        ok = cfg_count(s, line, f[3], "number_of_processors", &procs) &&
             cfg_count(s, line, f[4], "number_of_input_links", &in_links) &&
             cfg_number(s, line, f[6], "startup_on_local_communication", &intra_lat) &&
             cfg_number(s, line, f[7], "startup_on_remote_communication", &inter_lat) &&
             cfg_number(s, line, f[8], "speed_ratio_instrumented_vs_simulated", &speed) &&
             cfg_number(s, line, f[9], "memory_bandwidth", &intra_bw);
    else
        return xfail(s, line, "a %snode information record has %d fields, expected 14, 13 or 11",
                     multi ? "multi " : "", n);
    if (!ok) return false;
    if (c->node_seen && (procs != c->cores || speed != c->speed || inter_lat != c->inter_startup))
        return xfail(s, line,
                     "nodes differ (processors, speed or startup): simpi's platforms "
                     "have one kind of node");
    if (!(procs >= 1) || !(speed > 0))
        return xfail(s, line, "a node needs at least 1 processor and a positive speed ratio");
    c->node_seen = true;
    c->cores = procs;
    c->speed = speed;
    c->intra_startup = intra_lat;
    c->intra_bw = intra_bw;
    c->inter_startup = inter_lat;
    c->in_links = in_links;
    c->intra_buses = intra_buses;
    return true;
}

/* "predefined mapping information" {["TRACE",] "FILL_NODES" | "N TASKS_PER_NODE" |
 * "INTERLEAVED"}. */
static bool cfg_predefined_map(struct scanner *s, int line, char **f, int n,
                               struct cfg_platform *c) {
    if (n != 1 && n != 2)
        return xfail(s, line, "predefined mapping information has %d fields, expected 1 or 2", n);
    const char *map = f[n - 1];
    char *end;
    long per = strtol(map, &end, 10);
    while (*end == ' ')
        end++;
    if (!strcmp(map, "FILL_NODES")) return true; /* simpi's block placement */
    if (!strcmp(map, "INTERLEAVED")) return c->interleaved = true;
    if (end != map && !strcmp(end, "TASKS_PER_NODE") && per >= 1 && per <= 1073741824) {
        c->tasks_per_node = per;
        return true;
    }
    return xfail(s, line,
                 "field 'predefined map identifier': found '%s', expected FILL_NODES, "
                 "N TASKS_PER_NODE or INTERLEAVED",
                 map);
}

/* "file system parameters" {latency, bandwidth MB/s, block size,
 * concurrent requests, hit ratio}: simpi's storage model. */
static bool cfg_fs(struct scanner *s, int line, char **f, int n, struct cfg_platform *c) {
    double block, hit, conc;
    if (n != 5) return xfail(s, line, "file system parameters has %d fields, expected 5", n);
    if (!cfg_number(s, line, f[0], "disk latency", &c->fs_latency) ||
        !cfg_number(s, line, f[1], "disk bandwidth", &c->fs_bw) ||
        !cfg_number(s, line, f[2], "block size", &block) ||
        !cfg_number(s, line, f[3], "concurrent requests", &conc) ||
        !cfg_number(s, line, f[4], "hit ratio", &hit))
        return false;
    if (hit != 1.0 && (c->fs_latency > 0 || c->fs_bw > 0))
        return xfail(s, line,
                     "field 'hit ratio': %s, but simpi's storage has no cache (every request "
                     "costs latency + size / bandwidth); give 1.0",
                     f[4]);
    if (!(conc >= 0 && conc <= 1 << 20) || conc != floor(conc)) /* the storage's own range */
        return xfail(s, line,
                     "field 'concurrent requests': found '%s', expected a whole number from 0 "
                     "to 1048576",
                     f[3]);
    c->fs_concurrency = (long)conc;
    c->fs_seen = c->fs_latency > 0 || c->fs_bw > 0;
    return true;
}

/* Records simpi reads only to check that they change nothing it models. */
static bool cfg_neutral(struct scanner *s, int line, const char *name, char **f, int n) {
    double v;
    if (!strcmp(name, "wide area network information")) {
        if (n != 7)
            return xfail(s, line, "wide area network information has %d fields, expected 7", n);
        if (!cfg_number(s, line, f[1], "number of machines in wan", &v)) return false;
        if (v > 1)
            return xfail(s, line, "%s machines in the wide area network: simpi models one machine",
                         f[1]);
        return true;
    }
    if (!strcmp(name, "dedicated connection information"))
        return xfail(s, line,
                     "dedicated connections join machines of a wide area network: simpi "
                     "models one machine");
    if (!strcmp(name, "modules information")) {
        if (n != 3) return xfail(s, line, "modules information has %d fields, expected 3", n);
        if (!cfg_number(s, line, f[2], "module speed ratio", &v)) return false;
        if (v != 1.0)
            return xfail(s, line,
                         "module %s:%s runs %s times as fast: simpi has no per-module speeds "
                         "(give 1.0, or scale the bursts in the trace)",
                         f[0], f[1], f[2]);
        return true;
    }
    if (!strcmp(name, "configuration files")) {
        static const char *const what[] = {"scheduler definition", "file system definition",
                                           "communications fine tuning", "sensitivity"};
        for (int i = 0; i < n && i < 4; i++)
            if (f[i][0])
                return xfail(s, line,
                             "the %s file '%s': simpi does not read Dimemas' separate "
                             "configuration files (leave it \"\")",
                             what[i], f[i]);
        return true;
    }
    return xfail(s, line,
                 "unknown record \"%s\" (Dimemas 5 reads: environment information, node "
                 "information, multi node information, wide area network information, "
                 "dedicated connection information, mapping information, predefined "
                 "mapping information, configuration files, modules information, file "
                 "system parameters)",
                 name);
}

static bool cfg_record(struct scanner *s, int line, char *name, char *body,
                       struct cfg_platform *c) {
    char *f[64];
    int n = cfg_fields(body, f, 64);
    if (!strcmp(name, "environment information")) {
        if (n != 7) return xfail(s, line, "environment information has %d fields, expected 7", n);
        return cfg_count(s, line, f[3], "number_of_nodes", &c->nodes) &&
               cfg_number(s, line, f[4], "network_bandwidth", &c->net_bw) &&
               cfg_count(s, line, f[5], "number_of_buses_on_network", &c->buses);
    }
    if (!strcmp(name, "node information")) return cfg_node(s, line, f, n, false, c);
    if (!strcmp(name, "multi node information")) return cfg_node(s, line, f, n, true, c);
    if (!strcmp(name, "mapping information") && n == 3) {
        char *open = strchr(f[2], '{'), *close = strrchr(f[2], '}');
        if (!open || !close)
            return xfail(s, line, "mapping information: expected [N] {n0, n1, ...}");
        *close = 0;
        free(c->mapping);
        c->mapping = xstrdup(open + 1);
        return true;
    }
    if (!strcmp(name, "predefined mapping information"))
        return cfg_predefined_map(s, line, f, n, c);
    if (!strcmp(name, "file system parameters")) return cfg_fs(s, line, f, n, c);
    return cfg_neutral(s, line, name, f, n);
}

/* Dimemas' bandwidths are MB/s of 2^20 bytes (its simulator divides
 * 10^9 ns by 2^20 and by the value: 953.674316 is 10^9 B/s); 0 is no limit. */
static void cfg_bandwidth(FILE *y, const char *key, double mbs) {
    char v[40];
    snprintf(v, sizeof v, "%.15g", mbs); /* as written, unless that loses a bit */
    if (strtod(v, NULL) != mbs) snprintf(v, sizeof v, "%.17g", mbs);
    if (mbs > 0)
        fprintf(y, "  %s: %sMiB/s\n", key, v);
    else
        fprintf(y, "  %s: 1000000GB/s # Dimemas' 0: no limit\n", key);
}

static bool cfg_yaml(struct scanner *s, const struct cfg_platform *c, FILE *y) {
    if (c->nodes < 1 || !c->node_seen)
        return xfail(s, 1, "no environment information or node information record");
    fprintf(y, "# imported from the Dimemas configuration %s (docs/interop.md)\n", s->path);
    fprintf(y, "nodes: %ld\ncores_per_node: %ld\nspeed: %.9g\n", c->nodes, c->cores, c->speed);
    fprintf(y, "inter:\n  model: affine\n  latency: 0us\n");
    cfg_bandwidth(y, "bandwidth", c->net_bw);
    fprintf(y, "intra:\n  model: affine\n  latency: 0us\n");
    cfg_bandwidth(y, "bandwidth", c->intra_bw);
    fprintf(y, "mpi:\n  send_overhead: %.9gs\n  recv_overhead: %.9gs\n", c->inter_startup,
            c->inter_startup);
    fprintf(y, "  coll:\n    model: analytic\n    analytic_latency: %.9gs\n", c->inter_startup);
    if (c->buses > 0 || c->in_links > 0)
        fprintf(y, "network:\n  contention: buses\n  buses: %ld\n  links_per_node: %ld\n", c->buses,
                c->in_links);
    else
        fprintf(y, "network:\n  interfaces: unlimited # Dimemas' 0 buses and links: no limit\n");
    if (c->intra_buses == 0) /* else one copy at a time per core: the closest simpi has */
        fprintf(y, "  intra_copies: unlimited # Dimemas' 0 intra-node buses: no limit\n");
    if (c->fs_seen) {
        fprintf(y, "storage:\n  latency: %.9gs\n", c->fs_latency);
        cfg_bandwidth(y, "bandwidth", c->fs_bw);
        if (c->fs_concurrency > 0) fprintf(y, "  concurrency: %ld\n", c->fs_concurrency);
    }
    if (c->tasks_per_node > 0) {
        if (c->tasks_per_node > c->cores)
            return xfail(s, 1, "%ld TASKS_PER_NODE, but the nodes have %ld processors",
                         c->tasks_per_node, c->cores);
        fprintf(y, "ranks_per_node: %ld\n", c->tasks_per_node);
    }
    if (c->interleaved) fprintf(y, "placement: cyclic\n");
    if (c->mapping) {
        fprintf(y, "placement: [");
        for (const char *p = c->mapping; *p; p++)
            if (!isspace((unsigned char)*p)) fputc(*p == ',' ? ',' : *p, y);
        fprintf(y, "]\n");
    }
    return true;
}

/* A record's definition in the SDDF header ("NAME" { char "field"[]; ... };;)
 * declares its fields' types; values are what follow. */
static bool cfg_is_definition(const char *body) {
    return strstr(body, "char \"") || strstr(body, "int \"") || strstr(body, "double \"");
}

/* One record "NAME" {fields};; starting at p (line `line`), which may span
 * lines; *next is set past its ";;". */
static bool cfg_one(struct scanner *s, char *p, int line, char **next, struct cfg_platform *c) {
    char *end = strstr(p, ";;");
    if (!end) return xfail(s, line, "record without its closing ';;'");
    *end = 0;
    *next = end + 2;
    char *name_end = strchr(p + 1, '"'), *open = name_end ? strchr(name_end, '{') : NULL;
    char *close = strrchr(p, '}');
    if (!name_end || !open || !close || close < open)
        return xfail(s, line, "expected \"record name\" {fields};;");
    for (char *q = p; q < end; q++)
        if (*q == '\n') *q = ' ';
    *name_end = 0;
    *close = 0;
    if (cfg_is_definition(open + 1)) return true;
    return cfg_record(s, line, p + 1, open + 1, c);
}

static bool import_dimemas(struct scanner *s, FILE *y) {
    struct cfg_platform c = {0};
    bool ok = true;
    int line = 1;
    for (char *p = s->text; ok && *p;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (p[0] == '/' && p[1] == '*') { /* a comment (the records' definitions) */
            char *end = strstr(p + 2, "*/");
            if (!end) { /* (the records read so far are freed below) */
                ok = xfail(s, line, "a comment without its closing '*/'");
                break;
            }
            for (; p < end + 2; p++)
                line += *p == '\n';
            continue;
        }
        if (*p == '"') {
            char *end = strstr(p, ";;"), *next = NULL;
            int lines = 0;
            for (char *q = p; end && q < end; q++)
                lines += *q == '\n';
            if (!(ok = cfg_one(s, p, line, &next, &c))) break;
            line += lines;
            p = next;
            continue;
        }
        char *eol = strchr(p, '\n');
        if (!eol) break;
        p = eol + 1;
        line++;
    }
    ok = ok && cfg_yaml(s, &c, y);
    free(c.mapping);
    return ok;
}

char *platform_import_text(const char *text, size_t len, const char *name, bool *imported,
                           struct sim_error *err) {
    char head[64] = {0};
    memcpy(head, text, len < sizeof head - 1 ? len : sizeof head - 1);
    bool dimemas = !strncmp(head, "SDDFA", 5) || !strncmp(head, "#DIMEMAS_CONFIGURATION", 22);
    *imported = dimemas || is_xml(head);
    if (!*imported) return NULL;
    char *copy = xcalloc(len + 1, 1); /* the scanner cuts it in place */
    memcpy(copy, text, len);
    if (strlen(copy) != len) {
        free(copy);
        err_at(err, name, 0, "a NUL byte in the XML");
        return NULL;
    }
    struct scanner s = {name, copy, copy, 1, err};
    char *yaml = NULL;
    size_t ylen = 0;
    FILE *y = open_memstream(&yaml, &ylen);
    bool ok = dimemas ? import_dimemas(&s, y) : import_simgrid(&s, y, text, len);
    fclose(y);
    free(copy);
    if (!ok) {
        free(yaml);
        return NULL;
    }
    return yaml;
}

char *platform_import(const char *path, bool *imported, struct sim_error *err) {
    *imported = false;
    size_t len;
    char *text = readfile(path, READFILE_PLATFORM_LIMIT, &len, "platform file", err);
    if (!text) return NULL;
    char *yaml = platform_import_text(text, len, path, imported, err);
    free(text);
    return yaml;
}
