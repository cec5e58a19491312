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
 * entering main itself. */
int main(int argc, char **argv);
int runtime_main(int argc, char **argv, int (*user_main)(int, char **));
void exit(int status) __attribute__((noreturn));

/* `simpi run` looks for this text to tell programs built with simpicc. */
__attribute__((used)) const char simpi_boot_marker[] = "simpi-runtime: built with simpicc";

__attribute__((constructor)) static void simpi_boot(int argc, char **argv, char **envp) {
    (void)envp;
    exit(runtime_main(argc, argv, main));
}
