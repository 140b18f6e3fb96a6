#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "common/vb_config.h"

void vb_config_defaults(struct vb_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->source = VB_SRC_ZERO;
	cfg->bs_bytes = 1ULL << 20;
	cfg->count_blocks = 1000;
	cfg->runs = 5;
	cfg->qd = 1;
	cfg->sync = VB_SYNC_FSYNC;
	cfg->progress = VB_AUTO;
	cfg->format = VB_FMT_HUMAN;
	cfg->stall_secs = 30.0;
	cfg->precision = VB_AUTO_PRECISION;
}

static const struct vb_sync_mode sync_table[VB_N_SYNC] = {
	[VB_SYNC_NONE] = {"none", false, VB_CALL_NONE},
	[VB_SYNC_FSYNC] = {"fsync", false, VB_CALL_FSYNC},
	[VB_SYNC_FDATASYNC] = {"fdatasync", false, VB_CALL_FDATASYNC},
	[VB_SYNC_DSYNC] = {"dsync", true, VB_CALL_NONE},
};

const struct vb_sync_mode *vb_sync_mode(enum vb_sync s)
{
	return &sync_table[(unsigned)s < VB_N_SYNC ? s : VB_SYNC_FSYNC];
}

int vb_sync_by_name(const char *name)
{
	for (int i = 0; i < VB_N_SYNC; i++)
		if (strcmp(name, sync_table[i].name) == 0)
			return i;
	return -1;
}

uint64_t vb_run_bytes(const struct vb_config *cfg)
{
	return cfg->bs_bytes * cfg->count_blocks;
}

const char *vb_source_name(enum vb_source s)
{
	static const char *const names[] = {
		[VB_SRC_ZERO] = "zero", [VB_SRC_URANDOM] = "urandom", [VB_SRC_RANDOM] = "random",
	};

	return (unsigned)s <= VB_SRC_RANDOM ? names[s] : "?";
}

const char *vb_sync_name(enum vb_sync s)
{
	return vb_sync_mode(s)->name;
}
