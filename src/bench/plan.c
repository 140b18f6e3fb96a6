#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "common/vb_knee.h"
#include "bench/vb_plan.h"

void vb_plan_build(const struct vb_config *cfg, struct vb_target *t, uint64_t data_run,
		   bool first, struct vb_write_plan *p)
{
	const struct vb_sync_mode *sm = vb_sync_mode(cfg->sync);

	memset(p, 0, sizeof *p);
	p->dirfd = t->dirfd;
	p->held_fd = t->held_fd;
	p->req.kind = VB_OPEN_EXISTING;
	p->req.direct = cfg->direct;
	p->req.dsync = sm->dsync_open;
	p->end_call = sm->end_call;
	p->bs_bytes = cfg->bs_bytes;
	p->count_blocks = cfg->count_blocks;
	p->qd = cfg->qd ? cfg->qd : 1;
	p->run = data_run;
	p->interval_secs = cfg->interval_secs > 0 ? cfg->interval_secs
						 : VB_KNEE_DEFAULT_INTERVAL_SECS;
	p->id = t->id;
	switch (t->kind) {
	case VB_TGT_DIR:
		if (t->anon) {
			p->acquire = VB_ACQ_ANON;
			p->req.kind = VB_OPEN_ANON;
			p->defer_release = true;
			return;
		}
		if (t->per_run_name) {
			p->acquire = VB_ACQ_NEWNAME;
			p->req.kind = VB_OPEN_CREATE;
			p->name = vb_target_next_name(t);
			p->defer_release = true;
			return;
		}
		break;   /* one named file for every run, as below */
	case VB_TGT_NEWFILE:
	case VB_TGT_EXISTING:
		break;
	case VB_TGT_DISK:
		p->acquire = VB_ACQ_DISK;
		p->check_in_use = true;
		return;
	case VB_TGT_SINK:
		p->acquire = VB_ACQ_SINK;
		p->name = t->name;
		p->sync_may_fail = true;
		return;
	}
	/* Emptied (not with --overwrite after the first run) only once known to be the file
	 * allowed: O_TRUNC would empty whatever was renamed onto the name meanwhile. */
	p->acquire = VB_ACQ_NAMED;
	p->name = t->name;
	p->check_in_use = true;
	p->truncate = !(cfg->overwrite && !first);
}

bool vb_plan_fill_first(const struct vb_config *cfg, const struct vb_target *t,
			enum vb_cache cache)
{
	return cfg->direct && cache == VB_CACHE_FS_BUFFERS_EXTENDING &&
	       (t->kind == VB_TGT_DIR || t->kind == VB_TGT_NEWFILE) &&
	       !(cfg->overwrite && cfg->warmup_runs > 0);
}
