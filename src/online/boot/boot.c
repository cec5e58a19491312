/* SPDX-License-Identifier: BSD-3-Clause */
/* The part of simpi linked into every program built with simpicc (from
 * libsimpi_boot.a; the rest of the runtime is the shared libsimpi.so, so
 * that the program's own data segment holds only the program's globals,
 * which privatization gives each rank a copy of).
 *
 * Takes over the program before its main runs: glibc calls constructors
 * with (argc, argv, envp). simpicc links this object after the program's
 * own, so its constructor runs last, when the program's own constructors
 * (C++ static initialisers) have run. The simulation then runs one copy of
 * main per rank and the process exits with the simulation's status without
 * entering main itself.
 *
 * The same constructor runs again in each rank's image of the program
 * (images.c), where it only returns: the images' own constructors run,
 * not a second simulation. */
int main(int argc, char **argv);
int runtime_main(int argc, char **argv, int (*user_main)(int, char **));
int simpi_image_loading(void);
void exit(int status) __attribute__((noreturn));

/* `simpi run` looks for this text to tell programs built with simpicc. */
__attribute__((used)) const char simpi_boot_marker[] = "simpi-runtime: built with simpicc";

/* The sentinels of Fortran's mpif.h (COMMON blocks of these names, which
 * these definitions back): the bindings tell them by their address. Aligned
 * as gfortran aligns a COMMON block under -mcmodel=medium (up to 32), so that such
 * a program links without the linker's warnings. */
#define SENTINEL __attribute__((aligned(32)))
SENTINEL int simpi_bottom_[1], simpi_in_place_[1], simpi_status_ignore_[8],
    simpi_statuses_ignore_[8];
SENTINEL int simpi_errcodes_ignore_[1], simpi_unweighted_[1], simpi_weights_empty_[1];
char simpi_argv_null_[1];
void simpi_fortran_sentinels(const void *const s[7]);

__attribute__((constructor)) static void simpi_boot(int argc, char **argv, char **envp) {
    (void)envp;
    if (simpi_image_loading()) return;
    const void *const sentinels[7] = {
        simpi_bottom_,          simpi_in_place_,   simpi_status_ignore_, simpi_statuses_ignore_,
        simpi_errcodes_ignore_, simpi_unweighted_, simpi_weights_empty_};
    simpi_fortran_sentinels(sentinels);
    exit(runtime_main(argc, argv, main));
}
