#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "vb_config.h"

void vb_config_defaults(struct vb_config *cfg)
{
	memset(cfg, 0, sizeof *cfg);
	cfg->target_path = ".";
	cfg->source = VB_SRC_ZERO;
	cfg->bs_bytes = 1ULL << 20;
	cfg->count_blocks = 1000;
	cfg->runs = 5;
	cfg->sync = VB_SYNC_FSYNC;
	cfg->progress = VB_AUTO;
	cfg->format = VB_FMT_HUMAN;
	cfg->stall_secs = 30.0;
}

const char *vb_source_name(enum vb_source s)
{
	switch (s) {
	case VB_SRC_ZERO: return "zero";
	case VB_SRC_URANDOM: return "urandom";
	case VB_SRC_RANDOM: return "random";
	}
	return "?";
}

const char *vb_sync_name(enum vb_sync s)
{
	switch (s) {
	case VB_SYNC_NONE: return "none";
	case VB_SYNC_FSYNC: return "fsync";
	case VB_SYNC_FDATASYNC: return "fdatasync";
	case VB_SYNC_DSYNC: return "dsync";
	}
	return "?";
}

const char *vb_format_name(enum vb_format f)
{
	switch (f) {
	case VB_FMT_HUMAN: return "human";
	case VB_FMT_CSV: return "csv";
	case VB_FMT_JSON: return "json";
	}
	return "?";
}
