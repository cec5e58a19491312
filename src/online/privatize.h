/* Per-rank copies of the program's writable globals (--privatize). */
#ifndef SIMPI_PRIVATIZE_H
#define SIMPI_PRIVATIZE_H

#include <stdint.h>

/* Copies the globals for n ranks; returns their size in bytes (0: none). */
int64_t privatize_init(int32_t n);
void privatize_load(int32_t rank); /* before switching to rank */
void privatize_save(int32_t rank); /* after it switched back */
void privatize_end(void);

#endif
