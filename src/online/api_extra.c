/* Simple MPI utilities many programs call: memory allocation, profiling
 * control, info objects (kept, but simpi has no hints to act on), handle
 * conversion for Fortran (handles are already integers), the _x query
 * variants, datatype names, and the MPI-1 error-handler names. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/pool.h"
#include "online/api.h"

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void *baseptr) {
    (void)info;
    void *p = malloc(size > 0 ? (size_t)size : 1);
    if (!p) return api_error("MPI_Alloc_mem", MPI_ERR_NO_MEM, "%lld bytes", (long long)size);
    *(void **)baseptr = p;
    return MPI_SUCCESS;
}

int PMPI_Free_mem(void *base) {
    free(base);
    return MPI_SUCCESS;
}

int PMPI_Pcontrol(const int level, ...) {
    (void)level;
    return MPI_SUCCESS;
}

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

/* Handles are integers already: Fortran conversion is the identity. */
MPI_Fint PMPI_Comm_c2f(MPI_Comm comm) {
    return comm;
}
MPI_Comm PMPI_Comm_f2c(MPI_Fint comm) {
    return comm;
}
MPI_Fint PMPI_Type_c2f(MPI_Datatype type) {
    return type;
}
MPI_Datatype PMPI_Type_f2c(MPI_Fint type) {
    return type;
}
MPI_Fint PMPI_Group_c2f(MPI_Group group) {
    return group;
}
MPI_Group PMPI_Group_f2c(MPI_Fint group) {
    return group;
}
MPI_Fint PMPI_Op_c2f(MPI_Op op) {
    return op;
}
MPI_Op PMPI_Op_f2c(MPI_Fint op) {
    return op;
}
MPI_Fint PMPI_Info_c2f(MPI_Info info) {
    return info;
}
MPI_Info PMPI_Info_f2c(MPI_Fint info) {
    return info;
}
MPI_Fint PMPI_Errhandler_c2f(MPI_Errhandler e) {
    return e;
}
MPI_Errhandler PMPI_Errhandler_f2c(MPI_Fint e) {
    return e;
}

int PMPI_Type_size_x(MPI_Datatype type, MPI_Count *size) {
    int s;
    int rc = PMPI_Type_size(type, &s);
    *size = s;
    return rc;
}

int PMPI_Type_get_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent) {
    MPI_Aint l, e;
    int rc = PMPI_Type_get_extent(type, &l, &e);
    *lb = l;
    *extent = e;
    return rc;
}

int PMPI_Type_get_true_extent_x(MPI_Datatype type, MPI_Count *lb, MPI_Count *extent) {
    MPI_Aint l, e;
    int rc = PMPI_Type_get_true_extent(type, &l, &e);
    *lb = l;
    *extent = e;
    return rc;
}

int PMPI_Get_elements_x(const MPI_Status *status, MPI_Datatype type, MPI_Count *count) {
    int c;
    int rc = PMPI_Get_elements(status, type, &c);
    *count = c;
    return rc;
}

/* Datatype names: the predefined ones by their MPI name, others as set. */
struct tname {
    int type;
    char name[MPI_MAX_OBJECT_NAME];
};
static struct tname *tnames;
static int ntnames;

int PMPI_Type_set_name(MPI_Datatype type, const char *name) {
    tnames = realloc(tnames, sizeof *tnames * (size_t)(ntnames + 1));
    if (!tnames) abort();
    tnames[ntnames].type = type;
    snprintf(tnames[ntnames++].name, MPI_MAX_OBJECT_NAME, "%s", name);
    return MPI_SUCCESS;
}

int PMPI_Type_get_name(MPI_Datatype type, char *name, int *len) {
    static const char *const predefined[] = {
#define N(t) [t] = #t
        N(MPI_CHAR),
        N(MPI_SIGNED_CHAR),
        N(MPI_UNSIGNED_CHAR),
        N(MPI_BYTE),
        N(MPI_SHORT),
        N(MPI_UNSIGNED_SHORT),
        N(MPI_INT),
        N(MPI_UNSIGNED),
        N(MPI_LONG),
        N(MPI_UNSIGNED_LONG),
        N(MPI_LONG_LONG_INT),
        N(MPI_UNSIGNED_LONG_LONG),
        N(MPI_FLOAT),
        N(MPI_DOUBLE),
        N(MPI_LONG_DOUBLE),
        N(MPI_WCHAR),
        N(MPI_C_BOOL),
        N(MPI_INT8_T),
        N(MPI_INT16_T),
        N(MPI_INT32_T),
        N(MPI_INT64_T),
        N(MPI_UINT8_T),
        N(MPI_UINT16_T),
        N(MPI_UINT32_T),
        N(MPI_UINT64_T),
        N(MPI_AINT),
        N(MPI_OFFSET),
        N(MPI_COUNT),
        N(MPI_PACKED),
        N(MPI_FLOAT_INT),
        N(MPI_DOUBLE_INT),
        N(MPI_LONG_INT),
        N(MPI_2INT),
        N(MPI_SHORT_INT),
        N(MPI_LONG_DOUBLE_INT),
        N(MPI_C_FLOAT_COMPLEX),
        N(MPI_C_DOUBLE_COMPLEX),
        N(MPI_C_LONG_DOUBLE_COMPLEX),
        N(MPI_CXX_BOOL),
        N(MPI_CXX_FLOAT_COMPLEX),
        N(MPI_CXX_DOUBLE_COMPLEX),
        N(MPI_CXX_LONG_DOUBLE_COMPLEX),
        N(MPI_INTEGER),
        N(MPI_REAL),
        N(MPI_DOUBLE_PRECISION),
        N(MPI_COMPLEX),
        N(MPI_DOUBLE_COMPLEX),
        N(MPI_LOGICAL),
        N(MPI_CHARACTER),
        N(MPI_INTEGER1),
        N(MPI_INTEGER2),
        N(MPI_INTEGER4),
        N(MPI_INTEGER8),
        N(MPI_REAL4),
        N(MPI_REAL8),
        N(MPI_REAL16),
        N(MPI_COMPLEX8),
        N(MPI_COMPLEX16),
        N(MPI_COMPLEX32),
        N(MPI_2REAL),
        N(MPI_2DOUBLE_PRECISION),
        N(MPI_2INTEGER),
        N(MPI_INTEGER16),
        N(MPI_LB),
        N(MPI_UB),
        N(MPI_LONG_LONG),
#undef N
    };
    const char *found =
        type > 0 && type < (int)(sizeof predefined / sizeof *predefined) && predefined[type]
            ? predefined[type]
            : "";
    for (int i = 0; i < ntnames; i++)
        if (tnames[i].type == type) found = tnames[i].name;
    *len = snprintf(name, MPI_MAX_OBJECT_NAME, "%s", found);
    return MPI_SUCCESS;
}

int PMPI_Errhandler_create(MPI_Handler_function *fn, MPI_Errhandler *e) {
    return PMPI_Comm_create_errhandler(fn, e);
}
int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler e) {
    return PMPI_Comm_set_errhandler(comm, e);
}
int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler *e) {
    return PMPI_Comm_get_errhandler(comm, e);
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int code) {
    api_comm_error(comm, "MPI_Comm_call_errhandler", code, "raised by the program");
    return MPI_SUCCESS;
}

#pragma weak MPI_Alloc_mem = PMPI_Alloc_mem
#pragma weak MPI_Free_mem = PMPI_Free_mem
#pragma weak MPI_Pcontrol = PMPI_Pcontrol
#pragma weak MPI_Info_create = PMPI_Info_create
#pragma weak MPI_Info_set = PMPI_Info_set
#pragma weak MPI_Info_get = PMPI_Info_get
#pragma weak MPI_Info_get_nkeys = PMPI_Info_get_nkeys
#pragma weak MPI_Info_get_nthkey = PMPI_Info_get_nthkey
#pragma weak MPI_Info_get_valuelen = PMPI_Info_get_valuelen
#pragma weak MPI_Info_delete = PMPI_Info_delete
#pragma weak MPI_Info_dup = PMPI_Info_dup
#pragma weak MPI_Info_free = PMPI_Info_free
#pragma weak MPI_Comm_c2f = PMPI_Comm_c2f
#pragma weak MPI_Comm_f2c = PMPI_Comm_f2c
#pragma weak MPI_Type_c2f = PMPI_Type_c2f
#pragma weak MPI_Type_f2c = PMPI_Type_f2c
#pragma weak MPI_Group_c2f = PMPI_Group_c2f
#pragma weak MPI_Group_f2c = PMPI_Group_f2c
#pragma weak MPI_Op_c2f = PMPI_Op_c2f
#pragma weak MPI_Op_f2c = PMPI_Op_f2c
#pragma weak MPI_Info_c2f = PMPI_Info_c2f
#pragma weak MPI_Info_f2c = PMPI_Info_f2c
#pragma weak MPI_Errhandler_c2f = PMPI_Errhandler_c2f
#pragma weak MPI_Errhandler_f2c = PMPI_Errhandler_f2c
#pragma weak MPI_Type_size_x = PMPI_Type_size_x
#pragma weak MPI_Type_get_extent_x = PMPI_Type_get_extent_x
#pragma weak MPI_Type_get_true_extent_x = PMPI_Type_get_true_extent_x
#pragma weak MPI_Get_elements_x = PMPI_Get_elements_x
#pragma weak MPI_Type_set_name = PMPI_Type_set_name
#pragma weak MPI_Type_get_name = PMPI_Type_get_name
#pragma weak MPI_Errhandler_create = PMPI_Errhandler_create
#pragma weak MPI_Errhandler_set = PMPI_Errhandler_set
#pragma weak MPI_Errhandler_get = PMPI_Errhandler_get
#pragma weak MPI_Comm_call_errhandler = PMPI_Comm_call_errhandler
