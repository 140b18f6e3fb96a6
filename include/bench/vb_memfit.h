#ifndef VB_MEMFIT_H
#define VB_MEMFIT_H

/* Whether the data buffers of a configuration fit in the memory vbench may use, decided
 * at setup: a session that cannot have its buffers is refused before anything is
 * written, with what would fit, whether the memory is short (MemAvailable) or the
 * process's own limit is (ulimit -v). Pure but for the probe the caller hands in. */

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "common/vb_config.h"

/* Bytes besides the buffers that the benchmark process needs (its threads' stacks, the
 * records of the runs), asked of the probe with them. */
#define VB_MEM_MARGIN (4ULL << 20)

/* Whether n bytes of memory can be had now; arg is the caller's. */
typedef bool (*vb_mem_probe)(uint64_t n, void *arg);

/* When the buffers of cfg need more than avail bytes (0: not known), or they, the stacks
 * of its writer threads and VB_MEM_MARGIN more than probe can have, writes why into buf, naming what was asked and the
 * largest bs (and, with --qd above 1, the largest depth) that would fit, and returns 1;
 * else 0. */
int vb_memory_short(const struct vb_config *cfg, uint64_t avail, vb_mem_probe probe,
		    void *arg, char *buf, size_t n);

#endif
