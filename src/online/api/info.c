/* SPDX-License-Identifier: BSD-3-Clause */
/* Info objects (MPI-3.1 chapter 9): keys and values kept per object;
 * simpi acts on no hint. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

/* Info objects: key/value pairs in a small table per handle. */
struct info {
    char **keys, **values;
    int n;
    bool used;
};

static struct info *infos; /* handle = index + 1 */

static int ninfos;

static struct info *info_get(MPI_Info h) {
    static struct info env = {NULL, NULL, 0, true}; /* MPI_INFO_ENV: no hints */
    if (h == MPI_INFO_ENV) return &env;
    return h >= 1 && h <= ninfos && infos[h - 1].used ? &infos[h - 1] : NULL;
}

int PMPI_Info_create(MPI_Info *info) {
    infos = realloc(infos, sizeof *infos * (size_t)(ninfos + 1));
    if (!infos) abort();
    infos[ninfos] = (struct info){NULL, NULL, 0, true};
    *info = ++ninfos;
    return MPI_SUCCESS;
}

int PMPI_Info_set(MPI_Info h, const char *key, const char *value) {
    struct info *in = info_get(h);
    if (!in) return api_error("MPI_Info_set", MPI_ERR_ARG, "info %d is not valid", h);
    for (int i = 0; i < in->n; i++)
        if (!strcmp(in->keys[i], key)) {
            free(in->values[i]);
            in->values[i] = xstrdup(value);
            return MPI_SUCCESS;
        }
    in->keys = realloc(in->keys, sizeof *in->keys * (size_t)(in->n + 1));
    in->values = realloc(in->values, sizeof *in->values * (size_t)(in->n + 1));
    if (!in->keys || !in->values) abort();
    in->keys[in->n] = xstrdup(key);
    in->values[in->n++] = xstrdup(value);
    return MPI_SUCCESS;
}

int PMPI_Info_get(MPI_Info h, const char *key, int valuelen, char *value, int *flag) {
    struct info *in = info_get(h);
    *flag = 0;
    for (int i = 0; in && i < in->n; i++)
        if (!strcmp(in->keys[i], key)) {
            snprintf(value, (size_t)valuelen + 1, "%s", in->values[i]);
            *flag = 1;
        }
    return MPI_SUCCESS;
}

int PMPI_Info_get_nkeys(MPI_Info h, int *nkeys) {
    struct info *in = info_get(h);
    *nkeys = in ? in->n : 0;
    return MPI_SUCCESS;
}

int PMPI_Info_get_nthkey(MPI_Info h, int n, char *key) {
    struct info *in = info_get(h);
    if (!in || n < 0 || n >= in->n)
        return api_error("MPI_Info_get_nthkey", MPI_ERR_ARG, "key %d", n);
    strcpy(key, in->keys[n]);
    return MPI_SUCCESS;
}

int PMPI_Info_get_valuelen(MPI_Info h, const char *key, int *valuelen, int *flag) {
    struct info *in = info_get(h);
    *flag = 0;
    for (int i = 0; in && i < in->n; i++)
        if (!strcmp(in->keys[i], key)) {
            *valuelen = (int)strlen(in->values[i]);
            *flag = 1;
        }
    return MPI_SUCCESS;
}

int PMPI_Info_delete(MPI_Info h, const char *key) {
    struct info *in = info_get(h);
    for (int i = 0; in && i < in->n; i++)
        if (!strcmp(in->keys[i], key)) {
            free(in->keys[i]);
            free(in->values[i]);
            in->keys[i] = in->keys[in->n - 1];
            in->values[i] = in->values[--in->n];
            return MPI_SUCCESS;
        }
    return api_error("MPI_Info_delete", MPI_ERR_ARG, "no key '%s'", key);
}

int PMPI_Info_dup(MPI_Info h, MPI_Info *out) {
    PMPI_Info_create(out);
    struct info *in = info_get(h);
    for (int i = 0; in && i < in->n; i++) {
        PMPI_Info_set(*out, in->keys[i], in->values[i]);
        in = info_get(h); /* the table may have moved */
    }
    return MPI_SUCCESS;
}

int PMPI_Info_free(MPI_Info *h) {
    struct info *in = info_get(*h);
    for (int i = 0; in && i < in->n; i++) {
        free(in->keys[i]);
        free(in->values[i]);
    }
    if (in) {
        free(in->keys);
        free(in->values);
        in->used = false;
    }
    *h = MPI_INFO_NULL;
    return MPI_SUCCESS;
}

/* Hints an object keeps (a window's, a file's): values[i] (width bytes
 * each, "" while unset) takes info's value of keys[i] when it has one. */
void api_hints_take(MPI_Info info, const char *const *keys, int n, char *values, size_t width) {
    for (int i = 0; info != MPI_INFO_NULL && i < n; i++) {
        char value[MPI_MAX_INFO_VAL + 1];
        int flag = 0;
        PMPI_Info_get(info, keys[i], MPI_MAX_INFO_VAL, value, &flag);
        if (flag) snprintf(values + (size_t)i * width, width, "%.*s", (int)width - 1, value);
    }
}

/* A new info of the hints kept: each set value, or its default (defaults
 * NULL: the set ones only). */
int api_hints_info(MPI_Info *info, const char *const *keys, int n, const char *values, size_t width,
                   const char *const *defaults) {
    int rc = PMPI_Info_create(info);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        const char *v = values[(size_t)i * width] ? values + (size_t)i * width
                        : defaults                ? defaults[i]
                                                  : NULL;
        if (v) rc = PMPI_Info_set(*info, keys[i], v);
    }
    return rc;
}

#pragma weak MPI_Info_create = PMPI_Info_create
#pragma weak MPI_Info_set = PMPI_Info_set
#pragma weak MPI_Info_get = PMPI_Info_get
#pragma weak MPI_Info_get_nkeys = PMPI_Info_get_nkeys
#pragma weak MPI_Info_get_nthkey = PMPI_Info_get_nthkey
#pragma weak MPI_Info_get_valuelen = PMPI_Info_get_valuelen
#pragma weak MPI_Info_delete = PMPI_Info_delete
#pragma weak MPI_Info_dup = PMPI_Info_dup
#pragma weak MPI_Info_free = PMPI_Info_free
