/* SPDX-License-Identifier: BSD-3-Clause */
/* Bounded whole-file reads; see readfile.h. */
#include "core/readfile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/alloc.h"

char *readfile(const char *path, size_t limit, size_t *len, const char *what,
               struct sim_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        err_set(err, "%s: cannot open the %s: %s", path, what, strerror(errno));
        return NULL;
    }
    struct stat st;
    if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(f);
        err_set(err, "%s: the %s is a folder, not a file", path, what);
        return NULL;
    }
    size_t cap = 4096, n = 0, got;
    char *buf = xmalloc(cap + 1);
    while ((got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n > limit) break;
        if (n == cap) buf = xrealloc_or_die(buf, (cap *= 2) + 1);
    }
    int e = ferror(f) ? errno : 0;
    fclose(f);
    if (n > limit || e) {
        free(buf);
        if (e)
            err_set(err, "%s: cannot read the %s: %s", path, what, strerror(e));
        else
            err_set(err, "%s: the %s is larger than %zu MiB (an endless input such as /dev/zero?)",
                    path, what, limit >> 20);
        return NULL;
    }
    buf[n] = 0;
    *len = n;
    return buf;
}
