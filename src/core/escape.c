/* SPDX-License-Identifier: BSD-3-Clause */
/* Escaping of untrusted names for JSON (HTML-safe) and one-line text. */
#include "core/escape.h"

#include <stdint.h>

/* The length of the valid UTF-8 sequence at s (1-4), or 0 if invalid. */
static int utf8_length(const unsigned char *s) {
    if (s[0] < 0x80) return 1;
    int n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
    if (n == 0 || (n == 4 && s[0] > 0xf4)) return 0;
    for (int i = 1; i < n; i++)
        if ((s[i] & 0xc0) != 0x80) return 0;
    if (n == 3 && s[0] == 0xe0 && s[1] < 0xa0) return 0;  /* overlong */
    if (n == 3 && s[0] == 0xed && s[1] >= 0xa0) return 0; /* surrogates */
    if (n == 4 && s[0] == 0xf0 && s[1] < 0x90) return 0;
    if (n == 4 && s[0] == 0xf4 && s[1] >= 0x90) return 0;
    return n;
}

void escape_json(FILE *f, const char *str) {
    const unsigned char *s = (const unsigned char *)str;
    fputc('"', f);
    while (*s) {
        int n = utf8_length(s);
        if (n == 0) {
            fputs("\\ufffd", f);
            s++;
        } else if (n > 1) {
            /* U+2028 and U+2029 end lines in older JavaScript */
            if (n == 3 && s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))
                fprintf(f, "\\u%04x", s[2] == 0xa8 ? 0x2028 : 0x2029);
            else
                fwrite(s, 1, (size_t)n, f);
            s += n;
        } else {
            unsigned char c = *s++;
            if (c == '"' || c == '\\')
                fprintf(f, "\\%c", c);
            else if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == 0x7f)
                fprintf(f, "\\u%04x", c);
            else
                fputc(c, f);
        }
    }
    fputc('"', f);
}

void escape_line(char *out, size_t cap, const char *str) {
    const unsigned char *s = (const unsigned char *)str;
    size_t o = 0;
    while (*s && o + 1 < cap) {
        int n = utf8_length(s);
        if (n <= 1 || o + (size_t)n >= cap) {
            out[o++] = n == 1 && *s >= 0x20 && *s != 0x7f ? (char)*s : '?';
            s++;
            continue;
        }
        for (int i = 0; i < n; i++)
            out[o++] = (char)s[i];
        s += n;
    }
    out[o] = 0;
}
