/* SPDX-License-Identifier: BSD-3-Clause */
/* Per-rank native trace files, appended to piecewise (see rankfile.h). */
#include "core/rankfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

void rankfile_path(const char *dir, int32_t rank, char *out, size_t n) {
    snprintf(out, n, "%s/rank%d.trace", dir, rank);
}

void rankfile_remove(const char *dir, int32_t first, int32_t count) {
    char path[4200];
    for (int32_t r = first; count < 0 || r < first + count; r++) {
        rankfile_path(dir, r, path, sizeof path);
        if (unlink(path) != 0 && count < 0) return;
    }
}

static bool write_all(int fd, const char *buf, size_t len) {
    for (size_t off = 0; off < len;) {
        ssize_t w = write(fd, buf + off, len - off);
        if (w <= 0) return false;
        off += (size_t)w;
    }
    return true;
}

bool rankfile_append(const char *dir, int32_t rank, int32_t nranks, bool *started, const char *buf,
                     size_t len) {
    char path[4200];
    rankfile_path(dir, rank, path, sizeof path);
    int fd = open(
        path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (*started ? O_APPEND : O_TRUNC), 0666);
    bool ok = fd >= 0;
    if (ok && !*started) {
        char head[64];
        int n = snprintf(head, sizeof head, "simpi-trace 1\nranks %d\n", nranks);
        ok = write_all(fd, head, (size_t)n);
    }
    ok = ok && write_all(fd, buf, len);
    int saved = errno;
    if (fd >= 0 && close(fd) != 0)
        ok = false;
    else
        errno = saved;
    *started = true;
    if (!ok && !errno) errno = EIO;
    return ok;
}
