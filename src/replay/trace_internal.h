/* Shared between the trace reader files. */
#ifndef SIMPI_TRACE_INTERNAL_H
#define SIMPI_TRACE_INTERNAL_H

#include "replay/trace.h"

int32_t trace_intern(struct trace_reader *t, const char *name);

#endif
