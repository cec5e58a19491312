/* SPDX-License-Identifier: BSD-3-Clause */
/* `simpi replay --sensitivity F TRACE`: how much each platform parameter
 * moves the prediction. The trace is replayed as given, then with every
 * network latency, every bandwidth, the MPI overheads and the speed of
 * computation each multiplied by F alone (platform key scale), and the
 * table gives each prediction and its change: what a machine's designer
 * asks first ("would twice the bandwidth help?"). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "core/escape.h"
#include "core/outfile.h"
#include "core/units.h"

#define PARAMETERS 4
static const char *const parameters[PARAMETERS] = {"latency", "bandwidth", "overhead", "speed"};

struct variant {
    simtime_t t;
    bool ok;
    char why[300];
};

static double change(simtime_t t, simtime_t base) {
    return base > 0 ? 100.0 * ((double)t - (double)base) / (double)base : 0;
}

static void print_table(const struct variant *v, double factor) {
    char tb[48];
    printf("sensitivity: each parameter alone times %g\n", factor);
    printf("  %-22s %18s %10s\n", "parameter", "predicted", "change");
    printf("  %-22s %18s\n", "as given", units_format_time(v[0].t, tb, sizeof tb));
    for (int i = 0; i < PARAMETERS; i++) {
        char name[48];
        snprintf(name, sizeof name, "%s x %g", parameters[i], factor);
        if (!v[i + 1].ok) {
            printf("  %-22s did not complete: %s\n", name, v[i + 1].why);
            continue;
        }
        printf("  %-22s %18s %+9.1f%%\n", name, units_format_time(v[i + 1].t, tb, sizeof tb),
               change(v[i + 1].t, v[0].t));
    }
}

static bool write_json(const char *path, const struct variant *v, double factor,
                       struct sim_error *err) {
    struct outfile out;
    if (!outfile_open(&out, path, err)) return false;
    fprintf(out.f,
            "{\"sensitivity\": {\"factor\": %.12g, \"predicted_time\": %.12g, \"parameters\": [",
            factor, simtime_to_seconds(v[0].t));
    for (int i = 0; i < PARAMETERS; i++) {
        fprintf(out.f,
                "%s\n  {\"parameter\": \"%s\", \"completed\": %s, \"predicted_time\": %.12g, "
                "\"change\": %.6g, \"note\": ",
                i ? "," : "", parameters[i], v[i + 1].ok ? "true" : "false",
                v[i + 1].ok ? simtime_to_seconds(v[i + 1].t) : -1.0,
                v[i + 1].ok ? change(v[i + 1].t, v[0].t) / 100 : 0.0);
        escape_json(out.f, v[i + 1].ok ? "" : v[i + 1].why);
        fputc('}', out.f);
    }
    fputs("]}}\n", out.f);
    return outfile_commit(&out, err);
}

int cli_sensitivity(const struct platform_opts *o, const char *trace, double factor,
                    const char *json) {
    struct variant v[PARAMETERS + 1] = {0};
    for (int i = 0; i <= PARAMETERS; i++) {
        char set[64];
        if (i) snprintf(set, sizeof set, "scale.%s=%.17g", parameters[i - 1], factor);
        v[i].ok = cli_replay_time(o, i ? set : NULL, trace, &v[i].t, v[i].why, sizeof v[i].why);
        if (!i && !v[i].ok) {
            fprintf(stderr,
                    "simpi replay: --sensitivity: the replay as given did not complete: %s\n",
                    v[i].why);
            return EXIT_INPUT_ERROR;
        }
    }
    print_table(v, factor);
    struct sim_error err = {0};
    if (json && !write_json(json, v, factor, &err)) {
        err_print(&err);
        return EXIT_INPUT_ERROR;
    }
    return 0;
}
