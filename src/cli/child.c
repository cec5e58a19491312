/* SPDX-License-Identifier: BSD-3-Clause */
/* A child process that simpi waits for (the program under `simpi run`, the
 * launcher under `simpi trace`): a signal sent to simpi by another process
 * (kill, timeout) is passed on to it, a moment later, so that a signal sent
 * to the whole process group (the terminal's Ctrl-C, timeout) reaches the
 * child directly first; simpi's runtime ignores the copy from its parent. */
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"

static volatile sig_atomic_t pending_signal;

static void note_signal(int sig, siginfo_t *info, void *uctx) {
    (void)uctx;
    if (info->si_code <= 0) pending_signal = sig; /* from a process, not the terminal */
}

static const int passed_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};

/* A signal ignored when simpi started (SIGHUP under nohup, a script's
 * background SIGQUIT...) stays ignored in both processes, as it would have
 * been for the child. SIGINT and SIGTERM are always passed on (simpi's
 * runtime answers them even when ignored). */
void cli_pass_signals(bool on) {
    static bool ignored[sizeof passed_signals / sizeof passed_signals[0]];
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = note_signal;
    sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: the parent's wait sees EINTR */
    if (!on) sa.sa_handler = SIG_DFL;
    for (size_t k = 0; k < sizeof passed_signals / sizeof passed_signals[0]; k++) {
        int sig = passed_signals[k];
        if (on && sig != SIGINT && sig != SIGTERM && sigaction(sig, NULL, &old) == 0)
            ignored[k] = old.sa_handler == SIG_IGN;
        if (!ignored[k]) sigaction(sig, &sa, NULL);
    }
}

void cli_pass_pending_signal(pid_t child) {
    int sig = pending_signal;
    if (!sig) return;
    pending_signal = 0;
    nanosleep(&(struct timespec){0, 50000000}, NULL); /* 50 ms */
    kill(child, sig);
}

void cli_child_dies_with_parent(pid_t parent) {
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (getppid() != parent) _exit(128 + SIGTERM); /* already gone before the line above */
}
