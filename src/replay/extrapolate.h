/* SPDX-License-Identifier: BSD-3-Clause */
/* Traces of one SPMD program recorded at a few small scales written as the
 * trace at a larger one (`simpi extrapolate`, docs/extrapolation.md): each
 * rank's peers are offsets on a 1-, 2- or 3-D grid laid out as
 * MPI_Dims_create and MPI_Cart_create lay it out (periodic or not), ranks
 * of one position on the grid (a corner, an edge, the inside) follow one
 * template, and each size and a rank's computation are laws of the rank
 * count (or of the grid's extents) fitted across the scales. What follows
 * no such law is refused, naming the rank and record where the pattern
 * broke. */
#ifndef SIMPI_EXTRAPOLATE_H
#define SIMPI_EXTRAPOLATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/error.h"

struct extrapolation {
    int ndims;     /* the grid found: 1, 2 or 3 dimensions */
    bool periodic; /* whether it wraps */
    bool bisected; /* whether ranks are laid out by recursive bisection */
    int classes;   /* positions on the grid with a template of their own */
    int fields;    /* numbers fitted (sizes, bursts) */
    int thinnest;  /* the fewest scales a position of the target is seen at */
    /* the computation's error band: over every burst of the target, its
     * law's largest relative residual across the scales plus the spread of
     * its position's ranks around their mean, times its value at N,
     * summed and divided by the computation at N */
    double worst_error;
    char worst[200]; /* the burst that adds the most to it, and its law */
    /* variable counts (alltoallv ...), extended as their mean per peer:
     * the farthest a count of the largest scales is from its class's mean
     * (relative), and where (empty: none) */
    double counts_spread;
    char counts_worst[200];
    /* sends whose sizes differ rank to rank or repetition to repetition
     * (NPB SP's cells), extended as their class's mean: the farthest a
     * size of the largest scale is from it, plus its law's residual
     * (relative), and where (empty: none) */
    double sizes_spread;
    char sizes_worst[300];
    /* a position that one scale only has (a 3-D grid's inside at its
     * largest): its numbers constant (empty: none) */
    char one_scale[200];
    /* a dimension of the grid whose extent is the same at every scale
     * and another at the target: what depends on it is not seen (empty:
     * none) */
    char unseen_dim[200];
    /* scales whose segments (records up to a blocking collective) differ
     * by what no law of P explains (a solver's iterations to a tolerance,
     * a test taken at another iteration), brought to the largest scale's
     * order: the largest share of a scale's segments left out or
     * repeated, and where (empty: none) */
    double aligned_share;
    char aligned[300];
    /* loops whose iterations follow a law within a few percent only (a
     * time step run as often as the physics needs): the largest residual
     * of their law across the scales (relative), and where (empty: none) */
    double iters_band;
    char iters_worst[300];
    double deviation, computation, worst_share; /* (the sums; the worst position's band) */
};

/* Reads the traces at paths (two or more scales of one program), finds
 * their pattern and writes the trace at target ranks on out (native
 * text); false with why (the rank and record where the pattern broke). */
bool extrapolate(char *const *paths, int npaths, int32_t target, FILE *out, struct extrapolation *x,
                 struct sim_error *err);

/* " periodic", " bisected" (ranks laid out by recursive bisection) or "":
 * the grid's kind, as the messages say it. */
const char *extrapolation_grid_word(const struct extrapolation *x);

/* Says on f, after prefix, how variable counts were extended (nothing if
 * the traces have none). */
void extrapolation_say_counts(const struct extrapolation *x, FILE *f, const char *prefix);

/* The same, generated rank by rank without a file (a replay of 2^20 ranks
 * holds the scales' records, not the target's): opened (NULL with why),
 * each rank's next record (1; 0 at its end; its lists malloc'd, and
 * *names the reader whose interval names its ids are), the target's
 * ranks, closed. */
struct extrapolator;
struct trace_rec;
struct trace_reader;
struct extrapolator *extrapolator_open(char *const *paths, int npaths, int32_t target,
                                       struct extrapolation *x, struct sim_error *err);
int extrapolator_next(struct extrapolator *e, int32_t rank, struct trace_rec *r,
                      const struct trace_reader **names);
int32_t extrapolator_ranks(const struct extrapolator *e);
void extrapolator_close(struct extrapolator *e);

#endif
