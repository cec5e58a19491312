/* SPDX-License-Identifier: BSD-3-Clause */
/* Golden replay tests: expected times are worked by hand from the model
 * (docs/models.md) for a platform of one rank per node with
 *   inter: L = 10us, B = 100 MB/s, so T(S) = 10us + S / 1e8 s,
 *   T(0) = 10us (control messages), eager limit 64 KiB.
 * Each node's interface carries one message after another, its wire time
 * W(S) = S / B each (1000 B: 10us) on the sending node's injection side
 * and on the receiving node's ejection side (docs/network.md): a message
 * that finds its sender's interface busy leaves when it is free, and
 * arrives T(S) after it leaves unless the receiver's interface is still
 * taking in another, then W(S) after that one. */
#include <stdlib.h>

#include "net/interfaces.h"
#include "replay/replay.h"
#include "report/summary.h"
#include "test.h"

static const char *plat4 = "nodes: 4\ncores_per_node: 1\n"
                           "intra: {model: affine, latency: 1us, bandwidth: 1GB/s}\n"
                           "inter: {model: affine, latency: 10us, bandwidth: 100MB/s}\n"
                           "mpi: {eager_limit: 64KiB}\n";

#define US PS_PER_US

struct outcome {
    enum sim_status status;
    bool input_ok;
    simtime_t finish[8];
    simtime_t predicted;
    char report[2048];
    struct rank_stats st[8];
};

static struct outcome run_with(const char *plat_yaml, const char *const *sets, int nsets,
                               const char *trace) {
    struct outcome o;
    memset(&o, 0, sizeof o);
    struct sim_error err = {0};
    const char *plat_path = test_write_temp(".yaml", plat_yaml);
    struct platform *p = platform_load(plat_path, sets, nsets, &err);
    struct network net;
    CHECK(p && network_init(&net, p, &err));
    const char *trace_path = test_write_temp(".trace", trace);
    test_export_replay(plat_path, sets, nsets, trace_path);
    struct trace_reader *t = trace_open(trace_path, &err);
    CHECK(t != NULL);
    struct replay_result res;
    o.input_ok = t && replay_run(t, p, &net, &res, &err);
    if (t && res.sim) {
        o.status = res.status;
        for (int i = 0; i < sim_size(res.sim) && i < 8; i++) {
            o.st[i] = *sim_rank_stats(res.sim, i);
            o.finish[i] = o.st[i].finish;
        }
        o.predicted = summary_predicted(res.sim);
        snprintf(o.report, sizeof o.report, "%s", sim_failure_report(res.sim));
        replay_result_free(&res);
    }
    if (err.set) snprintf(o.report, sizeof o.report, "%s", err.msg);
    trace_close(t);
    if (p) network_destroy(&net);
    platform_free(p);
    return o;
}

static struct outcome run(const char *trace) {
    return run_with(plat4, NULL, 0, trace);
}

static void test_pingpong_eager(void) {
    /* S = 10000 B: T(S) = 10us + 100us = 110us; a round trip is 2 x 110us. */
    struct outcome o = run("simpi-trace 1\nranks 2\n0 send 1 10000\n1 recv 0 10000\n"
                           "1 send 0 10000\n0 recv 1 10000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 220 * US);
    CHECK_EQ_INT(o.finish[1], 110 * US); /* rank 1's eager reply returns at once */
    CHECK_EQ_INT(o.st[0].msgs_sent, 1);
    CHECK_EQ_INT(o.st[1].bytes_recv, 10000);
}

static void test_pingpong_rendezvous(void) {
    /* S = 1e6 B > 64 KiB: per message T(0) (RTS) + T(0) (CTS) + T(S)
     * = 10 + 10 + (10 + 10000) us = 10030us; round trip 20060us. */
    struct outcome o = run("simpi-trace 1\nranks 2\n0 send 1 1000000\n1 recv 0 1000000\n"
                           "1 send 0 1000000\n0 recv 1 1000000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 20060 * US);
}

static void test_eager_returns_before_late_receiver(void) {
    /* 1000 B is eager: the send completes at 0 although the receive is posted
     * at 1ms; the receiver has the data at max(1ms, T(1000) = 20us) = 1ms. */
    struct outcome o = run("simpi-trace 1\nranks 2\n0 send 1 1000\n1 compute 1ms\n1 recv 0 1000\n");
    CHECK_EQ_INT(o.finish[0], 0);
    CHECK_EQ_INT(o.finish[1], 1000 * US);
}

static void test_rendezvous_waits_for_late_receiver(void) {
    /* 1e6 B: match at max(1ms, T(0)) = 1ms, done = 1ms + T(0) + T(S)
     * = 1000 + 10 + 10010 = 11020us for both sides. */
    struct outcome o =
        run("simpi-trace 1\nranks 2\n0 send 1 1000000\n1 compute 1ms\n1 recv 0 1000000\n");
    CHECK_EQ_INT(o.finish[0], 11020 * US);
    CHECK_EQ_INT(o.finish[1], 11020 * US);
    /* the sender waited for the receiver from 0 to 1ms: blocked time */
    CHECK_EQ_INT(o.st[0].blocked, 1000 * US);
}

static void test_ssend_waits_for_receiver(void) {
    /* eager-size Ssend: receiver matches at max(1ms, 20us) = 1ms, the ack
     * reaches the sender T(0) = 10us later: 1010us. */
    struct outcome o =
        run("simpi-trace 1\nranks 2\n0 ssend 1 1000\n1 compute 1ms\n1 recv 0 1000\n");
    CHECK_EQ_INT(o.finish[0], 1010 * US);
    CHECK_EQ_INT(o.finish[1], 1000 * US);
}

static void test_bsend_ok(void) {
    struct outcome o = run("simpi-trace 1\nranks 2\n0 buffer_attach 8KiB\n0 bsend 1 1000\n"
                           "0 bsend 1 1000\n1 compute 1ms\n1 recv 0 1000\n1 recv 0 1000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 0);
    CHECK_EQ_INT(o.finish[1], 1000 * US);
}

static void test_bsend_overflow(void) {
    struct outcome o = run("simpi-trace 1\nranks 2\n0 buffer_attach 1KiB\n0 bsend 1 1000\n"
                           "0 bsend 1 1000\n1 compute 1ms\n1 recv 0 1000\n1 recv 0 1000\n");
    CHECK_EQ_INT(o.status, SIM_APP_ERROR);
    CHECK_CONTAINS(o.report, "buffered send overflow");
    CHECK_CONTAINS(o.report, "rank 0");
    CHECK_CONTAINS(o.report, "buffer of 1024 bytes has 1000 bytes in flight");
}

static void test_bsend_empty_without_buffer(void) {
    /* a zero-byte buffered send needs no buffer space: no buffer is fine */
    struct outcome o = run("simpi-trace 1\nranks 2\n0 bsend 1 0B\n1 recv 0 0B\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[1], 10 * US); /* T(0) */
}

static void test_bsend_released_after_delivery(void) {
    /* The first message is delivered at T(1000) = 20us; a bsend after 30us
     * of compute finds the buffer free again. */
    struct outcome o = run("simpi-trace 1\nranks 2\n0 buffer_attach 1KiB\n0 bsend 1 1000\n"
                           "0 compute 30us\n0 bsend 1 1000\n1 recv 0 1000\n1 recv 0 1000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[1], 50 * US); /* second arrives at 30 + 20us */
}

static void test_deadlock(void) {
    struct outcome o =
        run("simpi-trace 1\nranks 3\n0 recv 1 8B tag=4\n1 recv 0 8B\n2 compute 1us\n");
    CHECK_EQ_INT(o.status, SIM_DEADLOCK);
    CHECK_CONTAINS(o.report, "2 of 3 ranks are blocked");
    CHECK_CONTAINS(o.report, "rank 0: recv from rank 1 tag 4 -> waits for rank 1");
    CHECK_CONTAINS(o.report, "rank 1: recv from rank 0 tag 0 -> waits for rank 0");
    CHECK_CONTAINS(o.report, "cycle: 0 -> 1 -> 0");
    /* a longer cycle among 3 ranks, and a wait on a finished rank */
    o = run("simpi-trace 1\nranks 4\n0 recv 1 8B\n1 recv 2 8B\n2 recv 0 8B\n3 recv any 8B\n");
    CHECK_CONTAINS(o.report, "cycle: 0 -> 1 -> 2 -> 0");
    o = run("simpi-trace 1\nranks 2\n0 recv 1 8B\n1 compute 1us\n");
    CHECK_CONTAINS(o.report, "rank 0 waits for rank 1, which has finished its program");
}

static void test_collective_deadlock(void) {
    /* rank 3 never joins the barrier */
    struct outcome o = run("simpi-trace 1\nranks 4\n0 barrier\n1 barrier\n2 barrier\n"
                           "3 recv 0 8B\n");
    CHECK_EQ_INT(o.status, SIM_DEADLOCK);
    CHECK_CONTAINS(o.report, "barrier (dissemination)");
    CHECK_CONTAINS(o.report, "waits for ranks 3");
}

static void test_collective_times(void) {
    /* barrier, 4 ranks: 2 dissemination rounds of 0-byte messages: 2 x 10us */
    struct outcome o = run("simpi-trace 1\nranks 4\n0 barrier\n1 barrier\n2 barrier\n3 barrier\n");
    CHECK_EQ_INT(o.predicted, 20 * US);
    /* bcast 1000 B from 0: 0 -> 2 (arrives at T(1000) = 20us), then 0 -> 1,
     * which leaves when 0's interface has sent the first (W = 10us) and
     * arrives at 10 + 20 = 30us; 2 -> 3 leaves at 20us: 40us */
    o = run("simpi-trace 1\nranks 4\n0 bcast 1000\n1 bcast 1000\n2 bcast 1000\n3 bcast 1000\n");
    CHECK_EQ_INT(o.finish[1], 30 * US);
    CHECK_EQ_INT(o.finish[3], 40 * US);
    CHECK_EQ_INT(o.predicted, 40 * US);
    /* allreduce 8 B, 4 ranks (MPICH 4.x: recursive doubling up to 8 B): 2
     * rounds of T(8) = 10.08us */
    o = run("simpi-trace 1\nranks 4\n0 allreduce 8\n1 allreduce 8\n2 allreduce 8\n"
            "3 allreduce 8\n");
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(o.finish[i], 2 * (10 * US + 80000));
    CHECK_EQ_INT(o.st[0].coll, 2 * (10 * US + 80000));
}

/* A collective's steps are matched by their schedule (steps.c): a send
 * that comes before its receiver has started the collective waits for
 * it, each in the collective it belongs to, and collectives that do not
 * agree are reported. plat4: T(S) = 10us + S / 100MB/s between nodes, and
 * a node's interface injects one message after another (W(S) = S / 100MB/s). */
static void test_collective_steps(void) {
    /* 2 ranks, two non-blocking allreduces (recursive doubling, one
     * exchange each), 8 B then 1000 B; rank 1 joins at 100us. Rank 0's
     * sends leave at 0 and W(8) = 0.08us and wait at rank 1 for schedules
     * it has not started. Rank 1 posts at 100us: its receives take them
     * at once (both arrived, at 10.08 and 20.08us), so it ends at 100us;
     * its sends leave at 100 and 100.08us and reach rank 0 at
     * 100 + T(8) = 110.08us and 100.08 + T(1000) = 100.08 + 20 = 120.08us. */
    struct outcome o = run("simpi-trace 1\nranks 2\n0 iallreduce 8 req=1\n0 iallreduce 1000 req=2\n"
                           "0 wait 1\n0 wait 2\n1 compute 100us\n1 iallreduce 8 req=1\n"
                           "1 iallreduce 1000 req=2\n1 wait 1\n1 wait 2\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[1], 100 * US);
    CHECK_EQ_INT(o.finish[0], 120 * US + 80000);
    CHECK_EQ_INT(o.st[0].msgs_recv, 2);
    CHECK_EQ_INT(o.st[1].bytes_recv, 1008);
    /* rank 0 has a receive from any source waiting through an allreduce:
     * the allreduce's steps are not its to take. Both steps arrive at
     * T(8) = 10.08us; rank 1 then computes 100us and sends 8 B, which
     * reaches rank 0 at 110.08 + 10.08 = 120.16us */
    o = run("simpi-trace 1\nranks 2\n0 irecv any 8 req=1\n0 allreduce 8\n0 wait 1\n"
            "1 allreduce 8\n1 compute 100us\n1 send 0 8\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.st[1].coll, 10 * US + 80000);
    CHECK_EQ_INT(o.finish[1], 110 * US + 80000);
    CHECK_EQ_INT(o.finish[0], 120 * US + 160000);
    /* an allreduce against a bcast: rank 0's step meets rank 1's receive
     * of another operation, posted at 3us */
    o = run("simpi-trace 1\nranks 2\n0 allreduce 8\n1 compute 3us\n1 bcast 8\n");
    CHECK_EQ_INT(o.status, SIM_APP_ERROR);
    CHECK_CONTAINS(o.report, "mismatched collectives at virtual time 0.000003 s");
    CHECK_CONTAINS(o.report, "rank 0 called allreduce while rank 1 called bcast (root 0)");
    /* a step never received (rank 1 skips the bcast): counted as sent */
    o = run("simpi-trace 1\nranks 2\n0 bcast 8\n1 compute 1us\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.st[0].msgs_sent, 1);
    CHECK_EQ_INT(o.st[1].msgs_recv, 0);
    /* rank 1's node crashes while it computes: the report names the step
     * waiting for it */
    static const char *crash = "nodes: 4\ncores_per_node: 1\n"
                               "inter: {model: affine, latency: 10us, bandwidth: 100MB/s}\n"
                               "faults: [{at: 1ms, node: 1, kind: crash}]\n";
    o = run_with(crash, NULL, 0,
                 "simpi-trace 1\nranks 2\n0 allreduce 8\n1 compute 2ms\n1 allreduce 8\n");
    CHECK_CONTAINS(o.report, "rank 1: computing (or in an MPI call's CPU time) until 2.000000 ms; "
                             "sent to it, not yet received: 8 bytes from rank 0 tag 0");
}

/* A non-blocking collective follows MPICH's non-blocking rule: an
 * iallreduce of 1000 B (<= 2048) runs recursive doubling, 2 rounds of
 * T(1000) = 20us (the blocking allreduce would run Rabenseifner) */
static void test_nonblocking_rule(void) {
    struct outcome o = run("simpi-trace 1\nranks 4\n0 iallreduce 1000 req=1\n0 wait 1\n"
                           "1 iallreduce 1000 req=1\n1 wait 1\n2 iallreduce 1000 req=1\n"
                           "2 wait 1\n3 iallreduce 1000 req=1\n3 wait 1\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 40 * US);
}

static void test_compute_scaling(void) {
    const char *half[] = {"speed=2.0"};
    struct outcome o = run_with(plat4, half, 1, "simpi-trace 1\nranks 1\n0 compute 1ms\n");
    CHECK_EQ_INT(o.predicted, 500 * US); /* 1ms / 2 */
    const char *rate[] = {"speed=10Gf"};
    o = run_with(plat4, rate, 1, "simpi-trace 1\nranks 1\n0 compute 5Gf\n");
    CHECK_EQ_INT(o.predicted, PS_PER_S / 2); /* 5e9 / 10e9 flop/s */
    o = run_with(plat4, half, 1, "simpi-trace 1\nranks 1\n0 compute 1Gf\n");
    CHECK_EQ_INT(o.predicted, PS_PER_S / 2); /* 1e9 / (2 x 1 Gf reference) */
}

/* A node's memory shared by its ranks (docs/models.md, "A node's memory"):
 * node bandwidth B = 10 GB/s; every burst asks d = 8 GB/s alone. */
static const char *plat_mem = "nodes: 2\ncores_per_node: 4\n"
                              "intra: {model: affine, latency: 1us, bandwidth: 1GB/s}\n"
                              "inter: {model: affine, latency: 10us, bandwidth: 100MB/s}\n"
                              "memory: {bandwidth: 10GB/s, demand: 8GB/s}\n";

static void test_memory_shared(void) {
    /* ranks 0 and 1 on node 0 start together: 16 GB/s asked of 10, each
     * granted 5 (an equal share, below its 8): rate 5/8. Rank 1's 4 ms
     * alone end at 4 / 0.625 = 6.4 ms; by then rank 0 has run 4 ms of its
     * 10, and alone (8 <= 10) it runs the other 6 at full speed: 12.4 ms.
     * Ranks 4 and 5 sit on node 1, rank 4 alone there: its 10 ms stay 10. */
    struct outcome o = run_with(plat_mem, NULL, 0,
                                "simpi-trace 1\nranks 5\n0 compute 10ms\n1 compute 4ms\n"
                                "4 compute 10ms\n");
    CHECK_EQ_INT(o.finish[1], 6400 * US);
    CHECK_EQ_INT(o.finish[0], 12400 * US);
    CHECK_EQ_INT(o.finish[4], 10000 * US);
    CHECK_EQ_INT(o.st[0].compute, 12400 * US); /* the burst as it ran */
    /* three at once on node 0: 24 GB/s asked, 10/3 granted each, rate
     * 10/24; 3 ms alone each take 3 / (10/24) = 7.2 ms. */
    o = run_with(plat_mem, NULL, 0,
                 "simpi-trace 1\nranks 3\n0 compute 3ms\n1 compute 3ms\n2 compute 3ms\n");
    CHECK_EQ_INT(o.predicted, 7200 * US);
    /* speed 2: a reference second's 8 GB moved in half a second, 16 GB/s
     * asked by each burst; two of them granted 5 each: rate 5/16. 2 ms on
     * the reference machine are 1 ms here, 1 / (5/16) = 3.2 ms. */
    const char *fast[] = {"speed=2"};
    o = run_with(plat_mem, fast, 1, "simpi-trace 1\nranks 2\n0 compute 2ms\n1 compute 2ms\n");
    CHECK_EQ_INT(o.predicted, 3200 * US);
    /* demand 0: off, every burst as alone */
    const char *off[] = {"memory.demand=0"};
    o = run_with(plat_mem, off, 1, "simpi-trace 1\nranks 2\n0 compute 2ms\n1 compute 2ms\n");
    CHECK_EQ_INT(o.predicted, 2000 * US);
}

/* Below the bandwidth nothing slows; bursts joining others mid-way. */
static void test_memory_joining(void) {
    /* demand 3 GB/s for all; B = 10 GB/s, 4 bursts: 12 asked, each granted
     * 2.5: rate 2.5/3 = 5/6; 5 ms alone take 6 ms. With 3 bursts (9 <= 10)
     * none is slowed. */
    const char *d3[] = {"memory.demand=3GB/s"};
    struct outcome o = run_with(plat_mem, d3, 1,
                                "simpi-trace 1\nranks 4\n0 compute 5ms\n1 compute 5ms\n"
                                "2 compute 5ms\n3 compute 5ms\n");
    CHECK_EQ_INT(o.predicted, 6000 * US);
    o = run_with(plat_mem, d3, 1,
                 "simpi-trace 1\nranks 3\n0 compute 5ms\n1 compute 5ms\n2 compute 5ms\n");
    CHECK_EQ_INT(o.predicted, 5000 * US);
    /* a burst that starts while another runs: rank 0 computes 2 ms, rank
     * 1 two bursts of 1 ms, together at rate 5/8. Rank 1's first ends at
     * 1 / 0.625 = 1.6 ms, when rank 0 has 1 ms left; rank 1's second starts
     * then, both still at 5/8: both end at 1.6 + 1.6 = 3.2 ms. */
    o = run_with(plat_mem, NULL, 0,
                 "simpi-trace 1\nranks 2\n0 compute 2ms\n1 compute 1ms\n1 compute 1ms\n");
    CHECK_EQ_INT(o.finish[0], 3200 * US);
    CHECK_EQ_INT(o.finish[1], 3200 * US);
}

static void test_non_overtaking(void) {
    /* The large (rendezvous) message is sent first; the small one must not
     * overtake it: the any-source receive sized for the large one gets it,
     * else the 10-byte receive would be truncated. */
    struct outcome o = run("simpi-trace 1\nranks 2\n0 send 1 100000 tag=5\n0 send 1 10 tag=5\n"
                           "1 compute 1ms\n1 recv any 100000 tag=any\n1 recv 0 10 tag=5\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    /* truncation is reported */
    o = run("simpi-trace 1\nranks 2\n0 send 1 100 tag=5\n1 recv 0 10 tag=5\n");
    CHECK_EQ_INT(o.status, SIM_APP_ERROR);
    CHECK_CONTAINS(o.report, "MPI_ERR_TRUNCATE");
}

static void test_comm_split(void) {
    /* color = rank % 2, key = -rank: comm 1 of even ranks is (world 2, world 0). */
    struct outcome o =
        run("simpi-trace 1\nranks 4\n"
            "0 comm_split 0 color=0 key=0 new=1\n1 comm_split 0 color=1 key=-1 new=1\n"
            "2 comm_split 0 color=0 key=-2 new=1\n3 comm_split 0 color=1 key=-3 new=1\n"
            "2 send 1 10 comm=1\n0 recv 0 10 comm=1\n"
            "1 barrier comm=1\n3 barrier comm=1\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    /* split = allgather of 8 B over 4 ranks: 2 Bruck rounds of T(8 or 16 B) */
    simtime_t split = 2 * 10 * US + 80000 + 160000;      /* 8 B and 16 B at 1e8 B/s */
    CHECK_EQ_INT(o.finish[1], split + 10 * US);          /* then a 1-round barrier of 2 ranks */
    CHECK_EQ_INT(o.finish[0], split + 10 * US + 100000); /* 10 B after the split */
}

static void test_waitany(void) {
    struct outcome o = run("simpi-trace 1\nranks 3\n0 irecv 1 8 req=1\n0 irecv 2 8 req=2\n"
                           "0 waitany 1 2\n0 compute 5ms\n0 waitall\n1 compute 2ms\n1 send 0 8\n"
                           "2 compute 1ms\n2 send 0 8\n");
    /* waitany returns at 1ms + T(8) = 1010.08us, then 5ms of compute; the other
     * message (2010.08us) has arrived by then, so waitall returns at once. */
    CHECK_EQ_INT(o.finish[0], 6010 * US + 80000);
}

static void test_test_record(void) {
    /* test at 5us finds the receive incomplete (the message arrives at
     * T(8) = 10.08us); a later wait completes it at that time. */
    struct outcome o = run("simpi-trace 1\nranks 2\n0 irecv 1 8 req=1\n0 compute 5us\n0 test 1\n"
                           "0 wait 1\n1 send 0 8\n");
    CHECK_EQ_INT(o.finish[0], 10 * US + 80000);
    /* test after the arrival completes it: the following wait names a request
     * that no longer exists */
    o = run("simpi-trace 1\nranks 2\n0 irecv 1 8 req=1\n0 compute 20us\n0 test 1\n0 wait 1\n"
            "1 send 0 8\n");
    CHECK_EQ_INT(o.status, SIM_APP_ERROR);
    CHECK_CONTAINS(o.report, "waits for request 1, which was never started or has completed");
}

/* free (MPI_Request_free): rank 0 lets go of a 100000 B rendezvous send at
 * once, computes 5us and reuses the id for an 8 B eager send that
 * completes at its post: rank 0 ends at 5us. Rank 1 computes 3ms, then
 * receives the big one: matched at 3ms (its request-to-send arrived at
 * T(0) = 10us), cleared at 3010us, data T(100000) = 1010us: 4020us; the
 * small one arrived long before. A wait for a freed request is an error. */
static void test_request_free(void) {
    struct outcome o = run("simpi-trace 1\nranks 2\n0 isend 1 100000 req=1\n0 free 1\n"
                           "0 compute 5us\n0 isend 1 8 req=1\n0 wait 1\n1 compute 3ms\n"
                           "1 recv 0 100000\n1 recv 0 8\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 5 * US);
    CHECK_EQ_INT(o.finish[1], 4020 * US);
    o = run("simpi-trace 1\nranks 2\n0 isend 1 8 req=1\n0 free 1\n0 wait 1\n1 recv 0 8\n");
    CHECK_EQ_INT(o.status, SIM_APP_ERROR);
    CHECK_CONTAINS(o.report, "waits for request 1, which was never started or has completed");
}

/* Past 32 outstanding requests a rank finds them by id through an index:
 * 40 isends of 8 B never waited for (each rank), then an exchange by ids
 * 100 and 101 (reused after their wait), then id 7 again while its isend
 * is still outstanding: an error naming it. The isends complete at their
 * post, but their 40 x 8 B occupy the node's interface for 40 x 0.08 =
 * 3.2us; then each exchange takes T(8) = 10.08us: 3.2 + 2 x 10.08 =
 * 23.36us. */
static void test_request_index(void) {
    char trace[8192];
    int at = snprintf(trace, sizeof trace, "simpi-trace 1\nranks 2\n");
    for (int r = 0; r < 2; r++) {
        for (int k = 0; k < 40; k++)
            at += snprintf(trace + at, sizeof trace - (size_t)at, "%d isend %d 8 req=%d\n", r,
                           1 - r, k);
        for (int round = 0; round < 2; round++)
            at += snprintf(trace + at, sizeof trace - (size_t)at,
                           "%d irecv %d 8 tag=1 req=100\n%d isend %d 8 tag=1 req=101\n"
                           "%d wait 100\n%d wait 101\n",
                           r, 1 - r, r, 1 - r, r, r);
    }
    struct outcome o = run(trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 3 * US + 200000 + 2 * (10 * US + 80000));
    at += snprintf(trace + at, sizeof trace - (size_t)at, "0 isend 1 8 req=7\n");
    o = run(trace);
    CHECK_EQ_INT(o.status, SIM_APP_ERROR);
    CHECK_CONTAINS(o.report, "request id 7 is still in use");
}

/* The interfaces' order (src/mpi/nics.c, docs/network.md): 4 nodes of 2
 * cores (ranks 2k and 2k + 1 on node k), T(S) = 10us + S / 100 MB/s, so
 * W(S) = S x 10 ns: 1000 B occupy a side for 10us and their first byte
 * reaches the destination T - W = 10us after their injection starts. */
static const char *plat8 = "nodes: 4\ncores_per_node: 2\n"
                           "intra: {model: affine, latency: 1us, bandwidth: 1GB/s}\n"
                           "inter: {model: affine, latency: 10us, bandwidth: 100MB/s}\n"
                           "mpi: {eager_limit: 64KiB}\n";

/* An ejection side takes messages in the order of their first bytes, not
 * in the order they were sent. Node 0 sends X (rank 0 -> 2) and Y (rank 1
 * -> 4) at 0: X is injected over [0, 10), Y over [10, 20), Y's first byte
 * reaches node 2 at 20us. Rank 6 (node 3) sends Z to rank 5 (node 2) at
 * 1us: injected at once, first byte at 11us. Node 2 takes Z over [11, 21)
 * (arrives at 21us) then Y over [21, 31) (31us). Reserving node 2's side
 * in the order sent (Y at 0, Z at 1us) put Y at [20, 30) and Z after it,
 * arriving at 40us. */
static void test_interfaces_first_byte_order(void) {
    struct outcome o = run_with(plat8, NULL, 0,
                                "simpi-trace 1\nranks 8\n0 send 2 1000\n1 send 4 1000\n"
                                "2 recv 0 1000\n4 recv 1 1000\n5 recv 6 1000\n"
                                "6 compute 1us\n6 send 5 1000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[2], 20 * US); /* X: injected at 0, 10 + 10 */
    CHECK_EQ_INT(o.finish[5], 21 * US);
    CHECK_EQ_INT(o.finish[4], 31 * US);
}

/* A rendezvous message's data reserve the injection side when the
 * clear-to-send reaches the sender, after what the node sent before that.
 * eager_limit 900 B: rank 0 sends X (1000 B, rendezvous) to rank 2, whose
 * receive is posted at 0: matched at 10us, cleared at 20us. Rank 1 (node
 * 0) computes 15us and sends Y (800 B, eager, W = 8us) to rank 4: injected
 * over [15, 23), it arrives at 15 + 18 = 33us. X's data wait for the side:
 * injected over [23, 33), they arrive at 23 + 20 = 43us, and the sender
 * completes then too. (Reserved at the match, X took [20, 30) first and Y
 * waited until 30us, arriving at 48us.) */
static void test_interfaces_clear_to_send(void) {
    const char *sets[] = {"mpi.eager_limit=900B"};
    struct outcome o = run_with(plat8, sets, 1,
                                "simpi-trace 1\nranks 8\n0 send 2 1000\n2 recv 0 1000\n"
                                "1 compute 15us\n1 send 4 800\n4 recv 1 800\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[4], 33 * US);
    CHECK_EQ_INT(o.finish[2], 43 * US);
    CHECK_EQ_INT(o.finish[0], 43 * US);
}

/* A receive from any source sees a message when its head arrives (its
 * first byte plus W, as with the ejection side free), even while the side
 * still carries another message. Rank 0 (node 0) sends X (5000 B, W =
 * 50us) to rank 4 at 0: first byte at 10us, taken over [10, 60). Rank 6
 * (node 3) computes 5us and sends Y (1000 B) to rank 4: first byte at
 * 15us, head at 25us; the side takes it over [60, 70). Rank 4's first
 * any-source receive takes Y (seen at 25us, before X at 60us) and ends
 * when Y's data are in, at 70us; it computes 100us (to 170us) and takes X,
 * in since 60us: it ends at 170us. (Seeing messages only when their data
 * were in, it took X at 60us and ended at 160us.) */
static void test_interfaces_any_source_head(void) {
    struct outcome o = run_with(plat8, NULL, 0,
                                "simpi-trace 1\nranks 8\n0 send 4 5000\n6 compute 5us\n"
                                "6 send 4 1000\n4 recv any 5000\n4 compute 100us\n"
                                "4 recv any 5000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[4], 170 * US);
    CHECK_EQ_INT(o.st[4].bytes_recv, 6000);
}

/* A receive from any source takes the message that reaches the rank first,
 * each sender's in the order sent. plat4, T(S) = 10us + S / 100 MB/s,
 * interfaces unlimited (the second message of rank 1 then overtakes its
 * first on the wire): rank 1 sends 60000 B (arriving at 10 + 600 =
 * 610us) and 8 B (10.08us); rank 2 computes 300us and sends 8 B
 * (310.08us). Rank 0's first any-source receive may take rank 1's first
 * message or rank 2's (rank 1's second comes after its first): rank 2's
 * arrives first, at 310.08us; rank 0 then computes 1ms (to 1310.08us) and
 * takes rank 1's two messages, arrived long before: it ends at 1310.08us.
 * (Taking the first message sent would end at 610 + 1000 = 1610us; taking
 * rank 1's second first, at 10.08 + 1000 = 1010.08us.) */
static void test_any_source_arrival(void) {
    const char *sets[] = {"network.interfaces=unlimited"};
    struct outcome o = run_with(plat4, sets, 1,
                                "simpi-trace 1\nranks 3\n0 recv any 60000\n0 compute 1ms\n"
                                "0 recv any 60000\n0 recv any 60000\n1 send 0 60000\n1 send 0 8\n"
                                "2 compute 300us\n2 send 0 8\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 1310 * US + 80000);
    /* the candidate it would take is cancelled before it arrives (at 610us):
     * the receive waits on and takes rank 2's 8 B, sent at 1ms, arriving at
     * 1010.08us */
    o = run_with(plat4, sets, 1,
                 "simpi-trace 1\nranks 3\n0 recv any 60000\n1 isend 0 60000 req=1\n"
                 "1 cancel 1\n1 wait 1\n2 compute 1ms\n2 send 0 8\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 1010 * US + 80000);
    /* a receive posted while an any-source one waits (for tag 5) takes a
     * message the waiting one cannot: rank 1's tag 7 arrives at 10.08us;
     * rank 0 answers then (arriving at 20.16us), and rank 1's tag 5 reaches
     * the any-source receive at 30.24us (this deadlocked when every receive
     * posted after it waited for its choice) */
    o = run_with(plat4, sets, 1,
                 "simpi-trace 1\nranks 2\n0 irecv any 8 tag=5 req=1\n0 recv 1 8 tag=7\n"
                 "0 send 1 8 tag=9\n0 wait 1\n1 send 0 8 tag=7\n1 recv 0 8 tag=9\n"
                 "1 send 0 8 tag=5\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 30 * US + 240000);
    CHECK_EQ_INT(o.finish[1], 20 * US + 160000);
}

static void test_trace_errors_at_run_time(void) {
    struct outcome o = run("simpi-trace 1\nranks 2\n0 send 1 8 comm=3\n1 compute 1us\n");
    CHECK_EQ_INT(o.status, SIM_APP_ERROR);
    CHECK_CONTAINS(o.report, ":3: rank 0: communicator 3 is not known");
    o = run("simpi-trace 1\nranks 2\n0 wait 9\n1 compute 1us\n");
    CHECK_CONTAINS(o.report, "waits for request 9");
    o = run("simpi-trace 1\nranks 2\n0 compute 1us\n1 compute nope\n");
    CHECK(!o.input_ok);
    CHECK_CONTAINS(o.report, ":4: field 'duration': found 'nope'");
}

/* Runs a trace expected to stop with an application error naming needle. */
static void expect_app_error(const char *trace, const char *needle) {
    struct outcome o = run(trace);
    CHECK_EQ_INT(o.status, SIM_APP_ERROR);
    CHECK_CONTAINS(o.report, needle);
}

static void test_released_rendezvous_send(void) {
    /* Rank 1 starts a rendezvous send and ends without waiting for it; the
     * receive at 1 ms still completes: match at max(1ms, T(0)) = 1ms, then
     * T(0) + T(S) = 10 + 10010 us: 11020 us. */
    struct outcome o = run("simpi-trace 1\nranks 2\n1 isend 0 1000000 req=1\n0 compute 1ms\n"
                           "0 recv 1 1000000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 11020 * US);
    CHECK_EQ_INT(o.finish[1], 0);
}

static void test_more_runtime_errors(void) {
    expect_app_error("simpi-trace 1\nranks 4\n0 comm_split 0 color=0 key=0 new=1\n"
                     "1 comm_split 0 color=0 key=0 new=1\n2 comm_split 0 color=1 key=0 new=1\n"
                     "3 comm_split 0 color=1 key=0 new=1\n0 send 3 8 comm=1\n",
                     ":7: rank 0: peer rank 3 is outside the communicator (2 ranks)");
    expect_app_error("simpi-trace 1\nranks 2\n0 comm_dup 0 new=1\n1 comm_dup 0 new=1\n"
                     "0 bcast 8 root=3 comm=1\n",
                     "root 3 is outside the communicator");
    expect_app_error("simpi-trace 1\nranks 2\n0 irecv 1 8 req=1\n0 irecv 1 8 req=1\n",
                     "request id 1 is still in use");
    expect_app_error("simpi-trace 1\nranks 2\n0 comm_dup 0 new=1\n1 comm_dup 0 new=1\n"
                     "0 comm_dup 0 new=1\n",
                     "communicator id 1 is already in use");
    expect_app_error("simpi-trace 1\nranks 1\n0 interval_end\n",
                     "interval_end without a matching interval_begin");
}

static void test_piecewise_example(void) {
    /* piecewise-cluster: 4 cores per node, so ranks 0 and 4 are on nodes 0 and 1;
     * 2 KiB falls in the second segment: 50us + 2048 / 100e6 s = 70.48us */
    FILE *f = fopen(SIMPI_SOURCE_DIR "/examples/platforms/piecewise-cluster.yaml", "r");
    CHECK(f != NULL);
    if (!f) return;
    char text[2048];
    size_t n = fread(text, 1, sizeof text - 1, f);
    text[n] = '\0';
    fclose(f);
    struct outcome o =
        run_with(text, NULL, 0, "simpi-trace 1\nranks 5\n0 send 4 2KiB\n4 recv 0 2KiB\n");
    CHECK_EQ_INT(o.finish[4], 70 * US + 480000);
}

/* Inter-node messages over a topology: overhead + link latencies + size
 * over the slowest link (docs/network.md). */
static void test_topology_torus_route(void) {
    /* 4x4 torus, one rank per node: node 0 = (0,0) to node 15 = (3,3) is one
     * hop down in each dimension (the short way round): 2 links of 1us; a
     * torus is direct, so the injection and ejection links (nic: latency 0,
     * 500 MB/s) are crossed too. 64000 B (eager): 2us overhead + 2 x 1us
     * + 64000 B / 500 MB/s (the slowest link) = 4us + 128us = 132us. */
    const char *plat = "cores_per_node: 1\n"
                       "network: {topology: torus, dims: [4, 4], link_latency: 1us, "
                       "link_bandwidth: 1GB/s, overhead: 2us, nic: {bandwidth: 500MB/s}}\n";
    struct outcome o =
        run_with(plat, NULL, 0, "simpi-trace 1\nranks 16\n0 send 15 64000\n15 recv 0 64000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 132 * US);
}

static void test_topology_fat_tree_levels(void) {
    /* 2-ary 2-tree (4 nodes); level1 links 1us 1GB/s, level2 links 3us
     * 250MB/s. Nodes 0 and 3 meet at the top: up level1, up level2, down
     * level2, down level1 = 1+3+3+1 = 8us, + 10000 B / 250 MB/s = 40us: 48us.
     * Nodes 0 and 1 share a level-1 switch: 2 x 1us + 10000 B / 1 GB/s =
     * 2us + 10us = 12us. Node 0's interface (its level-1 link, 1 GB/s)
     * injects the first message for 10000 B / 1 GB/s = 10us, so the second
     * leaves at 10us and arrives at 22us. */
    const char *plat = "cores_per_node: 1\n"
                       "network: {topology: fat-tree, arity: 2, levels: 2, "
                       "level1: {latency: 1us, bandwidth: 1GB/s}, "
                       "level2: {latency: 3us, bandwidth: 250MB/s}}\n";
    struct outcome o = run_with(plat, NULL, 0,
                                "simpi-trace 1\nranks 4\n0 send 3 10000\n3 recv 0 10000\n"
                                "0 send 1 10000\n1 recv 0 10000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[3], 48 * US);
    CHECK_EQ_INT(o.finish[1], 22 * US);
}

/* platform key ideal (--ideal): the what-ifs of a free network or free
 * computation. The trace: rank 0 computes 100us and sends 1e6 B
 * (rendezvous) to rank 1, which computes 30us first and receives; then
 * both compute 50us and meet in a barrier. On plat4 (T(S) = 10us + S /
 * 100MB/s): the pair matches at 100us; the request to send and the clear
 * to send take T(0) = 10us each, the data T(1e6) = 10 + 10000 = 10010us:
 * done at 100 + 20 + 10010 = 10130us; 50us of computation, then the
 * barrier's one round of T(0) = 10us: 10190us. An ideal network: messages
 * take no time, so the prediction is the longest chain of computation,
 * rank 0's 100 + 50 = 150us. An ideal CPU: computation takes no time:
 * 0 + 20 + 10010 = 10030us, then the barrier: 10040us. Both: 0. On a fat
 * tree with flow contention and MPI overheads, an ideal network is as free
 * (150us). */
static void test_ideal(void) {
    const char *trace = "simpi-trace 1\nranks 2\n0 compute 100us\n0 send 1 1000000\n"
                        "1 compute 30us\n1 recv 0 1000000\n0 compute 50us\n1 compute 50us\n"
                        "0 barrier\n1 barrier\n";
    const char *none[] = {"ideal=none"}, *net[] = {"ideal=network"}, *cpu[] = {"ideal=cpu"},
               *both[] = {"ideal=network+cpu"};
    struct outcome o = run_with(plat4, none, 1, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 10190 * US);
    o = run_with(plat4, net, 1, trace);
    CHECK_EQ_INT(o.predicted, 150 * US);
    CHECK_EQ_INT(o.st[1].compute, 80 * US); /* computation untouched */
    o = run_with(plat4, cpu, 1, trace);
    CHECK_EQ_INT(o.predicted, 10040 * US);
    CHECK_EQ_INT(o.st[0].compute, 0);
    o = run_with(plat4, both, 1, trace);
    CHECK_EQ_INT(o.predicted, 0);
    const char *tree = "cores_per_node: 1\nmpi: {send_overhead: 5us, gap: 2us}\n"
                       "network: {topology: fat-tree, arity: 2, levels: 2, contention: flow, "
                       "level1: {latency: 1us, bandwidth: 1GB/s}, "
                       "level2: {latency: 3us, bandwidth: 250MB/s}}\n";
    o = run_with(tree, net, 1, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 150 * US); /* no overheads, no links, no sharing */
    struct sim_error err = {0};
    const char *bad[] = {"ideal=networks"};
    CHECK(!platform_load(NULL, bad, 1, &err));
    CHECK_CONTAINS(err.msg, "'ideal': found 'networks', expected none, network");
}

/* An on-line run's summary hints at shared buffers when it held half the
 * machine's memory or more: 600 MiB of 1 GiB is 58.6% (said as 59%). */
static void test_memory_hint(void) {
    char buf[512];
    CHECK(!summary_memory_hint(511 << 20, 1 << 30, buf, sizeof buf));
    CHECK(!summary_memory_hint(600 << 20, 0, buf, sizeof buf));
    CHECK(summary_memory_hint(600 << 20, 1 << 30, buf, sizeof buf));
    CHECK_CONTAINS(buf, "59% of this machine's");
    CHECK_CONTAINS(buf, "SIMPI_SHARED_MALLOC");
}

/* Dimemas' buses (docs/network.md) on plat4: T(S) = 10us + S / 100 MB/s. */
static void test_buses_one_bus(void) {
    /* Two eager transfers of 10000 B at time 0 (0 -> 1, then 2 -> 3), each
     * 10 + 100 = 110us alone. One bus: the second starts when the first
     * ends: 110us and 220us. */
    const char *sets[] = {"network.contention=buses", "network.buses=1"};
    const char *trace = "simpi-trace 1\nranks 4\n0 send 1 10000\n1 recv 0 10000\n"
                        "2 send 3 10000\n3 recv 2 10000\n";
    struct outcome o = run_with(plat4, sets, 2, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[1], 110 * US);
    CHECK_EQ_INT(o.finish[3], 220 * US);
    o = run_with(plat4, NULL, 0, trace); /* no contention: both 110us */
    CHECK_EQ_INT(o.finish[3], 110 * US);
    /* rendezvous (1e6 B): request-to-send 10us, clear-to-send 10us, so each
     * transfer is ready at 20us and takes 10 + 10000 = 10010us: the first
     * ends at 10030us, the second waits for the bus and ends at 20040us */
    o = run_with(plat4, sets, 2,
                 "simpi-trace 1\nranks 4\n0 send 1 1000000\n1 recv 0 1000000\n"
                 "2 send 3 1000000\n3 recv 2 1000000\n");
    CHECK_EQ_INT(o.finish[1], 10030 * US);
    CHECK_EQ_INT(o.finish[3], 20040 * US);
}

static void test_buses_links_per_node(void) {
    /* links_per_node: 1, buses unlimited: rank 0's two eager sends (to 1,
     * then to 2) share its one output link: 110us, then 220us; rank 3's
     * send to 1 at the same time needs 1's input link, which 0 -> 1 holds
     * until 110us: 3 -> 1 ends at 220us as well. */
    const char *sets[] = {"network.contention=buses", "network.links_per_node=1"};
    struct outcome o = run_with(plat4, sets, 2,
                                "simpi-trace 1\nranks 4\n0 isend 1 10000 req=1\n"
                                "0 isend 2 10000 req=2\n0 waitall\n1 recv 0 10000\n"
                                "1 recv 3 10000\n2 recv 0 10000\n3 send 1 10000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[2], 220 * US);
    CHECK_EQ_INT(o.finish[1], 220 * US);
}

/* Flow contention (max-min sharing) on a star of 4 nodes, 1 GB/s links
 * without latency, so a 1e6 B transfer alone takes 1 ms; 1e6 B is above
 * the eager limit, and the rendezvous handshake costs nothing here. */
static const char *star4 = "nodes: 4\ncores_per_node: 1\n"
                           "network: {topology: star, contention: flow, link_latency: 0us, "
                           "link_bandwidth: 1GB/s}\n";

static void test_flow_two_share_a_link(void) {
    /* 0 -> 1 and 0 -> 2 both cross link 0 -> switch: 0.5 GB/s each, so
     * both end at 1e6 / 5e8 = 2 ms (without contention: 1 ms) */
    const char *trace = "simpi-trace 1\nranks 4\n0 isend 1 1000000 req=1\n"
                        "0 isend 2 1000000 req=2\n0 waitall\n1 recv 0 1000000\n"
                        "2 recv 0 1000000\n";
    struct outcome o = run_with(star4, NULL, 0, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[1], 2000 * US);
    CHECK_EQ_INT(o.finish[2], 2000 * US);
    CHECK_EQ_INT(o.finish[0], 2000 * US);
    /* without a contention model, node 0's interface (its 1 GB/s link)
     * sends the two one after another: 1 ms and 2 ms, so the pair ends at
     * 2 ms as under flow; with unlimited interfaces both take 1 ms */
    const char *none[] = {"network.contention=none"};
    o = run_with(star4, none, 1, trace);
    CHECK_EQ_INT(o.finish[1], 1000 * US);
    CHECK_EQ_INT(o.finish[2], 2000 * US);
    const char *unlimited[] = {"network.contention=none", "network.interfaces=unlimited"};
    o = run_with(star4, unlimited, 2, trace);
    CHECK_EQ_INT(o.finish[2], 1000 * US);
}

/* Copies inside a node (network.intra_copies: serial): plat8's node 0
 * holds ranks 0 and 1; T(S) = 1 us + S / 1 GB/s, so a copy holds a core
 * for W(S) = S / 1 GB/s. */
/* Rank 0 sends 4 messages of `size` bytes to rank 1 at once (isends,
 * irecvs, waitall). */
static void four_messages(char *trace, size_t n, int size) {
    snprintf(trace, n, "simpi-trace 1\nranks 2\n");
    for (int i = 0; i < 4; i++)
        snprintf(trace + strlen(trace), n - strlen(trace),
                 "0 isend 1 %d req=%d\n1 irecv 0 %d req=%d\n", size, i, size, i);
    snprintf(trace + strlen(trace), n - strlen(trace), "0 waitall\n1 waitall\n");
}

static void test_intra_copies_serial(void) {
    /* 4 eager messages of 10 kB from rank 0 to rank 1 at 0: rank 0's core
     * copies them one after another, each W = 10 us; the k-th (from 1)
     * starts at 10 (k - 1) us and arrives 1 + 10 k us: the last at 41 us
     * (unlimited: all at 11 us) */
    char trace[1024];
    four_messages(trace, sizeof trace, 10000);
    struct outcome o = run_with(plat8, NULL, 0, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[1], 41 * US);
    const char *unlimited[] = {"network.intra_copies=unlimited"};
    o = run_with(plat8, unlimited, 1, trace);
    CHECK_EQ_INT(o.finish[1], 11 * US);
    /* the same 4 messages of 100 kB (rendezvous past 64 KiB): each cleared
     * at 2 us (request-to-send, clear-to-send: 1 us each), then rank 1's
     * core copies them one after another, W = 100 us: the last starts at
     * 2 + 300 us and arrives 1 + 100 us later, 403 us (unlimited: 103) */
    four_messages(trace, sizeof trace, 100000);
    o = run_with(plat8, NULL, 0, trace);
    CHECK_EQ_INT(o.finish[1], 403 * US);
    CHECK_EQ_INT(o.finish[0], 403 * US);
    o = run_with(plat8, unlimited, 1, trace);
    CHECK_EQ_INT(o.finish[1], 103 * US);
    /* a copy waits only for its own core: rank 0 sends 100 kB to rank 1
     * while rank 1 sends 100 kB to rank 0; each receiver copies its own,
     * both end at 2 + 100 + 1 = 103 us */
    o = run_with(plat8, NULL, 0,
                 "simpi-trace 1\nranks 2\n0 isend 1 100000 req=0\n0 irecv 1 100000 req=1\n"
                 "1 isend 0 100000 req=0\n1 irecv 0 100000 req=1\n0 waitall\n1 waitall\n");
    CHECK_EQ_INT(o.finish[0], 103 * US);
    CHECK_EQ_INT(o.finish[1], 103 * US);
}

/* mpi.transfer_start: match through the serial interfaces: a message of 0
 * bytes that is matched leaves and arrives at once (nothing to take in),
 * which ended its transfer inside the match and freed its send twice, so
 * a 4-rank barrier stopped as a deadlock. plat4: L = 10 us between nodes;
 * the dissemination barrier's 2 rounds of one message: 20 us. */
static void test_match_start_barrier(void) {
    const char *match[] = {"mpi.transfer_start=match"};
    struct outcome o = run_with(plat4, match, 1,
                                "simpi-trace 1\nranks 4\n0 barrier\n1 barrier\n2 barrier\n"
                                "3 barrier\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 20 * US);
}

/* mpi.rendezvous: direct (SMPI's large messages): the data leave once both
 * sides are posted, without request-to-send and clear-to-send. plat4: a
 * ping-pong of 10^6 B (past the eager limit) at L = 10 us, 100 MB/s takes
 * 2 (L + S/B) = 20,020 us; with the handshake 2 (3L + S/B) = 20,060 us. */
static void test_rendezvous_direct(void) {
    const char *trace = "simpi-trace 1\nranks 2\n0 send 1 1000000\n0 recv 1 1000000\n"
                        "1 recv 0 1000000\n1 send 0 1000000\n";
    const char *direct[] = {"mpi.rendezvous=direct"};
    struct outcome o = run_with(plat4, direct, 1, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 20020 * US);
    o = run_with(plat4, NULL, 0, trace);
    CHECK_EQ_INT(o.predicted, 20060 * US);
}

static void test_flow_third_arrives(void) {
    /* A = 0 -> 1 starts at 0 alone (1 GB/s): by 0.5 ms it has sent 0.5e6 B.
     * B = 0 -> 2 starts at 0.5 ms: both at 0.5 GB/s; A's last 0.5e6 B take
     * 1 ms: A ends at 1.5 ms, when B has sent 0.5e6 B; B alone again at
     * 1 GB/s sends the rest in 0.5 ms: B ends at 2 ms. */
    struct outcome o = run_with(star4, NULL, 0,
                                "simpi-trace 1\nranks 4\n0 isend 1 1000000 req=1\n"
                                "0 compute 500us\n0 isend 2 1000000 req=2\n0 waitall\n"
                                "1 recv 0 1000000\n2 recv 0 1000000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[1], 1500 * US);
    CHECK_EQ_INT(o.finish[2], 2000 * US);
}

static void test_flow_slowest_link(void) {
    /* a 2-ary 2-tree whose level-2 links carry 250 MB/s: 0 -> 3 crosses
     * level 1 (1 GB/s) and level 2: 1e6 B at 250 MB/s = 4 ms; 0 -> 1 only
     * level 1: 1 ms; the two share 0's level-1 up link, whose 1 GB/s
     * max-min gives 250 MB/s to the first (its bottleneck) and the other
     * 750 MB/s: 0 -> 1 ends at 1e6 / 7.5e8 = 1.333333 ms, then 0 -> 3 keeps
     * 250 MB/s: 4 ms. */
    const char *plat = "cores_per_node: 1\n"
                       "network: {topology: fat-tree, arity: 2, levels: 2, contention: flow, "
                       "link_latency: 0us, link_bandwidth: 1GB/s, "
                       "level2: {bandwidth: 250MB/s}}\n";
    struct outcome o = run_with(plat, NULL, 0,
                                "simpi-trace 1\nranks 4\n0 isend 3 1000000 req=1\n"
                                "0 isend 1 1000000 req=2\n0 waitall\n3 recv 0 1000000\n"
                                "1 recv 0 1000000\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[3], 4000 * US);
    CHECK_EQ_INT(o.finish[1], 1333333333); /* 1e6 / 7.5e8 s in ps, rounded */
}

static void test_flow_scatter_backbone(void) {
    /* The SMPI paper's Figure 7 case: a binomial scatter of 64 MiB from rank
     * 0 to 16 ranks (4 MiB = 4194304 B each) on a star whose backbone, like
     * every link, carries 1 GB/s, no latency. Round k has 2^(k-1) transfers
     * of 32 MiB / 2^(k-1), all at once and all through the backbone: each
     * gets 1 GB/s / 2^(k-1), so every round takes 33554432 B / 1e9 B/s =
     * 33.554432 ms: 4 rounds = 134.217728 ms. Without contention the rounds
     * take 33.554432, 16.777216, 8.388608 and 4.194304 ms: 62.91456 ms. */
    const char *plat = "nodes: 16\ncores_per_node: 1\n"
                       "network: {topology: star, contention: flow, link_latency: 0us, "
                       "link_bandwidth: 1GB/s, backbone: {bandwidth: 1GB/s}}\n";
    char trace[1024] = "simpi-trace 1\nranks 16\n";
    for (int r = 0; r < 16; r++)
        snprintf(trace + strlen(trace), sizeof trace - strlen(trace), "%d scatter 4194304 root=0\n",
                 r);
    struct outcome o = run_with(plat, NULL, 0, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 134217728 * (PS_PER_US / 1000));
    const char *none[] = {"network.contention=none"};
    o = run_with(plat, none, 1, trace);
    CHECK_EQ_INT(o.predicted, 62914560 * (PS_PER_US / 1000));
}

/* Dimemas' CPU latency (the network issue's measurement with Dimemas 5.5):
 * a 4-neighbour halo on a 3 x 3 periodic grid, 100us of compute, 32 KiB
 * messages, L = 5us as CPU time (mpi.send_overhead per Isend and
 * mpi.wait_overhead per wait, no wire latency), 1 GB/s. Each rank posts its
 * 4 receives, then its 4 sends at 105, 110, 115 and 120us (5us each); the
 * last message it receives left its neighbour at 120us and arrives
 * 32768 B / 1 GB/s = 32.768us later, at 152.768us; the waitall adds 5us:
 * 157.768us, as Dimemas (simpi gave 137.768us when L could only be a wire
 * latency). Dimemas' configuration had no bus or link limits (0): each
 * message has the whole bandwidth, so the interfaces are unlimited. */
static void test_dimemas_cpu_latency(void) {
    const char *plat = "nodes: 9\ncores_per_node: 1\n"
                       "inter: {model: affine, latency: 0us, bandwidth: 1GB/s}\n"
                       "mpi: {send_overhead: 5us, wait_overhead: 5us}\n"
                       "network: {interfaces: unlimited}\n";
    char trace[4096] = "simpi-trace 1\nranks 9\n";
    for (int r = 0; r < 9; r++) {
        int x = r % 3, y = r / 3;
        int nb[4] = {(x + 1) % 3 + 3 * y, (x + 2) % 3 + 3 * y, x + 3 * ((y + 1) % 3),
                     x + 3 * ((y + 2) % 3)};
        snprintf(trace + strlen(trace), sizeof trace - strlen(trace), "%d compute 100us\n", r);
        for (int i = 0; i < 4; i++)
            snprintf(trace + strlen(trace), sizeof trace - strlen(trace),
                     "%d irecv %d 32768 req=%d\n", r, nb[i], i);
        for (int i = 0; i < 4; i++)
            snprintf(trace + strlen(trace), sizeof trace - strlen(trace),
                     "%d isend %d 32768 req=%d\n", r, nb[i], 4 + i);
        snprintf(trace + strlen(trace), sizeof trace - strlen(trace), "%d waitall\n", r);
    }
    struct outcome o = run_with(plat, NULL, 0, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.predicted, 157768 * (PS_PER_US / 1000));
    const char *none[] = {"mpi.send_overhead=0s", "mpi.wait_overhead=0s"};
    o = run_with(plat, none, 2, trace);
    CHECK_EQ_INT(o.predicted, 132768 * (PS_PER_US / 1000)); /* 100 + 32.768: no CPU latency */
}

/* LogGOPSim's timing (o = 1us, g = 2us, G = 1ns/B, L = 3us): rank 0 sends
 * 1001 B to ranks 1, 2 and 3 back to back. LogGOPSim: a send starts when
 * the CPU (o) and the NIC (g + (S-1)G = 3us) are free: at 0, 3 and 6us;
 * the first byte arrives o + L = 4us later and the receiver spends
 * o + (S-1)G = 2us: ranks 1, 2, 3 finish at 6, 9 and 12us; rank 0's CPU
 * is free at 6 + 1 = 7us. */
static void test_loggopsim_timing(void) {
    const char *plat = "nodes: 4\ncores_per_node: 1\n"
                       "inter: {model: loggp, latency: 3us, gap_per_byte: 1ns}\n"
                       "mpi: {send_overhead: 1us, recv_overhead: 1us, gap: 2us, "
                       "gap_per_byte: 1ns}\n";
    struct outcome o = run_with(plat, NULL, 0,
                                "simpi-trace 1\nranks 4\n0 isend 1 1001 req=1\n"
                                "0 isend 2 1001 req=2\n0 isend 3 1001 req=3\n0 waitall\n"
                                "1 recv 0 1001\n2 recv 0 1001\n3 recv 0 1001\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 7 * US);
    CHECK_EQ_INT(o.finish[1], 6 * US);
    CHECK_EQ_INT(o.finish[2], 9 * US);
    CHECK_EQ_INT(o.finish[3], 12 * US);
}

/* The same costs inside a collective: an 8-byte binomial bcast from rank 0
 * to 4 ranks, o = 1us, L = 3us, G = 0. Rank 0 sends to rank 2 (posted at
 * 1us), then to rank 1 (CPU free at 1us, posted at 2us): rank 0 is done at
 * 2us. Rank 2 has the data at 1 + 3 + o = 5us, sends to rank 3 (posted at
 * 6us: done at 6us), which has them at 6 + 3 + 1 = 10us; rank 1 at
 * 2 + 3 + 1 = 6us. (LogGOPSim gives the same timeline.) */
static void test_loggp_collective(void) {
    const char *plat = "nodes: 4\ncores_per_node: 1\n"
                       "inter: {model: loggp, latency: 3us, gap_per_byte: 0ns}\n"
                       "mpi: {send_overhead: 1us, recv_overhead: 1us}\n";
    struct outcome o = run_with(plat, NULL, 0,
                                "simpi-trace 1\nranks 4\n0 bcast 8\n1 bcast 8\n2 bcast 8\n"
                                "3 bcast 8\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 2 * US);
    CHECK_EQ_INT(o.finish[1], 6 * US);
    CHECK_EQ_INT(o.finish[2], 6 * US);
    CHECK_EQ_INT(o.finish[3], 10 * US);
}

/* mpi.recv_overhead takes a rank's messages in the order their data are
 * there, not the order they were matched in. Affine T(S) = 10 us + S x 1 ns,
 * o_r = 5 us, unlimited interfaces, everything eager. Rank 2 posts both
 * receives at 0: rank 0's 90,000 B (sent at 0) matches first, its data
 * there at 10 + 90 = 100 us; rank 1's 1,000 B (sent at 10 us) matches
 * second, there at 10 + 10 + 1 = 21 us. Its CPU takes rank 1's first:
 * done at 21 + 5 = 26 us; rank 2 then computes 100 us (to 126). Rank 0's
 * data come at 100 us while that CPU computes: one CPU computes and takes
 * in messages (LogGP's o, as LogGOPSim charges it), so it takes it at 126:
 * done at 126 + 5 = 131, and rank 2 ends at 131 us. (In match order, rank
 * 1's would be done only at 105 + 5 = 110, and rank 2 end at 210 us.) */
static void test_recv_overhead_order(void) {
    const char *plat = "nodes: 3\ncores_per_node: 1\n"
                       "inter: {model: affine, latency: 10us, bandwidth: 1GB/s}\n"
                       "network: {interfaces: unlimited}\n"
                       "mpi: {recv_overhead: 5us, eager_limit: 1MiB}\n";
    struct outcome o = run_with(plat, NULL, 0,
                                "simpi-trace 1\nranks 3\n0 send 2 90000\n1 compute 10us\n"
                                "1 send 2 1000\n2 irecv 0 90000 req=1\n2 irecv 1 1000 req=2\n"
                                "2 wait 2\n2 compute 100us\n2 wait 1\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[2], 131 * US);
}

/* network.intra_contention: two ranks on one node (intra: 1 GB/s, no
 * latency); rank 0's two 1e6 B messages to rank 1 share the node's memory:
 * 0.5 GB/s each, both received at 2 ms. Without it, rank 1's core copies
 * them one after another (network.intra_copies: serial): at 1 and 2 ms;
 * with unlimited copies as well, both at 1 ms. */
static void test_flow_intra_node(void) {
    const char *plat = "nodes: 2\ncores_per_node: 2\n"
                       "intra: {model: affine, latency: 0us, bandwidth: 1GB/s}\n"
                       "network: {topology: star, contention: flow, intra_contention: true}\n";
    const char *trace = "simpi-trace 1\nranks 2\n0 isend 1 1000000 req=1\n"
                        "0 isend 1 1000000 req=2\n0 waitall\n1 irecv 0 1000000 req=1\n"
                        "1 irecv 0 1000000 req=2\n1 waitall\n";
    struct outcome o = run_with(plat, NULL, 0, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[1], 2000 * US);
    const char *off[] = {"network.intra_contention=false", "network.intra_copies=unlimited"};
    o = run_with(plat, off, 1, trace);
    CHECK_EQ_INT(o.finish[1], 2000 * US);
    o = run_with(plat, off, 2, trace);
    CHECK_EQ_INT(o.finish[1], 1000 * US);
}

/* A collective `record` on 4 ranks of platform `plat` with the settings in
 * `set` ("a=b c=d", up to four) must take want_us. */
static void expect_on(const char *plat, const char *set, const char *record, int64_t want_us) {
    char trace[256], words[4][128];
    snprintf(trace, sizeof trace, "simpi-trace 1\nranks 4\n0 %s\n1 %s\n2 %s\n3 %s\n", record,
             record, record, record);
    const char *sets[4] = {words[0], words[1], words[2], words[3]};
    int nsets = sscanf(set, "%127s %127s %127s %127s", words[0], words[1], words[2], words[3]);
    struct outcome o = run_with(plat, sets, nsets, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    if (o.predicted != want_us * US) fprintf(stderr, "  with --set %s, %s\n", set, record);
    CHECK_EQ_INT(o.predicted, want_us * US);
}

static void expect_forced(const char *set, const char *record, int64_t want_us) {
    expect_on(plat4, set, record, want_us);
}

/* The same for a non-blocking collective record, waited for at once. */
static void expect_nonblocking(const char *set, const char *record, int64_t want_us) {
    char trace[512];
    int at = snprintf(trace, sizeof trace, "simpi-trace 1\nranks 4\n");
    for (int r = 0; r < 4; r++)
        at += snprintf(trace + at, sizeof trace - (size_t)at, "%d %s req=1\n%d wait 1\n", r, record,
                       r);
    const char *sets[1] = {set};
    struct outcome o = run_with(plat4, sets, 1, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    if (o.predicted != want_us * US) fprintf(stderr, "  with --set %s, %s\n", set, record);
    CHECK_EQ_INT(o.predicted, want_us * US);
}

/* Algorithms forced with mpi.coll.OP, on plat4 (T(S) = 10us + S / 100
 * MB/s), 4 ranks:
 *   allreduce ring, S = 4000 B: 2 (P-1) T(S/P) = 6 x (10 + 10) us = 120us
 *   allreduce rabenseifner, S = 4000 B: halving T(2000) + T(1000),
 *     doubling T(1000) + T(2000) = 30 + 20 + 20 + 30 = 100us
 *     (= 2 log2(P) L + 2 (P-1) S / (P B) = 40 + 60)
 *   allreduce reduce_bcast, S = 1000 B: binomial reduce to rank 0 (3 -> 2,
 *     then 2 -> 0: 2 x 20us), binomial bcast (0 -> 2, 2 -> 3): 80us
 *   allgather of 1000 B blocks: ring 3 x T(1000) = 60us; recursive
 *     doubling T(1000) + T(2000) = 20 + 30 = 50us
 *   barrier, T(0) = 10us: dissemination 2 rounds = 20us, recursive
 *     doubling 2 rounds = 20us, binomial fan-in then fan-out 4 x 10 = 40us */
static void test_collective_algorithms(void) {
    expect_forced("mpi.coll.allreduce=ring", "allreduce 4000", 120);
    expect_forced("mpi.coll.allreduce=rabenseifner", "allreduce 4000", 100);
    expect_forced("mpi.coll.allreduce=reduce_bcast", "allreduce 1000", 80);
    expect_forced("mpi.coll.allgather=ring", "allgather 1000", 60);
    expect_forced("mpi.coll.allgather=recursive_doubling", "allgather 1000", 50);
    expect_forced("mpi.coll.barrier=dissemination", "barrier", 20);
    expect_forced("mpi.coll.barrier=recursive_doubling", "barrier", 20);
    expect_forced("mpi.coll.barrier=binomial", "barrier", 40);
    const char *bad[] = {"mpi.coll.allreduce=tree"};
    struct outcome o = run_with(plat4, bad, 1, "simpi-trace 1\nranks 1\n0 allreduce 8\n");
    CHECK(!o.input_ok);
    CHECK_CONTAINS(o.report, "'mpi.coll.allreduce': found 'tree', expected one of: "
                             "recursive_doubling, ring, rabenseifner, reduce_bcast");
}

/* The rest of the library on plat4 (T(S) = 10 us + S / 100 MB/s, eager),
 * 4 ranks, worked by hand (W = 10us: the interfaces' time for 1000 B):
 *   barrier linear: to rank 0 and back, 2 T(0) = 20
 *   bcast/scatter linear, 1000 B: the root's interface sends the three
 *     blocks one after another; the last leaves at 2 W: 20 + T(1000) = 40
 *   gather/reduce linear, 1000 B: the three arrive at the root at once;
 *     its interface takes them in one after another: T(1000) + 2 W = 40
 *   bcast scatter_ring_allgather, 4000 B: scatter T(2000) + T(1000) = 50,
 *     then 3 ring steps of T(1000) = 60: 110
 *   bcast scatter_rd_allgather, 4000 B: scatter 50, doubling T(1000) +
 *     T(2000) = 50: 100
 *   bcast/reduce pipeline, 4000 B in segments of 1000: each rank passes a
 *     segment on as it arrives; the root's interface sends the 4 segments
 *     W apart, so the last leaves at 3 W and crosses 3 hops: 30 + 3 x 20
 *     = 90 (the pipeline's (m + P - 2) W + (P - 1) L = 6 x 10 + 3 x 10)
 *   reduce rabenseifner, 4000 B: halving T(2000) + T(1000), gather T(1000) +
 *     T(2000): 100
 *   allreduce ring_segmented, 4000 B, segments of 500: 2 (P-1) m rounds of
 *     T(500) = 12 x 15 = 180 (= 2 (P-1) (m L + S / (P B)) = 6 x 30)
 *   gather linear_sync, 1000 B: per rank T(0) + T(1000): 3 x 30 = 90
 *   scatter linear_sync, 1000 B: every rank ready at T(0), the root's
 *     interface sends the blocks W apart: 10 + 2 W + T(1000) = 50
 *   allgather neighbor_exchange, 1000 B: T(1000) + T(2000) = 50
 *   alltoall bruck, 1000 B: rounds of blocks {1,3} and {2,3}: 2 x T(2000) = 60
 *   alltoall linear: rank r sends to r+1, r+2, r+3 one after another on its
 *     interface; each interface takes in one message per W: 2 W + T(1000)
 *     = 40; linear_sync window 2: a round of two (W + T(1000) = 30), then
 *     one of one (20): 50
 *   reduce_scatter, blocks of 1000 B (vector 4000): recursive halving
 *     T(2000) + T(1000) = 50; pairwise and ring 3 x T(1000) = 60;
 *     nonoverlapping: binomial reduce 2 x T(4000) + linear scatter from
 *     the root, the last block leaving 2 W later: 100 + 20 + 20 = 140
 *   reduce_scatter recursive_doubling, blocks of 1000 B: step 0 swaps with
 *     me ^ 1 all but the partner's own block, 3000 B: T(3000) = 40; step 1
 *     with me ^ 2 all but the partner pair's two blocks, 2000 B: T(2000) =
 *     30; 70
 *   allgather linear, 1000 B: the alltoall linear's pattern: 40
 *   scan/exscan, 1000 B: recursive doubling 2 x T(1000) = 40 (rank 3 hears
 *     from rank 1 at 40); linear 3 x T(1000) = 60
 * Open MPI's selector on 4 ranks, blocks of 100000 B: MPI_Reduce_scatter_block
 * (a trace's reduce_scatter) by its own table (4 <= P < 8: below 1048576
 * B) recursive halving, T(200000) + T(100000) = 2010 + 1010, and each
 * message above the 64 KiB eager limit first sends a request and waits
 * for the answer, 2 T(0) = 20 more per round: 3060; MPI_Reduce_scatter
 * with those equal counts (a reduce_scatterv record) by the reduce_scatter
 * table on the 400000 B in all (from 262144 B) the ring, 3 x (T(100000)
 * + 20) = 3090. Its non-blocking forms (libnbc), 1000 B:
 * ireduce_scatter the reduce then the scatter, 140 (nonoverlapping
 * above); iallgather linear, 40; ibcast on 4 ranks linear, 40 (the bcast
 * linear above); iallreduce below 65536 B a binomial reduce then bcast,
 * 80. */
static void test_collective_library(void) {
    expect_forced("mpi.coll.barrier=linear", "barrier", 20);
    expect_forced("mpi.coll.bcast=linear", "bcast 1000", 40);
    expect_forced("mpi.coll.bcast=scatter_ring_allgather", "bcast 4000", 110);
    expect_forced("mpi.coll.bcast=scatter_rd_allgather", "bcast 4000", 100);
    expect_forced("mpi.coll.bcast=pipeline mpi.coll.segment_size=1000B", "bcast 4000", 90);
    expect_forced("mpi.coll.reduce=linear", "reduce 1000", 40);
    expect_forced("mpi.coll.reduce=rabenseifner", "reduce 4000", 100);
    expect_forced("mpi.coll.reduce=pipeline mpi.coll.segment_size=1000B", "reduce 4000", 90);
    expect_forced("mpi.coll.allreduce=ring_segmented mpi.coll.segment_size=500B", "allreduce 4000",
                  180);
    expect_forced("mpi.coll.gather=linear", "gather 1000", 40);
    expect_forced("mpi.coll.gather=linear_sync", "gather 1000", 90);
    expect_forced("mpi.coll.scatter=linear", "scatter 1000", 40);
    expect_forced("mpi.coll.scatter=linear_sync", "scatter 1000", 50);
    expect_forced("mpi.coll.allgather=neighbor_exchange", "allgather 1000", 50);
    expect_forced("mpi.coll.alltoall=bruck", "alltoall 1000", 60);
    expect_forced("mpi.coll.alltoall=linear", "alltoall 1000", 40);
    expect_forced("mpi.coll.alltoall=linear_sync mpi.coll.window=2", "alltoall 1000", 50);
    expect_forced("mpi.coll.reduce_scatter=recursive_halving", "reduce_scatter 1000", 50);
    expect_forced("mpi.coll.reduce_scatter=pairwise", "reduce_scatter 1000", 60);
    expect_forced("mpi.coll.reduce_scatter=ring", "reduce_scatter 1000", 60);
    expect_forced("mpi.coll.reduce_scatter=nonoverlapping", "reduce_scatter 1000", 140);
    expect_forced("mpi.coll.scan=recursive_doubling", "scan 1000", 40);
    expect_forced("mpi.coll.scan=linear", "scan 1000", 60);
    expect_forced("mpi.coll.exscan=recursive_doubling", "exscan 1000", 40);
    expect_forced("mpi.coll.exscan=linear", "exscan 1000", 60);
    expect_forced("mpi.coll.reduce_scatter=recursive_doubling", "reduce_scatter 1000", 70);
    expect_forced("mpi.coll.allgather=linear", "allgather 1000", 40);
    const char *O = "mpi.coll.selector=ompi";
    expect_forced(O, "reduce_scatter 100000", 3060);
    expect_forced(O, "reduce_scatterv 100000 recv=100000,100000,100000,100000", 3090);
    expect_nonblocking(O, "ireduce_scatter 1000", 140);
    expect_nonblocking(O, "iallgather 1000", 40);
    expect_nonblocking(O, "ibcast 1000", 40);
    expect_nonblocking(O, "iallreduce 1000", 80);
    /* a selector picks by size: MPICH's alltoall of 1000 B blocks on 4 ranks
     * is its medium algorithm (windowed linear, 32 at a time): as linear, 40 */
    expect_forced("mpi.coll.selector=mpich", "alltoall 1000", 40);
    const char *bad[] = {"mpi.coll.selector=intel"};
    struct outcome o = run_with(plat4, bad, 1, "simpi-trace 1\nranks 1\n0 barrier\n");
    CHECK(!o.input_ok);
    CHECK_CONTAINS(o.report,
                   "'mpi.coll.selector': found 'intel', expected one of: fixed, mpich, ompi");
}

/* Dimemas' analytic model (mpi.coll.model=analytic) on plat4, 4 ranks,
 * T(S) = 10 us + S / 100 MB/s. LOG steps for P = 4: phases of 2 and 1
 * transfers: 2 steps with unlimited buses, ceil(2/1) + ceil(1/1) = 3 with
 * one bus.
 *   allreduce 1000 B (LOG MAX in, LOG MAX out): 2 x 20 + 2 x 20 = 80
 *   bcast 1000 B (0 in, LOG MAX out): 2 x 20 = 40
 *   gather 1000 B (LIN MIN in; buffers: root 4000, others 1000): 4 x 20 = 80
 *   allreduce with one bus: 3 x 20 + 3 x 20 = 120
 *   allreduce where rank 3 arrives after 100 us of computation: 100 + 80
 * Size rules on a gather of 2000 B (buffers: root sends 2000 and receives
 * 8000, the others 2000 each), fan_in CTE: MAX T(8000) = 90, MIN T(2000) =
 * 30, MEAN T((8000 + 3 x 2000) / 4 = 3500) = 45, 2MAX T(16000) = 170, S+R
 * T(2000 + 8000) = 110; factors with MIN: 0 -> 0, LIN 4 x 30 = 120, LOG
 * 2 x 30 = 60. */
static void test_analytic_model(void) {
    const char *an = "mpi.coll.model=analytic";
    char set[160];
    expect_forced(an, "allreduce 1000", 80);
    expect_forced(an, "bcast 1000", 40);
    expect_forced(an, "gather 1000", 80);
    const char *bus[] = {an, "network.contention=buses", "network.buses=1"};
    struct outcome o = run_with(plat4, bus, 3,
                                "simpi-trace 1\nranks 4\n0 allreduce 1000\n1 allreduce 1000\n"
                                "2 allreduce 1000\n3 allreduce 1000\n");
    CHECK_EQ_INT(o.predicted, 120 * US);
    o = run_with(plat4, &an, 1,
                 "simpi-trace 1\nranks 4\n0 allreduce 1000\n1 allreduce 1000\n"
                 "2 allreduce 1000\n3 compute 100us\n3 allreduce 1000\n");
    for (int i = 0; i < 4; i++)
        CHECK_EQ_INT(o.finish[i], 180 * US);
    static const char *const sizes[] = {"MAX", "MIN", "MEAN", "2MAX", "S+R"};
    static const int64_t size_us[] = {90, 30, 45, 170, 110};
    for (int i = 0; i < 5; i++) {
        snprintf(set, sizeof set,
                 "%s mpi.coll.analytic.gather.fan_in=CTE mpi.coll.analytic.gather.size_in=%s", an,
                 sizes[i]);
        expect_forced(set, "gather 2000", size_us[i]);
    }
    static const char *const factors[] = {"0", "LIN", "LOG"};
    static const int64_t factor_us[] = {0, 120, 60};
    for (int i = 0; i < 3; i++) {
        snprintf(set, sizeof set,
                 "%s mpi.coll.analytic.gather.fan_in=%s mpi.coll.analytic.gather.size_in=MIN", an,
                 factors[i]);
        expect_forced(set, "gather 2000", factor_us[i]);
    }
    const char *bad[] = {an, "mpi.coll.analytic.gather.fan_in=TREE"};
    o = run_with(plat4, bad, 2, "simpi-trace 1\nranks 1\n0 barrier\n");
    CHECK(!o.input_ok);
    CHECK_CONTAINS(o.report, "'mpi.coll.analytic.gather.fan_in': found 'TREE', expected one of: 0, "
                             "CTE, LIN, LOG");
}

/* Wide collectives under flow contention: a star of 100 MB/s, 5 us links
 * (a message crosses two: 10 us), 4 ranks, 1000 B.
 *   linear bcast: the root's link carries 3 flows at 33.3 MB/s each:
 *     10 us + 3000 B / 100 MB/s = 40 us; without contention the root's
 *     interface sends the three 10 us apart: the last arrives at 40 us as
 *     well (20 us with unlimited interfaces)
 *   linear alltoall: every link carries 3 flows: 40 us as well
 *   pairwise alltoall: one flow per link per round, 3 x 20 us = 60 us */
static void test_flow_wide_collectives(void) {
    const char *plat = "nodes: 4\ncores_per_node: 1\n"
                       "network: {topology: star, contention: flow, link_latency: 5us, "
                       "link_bandwidth: 100MB/s}\n";
    expect_on(plat, "mpi.coll.bcast=linear", "bcast 1000", 40);
    expect_on(plat, "mpi.coll.bcast=linear network.contention=none", "bcast 1000", 40);
    expect_on(plat, "mpi.coll.bcast=linear network.contention=none network.interfaces=unlimited",
              "bcast 1000", 20);
    expect_on(plat, "mpi.coll.alltoall=linear", "alltoall 1000", 40);
    expect_on(plat, "mpi.coll.alltoall=pairwise", "alltoall 1000", 60);
}

/* Variable counts in the native format (send= / recv= lists), on 3 of
 * plat4's nodes: the alltoallv of tests/mpi/coll_vcounts.c, pairwise
 * forced, ends at 50, 60 and 90 us (worked there). */
static void test_variable_count_records(void) {
    const char *pw = "mpi.coll.alltoall=pairwise";
    struct outcome o = run_with(plat4, &pw, 1,
                                "simpi-trace 1\nranks 3\n"
                                "0 alltoallv 1000 send=0,1000,3000 recv=0,0,4000\n"
                                "1 alltoallv 0 send=0,0,2000 recv=1000,0,1000\n"
                                "2 alltoallv 2500 send=4000,1000,0 recv=3000,2000,0\n");
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 50 * US);
    CHECK_EQ_INT(o.finish[1], 60 * US);
    CHECK_EQ_INT(o.finish[2], 90 * US);
    /* an allgatherv of blocks 1000, 1000, 2000 and 0 B: 4000 B in all on
     * 4 ranks, so MPICH's rule (the default selector) is recursive
     * doubling. Round 1: 0 <-> 1 swap 1000 B (both have it at 20), 2 sends
     * 2000 B to 3 (its interface busy from 0 to 20; arrives at 30), 3
     * sends 0 B to 2 (10). Round 2, 2000 B each way: 0 -> 2 leaves at 20
     * (50); 2 -> 0, posted at 10, leaves when node 2's interface is free, at
     * 20 (50); 1 -> 3 leaves at 20 (50); 3 -> 1 at 30 (60). Ranks end at
     * 50, 60, 50, 50 (the ring, Open MPI's rule for 1000 B blocks on 4
     * ranks, takes 3 rounds: 90). */
    const char *agv = "simpi-trace 1\nranks 4\n0 allgatherv 1000 recv=1000,1000,2000,0\n"
                      "1 allgatherv 1000 recv=1000,1000,2000,0\n"
                      "2 allgatherv 2000 recv=1000,1000,2000,0\n"
                      "3 allgatherv 0 recv=1000,1000,2000,0\n";
    o = run(agv);
    CHECK_EQ_INT(o.finish[0], 50 * US);
    CHECK_EQ_INT(o.finish[1], 60 * US);
    CHECK_EQ_INT(o.finish[2], 50 * US);
    CHECK_EQ_INT(o.finish[3], 50 * US);
    /* a reduce_scatter of blocks 1000, 1000, 2000 and 0 B (4000 B < 524288:
     * MPICH's recursive halving). Round 1, each rank sends the other
     * half's 2000 B to me ^ 2 and gets its own half's 2000 B: all at 30.
     * Round 2: 0 <-> 1 swap 1000 B (50); 2 sends block 3 (0 B) to 3, which
     * has it at 40, and gets block 2 (2000 B) at 60. */
    o = run("simpi-trace 1\nranks 4\n0 reduce_scatterv 1000 recv=1000,1000,2000,0\n"
            "1 reduce_scatterv 1000 recv=1000,1000,2000,0\n"
            "2 reduce_scatterv 2000 recv=1000,1000,2000,0\n"
            "3 reduce_scatterv 0 recv=1000,1000,2000,0\n");
    CHECK_EQ_INT(o.finish[0], 50 * US);
    CHECK_EQ_INT(o.finish[1], 50 * US);
    CHECK_EQ_INT(o.finish[2], 60 * US);
    CHECK_EQ_INT(o.finish[3], 40 * US);
    /* equal blocks make a reduce_scatter_block: a forced algorithm without
     * variable counts runs (pairwise: 3 rounds of T(1000) = 60 us, one
     * message per interface each round), not the rule's choice */
    const char *pairwise[] = {"mpi.coll.reduce_scatter=pairwise"};
    o = run_with(plat4, pairwise, 1,
                 "simpi-trace 1\nranks 4\n0 reduce_scatterv 1000 recv=1000,1000,1000,1000\n"
                 "1 reduce_scatterv 1000 recv=1000,1000,1000,1000\n"
                 "2 reduce_scatterv 1000 recv=1000,1000,1000,1000\n"
                 "3 reduce_scatterv 1000 recv=1000,1000,1000,1000\n");
    CHECK_EQ_INT(o.predicted, 60 * US); /* the rule's recursive halving: 30 + 20 */
    /* a gatherv: only the root lists what it receives (2000 and 5000 B):
     * both arrive from 10 us on; the root's interface takes in one, then
     * the other: 10 + 20 + 50 = 80 us (W = 20 and 50 us) */
    o = run("simpi-trace 1\nranks 3\n0 gatherv 0 root=0 recv=0,2000,5000\n"
            "1 gatherv 2000 root=0\n2 gatherv 5000 root=0\n");
    CHECK_EQ_INT(o.finish[0], 80 * US);
    o = run("simpi-trace 1\nranks 3\n0 alltoallv 8 send=8,8\n1 alltoallv 8\n2 alltoallv 8\n");
    CHECK(!o.input_ok || o.status != SIM_OK);
    CHECK_CONTAINS(o.report, "2 counts for a communicator of 3 ranks");
    /* rank 1 never joins: the deadlock leaves rank 0's schedule and its
     * counts behind, freed with the simulation (the sanitizer run checks) */
    o = run("simpi-trace 1\nranks 2\n0 alltoallv 8 send=8,8 recv=8,8\n1 compute 1us\n");
    CHECK_EQ_INT(o.status, SIM_DEADLOCK);
    o = run("simpi-trace 1\nranks 1\n0 alltoall 8 send=8\n");
    CHECK(!o.input_ok);
    CHECK_CONTAINS(o.report, "'alltoall' takes no send= or recv= list");
    o = run("simpi-trace 1\nranks 2\n0 alltoallv 8 send=8,8 recv=8\n1 alltoallv 8\n");
    CHECK(!o.input_ok);
    CHECK_CONTAINS(o.report, "send= and recv= must list as many sizes (2 and 1)");
}

/* The nodes' interfaces (network.interfaces, docs/network.md) on a
 * platform of 4 nodes with 2 ranks each (ranks 2n and 2n + 1 on node n),
 * T(S) = 10us + S / 100 MB/s between nodes, 1us + S / 1 GB/s inside one:
 * a 10000 B message occupies each interface W = 100us and takes T = 110us
 * alone; 100000 B (rendezvous) W = 1000us, T = 1010us. */
static const char *plat_nic = "nodes: 4\ncores_per_node: 2\n"
                              "intra: {model: affine, latency: 1us, bandwidth: 1GB/s}\n"
                              "inter: {model: affine, latency: 10us, bandwidth: 100MB/s}\n"
                              "mpi: {eager_limit: 64KiB}\n";
static const char *unlimited_nics[] = {"network.interfaces=unlimited"};

/* Rank 0 posts K isends of `size` bytes to rank 2 (node 1), which posts K
 * irecvs; both wait for all. */
static struct outcome k_messages(int k, const char *size, bool unlimited) {
    char trace[2048] = "simpi-trace 1\nranks 4\n";
    for (int i = 0; i < k; i++)
        snprintf(trace + strlen(trace), sizeof trace - strlen(trace),
                 "0 isend 2 %s req=%d\n2 irecv 0 %s req=%d\n", size, i, size, i);
    snprintf(trace + strlen(trace), sizeof trace - strlen(trace), "0 waitall\n2 waitall\n");
    return run_with(plat_nic, unlimited ? unlimited_nics : NULL, unlimited ? 1 : 0, trace);
}

static void test_interfaces_k_messages(void) {
    /* eager: node 0's interface sends the 4 messages back to back, each
     * arriving T(S) after it left: the last leaves at 3 W = 300us and
     * arrives at 410us = L + K W = 10 + 4 x 100 */
    struct outcome o = k_messages(4, "10000", false);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[2], 410 * US);
    CHECK_EQ_INT(o.finish[0], 0); /* eager sends return at once */
    o = k_messages(4, "10000", true);
    CHECK_EQ_INT(o.finish[2], 110 * US); /* unlimited: all at once */
    /* rendezvous: request-to-send (10us) and clear-to-send (10us), then
     * the data leave one after another from 20us: the last from 2020us,
     * arriving at 2020 + 1010 = 3030us; the sends wait for their data */
    o = k_messages(3, "100000", false);
    CHECK_EQ_INT(o.finish[2], 3030 * US);
    CHECK_EQ_INT(o.finish[0], 3030 * US);
    o = k_messages(3, "100000", true);
    CHECK_EQ_INT(o.finish[2], 1030 * US);
}

static void test_interfaces_k_senders(void) {
    /* ranks 2, 4 and 6 (nodes 1, 2, 3) each send 10000 B to rank 0 at 0:
     * their first bytes reach node 0 at 10us; its interface takes them in
     * one after another: 110, 210 and 310us (L + K W) */
    const char *trace = "simpi-trace 1\nranks 8\n2 send 0 10000\n4 send 0 10000\n"
                        "6 send 0 10000\n0 irecv 2 10000 req=1\n0 irecv 4 10000 req=2\n"
                        "0 irecv 6 10000 req=3\n0 waitall\n";
    struct outcome o = run_with(plat_nic, NULL, 0, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[0], 310 * US);
    o = run_with(plat_nic, unlimited_nics, 1, trace);
    CHECK_EQ_INT(o.finish[0], 110 * US);
}

static void test_interfaces_shared_by_a_node(void) {
    /* ranks 0 and 1 (node 0) send 10000 B at 0 to ranks 2 and 3 (node 1):
     * one interface for both; events at one time run in rank order, so
     * rank 0's message leaves first (110us) and rank 1's after it (210us).
     * Rank 0 also sends 10000 B to rank 1, on its own node: the memory
     * (1us + 10us), not the interface: 11us. */
    const char *trace = "simpi-trace 1\nranks 4\n0 isend 2 10000 req=1\n"
                        "0 isend 1 10000 req=2\n0 waitall\n1 isend 3 10000 req=1\n"
                        "1 irecv 0 10000 req=2\n1 wait 2\n1 wait 1\n2 recv 0 10000\n"
                        "3 recv 1 10000\n";
    struct outcome o = run_with(plat_nic, NULL, 0, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[2], 110 * US);
    CHECK_EQ_INT(o.finish[3], 210 * US);
    CHECK_EQ_INT(o.finish[1], 11 * US);
    o = run_with(plat_nic, unlimited_nics, 1, trace);
    CHECK_EQ_INT(o.finish[3], 110 * US);
}

static void test_interfaces_mixed_sizes(void) {
    /* rank 0 sends 1000, 10000 and 1000 B to rank 2: they leave at 0, 10
     * and 110us (W = 10, 100, 10us) and arrive at 20, 120 and 130us; then a
     * rendezvous of 100000 B whose data are ready after its handshake (at
     * 20us) and leave once the interface is free (120us): 120 + 1010 =
     * 1130us (node 1's interface has taken in the third message by 130us,
     * when the first byte of these data arrives) */
    const char *trace = "simpi-trace 1\nranks 4\n0 send 2 1000\n0 send 2 10000\n"
                        "0 send 2 1000\n0 isend 2 100000 req=1\n0 wait 1\n"
                        "2 irecv 0 1000 req=1\n2 irecv 0 10000 req=2\n2 irecv 0 1000 req=3\n"
                        "2 irecv 0 100000 req=4\n2 waitall\n";
    struct outcome o = run_with(plat_nic, NULL, 0, trace);
    CHECK_EQ_INT(o.status, SIM_OK);
    CHECK_EQ_INT(o.finish[2], 1130 * US);
    CHECK_EQ_INT(o.finish[0], 1130 * US);
    /* the same without the rendezvous: the third message ends it at 130us */
    o = run_with(plat_nic, NULL, 0,
                 "simpi-trace 1\nranks 4\n0 send 2 1000\n0 send 2 10000\n0 send 2 1000\n"
                 "2 recv 0 1000\n2 recv 0 10000\n2 recv 0 1000\n");
    CHECK_EQ_INT(o.finish[2], 130 * US);
}

/* A side takes a message in the earliest gap that holds it (net/interfaces.h). */
static void test_interfaces_gaps(void) {
    struct nic_side side = {0};
    CHECK_EQ_INT(nic_side_reserve(&side, 0, 100, 50), 100);   /* [100, 150) */
    CHECK_EQ_INT(nic_side_reserve(&side, 0, 0, 50), 0);       /* [0, 50) fits before */
    CHECK_EQ_INT(nic_side_reserve(&side, 0, 20, 40), 50);     /* [50, 90): the gap holds it */
    CHECK_EQ_INT(nic_side_reserve(&side, 0, 60, 20), 150);    /* 90-100 is too short */
    CHECK_EQ_INT(side.n, 2);                                  /* [0, 90) and [100, 170) */
    CHECK_EQ_INT(nic_side_reserve(&side, 0, 0, 0), 0);        /* nothing to carry */
    CHECK_EQ_INT(nic_side_reserve(&side, 200, 210, 10), 210); /* the past is forgotten */
    CHECK_EQ_INT(side.n, 1);
    CHECK_EQ_INT(side.busy[0].from, 210);
    /* at most NIC_INTERVALS are kept: one more joins the two closest, and
     * the gap between them then counts busy. Intervals of 10 at 0, 100,
     * 200, 230 (the closest: 20 apart), 400, 500, ... */
    struct nic_side full = {0};
    for (int i = 0; i < NIC_INTERVALS; i++)
        nic_side_reserve(&full, 0, i == 3 ? 230 : 100 * i, 10);
    CHECK_EQ_INT(full.n, NIC_INTERVALS);
    nic_side_reserve(&full, 0, 100 * NIC_INTERVALS + 1000, 10);
    CHECK_EQ_INT(full.n, NIC_INTERVALS);
    CHECK_EQ_INT(full.busy[2].from, 200);
    CHECK_EQ_INT(full.busy[2].to, 240);
    CHECK_EQ_INT(nic_side_reserve(&full, 0, 215, 10), 240); /* the joined gap is busy */
    CHECK_EQ_INT(nic_side_reserve(&full, 0, 115, 10), 115); /* other gaps stay free */
}

/* A busy_list (a rank's copies) takes the same gaps as a side: the same
 * reservations on both, from one interval to past NIC_INTERVALS (where
 * the two closest are joined) and back, give the same times and
 * intervals while the list grows from nothing. */
static void test_busy_list_as_side(void) {
    struct nic_side side = {0};
    struct busy_list *list = NULL;
    uint64_t x = 12345; /* a fixed sequence of ready times, lengths, clocks */
    simtime_t now = 0;
    for (int i = 0; i < 2000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        simtime_t ready = now + (simtime_t)(x >> 40) % 1000, len = (simtime_t)(x >> 20) % 60;
        if (i % 50 == 49) now += 300; /* the past forgotten now and then */
        simtime_t a = nic_side_reserve(&side, now, ready, len);
        simtime_t b = busy_list_reserve(&list, now, ready, len);
        CHECK_EQ_INT(b, a);
        if (!list) continue; /* nothing reserved yet: zero lengths */
        CHECK_EQ_INT(list->n, side.n);
        CHECK(list->n <= list->cap && list->cap <= NIC_INTERVALS + 1);
        for (uint32_t k = 0; k < side.n && k < list->n; k++) {
            CHECK_EQ_INT(list->busy[k].from, side.busy[k].from);
            CHECK_EQ_INT(list->busy[k].to, side.busy[k].to);
        }
    }
    CHECK(list && list->cap == NIC_INTERVALS + 1); /* it did fill up */
    free(list);
}

TEST_LIST(replay_tests) = {
    {"replay.nonblocking_rule", test_nonblocking_rule},
    {"replay.interfaces_k_messages", test_interfaces_k_messages},
    {"replay.interfaces_k_senders", test_interfaces_k_senders},
    {"replay.interfaces_shared_by_a_node", test_interfaces_shared_by_a_node},
    {"replay.interfaces_mixed_sizes", test_interfaces_mixed_sizes},
    {"replay.interfaces_gaps", test_interfaces_gaps},
    {"replay.busy_list_as_side", test_busy_list_as_side},
    {"replay.variable_count_records", test_variable_count_records},
    {"replay.flow_wide_collectives", test_flow_wide_collectives},
    {"replay.analytic_model", test_analytic_model},
    {"replay.collective_library", test_collective_library},
    {"replay.request_free", test_request_free},
    {"replay.any_source_arrival", test_any_source_arrival},
    {"replay.interfaces_first_byte_order", test_interfaces_first_byte_order},
    {"replay.interfaces_clear_to_send", test_interfaces_clear_to_send},
    {"replay.interfaces_any_source_head", test_interfaces_any_source_head},
    {"replay.request_index", test_request_index},
    {"replay.collective_algorithms", test_collective_algorithms},
    {"replay.flow_intra_node", test_flow_intra_node},
    {"replay.loggp_collective", test_loggp_collective},
    {"replay.dimemas_cpu_latency", test_dimemas_cpu_latency},
    {"replay.loggopsim_timing", test_loggopsim_timing},
    {"replay.recv_overhead_order", test_recv_overhead_order},
    {"replay.flow_scatter_backbone", test_flow_scatter_backbone},
    {"replay.flow_two_share", test_flow_two_share_a_link},
    {"replay.flow_third_arrives", test_flow_third_arrives},
    {"replay.intra_copies_serial", test_intra_copies_serial},
    {"replay.match_start_barrier", test_match_start_barrier},
    {"replay.rendezvous_direct", test_rendezvous_direct},
    {"replay.flow_slowest_link", test_flow_slowest_link},
    {"replay.buses_one_bus", test_buses_one_bus},
    {"replay.buses_links_per_node", test_buses_links_per_node},
    {"replay.topology_torus", test_topology_torus_route},
    {"replay.topology_fat_tree", test_topology_fat_tree_levels},
    {"replay.ideal", test_ideal},
    {"replay.memory_hint", test_memory_hint},
    {"replay.pingpong_eager", test_pingpong_eager},
    {"replay.pingpong_rendezvous", test_pingpong_rendezvous},
    {"replay.eager_late_receiver", test_eager_returns_before_late_receiver},
    {"replay.rendezvous_late_receiver", test_rendezvous_waits_for_late_receiver},
    {"replay.ssend", test_ssend_waits_for_receiver},
    {"replay.bsend_ok", test_bsend_ok},
    {"replay.bsend_overflow", test_bsend_overflow},
    {"replay.bsend_release", test_bsend_released_after_delivery},
    {"replay.bsend_empty", test_bsend_empty_without_buffer},
    {"replay.deadlock", test_deadlock},
    {"replay.collective_deadlock", test_collective_deadlock},
    {"replay.collective_times", test_collective_times},
    {"replay.collective_steps", test_collective_steps},
    {"replay.compute_scaling", test_compute_scaling},
    {"replay.memory_shared", test_memory_shared},
    {"replay.memory_joining", test_memory_joining},
    {"replay.non_overtaking", test_non_overtaking},
    {"replay.comm_split", test_comm_split},
    {"replay.waitany", test_waitany},
    {"replay.test_record", test_test_record},
    {"replay.runtime_errors", test_trace_errors_at_run_time},
    {"replay.released_rendezvous_send", test_released_rendezvous_send},
    {"replay.more_runtime_errors", test_more_runtime_errors},
    {"replay.piecewise_example", test_piecewise_example},
    TEST_END,
};
