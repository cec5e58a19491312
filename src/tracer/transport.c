/* SPDX-License-Identifier: BSD-3-Clause */
/* simpi-transport: the MPI side of a split run over several machines
 * (docs/parallel.md, docs/architecture.md "Split runs"). A worker started
 * by mpirun (or srun) forks this helper, which inherits the launcher's
 * environment and so becomes that MPI rank, while the worker itself never
 * links an MPI (a simulated program's MPI_* names would clash with the real
 * ones). Worker and helper talk over the socket whose descriptor is the
 * first argument:
 *   helper -> worker, once:  int32 rank, int32 size
 *   worker -> helper, each window's end:
 *       int64 next (SIMTIME_NEVER: the end), uint64 len[size], the bytes for
 *       each rank in rank order
 *   helper -> worker:  int64 least next over all ranks, uint64 len[size],
 *       the bytes from each rank in rank order
 *   worker -> helper, at the end:  int64 -1 (no lengths follow); the helper
 *       finalizes MPI and exits.
 * If the worker goes away without saying so, the helper aborts the MPI job,
 * so the launcher ends every other worker: no one waits for a dead peer.
 * The helper never outlives its worker by more than LOST_GRACE_S: the
 * kernel tells it when the worker dies (SIGHUP), wherever it waits (in a
 * collective whose peer has gone, or in MPI_Abort once the launcher has
 * gone: a helper left so, its parent init, was found after a run whose
 * worker was killed), and the alarm then set ends it.
 * Compiled against the system's MPI, never simpi's mpi.h. */
#include <errno.h>
#include <mpi.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

/* Seconds a helper lives on once its worker has gone. */
#define LOST_GRACE_S 10

static int sock;

static void lost(const char *what) {
    int rank = -1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    fprintf(stderr, "simpi-transport (rank %d): %s; ending the run\n", rank, what);
    alarm(LOST_GRACE_S); /* MPI_Abort may wait for a launcher that has gone */
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* SIGHUP: the worker died (PR_SET_PDEATHSIG). A read from it then ends
 * (EINTR, then its end: lost()); an MPI call may never return, so the
 * alarm's default action ends the helper. */
static void worker_died(int sig) {
    (void)sig;
    alarm(LOST_GRACE_S);
}

/* Told of the worker's death from now on; false if it died already. */
static bool watch_worker(const char *pid) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = worker_died; /* no SA_RESTART: a read waiting returns */
    sigemptyset(&sa.sa_mask);
    if (sigaction(SIGHUP, &sa, NULL) != 0 || prctl(PR_SET_PDEATHSIG, SIGHUP) != 0) return true;
    return !pid || getppid() == (pid_t)atol(pid);
}

static void lost_errno(const char *what) {
    char msg[256];
    snprintf(msg, sizeof msg, "%s: %s", what, strerror(errno));
    lost(msg);
}

static void get(void *p, size_t n) {
    char *c = p;
    while (n > 0) {
        ssize_t r = read(sock, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r == 0 || (r < 0 && errno == ECONNRESET)) lost("its worker has gone");
        if (r < 0) lost_errno("cannot read from its worker");
        c += r;
        n -= (size_t)r;
    }
}

static void put(const void *p, size_t n) {
    const char *c = p;
    while (n > 0) {
        ssize_t r = write(sock, c, n);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0 && (errno == EPIPE || errno == ECONNRESET)) lost("its worker has gone");
        if (r <= 0) lost_errno("cannot write to its worker");
        c += r;
        n -= (size_t)r;
    }
}

static void *alloc(size_t n) {
    void *p = malloc(n ? n : 1);
    if (!p) lost("out of memory");
    return p;
}

/* Byte counts as MPI's int counts and displacements. */
static void counts(const uint64_t *len, int size, int *cnt, int *displ) {
    uint64_t at = 0;
    for (int i = 0; i < size; i++) {
        if (len[i] > INT32_MAX || at > INT32_MAX) lost("a window's messages exceed 2 GB");
        cnt[i] = (int)len[i];
        displ[i] = (int)at;
        at += len[i];
    }
}

/* One window's exchange, with the reduction of the next event times. */
static void exchange(int size, int64_t next) {
    uint64_t *out_len = alloc(sizeof *out_len * (size_t)size);
    uint64_t *in_len = alloc(sizeof *in_len * (size_t)size);
    int *scnt = alloc(sizeof(int) * (size_t)size), *sdis = alloc(sizeof(int) * (size_t)size);
    int *rcnt = alloc(sizeof(int) * (size_t)size), *rdis = alloc(sizeof(int) * (size_t)size);
    get(out_len, sizeof *out_len * (size_t)size);
    uint64_t total = 0;
    for (int i = 0; i < size; i++)
        total += out_len[i];
    char *out = alloc(total);
    get(out, total);
    MPI_Alltoall(out_len, 1, MPI_UINT64_T, in_len, 1, MPI_UINT64_T, MPI_COMM_WORLD);
    uint64_t in_total = 0;
    for (int i = 0; i < size; i++)
        in_total += in_len[i];
    char *in = alloc(in_total);
    counts(out_len, size, scnt, sdis);
    counts(in_len, size, rcnt, rdis);
    MPI_Alltoallv(out, scnt, sdis, MPI_BYTE, in, rcnt, rdis, MPI_BYTE, MPI_COMM_WORLD);
    int64_t least;
    MPI_Allreduce(&next, &least, 1, MPI_INT64_T, MPI_MIN, MPI_COMM_WORLD);
    put(&least, sizeof least);
    put(in_len, sizeof *in_len * (size_t)size);
    put(in, in_total);
    free(out);
    free(in);
    free(out_len);
    free(in_len);
    free(scnt);
    free(sdis);
    free(rcnt);
    free(rdis);
}

int main(int argc, char **argv) {
    if (argc != 2 && argc != 3) {
        fprintf(stderr, "usage: simpi-transport FD [WORKER_PID] (started by simpi, not by hand)\n");
        return 2;
    }
    sock = atoi(argv[1]);
    signal(SIGPIPE, SIG_IGN); /* a worker gone is said, not a silent death */
    if (!watch_worker(argc == 3 ? argv[2] : NULL)) {
        fprintf(stderr, "simpi-transport: its worker has gone before it started\n");
        return 1;
    }
    MPI_Init(&argc, &argv);
    int32_t who[2];
    MPI_Comm_rank(MPI_COMM_WORLD, &who[0]);
    MPI_Comm_size(MPI_COMM_WORLD, &who[1]);
    put(who, sizeof who);
    for (;;) {
        int64_t next;
        get(&next, sizeof next);
        if (next == -1) break;
        exchange(who[1], next);
    }
    MPI_Finalize();
    return 0;
}
