/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the trace reader: record syntax, sources (single file, .gz,
 * directory, index), streaming queues and error messages. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "replay/trace.h"
#include "test.h"

static bool parse(const char *text, struct trace_rec *r, struct sim_error *err) {
    char line[256];
    snprintf(line, sizeof line, "%s", text);
    return trace_parse_line(NULL, line, 4, r, "t.trace", 7, err);
}

static void test_records(void) {
    struct trace_rec r;
    struct sim_error err = {0};
    CHECK(parse("0 compute 1.5ms", &r, &err) && r.op == TOP_COMPUTE && r.size == 1500000000);
    CHECK(parse("1 compute 2.5Gf", &r, &err) && r.op == TOP_COMPUTE_FLOPS && r.flops == 2.5e9);
    CHECK(parse("0 send 1 1MiB tag=7", &r, &err) && r.op == TOP_SEND && r.peer == 1 &&
          r.size == 1048576 && r.tag == 7 && r.mode == SEND_STANDARD);
    CHECK(parse("0 issend 3 10 req=4 comm=2", &r, &err) && r.op == TOP_ISEND &&
          r.mode == SEND_SYNC && r.req == 4 && r.comm == 2 && r.size == 10);
    CHECK(parse("1 recv any 1KiB tag=any  # comment", &r, &err) && r.op == TOP_RECV &&
          r.peer == SIM_ANY_SOURCE && r.tag == SIM_ANY_TAG && r.size == 1024);
    CHECK(parse("1 recv 0 tag=3", &r, &err) && r.size == -1 && r.tag == 3);
    CHECK(parse("0 waitall", &r, &err) && r.op == TOP_WAITALL && r.nids == 0);
    CHECK(parse("0 waitall 1 2 3", &r, &err) && r.nids == 3 && r.ids[2] == 3);
    trace_rec_clear(&r);
    CHECK(parse("0 bcast 8KiB root=2", &r, &err) && r.op == TOP_COLL && r.coll == COLL_BCAST &&
          r.root == 2 && r.size == 8192);
    CHECK(parse("0 barrier", &r, &err) && r.coll == COLL_BARRIER);
    CHECK(parse("0 comm_split 0 color=1 key=0 new=5", &r, &err) && r.op == TOP_COMM_SPLIT &&
          r.color == 1 && r.newcomm == 5 && r.comm == 0);
    CHECK(parse("0 comm_split 0 color=undefined key=0 new=5", &r, &err) &&
          r.color == SIM_UNDEFINED);
    CHECK(parse("2 sendrecv 1 64B 3 32B tag=1 recvtag=2", &r, &err) && r.peer2 == 3 &&
          r.size2 == 32 && r.tag2 == 2);
    CHECK(parse("0 iallreduce 8B req=1", &r, &err) && r.op == TOP_ICOLL);
    CHECK(!err.set);
}

static void expect_bad(const char *text, const char *needle) {
    struct trace_rec r;
    struct sim_error err = {0};
    CHECK(!parse(text, &r, &err));
    CHECK_CONTAINS(err.msg, "t.trace:7:");
    CHECK_CONTAINS(err.msg, needle);
}

static void test_bad_records(void) {
    expect_bad("0 jump 1", "unknown operation 'jump'");
    expect_bad("9 compute 1us", "rank from 0 to 3");
    expect_bad("0 compute 5", "a time (1.5ms) or a flop count");
    expect_bad("0 send 7 1KiB", "field 'destination': found '7'");
    expect_bad("0 send 1 lots", "field 'size': found 'lots'");
    expect_bad("0 send 1", "too few fields");
    expect_bad("0 isend 1 8B", "needs req=ID");
    expect_bad("0 send 1 8B colour=2", "unknown option 'colour'");
    expect_bad("0 send 1 8B tag=x", "option 'tag': found 'x'");
    expect_bad("0 send 1 8B tag=any", "cannot use tag=any");
    expect_bad("0 comm_split 0 color=1", "needs new=ID");
    expect_bad("0 wait", "too few fields");
    expect_bad("0 waitany", "needs the request ids");
    expect_bad("x compute 1us", "field 'rank'");
}

static const char *two_rank_trace = "simpi-trace 1\nranks 2\n# c\n\n0 compute 1us\n"
                                    "1 compute 2us\n0 compute 3us\n";

static void test_interleaved(void) {
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(test_write_temp(".trace", two_rank_trace), &err);
    CHECK(t && trace_ranks(t) == 2);
    if (!t) return;
    /* Asking for rank 1 first queues rank 0's first record. */
    struct trace_rec *a = trace_next(t, 1, &err);
    CHECK(a && a->size == 2 * PS_PER_US);
    struct trace_rec *b = trace_next(t, 0, &err);
    CHECK(b && b->size == 1 * PS_PER_US);
    struct trace_rec *c = trace_next(t, 0, &err);
    CHECK(c && c->size == 3 * PS_PER_US && c->line == 7);
    CHECK(trace_next(t, 0, &err) == NULL && !err.set);
    CHECK(trace_next(t, 1, &err) == NULL && !err.set);
    trace_release(t, a);
    trace_release(t, b);
    trace_release(t, c);
    CHECK_EQ_INT(trace_records(t), 3);
    trace_close(t);
}

static void test_rank_ordered(void) {
    /* All of rank 0, then all of rank 1: serving rank 1 first must not queue
     * rank 0's records (the file is indexed by runs). */
    char text[8192] = "simpi-trace 1\nranks 2\n";
    for (int r = 0; r < 2; r++)
        for (int i = 0; i < 100; i++) {
            char l[64];
            snprintf(l, sizeof l, "%d compute %dus\n", r, i + 1);
            strcat(text, l);
        }
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(test_write_temp(".trace", text), &err);
    CHECK(t != NULL);
    if (!t) return;
    struct trace_rec *a = trace_next(t, 1, &err);
    CHECK(a && a->rank == 1 && a->size == 1 * PS_PER_US && a->line == 103);
    struct trace_rec *b = trace_next(t, 0, &err);
    CHECK(b && b->rank == 0 && b->size == 1 * PS_PER_US && b->line == 3);
    /* the two records handed out, and the mapped file itself */
    CHECK(trace_buffer_peak(t) <=
          2 * (int64_t)sizeof(struct trace_rec) + 16 + (int64_t)strlen(text));
    int n = 2;
    trace_release(t, a);
    trace_release(t, b);
    for (int r = 0; r < 2; r++)
        while ((a = trace_next(t, r, &err))) {
            n++;
            trace_release(t, a);
        }
    CHECK_EQ_INT(n, 200);
    CHECK_EQ_INT(trace_records(t), 200);
    CHECK(!err.set);
    trace_close(t);
}

static bool keep_odd(void *ctx, int32_t rank) {
    (void)ctx;
    return rank % 2 == 1;
}

/* A rank's cursor is set up at the first record asked for, for the ranks
 * kept only (a split run's worker): ranks without records end at once,
 * and so does a trace without any (the fuzzer's find: its cursors were
 * left unset). */
static void test_ranks_without_records(void) {
    const char *texts[] = {"simpi-trace 1\nranks 3\n# no records\n",
                           "simpi-trace 1\nranks 3\n1 compute 5us\n1 compute 6us\n"};
    for (int k = 0; k < 2; k++)
        for (int keep = 0; keep < 2; keep++) {
            struct sim_error err = {0};
            struct trace_reader *t = trace_open(test_write_temp(".trace", texts[k]), &err);
            CHECK(t != NULL);
            if (!t) continue;
            if (keep) trace_keep_ranks(t, keep_odd, NULL);
            int n = 0;
            for (int32_t r = keep; r < 3; r += 1 + keep) {
                struct trace_rec *a;
                while ((a = trace_next(t, r, &err))) {
                    n += a->rank == r;
                    trace_release(t, a);
                }
            }
            CHECK_EQ_INT(n, k == 0 ? 0 : 2);
            CHECK(!err.set);
            trace_close(t);
        }
}

static void test_gzip(void) {
    char path[256];
    snprintf(path, sizeof path, "%s/XXXXXX.trace.gz", test_tmp);
    int fd = mkstemps(path, 9);
    CHECK(fd >= 0);
    close(fd);
    gzFile g = gzopen(path, "wb");
    gzputs(g, two_rank_trace);
    gzclose(g);
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(path, &err);
    CHECK(t != NULL);
    struct trace_rec *r = t ? trace_next(t, 1, &err) : NULL;
    CHECK(r && r->size == 2 * PS_PER_US);
    if (r) trace_release(t, r);
    trace_close(t);
    unlink(path);
}

static void test_directory_and_index(void) {
    char dir[128];
    snprintf(dir, sizeof dir, "%s/dir-XXXXXX", test_tmp);
    CHECK(mkdtemp(dir) != NULL);
    char p[256];
    for (int i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/rank%d.trace", dir, i);
        FILE *f = fopen(p, "w");
        fprintf(f, "simpi-trace 1\n%d compute %dus\n%d compute 1us\n", i, i + 1, i);
        fclose(f);
    }
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(dir, &err);
    CHECK(t && trace_ranks(t) == 3);
    struct trace_rec *r = t ? trace_next(t, 2, &err) : NULL;
    CHECK(r && r->size == 3 * PS_PER_US);
    if (r) trace_release(t, r);
    trace_close(t);
    snprintf(p, sizeof p, "%s/app.index", dir);
    FILE *f = fopen(p, "w");
    fprintf(f, "simpi-trace-index 1\nranks 3\n0 rank2.trace\n1 rank1.trace\n2 rank0.trace\n");
    fclose(f);
    t = trace_open(p, &err);
    CHECK(t && trace_ranks(t) == 3);
    /* rank 0 reads rank2.trace, whose records say rank 2: an error naming the file */
    r = t ? trace_next(t, 0, &err) : NULL;
    CHECK(r == NULL);
    CHECK_CONTAINS(err.msg, "record of rank 2 in the file of rank 0");
    trace_close(t);
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
}

static void test_bad_headers(void) {
    struct sim_error e1 = {0}, e2 = {0}, e3 = {0}, e4 = {0};
    CHECK(!trace_open(test_write_temp(".trace", "hello\n"), &e1));
    CHECK_CONTAINS(e1.msg, "expected the header 'simpi-trace 1'");
    CHECK(!trace_open(test_write_temp(".trace", "simpi-trace 9\nranks 2\n"), &e2));
    CHECK_CONTAINS(e2.msg, "unsupported trace version");
    CHECK(!trace_open(test_write_temp(".trace", "simpi-trace 1\nranks zero\n"), &e3));
    CHECK_CONTAINS(e3.msg, "field 'ranks'");
    CHECK(!trace_open("/nonexistent/x.trace", &e4));
    CHECK_CONTAINS(e4.msg, "cannot open trace");
}

static void test_source_errors(void) {
    char dir[128];
    snprintf(dir, sizeof dir, "%s/dir-XXXXXX", test_tmp);
    CHECK(mkdtemp(dir) != NULL);
    char p[256], cmd[300];
    /* rank1.trace missing while rank2.trace exists */
    snprintf(p, sizeof p, "%s/rank0.trace", dir);
    FILE *f = fopen(p, "w");
    fprintf(f, "simpi-trace 1\n");
    fclose(f);
    snprintf(p, sizeof p, "%s/rank2.trace", dir);
    f = fopen(p, "w");
    fprintf(f, "simpi-trace 1\n");
    fclose(f);
    struct sim_error e1 = {0}, e2 = {0}, e3 = {0}, e4 = {0};
    CHECK(!trace_open(dir, &e1));
    CHECK_CONTAINS(e1.msg, "per-rank trace for rank 1 is missing");
    /* index listing 2 of 3 ranks, and a malformed index line */
    snprintf(p, sizeof p, "%s/a.index", dir);
    f = fopen(p, "w");
    fprintf(f, "simpi-trace-index 1\nranks 3\n0 rank0.trace\n2 rank2.trace\n");
    fclose(f);
    CHECK(!trace_open(p, &e2));
    CHECK_CONTAINS(e2.msg, "index lists 2 of 3 ranks");
    f = fopen(p, "w");
    fprintf(f, "simpi-trace-index 1\nranks 3\n7 rank0.trace\n");
    fclose(f);
    CHECK(!trace_open(p, &e3));
    CHECK_CONTAINS(e3.msg, "a.index:3: expected 'RANK PATH'");
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0);
    /* a line longer than the reader's buffer */
    size_t n = (1 << 20) + 100;
    char *big = malloc(n + 64);
    strcpy(big, "simpi-trace 1\nranks 1\n0 compute 1us ");
    size_t used = strlen(big);
    memset(big + used, '#', n - used);
    strcpy(big + n, "\n");
    /* reported when the file is indexed at open, or when the line is read */
    struct trace_reader *t = trace_open(test_write_temp(".trace", big), &e4);
    CHECK(!t || trace_next(t, 0, &e4) == NULL);
    CHECK_CONTAINS(e4.msg, ":3: line longer than 1048576 bytes");
    trace_close(t);
    free(big);
}

TEST_LIST(trace_tests) = {
    {"trace.ranks_without_records", test_ranks_without_records},
    {"trace.records", test_records},
    {"trace.bad_records", test_bad_records},
    {"trace.interleaved", test_interleaved},
    {"trace.rank_ordered", test_rank_ordered},
    {"trace.gzip", test_gzip},
    {"trace.directory_index", test_directory_and_index},
    {"trace.bad_headers", test_bad_headers},
    {"trace.source_errors", test_source_errors},
    TEST_END,
};
