/* SPDX-License-Identifier: BSD-3-Clause */
/* The hand-written part of the Fortran bindings (see support.h): sentinels,
 * request handles as integers, CHARACTER arguments, and the calls whose
 * Fortran form differs from C's beyond passing by reference (MPI_Init,
 * attributes, which Fortran passes as integer values). */
#include "fortran/support.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/alloc.h"
#include "online/api/api.h"
#include "online/images.h"

/* A Fortran status is INTEGER(MPI_STATUS_SIZE) (8 in mpif.h): the same
 * bytes as a C MPI_Status, its first three the source, tag and error. */
_Static_assert(sizeof(MPI_Status) == 8 * sizeof(MPI_Fint), "MPI_STATUS_SIZE is 8 in mpif.h");

/* The addresses of mpif.h's sentinel COMMON blocks, given by the boot
 * object linked into every program (boot.c), where they are defined. A
 * rank running in an image of the program (images.c) passes its image's:
 * compared by their address in the program (is). */
static const void *bottom, *in_place, *status_ignore, *statuses_ignore, *errcodes_ignore,
    *unweighted, *weights_empty;

void simpi_fortran_sentinels(const void *const s[7]) {
    bottom = s[0];
    in_place = s[1];
    status_ignore = s[2];
    statuses_ignore = s[3];
    errcodes_ignore = s[4];
    unweighted = s[5];
    weights_empty = s[6];
}

static bool is(const void *p, const void *sentinel) {
    return p && images_home(p) == sentinel;
}

void *f_buf(const void *buf) {
    if (is(buf, bottom)) return MPI_BOTTOM;
    if (is(buf, in_place)) return MPI_IN_PLACE;
    return (void *)buf;
}

MPI_Status *f_status(MPI_Fint *status) {
    return is(status, status_ignore) ? MPI_STATUS_IGNORE : (MPI_Status *)status;
}

MPI_Status *f_statuses(MPI_Fint *statuses) {
    return is(statuses, statuses_ignore) ? MPI_STATUSES_IGNORE : (MPI_Status *)statuses;
}

int *f_errcodes(MPI_Fint *codes) {
    return is(codes, errcodes_ignore) ? MPI_ERRCODES_IGNORE : codes;
}

int *f_weights(MPI_Fint *weights) {
    if (is(weights, unweighted)) return MPI_UNWEIGHTED;
    if (is(weights, weights_empty)) return MPI_WEIGHTS_EMPTY;
    return weights;
}

/* --- requests --- */

static MPI_Request *reqs; /* integer i + 1 -> request */
static int nreqs, cap_reqs;
static int *free_slots, nfree;

MPI_Request f_req_in(MPI_Fint f) {
    return f > 0 && f <= nreqs ? reqs[f - 1] : MPI_REQUEST_NULL;
}

static MPI_Fint slot_for(MPI_Request c) {
    if (c->fint > 0 && c->fint <= nreqs && reqs[c->fint - 1] == c) return c->fint; /* known */
    int i;
    if (nfree) {
        i = free_slots[--nfree];
    } else {
        if (nreqs == cap_reqs) {
            cap_reqs = cap_reqs ? 2 * cap_reqs : 64;
            reqs = xrealloc_or_die(reqs, sizeof *reqs * (size_t)cap_reqs);
            free_slots = xrealloc_or_die(free_slots, sizeof *free_slots * (size_t)cap_reqs);
        }
        i = nreqs++;
    }
    reqs[i] = c;
    c->fint = i + 1;
    return i + 1;
}

MPI_Fint f_req_out(MPI_Request c, MPI_Fint f) {
    if (f > 0 && f <= nreqs && reqs[f - 1] == c && c) return f; /* unchanged (persistent) */
    if (f > 0 && f <= nreqs && reqs[f - 1] && !c) {             /* completed: the slot is free */
        reqs[f - 1] = MPI_REQUEST_NULL;
        free_slots[nfree++] = f - 1;
    }
    return c ? slot_for(c) : 0;
}

MPI_Request *f_reqs_in(const MPI_Fint *f, int n) {
    MPI_Request *c = xmalloc(sizeof *c * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        c[i] = f_req_in(f[i]);
    return c;
}

void f_reqs_out(MPI_Request *c, MPI_Fint *f, int n) {
    for (int i = 0; i < n; i++)
        f[i] = f_req_out(c[i], f[i]);
    free(c);
}

/* --- CHARACTER arguments --- */

char *f_str_in(const char *s, size_t len) {
    while (len > 0 && s[len - 1] == ' ')
        len--;
    char *c = xmalloc(len + 1);
    memcpy(c, s, len);
    c[len] = '\0';
    return c;
}

void f_str_out(const char *c, char *s, size_t len) {
    size_t n = strlen(c);
    if (n > len) n = len;
    memcpy(s, c, n);
    memset(s + n, ' ', len - n);
}

/* --- calls whose Fortran form is not C's by reference --- */

/* Each is defined as mpi_x_ and pmpi_x_ (gfortran's names of MPI_X and
 * PMPI_X), calling the C function of the same prefix. */
#define BOTH(ret, lname, params, body_mpi, body_pmpi)                                              \
    ret mpi_##lname##_ params{body_mpi} ret pmpi_##lname##_ params {                               \
        body_pmpi                                                                                  \
    }

BOTH(void, init, (MPI_Fint * ierr), *ierr = MPI_Init(NULL, NULL);, *ierr = PMPI_Init(NULL, NULL);)
BOTH(void, init_thread, (MPI_Fint * required, MPI_Fint *provided, MPI_Fint *ierr),
     *ierr = MPI_Init_thread(NULL, NULL, *required, provided);
     , *ierr = PMPI_Init_thread(NULL, NULL, *required, provided);)
BOTH(double, wtime, (void), return MPI_Wtime();, return PMPI_Wtime();)
BOTH(double, wtick, (void), return MPI_Wtick();, return PMPI_Wtick();)
BOTH(void, pcontrol, (MPI_Fint * level), MPI_Pcontrol(*level);, PMPI_Pcontrol(*level);)
BOTH(MPI_Aint, aint_add, (MPI_Aint * base, MPI_Aint *disp), return *base + *disp;
     , return *base + *disp;)
BOTH(MPI_Aint, aint_diff, (MPI_Aint * a, MPI_Aint *b), return *a - *b;, return *a - *b;)

/* Attributes: Fortran stores and reads integer values (INTEGER(KIND=
 * MPI_ADDRESS_KIND); INTEGER for the MPI-1 calls); C keeps them as the
 * pointer-sized value itself. The predefined attributes C returns as
 * pointers to their value (MPI_WIN_BASE: the base itself). */
static MPI_Aint attr_value(void *v, int keyval, bool is_win) {
    if (is_win && keyval == MPI_WIN_BASE) return (MPI_Aint)(intptr_t)v;
    bool predefined = keyval < 16; /* below the first user keyval (attr.c) */
    if (!predefined) return (MPI_Aint)(intptr_t)v;
    return is_win && keyval == MPI_WIN_SIZE ? *(MPI_Aint *)v : *(int *)v;
}

#define GET_ATTR(lname, CNAME, HANDLE, WIN)                                                        \
    BOTH(void, lname,                                                                              \
         (MPI_Fint * obj, MPI_Fint * keyval, MPI_Aint * value, MPI_Fint * flag, MPI_Fint * ierr),  \
         void *v = NULL;                                                                           \
         *ierr = MPI_##CNAME((HANDLE)*obj, *keyval, &v, flag);                                     \
         if (*ierr == MPI_SUCCESS && *flag) *value = attr_value(v, *keyval, WIN);, void *v = NULL; \
         *ierr = PMPI_##CNAME((HANDLE)*obj, *keyval, &v, flag);                                    \
         if (*ierr == MPI_SUCCESS && *flag) *value = attr_value(v, *keyval, WIN);)
#define SET_ATTR(lname, CNAME, HANDLE, VALUE)                                                      \
    BOTH(void, lname, (MPI_Fint * obj, MPI_Fint * keyval, VALUE * value, MPI_Fint * ierr),         \
         *ierr = MPI_##CNAME((HANDLE)*obj, *keyval, (void *)(intptr_t)*value);                     \
         , *ierr = PMPI_##CNAME((HANDLE)*obj, *keyval, (void *)(intptr_t)*value);)

GET_ATTR(comm_get_attr, Comm_get_attr, MPI_Comm, false)
GET_ATTR(type_get_attr, Type_get_attr, MPI_Datatype, false)
GET_ATTR(win_get_attr, Win_get_attr, MPI_Win, true)
SET_ATTR(comm_set_attr, Comm_set_attr, MPI_Comm, MPI_Aint)
SET_ATTR(type_set_attr, Type_set_attr, MPI_Datatype, MPI_Aint)
SET_ATTR(win_set_attr, Win_set_attr, MPI_Win, MPI_Aint)
SET_ATTR(attr_put, Attr_put, MPI_Comm, MPI_Fint)

/* MPI-1's MPI_ATTR_GET: an INTEGER value. */
BOTH(void, attr_get,
     (MPI_Fint * comm, MPI_Fint *keyval, MPI_Fint *value, MPI_Fint *flag, MPI_Fint *ierr),
     void *v = NULL;
     *ierr = MPI_Attr_get(*comm, *keyval, &v, flag);
     if (*ierr == MPI_SUCCESS && *flag) *value = (MPI_Fint)attr_value(v, *keyval, false);
     , void *v = NULL; *ierr = PMPI_Attr_get(*comm, *keyval, &v, flag);
     if (*ierr == MPI_SUCCESS && *flag) *value = (MPI_Fint)attr_value(v, *keyval, false);)

char *f_str_trim(const char *s, size_t len) {
    while (len > 0 && *s == ' ')
        s++, len--;
    return f_str_in(s, len);
}

/* --- attribute keyvals created from Fortran ---
 * The program's copy and delete subroutines take everything by reference
 * and return their error in a last argument; C calls trampolines that
 * call them. Values are INTEGER(KIND=MPI_ADDRESS_KIND), or INTEGER for
 * MPI-1's MPI_KEYVAL_CREATE. */
typedef void (*f_copy_fn)(MPI_Fint *, MPI_Fint *, void *, void *, void *, MPI_Fint *, MPI_Fint *);
typedef void (*f_delete_fn)(MPI_Fint *, MPI_Fint *, void *, void *, MPI_Fint *);

struct f_keyval {
    f_copy_fn copy;
    f_delete_fn del;
    MPI_Aint extra;
    bool mpi1; /* INTEGER values */
};

static int copy_trampoline(int obj, int keyval, void *extra, void *in, void *out, int *flag) {
    struct f_keyval *k = extra;
    MPI_Fint fobj = obj, fkey = keyval, fflag = 0, ierr = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint fextra = (MPI_Fint)k->extra, fin = (MPI_Fint)(intptr_t)in, fout = 0;
        k->copy(&fobj, &fkey, &fextra, &fin, &fout, &fflag, &ierr);
        *(void **)out = (void *)(intptr_t)fout;
    } else {
        MPI_Aint fextra = k->extra, fin = (MPI_Aint)(intptr_t)in, fout = 0;
        k->copy(&fobj, &fkey, &fextra, &fin, &fout, &fflag, &ierr);
        *(void **)out = (void *)(intptr_t)fout;
    }
    *flag = fflag != 0;
    return ierr;
}

static int delete_trampoline(int obj, int keyval, void *value, void *extra) {
    struct f_keyval *k = extra;
    MPI_Fint fobj = obj, fkey = keyval, ierr = MPI_SUCCESS;
    if (k->mpi1) {
        MPI_Fint fextra = (MPI_Fint)k->extra, fval = (MPI_Fint)(intptr_t)value;
        k->del(&fobj, &fkey, &fval, &fextra, &ierr);
    } else {
        MPI_Aint fextra = k->extra, fval = (MPI_Aint)(intptr_t)value;
        k->del(&fobj, &fkey, &fval, &fextra, &ierr);
    }
    return ierr;
}

/* The predefined callbacks (mpif.h's EXTERNALs): copy nothing, delete
 * nothing, or copy the value (MPI-1's INTEGER, or ADDRESS_KIND). */
static void null_copy(MPI_Fint *obj, MPI_Fint *key, void *extra, void *in, void *out,
                      MPI_Fint *flag, MPI_Fint *ierr) {
    (void)obj, (void)key, (void)extra, (void)in, (void)out;
    *flag = 0;
    *ierr = MPI_SUCCESS;
}
static void null_delete(MPI_Fint *obj, MPI_Fint *key, void *value, void *extra, MPI_Fint *ierr) {
    (void)obj, (void)key, (void)value, (void)extra;
    *ierr = MPI_SUCCESS;
}
static void dup_int(MPI_Fint *obj, MPI_Fint *key, void *extra, void *in, void *out, MPI_Fint *flag,
                    MPI_Fint *ierr) {
    (void)obj, (void)key, (void)extra;
    *(MPI_Fint *)out = *(MPI_Fint *)in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
static void dup_aint(MPI_Fint *obj, MPI_Fint *key, void *extra, void *in, void *out, MPI_Fint *flag,
                     MPI_Fint *ierr) {
    (void)obj, (void)key, (void)extra;
    *(MPI_Aint *)out = *(MPI_Aint *)in;
    *flag = 1;
    *ierr = MPI_SUCCESS;
}
#define CALLBACK(name, target, params, args)                                                       \
    void name params {                                                                             \
        target args;                                                                               \
    }
#define COPY_PARAMS                                                                                \
    (MPI_Fint * o, MPI_Fint * k, void *e, void *i, void *out, MPI_Fint *f, MPI_Fint *r)
#define DELETE_PARAMS (MPI_Fint * o, MPI_Fint * k, void *v, void *e, MPI_Fint *r)
CALLBACK(mpi_null_copy_fn_, null_copy, COPY_PARAMS, (o, k, e, i, out, f, r))
CALLBACK(mpi_comm_null_copy_fn_, null_copy, COPY_PARAMS, (o, k, e, i, out, f, r))
CALLBACK(mpi_type_null_copy_fn_, null_copy, COPY_PARAMS, (o, k, e, i, out, f, r))
CALLBACK(mpi_win_null_copy_fn_, null_copy, COPY_PARAMS, (o, k, e, i, out, f, r))
CALLBACK(mpi_null_delete_fn_, null_delete, DELETE_PARAMS, (o, k, v, e, r))
CALLBACK(mpi_comm_null_delete_fn_, null_delete, DELETE_PARAMS, (o, k, v, e, r))
CALLBACK(mpi_type_null_delete_fn_, null_delete, DELETE_PARAMS, (o, k, v, e, r))
CALLBACK(mpi_win_null_delete_fn_, null_delete, DELETE_PARAMS, (o, k, v, e, r))
CALLBACK(mpi_dup_fn_, dup_int, COPY_PARAMS, (o, k, e, i, out, f, r))
CALLBACK(mpi_comm_dup_fn_, dup_aint, COPY_PARAMS, (o, k, e, i, out, f, r))
CALLBACK(mpi_type_dup_fn_, dup_aint, COPY_PARAMS, (o, k, e, i, out, f, r))
CALLBACK(mpi_win_dup_fn_, dup_aint, COPY_PARAMS, (o, k, e, i, out, f, r))

static struct f_keyval *f_keyval_new(f_copy_fn copy, f_delete_fn del, MPI_Aint extra, bool mpi1) {
    struct f_keyval *k = xmalloc(sizeof *k);
    *k = (struct f_keyval){copy, del, extra, mpi1};
    return k;
}

#define KEYVAL_CREATE(lname, CNAME, COPY_T, DELETE_T, EXTRA_T, MPI1)                               \
    BOTH(void, lname,                                                                              \
         (f_copy_fn copy, f_delete_fn del, MPI_Fint * keyval, EXTRA_T * extra, MPI_Fint * ierr),   \
         *ierr = MPI_##CNAME((COPY_T *)copy_trampoline, (DELETE_T *)delete_trampoline, keyval,     \
                             f_keyval_new(copy, del, *extra, MPI1));                               \
         , *ierr = PMPI_##CNAME((COPY_T *)copy_trampoline, (DELETE_T *)delete_trampoline, keyval,  \
                                f_keyval_new(copy, del, *extra, MPI1));)
KEYVAL_CREATE(comm_create_keyval, Comm_create_keyval, MPI_Comm_copy_attr_function,
              MPI_Comm_delete_attr_function, MPI_Aint, false)
KEYVAL_CREATE(type_create_keyval, Type_create_keyval, MPI_Type_copy_attr_function,
              MPI_Type_delete_attr_function, MPI_Aint, false)
KEYVAL_CREATE(win_create_keyval, Win_create_keyval, MPI_Win_copy_attr_function,
              MPI_Win_delete_attr_function, MPI_Aint, false)
KEYVAL_CREATE(keyval_create, Keyval_create, MPI_Copy_function, MPI_Delete_function, MPI_Fint, true)

/* --- MPI-1's constructors and MPI_ADDRESS: INTEGER displacements --- */

static MPI_Aint *widened(const MPI_Fint *v, int n) {
    MPI_Aint *w = xmalloc(sizeof *w * (size_t)(n > 0 ? n : 1));
    for (int i = 0; i < n; i++)
        w[i] = v[i];
    return w;
}

BOTH(void, type_hvector,
     (MPI_Fint * count, MPI_Fint *len, MPI_Fint *stride, MPI_Fint *old, MPI_Fint *newtype,
      MPI_Fint *ierr),
     *ierr = MPI_Type_hvector(*count, *len, *stride, *old, newtype);
     , *ierr = PMPI_Type_hvector(*count, *len, *stride, *old, newtype);)
BOTH(void, type_hindexed,
     (MPI_Fint * count, MPI_Fint *lens, MPI_Fint *displs, MPI_Fint *old, MPI_Fint *newtype,
      MPI_Fint *ierr),
     MPI_Aint *d = widened(displs, *count);
     *ierr = MPI_Type_hindexed(*count, lens, d, *old, newtype); free(d);
     , MPI_Aint *d = widened(displs, *count);
     *ierr = PMPI_Type_hindexed(*count, lens, d, *old, newtype); free(d);)
BOTH(void, type_struct,
     (MPI_Fint * count, MPI_Fint *lens, MPI_Fint *displs, MPI_Fint *types, MPI_Fint *newtype,
      MPI_Fint *ierr),
     MPI_Aint *d = widened(displs, *count);
     *ierr = MPI_Type_struct(*count, lens, d, types, newtype); free(d);
     , MPI_Aint *d = widened(displs, *count);
     *ierr = PMPI_Type_struct(*count, lens, d, types, newtype); free(d);)
BOTH(void, address, (void *location, MPI_Fint *address, MPI_Fint *ierr), MPI_Aint a = 0;
     *ierr = MPI_Address(location, &a); *address = (MPI_Fint)a;, MPI_Aint a = 0;
     *ierr = PMPI_Address(location, &a); *address = (MPI_Fint)a;)

/* An MPI-1 extent or bound, as the INTEGER it is in Fortran (not the
 * MPI_Aint that C writes: 8 bytes into a 4-byte variable). */
#define INT_EXTENT(NAME, CNAME)                                                                    \
    BOTH(void, NAME, (MPI_Fint * type, MPI_Fint * v, MPI_Fint * ierr), MPI_Aint a = 0;             \
         *ierr = MPI_##CNAME(*type, &a); *v = (MPI_Fint)a;, MPI_Aint a = 0;                        \
         *ierr = PMPI_##CNAME(*type, &a); *v = (MPI_Fint)a;)
INT_EXTENT(type_extent, Type_extent)
INT_EXTENT(type_lb, Type_lb)
INT_EXTENT(type_ub, Type_ub)

/* --- handle conversion of requests and statuses (MPI-3.1 17.2.4) --- */

MPI_Fint PMPI_Request_c2f(MPI_Request request) {
    return f_req_out(request, 0);
}

MPI_Request PMPI_Request_f2c(MPI_Fint request) {
    return f_req_in(request);
}

int PMPI_Status_c2f(const MPI_Status *c, MPI_Fint *f) {
    memcpy(f, c, sizeof *c);
    return MPI_SUCCESS;
}

int PMPI_Status_f2c(const MPI_Fint *f, MPI_Status *c) {
    memcpy(c, f, sizeof *c);
    return MPI_SUCCESS;
}

#pragma weak MPI_Request_c2f = PMPI_Request_c2f
#pragma weak MPI_Request_f2c = PMPI_Request_f2c
#pragma weak MPI_Status_c2f = PMPI_Status_c2f
#pragma weak MPI_Status_f2c = PMPI_Status_f2c

/* mpi_f08's choice buffers (TYPE(*), DIMENSION(..)) come as Fortran 2018
 * descriptors (CFI_cdesc_t), whose first member is the data's address. */
void *simpi_f08_base(void *const *descriptor) {
    return *descriptor;
}

/* A non-contiguous array section given as a buffer to an mpi_f08 routine:
 * simpi's MPI_SUBARRAYS_SUPPORTED is .false., so it is refused (sending
 * the section's first element onwards would be silently wrong). */
void simpi_f08_noncontiguous(void) {
    runtime_abort("mpi_f08: a non-contiguous array section as a buffer (simpi's "
                  "MPI_SUBARRAYS_SUPPORTED is .false.): pass a contiguous array or copy the "
                  "section first");
}
