#ifndef VB_SUPERVISE_H
#define VB_SUPERVISE_H

/* The supervisor: runs the engine (vb_engine.h) in a worker and watches it. The worker
 * is a child process where there are processes, so that a write or sync stuck in the
 * kernel (a frozen filesystem, a hung disk) can never keep vbench from reporting what
 * completed and exiting when --timeout says so. Runs come back over a channel as they
 * finish; the call in progress is read from shared memory. */

#include <stdbool.h>
#include <stdio.h>
#include "common/vb_config.h"
#include "bench/vb_guard.h"
#include "os/vb_os.h"
#include "bench/vb_engine.h"
#include "common/vb_status.h"
#include "bench/vb_target.h"
#include "bench/vb_writer.h"

/* What the guard, the supervisor and its worker share: the signal flags, the watch of
 * the runs and the guard's watch of the session's own calls. */
struct vb_shared {
	struct vb_sigflags flags;
	struct vb_watch watch;
	struct vb_guard_watch guard;
};

/* Allocates the shared block; it must exist before the signal handlers are installed,
 * since they write into it. NULL with errno. */
struct vb_shared *vb_shared_new(void);

/* How the supervisor talks to the user. */
struct vb_supervise_io {
	const struct vb_io_ops *ops;                       /* the worker's calls (fakes in
							    * tests; NULL: vb_os_io) */
	struct vb_live live;                               /* progress, status and stall
							    * lines (main.c: vb_out_live) */
	bool progress;                                     /* the worker draws progress */
	void (*on_run)(void *arg, const struct vb_run *r); /* shows a run as it arrives */
	void *arg;
	int csv_fd, trace_fd;   /* output files the worker closes (ignored unless above 2) */
	/* What the runs received are kept with, as realloc(3); NULL: realloc (tests hand
	 * in one that fails). */
	void *(*grow)(void *p, size_t n);
};

/* How the session ended. */
struct vb_supervise_result {
	int stop_signal;          /* the signal that ended it, or 0 */
	bool failed;              /* a run failed or timed out */
	bool aborted;             /* the worker was stuck and left behind: touch nothing */
	int pool_errno;           /* the data could not be prepared */
	int worker_signal;        /* the worker died of this signal */
	bool worker_lost;         /* the worker ended without reporting */
	bool name_live;           /* the stuck worker may have left leftover_name */
	char leftover_name[64];
};

/* Runs cfg's session against the prepared target in a worker, recording each run into
 * s (and showing it through io) as it arrives; watches for stalls (--stall-timeout) and
 * aborts a call stuck past --timeout. Returns VB_OK when every run completed, VB_E_IO
 * when one failed or the session was stopped (see res), or VB_E_SETUP with err when no
 * worker could be started. */
enum vb_status vb_supervise(const struct vb_config *cfg, struct vb_target *t,
			    struct vb_shared *sh, const struct vb_supervise_io *io,
			    struct vb_runlog *s, struct vb_supervise_result *res,
			    struct vb_err *err);

#endif
