#ifndef VB_ENGINE_H
#define VB_ENGINE_H

/* The warm-up and measured runs of one invocation, with the live progress line; in the
 * session's child (vb_guard.h) or, in tests, the calling thread. */

#include <stdbool.h>
#include <stdio.h>
#include "common/vb_config.h"
#include "common/vb_flushverdict.h"
#include "common/vb_hist.h"
#include "common/vb_io.h"
#include "common/vb_live.h"
#include "os/vb_os.h"
#include "common/vb_result.h"
#include "bench/vb_target.h"
#include "bench/vb_writer.h"

/* How the engine reaches the system and reports. */
struct vb_engine_io {
	const struct vb_io_ops *ops;  /* system calls (fakes in tests) */
	struct vb_live live;          /* progress and status lines (main.c: vb_out_live) */
	bool progress;                /* draw the live progress line */
	struct vb_sigflags *flags;    /* stop and status requests */
	struct vb_watch *watch;       /* the call in progress, for a watchdog (may be NULL) */
	/* Records and shows each run; false when it could not (the engine stops). */
	bool (*on_run)(void *arg, const struct vb_run *run, const struct vb_hist *latency);
	void *arg;
	/* The flush probe's result after the runs; NULL: no probe is made. */
	void (*on_flush)(void *arg, const struct vb_flush_result *flush);
};

/* How the engine's session ended. */
struct vb_engine_result {
	int stop_signal;              /* the signal that ended it, or 0 */
	bool failed;                  /* a run ended in an error or a timeout, or on_run
				       * said no */
	int pool_errno;               /* the data could not be prepared (then no run was made) */
};

/* Runs cfg's runs against the prepared target; true when every run completed. */
bool vb_engine_run(const struct vb_config *cfg, struct vb_target *t,
		   const struct vb_engine_io *io, struct vb_engine_result *res);

/* Everything one invocation measured, in order (kept by the process that prints). */
struct vb_runlog {
	struct vb_run *runs;          /* warm-up runs first (flagged), then measured ones */
	uint64_t n_runs;
	uint64_t cap_runs;
	struct vb_hist latency;       /* writes of the completed measured runs */
	bool out_of_memory;           /* a run could not be recorded (never cleared) */
	struct vb_flush_result flush; /* the flush probe, after the runs (zero: none) */
};

/* Makes s empty. */
void vb_runlog_init(struct vb_runlog *s);

/* Appends r (taking over its intervals), merging a completed measured run's histogram;
 * false, out_of_memory set, without memory. grow: realloc(3) (NULL: realloc). */
bool vb_runlog_add(struct vb_runlog *s, void *(*grow)(void *p, size_t n), struct vb_run *r,
		   const struct vb_hist *latency);

/* Frees the session's runs. */
void vb_runlog_free(struct vb_runlog *s);

#endif
