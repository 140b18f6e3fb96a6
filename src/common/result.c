#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>

#include "common/vb_result.h"

uint64_t vb_rate(uint64_t bytes, double secs)
{
	if (!(secs > 0))
		return 0;
	double r = (double)bytes / secs;
	if (r >= 18446744073709549568.0)
		return UINT64_MAX;
	return (uint64_t)(r + 0.5);
}

void vb_run_free(struct vb_run *r)
{
	free(r->intervals);
	r->intervals = NULL;
	r->n_intervals = 0;
}

const char *vb_stage_name(enum vb_stage s)
{
	static const char *const names[] = {
		[VB_STAGE_NONE] = "run", [VB_STAGE_OPEN] = "open", [VB_STAGE_WRITE] = "write",
		[VB_STAGE_SYNC] = "sync", [VB_STAGE_CLOSE] = "close", [VB_STAGE_RELEASE] = "release",
	};

	return (unsigned)s <= VB_STAGE_RELEASE ? names[s] : "run";
}
