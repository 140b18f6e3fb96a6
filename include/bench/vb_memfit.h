#ifndef VB_MEMFIT_H
#define VB_MEMFIT_H

/* Whether the data buffers fit in memory (MemAvailable, ulimit -v), decided before
 * anything is written. Pure but for the probe the caller hands in. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"

/* Bytes the process needs besides the buffers (stacks, records), asked with them. */
#define VB_MEM_MARGIN (4ULL << 20)

/* Whether n bytes of memory can be had now; arg is the caller's. */
typedef bool (*vb_mem_probe)(uint64_t n, void *arg);

/* When the buffers need more than avail (0: not known), or with the writers' stacks and
 * VB_MEM_MARGIN more than probe can have, writes why into buf with the largest bs (and
 * depth) that would fit, and returns 1; else 0. */
int vb_memory_short(const struct vb_config *cfg, uint64_t avail, vb_mem_probe probe,
		    void *arg, char *buf, size_t n);

#endif
