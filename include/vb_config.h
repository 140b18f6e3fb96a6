#ifndef VB_CONFIG_H
#define VB_CONFIG_H

#include <stdbool.h>
#include <stdint.h>

enum vb_source { VB_SRC_ZERO, VB_SRC_URANDOM, VB_SRC_RANDOM };
enum vb_sync { VB_SYNC_NONE, VB_SYNC_FSYNC, VB_SYNC_FDATASYNC, VB_SYNC_DSYNC };
enum vb_format { VB_FMT_HUMAN, VB_FMT_CSV, VB_FMT_JSON };
enum vb_tristate { VB_AUTO = -1, VB_OFF = 0, VB_ON = 1 };

/* Everything one invocation of `vbench` was asked to do; every field names its unit. */
struct vb_config {
	const char *target_path;      /* directory, file or device; "." by default */
	enum vb_source source;
	uint64_t bs_bytes;            /* bytes per write() */
	uint64_t count_blocks;        /* writes per run */
	uint64_t runs;                /* measured runs */
	uint64_t warmup_runs;         /* unmeasured runs before them */
	bool direct;                  /* O_DIRECT or the platform's equivalent */
	enum vb_sync sync;
	enum vb_tristate progress;    /* live progress line on stderr */
	const char *label;            /* NULL: derived from the environment */
	enum vb_format format;
	bool keep;                    /* keep the file vbench created */
	bool force;                   /* allow an existing file or unmounted block device */
	bool quiet;                   /* summary only */
	bool overwrite;               /* one file across runs, rewritten in place */
	bool no_header;               /* CSV: omit the header row */
	const char *csv_append_path;  /* CSV: append rows to this file, header once */
	uint64_t seed;                /* seed of the random source */
	bool seed_given;
	double interval_secs;         /* throughput sampling interval; 0 = off */
	double stall_secs;            /* warn when one call has not returned after this */
	double timeout_secs;          /* abort a run stuck this long in one call; 0 = never */
};

/* Fills cfg with the documented defaults (target ".", bs 1 MiB, count 1000, 5 runs,
 * source zero, sync fsync, human output, stall warning after 30 s). */
void vb_config_defaults(struct vb_config *cfg);

/* Stable lower-case names used in output and accepted on the command line. */
const char *vb_source_name(enum vb_source s);
const char *vb_sync_name(enum vb_sync s);
const char *vb_format_name(enum vb_format f);

#endif
