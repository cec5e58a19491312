/* SPDX-License-Identifier: BSD-3-Clause */
// C++ function-local statics and atexit handlers in every rank (issue
// 45): each rank constructs its own, and each is destroyed once, with the
// rank's own contents, when the rank ends (main returns, or exit()).
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

struct Noisy {
    int owner = -1;
    std::vector<int> data;
    ~Noisy() { std::printf("destroyed static of rank %d holding %zu\n", owner, data.size()); }
};

static Noisy &local_static(int rank) {
    static Noisy n; // constructed at the first call, in each rank
    if (n.owner < 0) {
        n.owner = rank;
        n.data.assign(100 + (size_t)rank, rank);
    }
    return n;
}

static int table_size(int k) {
    static std::map<int, std::string> m; // as Quicksilver's
    if (m.empty())
        for (int i = 0; i < 64; i++) m[i] = std::to_string(i * i);
    return (int)m[k].size();
}

static int my_rank = -1;
static void said_goodbye() { std::printf("atexit handler of rank %d\n", my_rank); }

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &my_rank);
    static std::vector<double> in_main(1000, 1.0); // a static in main
    in_main[0] = my_rank;
    std::atexit(said_goodbye);
    int local = (int)local_static(my_rank).data.size() + table_size(my_rank + 10), sum = 0;
    MPI_Allreduce(&local, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (my_rank == 0) std::printf("sum %d\n", sum);
    MPI_Finalize();
    if (argc > 1 && my_rank == 1) std::exit(0); // through exit(): the same
    return 0;
}
