/* Atomic, checked output files; see outfile.h. */
#include "core/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/pool.h"
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

bool outfile_open(struct outfile *o, const char *path, struct sim_error *err) {
    memset(o, 0, sizeof *o);
    if (!strcmp(path, "-")) {
        o->f = stdout;
        o->path = xstrdup(path);
        return true;
    }
    struct stat st;
    bool exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return err_set(err, "cannot write %s: it is a directory", path);
    if (exists && !S_ISREG(st.st_mode)) { /* a device or a pipe: written in place */
        if (!(o->f = fopen(path, "w")))
            return err_set(err, "cannot write %s: %s", path, strerror(errno));
        o->path = xstrdup(path);
        o->in_place = true;
        return true;
    }
    size_t n = strlen(path) + 32;
    o->tmp = xmalloc(n);
    snprintf(o->tmp, n, "%s.tmp.XXXXXX", path);
    int fd = mkstemp(o->tmp);
    if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
        int e = errno;
        if (fd >= 0) {
            close(fd);
            unlink(o->tmp);
        }
        free(o->tmp);
        o->tmp = NULL;
        return err_set(err, "cannot write %s: %s", path, strerror(e));
    }
    mode_t mask = umask(0); /* mkstemp made it 0600: give it what open() would */
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    o->path = xstrdup(path);
    pending_add(o->tmp);
    return true;
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

void outfile_discard(struct outfile *o) {
    if (o->in_place) fclose(o->f);
    if (o->tmp) {
        fclose(o->f);
        unlink(o->tmp);
    }
    release(o);
}
