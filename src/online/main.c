/* The real main() of a program built with simpicc: the program's own main
 * was renamed simpi_user_main by mpi.h, and the runtime runs it once per
 * simulated rank. This file is the only one in libsimpi that defines main,
 * so the linker takes it only for such programs. */
#include "online/runtime.h"

int simpi_user_main(int argc, char **argv);

int main(int argc, char **argv) {
    return runtime_main(argc, argv, simpi_user_main);
}
