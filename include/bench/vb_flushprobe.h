#ifndef VB_FLUSHPROBE_H
#define VB_FLUSHPROBE_H

/* The flush probe (see vb_flushverdict.h for what its figures mean): after the measured
 * runs, small direct writes each followed by the sync call, the same writes without it,
 * and one call after a known amount of dirty data, all on the run's target. */

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
	uint64_t max_bytes;        /* a disk: the bytes the runs wrote, which the probe stays
				    * within; 0: a file of the probe's own */
};

/* Opens the target as plan p says (made direct, without O_DSYNC) and measures; fills out
 * (verdict decided) and returns. Every call is published in p->watch and the stop flag
 * is looked at between calls. */
void vb_flush_probe(const struct vb_io_ops *ops, const struct vb_write_plan *p,
		    const struct vb_flush_probe_cfg *c, struct vb_flush_result *out);

#endif
