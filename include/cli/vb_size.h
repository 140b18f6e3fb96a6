#ifndef VB_SIZE_H
#define VB_SIZE_H

#include <stdint.h>

/* Largest value any size or count may take: the largest off_t on 64-bit systems. */
#define VB_SIZE_MAX ((uint64_t)INT64_MAX)

/* Parses a dd-style SIZE ("1M", "4KiB", "2x512", "10kB") into *out: NULL, or a static
 * sentence saying what is wrong (zero only with allow_zero). */
const char *vb_parse_size0(const char *text, int allow_zero, uint64_t *out);

/* Parses seconds ("30", "0.5"): NULL, or a static sentence (negative, NaN, junk). */
const char *vb_parse_secs(const char *text, double *out_secs);

#endif
