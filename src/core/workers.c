/* SPDX-License-Identifier: BSD-3-Clause */
/* The worker processes of a split run on one machine: forking, the socket
 * pairs between them, and the exchange at each window's end (workers.h).
 * A window's message to a peer is a header (payload length, next event
 * time) followed by the payload: the queued messages, each a 64-bit length
 * and its bytes, padded to 8. Sockets are non-blocking and one poll loop sends to and
 * takes from every peer at once, so that two workers with much to say to
 * each other do not both wait for the other to read. */
#define _GNU_SOURCE
#include "core/workers.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/error.h"

struct buf {
    char *data;
    size_t len, cap, done; /* done: bytes sent or taken so far */
};

/* Polls without sleeping before a sleeping one (see pump). */
#define SPIN_POLLS 4000

struct workers {
    int k, me;
    bool spin;        /* every worker has a core of its own: spin before sleeping */
    int helper;       /* a launcher's run: the socket to the MPI helper, else -1 */
    pid_t helper_pid; /* and its process */
    int *fd;          /* fd[j]: the socket to worker j (-1 for me) */
    pid_t *pid;       /* the first worker's: each worker's process */
    struct buf *out, *in;
};

struct header {
    uint64_t len;
    int64_t next;
};

static void buf_put(struct buf *b, const void *p, size_t n) {
    bytes_append(&b->data, &b->len, &b->cap, p, n);
}

/* Room for k * (k - 1) socket ends, raising the soft limit if need be. */
static bool enough_files(int k, struct sim_error *err) {
    struct rlimit rl;
    rlim_t need = (rlim_t)k * (rlim_t)(k - 1) + 64;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return true;
    if (rl.rlim_cur >= need) return true;
    if (rl.rlim_max >= need) {
        rl.rlim_cur = rl.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &rl) == 0) return true;
    }
    return err_set(err,
                   "--procs %d needs %llu open files for the sockets between workers, over "
                   "the limit of %llu (ulimit -n)",
                   k, (unsigned long long)need, (unsigned long long)rl.rlim_max);
}

static struct workers *workers_new(int k) {
    struct workers *w = xcalloc(1, sizeof *w);
    w->k = k;
    w->helper = -1;
    w->fd = xmalloc(sizeof *w->fd * (size_t)k);
    w->pid = xcalloc((size_t)k, sizeof *w->pid);
    w->out = xcalloc((size_t)k, sizeof *w->out);
    w->in = xcalloc((size_t)k, sizeof *w->in);
    return w;
}

/* Keeps worker me's ends of the pairs (pairs[i * k + j]: i's end towards
 * j) and closes the others. */
static void keep_mine(struct workers *w, int *pairs) {
    for (int i = 0; i < w->k; i++)
        for (int j = 0; j < w->k; j++) {
            int f = pairs[i * w->k + j];
            if (i == j) continue;
            if (i == w->me) {
                w->fd[j] = f;
                fcntl(f, F_SETFL, fcntl(f, F_GETFL) | O_NONBLOCK);
            } else {
                close(f);
            }
        }
    w->fd[w->me] = -1;
}

struct workers *workers_fork(int k, struct sim_error *err) {
    if (!enough_files(k, err)) return NULL;
    int *pairs = xmalloc(sizeof *pairs * (size_t)k * (size_t)k);
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++) {
            int sv[2];
            if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
                free(pairs); /* the process ends on this error: no need to close */
                err_set(err, "cannot make the sockets between workers: %s", strerror(errno));
                return NULL;
            }
            pairs[i * k + j] = sv[0];
            pairs[j * k + i] = sv[1];
        }
    struct workers *w = workers_new(k);
    fflush(NULL); /* what is buffered is printed once, by the first worker */
    pid_t first = getpid();
    for (int i = 1; i < k; i++) {
        pid_t p = fork();
        if (p < 0) {
            err_set(err, "cannot start worker %d: %s", i, strerror(errno));
            for (int j = 1; j < i; j++)
                kill(w->pid[j], SIGKILL);
            free(pairs);
            return NULL;
        }
        if (p == 0) {
            w->me = i;
            /* the first gone (killed while this one computes): go too */
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != first) err_exit_process(1);
            break;
        }
        w->pid[i] = p;
    }
    keep_mine(w, pairs);
    free(pairs);
    cpu_set_t cpus;
    w->spin = sched_getaffinity(0, sizeof cpus, &cpus) == 0 && CPU_COUNT(&cpus) >= k;
    return w;
}

int workers_me(const struct workers *w) {
    return w->me;
}

int workers_count(const struct workers *w) {
    return w->k;
}

/* Each message is its length (8 bytes) and its bytes padded to a multiple
 * of 8, so that every message starts 8-byte aligned where it is taken. */
static size_t padded(uint32_t len) {
    return ((size_t)len + 7) & ~(size_t)7;
}

/* Delivers the messages worker j queued (len bytes at data), in order. */
static void deliver_all(int j, const char *data, size_t len, workers_deliver_fn deliver,
                        void *ctx) {
    for (size_t at = 0; at < len;) {
        uint64_t n;
        memcpy(&n, data + at, sizeof n);
        deliver(ctx, j, data + at + sizeof n, (uint32_t)n);
        at += sizeof n + padded((uint32_t)n);
    }
}

void workers_post(struct workers *w, int to, const void *msg, uint32_t len) {
    static const char zeros[8];
    uint64_t n = len;
    buf_put(&w->out[to], &n, sizeof n);
    buf_put(&w->out[to], msg, len);
    buf_put(&w->out[to], zeros, padded(len) - len);
}

void workers_postv(struct workers *w, int to, const struct workers_piece *pieces, int n) {
    static const char zeros[8];
    uint64_t len = 0;
    for (int i = 0; i < n; i++)
        len += pieces[i].len;
    buf_put(&w->out[to], &len, sizeof len);
    for (int i = 0; i < n; i++)
        buf_put(&w->out[to], pieces[i].data, pieces[i].len);
    buf_put(&w->out[to], zeros, padded((uint32_t)len) - len);
}

/* Closes this worker's sockets: the others see it gone. */
static void hang_up(struct workers *w) {
    for (int j = 0; j < w->k; j++)
        if (w->fd[j] >= 0) {
            close(w->fd[j]);
            w->fd[j] = -1;
        }
}

/* What kills a worker with SIGKILL, said after its name. */
static const char sigkill_cause[] = " (another process, or the out-of-memory killer)";

/* --- the watch (workers_watch) --- */

static struct workers *watched;
static void (*watch_lost)(const char *why);

/* Appends text, or a number, to a message being built in a signal handler. */
static size_t put_text(char *buf, size_t at, size_t cap, const char *s) {
    while (*s && at + 1 < cap)
        buf[at++] = *s++;
    return at;
}

static size_t put_number(char *buf, size_t at, size_t cap, int v) {
    char digits[16];
    int n = 0;
    do
        digits[n++] = (char)('0' + v % 10);
    while ((v /= 10) > 0 && n < 15);
    while (n > 0 && at + 1 < cap)
        buf[at++] = digits[--n];
    return at;
}

static void on_child(int sig) {
    (void)sig;
    int saved = errno;
    struct workers *w = watched;
    for (int j = 1; w && j < w->k; j++) {
        int st;
        pid_t dead = w->pid[j];
        if (dead <= 0 || waitpid(dead, &st, WNOHANG) != dead) continue;
        w->pid[j] = 0;
        if (!WIFSIGNALED(st) && !(WIFEXITED(st) && WEXITSTATUS(st) != 0)) continue;
        char msg[200];
        size_t n = put_text(msg, 0, sizeof msg, "simpi: error: "), why = n;
        n = put_text(msg, n, sizeof msg, "worker ");
        n = put_number(msg, n, sizeof msg, j);
        if (WIFSIGNALED(st)) {
            const char *name = sigabbrev_np(WTERMSIG(st)); /* (a table: safe here) */
            n = put_text(msg, n, sizeof msg, " was killed by SIG");
            n = put_text(msg, n, sizeof msg, name ? name : "?");
            if (WTERMSIG(st) == SIGKILL) n = put_text(msg, n, sizeof msg, sigkill_cause);
        } else {
            n = put_text(msg, n, sizeof msg, " ended with status ");
            n = put_number(msg, n, sizeof msg, WEXITSTATUS(st));
        }
        n = put_text(msg, n, sizeof msg, ": the run is lost");
        msg[n] = '\n';
        /* the kernel's write: an on-line program's runtime holds the C
         * library's back to order its ranks' output, and this is no rank's */
        if (syscall(SYS_write, 2, msg, n + 1) < 0) { /* nothing more to say */
        }
        msg[n] = '\0';
        for (int i = 1; i < w->k; i++)
            if (w->pid[i] > 0) kill(w->pid[i], SIGKILL);
        if (watch_lost) watch_lost(msg + why);
        err_exit_process(1);
    }
    errno = saved;
}

void workers_watch(struct workers *w, void (*lost)(const char *why)) {
    if (w->helper >= 0 || w->me != 0) return; /* a launcher watches its own processes */
    watched = w;
    watch_lost = lost;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_child;
    sa.sa_flags = SA_RESTART | SA_NOCLDSTOP;
    sigaction(SIGCHLD, &sa, NULL);
}

/* Waits for the other workers (the first worker's); names one killed by a
 * signal, else one that failed, in err. False if any did. */
static bool reap(struct workers *w, struct sim_error *err) {
    int killed = 0, ksig = 0, failed = 0, fstatus = 0;
    for (int j = 1; j < w->k; j++) {
        int st;
        if (w->pid[j] <= 0 || waitpid(w->pid[j], &st, 0) != w->pid[j]) continue;
        w->pid[j] = 0;
        if (WIFSIGNALED(st) && !killed) {
            killed = j;
            ksig = WTERMSIG(st);
        } else if (WIFEXITED(st) && WEXITSTATUS(st) != 0 && !failed) {
            failed = j;
            fstatus = WEXITSTATUS(st);
        }
    }
    if (killed)
        return err_set(err, "worker %d was killed by SIG%s%s: the run is lost", killed,
                       sigabbrev_np(ksig) ? sigabbrev_np(ksig) : "?",
                       ksig == SIGKILL ? sigkill_cause : "");
    if (failed)
        return err_set(err, "worker %d ended with status %d: the run is lost", failed, fstatus);
    return true;
}

/* Worker j is gone mid-exchange: the first worker tells why once every
 * other has ended (they do once it hangs up). */
static void gone(struct workers *w, int j, struct sim_error *err) {
    hang_up(w);
    if (w->me == 0 && !reap(w, err)) return;
    err_set(err, "worker %d ended during the run: the run is lost", j);
}

/* Sends what is left of the header and payload for peer j; false if the
 * peer is gone. */
static bool send_some(struct workers *w, int j) {
    struct buf *b = &w->out[j];
    ssize_t n = send(w->fd[j], b->data + b->done, b->len - b->done, MSG_NOSIGNAL);
    if (n < 0) return errno == EAGAIN || errno == EINTR;
    b->done += (size_t)n;
    return true;
}

/* Takes what has come from peer j; false if the peer is gone. */
static bool take_some(struct workers *w, int j, size_t want) {
    struct buf *b = &w->in[j];
    if (b->cap < want) {
        b->cap = want;
        b->data = xrealloc_or_die(b->data, b->cap);
    }
    ssize_t n = recv(w->fd[j], b->data + b->done, want - b->done, 0);
    if (n == 0) return false;
    if (n < 0) return errno == EAGAIN || errno == EINTR;
    b->done += (size_t)n;
    return true;
}

/* How many bytes peer j's window message has: the header, then its length. */
static size_t expected(const struct buf *b) {
    if (b->done < sizeof(struct header)) return sizeof(struct header);
    struct header h;
    memcpy(&h, b->data, sizeof h);
    return sizeof h + (size_t)h.len;
}

static bool complete(const struct buf *b) {
    return b->done >= sizeof(struct header) && b->done == expected(b);
}

/* Puts the window's header in front of each peer's queued messages. */
static void frame(struct workers *w, simtime_t next) {
    for (int j = 0; j < w->k; j++) {
        if (j == w->me) continue;
        struct buf *b = &w->out[j], framed = {0};
        struct header h = {b->len, next};
        buf_put(&framed, &h, sizeof h);
        if (b->len) buf_put(&framed, b->data, b->len);
        free(b->data);
        *b = framed;
        w->in[j].done = 0;
    }
}

/* Sends and takes until every peer's message is through both ways. */
static bool pump(struct workers *w, struct sim_error *err) {
    struct pollfd *pf = xmalloc(sizeof *pf * (size_t)w->k);
    bool ok = true;
    for (;;) {
        int n = 0;
        for (int j = 0; j < w->k; j++) {
            if (j == w->me) continue;
            short ev = (short)((w->out[j].done < w->out[j].len ? POLLOUT : 0) |
                               (!complete(&w->in[j]) ? POLLIN : 0));
            if (ev) pf[n++] = (struct pollfd){w->fd[j], ev, 0};
        }
        if (n == 0) break;
        /* with a core for each worker, the peer's answer is a few
         * microseconds away: ask again at once for a while (a poll that
         * sleeps costs a wake-up, tens of microseconds on a virtual
         * machine, at every window); oversubscribed, sleep at once */
        int ready = 0;
        for (int spin = 0; w->spin && spin < SPIN_POLLS && ready == 0; spin++)
            ready = poll(pf, (nfds_t)n, 0);
        if (ready == 0) ready = poll(pf, (nfds_t)n, -1);
        if (ready < 0 && errno != EINTR) {
            ok = err_set(err, "waiting for the other workers: %s", strerror(errno));
            break;
        }
        for (int i = 0; i < n && ok; i++) {
            int j = 0;
            while (w->fd[j] != pf[i].fd)
                j++;
            if ((pf[i].revents & POLLOUT) && !send_some(w, j)) ok = false;
            if ((pf[i].revents & (POLLIN | POLLHUP | POLLERR)) && !complete(&w->in[j]) &&
                !take_some(w, j, expected(&w->in[j])))
                ok = false;
            if (!ok) gone(w, j, err);
        }
        if (!ok) break;
    }
    free(pf);
    return ok;
}

/* --- a launcher's run: the exchange through the MPI helper --- */

static bool helper_put(struct workers *w, const void *p, size_t n) {
    const char *c = p;
    while (n > 0) {
        ssize_t r = send(w->helper, c, n, MSG_NOSIGNAL);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        c += r;
        n -= (size_t)r;
    }
    return true;
}

static bool helper_get(struct workers *w, void *p, size_t n) {
    char *c = p;
    while (n > 0) {
        ssize_t r = recv(w->helper, c, n, 0);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return false;
        c += r;
        n -= (size_t)r;
    }
    return true;
}

/* Seconds to wait for the MPI helper's first word: SIMPI_TRANSPORT_TIMEOUT,
 * else 60 (an MPI job starting on many hosts takes a while); 0 until read. */
static int patience_s;

void workers_read_patience(void) {
    const char *v = getenv("SIMPI_TRANSPORT_TIMEOUT");
    char *end;
    long s = v ? strtol(v, &end, 10) : 0;
    patience_s = v && *v && !*end && s > 0 && s < 86400 ? (int)s : 60;
}

static int transport_patience(void) {
    if (!patience_s) workers_read_patience();
    return patience_s;
}

/* Whether the helper's socket has something to read (or was closed)
 * within wait_s seconds. */
static bool helper_ready(int fd, int wait_s) {
    struct pollfd p = {.fd = fd, .events = POLLIN};
    for (;;) {
        int n = poll(&p, 1, wait_s * 1000);
        if (n < 0 && errno == EINTR) continue;
        return n > 0;
    }
}

struct workers *workers_join(const char *helper, struct sim_error *err) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) {
        err_set(err, "cannot make a socket for the MPI transport: %s", strerror(errno));
        return NULL;
    }
    fflush(NULL);
    pid_t worker = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        /* a group of its own: what it starts (a singleton MPI's daemon, a
         * script's commands) ends with it, never left with parent 1 */
        setpgid(0, 0);
        close(sv[0]);
        char fd[16], parent[24];
        snprintf(fd, sizeof fd, "%d", sv[1]);
        snprintf(parent, sizeof parent, "%ld", (long)worker); /* it watches for our death */
        execl(helper, helper, fd, parent, (char *)NULL);
        fprintf(stderr, "simpi: cannot start %s: %s\n", helper, strerror(errno));
        err_exit_process(127);
    }
    close(sv[1]);
    if (pid < 0) {
        close(sv[0]);
        err_set(err, "cannot start the MPI transport: %s", strerror(errno));
        return NULL;
    }
    int32_t who[2];
    struct workers probe = {.helper = sv[0]};
    int wait_s = transport_patience();
    if (!helper_ready(sv[0], wait_s)) { /* a helper that never connects must not hang the run */
        kill(-pid, SIGKILL);
        kill(pid, SIGKILL);
        close(sv[0]);
        waitpid(pid, NULL, 0);
        err_set(err,
                "the MPI transport (%s) did not answer within %d s: another process of the job "
                "never started, or cannot reach this one (SIMPI_TRANSPORT_TIMEOUT sets the "
                "wait, docs/parallel.md)",
                helper, wait_s);
        return NULL;
    }
    if (!helper_get(&probe, who, sizeof who) || who[1] < 1 || who[0] < 0 || who[0] >= who[1]) {
        close(sv[0]);
        waitpid(pid, NULL, 0);
        err_set(err, "the MPI transport (%s) did not start: is this run under mpirun or srun?",
                helper);
        return NULL;
    }
    struct workers *w = workers_new(who[1]);
    w->me = who[0];
    w->helper = sv[0];
    w->helper_pid = pid;
    for (int j = 0; j < w->k; j++)
        w->fd[j] = -1;
    return w;
}

static bool exchange_through_helper(struct workers *w, simtime_t next, simtime_t *least,
                                    workers_deliver_fn deliver, void *ctx, struct sim_error *err) {
    uint64_t *len = xmalloc(sizeof *len * (size_t)w->k);
    for (int j = 0; j < w->k; j++)
        len[j] = j == w->me ? 0 : w->out[j].len;
    int64_t nx = next;
    bool ok = helper_put(w, &nx, sizeof nx) && helper_put(w, len, sizeof *len * (size_t)w->k);
    for (int j = 0; j < w->k && ok; j++)
        ok = len[j] == 0 || helper_put(w, w->out[j].data, len[j]);
    for (int j = 0; j < w->k; j++)
        w->out[j].len = w->out[j].done = 0;
    ok = ok && helper_get(w, &nx, sizeof nx) && helper_get(w, len, sizeof *len * (size_t)w->k);
    for (int j = 0; j < w->k && ok; j++) {
        struct buf *b = &w->in[j];
        if (b->cap < len[j]) {
            b->cap = len[j];
            b->data = xrealloc_or_die(b->data, b->cap);
        }
        ok = len[j] == 0 || helper_get(w, b->data, len[j]);
    }
    if (!ok) {
        free(len);
        return err_set(err, "the MPI transport ended during the run (a worker failed, or the "
                            "launcher stopped the job): the run is lost");
    }
    *least = nx;
    for (int j = 0; j < w->k; j++)
        if (j != w->me) deliver_all(j, w->in[j].data, len[j], deliver, ctx);
    free(len);
    return true;
}

bool workers_exchange(struct workers *w, simtime_t next, simtime_t *least,
                      workers_deliver_fn deliver, void *ctx, struct sim_error *err) {
    if (w->helper >= 0) return exchange_through_helper(w, next, least, deliver, ctx, err);
    frame(w, next);
    if (!pump(w, err)) return false;
    for (int j = 0; j < w->k; j++) /* what deliveries post goes with the next window */
        w->out[j].len = w->out[j].done = 0;
    *least = next;
    for (int j = 0; j < w->k; j++) {
        if (j == w->me) continue;
        struct buf *b = &w->in[j];
        struct header h;
        memcpy(&h, b->data, sizeof h);
        if (h.next < *least) *least = h.next;
        deliver_all(j, b->data + sizeof h, h.len, deliver, ctx);
    }
    return true;
}

static void workers_free(struct workers *w) {
    for (int j = 0; j < w->k; j++) {
        free(w->out[j].data);
        free(w->in[j].data);
    }
    free(w->fd);
    free(w->pid);
    free(w->out);
    free(w->in);
    free(w);
}

/* A launcher's run: the helper finalizes MPI and ends. */
static bool end_helper(struct workers *w) {
    int64_t bye = -1;
    bool ok = helper_put(w, &bye, sizeof bye);
    close(w->helper);
    int st;
    ok = waitpid(w->helper_pid, &st, 0) == w->helper_pid && ok && WIFEXITED(st) &&
         WEXITSTATUS(st) == 0;
    return ok;
}

struct agreement {
    int k;
    uint64_t (*theirs)[WORKERS_FACTS]; /* each worker's digests */
};

static void take_facts(void *ctx, int from, const void *msg, uint32_t len) {
    struct agreement *a = ctx;
    if (from >= 0 && from < a->k && len >= sizeof a->theirs[from])
        memcpy(a->theirs[from], msg, sizeof a->theirs[from]);
}

bool workers_agree(struct workers *w, const struct workers_fact facts[WORKERS_FACTS],
                   struct sim_error *err) {
    uint64_t mine[WORKERS_FACTS];
    for (int i = 0; i < WORKERS_FACTS; i++)
        mine[i] = facts[i].digest;
    for (int j = 0; j < w->k; j++)
        if (j != w->me) workers_post(w, j, mine, sizeof mine);
    struct agreement a = {w->k, xcalloc((size_t)w->k, sizeof *a.theirs)};
    memcpy(a.theirs[w->me], mine, sizeof mine);
    simtime_t least;
    bool ok = workers_exchange(w, 0, &least, take_facts, &a, err);
    for (int j = 0; ok && j < w->k; j++)
        for (int i = 0; ok && i < WORKERS_FACTS; i++)
            if (a.theirs[j][i] != mine[i])
                ok = err_set(err,
                             "the processes of this split run do not run the same simulation: "
                             "process %d's %s differs from process %d's%s%s; every process "
                             "must be started with the same command",
                             j, facts[i].name, w->me, *facts[i].hint ? " " : "", facts[i].hint);
    free(a.theirs);
    return ok;
}

bool workers_end(struct workers *w, int status, struct sim_error *err) {
    if (w->helper >= 0) {
        bool ok = end_helper(w);
        if (w->me != 0) {
            fflush(NULL);
            err_exit_process(status);
        }
        workers_free(w);
        return ok || err_set(err, "the MPI transport did not end cleanly");
    }
    if (w->me != 0) {
        fflush(NULL);
        err_exit_process(status);
    }
    if (watched == w) { /* the others end now, reaped below */
        signal(SIGCHLD, SIG_DFL);
        watched = NULL;
    }
    hang_up(w);
    bool ok = reap(w, err);
    workers_free(w);
    return ok;
}
