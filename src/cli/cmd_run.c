/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi run -n N [options] ./app args...`: runs a program built with
 * simpicc as N simulated ranks. The options, read as core/options.c
 * declares them, travel to the program's runtime as one block
 * (SIMPI_OPTIONS); the program's own output is untouched and simpi's
 * summary goes to stderr (or --json). */
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
#include "core/alloc.h"
#include "core/options.h"
#include "core/rankfile.h"
#include "replay/trace_bin.h"
#include "report/analysis.h"
#include "report/summary.h"

/* The options given (as core/options.c declares them), and those handed
 * to the program's runtime: given, with what simpi run adds. */
static struct option_set given, handed;

/* Hands the options of s to the program about to be started. */
static void hand_over(const struct option_set *s) {
    char *block = optset_encode(s);
    setenv(OPTIONS_VARIABLE, block, 1);
    free(block);
}

static void usage(FILE *out) {
    fprintf(out, "usage: simpi run -n N [options] ./program [args...] (simpi help run: the "
                 "options)\n");
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
    const char *json = optset_get(&handed, "json"), *tmpdir = getenv("TMPDIR"),
               *html = optset_get(&handed, "report");
    char *json_copy = json ? xstrdup(json) : NULL, *html_copy = html ? xstrdup(html) : NULL;
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
        char path[PATH_MAX + 32], out[PATH_MAX + 32], report[PATH_MAX + 32];
        const char **pt = sweep_point(sw, p);
        struct option_set point;
        optset_copy(&point, &handed);
        optset_put(&point, "set", NULL);
        for (int k = 0; k < sw->nsets; k++)
            optset_add(&point, "set", pt[k]);
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
            optset_put(&point, "json", path);
            optset_put(&point, "report", html_copy ? report : NULL);
            optset_put(&point, "quiet", "1");
            optset_put(&point, "progress", "never");
            hand_over(&point);
            if ((p > 0 || html_copy) && !freopen(out, "w", stdout)) _exit(127);
            execv(prog[0], prog);
            _exit(127);
        }
        optset_free(&point);
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
    if (html_copy &&
        !sweep_write_html(sw, res, html_copy, points, optset_get(&handed, "command"), &err)) {
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
    return failure_json(optset_get(&handed, "json"), app, why, rc);
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

static int supervise(char **prog, bool hide_stdout, struct option_set *opts) {
    program_started = true;
    int done[2];
    if (pipe(done) != 0) return fail_before_run(prog[0], strerror(errno), EXIT_INPUT_ERROR);
    fcntl(done[0], F_SETFD, FD_CLOEXEC);
    char fd[16];
    snprintf(fd, sizeof fd, "%d", done[1]);
    optset_put(opts, "done-fd", fd);
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
        hand_over(opts);
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
        return failure_json(optset_get(opts, "json"), prog[0], got + 5, rc ? rc : 1); /* said */
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
    if (!strcmp(trace_format, "native")) return 0;
    if (snprintf(binary_stage, sizeof binary_stage, "%s.rankfiles-%d", v, (int)getpid()) >=
        (int)sizeof binary_stage) {
        fprintf(stderr, "simpi run: --trace-out: path too long\n");
        return EXIT_USAGE;
    }
    binary_out = v;
    optset_put(&handed, "trace-out", binary_stage);
    return 0;
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
    /* the quiet runs: no outputs, no summary */
    static const char *const outputs[] = {"json",   "report",    "paraver",
                                          "chrome", "trace-out", "otf2"};
    struct option_set quiet;
    optset_copy(&quiet, &handed);
    for (size_t k = 0; k < sizeof outputs / sizeof *outputs; k++)
        optset_put(&quiet, outputs[k], NULL);
    optset_put(&quiet, "quiet", "1");
    char input[600];
    bool copied = repeat_stdin(dir, input, sizeof input);
    snprintf(num, sizeof num, "%d", runs);
    optset_put(&quiet, "repeat-dir", dir);
    optset_put(&quiet, "repeat-runs", num);
    optset_put(&handed, "repeat-dir", dir);
    optset_put(&handed, "repeat-runs", num);
    int rc = 0;
    for (int k = 0; k < runs - 1 && rc == 0; k++) {
        snprintf(num, sizeof num, "%d", k);
        optset_put(&quiet, "repeat-run", num);
        rc = supervise(prog, true, &quiet);
        if (rc)
            fprintf(stderr, "simpi run: --repeat: run %d of %d ended with status %d\n", k + 1, runs,
                    rc);
    }
    optset_free(&quiet);
    if (rc == 0) {
        snprintf(num, sizeof num, "%d", runs - 1);
        optset_put(&handed, "repeat-run", num);
        if (!copied) program_stdin = NULL; /* a terminal: the reported run reads it */
        rc = finish_binary_out(supervise(prog, false, &handed));
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

int cmd_run(int argc, char **argv) {
    int rc = parse_and_run(argc, argv);
    const char *json = json_option(argc, argv);
    if (rc == EXIT_USAGE && !program_started && cli_usage_json_replaceable(json, argc, argv))
        failure_json(json, argc > 0 ? argv[argc - 1] : "", /* never an earlier run's left */
                     "a usage error in simpi run's command line (see standard error): nothing "
                     "was run",
                     rc);
    optset_free(&given);
    optset_free(&handed);
    return rc;
}

/* The platform keys set (--set, and --fault, --ideal...), in order; the
 * list lives as long as the command. */
static const char **set_list(int *n) {
    static const char **list;
    *n = 0;
    for (int k = 0; k < given.n; k++)
        if (!strcmp(given.v[k].decl->name, "set")) {
            list = xrealloc_or_die(list, sizeof *list * (size_t)(*n + 1));
            list[(*n)++] = given.v[k].value;
        }
    return list;
}

static int parse_and_run(int argc, char **argv) {
    int i, repeats = 1, procs = 0, nsets;
    int rc = cli_options_parse(OPT_RUN, argc, argv, &given, &i, NULL, NULL);
    if (rc) return rc == 1 ? 0 : rc;
    const char *v, *trace_out = optset_get(&given, "trace-out");
    bool np_given = optset_get(&given, "np") != NULL;
    trace_format = optset_get(&given, "trace-format");
    if ((v = optset_get(&given, "repeat"))) repeats = atoi(v);
    if ((v = optset_get(&given, "procs")) && !cli_parse_procs("--procs", v, &procs))
        return EXIT_USAGE;
    if (optset_get(&given, "procs-exact")) setenv("SIMPI_PROCS_EXACT", "1", 1);
    const char **sets = set_list(&nsets);
    optset_copy(&handed, &given);
    optset_put(&handed, "procs", NULL);
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
        optset_put(&handed, "transport-helper", helper);
        setenv("GFORTRAN_UNBUFFERED_PRECONNECTED", "y", 0);
    }
    if (trace_format && !trace_out) {
        fprintf(stderr, "simpi run: --trace-format says the form of --trace-out, which is not "
                        "given\n");
        return EXIT_USAGE;
    }
    if (trace_out && trace_out_option(trace_out)) return EXIT_USAGE;
    optset_put(&handed, "command", cli_command_line(argc, argv));
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
    if (procs) { /* the workers that will run */
        char count[16];
        procs = cli_fit_procs("run", procs);
        snprintf(count, sizeof count, "%d", procs);
        optset_put(&handed, "procs", count);
        /* Fortran's standard output written as it comes, each record then
         * ordered with the others' (docs/parallel.md) */
        if (procs > 1) setenv("GFORTRAN_UNBUFFERED_PRECONNECTED", "y", 0);
    }
    struct sweep sw;
    int npoints = sweep_points(sets, nsets, &sw);
    if (npoints < 0) return EXIT_USAGE;
    if (npoints > 1 && (optset_get(&given, "paraver") || optset_get(&given, "chrome") ||
                        optset_get(&given, "otf2") || trace_out)) {
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
    if (sw.npoints > 1 &&
        !sweep_check_platforms(&sw, optset_get(&given, "platform"), why, sizeof why)) {
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
    return finish_binary_out(supervise(argv + i, false, &handed));
}
