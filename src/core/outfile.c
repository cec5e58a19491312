/* SPDX-License-Identifier: BSD-3-Clause */
/* Atomic, checked output files; see outfile.h. */
#include "core/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/rankfile.h"

/* The temporaries being written, for outfile_remove_pending (a fixed table:
 * a signal handler may read it at any moment). */
#define PENDING_MAX 64
static char *volatile pending[PENDING_MAX];

static void pending_add(char *tmp) {
    for (int i = 0; i < PENDING_MAX; i++)
        if (!pending[i]) {
            pending[i] = tmp;
            return;
        }
}

static void pending_remove(const char *tmp) {
    for (int i = 0; i < PENDING_MAX; i++)
        if (pending[i] == tmp) pending[i] = NULL;
}

/* Temporary folders of rank files (a translation, a staging folder). */
#define DIRS_MAX 8
static char *volatile temp_dirs[DIRS_MAX];

void outfile_note_temp_dir(char *dir) {
    for (int i = 0; i < DIRS_MAX; i++)
        if (!temp_dirs[i]) {
            temp_dirs[i] = dir;
            return;
        }
}

void outfile_forget_temp_dir(const char *dir) {
    for (int i = 0; i < DIRS_MAX; i++)
        if (temp_dirs[i] == dir) temp_dirs[i] = NULL;
}

void outfile_remove_pending(void) {
    for (int i = 0; i < PENDING_MAX; i++)
        if (pending[i]) unlink(pending[i]);
    for (int i = 0; i < DIRS_MAX; i++)
        if (temp_dirs[i]) { /* (snprintf: not strictly async-signal-safe; glibc's takes no lock) */
            rankfile_remove(temp_dirs[i], 0, -1);
            rmdir(temp_dirs[i]);
        }
}

/* The descriptor that a path names ("/proc/self/fd/N", "/dev/fd/N",
 * "/proc/<this pid>/fd/N"), or -1. */
static int descriptor_named(const char *path) {
    char self[48];
    snprintf(self, sizeof self, "/proc/%ld/fd/", (long)getpid());
    const char *prefixes[] = {"/proc/self/fd/", "/dev/fd/", self};
    for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) != 0) continue;
        char *end;
        errno = 0;
        long fd = strtol(path + n, &end, 10);
        if (end != path + n && !*end && !errno && fd >= 0 && fd <= INT_MAX) return (int)fd;
    }
    return -1;
}

/* The kernel's protected_symlinks rule, which following a link by hand
 * would bypass: a link in a sticky folder anyone may write (/tmp) is
 * followed only when its owner is this user or the folder's owner. */
static bool link_may_be_followed(const char *link, const struct stat *ls) {
    if (ls->st_uid == geteuid()) return true;
    char *dir = xstrdup(link);
    char *slash = strrchr(dir, '/');
    if (!slash)
        strcpy(dir, ".");
    else if (slash == dir)
        dir[1] = '\0';
    else
        *slash = '\0';
    struct stat ds;
    bool ok = stat(dir, &ds) != 0 || !(ds.st_mode & S_ISVTX) || !(ds.st_mode & S_IWOTH) ||
              ds.st_uid == ls->st_uid;
    free(dir);
    return ok;
}

/* Follows path's chain of links (as open() would) to the file it names,
 * which need not exist: *dest is that path (allocated), or *fd the
 * descriptor when the chain reaches /dev/stdout's kind of name. */
static bool resolve_links(const char *path, char **dest, int *fd, struct sim_error *err) {
    char *cur = xstrdup(path);
    *fd = -1;
    for (int hops = 0;; hops++) {
        if ((*fd = descriptor_named(cur)) >= 0) break;
        struct stat ls;
        if (lstat(cur, &ls) != 0 || !S_ISLNK(ls.st_mode)) break;
        if (hops == 40 || !link_may_be_followed(cur, &ls)) {
            free(cur);
            return err_set(err, "cannot write %s: %s", path,
                           hops == 40 ? "too many levels of links"
                                      : "a link in a shared folder, owned by another user");
        }
        char target[4096];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0) break;
        target[n] = '\0';
        char *next;
        char *slash = strrchr(cur, '/');
        if (target[0] == '/' || !slash) {
            next = xstrdup(target);
        } else { /* relative to the link's folder */
            size_t len = (size_t)(slash - cur) + 1 + strlen(target) + 1;
            next = xmalloc(len);
            snprintf(next, len, "%.*s/%s", (int)(slash - cur), cur, target);
        }
        free(cur);
        cur = next;
    }
    *dest = cur;
    return true;
}

/* Writes directly to descriptor fd (the caller's standard output, say),
 * at its own offset and mode, after what simpi already wrote there. */
static bool open_descriptor(struct outfile *o, const char *path, int fd, struct sim_error *err) {
    fflush(stdout);
    fflush(stderr);
    int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);
    if (copy < 0 || !(o->f = fdopen(copy, "w"))) {
        int e = errno;
        if (copy >= 0) close(copy);
        return err_set(err, "cannot write %s: descriptor %d: %s", path, fd, strerror(e));
    }
    o->path = xstrdup(path);
    o->in_place = true;
    return true;
}

/* A temporary beside dest, renamed over it at commit. */
static bool open_temporary(struct outfile *o, const char *dest, struct sim_error *err) {
    size_t n = strlen(dest) + 32;
    o->tmp = xmalloc(n);
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", dest);
    int fd = mkstemp(o->tmp);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        return err_set(err, "cannot write %s: %s", dest, strerror(e));
    }
    mode_t mask = umask(0); /* mkstemp made it 0600: give it what open() would */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    pending_add(o->tmp);
    return true;
}

bool outfile_open(struct outfile *o, const char *path, struct sim_error *err) {
    memset(o, 0, sizeof *o);
    if (!strcmp(path, "-")) {
        o->f = stdout;
        o->path = xstrdup(path);
        return true;
    }
    char *dest;
    int fd;
    if (!resolve_links(path, &dest, &fd, err)) return false;
    if (fd >= 0) {
        free(dest);
        return open_descriptor(o, path, fd, err);
    }
    struct stat st;
    bool exists = stat(dest, &st) == 0, ok = true;
    if (exists && S_ISDIR(st.st_mode)) {
        ok = err_set(err, "cannot write %s: it is a directory", path);
    } else if (exists && !S_ISREG(st.st_mode)) { /* a device or a pipe: written in place */
        if (!(o->f = fopen(dest, "w")))
            ok = err_set(err, "cannot write %s: %s", path, strerror(errno));
        o->in_place = ok;
    } else { /* a link to a file is kept, and the file it names replaced */
        ok = open_temporary(o, dest, err);
    }
    if (ok) o->path = xstrdup(o->tmp ? dest : path); /* (what the temporary replaces) */
    free(dest);
    return ok;
}

static void release(struct outfile *o) {
    if (o->tmp) pending_remove(o->tmp);
    free(o->path);
    free(o->tmp);
    memset(o, 0, sizeof *o);
}

bool outfile_commit(struct outfile *o, struct sim_error *err) {
    bool ok = true;
    if (!o->tmp) { /* standard output, a device or a pipe */
        errno = 0;
        bool bad = fflush(o->f) != 0 || ferror(o->f);
        int e = errno ? errno : EIO;
        if (o->in_place && fclose(o->f) != 0 && !bad) bad = true, e = errno;
        if (bad) ok = err_set(err, "cannot write %s: %s", o->path, strerror(e));
        release(o);
        return ok;
    }
    int e = 0;
    if (fflush(o->f) != 0 || ferror(o->f) || fsync(fileno(o->f)) != 0) e = errno ? errno : EIO;
    if (fclose(o->f) != 0 && !e) e = errno;
    if (!e && rename(o->tmp, o->path) != 0) e = errno;
    if (e) {
        unlink(o->tmp);
        ok = err_set(err, "cannot write %s: %s", o->path, strerror(e));
    }
    release(o);
    return ok;
}

bool outfile_writable(const char *path, struct sim_error *err) {
    struct outfile o;
    struct stat st;
    if (!path || !strcmp(path, "-") ||
        (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
        return true;
    if (!outfile_open(&o, path, err)) return false;
    struct statvfs fs; /* a full file system: said now, not after the run */
    bool full = o.tmp && fstatvfs(fileno(o.f), &fs) == 0 && fs.f_bavail == 0;
    outfile_discard(&o);
    if (full) return err_set(err, "cannot write %s: its file system is full", path);
    return true;
}

void outfile_discard(struct outfile *o) {
    if (o->in_place) fclose(o->f);
    if (o->tmp) {
        fclose(o->f);
        unlink(o->tmp);
    }
    release(o);
}
