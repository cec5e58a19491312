/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit parsing: decimal prefixes k, M, G, T (10^3n), binary Ki, Mi, Gi, Ti
 * (2^10n); B = bytes, b = bits; f = flops. */
#include "core/units.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Splits s into a finite non-negative number and its suffix. */
static bool split_number(const char *s, double *value, const char **suffix) {
    char *end = NULL;
    if (!s || !*s) return false;
    /* fast path: plain digits followed by a unit or nothing */
    if (*s >= '0' && *s <= '9') {
        const char *d = s;
        int64_t v = 0;
        while (*d >= '0' && *d <= '9' && v < INT64_C(100000000000000))
            v = v * 10 + (*d++ - '0');
        if (*d != '.' && *d != 'e' && *d != 'E' && (*d < '0' || *d > '9') && *d != 'x' &&
            *d != 'X' && !(*d == 'i' || *d == 'I' || *d == 'n' || *d == 'N')) {
            *value = (double)v;
            *suffix = d;
            return true;
        }
    }
    if (*s == '-' || *s == '+' || *s == ' ') return false;
    if ((*s < '0' || *s > '9') && *s != '.') return false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        return false; /* strtod's hex: 0x10us = 16 us */
    double v = strtod(s, &end);
    if (end == s || !isfinite(v) || v < 0) return false;
    *value = v;
    *suffix = end;
    return true;
}

/* Reads an optional prefix; returns the multiplier and advances *p. */
static double read_prefix(const char **p) {
    static const struct {
        const char *name;
        double mult;
    } prefixes[] = {
        {"Ki", 1024.0}, {"Mi", 1048576.0}, {"Gi", 1073741824.0}, {"Ti", 1099511627776.0},
        {"k", 1e3},     {"K", 1e3},        {"M", 1e6},           {"G", 1e9},
        {"T", 1e12},
    };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i].name);
        if (strncmp(*p, prefixes[i].name, n) == 0) {
            *p += n;
            return prefixes[i].mult;
        }
    }
    return 1.0;
}

bool units_parse_seconds(const char *s, double *out, const char **why) {
    static const struct {
        const char *name;
        double mult;
    } units[] = {{"s", 1.0},    {"ms", 1e-3},  {"us", 1e-6},  {"ns", 1e-9},
                 {"ps", 1e-12}, {"min", 60.0}, {"h", 3600.0}, {"d", 86400.0}};
    double v;
    const char *suf;
    if (why) *why = "a time with unit d, h, min, s, ms, us, ns or ps (e.g. 1.5us)";
    if (!split_number(s, &v, &suf)) return false;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(suf, units[i].name) == 0) {
            *out = v * units[i].mult;
            return true;
        }
    }
    return false;
}

bool units_parse_time(const char *s, simtime_t *out, const char **why) {
    double sec;
    if (!units_parse_seconds(s, &sec, why)) return false;
    simtime_t t = simtime_from_seconds(sec);
    if (t == SIMTIME_NEVER) {
        if (why) *why = "a time below the largest simulated time (" SIMTIME_LIMIT_TEXT ")";
        return false;
    }
    *out = t;
    return true;
}

bool units_parse_size(const char *s, bool bare_ok, bool inf_ok, int64_t *out, const char **why) {
    double v;
    const char *suf;
    if (why)
        *why = bare_ok ? "a size in bytes, optionally with unit B, KiB, MB... (e.g. 64KiB)"
                       : "a size with unit B, KiB, MiB, kB, MB... (e.g. 64KiB)";
    if (inf_ok && strcmp(s, "inf") == 0) {
        *out = INT64_MAX;
        return true;
    }
    if (!split_number(s, &v, &suf)) return false;
    if (*suf == '\0') {
        if (!bare_ok) return false;
    } else {
        double mult = read_prefix(&suf);
        if (strcmp(suf, "B") == 0)
            v *= mult;
        else if (strcmp(suf, "b") == 0)
            v *= mult / 8.0;
        else
            return false;
    }
    if (v >= 9.2e18) return false;
    *out = (int64_t)llround(v);
    return true;
}

bool units_parse_bandwidth(const char *s, double *out, const char **why) {
    double v;
    const char *suf;
    if (why) *why = "a bandwidth with unit B/s or b/s and optional prefix (e.g. 10Gb/s, 12.5GB/s)";
    if (!split_number(s, &v, &suf)) return false;
    double mult = read_prefix(&suf);
    if (strcmp(suf, "B/s") == 0 || strcmp(suf, "Bps") == 0)
        *out = v * mult;
    else if (strcmp(suf, "b/s") == 0 || strcmp(suf, "bps") == 0)
        *out = v * mult / 8.0;
    else
        return false;
    if (*out <= 0) {
        if (why) *why = "a positive bandwidth";
        return false;
    }
    return true;
}

bool units_parse_flops(const char *s, double *out, const char **why) {
    double v;
    const char *suf;
    if (why) *why = "a flop count or rate with unit f and optional prefix (e.g. 2Gf)";
    if (!split_number(s, &v, &suf)) return false;
    double mult = read_prefix(&suf);
    if (strcmp(suf, "f") != 0 && strcmp(suf, "f/s") != 0) return false;
    *out = v * mult;
    return true;
}

bool units_parse_number(const char *s, double *out, const char **why) {
    double v;
    const char *suf;
    if (why) *why = "a plain number";
    if (!split_number(s, &v, &suf) || *suf) return false;
    *out = v;
    return true;
}

const char *units_format_time(simtime_t t, char *buf, int len) {
    double s = simtime_to_seconds(t);
    if (t == SIMTIME_NEVER)
        snprintf(buf, (size_t)len, "never");
    else if (s >= 1.0 || t == 0)
        snprintf(buf, (size_t)len, "%.6f s", s);
    else if (s >= 1e-3)
        snprintf(buf, (size_t)len, "%.6f ms", s * 1e3);
    else
        snprintf(buf, (size_t)len, "%.6f us", s * 1e6);
    return buf;
}

const char *units_format_size(int64_t bytes, char *buf, int len) {
    if (bytes == INT64_MAX)
        snprintf(buf, (size_t)len, "inf");
    else if (bytes >= (INT64_C(1) << 30) && bytes % (INT64_C(1) << 30) == 0)
        snprintf(buf, (size_t)len, "%lldGiB", (long long)(bytes >> 30));
    else if (bytes >= (1 << 20) && bytes % (1 << 20) == 0)
        snprintf(buf, (size_t)len, "%lldMiB", (long long)(bytes >> 20));
    else if (bytes >= 1024 && bytes % 1024 == 0)
        snprintf(buf, (size_t)len, "%lldKiB", (long long)(bytes >> 10));
    else
        snprintf(buf, (size_t)len, "%lldB", (long long)bytes);
    return buf;
}

int units_format_int(int64_t v, char out[24]) {
    char d[24];
    int n = 0, len = 0;
    uint64_t u = v < 0 ? 0u - (uint64_t)v : (uint64_t)v;
    do {
        d[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) out[len++] = '-';
    while (n)
        out[len++] = d[--n];
    return len;
}
