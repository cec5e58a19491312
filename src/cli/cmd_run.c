/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi run -n N [options] ./app args...`: runs a program built with
 * simpicc as N simulated ranks. The settings travel to the program's runtime
 * in SIMPI_* environment variables; the program's own output is untouched and
 * simpi's summary goes to stderr (or --json). */
#define _GNU_SOURCE /* memmem */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "core/pool.h"
#include "core/rankfile.h"
#include "replay/trace_bin.h"
#include "report/analysis.h"
#include "report/summary.h"

static void usage(FILE *out) {
    fprintf(out,
            "usage: simpi run -n N [--platform FILE] [--set KEY=VALUE]... [--json FILE] [-q]\n"
            "                 [--cpu=measure|ignore] [--cpu-clock=auto|thread] [--repeat N]\n"
            "                 [--thread-cores=one|all] [--host-speed RATE]\n"
            "                 [--stack-size SIZE] [--privatize[=MODE]|--no-privatize]\n"
            "                 [--check off|default|full]\n"
            "                 [--report FILE.html] [--procs K|auto]\n"
            "                 [--paraver PREFIX] [--chrome FILE.json] [--trace-out DIR|FILE.sbt]\n"
            "                 [--trace-format native|binary|otf2] [--otf2 DIR]\n"
            "                 ./program [args...]\n");
}

/* Options with a value: "--opt v" or "--opt=v". Returns the value or NULL. */
static const char *value_of(const char *name, int argc, char **argv, int *i) {
    size_t n = strlen(name);
    if (strncmp(argv[*i], name, n) != 0) return NULL;
    if (argv[*i][n] == '=') return argv[*i] + n + 1;
    if (argv[*i][n] == '\0' && *i + 1 < argc) return argv[++*i];
    return NULL;
}

/* --seeds N: whether N is a count (the message printed if not). */
static bool seeds_valid(const char *count) {
    char *set = cli_seeds_set(count);
    bool ok = set != NULL;
    free(set);
    return ok;
}

static int set_env(const char *name, const char *value) {
    if (setenv(name, value, 1) == 0) return 0;
    fprintf(stderr, "simpi run: cannot set %s\n", name);
    return EXIT_USAGE;
}

/* The split run's worker count for the program's runtime (SIMPI_PROCS). */
static int set_procs(int procs) {
    char text[16];
    snprintf(text, sizeof text, "%d", procs);
    /* Fortran's standard output written as it comes, each record then
     * ordered with the others' (docs/parallel.md) */
    if (procs > 1) setenv("GFORTRAN_UNBUFFERED_PRECONNECTED", "y", 0);
    return set_env("SIMPI_PROCS", text);
}

/* Whether the file holds simpi's boot object (a string only it has); a
 * file that cannot be read: true (execv reports it). */
static bool has_boot_marker(const char *path) {
    static const char mark[] = "simpi-runtime: built with simpicc";
    FILE *f = fopen(path, "rb");
    if (!f) return true; /* let execv report it */
    char buf[1 << 16];
    size_t keep = 0, got;
    bool found = false;
    while (!found && (got = fread(buf + keep, 1, sizeof buf - keep, f)) > 0) {
        size_t n = keep + got;
        found = memmem(buf, n, mark, sizeof mark - 1) != NULL;
        keep = n < sizeof mark ? n : sizeof mark; /* overlap between chunks */
        memmove(buf, buf + n - keep, keep);
    }
    fclose(f);
    return found;
}

/* Whether the executable is dynamically linked (has a PT_INTERP): then the
 * dynamic loader can list its libraries without running it. */
static bool dynamically_linked(const char *path) {
    FILE *f = fopen(path, "rb");
    Elf64_Ehdr eh;
    bool dyn = false;
    if (f && fread(&eh, sizeof eh, 1, f) == 1 && !memcmp(eh.e_ident, ELFMAG, SELFMAG) &&
        eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr))
        for (int i = 0; i < eh.e_phnum && !dyn; i++) {
            Elf64_Phdr ph;
            if (fseek(f, (long)(eh.e_phoff + (uint64_t)i * sizeof ph), SEEK_SET) != 0 ||
                fread(&ph, sizeof ph, 1, f) != 1)
                break;
            dyn = ph.p_type == PT_INTERP;
        }
    if (f) fclose(f);
    return dyn;
}

/* Whether the program contains simpi's runtime: in the executable, or in
 * one of the libraries it loads (its main in a library built with
 * `simpicc -shared`), which the dynamic loader lists as ldd does
 * (LD_TRACE_LOADED_OBJECTS: the program itself does not run). */
/* libsimpi.so, preloaded when the program's main is in a library */
static char runtime_preload[PATH_MAX];

static bool built_with_simpicc(const char *path) {
    if (has_boot_marker(path)) return true;
    if (!dynamically_linked(path)) return false;
    int fds[2];
    if (pipe(fds) != 0) return false;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) dup2(null, STDERR_FILENO);
        setenv("LD_TRACE_LOADED_OBJECTS", "1", 1);
        execl(path, path, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *list = pid > 0 ? fdopen(fds[0], "r") : NULL;
    bool found = false;
    char line[PATH_MAX + 128];
    while (list && fgets(line, sizeof line, list)) { /* "\tlibx.so => /path/libx.so (0x...)" */
        char *at = strstr(line, "=> /"), *end;
        if (!at) continue;
        at += 3;
        if ((end = strstr(at, " (0x"))) *end = '\0';
        const char *base = strrchr(at, '/');
        if (base && !strcmp(base, "/libsimpi.so"))
            snprintf(runtime_preload, sizeof runtime_preload, "%s", at);
        else if (!found)
            found = has_boot_marker(at) && access(at, R_OK) == 0;
    }
    /* simpi's runtime must come before the C library in the lookup order
     * (it stands in for some of its functions: clocks, exit...), which a
     * program that loads it through its own library does not give: it is
     * preloaded then */
    if (!found) runtime_preload[0] = '\0';
    if (list)
        fclose(list);
    else
        close(fds[0]);
    if (pid > 0) waitpid(pid, NULL, 0);
    return found;
}

/* Whether the program was started (or a sweep or repeat of it): its
 * runtime, or supervise, writes the --json from then on. */
static bool program_started;

static int failure_json(const char *json, const char *app, const char *why, int rc);

/* One run of the program per sweep point (each its own process, as the
 * program's globals start afresh), then one table and the JSON array. */
static int run_sweep(char **prog, const struct sweep *sw) {
    program_started = true;
    const char *json = getenv("SIMPI_JSON"), *tmpdir = getenv("TMPDIR"),
               *html = getenv("SIMPI_REPORT");
    char *json_copy = json ? xstrdup(json) : NULL, *html_copy = html ? xstrdup(html) : NULL;
    unsetenv("SIMPI_REPORT");
    char dir[512], points[PATH_MAX];
    snprintf(dir, sizeof dir, "%s/simpi-sweep-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    struct sim_error err = {0};
    if (html_copy && !sweep_make_points_dir(html_copy, points, sizeof points, &err)) {
        fprintf(stderr, "simpi run: %s\n", err.msg);
        free(json_copy);
        free(html_copy);
        return EXIT_INPUT_ERROR;
    }
    if (!html_copy && !mkdtemp(dir)) {
        fprintf(stderr, "simpi run: cannot create a folder in %s: %s\n", dir, strerror(errno));
        free(json_copy);
        return EXIT_INPUT_ERROR;
    }
    struct sweep_result *res = xcalloc((size_t)sw->npoints, sizeof *res);
    for (int p = 0; p < sw->npoints; p++) {
        char path[PATH_MAX + 32], out[PATH_MAX + 32], report[PATH_MAX + 32], *joined = xstrdup("");
        const char **pt = sweep_point(sw, p);
        for (int k = 0; k < sw->nsets; k++) {
            size_t n = strlen(joined);
            joined = xrealloc_or_die(joined, n + strlen(pt[k]) + 2);
            snprintf(joined + n, strlen(pt[k]) + 2, "%s\n", pt[k]);
        }
        snprintf(path, sizeof path, "%s/point%d.json", html_copy ? points : dir, p);
        snprintf(report, sizeof report, "%s/point%d.html", points, p);
        /* the program's output once (the first point's); every point's kept
         * beside its report (the first's then shown when it ends), the
         * others' shown only when the point fails */
        snprintf(out, sizeof out, "%s/point%d.out", html_copy ? points : dir, p);
        fflush(NULL);
        pid_t parent = getpid(), pid = fork();
        if (pid == 0) {
            cli_child_dies_with_parent(parent);
            setenv("SIMPI_SET", joined, 1);
            setenv("SIMPI_JSON", path, 1);
            if (html_copy) setenv("SIMPI_REPORT", report, 1);
            setenv("SIMPI_QUIET", "1", 1);
            setenv("SIMPI_PROGRESS", "never", 1);
            if ((p > 0 || html_copy) && !freopen(out, "w", stdout)) _exit(127);
            execv(prog[0], prog);
            _exit(127);
        }
        int st = 0;
        if (pid < 0 || waitpid(pid, &st, 0) != pid) st = -1;
        sweep_read_point(path, &res[p]);
        res[p].exit_status = st == -1        ? EXIT_INPUT_ERROR
                             : WIFEXITED(st) ? WEXITSTATUS(st)
                                             : 128 + WTERMSIG(st);
        if ((p > 0 && res[p].exit_status) || (p == 0 && html_copy)) cli_copy_file(out, stdout);
        if (!html_copy) {
            unlink(path);
            unlink(out);
        }
        free(joined);
        if (p == 0 && sweep_only_seeds(sw) && sweep_bad_input(res[0].exit_status)) {
            if (!html_copy) rmdir(dir);
            int rc = failure_json(json_copy, prog[0], SWEEP_INPUT_FAILED, res[0].exit_status);
            free(res);
            fprintf(stderr, "simpi run: %s\n", SWEEP_INPUT_FAILED);
            free(json_copy);
            free(html_copy);
            return rc;
        }
    }
    if (!html_copy) rmdir(dir);
    if (sw->npoints > 1)
        fprintf(stderr, "simpi run: the program's output is shown for the first point only%s\n",
                html_copy ? " (each point's is in its report's folder)" : "");
    int rc = sweep_report(sw, res, json_copy);
    if (html_copy && !sweep_write_html(sw, res, html_copy, points, getenv("SIMPI_COMMAND"), &err)) {
        fprintf(stderr, "simpi run: %s\n", err.msg);
        if (!rc) rc = EXIT_INPUT_ERROR;
    }
    free(res);
    free(json_copy);
    free(html_copy);
    return rc;
}

/* A --json (if any) that says the run failed and why (never a stale one
 * from an earlier run); returns rc. */
static int failure_json(const char *json, const char *app, const char *why, int rc) {
    struct sim_error err = {0};
    if (json && !summary_write_failure_json(json, app, rc, why, &err))
        fprintf(stderr, "simpi run: %s\n", err.msg);
    return rc;
}

/* A run that ends before the program's runtime could write its report: the
 * message, and the --json. */
static int fail_before_run(const char *app, const char *why, int rc) {
    fprintf(stderr, "simpi run: %s\n", why);
    return failure_json(getenv("SIMPI_JSON"), app, why, rc);
}

/* The reason a process ended without its report. */
static void describe_abrupt_end(int status, char *why, size_t n) {
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    int sig = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
    const char *abbrev = sig ? sigabbrev_np(sig) : NULL;
    if (sig == SIGKILL)
        snprintf(why, n,
                 "the program's process was killed by SIGKILL before the simulation could report "
                 "(another process, or the out-of-memory killer)");
    else if (sig) /* before its runtime took the signal (at its very start) */
        snprintf(why, n,
                 "the program's process was killed by SIG%s (%s) before the simulation could "
                 "report",
                 abbrev ? abbrev : "?", strsignal(sig));
    else
        snprintf(why, n,
                 "the program's process ended (exit status %d) before the simulation could "
                 "report: a system call ended it directly, bypassing simpi",
                 rc);
}

/* Runs the program in a child process and waits. Its runtime writes "done"
 * on a pipe once its report (summary, JSON, outputs) is out; a process that
 * ends without it (SIGKILL, the out-of-memory killer, a system call made
 * without the C library) is reported here, with a --json saying so. */
/* In the program's process (before execv): libsimpi.so first in LD_PRELOAD. */
static void preload_runtime(void) {
    const char *was = getenv("LD_PRELOAD");
    size_t n = strlen(runtime_preload) + (was ? strlen(was) : 0) + 2;
    char *list = malloc(n);
    if (!list) return;
    snprintf(list, n, "%s%s%s", runtime_preload, was && *was ? ":" : "", was && *was ? was : "");
    setenv("LD_PRELOAD", list, 1);
    free(list);
}

/* supervise's standard input for the program: NULL, simpi's own; else a
 * file opened afresh for each run (--repeat: every run reads the same) */
static const char *program_stdin;

static int supervise(char **prog, bool hide_stdout) {
    program_started = true;
    int done[2];
    if (pipe(done) != 0) return fail_before_run(prog[0], strerror(errno), EXIT_INPUT_ERROR);
    fcntl(done[0], F_SETFD, FD_CLOEXEC);
    char fd[16];
    snprintf(fd, sizeof fd, "%d", done[1]);
    setenv("SIMPI_DONE_FD", fd, 1);
    cli_pass_signals(true);
    fflush(NULL);
    pid_t parent = getpid(), pid = fork();
    if (pid == 0) {
        cli_child_dies_with_parent(parent);
        cli_pass_signals(false);
        int null = hide_stdout ? open("/dev/null", O_WRONLY) : -1;
        if (null >= 0) dup2(null, STDOUT_FILENO);
        int in = program_stdin ? open(program_stdin, O_RDONLY) : -1;
        if (in >= 0) dup2(in, STDIN_FILENO);
        /* an interruption in the run's first moments waits until the
         * runtime's handlers are in place (it lets them in), so that it
         * ends with the partial summary and the JSON, not a silent death */
        sigset_t held;
        sigemptyset(&held);
        sigaddset(&held, SIGINT);
        sigaddset(&held, SIGTERM);
        sigaddset(&held, SIGHUP);
        sigprocmask(SIG_BLOCK, &held, NULL);
        if (runtime_preload[0]) preload_runtime();
        execv(prog[0], prog);
        char why[600];
        snprintf(why, sizeof why, "cannot run '%s': %s", prog[0], strerror(errno));
        _exit(fail_before_run(prog[0], why, errno == ENOENT ? 127 : 126));
    }
    close(done[1]);
    if (pid < 0) return fail_before_run(prog[0], strerror(errno), EXIT_INPUT_ERROR);
    char got[PIPE_BUF + 1] = "";
    ssize_t n;
    while ((n = read(done[0], got, sizeof got - 1)) < 0 && errno == EINTR)
        cli_pass_pending_signal(pid);
    close(done[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        cli_pass_pending_signal(pid);
    int rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    if (n > 0 && !strncmp(got, "done", 4)) return rc;
    if (n > 5 && !strncmp(got, "lost ", 5)) { /* a worker died: the run said why */
        got[n] = '\0';
        return failure_json(getenv("SIMPI_JSON"), prog[0], got + 5, rc ? rc : 1); /* (said) */
    }
    if (WIFEXITED(status) && (rc == 126 || rc == 127)) return rc; /* exec failed: said so */
    char why[512];
    describe_abrupt_end(status, why, sizeof why);
    return fail_before_run(prog[0], why, rc ? rc : EXIT_APP_ERROR);
}

/* --trace-out FILE.sbt (or --trace-format binary|otf2): the runtime records
 * rank files into a folder beside the output, which becomes the binary
 * trace or the OTF2 archive once the run is over. */
static const char *binary_out;
static char binary_stage[PATH_MAX];
static const char *trace_format; /* native, binary, otf2; NULL: by the name */

static int trace_out_option(const char *v) {
    size_t n = strlen(v);
    bool sbt = n > 4 && !strcmp(v + n - 4, ".sbt");
    if (!trace_format) trace_format = sbt ? "binary" : "native";
    if (!strcmp(trace_format, "native")) return set_env("SIMPI_TRACE_OUT", v);
    if (snprintf(binary_stage, sizeof binary_stage, "%s.rankfiles-%d", v, (int)getpid()) >=
        (int)sizeof binary_stage) {
        fprintf(stderr, "simpi run: --trace-out: path too long\n");
        return EXIT_USAGE;
    }
    binary_out = v;
    return set_env("SIMPI_TRACE_OUT", binary_stage);
}

/* After the run: the recorded rank files written as the binary trace and
 * removed; a run that ended early left them marked incomplete, and they
 * stay, named, since a binary trace cannot say so. */
static int finish_binary_out(int rc) {
    struct stat st;
    if (!binary_out || stat(binary_stage, &st) != 0) return rc;
    struct sim_error err = {0};
    if (!strcmp(trace_format, "otf2")
            ? cli_convert_to_otf2(binary_stage, binary_out, &err)
            : cli_convert_to_binary(binary_stage, binary_out, TBIN_ZSTD, &err)) {
        rankfile_remove(binary_stage, 0, -1);
        rmdir(binary_stage);
        return rc;
    }
    fprintf(
        stderr,
        "simpi run: --trace-out %s not written: %s\nsimpi run: the recorded rank files are in %s\n",
        binary_out, err.msg, binary_stage);
    return rc ? rc : EXIT_INPUT_ERROR;
}

/* --repeat's standard input: each of the N runs reads the same input, a
 * copy of simpi's standard input taken before the first (in dir); from a
 * terminal, which cannot be copied, the quiet runs read /dev/null and the
 * reported run the terminal. Sets program_stdin; whether a copy was made. */
static bool repeat_stdin(const char *dir, char *path, size_t size) {
    program_stdin = "/dev/null";
    if (isatty(STDIN_FILENO) || fcntl(STDIN_FILENO, F_GETFD) < 0) return false;
    snprintf(path, size, "%s/stdin", dir);
    int out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (out < 0) return false;
    char buf[65536];
    ssize_t n;
    bool ok = true;
    while (ok && ((n = read(STDIN_FILENO, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR)))
        for (ssize_t at = 0; ok && n > 0 && at < n;) {
            ssize_t w = write(out, buf + at, (size_t)(n - at));
            ok = w > 0;
            at += w > 0 ? w : 0;
        }
    ok = close(out) == 0 && ok;
    if (!ok) {
        fprintf(stderr, "simpi run: --repeat: cannot keep a copy of standard input in %s: %s\n",
                path, strerror(errno));
        unlink(path);
        return false;
    }
    program_stdin = path;
    return true;
}

/* --repeat N: N - 1 quiet runs (their standard output discarded, no
 * output files), each leaving its figures in a folder, then the run the
 * user sees, which reports the spread over all N (online/repeat.c). A run
 * that fails ends the series with its status. */
static int run_repeated(char **prog, int runs, bool under_launcher) {
    if (under_launcher) {
        fprintf(stderr, "simpi run: --repeat under a launcher: run the launcher %d times\n", runs);
        return EXIT_USAGE;
    }
    const char *tmpdir = getenv("TMPDIR");
    char dir[512], num[16];
    snprintf(dir, sizeof dir, "%s/simpi-repeat-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "simpi run: cannot create a folder in %s: %s\n", dir, strerror(errno));
        return EXIT_INPUT_ERROR;
    }
    static const char *const outputs[] = {"SIMPI_JSON",   "SIMPI_REPORT",    "SIMPI_PARAVER",
                                          "SIMPI_CHROME", "SIMPI_TRACE_OUT", "SIMPI_OTF2"};
    enum { NOUT = sizeof outputs / sizeof outputs[0] };
    char *saved[NOUT];
    for (int k = 0; k < NOUT; k++) {
        const char *v = getenv(outputs[k]);
        saved[k] = v ? xstrdup(v) : NULL;
        unsetenv(outputs[k]);
    }
    char *quiet = getenv("SIMPI_QUIET") ? xstrdup(getenv("SIMPI_QUIET")) : NULL;
    char input[600];
    bool copied = repeat_stdin(dir, input, sizeof input);
    setenv("SIMPI_REPEAT_DIR", dir, 1);
    snprintf(num, sizeof num, "%d", runs);
    setenv("SIMPI_REPEAT_RUNS", num, 1);
    setenv("SIMPI_QUIET", "1", 1);
    int rc = 0;
    for (int k = 0; k < runs - 1 && rc == 0; k++) {
        snprintf(num, sizeof num, "%d", k);
        setenv("SIMPI_REPEAT_RUN", num, 1);
        rc = supervise(prog, true);
        if (rc)
            fprintf(stderr, "simpi run: --repeat: run %d of %d ended with status %d\n", k + 1, runs,
                    rc);
    }
    for (int k = 0; k < NOUT; k++) {
        if (saved[k]) setenv(outputs[k], saved[k], 1);
        free(saved[k]);
    }
    if (quiet)
        setenv("SIMPI_QUIET", quiet, 1);
    else
        unsetenv("SIMPI_QUIET");
    free(quiet);
    if (rc == 0) {
        snprintf(num, sizeof num, "%d", runs - 1);
        setenv("SIMPI_REPEAT_RUN", num, 1);
        if (!copied) program_stdin = NULL; /* a terminal: the reported run reads it */
        rc = finish_binary_out(supervise(prog, false));
    }
    program_stdin = NULL;
    if (copied) unlink(input);
    for (int k = 0; k < runs; k++) {
        char path[600];
        snprintf(path, sizeof path, "%s/run%d.bin", dir, k);
        unlink(path);
    }
    rmdir(dir);
    return rc;
}

static int parse_and_run(int argc, char **argv);

/* The --json named among simpi run's options (before the program), or
 * NULL: an option's value follows it; the first other word is the
 * program. */
static const char *json_option(int argc, char **argv) {
    const char *json = NULL;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (a[0] != '-' && (i == 1 || argv[i - 1][0] != '-')) break; /* the program */
        if (!strcmp(a, "--")) break;
        if (!strcmp(a, "--json") && i + 1 < argc) json = argv[i + 1];
        if (!strncmp(a, "--json=", 7)) json = a + 7;
    }
    return json;
}

/* The SIMPI_* variables documented for users, which a run reads from the
 * environment it was given (docs/online.md); every other one is how simpi
 * run hands its options to the program, set below from the command line. */
static const char *const user_variables[] = {
    "SIMPI_CHECK",     /* the environment form of --check (docs/checking.md) */
    "SIMPI_TRANSPORT", /* another helper for split runs (docs/parallel.md) */
    "SIMPI_TRANSPORT_TIMEOUT",
    "SIMPI_PROCS_EXACT",
    "SIMPI_NO_CRASH_HANDLER",
    "SIMPI_CPU_CLOCK_THREAD",
    "SIMPI_ASM_SWITCH",
    "SIMPI_FC",
    "SIMPI_CC",
    "SIMPI_CXX"};

/* Removes the hand-over variables inherited from the environment: a
 * SIMPI_JSON or SIMPI_PLATFORM left in a shell (or set by whoever started
 * simpi) must not steer a run that did not ask for it. */
static void drop_inherited_settings(void) {
    extern char **environ;
    for (bool again = true; again;) { /* unsetenv reorders environ: start over */
        again = false;
        for (char **e = environ; e && *e; e++) {
            if (strncmp(*e, "SIMPI_", 6) != 0) continue;
            size_t n = strcspn(*e, "=");
            bool user = false;
            for (size_t k = 0; k < sizeof user_variables / sizeof *user_variables; k++)
                user |= strlen(user_variables[k]) == n && !strncmp(*e, user_variables[k], n);
            if (user || n >= 128) continue;
            char name[128];
            memcpy(name, *e, n);
            name[n] = '\0';
            unsetenv(name);
            again = true;
            break;
        }
    }
}

int cmd_run(int argc, char **argv) {
    drop_inherited_settings();
    int rc = parse_and_run(argc, argv);
    const char *json = json_option(argc, argv);
    if (rc == EXIT_USAGE && !program_started && cli_usage_json_replaceable(json, argc, argv))
        failure_json(json, argc > 0 ? argv[argc - 1] : "", /* never an earlier run's left */
                     "a usage error in simpi run's command line (see standard error): nothing "
                     "was run",
                     rc);
    return rc;
}

static int parse_and_run(int argc, char **argv) {
    static char *sets; /* lives as long as the command */
    static const char **set_list;
    int nsets = 0;
    bool np_given = false;
    int repeats = 1, procs = 0;
    sets = xstrdup("");
    const char *v, *trace_out = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) { /* after an option's value */
            cli_print_help("run");
            return 0;
        }
        if ((v = value_of("-np", argc, argv, &i)) || (v = value_of("-n", argc, argv, &i))) {
            char *end;
            long n = strtol(v, &end, 10);
            if (*end || n < 1 || n > INT32_MAX) {
                fprintf(stderr, "simpi run: -n: found '%s', expected a positive rank count\n", v);
                return EXIT_USAGE;
            }
            set_env("SIMPI_NP", v);
            np_given = true;
        } else if ((v = value_of("--platform", argc, argv, &i))) {
            set_env("SIMPI_PLATFORM", v);
        } else if (!strcmp(a, "--seeds") && i + 1 < argc && !seeds_valid(argv[i + 1])) {
            return EXIT_USAGE;
        } else if ((v = value_of("--set", argc, argv, &i)) ||
                   ((v = value_of("--fault", argc, argv, &i)) && (v = cli_fault_set(v))) ||
                   ((v = value_of("--with-ft", argc, argv, &i)) && (v = cli_with_ft_set(v))) ||
                   ((v = value_of("--ideal", argc, argv, &i)) && (v = cli_ideal_set(v))) ||
                   ((v = value_of("--seeds", argc, argv, &i)) && (v = cli_seeds_set(v)))) {
            set_list = xrealloc_or_die(set_list, sizeof *set_list * (size_t)(nsets + 1));
            set_list[nsets++] = v;
            size_t n = strlen(sets);
            sets = xrealloc_or_die(sets, n + strlen(v) + 2);
            strcpy(sets + n, v);
            strcat(sets + n, "\n");
        } else if ((v = value_of("--json", argc, argv, &i))) {
            set_env("SIMPI_JSON", v);
        } else if ((v = value_of("--report", argc, argv, &i))) {
            set_env("SIMPI_REPORT", v);
        } else if ((v = value_of("--paraver", argc, argv, &i))) {
            set_env("SIMPI_PARAVER", v);
        } else if ((v = value_of("--chrome", argc, argv, &i))) {
            set_env("SIMPI_CHROME", v);
        } else if ((v = value_of("--otf2", argc, argv, &i))) {
            set_env("SIMPI_OTF2", v);
        } else if ((v = value_of("--trace-out", argc, argv, &i))) {
            trace_out = v;
        } else if ((v = value_of("--trace-format", argc, argv, &i))) {
            static const char *const formats[] = {"native", "binary", "otf2", NULL};
            if (!(trace_format = cli_enum_value("run: --trace-format", v, formats)))
                return EXIT_USAGE;
        } else if (!strcmp(a, "--critical-path")) {
            set_env("SIMPI_CRITICAL_PATH", "1");
        } else if ((v = value_of("--timeline-ranks", argc, argv, &i))) {
            struct sim_error err = {0};
            if (!analysis_check_ranks(v, &err)) {
                fprintf(stderr, "simpi run: %s\n", err.msg);
                return EXIT_USAGE;
            }
            set_env("SIMPI_TIMELINE_RANKS", v);
        } else if ((v = value_of("--cpu", argc, argv, &i))) {
            static const char *const modes[] = {"measure", "ignore", NULL};
            if (!(v = cli_enum_value("run: --cpu", v, modes))) return EXIT_USAGE;
            set_env("SIMPI_CPU", v);
        } else if ((v = value_of("--cpu-clock", argc, argv, &i))) {
            static const char *const clocks[] = {"auto", "thread", NULL};
            if (!(v = cli_enum_value("run: --cpu-clock", v, clocks))) return EXIT_USAGE;
            set_env("SIMPI_CPU_CLOCK", v);
        } else if ((v = value_of("--repeat", argc, argv, &i))) {
            char *end;
            long n = strtol(v, &end, 10);
            if (!*v || *end || n < 1 || n > 1000) {
                fprintf(stderr,
                        "simpi run: --repeat: found '%s', expected a count of runs from 1 "
                        "to 1000\n",
                        v);
                return EXIT_USAGE;
            }
            repeats = (int)n;
        } else if ((v = value_of("--thread-cores", argc, argv, &i))) {
            static const char *const modes[] = {"one", "all", NULL};
            if (!(v = cli_enum_value("run: --thread-cores", v, modes))) return EXIT_USAGE;
            set_env("SIMPI_THREAD_CORES", v);
        } else if ((v = value_of("--host-speed", argc, argv, &i))) {
            set_env("SIMPI_HOST_SPEED", v);
        } else if ((v = value_of("--stack-size", argc, argv, &i))) {
            set_env("SIMPI_STACK_SIZE", v);
        } else if ((v = value_of("--time-limit", argc, argv, &i))) {
            set_env("SIMPI_TIME_LIMIT", v);
        } else if ((v = value_of("--wall-limit", argc, argv, &i))) {
            set_env("SIMPI_WALL_LIMIT", v);
        } else if ((v = value_of("--check", argc, argv, &i))) {
            static const char *const levels[] = {"off", "default", "full", NULL};
            if (!(v = cli_enum_value("run: --check", v, levels))) return EXIT_USAGE;
            set_env("SIMPI_CHECK", v);
        } else if ((v = value_of("--progress", argc, argv, &i))) {
            static const char *const modes[] = {"auto", "always", "never", NULL};
            if (!(v = cli_enum_value("run: --progress", v, modes))) return EXIT_USAGE;
            set_env("SIMPI_PROGRESS", v);
        } else if (!strcmp(a, "--privatize")) {
            set_env("SIMPI_PRIVATIZE", "1");
        } else if (!strncmp(a, "--privatize=", 12)) {
            const char *m = a + 12;
            if (strcmp(m, "images") && strcmp(m, "copy") && strcmp(m, "remap")) {
                fprintf(stderr, "simpi run: --privatize=%s: expected images, copy or remap\n", m);
                return EXIT_USAGE;
            }
            set_env("SIMPI_PRIVATIZE", m);
        } else if (!strcmp(a, "--no-privatize")) {
            set_env("SIMPI_PRIVATIZE", "0");
        } else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
            set_env("SIMPI_QUIET", "1");
        } else if ((v = value_of("--placement", argc, argv, &i))) {
            int placement;
            if (!cli_parse_placement(v, &placement)) return EXIT_USAGE;
            set_env("SIMPI_PLACEMENT", v);
        } else if ((v = value_of("--procs", argc, argv, &i)) ||
                   (v = value_of("-j", argc, argv, &i))) {
            if (!cli_parse_procs(a, v, &procs)) return EXIT_USAGE;
        } else if (!strcmp(a, "--procs-exact")) {
            set_env("SIMPI_PROCS_EXACT", "1");
        } else {
            fprintf(stderr, "simpi run: unknown option '%s'\n", a);
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (!np_given) { /* as mpirun's -np: how many ranks is never guessed */
        fprintf(stderr,
                "simpi run: -n N (the number of ranks) is required, as mpirun's -np: "
                "simpi run -n 4 %s\n",
                argv[i]);
        return EXIT_USAGE;
    }
    int launched = cli_launcher_size();
    if (launched > 1) { /* mpirun -np K simpi run: the K processes are the workers */
        char helper[PATH_MAX];
        if (procs != 0 && procs != 1) {
            fprintf(stderr,
                    "simpi run: --procs and a launcher (mpirun, srun: %d processes) both split "
                    "the run; give one of them\n",
                    launched);
            return EXIT_USAGE;
        }
        if (!cli_find_helper("simpi-transport", "SIMPI_TRANSPORT", X_OK, helper, sizeof helper)) {
            fprintf(stderr,
                    "simpi run: this run is under a launcher (%d processes) but simpi-transport, "
                    "the MPI side of a split run, is not beside simpi (it is built when an MPI "
                    "is installed)\n",
                    launched);
            return EXIT_USAGE;
        }
        set_env("SIMPI_TRANSPORT_HELPER", helper);
        setenv("GFORTRAN_UNBUFFERED_PRECONNECTED", "y", 0);
    }
    if (trace_format && !trace_out) {
        fprintf(stderr, "simpi run: --trace-format says the form of --trace-out, which is not "
                        "given\n");
        return EXIT_USAGE;
    }
    if (trace_out && trace_out_option(trace_out)) return EXIT_USAGE;
    set_env("SIMPI_SET", sets);
    set_env("SIMPI_COMMAND", cli_command_line(argc, argv));
    set_env("SIMPI_RUN", "1"); /* the program was started by simpi run (not by hand) */
    /* OpenMP threads that wait do so without spinning, unless the user says
     * otherwise: a spinning thread's CPU time would count as its work
     * (docs/hybrid.md) */
    setenv("OMP_WAIT_POLICY", "passive", 0);
    if (!built_with_simpicc(argv[i])) {
        char why[512];
        snprintf(why, sizeof why,
                 "'%s' was not built with simpicc (it does not contain simpi's runtime); build it "
                 "with simpicc or simpicxx",
                 argv[i]);
        return fail_before_run(argv[i], why, EXIT_INPUT_ERROR);
    }
    if (procs && set_procs(cli_fit_procs("run", procs))) return EXIT_USAGE;
    struct sweep sw;
    int npoints = sweep_points(set_list, nsets, &sw);
    if (npoints < 0) return EXIT_USAGE;
    if (npoints > 1 && (getenv("SIMPI_PARAVER") || getenv("SIMPI_CHROME") || getenv("SIMPI_OTF2") ||
                        getenv("SIMPI_TRACE_OUT"))) {
        fprintf(stderr,
                "simpi run: --paraver, --chrome, --otf2 and --trace-out describe one run, not a "
                "sweep of %d; give one value per --set (--report draws a sweep)\n",
                sw.npoints);
        sweep_free(&sw);
        return EXIT_USAGE;
    }
    if (sw.npoints > 1 && repeats > 1) {
        fprintf(stderr,
                "simpi run: --repeat repeats one run, not a sweep of %d points; give one "
                "value per --set, or run the sweep %d times\n",
                sw.npoints, repeats);
        sweep_free(&sw);
        return EXIT_USAGE;
    }
    char why[1200];
    if (sw.npoints > 1 && !sweep_check_platforms(&sw, getenv("SIMPI_PLATFORM"), why, sizeof why)) {
        sweep_free(&sw);
        return fail_before_run(argv[i], why, EXIT_INPUT_ERROR);
    }
    if (sw.npoints > 1) {
        int rc = run_sweep(argv + i, &sw);
        sweep_free(&sw);
        return rc;
    }
    sweep_free(&sw);
    if (repeats > 1) return run_repeated(argv + i, repeats, launched > 1);
    return finish_binary_out(supervise(argv + i, false));
}
