#ifndef VB_CONFIG_H
#define VB_CONFIG_H

#include <stdbool.h>
#include <stdint.h>
#include "common/vb_io.h"

enum vb_source { VB_SRC_ZERO, VB_SRC_URANDOM, VB_SRC_RANDOM };
enum vb_sync { VB_SYNC_NONE, VB_SYNC_FSYNC, VB_SYNC_FDATASYNC, VB_SYNC_DSYNC };
#define VB_N_SYNC 4
enum vb_format { VB_FMT_HUMAN, VB_FMT_CSV, VB_FMT_JSON };
enum vb_tristate { VB_AUTO = -1, VB_OFF = 0, VB_ON = 1 };

/* runs=auto: the fewest runs, and the defaults of --max-runs and --precision. */
#define VB_AUTO_MIN_RUNS 3
#define VB_AUTO_MAX_RUNS 20
#define VB_AUTO_PRECISION 0.03

/* Most writes in flight (--qd). */
#define VB_QD_MAX 256

/* Longest --label: longer is refused, not cut (two cut alike would read as one). */
#define VB_LABEL_MAX 256

/* Everything one invocation of `vbench` was asked to do; every field names its unit. */
struct vb_config {
	const char *target_path;      /* directory, file or device; required */
	enum vb_source source;
	uint64_t bs_bytes;            /* bytes per write */
	uint64_t count_blocks;        /* writes per run */
	uint64_t runs;                /* measured runs; with runs_auto, the most (--max-runs) */
	bool runs_auto;               /* runs=auto: as many as the precision rule asks */
	double precision;             /* runs=auto: the 95% CI's half-width / the mean */
	double max_time_secs;         /* runs=auto: budget of measured time; 0 = none */
	uint64_t warmup_runs;         /* unmeasured runs before them */
	uint64_t qd;                  /* writes in flight on the one sequential stream */
	bool direct;                  /* O_DIRECT or the platform's equivalent */
	enum vb_sync sync;
	enum vb_tristate progress;    /* live progress line on stderr */
	const char *label;            /* NULL: derived from the environment */
	enum vb_format format;
	bool keep;                    /* keep the file vbench created */
	bool force;                   /* allow an existing file or a disk not in use */
	bool quiet;                   /* summary only */
	bool overwrite;               /* one file across runs, rewritten in place */
	bool no_header;               /* CSV: omit the header row */
	const char *csv_append_path;  /* CSV: append rows to this file, header once */
	uint64_t seed;                /* seed of the random source */
	bool seed_given;
	double interval_secs;         /* samples printed this often; 0 = not asked (the knee
				       * still samples every VB_KNEE_DEFAULT_INTERVAL_SECS) */
	bool check_flush;             /* --check-flush: the full flush probe */
	const char *trace_path;       /* --trace: the interval samples go to this CSV file */
	double stall_secs;            /* warn when one call has not returned after this */
	double timeout_secs;          /* abort a run stuck this long in one call; 0 = never */
};

/* The shortest --timeout honoured: the watchdog looks at the calls this often. */
#define VB_TIMEOUT_MIN_SECS 0.1
#define VB_WATCH_POLL_MS 100

/* What a sync mode does: the one table the parser, the plan and the output share. */
struct vb_sync_mode {
	const char *name;             /* as typed and printed: "none", "fsync", ... */
	bool dsync_open;              /* every write durable: opened with O_DSYNC's kind */
	enum vb_sync_call end_call;   /* the timed call after the last write */
};

/* Fills cfg with the documented defaults (vbench(1)). */
void vb_config_defaults(struct vb_config *cfg);

/* The entry of the sync table for s. */
const struct vb_sync_mode *vb_sync_mode(enum vb_sync s);

/* The sync mode named name, or -1. */
int vb_sync_by_name(const char *name);

/* Bytes of one run: bs x count, which the parser has checked not to overflow. */
uint64_t vb_run_bytes(const struct vb_config *cfg);

/* Stable lower-case names used in output and accepted on the command line. */
const char *vb_source_name(enum vb_source s);
const char *vb_sync_name(enum vb_sync s);

#endif
