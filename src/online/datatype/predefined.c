/* SPDX-License-Identifier: BSD-3-Clause */
/* The predefined datatypes of the datatype engine: their sizes, and the
 * reduction operations on them. Each arithmetic type gets the arithmetic,
 * logical and (integers) bitwise operations; pair types get MAXLOC/MINLOC
 * (ties keep the smaller index, as MPI specifies); user operations are
 * registered here too. */
#include "online/datatype/predefined.h"

#include <complex.h>
#include <stddef.h>
#include <stdlib.h>
#include <wchar.h>

#include "mpi.h"

struct float_int {
    float v;
    int i;
};
struct double_int {
    double v;
    int i;
};
struct long_int {
    long v;
    int i;
};
struct int_int {
    int v;
    int i;
};
struct short_int {
    short v;
    int i;
};
struct ldouble_int {
    long double v;
    int i;
};
/* Fortran's MAXLOC / MINLOC pairs: value and index of the same type */
struct float_float {
    float v, i;
};
struct double_double {
    double v, i;
};

int dtype_class(int t) {
    enum { SIGNED = 1, UNSIGNED, REAL, COMPLEX, BOOL, TEXT };
    int kind = 0;
    switch (t) {
    case MPI_CHAR:
    case MPI_SIGNED_CHAR:
    case MPI_CHARACTER:
    case MPI_WCHAR:
        kind = TEXT;
        break;
    case MPI_INT8_T:
    case MPI_INTEGER1:
    case MPI_SHORT:
    case MPI_INT16_T:
    case MPI_INTEGER2:
    case MPI_INT:
    case MPI_INT32_T:
    case MPI_INTEGER:
    case MPI_INTEGER4:
    case MPI_LONG:
    case MPI_LONG_LONG_INT:
    case MPI_LONG_LONG:
    case MPI_INT64_T:
    case MPI_INTEGER8:
    case MPI_OFFSET:
    case MPI_COUNT:
    case MPI_AINT:
    case MPI_INTEGER16:
        kind = SIGNED;
        break;
    case MPI_UNSIGNED_CHAR:
    case MPI_UINT8_T:
    case MPI_UNSIGNED_SHORT:
    case MPI_UINT16_T:
    case MPI_UNSIGNED:
    case MPI_UINT32_T:
    case MPI_UNSIGNED_LONG:
    case MPI_UNSIGNED_LONG_LONG:
    case MPI_UINT64_T:
        kind = UNSIGNED;
        break;
    case MPI_LOGICAL:
    case MPI_LOGICAL1:
    case MPI_LOGICAL2:
    case MPI_LOGICAL4:
    case MPI_LOGICAL8:
    case MPI_C_BOOL:
    case MPI_CXX_BOOL:
        kind = BOOL;
        break;
    case MPI_FLOAT:
    case MPI_REAL:
    case MPI_REAL4:
    case MPI_DOUBLE:
    case MPI_DOUBLE_PRECISION:
    case MPI_REAL8:
    case MPI_LONG_DOUBLE:
    case MPI_REAL16:
        kind = REAL;
        break;
    case MPI_C_FLOAT_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX:
    case MPI_COMPLEX:
    case MPI_COMPLEX8:
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX:
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX16:
        kind = COMPLEX;
        break;
    default:
        return 0;
    }
    return kind * 256 + dtype_size(t);
}

int dtype_size(int t) {
    static const int sizes[] = {
        [MPI_CHAR] = sizeof(char),
        [MPI_SIGNED_CHAR] = sizeof(signed char),
        [MPI_UNSIGNED_CHAR] = 1,
        [MPI_BYTE] = 1,
        [MPI_SHORT] = sizeof(short),
        [MPI_UNSIGNED_SHORT] = sizeof(unsigned short),
        [MPI_INT] = sizeof(int),
        [MPI_UNSIGNED] = sizeof(unsigned),
        [MPI_LONG] = sizeof(long),
        [MPI_UNSIGNED_LONG] = sizeof(unsigned long),
        [MPI_LONG_LONG_INT] = sizeof(long long),
        [MPI_UNSIGNED_LONG_LONG] = sizeof(unsigned long long),
        [MPI_FLOAT] = sizeof(float),
        [MPI_DOUBLE] = sizeof(double),
        [MPI_LONG_DOUBLE] = sizeof(long double),
        [MPI_WCHAR] = sizeof(wchar_t),
        [MPI_C_BOOL] = sizeof(_Bool),
        [MPI_INT8_T] = 1,
        [MPI_INT16_T] = 2,
        [MPI_INT32_T] = 4,
        [MPI_INT64_T] = 8,
        [MPI_UINT8_T] = 1,
        [MPI_UINT16_T] = 2,
        [MPI_UINT32_T] = 4,
        [MPI_UINT64_T] = 8,
        [MPI_AINT] = sizeof(MPI_Aint),
        [MPI_OFFSET] = sizeof(MPI_Offset),
        [MPI_COUNT] = sizeof(MPI_Count),
        [MPI_PACKED] = 1,
        [MPI_FLOAT_INT] = sizeof(struct float_int),
        [MPI_DOUBLE_INT] = sizeof(struct double_int),
        [MPI_LONG_INT] = sizeof(struct long_int),
        [MPI_2INT] = sizeof(struct int_int),
        [MPI_SHORT_INT] = sizeof(struct short_int),
        [MPI_LONG_DOUBLE_INT] = sizeof(struct ldouble_int),
        [MPI_C_FLOAT_COMPLEX] = sizeof(float _Complex),
        [MPI_C_DOUBLE_COMPLEX] = sizeof(double _Complex),
        [MPI_C_LONG_DOUBLE_COMPLEX] = sizeof(long double _Complex),
        [MPI_CXX_BOOL] = sizeof(_Bool),
        [MPI_CXX_FLOAT_COMPLEX] = sizeof(float _Complex),
        [MPI_CXX_DOUBLE_COMPLEX] = sizeof(double _Complex),
        [MPI_CXX_LONG_DOUBLE_COMPLEX] = sizeof(long double _Complex),
        [MPI_INTEGER] = 4,
        [MPI_REAL] = 4,
        [MPI_DOUBLE_PRECISION] = 8,
        [MPI_COMPLEX] = 8,
        [MPI_DOUBLE_COMPLEX] = 16,
        [MPI_LOGICAL] = 4,
        [MPI_CHARACTER] = 1,
        [MPI_INTEGER1] = 1,
        [MPI_INTEGER2] = 2,
        [MPI_INTEGER4] = 4,
        [MPI_INTEGER8] = 8,
        [MPI_REAL4] = 4,
        [MPI_REAL8] = 8,
        [MPI_REAL16] = sizeof(long double),
        [MPI_COMPLEX8] = 8,
        [MPI_COMPLEX16] = 16,
        [MPI_COMPLEX32] = sizeof(long double _Complex),
        [MPI_2REAL] = sizeof(struct float_float),
        [MPI_2DOUBLE_PRECISION] = sizeof(struct double_double),
        [MPI_2INTEGER] = sizeof(struct int_int),
        [MPI_INTEGER16] = 16,
        [MPI_LB] = 0,
        [MPI_UB] = 0,
        [MPI_LONG_LONG] = sizeof(long long),
        [MPI_LOGICAL1] = 1,
        [MPI_LOGICAL2] = 2,
        [MPI_LOGICAL4] = 4,
        [MPI_LOGICAL8] = 8,
        [MPI_2COMPLEX] = 2 * sizeof(float _Complex),
        [MPI_2DOUBLE_COMPLEX] = 2 * sizeof(double _Complex),
    };
    if (t <= 0 || t >= (int)(sizeof sizes / sizeof sizes[0])) return -1;
    return sizes[t];
}

/* User operations; a freed one still serves the requests that use it (MPI:
 * the object lives until they complete), and ids are never reused. */
static struct user_op {
    user_op_fn fn;
    bool commute, used, freed;
} * user_ops;
static int nuser_ops;

int op_register(user_op_fn fn, bool commute) {
    user_ops = realloc(user_ops, sizeof *user_ops * (size_t)(nuser_ops + 1));
    if (!user_ops) abort();
    user_ops[nuser_ops] = (struct user_op){fn, commute, true, false};
    return USER_OP_BASE + nuser_ops++;
}

bool op_is_user(int op) {
    return op >= USER_OP_BASE && op - USER_OP_BASE < nuser_ops && user_ops[op - USER_OP_BASE].used;
}

bool op_free(int op) {
    if (!op_is_user(op) || user_ops[op - USER_OP_BASE].freed) return false;
    user_ops[op - USER_OP_BASE].freed = true;
    return true;
}

bool op_commutes(int op) {
    return !op_is_user(op) || user_ops[op - USER_OP_BASE].commute;
}

bool op_valid(int op) {
    return (op >= MPI_MAX && op <= MPI_NO_OP) ||
           (op_is_user(op) && !user_ops[op - USER_OP_BASE].freed);
}

#define ARITH_CASES(T)                                                                             \
    case MPI_SUM:                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)(o[i] + a[i]);                                                               \
        return MPI_SUCCESS;                                                                        \
    case MPI_PROD:                                                                                 \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)(o[i] * a[i]);                                                               \
        return MPI_SUCCESS;                                                                        \
    case MPI_MAX:                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = a[i] > o[i] ? a[i] : o[i];                                                      \
        return MPI_SUCCESS;                                                                        \
    case MPI_MIN:                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = a[i] < o[i] ? a[i] : o[i];                                                      \
        return MPI_SUCCESS;                                                                        \
    case MPI_LAND:                                                                                 \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)(a[i] && o[i]);                                                              \
        return MPI_SUCCESS;                                                                        \
    case MPI_LOR:                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)(a[i] || o[i]);                                                              \
        return MPI_SUCCESS;                                                                        \
    case MPI_LXOR:                                                                                 \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] = (T)(!a[i] != !o[i]);                                                            \
        return MPI_SUCCESS;

#define BIT_CASES                                                                                  \
    case MPI_BAND:                                                                                 \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] &= a[i];                                                                          \
        return MPI_SUCCESS;                                                                        \
    case MPI_BOR:                                                                                  \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] |= a[i];                                                                          \
        return MPI_SUCCESS;                                                                        \
    case MPI_BXOR:                                                                                 \
        for (int64_t i = 0; i < n; i++)                                                            \
            o[i] ^= a[i];                                                                          \
        return MPI_SUCCESS;

#define INT_OP(T)                                                                                  \
    {                                                                                              \
        const T *a = in;                                                                           \
        T *o = inout;                                                                              \
        switch (op) {                                                                              \
            ARITH_CASES(T)                                                                         \
            BIT_CASES                                                                              \
        default:                                                                                   \
            return MPI_ERR_OP;                                                                     \
        }                                                                                          \
    }

#define BOOL_OP                                                                                    \
    {                                                                                              \
        const _Bool *a = in;                                                                       \
        _Bool *o = inout;                                                                          \
        for (int64_t i = 0; i < n; i++) {                                                          \
            if (op == MPI_LAND)                                                                    \
                o[i] = a[i] && o[i];                                                               \
            else if (op == MPI_LOR)                                                                \
                o[i] = a[i] || o[i];                                                               \
            else if (op == MPI_LXOR)                                                               \
                o[i] = a[i] != o[i];                                                               \
            else                                                                                   \
                return MPI_ERR_OP;                                                                 \
        }                                                                                          \
        return MPI_SUCCESS;                                                                        \
    }

#define FLOAT_OP(T)                                                                                \
    {                                                                                              \
        const T *a = in;                                                                           \
        T *o = inout;                                                                              \
        switch (op) {                                                                              \
            ARITH_CASES(T)                                                                         \
        default:                                                                                   \
            return MPI_ERR_OP;                                                                     \
        }                                                                                          \
    }

#define LOC_OP(S)                                                                                  \
    {                                                                                              \
        const struct S *a = in;                                                                    \
        struct S *o = inout;                                                                       \
        if (op != MPI_MAXLOC && op != MPI_MINLOC) return MPI_ERR_OP;                               \
        for (int64_t i = 0; i < n; i++) {                                                          \
            bool better = op == MPI_MAXLOC ? a[i].v > o[i].v : a[i].v < o[i].v;                    \
            if (better || (a[i].v == o[i].v && a[i].i < o[i].i)) o[i] = a[i];                      \
        }                                                                                          \
        return MPI_SUCCESS;                                                                        \
    }

#define COMPLEX_OP(T)                                                                              \
    {                                                                                              \
        const T *a = in;                                                                           \
        T *o = inout;                                                                              \
        if (op == MPI_SUM)                                                                         \
            for (int64_t i = 0; i < n; i++)                                                        \
                o[i] += a[i];                                                                      \
        else if (op == MPI_PROD)                                                                   \
            for (int64_t i = 0; i < n; i++)                                                        \
                o[i] *= a[i];                                                                      \
        else                                                                                       \
            return MPI_ERR_OP;                                                                     \
        return MPI_SUCCESS;                                                                        \
    }

int op_apply(int op, int type, const void *in, void *inout, int64_t n) {
    if (op_is_user(op)) {
        int len = (int)n, t = type;
        user_ops[op - USER_OP_BASE].fn((void *)in, inout, &len, &t);
        return MPI_SUCCESS;
    }
    if (op == MPI_NO_OP) return MPI_SUCCESS;
    if (op == MPI_REPLACE) {
        int sz = dtype_size(type);
        if (sz < 0) return MPI_ERR_TYPE;
        for (int64_t i = 0; i < n * sz; i++)
            ((char *)inout)[i] = ((const char *)in)[i];
        return MPI_SUCCESS;
    }
    switch (type) {
    case MPI_CHAR:
    case MPI_SIGNED_CHAR:
    case MPI_INT8_T:
    case MPI_INTEGER1:
    case MPI_LOGICAL1:
        INT_OP(signed char)
    case MPI_UNSIGNED_CHAR:
    case MPI_UINT8_T:
    case MPI_BYTE:
        INT_OP(unsigned char)
    case MPI_SHORT:
    case MPI_INT16_T:
    case MPI_INTEGER2:
    case MPI_LOGICAL2:
        INT_OP(short)
    case MPI_UNSIGNED_SHORT:
    case MPI_UINT16_T:
        INT_OP(unsigned short)
    case MPI_INT:
    case MPI_INT32_T:
    case MPI_INTEGER:
    case MPI_INTEGER4:
    case MPI_LOGICAL:
    case MPI_LOGICAL4:
        INT_OP(int)
    case MPI_UNSIGNED:
    case MPI_UINT32_T:
        INT_OP(unsigned)
    case MPI_LONG:
        INT_OP(long)
    case MPI_UNSIGNED_LONG:
        INT_OP(unsigned long)
    case MPI_LONG_LONG_INT:
    case MPI_LONG_LONG:
    case MPI_LOGICAL8:
    case MPI_INT64_T:
    case MPI_INTEGER8:
    case MPI_OFFSET:
    case MPI_COUNT:
        INT_OP(long long)
    case MPI_UNSIGNED_LONG_LONG:
    case MPI_UINT64_T:
        INT_OP(unsigned long long)
    case MPI_AINT:
        INT_OP(MPI_Aint)
    case MPI_WCHAR:
        INT_OP(wchar_t)
    case MPI_C_BOOL:
    case MPI_CXX_BOOL:
        BOOL_OP
    case MPI_CHARACTER:
        INT_OP(char)
    case MPI_INTEGER16:
        INT_OP(__int128)
    case MPI_FLOAT:
    case MPI_REAL:
    case MPI_REAL4:
        FLOAT_OP(float)
    case MPI_DOUBLE:
    case MPI_DOUBLE_PRECISION:
    case MPI_REAL8:
        FLOAT_OP(double)
    case MPI_LONG_DOUBLE:
    case MPI_REAL16:
        FLOAT_OP(long double)
    case MPI_C_FLOAT_COMPLEX:
    case MPI_CXX_FLOAT_COMPLEX:
    case MPI_COMPLEX:
    case MPI_COMPLEX8:
        COMPLEX_OP(float _Complex)
    case MPI_C_DOUBLE_COMPLEX:
    case MPI_CXX_DOUBLE_COMPLEX:
    case MPI_DOUBLE_COMPLEX:
    case MPI_COMPLEX16:
        COMPLEX_OP(double _Complex)
    case MPI_C_LONG_DOUBLE_COMPLEX:
    case MPI_CXX_LONG_DOUBLE_COMPLEX:
    case MPI_COMPLEX32:
        COMPLEX_OP(long double _Complex)
    case MPI_2REAL:
        LOC_OP(float_float)
    case MPI_2DOUBLE_PRECISION:
        LOC_OP(double_double)
    case MPI_2INTEGER:
        LOC_OP(int_int)
    case MPI_FLOAT_INT:
        LOC_OP(float_int)
    case MPI_DOUBLE_INT:
        LOC_OP(double_int)
    case MPI_LONG_INT:
        LOC_OP(long_int)
    case MPI_2INT:
        LOC_OP(int_int)
    case MPI_SHORT_INT:
        LOC_OP(short_int)
    case MPI_LONG_DOUBLE_INT:
        LOC_OP(ldouble_int)
    default:
        return MPI_ERR_TYPE;
    }
}
