/* SPDX-License-Identifier: BSD-3-Clause */
/* Fitting point-to-point cost models to measurements (the SMPI paper's
 * method for `simpi calibrate pingpong`, docs/interop.md): a piecewise-linear
 * model T(S) = latency_i + S / bandwidth_i whose boundaries maximise the
 * product of the segments' correlation coefficients (and whose number of
 * segments gives the lowest log error, see fit.c),
 * each segment fitted by (relative) least squares; and the log error of a model
 * against measurements. */
#ifndef SIMPI_FIT_H
#define SIMPI_FIT_H

#define FIT_MAX_SEGMENTS 4

struct fit_segment {
    double upto;      /* largest size of the segment (bytes); the last: infinity */
    double latency;   /* seconds (the intercept) */
    double per_byte;  /* seconds per byte (the slope): bandwidth = 1 / per_byte */
    double r;         /* correlation coefficient of the segment's points */
    int first, count; /* the measurements it covers */
};

/* Fits n measurements (sizes increasing, times in seconds) with 1 to
 * max_segments segments of at least min_points points each; returns the
 * number of segments written to out. */
int fit_piecewise(const double *size, const double *time, int n, int max_segments, int min_points,
                  struct fit_segment *out);
/* Least squares weighted by 1 / time^2 over points [first, first + count):
 * fills latency (never negative), per_byte and the weighted r. */
void fit_line(const double *size, const double *time, int first, int count,
              struct fit_segment *seg);
/* The model's time for a size. */
double fit_eval(const struct fit_segment *seg, int nseg, double size);
/* Mean and largest |ln(model) - ln(measured)| over the measurements. */
void fit_log_error(const struct fit_segment *seg, int nseg, const double *size, const double *time,
                   int n, double *mean, double *max);

#endif
