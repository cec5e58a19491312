/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi calibrate node`: the two figures of the shared-memory model
 * (platform memory:, docs/models.md "A node's memory"). The node's memory
 * bandwidth: a triad (a = b + s c over arrays far larger than the caches,
 * 24 bytes an element as STREAM counts them) run by one thread, then by K
 * threads at once, K this machine's cores (-k). A program's demand, when
 * a `simpi run` command line follows `--`: its simulation run alone, then
 * K copies at once; each copy's computation (the CPU seconds its bursts
 * took, host.computation_cpu of --json) is s times longer together than
 * alone. K ranks all computing, each granted B / K where it asked d, run
 * d / (B / K) times slower: d = s B / K. A program that does not slow down
 * (s < 1.05) asks at most B / K, which is then written. */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/outfile.h"

#define TRIAD_ELEMENTS (8L << 20) /* 64 MiB an array: twice a large L3 */
#define TRIAD_REPS 5

struct triad {
    double *a, *b, *c;
    double rate; /* bytes per second, best repetition */
    pthread_barrier_t *start;
};

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *triad_run(void *arg) {
    struct triad *t = arg;
    volatile double s = 3.0;
    for (long i = 0; i < TRIAD_ELEMENTS; i++)
        t->a[i] = 0, t->b[i] = 1, t->c[i] = 2; /* first touch: pages this thread's */
    for (int r = 0; r < TRIAD_REPS; r++) {
        if (t->start) pthread_barrier_wait(t->start); /* all threads stream together */
        double t0 = now_seconds();
        for (long i = 0; i < TRIAD_ELEMENTS; i++)
            t->a[i] = t->b[i] + s * t->c[i];
        double rate = 24.0 * TRIAD_ELEMENTS / (now_seconds() - t0);
        if (rate > t->rate) t->rate = rate;
    }
    return NULL;
}

/* Memory bandwidth of k threads streaming at once (bytes per second, all
 * together); 0 when memory runs out. */
static double triad_bandwidth(int k) {
    struct triad *t = calloc((size_t)k, sizeof *t);
    pthread_t *th = calloc((size_t)k, sizeof *th);
    pthread_barrier_t start;
    pthread_barrier_init(&start, NULL, (unsigned)k);
    double total = 0;
    bool ok = t && th;
    for (int i = 0; ok && i < k; i++) {
        size_t bytes = sizeof(double) * TRIAD_ELEMENTS;
        t[i] = (struct triad){malloc(bytes), malloc(bytes), malloc(bytes), 0, &start};
        ok = t[i].a && t[i].b && t[i].c;
    }
    int started = 0;
    for (; ok && started < k; started++)
        if (pthread_create(&th[started], NULL, triad_run, &t[started]) != 0) ok = false;
    for (int i = 0; i < started; i++)
        pthread_join(th[i], NULL);
    for (int i = 0; t && i < k; i++) {
        total += t[i].rate;
        free(t[i].a), free(t[i].b), free(t[i].c);
    }
    pthread_barrier_destroy(&start);
    free(t);
    free(th);
    return ok ? total : 0;
}

/* Runs k copies of `simpi run ARGS --json F` at once; the mean of their
 * computation CPU seconds, or -1 (a copy failed: its output said why). */
static double program_cpu(int k, char **args, int nargs) {
    char self[4096], dir[] = "/tmp/simpi-calnode-XXXXXX";
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0 || !mkdtemp(dir)) return -1;
    self[len] = 0;
    pid_t *pids = calloc((size_t)k, sizeof *pids);
    char **argv = calloc((size_t)nargs + 6, sizeof *argv);
    char json[sizeof dir + 32];
    fflush(NULL); /* nothing buffered is printed again by the copies */
    for (int c = 0; c < k; c++) {
        snprintf(json, sizeof json, "%s/%d.json", dir, c);
        argv[0] = self, argv[1] = "run", argv[2] = "-q", argv[3] = "--json", argv[4] = json;
        memcpy(argv + 5, args, sizeof *args * (size_t)nargs);
        pids[c] = fork();
        if (pids[c] == 0) {
            if (c > 0 && !freopen("/dev/null", "w", stderr)) _exit(127);
            if (!freopen("/dev/null", "w", stdout)) _exit(127);
            execv(self, argv);
            _exit(127);
        }
    }
    double sum = 0;
    bool ok = true;
    for (int c = 0; c < k; c++) {
        int st;
        if (pids[c] < 0 || waitpid(pids[c], &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
            ok = false;
        snprintf(json, sizeof json, "%s/%d.json", dir, c);
        FILE *f = fopen(json, "r");
        char line[8192];
        double cpu = -1;
        while (f && fgets(line, sizeof line, f)) {
            const char *p = strstr(line, "\"computation_cpu\": ");
            if (p) cpu = strtod(p + 19, NULL);
        }
        if (f) fclose(f);
        unlink(json);
        if (cpu <= 0) ok = false;
        sum += cpu;
    }
    rmdir(dir);
    free(pids);
    free(argv);
    return ok ? sum / k : -1;
}

static int usage_error(const char *what) {
    fprintf(stderr,
            "simpi calibrate node: %s\nusage: simpi calibrate node [-k K] [-o FILE.yaml] "
            "[-- RUN-ARGS: -n N ./program args]\n",
            what);
    return EXIT_USAGE;
}

static int write_fragment(const char *path, double bandwidth, double demand) {
    struct outfile o;
    struct sim_error err = {0};
    if (!outfile_open(&o, path, &err)) {
        fprintf(stderr, "simpi calibrate node: %s\n", err.msg);
        return EXIT_INPUT_ERROR;
    }
    fprintf(o.f, "# simpi calibrate node: a node's memory shared by its ranks (docs/models.md)\n");
    if (demand > 0)
        fprintf(o.f, "memory: {bandwidth: %.4gGB/s, demand: %.4gGB/s}\n", bandwidth / 1e9,
                demand / 1e9);
    else
        fprintf(o.f, "memory: {bandwidth: %.4gGB/s}\n", bandwidth / 1e9);
    if (outfile_commit(&o, &err)) return 0;
    fprintf(stderr, "simpi calibrate node: %s\n", err.msg);
    return EXIT_INPUT_ERROR;
}

int cmd_calibrate_node(int argc, char **argv) {
    const char *out = NULL;
    long k = sysconf(_SC_NPROCESSORS_ONLN);
    int run_at = argc;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-o") && i + 1 < argc) {
            out = argv[++i];
        } else if (!strcmp(argv[i], "-k") && i + 1 < argc) {
            char *end;
            k = strtol(argv[++i], &end, 10);
            if (*end || k < 2 || k > 4096) return usage_error("-k: an integer from 2 to 4096");
        } else if (!strcmp(argv[i], "--")) {
            run_at = i + 1;
            break;
        } else {
            char what[160];
            snprintf(what, sizeof what, "unexpected argument '%.100s'", argv[i]);
            return usage_error(what);
        }
    }
    if (k < 2) return usage_error("this machine has one core: give -k K (at least 2)");
    if (run_at < argc && argc - run_at < 3)
        return usage_error("after --, a simpi run command line: -n N ./program [args]");
    double alone = triad_bandwidth(1), node = triad_bandwidth((int)k);
    if (alone <= 0 || node <= 0) {
        fprintf(stderr, "simpi calibrate node: not enough memory for %ld triads of 192 MiB\n", k);
        return EXIT_INPUT_ERROR;
    }
    printf("this node: memory %.3g GB/s for one core alone, %.3g GB/s for %ld at once (triad)\n",
           alone / 1e9, node / 1e9, k);
    double demand = 0;
    if (run_at < argc) {
        double one = program_cpu(1, argv + run_at, argc - run_at);
        double many = one > 0 ? program_cpu((int)k, argv + run_at, argc - run_at) : -1;
        if (one <= 0 || many <= 0) {
            fprintf(stderr, "simpi calibrate node: the simulation failed (run it alone: simpi run "
                            "with the same arguments)\n");
            return EXIT_INPUT_ERROR;
        }
        double slow = many / one;
        demand = (slow < 1.05 ? 1.0 : slow) * node / (double)k;
        printf("program: computation %.3f s alone, %.3f s with %ld copies at once: %.2fx\n", one,
               many, k, slow);
        printf("  demand: %s%.3g GB/s a rank (%.2f x %.3g GB/s / %ld)\n",
               slow < 1.05 ? "at most " : "", demand / 1e9, slow < 1.05 ? 1.0 : slow, node / 1e9,
               k);
        printf("use: --set memory.bandwidth=%.4gGB/s --set memory.demand=%.4gGB/s\n", node / 1e9,
               demand / 1e9);
    } else {
        printf("use: --set memory.bandwidth=%.4gGB/s, and a program's demand: simpi calibrate "
               "node -- -n N ./program\n",
               node / 1e9);
    }
    return out ? write_fragment(out, node, demand) : 0;
}
