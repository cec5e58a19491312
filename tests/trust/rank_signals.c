/* SPDX-License-Identifier: BSD-3-Clause */
/* Signal handlers run as their rank (tests/trust/run-trust4): each rank
 * installs a SIGUSR1 handler (sigaction) and a SIGALRM one (signal) that
 * record MPI_Comm_rank and a global of the rank's; raises SIGUSR1 itself,
 * and arms an alarm of 0.05 s, then waits in a loop of MPI_Iprobe until it
 * has rung. Each rank prints what its handlers saw: "rank R: usr1 R alarm
 * R" when they ran as the rank. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>

static int me = -1; /* the rank's own global */
static volatile sig_atomic_t usr1 = -1, alarm_rank = -1, alarm_global = -1;

static void on_usr1(int sig, siginfo_t *info, void *uctx) {
    (void)sig, (void)info, (void)uctx;
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    usr1 = r == me ? r : -100 - r;
}

static void on_alarm(int sig) {
    (void)sig;
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    alarm_rank = r;
    alarm_global = me;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_usr1;
    sa.sa_flags = SA_SIGINFO;
    sigaction(SIGUSR1, &sa, NULL);
    signal(SIGALRM, on_alarm);
    MPI_Barrier(MPI_COMM_WORLD); /* every rank's handlers are in place */
    raise(SIGUSR1);
    struct itimerval it = {{0, 0}, {0, 50000}};
    setitimer(ITIMER_REAL, &it, NULL);
    double start = MPI_Wtime();
    int flag;
    for (long i = 0; alarm_rank < 0 && i < 100000000; i++)
        MPI_Iprobe(MPI_ANY_SOURCE, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    (void)start;
    MPI_Barrier(MPI_COMM_WORLD);
    printf("rank %d: usr1 %d alarm %d global %d\n", me, (int)usr1, (int)alarm_rank,
           (int)alarm_global);
    return MPI_Finalize();
}
