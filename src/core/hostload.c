/* SPDX-License-Identifier: BSD-3-Clause */
/* Readings of the host's load from /proc (see hostload.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_ISSET */
#include "core/hostload.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double hostload_thread_waited(void) {
    FILE *f = fopen("/proc/thread-self/schedstat", "r");
    if (!f) return -1;
    unsigned long long ran, waited;
    int got = fscanf(f, "%llu %llu", &ran, &waited);
    fclose(f);
    return got == 2 ? (double)waited * 1e-9 : -1;
}

/* The fields of a "cpu..." line of /proc/stat: user nice system idle
 * iowait irq softirq steal (in clock ticks). */
struct cpu_ticks {
    unsigned long long f[8];
};

static int parse_cpu_line(const char *line, int *cpu, struct cpu_ticks *t) {
    if (strncmp(line, "cpu", 3)) return 0;
    const char *p = line + 3;
    *cpu = -1;
    if (*p >= '0' && *p <= '9') *cpu = (int)strtol(p, (char **)&p, 10);
    memset(t, 0, sizeof *t);
    int n = sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu", &t->f[0], &t->f[1], &t->f[2],
                   &t->f[3], &t->f[4], &t->f[5], &t->f[6], &t->f[7]);
    return n >= 4;
}

double hostload_steal(void) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return -1;
    char line[512];
    double steal = -1;
    int cpu;
    struct cpu_ticks t;
    if (fgets(line, sizeof line, f) && parse_cpu_line(line, &cpu, &t) && cpu < 0)
        steal = (double)t.f[7] / (double)sysconf(_SC_CLK_TCK);
    fclose(f);
    return steal;
}

/* Busy and total ticks of the CPUs in `set`. */
static int read_busy(const cpu_set_t *set, unsigned long long *busy, unsigned long long *total) {
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return 0;
    char line[512];
    int cpu, seen = 0;
    struct cpu_ticks t;
    *busy = *total = 0;
    while (fgets(line, sizeof line, f)) {
        if (!parse_cpu_line(line, &cpu, &t) || cpu < 0 || cpu >= CPU_SETSIZE ||
            !CPU_ISSET(cpu, set))
            continue;
        unsigned long long all = 0;
        for (int i = 0; i < 8; i++)
            all += t.f[i];
        *total += all;
        *busy += all - t.f[3] - t.f[4] - t.f[7]; /* not idle, not waiting, not stolen */
        seen++;
    }
    fclose(f);
    return seen;
}

int hostload_free_cores(double sample_seconds, int *allowed) {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0) {
        *allowed = 1;
        return 1;
    }
    *allowed = CPU_COUNT(&set);
    unsigned long long b0, t0, b1, t1;
    if (!read_busy(&set, &b0, &t0)) return *allowed;
    struct timespec ts = {(time_t)sample_seconds,
                          (long)((sample_seconds - (double)(time_t)sample_seconds) * 1e9)};
    nanosleep(&ts, NULL);
    if (!read_busy(&set, &b1, &t1) || t1 <= t0) return *allowed;
    double busy_cores = (double)(b1 - b0) / (double)(t1 - t0) * *allowed;
    int free_cores = (int)((double)*allowed - busy_cores + 0.25); /* a core 3/4 free counts */
    return free_cores < 1 ? 1 : free_cores > *allowed ? *allowed : free_cores;
}
