/* SPDX-License-Identifier: BSD-3-Clause */
/* simpi run's and simpi replay's command lines read, and their options'
 * help written, from the one table of core/options.c. */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/alloc.h"
#include "core/options.h"
#include "core/units.h"
#include "report/analysis.h"

static const char *command_name(unsigned cmd) {
    return cmd == OPT_RUN ? "run" : "replay";
}

/* Checks value of option d (typed as word); stores it in s (those that
 * become platform keys as a set). false having said why. */
static bool check_value(unsigned cmd, const struct option_decl *d, const char *word,
                        const char *value, struct option_set *s) {
    const char *name = command_name(cmd);
    char what[96], *end;
    snprintf(what, sizeof what, "%s: %s", name, word);
    const char *key = d->stored ? d->stored : d->name;
    long n;
    simtime_t t;
    int procs;
    char *set = NULL;
    struct sim_error err = {0};
    switch (d->check) {
    case CHECK_ENUM:
        if (!(value = cli_enum_value(what, value, d->values))) return false;
        break;
    case CHECK_RANKS:
        n = strtol(value, &end, 10);
        if (!*value || *end || n < 1 || n > INT32_MAX) {
            fprintf(stderr, "simpi %s: %s: found '%s', expected a positive rank count\n", name,
                    word, value);
            return false;
        }
        break;
    case CHECK_REPEATS:
        n = strtol(value, &end, 10);
        if (!*value || *end || n < 1 || n > 1000) {
            fprintf(stderr, "simpi %s: %s: found '%s', expected a count of runs from 1 to 1000\n",
                    name, word, value);
            return false;
        }
        break;
    case CHECK_TIME:
        if (!units_parse_time(value, &t, NULL) || t <= 0) {
            fprintf(stderr, "simpi %s: %s: found '%s', expected a time such as 10s\n", name, word,
                    value);
            return false;
        }
        break;
    case CHECK_FACTOR: {
        double f = strtod(value, &end);
        if (!*value || *end || !(f > 0) || f > 1e6 || f == 1) {
            fprintf(stderr,
                    "simpi %s: %s: found '%s', expected a factor above 0 other than 1 (2: each "
                    "parameter twice as large)\n",
                    name, word, value);
            return false;
        }
        break;
    }
    case CHECK_RANK_LIST:
        if (!analysis_check_ranks(value, &err)) {
            fprintf(stderr, "simpi %s: %s\n", name, err.msg);
            return false;
        }
        break;
    case CHECK_PROCS:
        if (!cli_parse_procs(word, value, &procs)) return false;
        break;
    case CHECK_FAULT:
    case CHECK_WITH_FT:
    case CHECK_IDEAL:
    case CHECK_SEEDS:
        set = d->check == CHECK_FAULT     ? cli_fault_set(value)
              : d->check == CHECK_WITH_FT ? cli_with_ft_set(value)
              : d->check == CHECK_IDEAL   ? cli_ideal_set(value)
                                          : cli_seeds_set(value);
        if (!set) return false;
        optset_add(s, "set", set);
        free(set);
        return true;
    case CHECK_SET:
    case CHECK_NONE:
        break;
    }
    optset_add(s, key, value);
    return true;
}

/* The closest spelling of an option cmd takes, for "did you mean". */
static const char *closest_spelling(unsigned cmd, const char *word, char *buf, size_t n) {
    int count, best = 4;
    const struct option_decl *t = options_table(&count);
    const char *found = NULL;
    for (int i = 0; i < count; i++) {
        if (!(t[i].commands & cmd) || !t[i].spelled) continue;
        for (const char *s = t[i].spelled; *s;) {
            size_t len = strcspn(s, ",");
            snprintf(buf, n, "%.*s", (int)len, s);
            int d = err_edit_distance(word, buf);
            if (d < best) {
                best = d;
                found = s;
            }
            s += len + (s[len] == ',');
        }
    }
    if (!found) return NULL;
    snprintf(buf, n, "%.*s", (int)strcspn(found, ","), found);
    return buf;
}

/* One option word (and the value after it, *i moved past it). */
static bool parse_option(unsigned cmd, int argc, char **argv, int *i, struct option_set *s) {
    const char *a = argv[*i], *eq = strchr(a, '=');
    char word[64], near[64];
    snprintf(word, sizeof word, "%.*s", (int)(eq ? (size_t)(eq - a) : strlen(a)), a);
    const struct option_decl *d = options_find(word);
    if (!d || !(d->commands & cmd) || !d->spelled) {
        const char *guess = closest_spelling(cmd, word, near, sizeof near);
        fprintf(stderr, "simpi %s: unknown option '%s'%s%s%s\n", command_name(cmd), a,
                guess ? " (did you mean " : "", guess ? guess : "", guess ? "?)" : "");
        return false;
    }
    const char *key = d->stored ? d->stored : d->name;
    bool takes_value = d->arg || d->values;
    if (!takes_value || (d->optional_value && !eq)) {
        if (eq && !takes_value) {
            fprintf(stderr, "simpi %s: %s takes no value\n", command_name(cmd), word);
            return false;
        }
        optset_add(s, key, d->fixed ? d->fixed : "1");
        return true;
    }
    const char *value = eq ? eq + 1 : NULL;
    if (!value && *i + 1 < argc) value = argv[++*i];
    if (!value) {
        fprintf(stderr, "simpi %s: %s needs a value%s%s\n", command_name(cmd), word,
                d->arg ? ": " : "", d->arg ? d->arg : "");
        return false;
    }
    return check_value(cmd, d, word, value, s);
}

int cli_options_parse(unsigned cmd, int argc, char **argv, struct option_set *s, int *rest,
                      const char ***words, int *nwords) {
    *rest = argc;
    if (nwords) *nwords = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            cli_print_help(command_name(cmd));
            return 1;
        }
        bool option = a[0] == '-' && a[1] != '\0' && strcmp(a, "--") != 0;
        if (option) {
            if (!parse_option(cmd, argc, argv, &i, s)) return EXIT_USAGE;
            continue;
        }
        if (!words) { /* simpi run: the program and its arguments */
            *rest = i + !strcmp(a, "--");
            return 0;
        }
        if (!strcmp(a, "--")) continue;
        *words = xrealloc_or_die((void *)*words, sizeof **words * (size_t)(*nwords + 1));
        (*words)[(*nwords)++] = a;
    }
    return 0;
}

/* How option d is shown in help: each spelling with its argument. */
static void option_label(const struct option_decl *d, char *out, size_t n) {
    size_t at = 0;
    out[0] = '\0';
    for (const char *s = d->spelled; *s && at < n;) {
        size_t len = strcspn(s, ",");
        at += (size_t)snprintf(out + at, n - at, "%s%.*s", at ? ", " : "", (int)len, s);
        if (d->optional_value)
            at += (size_t)snprintf(out + at, n - at, "[=%s]", d->arg);
        else if (d->arg)
            at += (size_t)snprintf(out + at, n - at, " %s", d->arg);
        else if (d->values && !d->arg)
            for (int v = 0; d->values[v] && at < n; v++)
                at += (size_t)snprintf(out + at, n - at, "%c%s", v ? '|' : '=', d->values[v]);
        s += len + (s[len] == ',');
    }
}

enum { HELP_COLUMN = 25, HELP_WIDTH = 80 };

/* text wrapped at HELP_WIDTH, its first line from column col, the others
 * from HELP_COLUMN. */
static void print_wrapped(FILE *out, const char *text, int col) {
    while (*text) {
        size_t len = strcspn(text, " ");
        if (col > HELP_COLUMN && col + 1 + (int)len > HELP_WIDTH) {
            fprintf(out, "\n%*s", HELP_COLUMN, "");
            col = HELP_COLUMN;
        } else if (col > HELP_COLUMN) {
            fputc(' ', out);
            col++;
        }
        fprintf(out, "%.*s", (int)len, text);
        col += (int)len;
        text += len;
        while (*text == ' ')
            text++;
    }
    fputc('\n', out);
}

void cli_options_help(unsigned cmd, FILE *out) {
    int count;
    const struct option_decl *t = options_table(&count);
    for (int i = 0; i < count; i++) {
        if (!(t[i].commands & cmd) || !t[i].spelled) continue;
        char label[160];
        option_label(&t[i], label, sizeof label);
        int col = fprintf(out, "  %s", label);
        col += fprintf(out, "%*s", col + 2 <= HELP_COLUMN ? HELP_COLUMN - col : 2, "");
        const char *help = cmd == OPT_REPLAY && t[i].replay_help ? t[i].replay_help : t[i].help;
        print_wrapped(out, help, col);
    }
}

void cli_options_complete(unsigned cmd, FILE *out) {
    int count;
    const struct option_decl *t = options_table(&count);
    for (int i = 0; i < count; i++) {
        if (!(t[i].commands & cmd) || !t[i].spelled) continue;
        for (const char *s = t[i].spelled; *s;) {
            size_t len = strcspn(s, ",");
            bool listed = t[i].values && !t[i].optional_value;
            fprintf(out, "%.*s %s", (int)len, s,
                    listed                             ? ""
                    : t[i].arg && !t[i].optional_value ? t[i].arg
                                                       : "-");
            for (int v = 0; listed && t[i].values[v]; v++)
                fprintf(out, "%s%s", v ? "," : "", t[i].values[v]);
            fputc('\n', out);
            s += len + (s[len] == ',');
        }
    }
}
