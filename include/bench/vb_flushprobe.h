#ifndef VB_FLUSHPROBE_H
#define VB_FLUSHPROBE_H

/* The flush probe (vb_flushverdict.h): after the runs, small direct writes with and
 * without the sync call, and one call after known dirty data, on the run's target. */

#include <stdbool.h>
#include <stdint.h>
#include "common/vb_flushverdict.h"
#include "common/vb_io.h"
#include "bench/vb_writer.h"

struct vb_flush_probe_cfg {
	bool full;                 /* --check-flush: more samples, more dirty data */
	enum vb_sync_call call;    /* the call a flush is made with */
	double budget_secs;        /* the short form stops taking samples after this; 0: none */
	uint32_t align;            /* direct I/O granularity of the target */
	uint64_t max_bytes;        /* a disk: stay within what the runs wrote; 0: own file */
};

/* Opens the target as p says (direct, without O_DSYNC), measures, decides into out;
 * every call is watched and the stop flag looked at between calls. */
void vb_flush_probe(const struct vb_io_ops *ops, const struct vb_write_plan *p,
		    const struct vb_flush_probe_cfg *c, struct vb_flush_result *out);

#endif
