/* Virtual time: an integer count of picoseconds (DESIGN 4.1). */
#ifndef SIMPI_SIMTIME_H
#define SIMPI_SIMTIME_H

#include <stdint.h>

typedef int64_t simtime_t;

#define SIMTIME_NEVER INT64_MAX
#define PS_PER_NS INT64_C(1000)
#define PS_PER_US INT64_C(1000000)
#define PS_PER_MS INT64_C(1000000000)
#define PS_PER_S INT64_C(1000000000000)

/* Rounds a duration in seconds to the nearest picosecond, saturating. */
simtime_t simtime_from_seconds(double seconds);
double simtime_to_seconds(simtime_t t);

#endif
