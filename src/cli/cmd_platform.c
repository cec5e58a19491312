/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi platform show`: prints the resolved platform, and the shared
 * --platform / --set option parsing. */
#define _GNU_SOURCE /* sched_getaffinity */
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/conf.h"
#include "core/hostload.h"
#include "core/outfile.h"
#include "core/units.h"
#include "mpi/coll/coll.h"
#include "net/network.h"
#include "platform/import.h"
#include "platform/keys.h"
#include "platform/platform.h"

/* The --set list lives as long as the command (one per process). */
static const char **set_list;

static void add_set(struct platform_opts *o, const char *v) {
    o->sets = set_list = xrealloc_or_die(o->sets, sizeof *o->sets * (size_t)(o->nsets + 1));
    o->sets[o->nsets++] = v;
}

char *cli_fault_set(const char *spec) {
    char *set = xmalloc(strlen(spec) + 9);
    sprintf(set, "faults+=%s", spec);
    return set;
}

char *cli_with_ft_set(const char *mode) {
    if (!strcmp(mode, "ulfm")) return xstrdup("fault_tolerance=ulfm");
    if (!strcmp(mode, "none") || !strcmp(mode, "abort")) return xstrdup("fault_tolerance=abort");
    fprintf(stderr,
            "simpi: --with-ft: found '%s', expected ulfm (the job goes on after a process "
            "fails, as mpiexec --with-ft ulfm) or none\n",
            mode);
    return NULL;
}

char *cli_ideal_set(const char *what) {
    static const char *const forms[] = {"none", "network", "cpu", "network+cpu", "cpu+network"};
    for (const char *v = what;; v++) {
        size_t len = strcspn(v, ","), i = 0;
        while (i < sizeof forms / sizeof forms[0] &&
               (strlen(forms[i]) != len || strncmp(v, forms[i], len)))
            i++;
        if (i == sizeof forms / sizeof forms[0] || !*what) {
            fprintf(stderr,
                    "simpi: --ideal: found '%s', expected network (messages cost nothing), "
                    "cpu (computation costs nothing), network+cpu or none; a list sweeps "
                    "them (--ideal none,network)\n",
                    what);
            return NULL;
        }
        v += len;
        if (!*v) break;
    }
    char *set = xmalloc(strlen(what) + 7);
    sprintf(set, "ideal=%s", what);
    return set;
}

char *cli_seeds_set(const char *count) {
    char *end;
    long n = strtol(count, &end, 10);
    if (*end || end == count || n < 1 || n > 100000) {
        fprintf(stderr, "simpi: --seeds: found '%s', expected a number of seeds from 1 to 100000\n",
                count);
        return NULL;
    }
    char *set = xmalloc(16 + 8 * (size_t)n), *o = set + sprintf(set, "fault_seed=");
    for (long k = 1; k <= n; k++)
        o += sprintf(o, "%s%ld", k > 1 ? "," : "", k);
    if (n == 1) strcpy(set, "fault_seed=1");
    return set;
}

int cli_platform_option(struct platform_opts *o, int argc, char **argv, int *i) {
    const char *a = argv[*i];
    if ((!strcmp(a, "--fault") || !strcmp(a, "--seeds") || !strcmp(a, "--with-ft") ||
         !strcmp(a, "--ideal")) &&
        *i + 1 < argc) {
        char *set = a[2] == 'f'   ? cli_fault_set(argv[++*i])
                    : a[2] == 'w' ? cli_with_ft_set(argv[++*i])
                    : a[2] == 'i' ? cli_ideal_set(argv[++*i])
                                  : cli_seeds_set(argv[++*i]);
        if (!set) return -1;
        add_set(o, set);
        return 1;
    }
    bool is_platform = !strcmp(a, "--platform") || !strcmp(a, "-p");
    bool is_set = !strcmp(a, "--set");
    if (!is_platform && !is_set) {
        if (!strncmp(a, "--platform=", 11)) {
            o->path = a + 11;
            return 1;
        }
        if (!strncmp(a, "--set=", 6)) {
            add_set(o, a + 6);
            return 1;
        }
        return 0;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "simpi: %s needs a value\n", a);
        return -1;
    }
    const char *v = argv[++*i];
    if (is_platform) {
        o->path = v;
    } else {
        add_set(o, v);
    }
    return 1;
}

struct platform *cli_load_platform(const struct platform_opts *o, struct network *net) {
    struct sim_error err = {0};
    struct platform *p = platform_load(o->path, o->sets, o->nsets, &err);
    if (p && network_init(net, p, &err)) return p;
    err_print(&err);
    platform_free(p);
    return NULL;
}

/* `simpi platform convert FILE`: the YAML equivalent of a SimGrid XML
 * platform or a Dimemas .cfg, on stdout (or -o OUT), checked by loading it. */
static int platform_convert(int argc, char **argv) {
    const char *in = argc > 2 ? argv[2] : NULL, *out = "-";
    if (argc == 5 && !strcmp(argv[3], "-o")) out = argv[4];
    if (!in || (argc != 3 && argc != 5)) {
        fprintf(stderr, "usage: simpi platform convert FILE.xml|FILE.cfg [-o FILE.yaml]\n");
        return EXIT_USAGE;
    }
    struct sim_error err = {0};
    bool imported;
    char *yaml = platform_import(in, &imported, &err);
    if (!imported && !err.set) err_set(&err, "%s: not a SimGrid platform XML file", in);
    struct platform *p = yaml ? platform_load(in, NULL, 0, &err) : NULL;
    struct outfile o;
    bool ok = p && outfile_open(&o, out, &err);
    if (ok) {
        fputs(yaml, o.f);
        ok = outfile_commit(&o, &err);
    }
    platform_free(p);
    free(yaml);
    if (!ok) {
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    return 0;
}

/* Prints how the platform's collective settings choose the algorithm of
 * one call: a forced algorithm, the path through MPICH's selection file,
 * or the selector's built-in rule. */
static const char *explain_selection(const struct coll_config *cfg, enum coll_kind kind, int32_t n,
                                     int64_t size, bool nonblocking) {
    unsigned how = nonblocking ? COLL_CALL_NONBLOCKING : 0;
    const struct coll_algo *a = coll_select_call(cfg, kind, n, size, how);
    printf("%s%s of %lld B on %d ranks: ", nonblocking ? "i" : "", sim_coll_name(kind),
           (long long)size, n);
    if (cfg->forced[kind]) {
        printf("%s (forced by mpi.coll.%s)\n", a->name, sim_coll_name(kind));
        return a->name;
    }
    char path[2048] = "";
    if (cfg->selection &&
        coll_selection_pick(cfg->selection, kind, n, size, nonblocking, path, sizeof path)) {
        printf("%s\n  MPICH selection file: %s\n", a->name, path);
        return a->name;
    }
    printf("%s (the %s selector's built-in rule%s)\n", a->name, coll_selector_names[cfg->selector],
           cfg->selection ? ": the selection file has none for it" : "");
    if (path[0]) printf("  MPICH selection file: %s\n", path);
    return a->name;
}

/* An algorithm's time, for --all's table. */
struct algo_time {
    const char *name;
    simtime_t t;
    bool ran;
    char why[200];
};

static int by_time(const void *a, const void *b) {
    const struct algo_time *x = a, *y = b;
    if (x->ran != y->ran) return x->ran ? -1 : 1;
    return x->t < y->t ? -1 : x->t > y->t ? 1 : strcmp(x->name, y->name);
}

/* The time of the call with the algorithm the platform chooses (chosen),
 * and with --all every algorithm of the operation's, best first. */
static bool print_costs(const struct platform_opts *o, const struct coll_call *c,
                        const char *chosen, bool all, const char *platform_name) {
    char tb[48], why[200];
    simtime_t t;
    if (!all) {
        if (!cli_collective_time(o, c, NULL, &t, why, sizeof why)) {
            printf("  cannot run on %s: %s\n", platform_name, why);
            return false;
        }
        printf("  predicted: %s on %s (one call, every rank entering at 0)\n",
               units_format_time(t, tb, sizeof tb), platform_name);
        return true;
    }
    const char *names[COLL_ALGOS + 1];
    int n = coll_names((enum coll_kind)c->kind, names, COLL_ALGOS + 1);
    struct algo_time *times = xcalloc((size_t)n, sizeof *times);
    for (int i = 0; i < n; i++) {
        times[i].name = names[i];
        times[i].ran =
            cli_collective_time(o, c, names[i], &times[i].t, times[i].why, sizeof times[i].why);
    }
    qsort(times, (size_t)n, sizeof *times, by_time);
    printf("every algorithm on %s, best first (one call, every rank entering at 0):\n",
           platform_name);
    for (int i = 0; i < n; i++) {
        if (times[i].ran)
            printf("  %-26s %14s%s\n", times[i].name, units_format_time(times[i].t, tb, sizeof tb),
                   !strcmp(times[i].name, chosen) ? "   <- chosen" : "");
        else
            printf("  %-26s cannot run: %s\n", times[i].name, times[i].why);
    }
    free(times);
    return true;
}

/* `simpi platform collective OP SIZE RANKS [FILE] [--nonblocking] [--all]
 * [--set ...]` */
static int platform_collective(int argc, char **argv) {
    struct platform_opts o = {0};
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0;
    bool nonblocking = false, all = false;
    for (int i = 2; i < argc; i++) {
        int r = cli_platform_option(&o, argc, argv, &i);
        if (r < 0) return EXIT_USAGE;
        if (r > 0) continue;
        if (!strcmp(argv[i], "--nonblocking")) {
            nonblocking = true;
        } else if (!strcmp(argv[i], "--all")) {
            all = true;
        } else if (argv[i][0] != '-' && npos < 3) {
            pos[npos++] = argv[i];
        } else if (argv[i][0] != '-' && !o.path) {
            o.path = argv[i];
        } else {
            fprintf(stderr, "simpi platform collective: unexpected argument '%s'\n", argv[i]);
            return EXIT_USAGE;
        }
    }
    int kind = npos == 3 ? cli_coll_kind(pos[0]) : -1;
    int64_t size = 0;
    char *end = NULL;
    long n = npos == 3 ? strtol(pos[2], &end, 10) : 0;
    if (kind < 0 || !units_parse_size(pos[1], true, false, &size, NULL) || !end || *end || n < 1 ||
        n > INT32_MAX) {
        fprintf(stderr,
                "usage: simpi platform collective OP SIZE RANKS [FILE] [--nonblocking] "
                "[--all] [--set KEY=VALUE]...\n  OP: barrier, bcast, reduce, allreduce, gather, "
                "scatter, allgather, alltoall, reduce_scatter, scan, exscan; SIZE as in "
                "a trace (8, 1KiB)\n");
        return EXIT_USAGE;
    }
    struct sim_error err = {0};
    struct platform *p = platform_load(o.path, o.sets, o.nsets, &err);
    struct coll_config cfg = {0};
    bool ok = p && coll_config_read(p->conf, &cfg, &err);
    if (ok) {
        const char *chosen =
            explain_selection(&cfg, (enum coll_kind)kind, (int32_t)n, size, nonblocking);
        struct coll_call call = {kind, n, size, nonblocking};
        ok = print_costs(&o, &call, chosen, all, p->source);
    } else {
        err_print(&err);
    }
    conf_free(cfg.selection);
    platform_free(p);
    return ok ? 0 : EXIT_INPUT_ERROR;
}

/* `simpi platform keys [--markdown]`: every key the platform file takes
 * (platform/keys.c): path, type, default, range and help, one per line
 * separated by tabs; --markdown: docs/platform-format.md's table. */
static int platform_keys_list(int argc, char **argv) {
    bool md = argc == 3 && !strcmp(argv[2], "--markdown");
    if (argc > 3 || (argc == 3 && !md)) {
        fprintf(stderr, "usage: simpi platform keys [--markdown]\n");
        return EXIT_USAGE;
    }
    int n;
    const struct platform_key *k = platform_keys(&n);
    if (md)
        printf("| key | type | default | values | meaning |\n| --- | --- | --- | --- | --- |\n");
    for (int i = 0; i < n; i++) {
        if (md)
            printf("| `%s` | %s | %s%s%s | %s | %s |\n", k[i].path, k[i].type, k[i].dflt ? "`" : "",
                   k[i].dflt ? k[i].dflt : "none", k[i].dflt ? "`" : "", k[i].range, k[i].help);
        else
            printf("%s\t%s\t%s\t%s\t%s\n", k[i].path, k[i].type, k[i].dflt ? k[i].dflt : "-",
                   k[i].range, k[i].help);
    }
    return 0;
}

int cmd_platform(int argc, char **argv) {
    if (argc >= 2 && !strcmp(argv[1], "keys")) return platform_keys_list(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "convert")) return platform_convert(argc, argv);
    if (argc >= 2 && !strcmp(argv[1], "collective")) return platform_collective(argc, argv);
    if (argc < 2 || strcmp(argv[1], "show") != 0) {
        fprintf(stderr, "usage: simpi platform show [FILE] [--set KEY=VALUE]...\n"
                        "       simpi platform keys [--markdown]\n"
                        "       simpi platform convert FILE.xml|FILE.cfg [-o FILE.yaml]\n"
                        "       simpi platform collective OP SIZE RANKS [FILE] [--set ...]\n");
        return EXIT_USAGE;
    }
    struct platform_opts o = {0};
    for (int i = 2; i < argc; i++) {
        int r = cli_platform_option(&o, argc, argv, &i);
        if (r < 0) return EXIT_USAGE;
        if (r == 0) {
            if (argv[i][0] == '-' || o.path) {
                fprintf(stderr, "simpi platform show: unexpected argument '%s'\n", argv[i]);
                return EXIT_USAGE;
            }
            o.path = argv[i];
        }
    }
    struct network net;
    struct platform *p = cli_load_platform(&o, &net);
    if (!p) return EXIT_INPUT_ERROR;
    platform_show(p, stdout);
    platform_show_notes(p, stdout);
    network_destroy(&net);
    platform_free(p);
    return 0;
}

bool cli_parse_procs(const char *opt, const char *value, int *out) {
    if (!strcmp(value, "auto")) { /* the cores free of other programs' work: cli_fit_procs */
        *out = -1;
        return true;
    }
    char *end;
    long n = strtol(value, &end, 10);
    if (*value && !*end && n >= 1 && n <= 1024) {
        *out = (int)n;
        return true;
    }
    fprintf(stderr,
            "simpi: %s: found '%s', expected a count of worker processes from 1 to 1024, "
            "or auto (the cores available)\n",
            opt, value);
    return false;
}

/* Whether SIMPI_PROCS_EXACT (--procs-exact) asks for the workers as given. */
static bool procs_exact(void) {
    const char *e = getenv("SIMPI_PROCS_EXACT");
    return e && *e && strcmp(e, "0");
}

/* "N of the M cores this process may use is/are free", for both messages. */
static void say_free_cores(char *out, size_t n, int free_cores, int allowed) {
    snprintf(out, n, "%d of the %d cores this process may use %s free", free_cores, allowed,
             free_cores == 1 ? "is" : "are");
}

int cli_fit_procs(const char *cmd, int asked) {
    if (asked == 0 || asked == 1 || (asked > 1 && procs_exact())) return asked;
    int allowed, free_cores = hostload_free_cores(asked < 0 ? 0.1 : 0.05, &allowed);
    char cores[96];
    say_free_cores(cores, sizeof cores, free_cores, allowed);
    if (asked < 0) {
        if (free_cores < allowed)
            fprintf(stderr,
                    "simpi %s: --procs auto: %s (other programs keep the rest busy): %d "
                    "worker%s\n",
                    cmd, cores, free_cores, free_cores == 1 ? "" : "s");
        return free_cores;
    }
    if (free_cores >= asked) return asked;
    char fewer[64];
    if (free_cores == 1)
        snprintf(fewer, sizeof fewer, "one process");
    else
        snprintf(fewer, sizeof fewer, "%d workers", free_cores);
    fprintf(stderr,
            "simpi %s: --procs %d: %s of other programs' work; workers without a core of "
            "their own wait for one at every window, so the run takes %s, with the same "
            "results (--procs-exact: %d workers anyway)\n",
            cmd, asked, cores, fewer, asked);
    return free_cores;
}

const char *cli_enum_value(const char *what, const char *value, const char *const *names) {
    int i = conf_name_find(value, names);
    if (i >= 0) return names[i];
    char why[768];
    conf_name_expected(value, names, why, sizeof why);
    fprintf(stderr, "simpi %s: %s\n", what, why);
    return NULL;
}

bool cli_parse_placement(const char *value, int *out) {
    static const char *const placements[] = {"block", "cyclic", NULL};
    const char *v = cli_enum_value("--placement", value, placements);
    if (v) *out = v == placements[1];
    return v != NULL;
}

int cli_launcher_size(void) {
    static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"};
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v && atoi(v) > 0) return atoi(v);
    }
    return 0;
}

bool cli_find_helper(const char *name, const char *env, int mode, char *path, size_t n) {
    const char *set = getenv(env);
    if (set) {
        snprintf(path, n, "%s", set);
        return access(path, mode) == 0;
    }
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return false;
    self[len] = 0;
    char *slash = strrchr(self, '/');
    if (slash) *slash = 0;
    static const char *const rel[] = {"lib", "../lib"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, n, "%s/%s/%s", self, rel[i], name);
        if (access(path, mode) == 0) return true;
    }
    return false;
}
