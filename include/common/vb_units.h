#ifndef VB_UNITS_H
#define VB_UNITS_H

#include <stddef.h>
#include <stdint.h>

/* bytes as the shortest exact size, as bs= is typed: "1M", "4k", "1536", "1024T". */
void vb_size_short(char *buf, size_t n, uint64_t bytes);

#endif
