#ifndef VB_TARGET_TEST_H
#define VB_TARGET_TEST_H

/* What only the tests of target.c call. */

#include <stddef.h>
#include <stdint.h>

/* A block size near bs that direct I/O accepts with granularity align: the power of
 * two nearest to bs, at least align, as a size with a suffix ("1M", "4k"). Pure. */
void vb_direct_suggestion(uint64_t bs, uint32_t align, char *buf, size_t n);

#endif
