/* SPDX-License-Identifier: BSD-3-Clause */
/* Text and JSON summaries of a finished (or failed) simulation. */
#include "report/summary.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/escape.h"
#include "core/memstat.h"
#include "core/outfile.h"
#include "core/ranktable.h"
#include "core/units.h"
#include "net/contention.h"
#include "net/interfaces.h"
#include "report/analysis.h"

#define TABLE_MAX_RANKS 16
#define SLOWEST_SHOWN 5
#define BUSIEST_SHOWN 3

simtime_t summary_end(const struct sim *s, enum sim_status st) {
    return st == SIM_OK ? summary_predicted(s) : sim_now(s);
}

simtime_t summary_predicted(const struct sim *s) {
    simtime_t t = 0;
    for (int32_t i = 0; i < sim_size(s); i++) {
        simtime_t f = sim_rank_stats(s, i)->finish;
        if (f > t) t = f;
    }
    return t;
}

static int64_t total_messages(const struct sim *s) {
    int64_t n = 0;
    for (int32_t i = 0; i < sim_size(s); i++)
        n += sim_rank_stats(s, i)->msgs_sent;
    return n;
}

static double sec(simtime_t t) {
    return simtime_to_seconds(t);
}

/* The table's time unit, chosen from the predicted time so that the total
 * above the table and the table agree. */
static struct {
    double scale;
    const char *name;
} unit = {1e3, "ms"};

static void choose_unit(const struct sim *s) {
    double t = sec(summary_predicted(s));
    if (t >= 1.0)
        unit.scale = 1.0, unit.name = "s";
    else if (t >= 1e-3 || t == 0)
        unit.scale = 1e3, unit.name = "ms";
    else
        unit.scale = 1e6, unit.name = "us";
}

static void print_row(FILE *out, const char *label, double c, double p, double k, double b,
                      double msgs, double bytes, double fin) {
    double u = unit.scale;
    fprintf(out, "  %-12s %12.6f %12.6f %12.6f %12.6f %10.0f %14.0f %12.6f\n", label, c * u, p * u,
            k * u, b * u, msgs, bytes, fin * u);
}

static void print_rank(FILE *out, const struct sim *s, int32_t i) {
    const struct rank_stats *st = sim_rank_stats(s, i);
    char label[32];
    snprintf(label, sizeof label, "rank %d", i);
    print_row(out, label, sec(st->compute), sec(st->p2p), sec(st->coll), sec(st->blocked),
              (double)st->msgs_sent, (double)st->bytes_sent, sec(st->finish));
}

/* min / mean / max rows over all ranks for each column. */
static void print_aggregate(FILE *out, const struct sim *s) {
    double v[3][7] = {{0}};
    int32_t n = sim_size(s);
    for (int32_t i = 0; i < n; i++) {
        const struct rank_stats *st = sim_rank_stats(s, i);
        double x[7] = {sec(st->compute), sec(st->p2p),          sec(st->coll),
                       sec(st->blocked), (double)st->msgs_sent, (double)st->bytes_sent,
                       sec(st->finish)};
        for (int c = 0; c < 7; c++) {
            if (i == 0 || x[c] < v[0][c]) v[0][c] = x[c];
            if (i == 0 || x[c] > v[2][c]) v[2][c] = x[c];
            v[1][c] = (i == 0 ? 0 : v[1][c]) + x[c] / n;
        }
    }
    const char *labels[3] = {"min", "mean", "max"};
    for (int r = 0; r < 3; r++)
        print_row(out, labels[r], v[r][0], v[r][1], v[r][2], v[r][3], v[r][4], v[r][5], v[r][6]);
}

static void print_slowest(FILE *out, const struct sim *s) {
    int32_t best[SLOWEST_SHOWN];
    int nb = 0;
    for (int32_t i = 0; i < sim_size(s); i++) {
        simtime_t f = sim_rank_stats(s, i)->finish;
        int pos = nb < SLOWEST_SHOWN ? nb++ : SLOWEST_SHOWN;
        while (pos > 0 && sim_rank_stats(s, best[pos - 1])->finish < f) {
            if (pos < SLOWEST_SHOWN) best[pos] = best[pos - 1];
            pos--;
        }
        if (pos < SLOWEST_SHOWN) best[pos] = i;
    }
    fprintf(out, "slowest ranks:\n");
    for (int k = 0; k < nb; k++)
        print_rank(out, s, best[k]);
}

/* Which algorithm ran each collective. */
static void print_collectives(FILE *out, const struct sim *s) {
    const char *op[16], *algo[16];
    int64_t calls[16];
    int n = sim_collective_counts(s, op, algo, calls, 16);
    if (n == 0) return;
    fprintf(out, "collectives:");
    for (int i = 0; i < n; i++)
        fprintf(out, "%s %s %s x%lld", i ? "," : "", op[i], algo[i], (long long)calls[i]);
    fprintf(out, "\n");
}

/* Messages between nodes, and the busiest links under flow contention. */
/* The run's faults (docs/faults.md): what failed, when first, the detours. */
static void print_faults(FILE *out, const struct sim *s) {
    const struct fault_stats *f = sim_fault_stats(s);
    if (!f) return;
    char tb[48];
    fprintf(out,
            "faults: %lld node crash%s (%d rank%s failed), %lld link%s and %lld switch%s down, "
            "%lld repair%s",
            (long long)f->crashes, f->crashes == 1 ? "" : "es", sim_failed_ranks(s),
            sim_failed_ranks(s) == 1 ? "" : "s", (long long)f->links_down,
            f->links_down == 1 ? "" : "s", (long long)f->switches_down,
            f->switches_down == 1 ? "" : "es", (long long)f->repairs, f->repairs == 1 ? "" : "s");
    if (f->first != SIMTIME_NEVER)
        fprintf(out, "; the first at %s", units_format_time(f->first, tb, sizeof tb));
    struct sim_net_stats ns;
    sim_network_stats(s, &ns);
    if (ns.detoured)
        fprintf(out, "; %lld message%s took a detour, %.0f extra hops, %s extra latency in all",
                (long long)ns.detoured, ns.detoured == 1 ? "" : "s", ns.extra_hops,
                units_format_time(simtime_from_seconds(ns.extra_seconds), tb, sizeof tb));
    fprintf(out, "\n");
}

static void json_faults(FILE *f, const struct sim *s) {
    const struct fault_stats *st = sim_fault_stats(s);
    if (!st) return;
    struct sim_net_stats ns;
    sim_network_stats(s, &ns);
    fprintf(f,
            "  \"faults\": {\"node_crashes\": %lld, \"failed_ranks\": %d, \"links_down\": %lld, "
            "\"switches_down\": %lld, \"repairs\": %lld, \"first_failure\": %.12g, "
            "\"detoured_messages\": %lld, \"extra_hops\": %.0f, \"extra_latency\": %.12g},\n",
            (long long)st->crashes, sim_failed_ranks(s), (long long)st->links_down,
            (long long)st->switches_down, (long long)st->repairs,
            st->first == SIMTIME_NEVER ? -1.0 : sec(st->first), (long long)ns.detoured,
            ns.extra_hops, ns.extra_seconds);
}

static void print_network(FILE *out, const struct sim *s) {
    struct sim_net_stats ns;
    sim_network_stats(s, &ns);
    if (ns.messages == 0) return;
    char tb[48], eb[48];
    double m = (double)ns.messages;
    fprintf(out,
            "network: %lld messages between nodes, on average %.2f hops and %s from send to "
            "receipt (%s of it before the receive was posted)\n",
            (long long)ns.messages, ns.hops / m,
            units_format_time(simtime_from_seconds(ns.transfer_seconds / m), tb, sizeof tb),
            units_format_time(simtime_from_seconds(ns.early_seconds / m), eb, sizeof eb));
    struct link_load top[BUSIEST_SHOWN];
    int n = sim_busiest_links(s, top, BUSIEST_SHOWN);
    double run = sec(summary_predicted(s));
    for (int i = 0; i < n; i++) {
        char name[160], bytes[32];
        network_link_name(sim_network(s), top[i].link, name, sizeof name);
        fprintf(out, "  %s %s: busy %.1f%% of the run, %s carried (%.1f%% of its capacity)\n",
                i ? "          " : "busiest:", name, run > 0 ? 100 * top[i].busy / run : 0,
                units_format_size((int64_t)top[i].bytes, bytes, sizeof bytes),
                run > 0 ? 100 * top[i].bytes / (top[i].capacity * run) : 0);
    }
    if (n) return;
    struct nic_load nics[BUSIEST_SHOWN]; /* no link model: the interfaces' busiest sides */
    int k = sim_busiest_interfaces(s, nics, BUSIEST_SHOWN);
    for (int i = 0; i < k; i++)
        fprintf(out, "  %s node %d's %s: busy %.1f%% of the run, %u messages\n",
                i ? "                   " : "busiest interfaces:", nics[i].node,
                nics[i].ejection ? "ejection" : "injection", run > 0 ? 100 * nics[i].busy / run : 0,
                nics[i].messages);
}

/* How each rank has its own globals, and what remapping them cost the
 * bursts (docs/online.md, "Global variables"). */
static void print_privatization(FILE *out, const struct host_figures *h) {
    if (!h->privatize) return;
    char size[32];
    units_format_size(h->privatize_bytes, size, sizeof size);
    if (!strcmp(h->privatize, "images"))
        fprintf(out, "  globals: %s per rank, in %d images of the program (nothing remapped)\n",
                size, h->images);
    else if (!strcmp(h->privatize, "copy"))
        fprintf(out, "  globals: %s per rank, copied at each switch\n", size);
    else
        fprintf(out,
                "  globals: %s per rank, remapped at each switch: %lld page faults, %.6f s of "
                "kernel time inside the ranks' computation\n",
                size, (long long)h->remap_faults, h->remap_kernel);
    bool inflated = h->remap_kernel > 0.05 * h->cpu || h->remap_faults > 10000;
    if (strcmp(h->privatize, "remap") || !inflated) return;
    fprintf(out,
            "warning: remapping the globals added %lld page faults and %.3f s of kernel time "
            "(%.1f%% of the ranks' measured computation, and more in TLB misses) that a real "
            "process does not spend: computation is overestimated",
            (long long)h->remap_faults, h->remap_kernel,
            h->cpu > 0 ? 100 * h->remap_kernel / h->cpu : 0);
    if (h->privatize_note)
        fprintf(out,
                "; simpi could not give each rank an image of the program (%s): rebuild it "
                "position-independent (the compilers' default, -fPIE -pie)",
                h->privatize_note);
    else
        fprintf(out, "; --privatize=remap was asked: leave the choice to simpi");
    fprintf(out, ", or model computation (--cpu=ignore with a platform's speeds); "
                 "docs/online.md, \"Global variables\"\n");
}

/* How computation was measured and what the host did meanwhile. */
static void print_host(FILE *out, const struct host_figures *h) {
    if (!h || !h->clock) return;
    fprintf(out,
            "measurement: computation is the CPU time the ranks used, %.6f s, read with the %s "
            "(%llu of %llu readings needed a system call)\n",
            h->cpu, strcmp(h->clock, "task_clock_page") ? "thread CPU clock" : "task clock's page",
            (unsigned long long)h->exact, (unsigned long long)h->readings);
    fprintf(out,
            "  host: other programs took %.6f s of the core during that computation (not "
            "charged)",
            h->elapsed - h->cpu);
    if (h->waited >= 0) fprintf(out, "; simpi waited %.6f s for a core", h->waited);
    if (h->steal >= 0) fprintf(out, "; steal %.6f s", h->steal);
    fprintf(out, "\n");
    if (h->clock_note)
        fprintf(out, "  (the thread CPU clock at every reading: %s)\n", h->clock_note);
    print_privatization(out, h);
    if (h->steal > 0.05 * h->wall && h->steal > 0.01)
        fprintf(out,
                "warning: the hypervisor took %.3f s of this machine's CPUs during the run "
                "(steal time), which no clock inside it sees: the computation may be "
                "overestimated by up to that\n",
                h->steal);
    if (h->workers > 1 && h->waited > 0.1 * h->wall)
        fprintf(out,
                "warning: the %d workers of this split run waited %.3f s for a core, %.0f%% of "
                "their time: this host has fewer free cores than workers, and each window's "
                "exchange waits for a time slice; fewer workers (--procs auto counts the free "
                "cores) may run faster\n",
                h->workers, h->waited, 100 * h->waited / h->wall);
    if (h->runs > 1)
        fprintf(out,
                "repeat: %d runs, predicted time min %.9f s, median %.9f s, max %.9f s (spread "
                "%.2f%%); a rank's compute varied at most %.2f%% (rank %d)\n",
                h->runs, h->predicted_min, h->predicted_median, h->predicted_max,
                h->predicted_median > 0
                    ? 100 * (h->predicted_max - h->predicted_min) / h->predicted_median
                    : 0,
                100 * h->compute_spread, h->spread_rank);
}

/* s as a JSON string, or null. */
static void json_string_or_null(FILE *f, const char *s) {
    if (s)
        escape_json(f, s);
    else
        fputs("null", f);
}

void summary_json_host_object(FILE *f, const struct host_figures *h) {
    fprintf(f, "\"host\": {\"cpu_clock\": ");
    escape_json(f, h->clock);
    fprintf(f, ", \"cpu_clock_note\": ");
    json_string_or_null(f, h->clock_note);
    fprintf(f,
            ", \"clock_readings\": %llu, \"exact_readings\": %llu, \"computation_cpu\": %.9g, "
            "\"computation_elapsed\": %.9g, \"lost_to_other_programs\": %.9g, "
            "\"waited_for_core\": %.9g, \"steal\": %.9g, \"workers\": %d, \"privatize\": ",
            (unsigned long long)h->readings, (unsigned long long)h->exact, h->cpu, h->elapsed,
            h->elapsed - h->cpu, h->waited, h->steal, h->workers);
    json_string_or_null(f, h->privatize);
    fputs(", \"privatize_note\": ", f);
    json_string_or_null(f, h->privatize_note);
    fprintf(f,
            ", \"images\": %d, \"private_bytes\": %lld, \"remap_faults\": %lld, "
            "\"remap_kernel\": %.9g}",
            h->images, (long long)h->privatize_bytes, (long long)h->remap_faults, h->remap_kernel);
}

void summary_json_repeat_object(FILE *f, const struct host_figures *h) {
    fprintf(f,
            "\"repeat\": {\"runs\": %d, \"predicted_min\": %.12g, \"predicted_median\": "
            "%.12g, \"predicted_max\": %.12g, \"compute_spread\": %.9g, "
            "\"compute_spread_rank\": %d}",
            h->runs, h->predicted_min, h->predicted_median, h->predicted_max, h->compute_spread,
            h->spread_rank);
}

/* Only when computation was measured: under --cpu=ignore nothing of the
 * host enters the figures, and the report stays bit-identical. */
static void json_host(FILE *f, const struct host_figures *h) {
    if (!h || !h->clock) return;
    fputs("  ", f);
    summary_json_host_object(f, h);
    fputs(",\n", f);
    if (h->runs > 1) {
        fputs("  ", f);
        summary_json_repeat_object(f, h);
        fputs(",\n", f);
    }
}

static int64_t largest(const int64_t *v, int n) {
    int64_t m = 0;
    for (int i = 0; i < n; i++)
        if (v[i] > m) m = v[i];
    return m;
}

bool summary_memory_hint(int64_t peak, int64_t machine, char *buf, size_t n) {
    if (machine <= 0 || peak < machine / 2) return false;
    char p[32], m[32];
    snprintf(buf, n,
             "this run held %s at its peak, %.0f%% of this machine's %s: the ranks' private "
             "copies of the program's data. Buffers whose contents do not change the "
             "prediction (large work arrays) can be shared by every rank with "
             "SIMPI_SHARED_MALLOC (simpi.h, docs/online.md), and computation kernels "
             "sampled (SIMPI_SAMPLE_LOCAL)",
             units_format_size(peak, p, sizeof p), 100.0 * (double)peak / (double)machine,
             units_format_size(machine, m, sizeof m));
    return true;
}

/* The machine's memory, for the hint above (0: unknown). */
static int64_t machine_memory(void) {
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? (int64_t)pages * page : 0;
}

static void print_simulation(FILE *out, const struct sim *s, const struct run_info *in) {
    double w = in->wall_seconds > 0 ? in->wall_seconds : 1e-9;
    char mem[32], mem2[32];
    fprintf(out,
            "simulation: %.3f s wall, %llu events (%.3g events/s), %lld messages (%.3g "
            "messages/s)",
            in->wall_seconds, (unsigned long long)sim_events(s), (double)sim_events(s) / w,
            (long long)total_messages(s), (double)total_messages(s) / w);
    if (in->records)
        fprintf(out, ", %llu trace records (%.3g records/s)", (unsigned long long)in->records,
                (double)in->records / w);
    fprintf(out, ", peak memory %s", units_format_size(memstat_peak_rss(), mem, sizeof mem));
    if (in->records)
        fprintf(out, " (trace read-ahead %s)",
                units_format_size(in->trace_buffer, mem, sizeof mem));
    struct sim_split_stats sp;
    if (sim_split_stats(s, &sp))
        fprintf(out,
                "; split over %d workers: %lld windows, %lld messages between workers (%s), "
                "%.3f s in exchanges, largest worker's peak memory %s",
                sp.workers, (long long)sp.windows, (long long)sp.messages,
                units_format_size(sp.bytes, mem, sizeof mem), sp.exchange_seconds,
                units_format_size(largest(sp.peak_memory, sp.workers), mem2, sizeof mem2));
    fprintf(out, "\n");
    char hint[512];
    if (in->host && summary_memory_hint(memstat_peak_rss(), machine_memory(), hint, sizeof hint))
        fprintf(out, "hint: %s\n", hint);
}

void summary_print(FILE *out, const struct sim *s, const struct run_info *in) {
    char tb[48];
    int32_t n = sim_size(s);
    bool ideal = in->ideal && strcmp(in->ideal, "none");
    fprintf(out, "simpi: %s on %s%s%s (%d rank%s, %lld node%s)\n", in->what, in->platform,
            ideal ? ", ideal " : "", ideal ? in->ideal : "", n, n == 1 ? "" : "s",
            (long long)in->nodes, in->nodes == 1 ? "" : "s");
    choose_unit(s);
    char counts[256] = "";
    if (in->extrapolated && in->counts_band >= 0)
        snprintf(counts, sizeof counts, ", variable counts +-%.2g%% around their mean",
                 100 * in->counts_band);
    if (in->extrapolated && in->sizes_band >= 0)
        snprintf(counts + strlen(counts), sizeof counts - strlen(counts),
                 ", message sizes +-%.2g%% around their mean", 100 * in->sizes_band);
    if (in->extrapolated && in->iterations_band >= 0)
        snprintf(counts + strlen(counts), sizeof counts - strlen(counts),
                 ", iterations +-%.2g%% from their law", 100 * in->iterations_band);
    if (in->extrapolated && in->aligned_band >= 0)
        snprintf(counts + strlen(counts), sizeof counts - strlen(counts),
                 ", %.2g%% of a scale's segments moved to the largest's order",
                 100 * in->aligned_band);
    if (in->status == SIM_OK && in->extrapolated)
        fprintf(out,
                "predicted execution time: %.6f %s (extrapolated to %d ranks from %d scales: "
                "computation +-%.2g%% from the fits%s)\n",
                sec(summary_predicted(s)) * unit.scale, unit.name, in->extrapolated,
                in->extrapolated_scales, 100 * in->extrapolation_band, counts);
    else if (in->status == SIM_OK)
        fprintf(out, "predicted execution time: %.6f %s\n", sec(summary_predicted(s)) * unit.scale,
                unit.name);
    else if (in->status == SIM_INTERRUPTED || in->status == SIM_TIME_LIMIT)
        fprintf(out,
                "no prediction: the run was %s at virtual time %s (times below are up to it)\n",
                in->status == SIM_INTERRUPTED ? "interrupted" : "stopped at its time limit",
                units_format_time(sim_now(s), tb, sizeof tb));
    else if (in->status == SIM_FAULT)
        fprintf(out,
                "no prediction: the job was ended by a node's crash at virtual time %s "
                "(times below are up to it)\n",
                units_format_time(sim_now(s), tb, sizeof tb));
    else
        fprintf(out, "no prediction: the run stopped with an error (times below are up to it)\n");
    summary_jobs_print(out, s, in, unit.scale, unit.name);
    char head[24];
    snprintf(head, sizeof head, "(times in %s)", unit.name);
    fprintf(out, "  %-12s %12s %12s %12s %12s %10s %14s %12s\n", head, "compute", "p2p",
            "collective", "blocked", "msgs sent", "bytes sent", "finish");
    if (n <= TABLE_MAX_RANKS) {
        for (int32_t i = 0; i < n; i++)
            print_rank(out, s, i);
    } else {
        print_aggregate(out, s);
        print_slowest(out, s);
    }
    int64_t unmatched = sim_unmatched_messages(s);
    if (unmatched)
        fprintf(out, "warning: %lld messages were sent but never received\n", (long long)unmatched);
    int64_t abandoned = sim_abandoned_requests(s);
    if (abandoned)
        fprintf(out,
                "warning: %lld requests were never completed by a wait or test before their rank "
                "finished\n",
                (long long)abandoned);
    print_collectives(out, s);
    print_network(out, s);
    print_faults(out, s);
    if (in->analysis) analysis_print(in->analysis, out);
    print_host(out, in->host);
    print_simulation(out, s, in);
}

static void json_collectives(FILE *f, const struct sim *s) {
    const char *op[16], *algo[16];
    int64_t calls[16];
    int n = sim_collective_counts(s, op, algo, calls, 16);
    fprintf(f, "  \"collectives\": [");
    for (int i = 0; i < n; i++)
        fprintf(f, "%s{\"operation\": \"%s\", \"algorithm\": \"%s\", \"calls\": %lld}",
                i ? ", " : "", op[i], algo[i], (long long)calls[i]);
    fprintf(f, "],\n");
}

void summary_json_busiest(FILE *f, const struct sim *s, int most) {
    struct link_load top[SUMMARY_BUSIEST_MAX];
    if (most > SUMMARY_BUSIEST_MAX) most = SUMMARY_BUSIEST_MAX;
    int n = sim_busiest_links(s, top, most);
    double run = sec(summary_predicted(s));
    for (int i = 0; i < n; i++) {
        char name[160];
        network_link_name(sim_network(s), top[i].link, name, sizeof name);
        fprintf(f, "%s{\"link\": %lld, \"name\": ", i ? ", " : "", (long long)top[i].link);
        escape_json(f, name);
        fprintf(f, ", \"busy\": %.12g, \"bytes\": %.12g, \"utilisation\": %.6g}", top[i].busy,
                top[i].bytes, run > 0 ? top[i].bytes / (top[i].capacity * run) : 0);
    }
    fputs("], \"busiest_interfaces\": [", f);
    struct nic_load nics[SUMMARY_BUSIEST_MAX];
    int k = sim_busiest_interfaces(s, nics, most);
    for (int i = 0; i < k; i++)
        fprintf(f, "%s{\"node\": %d, \"side\": \"%s\", \"busy\": %.12g, \"messages\": %u}",
                i ? ", " : "", nics[i].node, nics[i].ejection ? "ejection" : "injection",
                nics[i].busy, nics[i].messages);
}

static void json_network(FILE *f, const struct sim *s) {
    struct sim_net_stats ns;
    sim_network_stats(s, &ns);
    double m = ns.messages ? (double)ns.messages : 1;
    fprintf(f,
            "  \"network\": {\"messages\": %lld, \"mean_hops\": %.6g, \"mean_transfer_time\": "
            "%.12g, \"mean_before_receive\": %.12g, \"mean_after_receive\": %.12g, "
            "\"busiest_links\": [",
            (long long)ns.messages, ns.hops / m, ns.transfer_seconds / m, ns.early_seconds / m,
            (ns.transfer_seconds - ns.early_seconds) / m);
    summary_json_busiest(f, s, BUSIEST_SHOWN);
    fprintf(f, "]},\n");
}

/* A rank's line is built in a buffer with simtime_format_seconds and
 * written at once: printf's conversion of the times took most of the time
 * of a JSON report of a million ranks (3.3 s of 5.5). The text is the one
 * "%.12g" and "%lld" write. */
static char *put_text(char *p, const char *text) {
    size_t n = strlen(text);
    memcpy(p, text, n);
    return p + n;
}

static char *put_seconds(char *p, simtime_t t) {
    return p + simtime_format_seconds(t, p);
}

static char *put_int(char *p, int64_t v) {
    return p + units_format_int(v, p);
}

static void json_rank(FILE *f, const struct sim *s, int32_t i) {
    const struct rank_stats *st = sim_rank_stats(s, i);
    char line[640], *p = line;
    p = put_int(put_text(p, "    {\"rank\": "), i);
    p = put_seconds(put_text(p, ", \"compute\": "), st->compute);
    p = put_seconds(put_text(p, ", \"p2p\": "), st->p2p);
    p = put_seconds(put_text(p, ", \"collective\": "), st->coll);
    p = put_seconds(put_text(p, ", \"blocked\": "), st->blocked);
    p = put_seconds(put_text(p, ", \"finish\": "), st->finish);
    p = put_int(put_text(p, ", \"messages_sent\": "), st->msgs_sent);
    p = put_int(put_text(p, ", \"bytes_sent\": "), st->bytes_sent);
    p = put_int(put_text(p, ", \"messages_received\": "), st->msgs_recv);
    p = put_int(put_text(p, ", \"bytes_received\": "), st->bytes_recv);
    p = put_text(p, "}");
    fwrite(line, 1, (size_t)(p - line), f);
}

/* A split run's costs and each worker's memory (sim_split_stats). */
static void json_split(FILE *f, const struct sim *s) {
    struct sim_split_stats sp;
    if (!sim_split_stats(s, &sp)) return;
    fprintf(f,
            ", \"split\": {\"workers\": %d, \"windows\": %lld, \"messages\": %lld, "
            "\"bytes\": %lld, \"exchange_seconds\": %.6f, \"worker_memory\": [",
            sp.workers, (long long)sp.windows, (long long)sp.messages, (long long)sp.bytes,
            sp.exchange_seconds);
    for (int i = 0; i < sp.workers; i++)
        fprintf(f, "%s{\"peak_memory\": %lld, \"rank_tables\": %lld}", i ? ", " : "",
                (long long)sp.peak_memory[i], (long long)sp.rank_tables[i]);
    fprintf(f, "]}");
}

bool summary_write_json(const char *path, const struct sim *s, const struct run_info *in,
                        struct sim_error *err) {
    struct outfile out;
    if (!outfile_open(&out, path, err)) return false;
    FILE *f = out.f;
    static const char *const status[] = {[SIM_OK] = "ok",
                                         [SIM_DEADLOCK] = "deadlock",
                                         [SIM_APP_ERROR] = "error",
                                         [SIM_INPUT_ERROR] = "error",
                                         [SIM_INTERRUPTED] = "interrupted",
                                         [SIM_TIME_LIMIT] = "time_limit",
                                         [SIM_FAULT] = "node_failure"};
    fprintf(f,
            "{\n  \"predicted_time\": %.12g,\n  \"end_time\": %.12g,\n  \"status\": \"%s\",\n  "
            "\"partial\": %s,\n  \"exit_status\": %d,\n  \"input\": ",
            in->status == SIM_OK ? sec(summary_predicted(s)) : -1.0,
            sec(summary_end(s, in->status)), status[in->status],
            in->status == SIM_OK ? "false" : "true", in->exit_status);
    escape_json(f, in->what);
    fprintf(f, ",\n  \"platform\": ");
    escape_json(f, in->platform);
    fprintf(f, ",\n  \"ideal\": ");
    escape_json(f, in->ideal ? in->ideal : "none");
    if (in->extrapolated)
        fprintf(f,
                ",\n  \"extrapolated\": {\"ranks\": %d, \"scales\": %d, \"computation_band\": "
                "%.6g",
                in->extrapolated, in->extrapolated_scales, in->extrapolation_band);
    if (in->extrapolated && in->counts_band >= 0)
        fprintf(f, ", \"counts_band\": %.6g", in->counts_band);
    if (in->extrapolated && in->sizes_band >= 0)
        fprintf(f, ", \"sizes_band\": %.6g", in->sizes_band);
    if (in->extrapolated && in->aligned_band >= 0)
        fprintf(f, ", \"aligned_band\": %.6g", in->aligned_band);
    if (in->extrapolated && in->iterations_band >= 0)
        fprintf(f, ", \"iterations_band\": %.6g", in->iterations_band);
    if (in->extrapolated) fprintf(f, "}");
    fprintf(f, ",\n  \"error\": ");
    escape_json(f, sim_failure_report(s));
    fprintf(f, ",\n  \"ranks\": [\n");
    for (int32_t i = 0; i < sim_size(s); i++) {
        json_rank(f, s, i);
        fprintf(f, i + 1 < sim_size(s) ? ",\n" : "\n");
    }
    double w = in->wall_seconds;
    struct sim_memory m;
    sim_memory_usage(s, &m);
    fprintf(f, "  ],\n");
    summary_jobs_json(f, s, in);
    json_collectives(f, s);
    json_network(f, s);
    json_faults(f, s);
    json_host(f, in->host);
    if (in->analysis) analysis_json(in->analysis, f);
    fprintf(f,
            "  \"simulation\": {\"wall_time\": %.6f, \"records\": %llu, \"events\": %llu, "
            "\"messages\": %lld, \"unmatched_messages\": %lld, \"peak_memory\": %lld, "
            "\"trace_buffer_peak\": %lld, \"rank_state\": %lld, \"requests_peak\": %lld, "
            "\"schedules_peak\": %lld, \"event_queue_peak\": %lld, \"rank_tables\": %lld, "
            "\"context_switches\": %llu",
            w, (unsigned long long)in->records, (unsigned long long)sim_events(s),
            (long long)total_messages(s), (long long)sim_unmatched_messages(s),
            (long long)memstat_peak_rss(), (long long)in->trace_buffer, (long long)m.rank_state,
            (long long)m.requests_peak, (long long)m.schedules_peak, (long long)m.events_peak,
            (long long)ranktable_resident_all(), (unsigned long long)in->context_switches);
    json_split(f, s);
    fprintf(f, "}\n}\n");
    return outfile_commit(&out, err);
}

bool summary_write_failure_json(const char *path, const char *what, int exit_status,
                                const char *reason, struct sim_error *err) {
    struct outfile out;
    if (!outfile_open(&out, path, err)) return false;
    fprintf(out.f,
            "{\n  \"predicted_time\": -1,\n  \"status\": \"error\",\n  \"partial\": true,\n  "
            "\"exit_status\": %d,\n  \"input\": ",
            exit_status);
    escape_json(out.f, what ? what : "");
    fprintf(out.f, ",\n  \"error\": ");
    escape_json(out.f, reason);
    fprintf(out.f, ",\n  \"ranks\": []\n}\n");
    return outfile_commit(&out, err);
}
