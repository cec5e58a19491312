/* SPDX-License-Identifier: BSD-3-Clause */
/* Conversions between seconds (double) and picosecond virtual time. */
#include "core/simtime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"

simtime_t simtime_from_seconds(double seconds) {
    double ps = seconds * 1e12;
    if (!(ps < 9.2e18)) return SIMTIME_NEVER; /* also catches NaN and inf */
    if (ps <= 0) return 0;
    return (simtime_t)llround(ps);
}

double simtime_to_seconds(simtime_t t) {
    return (double)t / 1e12;
}

/* 0 < t < 10^12: the exact decimal value t x 10^-12 has at most 12
 * significant digits, which is what "%.12g" of the double nearest to it
 * prints (the double is within 2^-53 of it, far from any rounding
 * boundary of the 12th digit). "%g" takes the style of "%e" when the
 * exponent X is below -4 (here X = digits - 13), else that of "%f", and
 * drops trailing zeros. */
static int format_below_second(simtime_t t, char out[32]) {
    char d[24];
    int nd = units_format_int(t, d);
    int exponent = nd - 13, keep = nd;
    while (keep > 1 && d[keep - 1] == '0')
        keep--;
    int n = 0;
    if (exponent >= -4) { /* 0.000ddd */
        out[n++] = '0';
        out[n++] = '.';
        for (int z = 0; z < -exponent - 1; z++)
            out[n++] = '0';
        memcpy(out + n, d, (size_t)keep);
        n += keep;
    } else { /* d.ddde-XX */
        out[n++] = d[0];
        if (keep > 1) {
            out[n++] = '.';
            memcpy(out + n, d + 1, (size_t)keep - 1);
            n += keep - 1;
        }
        out[n++] = 'e';
        out[n++] = '-';
        out[n++] = (char)('0' + (-exponent) / 10);
        out[n++] = (char)('0' + (-exponent) % 10);
    }
    out[n] = '\0';
    return n;
}

int simtime_format_seconds(simtime_t t, char out[32]) {
    if (t == 0) {
        out[0] = '0';
        out[1] = '\0';
        return 1;
    }
    if (t > 0 && t < PS_PER_S) return format_below_second(t, out);
    return snprintf(out, 32, "%.12g", simtime_to_seconds(t));
}
