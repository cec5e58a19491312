/* `simpi trace -o DIR -- COMMAND...`: runs a real MPI program (usually
 * through mpirun) with the PMPI tracer preloaded (libsimpi-trace.so, found
 * beside simpi: ./lib or ../lib), so that each rank writes DIR/rank<R>.trace;
 * then checks the trace and says how to replay it (docs/interop.md). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/pool.h"

/* The tracer library: beside the simpi binary (build tree: lib/; installed:
 * ../lib/), or SIMPI_TRACE_LIB. */
static bool find_tracer(char *path, size_t n) {
    const char *env = getenv("SIMPI_TRACE_LIB");
    if (env) {
        snprintf(path, n, "%s", env);
        return access(path, R_OK) == 0;
    }
    char self[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len <= 0) return false;
    self[len] = 0;
    char *slash = strrchr(self, '/');
    if (slash) *slash = 0;
    static const char *const rel[] = {"lib", "../lib"};
    for (size_t i = 0; i < 2; i++) {
        snprintf(path, n, "%s/%s/libsimpi-trace.so", self, rel[i]);
        if (access(path, R_OK) == 0) return true;
    }
    return false;
}

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

int cmd_trace(int argc, char **argv) {
    const char *dir = NULL;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--"); i++) {
        if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--output")) && i + 1 < argc)
            dir = argv[++i];
        else
            break;
    }
    if (i < argc && !strcmp(argv[i], "--")) i++;
    if (!dir || i >= argc) {
        fprintf(stderr, "usage: simpi trace -o DIR -- mpirun -np N ./program [args...]\n");
        return EXIT_USAGE;
    }
    char lib[PATH_MAX];
    if (!find_tracer(lib, sizeof lib)) {
        fprintf(stderr, "simpi trace: libsimpi-trace.so not found beside simpi (it is built when "
                        "an MPI such as Open MPI is installed: scripts/install-deps)\n");
        return EXIT_INPUT_ERROR;
    }
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        fprintf(stderr, "simpi trace: cannot create %s: %s\n", dir, strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    char abs[PATH_MAX];
    if (!realpath(dir, abs)) {
        fprintf(stderr, "simpi trace: %s: %s\n", dir, strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    for (int r = 0;; r++) { /* stale files of an earlier trace */
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/rank%d.trace", abs, r);
        if (unlink(path) != 0) break;
    }
    const char *pre = getenv("LD_PRELOAD");
    char *preload = xcalloc(strlen(lib) + (pre ? strlen(pre) : 0) + 2, 1);
    sprintf(preload, "%s%s%s", lib, pre && *pre ? ":" : "", pre && *pre ? pre : "");
    setenv("LD_PRELOAD", preload, 1);
    setenv("SIMPI_TRACE_DIR", abs, 1);
    free(preload);
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[i], argv + i);
        fprintf(stderr, "simpi trace: cannot run '%s': %s\n", argv[i], strerror(errno));
        _exit(127);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) < 0) {
        fprintf(stderr, "simpi trace: cannot run '%s': %s\n", argv[i], strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    int n = count_rank_files(abs);
    if (n == 0) {
        fprintf(stderr,
                "simpi trace: no rank wrote a trace in %s (was the program an MPI program "
                "run by a launcher on this machine?)\n",
                abs);
        return rc ? rc : EXIT_INPUT_ERROR;
    }
    fprintf(stderr, "simpi trace: %d rank trace(s) in %s; replay with: simpi replay %s\n", n, dir,
            dir);
    print_instruction_note(abs);
    return rc;
}
