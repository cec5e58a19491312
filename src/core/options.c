/* SPDX-License-Identifier: BSD-3-Clause */
/* The table of simpi run's and simpi replay's options (the one place an
 * option is declared, options.h), and the block that hands a set of them
 * to the program's runtime. */
#include "core/options.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "core/digest.h"

#define RR (OPT_RUN | OPT_REPLAY)

static const char *const cpu_modes[] = {"measure", "ignore", NULL};
static const char *const cpu_clocks[] = {"auto", "thread", NULL};
static const char *const thread_cores[] = {"one", "all", NULL};
static const char *const check_levels[] = {"off", "default", "full", NULL};
static const char *const progress_modes[] = {"auto", "always", "never", NULL};
static const char *const placements[] = {"block", "cyclic", NULL};
static const char *const trace_formats[] = {"native", "binary", "otf2", NULL};
static const char *const privatize_modes[] = {"images", "copy", "remap", NULL};
/* for completion: --ideal takes a list of these, --with-ft checks its own */
static const char *const ideal_modes[] = {"none", "network", "cpu", "network+cpu", NULL};
static const char *const with_ft_modes[] = {"ulfm", NULL};

static const struct option_decl table[] = {
    {.name = "np",
     .spelled = "-n,-np",
     .arg = "N",
     .check = CHECK_RANKS,
     .commands = OPT_RUN,
     .help = "number of ranks (required)"},
    {.name = "jobs",
     .spelled = "--jobs",
     .arg = "FILE",
     .commands = OPT_REPLAY,
     .help = "jobs side by side (YAML): per job its trace, start time and nodes (a list) or "
             "placement (contiguous, random with the file's seed, round_robin over dragonfly "
             "groups or fat-tree leaves); docs/jobs.md"},
    {.name = "no-alone",
     .spelled = "--no-alone",
     .commands = OPT_REPLAY,
     .help = "jobs without their runs alone (no slowdowns: faster)"},
    {.name = "platform",
     .spelled = "--platform,-p",
     .arg = "FILE",
     .commands = RR,
     .help = "platform description (YAML, layered over the built-in platform); default: the "
             "built-in platform"},
    {.name = "set",
     .spelled = "--set",
     .arg = "KEY=VALUE",
     .repeatable = true,
     .check = CHECK_SET,
     .commands = RR,
     .help = "change one platform key, e.g. inter.latency=2us (any number); KEY=V1,V2,... "
             "sweeps: one simulation per value (several: the cross product), then one table of "
             "predictions (JSON: an array)"},
    {.name = "fault",
     .spelled = "--fault",
     .arg = "SPEC",
     .repeatable = true,
     .check = CHECK_FAULT,
     .commands = RR,
     .help = "one more fault (docs/faults.md), as a faults: entry: at=1.5ms,node=12,kind=crash "
             "or {at: 2ms, link: [3, 4], kind: down, until: 2.5ms} or "
             "kind=random,target=nodes,mtbf=10h,seed=42 (any number)"},
    {.name = "with-ft",
     .spelled = "--with-ft",
     .arg = "ulfm",
     .values = with_ft_modes,
     .check = CHECK_WITH_FT,
     .commands = RR,
     .help = "a failed process does not end the job (mpiexec's option, User-Level Failure "
             "Mitigation): operations that involve it fail on their own communicator "
             "(docs/faults.md)"},
    {.name = "seeds",
     .spelled = "--seeds",
     .arg = "N",
     .check = CHECK_SEEDS,
     .commands = RR,
     .help = "sweep fault_seed over 1..N: one simulation per draw, and the distribution of the "
             "times the job ended (mean, quantiles)",
     .replay_help = "sweep fault_seed over 1..N: one replay per draw, and the distribution of "
                    "the times the job ended (mean, quantiles); of jobs placed at random, each "
                    "draw places them anew and each job's slowdown gets its distribution"},
    {.name = "ideal",
     .spelled = "--ideal",
     .arg = "WHAT",
     .values = ideal_modes,
     .check = CHECK_IDEAL,
     .commands = RR,
     .help = "what-ifs: network (messages cost nothing: no latency, no time on the wire, no "
             "contention, no MPI overheads), cpu (computation costs nothing) or network+cpu; a "
             "list sweeps them (--ideal none,network); platform key ideal"},
    {.name = "sensitivity",
     .spelled = "--sensitivity",
     .arg = "F",
     .check = CHECK_FACTOR,
     .commands = OPT_REPLAY,
     .help = "how much each parameter moves the prediction: the trace replayed with every "
             "latency, every bandwidth, the MPI overheads and the speed each times F alone "
             "(platform key scale); a table, and --json's document"},
    {.name = "extrapolate",
     .spelled = "--extrapolate",
     .arg = "N",
     .check = CHECK_RANKS,
     .commands = OPT_REPLAY,
     .help = "the TRACEs are one program at two or more scales: replay it at N ranks, as "
             "`simpi extrapolate` extends them, each rank's records generated as the replay "
             "needs them (no file: docs/extrapolation.md); how well its computation fits "
             "its laws is said"},
    {.name = "json",
     .spelled = "--json",
     .arg = "FILE",
     .commands = RR,
     .help = "write the results as JSON (- for stdout), atomically"},
    {.name = "report",
     .spelled = "--report",
     .arg = "FILE.html",
     .commands = RR,
     .help = "a self-contained HTML report: intervals, per-rank bars, timeline, communication "
             "matrix (docs/analysis.md); of a sweep, its charts, each point's report in "
             "FILE-points/"},
    {.name = "paraver",
     .spelled = "--paraver",
     .arg = "PREFIX",
     .commands = RR,
     .help = "a Paraver trace: PREFIX.prv, PREFIX.pcf, PREFIX.row"},
    {.name = "chrome",
     .spelled = "--chrome",
     .arg = "FILE.json",
     .commands = RR,
     .help = "a Chrome/Perfetto trace (Trace Event Format)"},
    {.name = "otf2",
     .spelled = "--otf2",
     .arg = "DIR",
     .commands = RR,
     .help = "the simulated timeline as an OTF2 archive (DIR/traces.otf2, a new folder) for "
             "Vampir and the OTF2 tools"},
    {.name = "timeline-ranks",
     .spelled = "--timeline-ranks",
     .arg = "LIST",
     .check = CHECK_RANK_LIST,
     .commands = RR,
     .help = "the report's timeline ranks (0,4,8-11; default: the slowest and a sample)"},
    {.name = "critical-path",
     .spelled = "--critical-path",
     .commands = RR,
     .help = "the chain of bursts, waits and messages that ends at the prediction, by "
             "computation, latency, transfer and waiting (summary and JSON; --report draws it "
             "on the timeline)"},
    {.name = "trace-out",
     .spelled = "--trace-out",
     .arg = "DIR",
     .commands = OPT_RUN,
     .help = "also record the run as a trace (DIR/rank<R>.trace) that `simpi replay DIR` "
             "replays on any platform; a name ending in .sbt gets the binary form "
             "(docs/trace-format.md)"},
    {.name = "trace-format",
     .spelled = "--trace-format",
     .values = trace_formats,
     .check = CHECK_ENUM,
     .commands = OPT_RUN,
     .help = "the form of --trace-out (default: by its name); otf2: an OTF2 archive in the new "
             "folder DIR (DIR/traces.otf2), as Score-P writes (docs/interop.md)"},
    {.name = "cpu",
     .spelled = "--cpu",
     .values = cpu_modes,
     .check = CHECK_ENUM,
     .commands = OPT_RUN,
     .help = "charge the measured computation (default) or none (deterministic runs); "
             "measured: the CPU time each rank used, whatever else the host runs "
             "(docs/online.md)"},
    {.name = "cpu-clock",
     .spelled = "--cpu-clock",
     .values = cpu_clocks,
     .check = CHECK_ENUM,
     .commands = OPT_RUN,
     .help = "read that CPU time through the task clock's page, a system call once per time "
             "slice (auto), or the thread CPU clock at every burst"},
    {.name = "repeat",
     .spelled = "--repeat",
     .arg = "N",
     .check = CHECK_REPEATS,
     .commands = OPT_RUN,
     .help = "run the program N times; report the predicted time's min, median and max and "
             "each rank's compute spread"},
    {.name = "thread-cores",
     .spelled = "--thread-cores",
     .values = thread_cores,
     .check = CHECK_ENUM,
     .commands = OPT_RUN,
     .help = "the program's threads run on one core of this machine, each measured alone "
             "(default), or on all its cores (docs/hybrid.md)"},
    {.name = "host-speed",
     .spelled = "--host-speed",
     .arg = "RATE",
     .commands = OPT_RUN,
     .help = "this machine's flop rate (e.g. 20Gf) when the platform's speed is a flop rate; "
             "`simpi calibrate-host` measures it"},
    {.name = "stack-size",
     .spelled = "--stack-size",
     .arg = "SIZE",
     .commands = OPT_RUN,
     .help = "each rank's stack (default 8MiB, reduced beyond 8,192 ranks; committed lazily)"},
    {.name = "no-privatize",
     .spelled = "--no-privatize",
     .fixed = "0",
     .stored = "privatize",
     .commands = OPT_RUN,
     .help = "let all ranks share the program's globals (by default each rank has its own, as "
             "separate processes would)"},
    {.name = "privatize",
     .spelled = "--privatize",
     .arg = "MODE",
     .optional_value = true,
     .fixed = "1",
     .values = privatize_modes,
     .check = CHECK_ENUM,
     .commands = OPT_RUN,
     .help = "privatize even when no globals were found; =MODE: images (each rank in its own "
             "image of the program, the default above 64 KiB of globals), copy (copied at each "
             "switch, below) or remap (the fallback: page faults)"},
    {.name = "check",
     .spelled = "--check",
     .values = check_levels,
     .check = CHECK_ENUM,
     .commands = OPT_RUN,
     .help = "how much of the program's MPI use is checked: handles, buffers, collective calls "
             "agreeing across ranks (default); also send/receive type signatures (full); "
             "docs/checking.md"},
    {.name = "time-limit",
     .spelled = "--time-limit",
     .arg = "TIME",
     .check = CHECK_TIME,
     .commands = RR,
     .help = "stop when virtual time would pass TIME (exit 124)"},
    {.name = "wall-limit",
     .spelled = "--wall-limit",
     .arg = "TIME",
     .check = CHECK_TIME,
     .commands = RR,
     .help = "stop after TIME of wall-clock time (exit 124)"},
    {.name = "progress",
     .spelled = "--progress",
     .values = progress_modes,
     .check = CHECK_ENUM,
     .commands = RR,
     .help = "a self-erasing status line on stderr for runs longer than a second (auto: when "
             "stderr is a terminal)",
     .replay_help = "a self-erasing status line on stderr for runs longer than a second (auto: "
                    "when stderr is a terminal), with the share of the trace read and the time "
                    "left"},
    {.name = "procs",
     .spelled = "--procs,-j",
     .arg = "K",
     .check = CHECK_PROCS,
     .commands = RR,
     .help = "split the ranks over K worker processes by node (auto: the cores free of other "
             "programs' work): their computation runs on K cores; the results are one "
             "process's (docs/parallel.md); fewer when other programs keep cores busy, said on "
             "stderr",
     .replay_help = "split the ranks over K worker processes by node (auto: the cores free of "
                    "other programs' work); prints what one process prints (docs/parallel.md: "
                    "what is exact, what is refused); under mpirun or srun, the launcher's "
                    "processes are the workers (fewer when other programs keep cores busy, "
                    "said on stderr)"},
    {.name = "procs-exact",
     .spelled = "--procs-exact",
     .commands = RR,
     .help = "K workers even on a busy host"},
    {.name = "placement",
     .spelled = "--placement",
     .values = placements,
     .check = CHECK_ENUM,
     .commands = RR,
     .help = "nodes to workers in blocks (default) or in turn"},
    {.name = "quiet", .spelled = "-q,--quiet", .commands = RR, .help = "no summary"},
    /* handed to the program's runtime by simpi run, never typed */
    {.name = "command", .commands = OPT_HANDOVER, .help = "simpi run's command line"},
    {.name = "done-fd", .commands = OPT_HANDOVER, .help = "told when the report is out"},
    {.name = "transport-helper", .commands = OPT_HANDOVER, .help = "simpi-transport's path"},
    {.name = "repeat-dir", .commands = OPT_HANDOVER, .help = "--repeat's figures' folder"},
    {.name = "repeat-run", .commands = OPT_HANDOVER, .help = "this run's index in --repeat"},
    {.name = "repeat-runs", .commands = OPT_HANDOVER, .help = "--repeat's count"},
};

enum { NTABLE = sizeof table / sizeof table[0] };

const struct option_decl *options_table(int *n) {
    *n = NTABLE;
    return table;
}

/* Whether word is one of the comma-separated spellings. */
static bool spelled_as(const char *spelled, const char *word) {
    size_t n = strlen(word);
    for (const char *s = spelled; s && *s;) {
        size_t len = strcspn(s, ",");
        if (len == n && !strncmp(s, word, n)) return true;
        s += len + (s[len] == ',');
    }
    return false;
}

/* The declaration whose key is name, or NULL. */
static const struct option_decl *by_key(const char *name) {
    for (int i = 0; i < NTABLE; i++)
        if (!strcmp(table[i].name, name)) return &table[i];
    return NULL;
}

const struct option_decl *options_find(const char *name) {
    for (int i = 0; i < NTABLE; i++)
        if (!strcmp(table[i].name, name) || spelled_as(table[i].spelled, name)) return &table[i];
    return NULL;
}

static const struct option_decl *declared(const char *name) {
    const struct option_decl *d = by_key(name);
    if (!d) {
        char msg[200];
        snprintf(msg, sizeof msg, "internal error: option '%s' is not declared (core/options.c)",
                 name);
        err_fatal(msg);
    }
    return d;
}

void optset_add(struct option_set *s, const char *name, const char *value) {
    s->v = xrealloc_or_die(s->v, sizeof *s->v * (size_t)(s->n + 1));
    s->v[s->n].decl = declared(name);
    s->v[s->n++].value = xstrdup(value);
}

void optset_put(struct option_set *s, const char *name, const char *value) {
    const struct option_decl *d = declared(name);
    int kept = 0;
    for (int i = 0; i < s->n; i++) {
        if (s->v[i].decl == d)
            free(s->v[i].value);
        else
            s->v[kept++] = s->v[i];
    }
    s->n = kept;
    if (value) optset_add(s, name, value);
}

const char *optset_get(const struct option_set *s, const char *name) {
    const struct option_decl *d = declared(name);
    for (int i = s->n - 1; i >= 0; i--)
        if (s->v[i].decl == d) return s->v[i].value;
    return NULL;
}

char *optset_join(const struct option_set *s, const char *name, char sep) {
    const struct option_decl *d = declared(name);
    size_t len = 1;
    for (int i = 0; i < s->n; i++)
        if (s->v[i].decl == d) len += strlen(s->v[i].value) + 1;
    char *out = xmalloc(len), *at = out;
    *at = '\0';
    for (int i = 0; i < s->n; i++)
        if (s->v[i].decl == d) {
            if (at != out) *at++ = sep;
            at = stpcpy(at, s->v[i].value);
        }
    return out;
}

void optset_copy(struct option_set *to, const struct option_set *from) {
    *to = (struct option_set){0};
    for (int i = 0; i < from->n; i++)
        optset_add(to, from->v[i].decl->name, from->v[i].value);
}

void optset_free(struct option_set *s) {
    for (int i = 0; i < s->n; i++)
        free(s->v[i].value);
    free(s->v);
    *s = (struct option_set){0};
}

/* The table's digest: a block written by a simpi whose options differ is
 * refused rather than misread. */
static uint64_t table_digest(void) {
    uint64_t h = DIGEST_START;
    for (int i = 0; i < NTABLE; i++) {
        h = digest_string(h, table[i].name);
        h = digest_bytes(h, &table[i].commands, sizeof table[i].commands);
    }
    return h;
}

#define BLOCK_HEADER "simpi-options 1 "

char *optset_encode(const struct option_set *s) {
    size_t len = strlen(BLOCK_HEADER) + 18;
    for (int i = 0; i < s->n; i++)
        len += strlen(s->v[i].decl->name) + 2 * strlen(s->v[i].value) + 2;
    char *out = xmalloc(len + 1), *at = out;
    at += sprintf(at, BLOCK_HEADER "%016" PRIx64 "\n", table_digest());
    for (int i = 0; i < s->n; i++) {
        at = stpcpy(at, s->v[i].decl->name);
        *at++ = '=';
        for (const char *c = s->v[i].value; *c; c++) {
            if (*c == '\\' || *c == '\n') *at++ = '\\';
            *at++ = *c == '\n' ? 'n' : *c;
        }
        *at++ = '\n';
    }
    *at = '\0';
    return out;
}

/* One name=value line (escapes undone) added to s; false with why. */
static bool decode_line(const char *line, size_t n, int lineno, struct option_set *s,
                        struct sim_error *err) {
    const char *eq = memchr(line, '=', n);
    if (!eq)
        return err_set(err, "%s line %d: expected name=value, found '%.*s'", OPTIONS_VARIABLE,
                       lineno, (int)(n > 60 ? 60 : n), line);
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(eq - line), line);
    if (!by_key(name))
        return err_set(err, "%s line %d: unknown option '%s'", OPTIONS_VARIABLE, lineno, name);
    char *value = xmalloc(n), *at = value;
    for (const char *c = eq + 1; c < line + n; c++) {
        if (*c == '\\' && c + 1 < line + n) {
            c++;
            *at++ = *c == 'n' ? '\n' : *c;
        } else {
            *at++ = *c;
        }
    }
    *at = '\0';
    optset_add(s, name, value);
    free(value);
    return true;
}

bool optset_decode(const char *block, struct option_set *s, struct sim_error *err) {
    *s = (struct option_set){0};
    size_t hn = strlen(BLOCK_HEADER);
    char digest[17];
    snprintf(digest, sizeof digest, "%016" PRIx64, table_digest());
    if (strncmp(block, BLOCK_HEADER, hn) != 0 || strlen(block) < hn + 16 || block[hn + 16] != '\n')
        return err_set(err, "%s is not a block of simpi run's options", OPTIONS_VARIABLE);
    if (strncmp(block + hn, digest, 16) != 0)
        return err_set(err,
                       "%s was written by a simpi whose options differ from this program's "
                       "runtime: run it with the simpi it was built with, or rebuild it with "
                       "this one's simpicc",
                       OPTIONS_VARIABLE);
    int lineno = 1;
    for (const char *line = block + hn + 17; *line;) {
        size_t n = strcspn(line, "\n");
        if (!decode_line(line, n, ++lineno, s, err)) {
            optset_free(s);
            return false;
        }
        line += n + (line[n] == '\n');
    }
    return true;
}
