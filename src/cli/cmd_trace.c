/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi trace -o DIR -- COMMAND...`: runs a real MPI program (usually
 * through mpirun) with the PMPI tracer preloaded (libsimpi-trace.so, found
 * beside simpi: ./lib or ../lib), so that each rank writes DIR/rank<R>.trace;
 * then checks the trace and says how to replay it (docs/interop.md). */
#define _GNU_SOURCE /* memmem */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/rankdir.h"

/* Rank 0's note on instruction counting ("# instructions ..."), shown to
 * the user: whether its bursts carry instruction counts, or why not. */
static void print_instruction_note(const char *dir) {
    char path[PATH_MAX + 32], line[512];
    snprintf(path, sizeof path, "%s/rank0.trace", dir);
    FILE *f = fopen(path, "r");
    for (int i = 0; f && i < 4 && fgets(line, sizeof line, f); i++)
        if (!strncmp(line, "# instructions", 14)) fprintf(stderr, "simpi trace: %s", line + 2);
    if (f) fclose(f);
}

static int count_rank_files(const char *dir) {
    int n = 0;
    char path[PATH_MAX + 32];
    for (;; n++) {
        snprintf(path, sizeof path, "%s/rank%d.trace", dir, n);
        if (access(path, R_OK) != 0) return n;
    }
}

/* Whether a rank's file ends with the tracer's end line (written at
 * MPI_Finalize). If not, a cut last line is dropped and the file ends
 * with an `incomplete` record, which replay refuses. */
static bool check_complete(const char *path, int rank, bool *ended_early) {
    static const char end[] = "# end of trace\n";
    FILE *f = fopen(path, "r+");
    if (!f) return false;
    char tail[256];
    long size = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    long from = size > (long)sizeof tail ? size - (long)sizeof tail : 0;
    size_t got = size > 0 && fseek(f, from, SEEK_SET) == 0 ? fread(tail, 1, sizeof tail, f) : 0;
    bool complete =
        got >= sizeof end - 1 && !memcmp(tail + got - (sizeof end - 1), end, sizeof end - 1);
    /* the tracer's own mark: calls it left out (just before the end line) */
    const char *left = complete ? memmem(tail, got, " incomplete # ", 14) : NULL;
    if (left) {
        const char *why = left + 14, *eol = memchr(why, '\n', (size_t)(tail + got - why));
        fprintf(stderr,
                "simpi trace: rank %d: %.*s; its trace is marked incomplete (replay "
                "refuses it)\n",
                rank, eol ? (int)(eol - why) : 0, why);
        complete = false;
    }
    *ended_early = !complete && !left;
    if (!complete && !left) {
        long keep = from + (long)got; /* up to the last whole line */
        while (keep > from && tail[keep - from - 1] != '\n')
            keep--;
        if (keep == from && from > 0) keep = size; /* a line longer than the tail: keep it */
        fflush(f);
        if (ftruncate(fileno(f), keep) == 0 && fseek(f, 0, SEEK_END) == 0)
            fprintf(f, "%s%d incomplete # the traced process ended before MPI_Finalize\n",
                    keep == 0 ? "simpi-trace 1\n" : "", rank);
    }
    fclose(f);
    return complete;
}

/* Runs the launcher with the tracer preloaded, writing into folder; its
 * exit status as a shell gives it. */
static int run_traced(char **cmd, const char *lib, const char *folder) {
    const char *pre = getenv("LD_PRELOAD");
    char *preload = xcalloc(strlen(lib) + (pre ? strlen(pre) : 0) + 2, 1);
    sprintf(preload, "%s%s%s", lib, pre && *pre ? ":" : "", pre && *pre ? pre : "");
    setenv("LD_PRELOAD", preload, 1);
    setenv("SIMPI_TRACE_DIR", folder, 1);
    free(preload);
    cli_pass_signals(true); /* so that mpirun stops its ranks (child.c) */
    fflush(NULL);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        cli_child_dies_with_parent(parent);
        cli_pass_signals(false);
        execvp(cmd[0], cmd);
        fprintf(stderr, "simpi trace: cannot run '%s': %s\n", cmd[0], strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (pid > 0 && waitpid(pid, &status, 0) < 0 && errno == EINTR)
        cli_pass_pending_signal(pid);
    unsetenv("LD_PRELOAD");
    if (pid < 0) {
        fprintf(stderr, "simpi trace: cannot run '%s': %s\n", cmd[0], strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/* Marks the traces of ranks that ended early; returns how many did. */
static int mark_incomplete(const char *folder, int n) {
    int bad = 0;
    char path[PATH_MAX + 32];
    for (int r = 0; r < n; r++) {
        snprintf(path, sizeof path, "%s/rank%d.trace", folder, r);
        bool ended_early = false;
        if (check_complete(path, r, &ended_early)) continue;
        if (ended_early)
            fprintf(stderr,
                    "simpi trace: rank %d ended before MPI_Finalize: its trace is incomplete and "
                    "marked so (replay refuses it)\n",
                    r);
        bad++;
    }
    return bad;
}

int cmd_trace(int argc, char **argv) {
    const char *dir = NULL, *clock = "wall";
    static const char *const clocks[] = {"wall", "cpu", NULL};
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc)
            dir = argv[++i];
        else if (!strcmp(argv[i], "--clock") && i + 1 < argc) {
            if (!(clock = cli_enum_value("trace: --clock", argv[++i], clocks))) return EXIT_USAGE;
        } else
            break;
    }
    if (i < argc && !strcmp(argv[i], "--")) i++;
    if (!dir || i >= argc) {
        fprintf(
            stderr,
            "usage: simpi trace -o DIR [--clock wall|cpu] -- mpirun -np N ./program [args...]\n");
        return EXIT_USAGE;
    }
    setenv("SIMPI_TRACE_CLOCK", clock, 1);
    char lib[PATH_MAX];
    if (!cli_find_helper("libsimpi-trace.so", "SIMPI_TRACE_LIB", R_OK, lib, sizeof lib)) {
        fprintf(stderr, "simpi trace: libsimpi-trace.so not found beside simpi (it is built when "
                        "an MPI such as Open MPI is installed: scripts/install-deps)\n");
        return EXIT_INPUT_ERROR;
    }
    struct rankdir out;
    struct sim_error err = {0};
    char stage[PATH_MAX];
    if (!rankdir_begin(&out, dir, "simpi trace -o", &err) || !realpath(out.stage, stage)) {
        if (!err.msg[0]) snprintf(err.msg, sizeof err.msg, "%s: %s", dir, strerror(errno));
        fprintf(stderr, "simpi trace: %s\n", err.msg);
        return EXIT_INPUT_ERROR;
    }
    int rc = run_traced(argv + i, lib, stage);
    int n = count_rank_files(stage);
    if (n == 0) {
        rankdir_abandon(&out, 0);
        fprintf(stderr,
                "simpi trace: no rank wrote a trace in %s (was the program an MPI program "
                "run by a launcher on this machine?)\n",
                dir);
        return rc ? rc : EXIT_INPUT_ERROR;
    }
    int bad = mark_incomplete(stage, n);
    if (!rankdir_commit(&out, n, &err)) {
        fprintf(stderr, "simpi trace: %s\n", err.msg);
        return rc ? rc : EXIT_INPUT_ERROR;
    }
    if (bad)
        fprintf(stderr, "simpi trace: %d rank trace(s) in %s, %d of them incomplete\n", n, dir,
                bad);
    else
        fprintf(stderr, "simpi trace: %d rank trace(s) in %s; replay with: simpi replay %s\n", n,
                dir, dir);
    print_instruction_note(dir);
    return rc ? rc : bad ? EXIT_INPUT_ERROR : 0;
}
