#ifndef VB_PLAN_H
#define VB_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include "common/vb_config.h"
#include "common/vb_env.h"
#include "bench/vb_target.h"
#include "bench/vb_writer.h"

/* Makes the plan of one run from the configuration and the prepared target: how the run
 * gets its descriptor, what it checks first, the flags, sizes, depth and sync call.
 * data_run is the number stamped into the data (warm-up runs first); first says whether
 * this is the session's first run (--overwrite rewrites in place after it). Fields the
 * engine owns (stop flags, watch, histogram, tick) are left zero. */
void vb_plan_build(const struct vb_config *cfg, struct vb_target *t, uint64_t data_run,
		   bool first, struct vb_write_plan *p);

/* Whether the file must be written once before the clock so that the runs write in place
 * over allocated blocks: on a file system that buffers a direct write extending a file
 * (cache, from the platform), with --direct, on a file vbench creates, unless the user's
 * own --overwrite warm-up already does it. Pure. */
bool vb_plan_fill_first(const struct vb_config *cfg, const struct vb_target *t,
			enum vb_cache cache);

#endif
