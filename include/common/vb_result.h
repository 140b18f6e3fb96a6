#ifndef VB_RESULT_H
#define VB_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include "common/vb_flushverdict.h"
#include "common/vb_hist.h"
#include "common/vb_knee.h"
#include "common/vb_stats.h"

/* Where in a run something went wrong. */
enum vb_stage {
	VB_STAGE_NONE, VB_STAGE_OPEN, VB_STAGE_WRITE, VB_STAGE_SYNC, VB_STAGE_CLOSE,
	VB_STAGE_RELEASE   /* the last close of a file without a name, which frees it */
};

/* Why a run ended before it wrote everything. */
enum vb_stop { VB_STOP_DONE, VB_STOP_ERROR, VB_STOP_SIGNAL, VB_STOP_TIMEOUT, VB_STOP_NOPROGRESS };

/* Throughput of one interval within a run. */
struct vb_interval {
	double start_secs;            /* since the run's clock started */
	double secs;
	uint64_t bytes;
};

/* The measurement of one run, computed before anything is formatted. */
struct vb_run {
	uint64_t run;                 /* 1-based; warm-up runs count separately */
	bool warmup;
	bool allocating;              /* --overwrite: the first run, which allocated the file */
	bool fill;                    /* not a run: the fill before the clock, which failed */
	enum vb_stop stop;
	enum vb_stage stage;          /* stage of the error, if stop != DONE */
	int err;                      /* errno of the failure, or 0 */
	int signo;                    /* signal that stopped the run, or 0 */
	uint64_t full_blocks;         /* records out: complete bs-sized writes */
	uint64_t partial_blocks;      /* records out: a final incomplete block */
	uint64_t bytes;               /* bytes written */
	uint64_t err_offset_bytes;    /* file offset of the failed call */
	double secs;                  /* first write to after sync and close */
	double write_secs;            /* time in write() calls and between them */
	double sync_secs;             /* time in the final fsync/fdatasync and close */
	uint64_t bytes_per_sec;       /* bytes / secs rounded, as dd prints it; 0 if secs is 0 */
	double data_wait_secs;        /* time writers waited for data, summed over them */
	double data_held_back;        /* that time as a fraction of the writers' time */
	bool data_note;               /* data_held_back is above VB_DATA_NOTE: say so */
	bool paused;                  /* the process was stopped (SIGSTOP) during the run */
	bool direct_refused;          /* EINVAL at offset 0: a setup error, not an I/O one */
	char detail[192];             /* what held or replaced the target, when that failed it */
	struct vb_latency latency;    /* of every write() call (one per block) */
	struct vb_interval *intervals;/* --interval samples, heap owned by the run */
	uint64_t n_intervals;
	struct vb_knee knee;          /* a lasting drop of the rate within the run */
};

/* The part of a run's time the data may hold writers back before the account says so. */
#define VB_DATA_NOTE 0.01

/* Rounds bytes/secs to an integer the way dd prints it (0 when secs <= 0). */
uint64_t vb_rate(uint64_t bytes, double secs);

/* A stage's name for messages: "open", "write", ... ("run" for none). */
const char *vb_stage_name(enum vb_stage s);

/* Frees what a run owns (its interval list). */
void vb_run_free(struct vb_run *r);

/* What the measured runs say, computed once and shared by every output format. */
struct vb_run_analysis {
	struct vb_summary rate;        /* bytes/sec of the completed measured runs */
	uint64_t completed;            /* measured runs that wrote everything */
	struct vb_trend trend;         /* bytes/sec against run number */
	int drifting;                  /* the trend's 95% interval excludes 0, change >= 1% */
	int unstable;                  /* cv above VB_UNSTABLE_CV */
	int runs_auto;                 /* runs=auto chose the number of runs */
	uint64_t run_bytes;            /* bytes each run was to write */
	double change_pct;             /* fitted change from the first to the last run, % */
	struct vb_latency latency;     /* every write of the completed measured runs */
	double sync_max_secs;          /* longest final sync of those runs */
	int have_intervals;
	double slowest_iv_bytes_per_sec, fastest_iv_bytes_per_sec;
	uint64_t slowest_iv_run, fastest_iv_run;
	double slowest_iv_start_secs, fastest_iv_start_secs;
	uint64_t paused_runs;          /* measured runs during which vbench was stopped */
	uint64_t first_paused_run;
	int page_cache_risk;           /* neither a sync nor direct I/O */
	int smaller_than_ram;          /* bytes per run below twice the RAM (with the above) */
	struct vb_knee_summary knee;   /* burst and sustained within the runs */
	struct vb_flush_result flush;  /* the flush probe after the runs (set by the caller) */
};

#endif
