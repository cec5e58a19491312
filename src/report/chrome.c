/* The Chrome trace / Perfetto JSON (the Trace Event Format): one process,
 * one track (thread) per rank; each period a complete event ("X") named by
 * its MPI call, non-blocking calls instant events ("i"), intervals as
 * begin/end events ("B"/"E"), and each message a flow arrow ("s" at the
 * sender's logical send, "f" at the receiver's arrival). Written as the run
 * goes; timestamps in microseconds with picosecond digits. */
#include <inttypes.h>
#include <stdlib.h>

#include "core/escape.h"
#include "core/outfile.h"
#include "core/pool.h"
#include "report/analysis_internal.h"

struct chrome {
    struct outfile out;
    uint64_t flows;
};

/* Microseconds with 6 decimals, from picoseconds. */
static void put_us(FILE *f, simtime_t t) {
    fprintf(f, "%" PRId64 ".%06" PRId64, (int64_t)(t / 1000000), (int64_t)(t % 1000000));
}

static void event_head(FILE *f, const char *ph, int32_t rank, simtime_t t) {
    fprintf(f, ",\n{\"ph\":\"%s\",\"pid\":0,\"tid\":%d,\"ts\":", ph, rank);
    put_us(f, t);
}

struct chrome *chrome_open(const struct sim *s, const char *path, const char *what,
                           struct sim_error *err) {
    struct chrome *c = xcalloc(1, sizeof *c);
    if (!outfile_open(&c->out, path, err)) {
        free(c);
        return NULL;
    }
    FILE *f = c->out.f;
    fputs("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[\n{\"ph\":\"M\",\"pid\":0,\"name\":"
          "\"process_name\",\"args\":{\"name\":",
          f);
    escape_json(f, what ? what : "simpi");
    fputs("}}", f);
    for (int32_t r = 0; r < sim_size(s); r++) {
        fprintf(f,
                ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_name\",\"args\":{"
                "\"name\":\"rank %d\"}}",
                r, r);
        fprintf(f,
                ",\n{\"ph\":\"M\",\"pid\":0,\"tid\":%d,\"name\":\"thread_sort_index\","
                "\"args\":{\"sort_index\":%d}}",
                r, r);
    }
    return c;
}

void chrome_period(struct chrome *c, const struct sim_period *p) {
    if (p->end <= p->begin) return;
    FILE *f = c->out.f;
    event_head(f, "X", p->rank, p->begin);
    fputs(",\"dur\":", f);
    put_us(f, p->end - p->begin);
    fprintf(f, ",\"cat\":\"%s\",\"name\":\"%s\",\"args\":{\"state\":\"%s\"}}",
            p->state == SIM_ST_RUNNING ? "compute" : "mpi",
            p->state == SIM_ST_RUNNING ? "compute" : sim_call_name((enum sim_call)p->call),
            sim_state_name((enum sim_state)p->state));
}

void chrome_instant(struct chrome *c, int32_t rank, simtime_t t, enum sim_call call) {
    event_head(c->out.f, "i", rank, t);
    fprintf(c->out.f, ",\"s\":\"t\",\"cat\":\"mpi\",\"name\":\"%s\"}", sim_call_name(call));
}

void chrome_message(struct chrome *c, const struct sim_message *m) {
    FILE *f = c->out.f;
    uint64_t id = ++c->flows;
    event_head(f, "s", m->from, m->lsend);
    fprintf(f, ",\"cat\":\"message\",\"name\":\"message\",\"id\":%" PRIu64 "}", id);
    event_head(f, "f", m->to, m->precv);
    fprintf(f,
            ",\"bp\":\"e\",\"cat\":\"message\",\"name\":\"message\",\"id\":%" PRIu64
            ",\"args\":{\"bytes\":%" PRId64 ",\"tag\":%d,\"from\":%d,\"collective\":%s}}",
            id, m->size, m->tag, m->from, m->collective ? "true" : "false");
}

void chrome_interval(struct chrome *c, int32_t rank, simtime_t t, const char *name) {
    FILE *f = c->out.f;
    event_head(f, name ? "B" : "E", rank, t);
    if (name) {
        fputs(",\"cat\":\"interval\",\"name\":", f);
        escape_json(f, name);
    }
    fputc('}', f);
}

bool chrome_close(struct chrome *c, struct sim_error *err) {
    bool ok;
    if (err) {
        fputs("\n]}\n", c->out.f);
        ok = outfile_commit(&c->out, err);
    } else {
        outfile_discard(&c->out);
        ok = false;
    }
    free(c);
    return ok;
}
