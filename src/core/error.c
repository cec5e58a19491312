/* SPDX-License-Identifier: BSD-3-Clause */
/* Error recording and printing. */
#include "core/error.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Control characters that came from an input file (an escape sequence, a
 * carriage return) are written as \xNN, so that a message never drives the
 * terminal it is printed on; newlines and tabs stay. */
static void escape_controls(char *msg, size_t cap) {
    char copy[sizeof((struct sim_error *)0)->msg];
    size_t n = strlen(msg), o = 0;
    if (n >= sizeof copy) n = sizeof copy - 1;
    memcpy(copy, msg, n);
    for (size_t i = 0; i < n && o + 1 < cap; i++) {
        unsigned char c = (unsigned char)copy[i];
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) {
            if (o + 5 > cap) break;
            snprintf(msg + o, 5, "\\x%02x", c);
            o += 4;
        } else {
            msg[o++] = (char)c;
        }
    }
    msg[o] = 0;
}

bool err_set(struct sim_error *err, const char *fmt, ...) {
    if (!err || err->set) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    escape_controls(err->msg, sizeof err->msg);
    err->set = true;
    return false;
}

bool err_vat(struct sim_error *err, const char *file, int line, const char *fmt, va_list ap) {
    if (!err || err->set) return false;
    int n = line > 0 ? snprintf(err->msg, sizeof err->msg, "%s:%d: ", file, line)
                     : snprintf(err->msg, sizeof err->msg, "%s: ", file);
    if (n < 0 || (size_t)n >= sizeof err->msg) n = 0;
    vsnprintf(err->msg + n, sizeof err->msg - (size_t)n, fmt, ap);
    escape_controls(err->msg, sizeof err->msg);
    err->set = true;
    return false;
}

bool err_at(struct sim_error *err, const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    err_vat(err, file, line, fmt, ap);
    va_end(ap);
    return false;
}

void err_print(const struct sim_error *err) {
    fprintf(stderr, "simpi: error: %s\n", err->set ? err->msg : "unknown error");
}

int err_edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    int prev[64], cur[64];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = (int)j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = (int)i;
        for (size_t j = 1; j <= lb; j++) {
            int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            int del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
        memcpy(prev, cur, sizeof(int) * (lb + 1));
    }
    return prev[lb];
}

_Noreturn void err_exit_process(int status) {
    for (;;) {
#if defined(__x86_64__)
        __asm__ volatile("syscall"
                         :
                         : "a"((long)SYS_exit_group), "D"((long)status)
                         : "rcx", "r11", "memory");
#elif defined(__aarch64__)
        register long number __asm__("x8") = SYS_exit_group;
        register long first __asm__("x0") = status;
        __asm__ volatile("svc 0" : : "r"(number), "r"(first) : "memory");
#else
#error "the exit_group system call for this architecture"
#endif
    }
}

_Noreturn void err_fatal(const char *msg) {
    fflush(stdout);
    fprintf(stderr, "simpi: error: %s\n", msg);
    err_exit_process(1);
}
