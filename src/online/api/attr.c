/* SPDX-License-Identifier: BSD-3-Clause */
/* Caching (MPI-3.1 section 6.7): keyvals and attributes on communicators,
 * datatypes and windows, the predefined attributes of MPI_COMM_WORLD, and
 * the MPI-1 names (Keyval_create, Attr_put...). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"

/* Predefined attributes, then the user's (api_user_attr). */
bool api_user_attr(MPI_Comm comm, int keyval, void **value);

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void *value, int *flag) {
    static int tag_ub = 0x7fffffff, host = MPI_PROC_NULL, io = MPI_ANY_SOURCE, wtime_global = 1;
    static int universe, lastused;
    universe = simpi_rt ? simpi_rt->n : 1;
    lastused = api_last_used_code();
    if (api_user_attr(comm, keyval, (void **)value)) {
        *flag = 1;
        return MPI_SUCCESS;
    }
    int *v = keyval == MPI_TAG_UB            ? &tag_ub
             : keyval == MPI_HOST            ? &host
             : keyval == MPI_IO              ? &io
             : keyval == MPI_WTIME_IS_GLOBAL ? &wtime_global
             : keyval == MPI_UNIVERSE_SIZE   ? &universe
             : keyval == MPI_LASTUSEDCODE    ? &lastused
                                             : NULL; /* MPI_APPNUM: not set */
    *flag = v != NULL;
    if (v) *(int **)value = v;
    return MPI_SUCCESS;
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void *value, int *flag) {
    return PMPI_Comm_get_attr(comm, keyval, value, flag);
}

/* Keyvals and attributes of communicators and datatypes (their handles are
 * ints, so their callbacks have the same type). */
enum attr_kind { ATTR_COMM, ATTR_TYPE, ATTR_WIN };

struct keyval {
    MPI_Comm_copy_attr_function *copy;
    MPI_Comm_delete_attr_function *del;
    void *extra;
    bool used;    /* the keyval exists (freed ones live on while attributes use them) */
    bool freed;   /* MPI_*_free_keyval was called */
    int32_t refs; /* attributes set with it */
    uint8_t kind;
};

static struct keyval *keyvals; /* keyval = index + KEYVAL_BASE */

static int nkeyvals;

#define KEYVAL_BASE 16

struct attr {
    struct attr *next;
    int32_t rank;
    MPI_Comm comm; /* or the datatype */
    int keyval;
    void *value;
    uint8_t kind;
};

static struct attr *attrs;

/* MPI_COMM_DUP_FN, MPI_TYPE_DUP_FN, MPI_WIN_DUP_FN: the copy keeps the
 * attribute value. */
static int dup_value(void *in, void *out, int *flag) {
    *(void **)out = in;
    *flag = 1;
    return MPI_SUCCESS;
}

int simpi_comm_dup_fn(MPI_Comm comm, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)comm, (void)keyval, (void)extra;
    return dup_value(in, out, flag);
}

int simpi_type_dup_fn(MPI_Datatype type, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)type, (void)keyval, (void)extra;
    return dup_value(in, out, flag);
}

int simpi_win_dup_fn(MPI_Win win, int keyval, void *extra, void *in, void *out, int *flag) {
    (void)win, (void)keyval, (void)extra;
    return dup_value(in, out, flag);
}

static struct keyval *keyval_get(int k, enum attr_kind kind) {
    return k >= KEYVAL_BASE && k - KEYVAL_BASE < nkeyvals && keyvals[k - KEYVAL_BASE].used &&
                   keyvals[k - KEYVAL_BASE].kind == kind
               ? &keyvals[k - KEYVAL_BASE]
               : NULL;
}

static int keyval_create(enum attr_kind kind, MPI_Comm_copy_attr_function *copy,
                         MPI_Comm_delete_attr_function *del, int *keyval, void *extra) {
    keyvals = realloc(keyvals, sizeof *keyvals * (size_t)(nkeyvals + 1));
    if (!keyvals) abort();
    keyvals[nkeyvals] = (struct keyval){copy, del, extra, true, false, 0, (uint8_t)kind};
    *keyval = KEYVAL_BASE + nkeyvals++;
    return MPI_SUCCESS;
}

/* A freed keyval stays valid for the attributes still set with it (MPI
 * counts references) and disappears with the last one. */
static int keyval_free(const char *func, enum attr_kind kind, int *keyval) {
    struct keyval *k = keyval_get(*keyval, kind);
    if (!k) return api_error(func, MPI_ERR_KEYVAL, "keyval %d", *keyval);
    k->freed = true; /* again while attributes keep it: nothing more (as MPICH) */
    if (k->refs == 0) k->used = false;
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

static void attr_unlink(struct attr **pp) {
    struct attr *a = *pp;
    struct keyval *k = &keyvals[a->keyval - KEYVAL_BASE];
    *pp = a->next;
    free(a);
    if (--k->refs == 0 && k->freed) k->used = false;
}

static struct attr **attr_find(enum attr_kind kind, int obj, int keyval) {
    int32_t r = runtime_rank();
    struct attr **pp = &attrs;
    while (*pp && !((*pp)->rank == r && (*pp)->kind == kind && (*pp)->comm == obj &&
                    (*pp)->keyval == keyval))
        pp = &(*pp)->next;
    return pp;
}

/* copying: an attribute copied on dup may use a freed keyval */
static int attr_store(const char *func, enum attr_kind kind, int obj, int keyval, void *value,
                      bool copying) {
    struct keyval *k = keyval_get(keyval, kind);
    if (!k || (k->freed && !copying)) return api_error(func, MPI_ERR_KEYVAL, "keyval %d", keyval);
    struct attr **pp = attr_find(kind, obj, keyval);
    if (*pp && k->del) { /* replacing a value deletes the old one first */
        int rc = k->del(obj, keyval, (*pp)->value, k->extra);
        if (rc != MPI_SUCCESS) return rc;
        pp = attr_find(kind, obj, keyval); /* the callback may have changed the list */
    }
    if (!*pp) {
        *pp = xcalloc(1, sizeof **pp);
        (*pp)->rank = runtime_rank();
        (*pp)->kind = (uint8_t)kind;
        (*pp)->comm = obj;
        (*pp)->keyval = keyval;
        k->refs++;
    }
    (*pp)->value = value;
    return MPI_SUCCESS;
}

static int attr_set(const char *func, enum attr_kind kind, int obj, int keyval, void *value) {
    return attr_store(func, kind, obj, keyval, value, false);
}

/* A value that is not set is not an error: deleting it does nothing. */
static int attr_delete(const char *func, enum attr_kind kind, int obj, int keyval) {
    struct keyval *k = keyval_get(keyval, kind);
    if (!k) return api_error(func, MPI_ERR_KEYVAL, "keyval %d", keyval);
    struct attr *a = *attr_find(kind, obj, keyval);
    if (!a) return MPI_SUCCESS;
    int rc = k->del ? k->del(obj, keyval, a->value, k->extra) : MPI_SUCCESS;
    if (rc != MPI_SUCCESS) return rc;                /* the callback's error: the attribute stays */
    struct attr **pp = attr_find(kind, obj, keyval); /* the callback may have changed the list */
    if (*pp) attr_unlink(pp);
    return MPI_SUCCESS;
}

/* On dup: the copy callbacks decide what the new object gets. */
static int attrs_copy(enum attr_kind kind, int from, int to) {
    int32_t r = runtime_rank();
    for (struct attr *a = attrs; a; a = a->next) {
        struct keyval *k = keyval_get(a->keyval, kind);
        if (a->rank != r || a->kind != kind || a->comm != from || !k || !k->copy) continue;
        void *out = NULL;
        int flag = 0, rc = k->copy(from, a->keyval, k->extra, a->value, &out, &flag);
        if (rc != MPI_SUCCESS) return rc;
        if (flag) attr_store("MPI_Comm_dup", kind, to, a->keyval, out, true);
    }
    return MPI_SUCCESS;
}

/* On free: the delete callbacks run. */
static void attrs_delete(enum attr_kind kind, int obj) {
    int32_t r = runtime_rank();
    for (struct attr **pp = &attrs; *pp;) {
        struct attr *a = *pp;
        if (a->rank != r || a->kind != kind || a->comm != obj) {
            pp = &a->next;
            continue;
        }
        struct keyval *k = keyval_get(a->keyval, kind);
        int key = a->keyval;
        if (k && k->del) k->del(obj, key, a->value, k->extra);
        pp = attr_find(kind, obj, key); /* the callback may have changed the list */
        if (*pp) attr_unlink(pp);
        pp = &attrs;
    }
}

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function *copy, MPI_Comm_delete_attr_function *del,
                            int *keyval, void *extra) {
    return keyval_create(ATTR_COMM, copy, del, keyval, extra);
}

int PMPI_Comm_free_keyval(int *keyval) {
    return keyval_free("MPI_Comm_free_keyval", ATTR_COMM, keyval);
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void *value) {
    return attr_set("MPI_Comm_set_attr", ATTR_COMM, comm, keyval, value);
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval) {
    return attr_delete("MPI_Comm_delete_attr", ATTR_COMM, comm, keyval);
}

/* User keyvals for MPI_Comm_get_attr (the predefined ones are handled there). */
bool api_user_attr(MPI_Comm comm, int keyval, void **value) {
    struct attr *a = *attr_find(ATTR_COMM, comm, keyval);
    if (a) *value = a->value;
    return a != NULL;
}

int api_copy_attrs(MPI_Comm from, MPI_Comm to) {
    return attrs_copy(ATTR_COMM, from, to);
}

void api_delete_attrs(MPI_Comm comm) {
    attrs_delete(ATTR_COMM, comm);
}

/* Datatype attributes: the same store; copied by MPI_Type_dup, deleted by
 * MPI_Type_free. */
int PMPI_Type_create_keyval(MPI_Type_copy_attr_function *copy, MPI_Type_delete_attr_function *del,
                            int *keyval, void *extra) {
    return keyval_create(ATTR_TYPE, (MPI_Comm_copy_attr_function *)copy,
                         (MPI_Comm_delete_attr_function *)del, keyval, extra);
}

int PMPI_Type_free_keyval(int *keyval) {
    return keyval_free("MPI_Type_free_keyval", ATTR_TYPE, keyval);
}

int PMPI_Type_set_attr(MPI_Datatype type, int keyval, void *value) {
    return attr_set("MPI_Type_set_attr", ATTR_TYPE, type, keyval, value);
}

int PMPI_Type_get_attr(MPI_Datatype type, int keyval, void *value, int *flag) {
    if (!keyval_get(keyval, ATTR_TYPE))
        return api_error("MPI_Type_get_attr", MPI_ERR_KEYVAL, "keyval %d", keyval);
    struct attr *a = *attr_find(ATTR_TYPE, type, keyval);
    *flag = a != NULL;
    if (a) *(void **)value = a->value;
    return MPI_SUCCESS;
}

int PMPI_Type_delete_attr(MPI_Datatype type, int keyval) {
    return attr_delete("MPI_Type_delete_attr", ATTR_TYPE, type, keyval);
}

int api_type_copy_attrs(MPI_Datatype from, MPI_Datatype to) {
    return attrs_copy(ATTR_TYPE, from, to);
}

void api_type_delete_attrs(MPI_Datatype type) {
    attrs_delete(ATTR_TYPE, type);
}

/* Window attributes: the same store; deleted by MPI_Win_free. The
 * predefined ones (MPI_WIN_BASE...) are answered by rma.c. */
int PMPI_Win_create_keyval(MPI_Win_copy_attr_function *copy, MPI_Win_delete_attr_function *del,
                           int *keyval, void *extra) {
    return keyval_create(ATTR_WIN, (MPI_Comm_copy_attr_function *)copy,
                         (MPI_Comm_delete_attr_function *)del, keyval, extra);
}

int PMPI_Win_free_keyval(int *keyval) {
    return keyval_free("MPI_Win_free_keyval", ATTR_WIN, keyval);
}

int PMPI_Win_set_attr(MPI_Win win, int keyval, void *value) {
    return attr_set("MPI_Win_set_attr", ATTR_WIN, win, keyval, value);
}

int PMPI_Win_delete_attr(MPI_Win win, int keyval) {
    return attr_delete("MPI_Win_delete_attr", ATTR_WIN, win, keyval);
}

int api_win_get_user_attr(MPI_Win win, int keyval, void *value, int *flag) {
    if (!keyval_get(keyval, ATTR_WIN))
        return api_error("MPI_Win_get_attr", MPI_ERR_KEYVAL, "keyval %d", keyval);
    struct attr *a = *attr_find(ATTR_WIN, win, keyval);
    *flag = a != NULL;
    if (a) *(void **)value = a->value;
    return MPI_SUCCESS;
}

void api_win_delete_attrs(MPI_Win win) {
    attrs_delete(ATTR_WIN, win);
}

int PMPI_Keyval_create(MPI_Copy_function *copy, MPI_Delete_function *del, int *keyval,
                       void *extra) {
    return PMPI_Comm_create_keyval(copy, del, keyval, extra);
}

int PMPI_Keyval_free(int *keyval) {
    return PMPI_Comm_free_keyval(keyval);
}

int PMPI_Attr_put(MPI_Comm comm, int keyval, void *value) {
    return PMPI_Comm_set_attr(comm, keyval, value);
}

int PMPI_Attr_delete(MPI_Comm comm, int keyval) {
    return PMPI_Comm_delete_attr(comm, keyval);
}

#pragma weak MPI_Comm_get_attr = PMPI_Comm_get_attr
#pragma weak MPI_Attr_get = PMPI_Attr_get
#pragma weak MPI_Win_create_keyval = PMPI_Win_create_keyval
#pragma weak MPI_Win_free_keyval = PMPI_Win_free_keyval
#pragma weak MPI_Win_set_attr = PMPI_Win_set_attr
#pragma weak MPI_Win_delete_attr = PMPI_Win_delete_attr
#pragma weak MPI_Type_create_keyval = PMPI_Type_create_keyval
#pragma weak MPI_Type_free_keyval = PMPI_Type_free_keyval
#pragma weak MPI_Type_set_attr = PMPI_Type_set_attr
#pragma weak MPI_Type_get_attr = PMPI_Type_get_attr
#pragma weak MPI_Type_delete_attr = PMPI_Type_delete_attr
#pragma weak MPI_Comm_create_keyval = PMPI_Comm_create_keyval
#pragma weak MPI_Comm_free_keyval = PMPI_Comm_free_keyval
#pragma weak MPI_Comm_set_attr = PMPI_Comm_set_attr
#pragma weak MPI_Comm_delete_attr = PMPI_Comm_delete_attr
#pragma weak MPI_Keyval_create = PMPI_Keyval_create
#pragma weak MPI_Keyval_free = PMPI_Keyval_free
#pragma weak MPI_Attr_put = PMPI_Attr_put
#pragma weak MPI_Attr_delete = PMPI_Attr_delete
