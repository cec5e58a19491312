/* Platforms of other tools (docs/interop.md): a SimGrid platform XML file is
 * turned into the equivalent simpi YAML text, which the platform loader then
 * reads as if the user had written it (`--platform` accepts the XML
 * directly; `simpi platform convert` prints the YAML). What is imported is
 * a <cluster> (speed, core, bw, lat, bb_bw, bb_lat, and its FLAT, TORUS,
 * FAT_TREE or DRAGONFLY topology); other zones are refused by name. The XML
 * is read by a small scanner of tags and attributes (comments, processing
 * instructions and DOCTYPE skipped), errors naming the file and line. */
#include "platform/import.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "core/units.h"

#define MAX_ATTRS 32

struct tag {
    char name[32];
    char *key[MAX_ATTRS], *val[MAX_ATTRS];
    int n, line;
};

struct scanner {
    const char *path;
    char *text, *p;
    int line;
    struct sim_error *err;
};

__attribute__((format(printf, 3, 4))) static bool xfail(struct scanner *s, int line,
                                                        const char *fmt, ...) {
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

/* The next element's start tag (end tags skipped); 0 at the end, -1 on error. */
static int next_tag(struct scanner *s, struct tag *t) {
    for (;;) {
        while (*s->p && *s->p != '<')
            s->line += *s->p++ == '\n';
        if (!*s->p) return 0;
        if (!strncmp(s->p, "<!--", 4)) {
            if (!skip_past(s, "-->")) return -1;
        } else if (s->p[1] == '?' || s->p[1] == '!' || s->p[1] == '/') {
            if (!skip_past(s, ">")) return -1;
        } else {
            break;
        }
    }
    t->line = s->line;
    t->n = 0;
    s->p++;
    size_t len = strcspn(s->p, " \t\r\n/>");
    snprintf(t->name, sizeof t->name, "%.*s", (int)len, s->p);
    s->p += len;
    for (;;) {
        while (isspace((unsigned char)*s->p))
            s->line += *s->p++ == '\n';
        if (*s->p == '/' || *s->p == '>') {
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

static const char *attr(const struct tag *t, const char *key) {
    for (int i = 0; i < t->n; i++)
        if (!strcmp(t->key[i], key)) return t->val[i];
    return NULL;
}

/* SimGrid units as simpi's: bandwidths "125MBps" (bytes) or "1Gbps" (bits)
 * become "125MB/s" / "1Gb/s"; times and flop rates are alike. */
static void simgrid_value(const char *v, char *out, size_t n, bool bandwidth) {
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

/* The number of hosts of a radical "0-15" or "0-3,8,10-11". */
static long radical_count(const char *r) {
    long n = 0;
    for (const char *p = r; *p;) {
        char *end;
        long a = strtol(p, &end, 10), b = a;
        if (end == p) return -1;
        if (*end == '-') {
            const char *q = end + 1;
            b = strtol(q, &end, 10);
            if (end == q || b < a) return -1;
        }
        n += b - a + 1;
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
        fprintf(y, "network:\n  topology: fat-tree\n  levels: %ld\n  down: %s\n  up: %s\n", v[0][0],
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
               *bb_lat = attr(t, "bb_lat");
    long hosts = radical ? radical_count(radical) : -1;
    if (hosts < 1) return xfail(s, t->line, "<cluster>: radical \"0-15\" (the hosts) is required");
    if (!bw || !lat) return xfail(s, t->line, "<cluster>: bw and lat are required");
    char bws[64], lats[64], sp[64], bbb[64], bbl[64];
    simgrid_value(bw, bws, sizeof bws, true);
    simgrid_value(lat, lats, sizeof lats, false);
    fprintf(y, "# imported from %s:%d, a SimGrid <cluster id=\"%s\">\n", s->path, t->line,
            attr(t, "id") ? attr(t, "id") : "");
    fprintf(y, "nodes: %ld\ncores_per_node: %s\n", hosts, core ? core : "1");
    if (speed) {
        snprintf(sp, sizeof sp, "%.*s", (int)strcspn(speed, ","), speed); /* first pstate */
        fprintf(y, "speed: %s\n", sp);
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

static bool import_simgrid(struct scanner *s, FILE *y) {
    struct tag t;
    int got, clusters = 0;
    while ((got = next_tag(s, &t)) > 0) {
        if (!strcmp(t.name, "cluster")) {
            if (clusters++) return xfail(s, t.line, "a second <cluster>: simpi imports one");
            if (!import_cluster(s, &t, y)) return false;
        } else if (!strcmp(t.name, "host") || !strcmp(t.name, "link") || !strcmp(t.name, "route") ||
                   !strcmp(t.name, "router")) {
            if (!clusters)
                return xfail(s, t.line,
                             "<%s>: simpi imports SimGrid platforms made of one <cluster>; "
                             "describe this one in simpi's YAML (docs/platform-format.md)",
                             t.name);
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

char *platform_import_text(const char *text, size_t len, const char *name, bool *imported,
                           struct sim_error *err) {
    char head[64] = {0};
    memcpy(head, text, len < sizeof head - 1 ? len : sizeof head - 1);
    *imported = is_xml(head);
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
    bool ok = import_simgrid(&s, y);
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
    FILE *f = fopen(path, "rb");
    if (!f) return NULL; /* the YAML loader reports it */
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 > cap) text = xrealloc_or_die(text, cap = 2 * cap + 4096);
        got = fread(text + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    fclose(f);
    char *yaml = platform_import_text(text, len, path, imported, err);
    free(text);
    return yaml;
}
