#ifndef VB_PLAN_H
#define VB_PLAN_H

#include <stdbool.h>
#include <stdint.h>
#include "common/vb_config.h"
#include "common/vb_env.h"
#include "bench/vb_target.h"
#include "bench/vb_writer.h"

/* The plan of one run from cfg and the prepared target; data_run is stamped into the
 * data, first: the session's first run. The engine's fields are left zero. */
void vb_plan_build(const struct vb_config *cfg, struct vb_target *t, uint64_t data_run,
		   bool first, struct vb_write_plan *p);

/* Whether the file is written once before the clock, so that direct runs write in place
 * where the file system buffers extending direct writes. Pure. */
bool vb_plan_fill_first(const struct vb_config *cfg, const struct vb_target *t,
			enum vb_cache cache);

#endif
