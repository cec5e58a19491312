/* SPDX-License-Identifier: BSD-3-Clause */
/* Unit tests of extrapolate_align: a scale's segments (records up to a
 * blocking collective) brought to a reference's order by the shortest
 * edit script, every expectation worked by hand from the segments'
 * letters: H a halo (isend, wait, allreduce), A an allreduce alone, B a
 * barrier alone, T the tail (a last burst). */
#include <stdlib.h>

#include "core/alloc.h"
#include "replay/extrapolate_align.h"
#include "test.h"

/* Appends one segment of kind `letter` to rec (burst: its first burst's
 * picoseconds, to tell segments apart); returns the records now. */
static int32_t put(struct trace_rec *rec, int32_t n, char letter, int64_t burst) {
    rec[n++] = (struct trace_rec){.op = TOP_COMPUTE, .size = burst, .req = -1};
    if (letter == 'T') return n;
    if (letter == 'H' || letter == 'O') {
        rec[n++] = (struct trace_rec){.op = TOP_ISEND, .peer = 1, .size = 64, .req = 0};
        rec[n++] = (struct trace_rec){.op = TOP_COMPUTE, .req = -1};
        if (letter == 'H') { /* (O: its request left outstanding) */
            rec[n] = (struct trace_rec){.op = TOP_WAIT, .req = -1, .nids = 1};
            rec[n].ids = xmalloc(sizeof *rec[n].ids);
            rec[n++].ids[0] = 0;
            rec[n++] = (struct trace_rec){.op = TOP_COMPUTE, .req = -1};
        }
    }
    rec[n++] =
        (struct trace_rec){.op = TOP_COLL, .coll = letter == 'B' ? 1 : 2, .size = 8, .req = -1};
    return n;
}

/* A rank's records from the letters (burst of segment s: 1000 + s). */
static int32_t build(const char *letters, struct trace_rec **rec) {
    *rec = xcalloc(8 * strlen(letters) + 8, sizeof **rec);
    int32_t n = 0;
    for (size_t s = 0; letters[s]; s++)
        n = put(*rec, n, letters[s], 1000 + (int64_t)s);
    return n;
}

/* One scale of `ranks` ranks, each with the records of `letters`. */
static void scale_of(const char *letters, int32_t ranks, struct align_ranks *a) {
    a->n = ranks;
    a->rec = xcalloc((size_t)ranks, sizeof *a->rec);
    a->ord = xcalloc((size_t)ranks, sizeof *a->ord);
    a->step = xcalloc((size_t)ranks, sizeof *a->step);
    a->count = xcalloc((size_t)ranks, sizeof *a->count);
    for (int32_t r = 0; r < ranks; r++) {
        a->count[r] = build(letters, &a->rec[r]);
        a->ord[r] = xcalloc((size_t)a->count[r] + 1, sizeof **a->ord);
        a->step[r] = xcalloc((size_t)a->count[r] + 1, sizeof **a->step);
        for (int32_t i = 0; i < a->count[r]; i++)
            a->ord[r][i] = i + 1;
    }
}

static void free_records(struct trace_rec *rec, int32_t n) {
    for (int32_t i = 0; i < n; i++)
        free(rec[i].ids);
    free(rec);
}

static void scale_free(struct align_ranks *a) {
    for (int32_t r = 0; r < a->n; r++) {
        free_records(a->rec[r], a->count[r]);
        free(a->ord[r]);
        free(a->step[r]);
    }
    free(a->rec);
    free(a->ord);
    free(a->step);
    free(a->count);
}

/* The letters a rank's records spell again (segment by segment). */
static void spell(const struct trace_rec *rec, int32_t n, char *out) {
    size_t k = 0;
    bool calls = false, outstanding = false;
    for (int32_t i = 0; i < n; i++) {
        if (rec[i].op == TOP_ISEND) calls = outstanding = true;
        if (rec[i].op == TOP_WAIT) outstanding = false;
        if (rec[i].op == TOP_COLL) {
            out[k++] = calls ? (outstanding ? 'O' : 'H') : rec[i].coll == 1 ? 'B' : 'A';
            calls = false;
        }
    }
    out[k++] = 'T';
    out[k] = '\0';
}

/* Aligns `letters` (2 ranks) to `ref`; the letters after, the edits. */
static bool align(const char *letters, const char *ref_letters, char *after, int32_t *edits,
                  int32_t *first_burst_of, int32_t at) {
    struct align_ranks a;
    scale_of(letters, 2, &a);
    struct trace_rec *ref;
    int32_t nref = build(ref_letters, &ref), segments;
    bool ok = align_segments(&a, ref, nref, edits, &segments);
    spell(a.rec[1], a.count[1], after);
    int32_t s = 0; /* segment at's first burst */
    for (int32_t i = 0; i < a.count[1] && first_burst_of; i++) {
        if (s == at && a.rec[1][i].op == TOP_COMPUTE) {
            *first_burst_of = (int32_t)a.rec[1][i].size;
            break;
        }
        s += a.rec[1][i].op == TOP_COLL;
    }
    free_records(ref, nref);
    scale_free(&a);
    return ok;
}

/* 21 segments, (H A) x 10 and the tail: a tenth is 2 edits. One A more
 * after the third pair is left out (1 edit). */
static void test_left_out(void) {
    char after[64];
    int32_t edits = -1;
    CHECK(align("HAHAHAAHAHAHAHAHAHAHAT", "HAHAHAHAHAHAHAHAHAHAT", after, &edits, NULL, 0));
    CHECK(!strcmp(after, "HAHAHAHAHAHAHAHAHAHAT"));
    CHECK_EQ_INT(edits, 1);
}

/* A barrier after the 2nd pair here, after the 4th in the reference:
 * it moves (left out, put back: 2 edits), and keeps its own burst (the
 * 5th segment here, burst 1004, is the 9th there). */
static void test_moved(void) {
    char after[64];
    int32_t edits = -1, burst = 0;
    CHECK(align("HAHABHAHAHAHAHAHAHAT", "HAHAHAHABHAHAHAHAHAT", after, &edits, &burst, 8));
    CHECK(!strcmp(after, "HAHAHAHABHAHAHAHAHAT"));
    CHECK_EQ_INT(edits, 2);
    CHECK_EQ_INT(burst, 1004);
}

/* One pair more (2 edits of 21: a tenth) extends; two pairs more (4)
 * do not, and nothing changes. */
static void test_too_many(void) {
    char after[64];
    int32_t edits = -1;
    CHECK(align("HAHAHAHAHAHAHAHAHAHAHAT", "HAHAHAHAHAHAHAHAHAHAT", after, &edits, NULL, 0));
    CHECK_EQ_INT(edits, 2);
    CHECK(!align("HAHAHAHAHAHAHAHAHAHAHAHAT", "HAHAHAHAHAHAHAHAHAHAT", after, &edits, NULL, 0));
    CHECK(!strcmp(after, "HAHAHAHAHAHAHAHAHAHAHAHAT"));
    CHECK_EQ_INT(edits, 0);
}

/* A segment left out must leave no request outstanding: O (an isend
 * whose wait is in the next segment) is not left out; refused. */
static void test_outstanding(void) {
    char after[64];
    int32_t edits = -1;
    CHECK(!align("HAHAOHAHAHAHAHAHAHAHAT", "HAHAHAHAHAHAHAHAHAHAT", after, &edits, NULL, 0));
    CHECK_EQ_INT(edits, 0);
}

TEST_LIST(align_tests) = {
    {"align.left_out", test_left_out},
    {"align.moved", test_moved},
    {"align.too_many", test_too_many},
    {"align.outstanding", test_outstanding},
    TEST_END,
};
