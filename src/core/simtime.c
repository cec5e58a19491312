/* Conversions between seconds (double) and picosecond virtual time. */
#include "core/simtime.h"

#include <math.h>

simtime_t simtime_from_seconds(double seconds) {
    double ps = seconds * 1e12;
    if (!(ps < 9.2e18)) return SIMTIME_NEVER; /* also catches NaN and inf */
    if (ps <= 0) return 0;
    return (simtime_t)llround(ps);
}

double simtime_to_seconds(simtime_t t) {
    return (double)t / 1e12;
}
