/* SPDX-License-Identifier: BSD-3-Clause */
// C++ in per-rank images of the program (tests/privatize): each rank throws
// and catches its own exception, has its own function-local static std::map
// and static std::vector in main, and its own global std::vector (whose heap
// buffer its own constructor allocated); the destructors of all of them run
// at exit without a double free.
#include <mpi.h>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>
#include <iostream>
static std::vector<int> g(1000);
static int counter(int add) { static std::map<int, int> m; m[add]++; return (int)m.size(); }
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int me; MPI_Comm_rank(MPI_COMM_WORLD, &me);
    static std::vector<double> local(100, me);
    int caught = 0;
    try { if (me >= 0) throw std::runtime_error("rank " + std::to_string(me)); }
    catch (const std::exception &e) { caught = std::string(e.what()) == "rank " + std::to_string(me); }
    g[0] = me;
    MPI_Barrier(MPI_COMM_WORLD);
    int ok = caught && g[0] == me && counter(me) == 1 && local[0] == me, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (me == 0) std::cout << (all ? "cxx ok" : "cxx WRONG") << std::endl;
    MPI_Finalize();
    return 0;
}
