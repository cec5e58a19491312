/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests for the SimGrid time-independent trace reader: action syntax,
 * datatype sizes, description files, and replay times worked by hand. */
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/network.h"
#include "platform/platform.h"
#include "replay/replay.h"
#include "replay/trace_internal.h"
#include "report/summary.h"
#include "test.h"

static int parse(const char *text, struct trace_rec *r, struct trace_rec *x, bool *hx, uint8_t *dt,
                 struct sim_error *err) {
    char line[256];
    snprintf(line, sizeof line, "%s", text);
    return tit_parse_line(line, -1, 4, dt, NULL, r, x, hx, "r.txt", 3, err);
}

static void test_actions(void) {
    struct trace_rec r, x;
    bool hx;
    uint8_t dt = 0;
    struct sim_error err = {0};
    CHECK(parse("0 init", &r, &x, &hx, &dt, &err) == 0 && dt == 1);
    CHECK(parse("1 send 2 7 100 0", &r, &x, &hx, &dt, &err) == 1 && r.op == TOP_SEND &&
          r.peer == 2 && r.tag == 7 && r.size == 800); /* 100 doubles */
    CHECK(parse("1 isend 2 7 100", &r, &x, &hx, &dt, &err) == 1 && r.op == TOP_ISEND &&
          r.size == 100); /* default type: bytes */
    CHECK(parse("0 init 1", &r, &x, &hx, &dt, &err) == 0 && dt == 8);
    CHECK(parse("1 irecv 0 3 10", &r, &x, &hx, &dt, &err) == 1 && r.size == 80);  /* doubles */
    CHECK(parse("1 recv 0 3 10 3", &r, &x, &hx, &dt, &err) == 1 && r.size == 20); /* shorts */
    CHECK(parse("2 compute 2.5e6", &r, &x, &hx, &dt, &err) == 1 && r.op == TOP_COMPUTE_FLOPS &&
          r.flops == 2.5e6);
    CHECK(parse("2 wait 2 0 5", &r, &x, &hx, &dt, &err) == 1 && r.op == TOP_WAIT_PEER &&
          r.mode == 1 && r.peer == 0 && r.tag == 5);
    CHECK(parse("2 wait 3 2 5", &r, &x, &hx, &dt, &err) == 1 && r.mode == 0 && r.peer == 3);
    CHECK(parse("0 allreduce 20 1000 5", &r, &x, &hx, &dt, &err) == 1 && r.op == TOP_COLL &&
          r.coll == COLL_ALLREDUCE && r.size == 80 && hx && x.op == TOP_COMPUTE_FLOPS &&
          x.flops == 1000); /* 20 floats, then 1000 flops */
    CHECK(parse("0 bcast 50 1 6", &r, &x, &hx, &dt, &err) == 1 && r.coll == COLL_BCAST &&
          r.root == 1 && r.size == 50);
    CHECK(parse("0 gather 5 5 2 0 0", &r, &x, &hx, &dt, &err) == 1 && r.coll == COLL_GATHER &&
          r.root == 2 && r.size == 40);
    CHECK(parse("0 sendRecv 8 1 4 3 0 1", &r, &x, &hx, &dt, &err) == 1 && r.op == TOP_SENDRECV &&
          r.size == 64 && r.peer == 1 && r.size2 == 16 && r.peer2 == 3);
    /* MPI_PROC_NULL (-333): nothing to simulate; a sendRecv with it on one
     * side keeps the other */
    CHECK(parse("1 isend -333 7 100", &r, &x, &hx, &dt, &err) == 0);
    CHECK(parse("1 recv -333 7 100", &r, &x, &hx, &dt, &err) == 0);
    CHECK(parse("2 wait -333 2 5", &r, &x, &hx, &dt, &err) == 0);
    CHECK(parse("0 sendRecv 8 -333 4 3 0 1", &r, &x, &hx, &dt, &err) == 1 && r.op == TOP_RECV &&
          r.peer == 3 && r.size == 16);
    CHECK(parse("0 sendRecv 8 1 4 -333 0 1", &r, &x, &hx, &dt, &err) == 1 && r.op == TOP_SEND &&
          r.peer == 1 && r.size == 64);
    CHECK(parse("0 sendRecv 8 -333 4 -333 0 1", &r, &x, &hx, &dt, &err) == 0);
    CHECK(parse("0 alltoallv 100 1 7 10 12 100 1 70 10 5", &r, &x, &hx, &dt, &err) == 1 &&
          r.coll == COLL_ALLTOALL && r.size == 60); /* mean of 1,7,10,12 = 7.5 -> 8 doubles */
    /* each peer's count, in bytes: sent 1,7,10,12 doubles, received 1,70,10,5 */
    static const int64_t want_counts[8] = {8, 56, 80, 96, 8, 560, 80, 40};
    CHECK(r.counts != NULL && r.mode == (4 | 3));
    for (int i = 0; i < 8 && r.counts; i++)
        CHECK_EQ_INT(r.counts[i], want_counts[i]);
    trace_rec_clear(&r);
    CHECK(parse("2 gatherv 3 1 2 3 4 1", &r, &x, &hx, &dt, &err) == 1 && r.coll == COLL_GATHER &&
          r.root == 1 && r.size == 24 && r.mode == (4 | 2) && r.counts && r.counts[4 + 3] == 32);
    trace_rec_clear(&r);
    CHECK(parse("1 scatterv 1 2 3 4 2 0", &r, &x, &hx, &dt, &err) == 1 && r.coll == COLL_SCATTER &&
          r.root == 0 && r.size == 16 && r.mode == (4 | 1) && r.counts && r.counts[3] == 32);
    trace_rec_clear(&r);
    CHECK(parse("3 reducescatter 1 2 3 4 100", &r, &x, &hx, &dt, &err) == 1 &&
          r.coll == COLL_REDUCE_SCATTER && r.size == 32 && r.counts && r.counts[4 + 1] == 16);
    trace_rec_clear(&r);
    CHECK(parse("0 finalize", &r, &x, &hx, &dt, &err) == 0);
    CHECK(parse("0 comm_size 4", &r, &x, &hx, &dt, &err) == 0);
    CHECK(!err.set);
    CHECK(parse("0 jump 3", &r, &x, &hx, &dt, &err) == -1);
    CHECK_CONTAINS(err.msg, "r.txt:3: unknown SimGrid action 'jump'");
    struct sim_error e2 = {0}, e3 = {0};
    CHECK(parse("0 send 9 0 10", &r, &x, &hx, &dt, &e2) == -1);
    CHECK_CONTAINS(e2.msg, "field 'partner': found '9'");
    CHECK(parse("0 send 1 0 10 99", &r, &x, &hx, &dt, &e3) == -1);
    CHECK_CONTAINS(e3.msg, "SimGrid datatype id");
}

static void write_file(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (!f) return;
    fputs(text, f);
    fclose(f);
}

/* A run stopped by an error while another rank's variable-count record
 * waits in its queue: the record's counts are freed with the reader (the
 * sanitizer run checks for the leak fuzz_trace once found). */
static void test_stopped_with_queued_counts(void) {
    char p[256];
    snprintf(p, sizeof p, "%s/queued.txt", test_tmp);
    write_file(p, "0 init\n1 init\n1 reducescatter 1 2 0\n0 jump 3\n1 finalize\n");
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(p, &err);
    struct platform *plat = platform_load(NULL, NULL, 0, &err);
    struct network net;
    CHECK(t && plat && network_init(&net, plat, &err));
    struct replay_result res = {0};
    bool ok = t && replay_run(t, plat, &net, &res, &err);
    CHECK(!ok || res.status != SIM_OK);
    if (res.sim) replay_result_free(&res);
    CHECK_CONTAINS(err.set ? err.msg : "", "unknown SimGrid action 'jump'");
    trace_close(t);
    network_destroy(&net);
    platform_free(plat);
}

static void test_description_replay(void) {
    char dir[128];
    snprintf(dir, sizeof dir, "%s/tit-XXXXXX", test_tmp);
    CHECK(mkdtemp(dir) != NULL);
    char p[256], desc[256];
    /* rank 0: 1e6 flops, then sends 1000 B; rank 1 receives, waits by peer/tag */
    snprintf(p, sizeof p, "%s/r0.txt", dir);
    write_file(p, "0 init\n0 compute 1000000\n0 isend 1 4 1000\n0 wait 0 1 4\n0 finalize\n");
    snprintf(p, sizeof p, "%s/r1.txt", dir);
    write_file(p, "1 init\n1 irecv 0 4 1000\n1 waitall 1\n1 allreduce 8 2000000\n1 finalize\n");
    snprintf(p, sizeof p, "%s/r1.txt", dir);
    snprintf(desc, sizeof desc, "%s/description", dir);
    char text[600];
    snprintf(text, sizeof text, "%s/r0.txt\nr1.txt\n", dir); /* absolute and relative */
    write_file(desc, text);
    /* rank 0 also joins the allreduce */
    snprintf(p, sizeof p, "%s/r0.txt", dir);
    write_file(p, "0 init\n0 compute 1000000\n0 isend 1 4 1000\n0 wait 0 1 4\n"
                  "0 allreduce 8 0\n0 finalize\n");
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(desc, &err);
    CHECK(t && trace_ranks(t) == 2);
    if (err.set) fprintf(stderr, "%s\n", err.msg);
    const char *sets[] = {"cores_per_node=1", "speed=1Gf", "inter.latency=10us",
                          "inter.bandwidth=100MB/s"};
    struct platform *plat = platform_load(NULL, sets, 4, &err);
    struct network net;
    CHECK(plat && network_init(&net, plat, &err));
    struct replay_result res;
    CHECK(t && replay_run(t, plat, &net, &res, &err));
    if (t && res.sim) {
        /* The message is sent at 1ms (1e6 flops at 1 Gf/s) and arrives 10us + 1000/1e8 s
         * = 20us later: rank 1 enters the allreduce (one exchange of 8 B on 2 ranks) at
         * 1.02ms. Rank 0's part, sent at 1ms, leaves when node 0's interface has sent
         * the 1000 B (10us), at 1.01ms, and arrives 10.08us later, at 1.02008ms: rank 1
         * leaves then and computes 2e6 flops: 1.02008ms + 2ms. Rank 0 gets rank 1's
         * part at 1.02ms + 10.08us. */
        CHECK_EQ_INT(sim_rank_stats(res.sim, 1)->finish, 3020080000);
        CHECK_EQ_INT(sim_rank_stats(res.sim, 0)->finish, 1030080000);
        replay_result_free(&res);
    }
    trace_close(t);
    network_destroy(&net);
    platform_free(plat);
    snprintf(text, sizeof text, "rm -rf %s", dir);
    CHECK(system(text) == 0);
}

/* The predicted time of a trace on the built-in platform, one rank a
 * node; -1 if it does not replay. */
static simtime_t replay_time(const char *path) {
    struct sim_error err = {0};
    struct trace_reader *t = trace_open(path, &err);
    const char *sets[] = {"cores_per_node=1"};
    struct platform *plat = platform_load(NULL, sets, 1, &err);
    struct network net;
    simtime_t got = -1;
    CHECK(t && plat && network_init(&net, plat, &err));
    struct replay_result res;
    if (t && plat && replay_run(t, plat, &net, &res, &err) && res.sim) {
        if (res.status == SIM_OK) got = summary_predicted(res.sim);
        replay_result_free(&res);
    }
    if (err.set) fprintf(stderr, "%s\n", err.msg);
    trace_close(t);
    if (plat) network_destroy(&net);
    platform_free(plat);
    return got;
}

/* SMPI's own trace of a non-periodic halo (tests/interop/smpi-halo): its
 * calls with MPI_PROC_NULL (-333) complete at once, and the sendRecv
 * lines SMPI dropped on the edge ranks (every partner of ranks 2 and 3)
 * leave their partners' halves unsimulated. It replays as the same
 * program written without them in simpi's format: per row, the left rank
 * receives 512 doubles from the right one (tag 4) and sends it 512 (tag
 * 3), then an allreduce of one double; twice. */
static void test_proc_null_halo(void) {
    static const char *const row = "%d irecv %d 4096 tag=%d req=1\n%d isend %d 4096 tag=%d req=2\n"
                                   "%d waitall\n%d allreduce 8\n";
    char twin[2048] = "simpi-trace 1\nranks 6\n", line[256];
    for (int it = 0; it < 2; it++)
        for (int r = 0; r < 6; r++) {
            int peer = r ^ 1, rtag = r % 2 ? 3 : 4, stag = r % 2 ? 4 : 3;
            snprintf(line, sizeof line, row, r, peer, rtag, r, peer, stag, r, r);
            strcat(twin, line);
        }
    simtime_t smpi = replay_time(SIMPI_SOURCE_DIR "/tests/interop/smpi-halo/description");
    CHECK(smpi > 0);
    CHECK_EQ_INT(smpi, replay_time(test_write_temp(".trace", twin)));
}

TEST_LIST(simgrid_tests) = {
    {"simgrid.proc_null_halo", test_proc_null_halo},
    {"simgrid.actions", test_actions},
    {"simgrid.description_replay", test_description_replay},
    {"simgrid.stopped_with_queued_counts", test_stopped_with_queued_counts},
    TEST_END,
};
