/* SPDX-License-Identifier: BSD-3-Clause */
/* ranks: 2 options: --cpu=ignore --set mpi.poll_cost=2us
 * Time in a simulated program is virtual: sleep, usleep and nanosleep
 * advance the rank's virtual time (exactly, and without sleeping), and
 * gettimeofday, clock_gettime and time read it. A loop polling MPI_Iprobe
 * or MPI_Test advances by mpi.poll_cost (2 us) per unsuccessful call, so it
 * ends under --cpu=ignore: rank 1 computes 1 ms before sending, rank 0
 * polls from time t0, and its first successful probe comes after at least
 * (1 ms - t0) / 2 us failed ones. */
#include <mpi.h>
#include <simpi.h>
#include <stdio.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static int me, errors; /* globals: simpi gives each rank its own */
#define errs (&errors) /* what check.h's EXPECT counts in */
#define check_rank me
#include "check.h"

static double mono(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static long long real_us(void) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (long long)tv.tv_sec * 1000000 + tv.tv_usec;
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    double w = MPI_Wtime(), m = mono();
    long long r = real_us();
    time_t t = time(NULL);
    sleep(2);
    EXPECT(MPI_Wtime() - w == 2.0);
    EXPECT(mono() - m > 1.999999999 && mono() - m < 2.000000001);
    EXPECT(real_us() - r == 2000000);
    EXPECT(time(NULL) - t >= 1 && time(NULL) - t <= 3);
    w = MPI_Wtime();
    usleep(1500);
    struct timespec ns = {0, 250000};
    nanosleep(&ns, NULL);
    EXPECT((MPI_Wtime() - w) * 1e6 > 1749.999 && (MPI_Wtime() - w) * 1e6 < 1750.001);
    /* a clock read includes the computation charged before it */
    r = real_us();
    simpi_compute_seconds(0.25);
    EXPECT(real_us() - r == 250000);

    /* polling */
    MPI_Barrier(MPI_COMM_WORLD);
    int x = 7, flag = 0;
    if (me == 1) {
        simpi_compute_seconds(1e-3);
        MPI_Send(&x, 1, MPI_INT, 0, 5, MPI_COMM_WORLD);
        MPI_Send(&x, 1, MPI_INT, 0, 6, MPI_COMM_WORLD);
    } else {
        double t0 = MPI_Wtime();
        long polls = 0;
        while (!flag) {
            MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
            polls++;
        }
        EXPECT(polls >= 500 && MPI_Wtime() - t0 >= 1e-3);
        MPI_Recv(&x, 1, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Request q;
        MPI_Irecv(&x, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &q);
        flag = 0;
        while (!flag)
            MPI_Test(&q, &flag, MPI_STATUS_IGNORE);
        EXPECT(x == 7);
    }
    int total;
    MPI_Allreduce(&errors, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (me == 0 && total == 0) printf("No Errors\n");
    MPI_Finalize();
    return 0;
}
