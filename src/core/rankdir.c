/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-rank trace folders written through a private staging folder; see
 * rankdir.h. */
#include "core/rankdir.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/alloc.h"
#include "core/outfile.h"
#include "core/rankfile.h"

bool rankdir_check_owner(const char *path, const char *what, struct sim_error *err) {
    struct stat ls, st;
    if (lstat(path, &ls) != 0) return true; /* absent: created by this user */
    uid_t me = geteuid();
    if (S_ISLNK(ls.st_mode) && ls.st_uid != me && ls.st_uid != 0)
        return err_set(err,
                       "%s %s: a symbolic link owned by another user (uid %u); refusing to "
                       "write through it",
                       what, path, (unsigned)ls.st_uid);
    if (stat(path, &st) != 0) return err_set(err, "%s %s: %s", what, path, strerror(errno));
    if (!S_ISDIR(st.st_mode)) return err_set(err, "%s %s: not a folder", what, path);
    if (st.st_uid != me)
        return err_set(err,
                       "%s %s: the folder belongs to another user (uid %u); refusing to "
                       "write traces into it",
                       what, path, (unsigned)st.st_uid);
    return true;
}

bool rankdir_begin(struct rankdir *d, const char *dir, const char *what, struct sim_error *err) {
    memset(d, 0, sizeof *d);
    if (mkdir(dir, 0777) != 0 && errno != EEXIST)
        return err_set(err, "%s %s: cannot create the folder: %s", what, dir, strerror(errno));
    if (!rankdir_check_owner(dir, what, err)) return false;
    size_t n = strlen(dir) + 32;
    d->stage = xmalloc(n);
    snprintf(d->stage, n, "%s/.simpi-stage.XXXXXX", dir);
    if (!mkdtemp(d->stage)) {
        int e = errno;
        free(d->stage);
        d->stage = NULL;
        return err_set(err, "%s %s: cannot write in the folder: %s", what, dir, strerror(e));
    }
    d->dir = xstrdup(dir);
    outfile_note_temp_dir(d->stage); /* removed if the process is killed */
    return true;
}

static void release(struct rankdir *d) {
    if (d->stage) outfile_forget_temp_dir(d->stage);
    free(d->dir);
    free(d->stage);
    memset(d, 0, sizeof *d);
}

void rankdir_abandon(struct rankdir *d, int32_t nranks) {
    if (!d->stage) return;
    rankfile_remove(d->stage, 0, nranks);
    rmdir(d->stage);
    release(d);
}

bool rankdir_commit(struct rankdir *d, int32_t nranks, struct sim_error *err) {
    char from[4200], to[4200];
    int fd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) flock(fd, LOCK_EX); /* the folder itself: one run's set at a time */
    bool ok = true;
    for (int32_t r = 0; r < nranks && ok; r++) {
        rankfile_path(d->stage, r, from, sizeof from);
        rankfile_path(d->dir, r, to, sizeof to);
        if (rename(from, to) != 0) ok = err_set(err, "cannot write %s: %s", to, strerror(errno));
    }
    if (ok) rankfile_remove(d->dir, nranks, -1); /* a larger earlier run's files */
    if (fd >= 0) close(fd);
    if (!ok) {
        rankdir_abandon(d, nranks);
        return false;
    }
    rmdir(d->stage);
    release(d);
    return true;
}
