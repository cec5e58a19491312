/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit test runner: runs every registered test group, or those named on the
 * command line, and exits non-zero if any check failed. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test.h"

int test_failures;
char test_tmp[64];               /* a private folder for the tests' files, removed at the end */
static const char *test_current; /* the running test's name */

/* Copies the file at `from` to dir/name; false if it cannot. */
static bool copy_file(const char *from, const char *dir, const char *name) {
    char to[512];
    snprintf(to, sizeof to, "%s/%s", dir, name);
    FILE *in = fopen(from, "rb"), *out = in ? fopen(to, "wb") : NULL;
    char buf[8192];
    size_t n;
    bool ok = in && out;
    while (ok && (n = fread(buf, 1, sizeof buf, in)) > 0)
        ok = fwrite(buf, 1, n, out) == n;
    if (in) fclose(in);
    if (out && fclose(out) != 0) ok = false;
    return ok;
}

void test_export_replay(const char *platform, const char *const *sets, int nsets,
                        const char *trace) {
    static int count;
    const char *dir = getenv("SIMPI_TEST_EXPORT");
    if (!dir || !*dir || !trace) return;
    char base[160], name[200];
    snprintf(base, sizeof base, "%03d-%s", ++count, test_current ? test_current : "case");
    snprintf(name, sizeof name, "%s.trace", base);
    bool ok = copy_file(trace, dir, name);
    if (platform) {
        snprintf(name, sizeof name, "%s.yaml", base);
        ok = ok && copy_file(platform, dir, name);
    }
    char args[512];
    snprintf(args, sizeof args, "%s/%s.args", dir, base);
    FILE *f = fopen(args, "w");
    for (int i = 0; f && i < nsets; i++) /* one option a line */
        fprintf(f, "--set\n%s\n", sets[i]);
    if (!f || fclose(f) != 0 || !ok) {
        fprintf(stderr, "unit_tests: cannot export %s into %s\n", base, dir);
        test_failures++;
    }
}

extern const struct test_case units_tests[], engine_tests[], platform_tests[], p2p_tests[],
    coll_tests[], coll_ompi_tests[], trace_tests[], replay_tests[], simgrid_tests[], align_tests[],
    context_tests[], topology_tests[], sims_tests[];

static const struct test_case *const groups[] = {
    units_tests,     engine_tests, platform_tests, p2p_tests,     coll_tests,
    coll_ompi_tests, trace_tests,  replay_tests,   simgrid_tests, context_tests,
    topology_tests,  sims_tests,   align_tests};

int test_in_child(void (*fn)(void), char *err, size_t n) {
    int fds[2];
    err[0] = '\0';
    if (pipe(fds) != 0) return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 2);
        fn();
        _exit(0);
    }
    close(fds[1]);
    size_t got = 0;
    ssize_t r;
    while (pid > 0 && got + 1 < n && (r = read(fds[0], err + got, n - 1 - got)) > 0)
        got += (size_t)r;
    err[got] = '\0';
    close(fds[0]);
    int status = -1;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
    return status;
}

const char *test_write_temp(const char *suffix, const char *text) {
    static char paths[8][128];
    static int slot;
    char *p = paths[slot++ % 8];
    snprintf(p, 128, "%s/f-XXXXXX%s", test_tmp, suffix);
    int fd = mkstemps(p, (int)strlen(suffix));
    if (fd < 0) return NULL;
    size_t len = strlen(text);
    if (write(fd, text, len) != (ssize_t)len) p[0] = '\0';
    close(fd);
    return p;
}

static void remove_tmp(void) {
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", test_tmp);
    if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", test_tmp);
}

int main(int argc, char **argv) {
    int run = 0;
    const char *base = getenv("TMPDIR");
    if ((size_t)snprintf(test_tmp, sizeof test_tmp, "%s/simpi-test-XXXXXX",
                         base && *base ? base : "/tmp") >= sizeof test_tmp) {
        fprintf(stderr, "unit_tests: TMPDIR %s is too long a path (at most %zu bytes)\n", base,
                sizeof test_tmp - 19);
        return 2;
    }
    if (!mkdtemp(test_tmp)) {
        fprintf(stderr, "unit_tests: cannot create %s: %s\n", test_tmp, strerror(errno));
        return 2;
    }
    atexit(remove_tmp);
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++) {
        for (const struct test_case *t = groups[g]; t->name; t++) {
            bool selected = argc < 2;
            for (int i = 1; i < argc; i++)
                selected |= strstr(t->name, argv[i]) != NULL;
            if (!selected) continue;
            int before = test_failures;
            test_current = t->name;
            t->fn();
            run++;
            printf("%s %s\n", test_failures == before ? "ok  " : "FAIL", t->name);
        }
    }
    printf("%d tests, %d failed checks\n", run, test_failures);
    return test_failures ? 1 : 0;
}
